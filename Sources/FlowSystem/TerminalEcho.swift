import FoundationEssentials
import Glibc
import Synchronization

/// Turns the terminal's echo off while a secret is typed, and makes sure it comes back on: after the
/// read, and also when Ctrl-C ends flow in the middle of it (``Interrupts`` calls ``restore()``), since
/// a shell left without echo looks broken.
public enum TerminalEcho {
  /// The settings to put back, while echo is off.
  private static let saved = Mutex<termios?>(nil)

  /// Runs `body` (a read from standard input) with echo off, when standard input is a terminal.
  public static func withoutEcho<T>(_ body: () -> T) -> T {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else { return body() }
    var silent = original
    silent.c_lflag &= ~tcflag_t(ECHO)
    saved.withLock { $0 = original }
    tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    defer { restore() }
    return body()
  }

  /// Puts echo back if a secret was being read; does nothing otherwise.
  public static func restore() {
    guard var original = saved.withLock({ $0.take() }) else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &original)
  }
}
