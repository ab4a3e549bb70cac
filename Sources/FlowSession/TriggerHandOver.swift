import Glibc

/// What the scheduler hands a warm run, `flow run --await-trigger` started and checked ahead of its
/// trigger's next firing (Documentation/Automations.md, "Warm runs"): the firing's `--trigger-event`
/// values on the run's standard input, each ended by a NUL (no path holds one), then the input's end.
/// An input that ends with nothing on it lets the run go unused.
public enum TriggerHandOver {
  public static func encoded(_ values: [String]) -> [UInt8] {
    values.flatMap { Array($0.utf8) + [0] }
  }

  /// Reads standard input to its end and puts `/dev/null` in its place, where the steps find what a
  /// run the scheduler started cold has; nil when the input ended empty.
  public static func read() -> [String]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += buffer.prefix(count)
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
    if null >= 0 {
      dup2(null, STDIN_FILENO)
      close(null)
    }
    guard !bytes.isEmpty else { return nil }
    return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }
}
