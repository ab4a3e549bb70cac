import FoundationEssentials
import Glibc

/// The stdio transport's framing: messages are single lines separated by `\n`.
///
/// Reads with `read(2)` on a blocking descriptor, so it belongs on a thread of its own (RPCConnection's
/// reader); lines longer than `maximumLine` are reported rather than buffered without bound.
public struct LineReader {
  public let descriptor: Int32
  public var maximumLine: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  /// The rest of a line past `maximumLine` is still to be skipped, before the next line.
  private var skipping = false
  /// Where the search for the next newline goes on: the bytes before it have none. Searching from
  /// `start` after every read made a long line quadratic (a 64 MiB line, 32 GiB of comparisons).
  private var searched = 0

  public init(descriptor: Int32, maximumLine: Int = 64 << 20) {
    self.descriptor = descriptor
    self.maximumLine = maximumLine
  }

  public enum Line: Equatable {
    case line(String)
    /// A line that went past `maximumLine` bytes; the rest of it is skipped.
    case tooLong
    case end
  }

  /// The next line without its `\n` (a `\r` before it is dropped too), or `.end` at end of file.
  public mutating func next() -> Line {
    if skipping {
      skipping = false
      skipToNewline()
    }
    while true {
      if let newline = buffer[max(start, searched)...].firstIndex(of: 0x0A) {
        var end = newline
        if end > start, buffer[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: buffer[start..<end], as: UTF8.self)
        start = newline + 1
        if start > 65536 {
          buffer.removeFirst(start)
          start = 0
        }
        searched = start
        return .line(line)
      }
      searched = buffer.count
      if atEnd {
        guard start < buffer.count else { return .end }
        let line = String(decoding: buffer[start...], as: UTF8.self)
        start = buffer.count
        return .line(line)
      }
      // Reported at once; the rest is skipped only if the caller reads on. Skipping first waited for a
      // newline that a line with no end never sends, so a server writing one held its caller for good.
      if buffer.count - start > maximumLine {
        buffer.removeAll()
        (start, searched) = (0, 0)
        skipping = true
        return .tooLong
      }
      fill()
    }
  }

  private mutating func fill() {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        buffer.append(contentsOf: chunk[0..<count])
        return
      }
      if count < 0, errno == EINTR { continue }
      atEnd = true
      return
    }
  }

  private mutating func skipToNewline() {
    buffer.removeAll()
    start = 0
    while !atEnd {
      fill()
      if let newline = buffer.firstIndex(of: 0x0A) {
        buffer.removeFirst(newline + 1)
        return
      }
      buffer.removeAll()
    }
  }
}

/// Writes whole lines to a descriptor, retrying short writes and EINTR.
enum LineWriter {
  /// False when the peer is gone (EPIPE and the like); flow ignores SIGPIPE while a connection is open.
  static func write(_ text: String, to descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)
    bytes.append(0x0A)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}
