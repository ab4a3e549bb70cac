import FlowSystem

/// How a watched service stands, said when that changes: what `flow schedule` tells the person (once,
/// by name) about a trigger that is not armed, and when it is armed again.
public struct MachineSourceReport: Sendable, Hashable, CustomStringConvertible {
  public enum State: Sendable, Hashable {
    /// Watching it; `note` says what part cannot be watched, if any.
    case armed(note: String?)
    /// The service is not on its bus; it is armed when it appears.
    case absent
    /// It was armed and left its bus (stopped, or restarting); armed again when it returns.
    case gone
    /// It appeared after being absent or gone, and is armed.
    case appeared
    /// It cannot be watched, for this reason (no bus at all, the service refused).
    case unavailable(String)
  }

  public var source: MachineSource
  public var state: State

  public init(source: MachineSource, state: State) {
    self.source = source
    self.state = state
  }

  /// One sentence naming the service and its bus.
  /// Whether the service's triggers are armed now.
  public var isArmed: Bool {
    switch state {
    case .armed, .appeared: true
    case .absent, .gone, .unavailable: false
    }
  }

  public var description: String {
    let named = "\(source.name) (\(source.service))"
    let bus = source.bus == .system ? "the system bus" : "the session bus"
    switch state {
    case .armed(let note?): return "\(named) is armed; \(note)"
    case .armed: return "\(named) is armed"
    case .absent: return "\(named) is not on \(bus); its triggers are armed when it appears"
    case .gone: return "\(named) left \(bus); its triggers are armed again when it returns"
    case .appeared: return "\(named) is on \(bus) now, armed"
    case .unavailable(let why): return "\(named) cannot be watched: \(why)"
    }
  }
}
