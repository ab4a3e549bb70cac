import FlowDiagnostics
import FlowSystem
import FoundationEssentials
import Glibc
import Synchronization

/// An MCP server running as a child process (a ``Subprocess``, in a process group of its own),
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
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { $1 }
    // Its own group: Ctrl-C at flow's terminal reaches flow, which cancels the call and then shuts the
    // server down in order, and the whole group (a `uvx` and its Python) can be signalled at the end.
    let child: Subprocess
    do {
      child = try Subprocess.spawn(
        Subprocess.Options(
          executable: command, arguments: arguments, environment: merged, standardInput: .pipe))
    } catch {
      throw LaunchFailure(description: "cannot start '\(command)': \(error.message)")
    }
    let pid = child.pid
    self.pid = pid
    self.input = child.standardInput
    self.output = child.standardOutput
    let errorDescriptor = child.standardError
    let tail = stderrTail
    DetachedThread.run {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(errorDescriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        tail.state.withLock { $0.append(buffer[0..<count]) }
      }
      close(errorDescriptor)
    }
  }

  /// The last lines the server wrote to stderr (at most 20 lines, 4 KiB), terminal controls removed.
  public var stderrLines: [String] { stderrTail.state.withLock { $0.lines } }

  /// The exit status once reaped: a number, or 128 + the signal.
  public var status: Int32? {
    exitStatus.withLock { status in
      if status == nil {
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
          status = Termination(waitStatus: raw).shellStatus
          Subprocess.reaped(pid)
        }
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
