/// Why the scheduler starts a run: what `flow run --trigger` is given, and run history records.
public enum FireTrigger: String, Sendable, Hashable {
  /// At its fire time.
  case scheduled
  /// Once, for the fires missed while the scheduler was not running (or the machine slept).
  case catchUp = "catch-up"
}
