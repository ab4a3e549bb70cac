import Foundation

/// The terminal as the commands see it: two output streams, and whether each is a terminal.
///
/// The one effect through which flow writes; tests capture it with ``BufferConsole``.
public protocol Console: Sendable {
  func write(_ text: String, to stream: ConsoleStream)
  func isTerminal(_ stream: ConsoleStream) -> Bool
}

public enum ConsoleStream: Sendable {
  /// Results: what a script captures.
  case output
  /// Progress, prompts and diagnostics.
  case error
}

/// The process's standard output and standard error.
public struct StandardConsole: Console {
  public init() {}

  public func write(_ text: String, to stream: ConsoleStream) {
    let handle = stream == .output ? FileHandle.standardOutput : FileHandle.standardError
    handle.write(Data(text.utf8))
  }

  public func isTerminal(_ stream: ConsoleStream) -> Bool {
    isatty(stream == .output ? STDOUT_FILENO : STDERR_FILENO) == 1
  }
}

/// A console that keeps what is written, for tests.
public final class BufferConsole: Console, @unchecked Sendable {
  private let lock = NSLock()
  private var outputText = ""
  private var errorText = ""
  private let terminal: Bool

  public init(terminal: Bool = false) { self.terminal = terminal }

  public var output: String { lock.withLock { outputText } }
  public var error: String { lock.withLock { errorText } }

  public func write(_ text: String, to stream: ConsoleStream) {
    lock.withLock {
      if stream == .output { outputText += text } else { errorText += text }
    }
  }

  public func isTerminal(_ stream: ConsoleStream) -> Bool { terminal }
}
