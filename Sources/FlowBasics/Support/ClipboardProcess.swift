import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a clipboard tool (`xclip`, `xsel`, `wl-copy`, `wl-paste`) with `posix_spawn`, feeding it standard
/// input and collecting what it prints.
///
/// Minimal on purpose, for one awkward trait of these tools: the copying ones fork a child that stays
/// behind to serve the selection, holding on to the standard output and error they were given. So the
/// output is read to its end only for the pasting tools (which do not fork); otherwise the tool's own
/// exit is waited for, and standard error is read afterwards without waiting for an end that the
/// serving child would hold off.
struct ClipboardProcess {
  var executable: String
  var arguments: [String]
  var environment: [String: String]

  struct Result {
    var status: Int32
    var output: [UInt8]
    var error: String
  }

  /// How long a tool may take: a selection owner that never answers must not hang the run.
  static let deadline: Duration = .seconds(10)

  func run(input: [UInt8]?, readOutput: Bool) throws -> Result {
    var inputPipe: [Int32] = [-1, -1]
    var outputPipe: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    defer { for fd in inputPipe + outputPipe + errorPipe where fd >= 0 { close(fd) } }
    // Socket pairs rather than pipes: they can be made close-on-exec at once (Swift's Glibc lacks pipe2),
    // so no other thread's child inherits them; and writing to a tool that exited without reading fails
    // with EPIPE (MSG_NOSIGNAL) instead of killing flow with SIGPIPE.
    func pair(_ fds: inout [Int32]) -> Bool {
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0
    }
    guard pair(&inputPipe), pair(&errorPipe), !readOutput || pair(&outputPipe)
    else { throw ClipboardError("cannot make a socket pair: \(String(cString: strerror(errno)))") }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
    if readOutput {
      posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw ClipboardError("cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    // Our copies of the child's ends, so that end of file arrives when the child closes its own.
    for fd in [inputPipe[0], outputPipe[1], errorPipe[1]] where fd >= 0 { close(fd) }
    (inputPipe[0], outputPipe[1], errorPipe[1]) = (-1, -1, -1)

    let stop = ContinuousClock.now + Self.deadline
    if let input {
      var written = 0
      while written < input.count {
        let count = input[written...].withUnsafeBytes {
          Glibc.send(inputPipe[1], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if count < 0 && errno == EINTR { continue }
        if count < 0 { break }
        written += count
      }
    }
    close(inputPipe[1])
    inputPipe[1] = -1

    var output: [UInt8] = []
    if readOutput {
      guard Self.readAll(outputPipe[0], into: &output, until: stop) else {
        kill(pid, SIGKILL)
        _ = Self.wait(pid)
        throw ClipboardError("\(executable) did not finish within \(Self.deadline.components.seconds) seconds")
      }
    }
    let status = Self.wait(pid)
    var error: [UInt8] = []
    _ = fcntl(errorPipe[0], F_SETFL, O_NONBLOCK)
    var chunk = [UInt8](repeating: 0, count: 4096)
    while error.count < 65_536 {
      let count = chunk.withUnsafeMutableBytes { read(errorPipe[0], $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      error.append(contentsOf: chunk[0..<count])
    }
    return Result(status: status, output: output, error: String(decoding: error, as: UTF8.self))
  }

  /// Reads `fd` to its end, or gives up at `stop`.
  private static func readAll(_ fd: Int32, into output: inout [UInt8], until stop: ContinuousClock.Instant) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let left = ContinuousClock.now.duration(to: stop)
      guard left > .zero else { return false }
      let ready = poll(&descriptor, 1, Int32(clamping: left.components.seconds * 1000 + 1))
      if ready < 0 && errno == EINTR { continue }
      if ready <= 0 { continue }
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return true }
      output.append(contentsOf: chunk[0..<count])
    }
  }

  private static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, which Swift does not import: a signal's death reads as 128 + its number.
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }
}

/// A clipboard tool that could not run.
struct ClipboardError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
