import FlowDiagnostics
import FlowSystem
import FoundationEssentials
import Glibc
import Synchronization

/// The terminal as the commands see it: standard input, two output streams, and whether each is a
/// terminal.
///
/// The one effect through which flow reads and writes; tests script it with ``BufferConsole``, and a
/// pseudo-terminal test drives the real one.
public protocol Console: Sendable {
  func write(_ text: String, to stream: ConsoleStream)
  func isTerminal(_ stream: ConsoleStream) -> Bool
  /// The next line of standard input without its line break; nil at its end.
  func readLine() -> String?
  /// The next line of standard input, for secrets such as a token: at a terminal, `prompt` is shown on
  /// standard error and what is typed is not echoed; otherwise the line is read as it comes.
  func readSecretLine(prompt: String) -> String?
  /// Standard input in full, when it is not a terminal (piped input); nil otherwise. Reading stops
  /// after `limit` bytes, so that a caller with a size limit can refuse a stream without holding it.
  func readAllInput(atMost limit: Int) -> String?
  /// How many columns the stream's terminal has; nil when it is not a terminal.
  func columns(_ stream: ConsoleStream) -> Int?
}

extension Console {
  public func columns(_ stream: ConsoleStream) -> Int? { nil }

  /// Writes text that came from a workflow file or a value (what `show` shows, a question's words, a result)
  /// rather than from flow itself: its control characters are shown, never obeyed (``TerminalSafe/lines(_:)``),
  /// wherever a person reads it — always on standard error, on standard output at a terminal. Piped standard
  /// output keeps the bytes: there it is the workflow's data.
  public func writeShown(_ text: String, to stream: ConsoleStream) {
    write(stream == .error || isTerminal(stream) ? TerminalSafe.lines(text) : text, to: stream)
  }

  public func readAllInput() -> String? { readAllInput(atMost: .max) }
}

public enum ConsoleStream: Sendable {
  /// Standard input; only for ``Console/isTerminal(_:)``.
  case input
  /// Results: what a script captures.
  case output
  /// Progress, prompts and diagnostics.
  case error
}

/// The process's standard output and standard error.
public struct StandardConsole: Console {
  public init() {}

  public func write(_ text: String, to stream: ConsoleStream) {
    // The bytes go straight to write(2): `FileHandle.write(Data(text.utf8))` made the runtime scan every
    // protocol conformance in the binary on the first write (`Data.init` casts the sequence), a quarter
    // of a million instructions of every run.
    let descriptor = stream == .output ? STDOUT_FILENO : STDERR_FILENO
    var text = text
    text.withUTF8 { bytes in
      guard let start = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, start + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }

  public func isTerminal(_ stream: ConsoleStream) -> Bool {
    switch stream {
    case .input: isatty(STDIN_FILENO) == 1
    case .output: isatty(STDOUT_FILENO) == 1
    case .error: isatty(STDERR_FILENO) == 1
    }
  }

  public func readLine() -> String? {
    Swift.readLine(strippingNewline: true)
  }

  public func readSecretLine(prompt: String) -> String? {
    guard isTerminal(.input) else { return readLine() }
    let line = TerminalEcho.withoutEcho {
      // Asked only once echo is off, so that nothing typed after the prompt appears.
      write(prompt, to: .error)
      return readLine()
    }
    // The Return the person typed was not echoed either.
    write("\n", to: .error)
    return line
  }

  public func columns(_ stream: ConsoleStream) -> Int? {
    let descriptor = stream == .output ? STDOUT_FILENO : stream == .error ? STDERR_FILENO : STDIN_FILENO
    var size = winsize()
    let status = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
    return status == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
  }

  public func readAllInput(atMost limit: Int) -> String? {
    guard !isTerminal(.input) else { return nil }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while data.count < limit {
      let wanted = min(limit - data.count, chunk.count)
      let count = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, wanted) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      data += chunk[0..<count]
    }
    return data.isEmpty ? nil : String(decoding: data, as: UTF8.self)
  }
}

/// A console that keeps what is written and answers from scripted input, for tests.
public final class BufferConsole: Console, @unchecked Sendable {
  private let lock = Mutex(())
  private var outputText = ""
  private var errorText = ""
  private var lines: [String]
  private let piped: String?
  private let terminal: Bool

  /// - Parameters:
  ///   - terminal: whether every stream reports being a terminal.
  ///   - lines: what a person types, line by line.
  ///   - piped: standard input as a pipe would give it (only when not a terminal).
  public init(terminal: Bool = false, lines: [String] = [], piped: String? = nil) {
    self.terminal = terminal
    self.lines = lines
    self.piped = piped
  }

  public func readLine() -> String? {
    lock.withLock { _ in
      guard !lines.isEmpty else { return nil }
      let line = lines.removeFirst()
      // Echo the answer, as a terminal would, so transcripts read like a session.
      errorText += line + "\n"
      return line
    }
  }

  /// Like a terminal with echo off: the answer does not appear in the transcript, only the line break.
  public func readSecretLine(prompt: String) -> String? {
    lock.withLock { _ in
      if terminal { errorText += prompt }
      guard !lines.isEmpty else { return nil }
      if terminal { errorText += "\n" }
      return lines.removeFirst()
    }
  }

  public func readAllInput(atMost limit: Int) -> String? {
    terminal ? nil : piped.map { String(decoding: $0.utf8.prefix(limit), as: UTF8.self) }
  }

  public var output: String { lock.withLock { _ in outputText } }
  public var error: String { lock.withLock { _ in errorText } }

  public func write(_ text: String, to stream: ConsoleStream) {
    lock.withLock { _ in
      if stream == .output { outputText += text } else { errorText += text }
    }
  }

  public func isTerminal(_ stream: ConsoleStream) -> Bool { terminal }
}
