import FlowSystem

/// What wakes the scheduler besides its timer. Its effects post these from whatever thread they run on
/// (``SchedulerClock/post(_:)``), and the scheduler handles them one at a time, in order.
public enum SchedulerEvent: Sendable, Hashable {
  /// The wall clock was set (NTP stepping it, `date -s`, a resume from suspend): fires are looked at again.
  case clockChanged
  /// A workflow file in a watched folder was written, moved in, moved out or deleted.
  case filesChanged
  /// SIGHUP: read the workflows again, now.
  case reload
  /// SIGTERM or SIGINT: stop scheduling, stop the runs going, exit.
  case stop(signal: Int32)
  /// The process of the run with this id ended.
  case runEnded(id: String, Termination)
  /// Files of `file` triggers were complete, changed or went: one batch, in the kernel's order.
  case filesArrived([FileEvent])
  /// A folder of a `file` trigger cannot be watched.
  case watchProblem(WatchProblem)
  /// Something happened on the machine: a drive, the network, power, the session, an app, a hotkey.
  case machine(MachineEvent)
  /// How a service on a bus stands now.
  case source(MachineSourceReport)
}
