import Foundation
import Synchronization

/// An MCP server running as a child process: started with `posix_spawnp` in a process group of its own,
/// its stdin and stdout the protocol's, its stderr kept (the last lines) for diagnostics and the trace.
public final class ServerProcess: Sendable {
  public let pid: pid_t
  /// Read by the connection (the server's stdout).
  public let output: Int32
  /// Written by the connection (the server's stdin).
  public let input: Int32
  private let stderrTail = StderrBuffer()
  private let exitStatus = Mutex<Int32?>(nil)

  /// Why a server could not start.
  public struct LaunchFailure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Starts `command` (found on PATH) with `arguments`; `environment` is added to flow's own.
  public init(command: String, arguments: [String], environment: [String: String]) throws(LaunchFailure) {
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    var errors: [Int32] = [0, 0]
    // Close-on-exec, so that a second server started later does not inherit this one's pipes (and keep
    // its stdin open after flow closes it). Glibc's pipe2 is not visible to Swift without _GNU_SOURCE.
    func closeOnExec(_ pair: inout [Int32]) -> Bool {
      guard pipe(&pair) == 0 else { return false }
      for descriptor in pair { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      return true
    }
    guard closeOnExec(&toChild), closeOnExec(&fromChild), closeOnExec(&errors) else {
      throw LaunchFailure(description: "cannot make pipes: \(String(cString: strerror(errno)))")
    }
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { $1 }
    let argumentPointers = ([command] + arguments).map { strdup($0) }
    let environmentPointers = merged.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
    defer { (argumentPointers + environmentPointers).forEach { free($0) } }
    var argv = argumentPointers + [nil]
    var envp = environmentPointers + [nil]

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    // flow ignores SIGPIPE and may catch SIGINT; the server gets the defaults back.
    for number in [SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    // Its own group: Ctrl-C at flow's terminal reaches flow, which cancels the call and then shuts the
    // server down in order, and the whole group (a `uvx` and its Python) can be signalled at the end.
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
    posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO)

    var pid: pid_t = 0
    let status = posix_spawnp(&pid, command, &actions, &attributes, &argv, &envp)
    for descriptor in [toChild[0], fromChild[1], errors[1]] { close(descriptor) }
    guard status == 0 else {
      for descriptor in [toChild[1], fromChild[0], errors[0]] { close(descriptor) }
      throw LaunchFailure(description: "cannot start '\(command)': \(String(cString: strerror(status)))")
    }
    self.pid = pid
    self.input = toChild[1]
    self.output = fromChild[0]
    let errorDescriptor = errors[0]
    let tail = stderrTail
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(errorDescriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        tail.state.withLock { $0.append(buffer[0..<count]) }
      }
      close(errorDescriptor)
    }
    thread.name = "flow.mcp.stderr"
    thread.start()
  }

  /// The last lines the server wrote to stderr (at most 20 lines, 4 KiB), terminal controls removed.
  public var stderrLines: [String] { stderrTail.state.withLock { $0.lines } }

  /// The exit status once reaped: a number, or 128 + the signal.
  public var status: Int32? {
    exitStatus.withLock { status in
      if status == nil {
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f) }
      }
      return status
    }
  }

  /// Ends the server: its stdin is already closed (the connection's `close`); wait `grace` for it to exit,
  /// then SIGTERM the group, wait again, then SIGKILL. The group is signalled even after its leader
  /// exits, so nothing the server started outlives the run.
  public func terminate(grace: Duration = .seconds(2)) {
    if !waitForExit(within: grace) {
      kill(-pid, SIGTERM)
      if !waitForExit(within: grace) {
        kill(-pid, SIGKILL)
        _ = waitForExit(within: .seconds(5))
      }
    }
    kill(-pid, SIGTERM)
  }

  private func waitForExit(within limit: Duration) -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if status != nil { return true }
      usleep(5_000)
    }
    return status != nil
  }
}

/// Shared between the process and its stderr reader thread.
private final class StderrBuffer: Sendable {
  let state = Mutex(StderrTail())
}

/// The end of a server's stderr.
private struct StderrTail {
  private var bytes: [UInt8] = []

  mutating func append(_ chunk: ArraySlice<UInt8>) {
    bytes.append(contentsOf: chunk)
    if bytes.count > 8192 { bytes.removeFirst(bytes.count - 4096) }
  }

  var lines: [String] {
    let text = String(decoding: bytes.suffix(4096), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
      String(line.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" }.map(Character.init))
    }
    return Array(lines.suffix(20))
  }
}
