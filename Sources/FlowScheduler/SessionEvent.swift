/// What logind says about this login session and the machine's sleep.
public enum SessionEvent: String, Sendable, Hashable {
  case lock
  case unlock
  /// The machine is about to sleep (`PrepareForSleep(true)`). It waits for flow's delay inhibitor, if
  /// held, for at most ``MachineEventSources/sleepDelayLimit``.
  case beforeSleep
  /// The machine woke up (`PrepareForSleep(false)`).
  case afterResume
}
