import FoundationEssentials

/// What the scheduler has armed, as `flow schedule status` shows it: written by the running scheduler
/// (``StatusStore``) each time it changes, read by the command from another process.
public struct SchedulerStatus: Sendable, Codable, Hashable {
  /// The scheduler's process.
  public var pid: Int32
  public var automations: [Armed] = []
  /// Workflows with triggers that are not armed, and why.
  public var unarmed: [Unarmed] = []
  /// Each source of events by name (`inotify`, `UPower`…), and its state: `armed`, or why not.
  public var sources: [Source] = []

  public init(pid: Int32) { self.pid = pid }

  public struct Armed: Sendable, Codable, Hashable {
    public var name: String
    public var path: String
    public var triggers: [TriggerState]
    /// The id of its run going, if one is.
    public var running: String?
    /// Whether a run waits behind it, and what it carries.
    public var queued: String?
    public var lastFiring: Date?
    /// What the last firing brought, in a line.
    public var lastDetail: String?
  }

  public struct TriggerState: Sendable, Codable, Hashable {
    public var kind: String
    /// After "Starts when".
    public var words: String
    /// `armed`, or what it waits for (`waiting for ~/Inbox to exist`, `UPower is not running`).
    public var state: String
  }

  public struct Unarmed: Sendable, Codable, Hashable {
    public var name: String
    public var path: String
    public var reason: String
  }

  public struct Source: Sendable, Codable, Hashable {
    public var name: String
    public var state: String
  }
}
