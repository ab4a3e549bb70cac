import FlowDiagnostics
import FoundationEssentials
import Glibc

extension Subprocess {
  /// What a short-lived program wrote, and how it ended.
  public struct Collected: Sendable, Hashable {
    public var termination: Termination
    public var output: [UInt8]
    /// The first ``Subprocess/errorLimit`` bytes of standard error.
    public var error: [UInt8]

    public var errorText: String { String(decoding: error, as: UTF8.self) }
  }

  /// How much of a short-lived program's standard error is kept.
  public static let errorLimit = 64 << 10

  /// Runs a short-lived program (`crontab`, `xdg-open`, a clipboard tool) to its end: writes `input` to
  /// it (or gives it `/dev/null`), reads its standard output to the end when ``Options/standardOutput``
  /// is a pipe, waits for it, and keeps what it wrote to standard error.
  ///
  /// One `poll` moves all three streams at once, so a child that fills one pipe while flow waits on
  /// another cannot stall. Standard error is read only until standard output ends and then what is
  /// there: a tool that forks a server to hold the clipboard leaves that child holding both streams,
  /// and its end would never come. Past `deadline` the group is killed and this throws.
  public static func collect(
    _ options: Options, input: [UInt8]? = nil, deadline: Duration = .seconds(10)
  ) throws(SubprocessError) -> Collected {
    var options = options
    options.standardInput = input == nil ? .null : .pipe
    let child = try spawn(options)
    let stop = ContinuousClock.now + deadline
    var (stdin, stdout, stderr) = (child.standardInput, child.standardOutput, child.standardError)
    defer { for descriptor in [stdin, stdout, stderr] where descriptor >= 0 { close(descriptor) } }
    var output: [UInt8] = []
    var error: [UInt8] = []
    var written = 0
    var buffer = [UInt8](repeating: 0, count: 64 << 10)

    func read(_ descriptor: inout Int32, into bytes: inout [UInt8], limit: Int) {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes.append(contentsOf: buffer[..<min(count, max(0, limit - bytes.count))])
      } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
        close(descriptor)
        descriptor = -1
      }
    }

    let finished: Bool = withoutPipeSignal {
      while stdin >= 0 || stdout >= 0 {
        var watched: [pollfd] = []
        if stdin >= 0 { watched.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
        if stdout >= 0 { watched.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
        if stderr >= 0 { watched.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
        let left = ContinuousClock.now.duration(to: stop)
        guard left > .zero else { return false }
        let ready = poll(&watched, nfds_t(watched.count), Int32(clamping: left.components.seconds * 1000 + 1))
        if ready < 0, errno != EINTR { return false }
        for entry in watched where entry.revents != 0 {
          if entry.fd == stdin, let input {
            let count =
              written < input.count
              ? input[written...].withUnsafeBytes { Glibc.write(stdin, $0.baseAddress, min($0.count, 64 << 10)) } : 0
            if count > 0 { written += count }
            if count < 0, errno != EINTR, errno != EAGAIN { written = input.count }  // EPIPE: it reads no more
            if written >= input.count {
              close(stdin)
              stdin = -1
            }
          } else if entry.fd == stdout {
            read(&stdout, into: &output, limit: .max)
          } else if entry.fd == stderr {
            read(&stderr, into: &error, limit: errorLimit)
          }
        }
      }
      return true
    }
    guard finished else {
      kill(-child.pid, SIGKILL)
      kill(child.pid, SIGKILL)
      _ = child.wait()
      let name = options.executable.split(separator: "/").last.map(String.init) ?? options.executable
      throw SubprocessError("\(name) did not finish within \(deadline.components.seconds) seconds", code: ETIMEDOUT)
    }
    let termination = child.wait()
    if stderr >= 0 {
      _ = fcntl(stderr, F_SETFL, fcntl(stderr, F_GETFL) | O_NONBLOCK)
      while error.count < errorLimit {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(stderr, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        error.append(contentsOf: buffer[..<min(count, errorLimit - error.count)])
      }
    }
    return Collected(termination: termination, output: output, error: error)
  }

  /// ``collect(_:input:deadline:)`` on a thread of its own, which it blocks until the program is done.
  public static func collectOnThread(
    _ options: Options, input: [UInt8]? = nil, deadline: Duration = .seconds(10)
  ) async throws(SubprocessError) -> Collected {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Collected, SubprocessError>, Never>) in
      DetachedThread.run(stackSize: 256 << 10) {
        continuation.resume(
          returning: Result { () throws(SubprocessError) in try collect(options, input: input, deadline: deadline) })
      }
    }
    return try result.get()
  }
}
