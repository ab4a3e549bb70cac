import FlowSystem
import Glibc

/// How the scheduler and a warm run (`flow run --await-trigger`, Documentation/Automations.md, "Warm
/// runs") talk: the run starts and checks its workflow ahead of its trigger's firings, then runs one firing
/// after another, each handed to it on its standard input and each end reported on descriptor 3.
///
/// - A firing is its run's id, then its `--trigger-event` values, each ended by a NUL (no path holds one),
///   then an empty one. The input's end lets the run go.
/// - A run's end is its exit status in decimal and a newline.
public final class TriggerHandOver {
  /// One firing: the id its run is recorded under, and what fired.
  public struct Firing: Sendable, Equatable {
    public var runID: String
    public var values: [String]

    public init(runID: String, values: [String]) {
      self.runID = runID
      self.values = values
    }

    public var encoded: [UInt8] { ([runID] + values).flatMap { Array($0.utf8) + [0] } + [0] }
  }

  private let input: Int32
  private let ends: Int32
  private var buffer: [UInt8] = []

  /// Takes standard input and descriptor 3 for the hand-over, and puts `/dev/null` on standard input,
  /// where a run's steps find what a run started cold has; nil when they are not there.
  public init?() {
    input = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 10)
    ends = 3
    guard input >= 0, fcntl(ends, F_SETFD, FD_CLOEXEC) == 0 else { return nil }
    let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
    guard null >= 0 else { return nil }
    dup2(null, STDIN_FILENO)
    close(null)
  }

  deinit {
    close(input)
    close(ends)
  }

  /// Waits for the next firing; nil when the input has ended (or does not read as firings).
  public func next() -> Firing? {
    while true {
      if let end = Self.firingEnd(in: buffer) {
        let fields = buffer[..<(end - 1)].split(separator: 0, omittingEmptySubsequences: false).map {
          String(decoding: $0, as: UTF8.self)
        }
        buffer.removeFirst(end + 1)
        guard let runID = fields.first, !runID.isEmpty else { return nil }
        return Firing(runID: runID, values: Array(fields.dropFirst()))
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer += chunk.prefix(count)
    }
  }

  /// Whether a firing comes (or the input ends) within `milliseconds`.
  public func firingComes(within milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
    var ready: Int32
    repeat { ready = poll(&entry, 1, milliseconds) } while ready < 0 && errno == EINTR
    return !buffer.isEmpty || ready != 0
  }

  /// Says that the run of the last firing ended with `status`.
  public func ended(_ status: Int32) {
    let line = Array("\(status)\n".utf8)
    // A scheduler that is gone has closed its end: EPIPE, not a SIGPIPE that would end this run's record.
    Subprocess.withoutPipeSignal { _ = line.withUnsafeBytes { write(ends, $0.baseAddress, $0.count) } }
  }

  /// Where the firing in `bytes` ends: the NUL that closes its empty last field.
  private static func firingEnd(in bytes: [UInt8]) -> Int? {
    var previous: UInt8 = 0
    for (index, byte) in bytes.enumerated() {
      if byte == 0, previous == 0, index > 0 { return index }
      previous = byte
    }
    return nil
  }
}
