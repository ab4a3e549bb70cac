import CPseudoTerminal
import Foundation

/// A real pseudo-terminal for tests that drive a program the way a person at a terminal would: the
/// program's standard streams are the terminal's slave side, so `isatty` is true for all three, and the
/// test types into and reads from the master side.
///
/// Waiting for output uses `poll` with a deadline, never a sleep: a test waits exactly as long as the
/// program takes, and fails with what it saw when the text never comes.
public final class PseudoTerminal {
  public struct Timeout: Error, CustomStringConvertible {
    public var expected: String
    public var transcript: String
    public var description: String { "timed out waiting for \(expected.debugDescription); saw:\n\(transcript)" }
  }

  private let master: Int32
  private let slave: FileHandle
  private var buffer = ""
  /// Everything the program wrote so far, with the terminal's CR LF turned into LF.
  public private(set) var transcript = ""

  public init() throws {
    var name = [CChar](repeating: 0, count: 128)
    master = flow_open_pseudo_terminal(&name, name.count)
    guard master >= 0 else { throw POSIXError(.EIO) }
    let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let handle = FileHandle(forUpdatingAtPath: path) else { throw POSIXError(.ENOENT) }
    slave = handle
  }

  deinit {
    close(master)
  }

  /// Starts `executable` with the terminal as its standard input, output and error.
  public func spawn(_ executable: URL, arguments: [String], environment: [String: String], directory: URL) throws
    -> Process
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = directory
    process.standardInput = slave
    process.standardOutput = slave
    process.standardError = slave
    try process.run()
    return process
  }

  /// Sets the terminal's size, as a terminal window does when it is resized.
  public func resize(columns: Int, rows: Int = 24) {
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
  }

  /// Types `text`.
  public func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Waits until every one of `texts` has appeared, in any order (what several services answer comes
  /// in the order they answer), and consumes the output up to the last of them.
  public func expectAll(_ texts: [String], within timeout: Duration = .seconds(20)) throws {
    let deadline = ContinuousClock.now + timeout
    while true {
      let ends = texts.compactMap { buffer.range(of: $0)?.upperBound }
      if ends.count == texts.count, let last = ends.max() {
        buffer = String(buffer[last...])
        return
      }
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero, try readMore(within: remaining) else {
        throw Timeout(expected: texts.joined(separator: " and "), transcript: transcript)
      }
    }
  }

  /// Reads until the output holds `text`, and returns everything read up to and including it.
  @discardableResult
  public func expect(_ text: String, within timeout: Duration = .seconds(20)) throws -> String {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let range = buffer.range(of: text) {
        let upTo = String(buffer[..<range.upperBound])
        buffer = String(buffer[range.upperBound...])
        return upTo
      }
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero, try readMore(within: remaining) else {
        throw Timeout(expected: text, transcript: transcript)
      }
    }
  }

  /// Waits up to `remaining` for output and adds what came; false when the other side has closed. True
  /// with nothing added when the wait ran out: the caller's deadline says what that means.
  private func readMore(within remaining: Duration) throws -> Bool {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(
      remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
    guard poll(&descriptor, 1, max(1, milliseconds)) > 0 else { return true }
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = read(master, &chunk, chunk.count)
    guard count > 0 else { return false }
    let text = String(decoding: chunk[..<count], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    buffer += text
    transcript += text
    return true
  }
}
