/// How a recorded run ended, or that it has not yet.
public enum RunStatus: String, Sendable, Hashable, CaseIterable, Codable {
  /// Still going: its process is alive.
  case running
  case succeeded
  /// A step failed, or the backend was unreachable (the exit code tells which).
  case failed
  /// Declined confirmation, Ctrl-C.
  case cancelled
  /// The workflow did not pass the check; nothing ran.
  case invalid
  /// A value, choice or confirmation was needed and nobody could answer.
  case needsInput = "needs-input"
  /// Not run: another run of the same workflow held its lock.
  case skipped
  /// The process died mid-run (killed, power loss): the row said running, but its process is gone or
  /// the machine has booted since. Decided when history is read.
  case interrupted
}
