import FlowDiagnostics

/// One entry of `on:` (SPEC §10): what starts the workflow by itself, as written, checked for shape.
///
/// Schedules are not here: `on: [{schedule: …}]` joins ``Workflow/schedule``, which `schedule:` fills
/// too, so that the scheduler, `flow schedule next` and the units read one list.
public struct Trigger: Sendable {
  /// The kind key, where it is written: what diagnostics about the whole trigger point at.
  public var kindSpan: SourceSpan
  public var condition: Condition

  public init(kindSpan: SourceSpan, condition: Condition) {
    self.kindSpan = kindSpan
    self.condition = condition
  }

  public var kind: TriggerKind { condition.kind }

  /// What has to happen, by kind.
  public enum Condition: Sendable, Hashable {
    case file(FileCondition)
    case drive(label: Located<String>?, event: DriveEvent)
    /// `ssid` nil: any network.
    case wifi(ssid: Located<String>?, event: WifiEvent)
    case network(NetworkEvent)
    case power(PowerCondition)
    case session(SessionEvent)
    case hotkey(Located<Chord>)
    case app(id: Located<String>, event: AppEvent)

    public var kind: TriggerKind {
      switch self {
      case .file: .file
      case .drive: .drive
      case .wifi: .wifi
      case .network: .network
      case .power: .power
      case .session: .session
      case .hotkey: .hotkey
      case .app: .app
      }
    }
  }

  /// `file:` — a folder (and a pattern for the names in it), what happens to its files, how deep.
  public struct FileCondition: Sendable, Hashable {
    /// The folder as written (`~/Downloads`), without the pattern.
    public var folder: Located<String>
    /// A glob on file names (`*.pdf`); nil for every file.
    public var pattern: String?
    public var events: [FileEvent]
    public var recursive: Bool
    /// How long a file must stay unwritten after it was closed before it counts: for files written in
    /// pieces. Nil fires at the close (`IN_CLOSE_WRITE`) or the rename into the folder.
    public var settle: Duration?

    public init(
      folder: Located<String>, pattern: String?, events: [FileEvent] = [.created], recursive: Bool = false,
      settle: Duration? = nil
    ) {
      self.folder = folder
      self.pattern = pattern
      self.events = events
      self.recursive = recursive
      self.settle = settle
    }
  }

  public enum FileEvent: String, Sendable, Hashable, CaseIterable {
    /// A new file is complete: closed after writing, or moved in.
    case created
    /// A file that was there is closed after writing.
    case changed
    /// A file is deleted or moved out.
    case deleted
  }

  public enum DriveEvent: String, Sendable, Hashable, CaseIterable {
    case mounted, unmounted
  }

  public enum WifiEvent: String, Sendable, Hashable, CaseIterable {
    case joined, left
  }

  public enum NetworkEvent: String, Sendable, Hashable, CaseIterable {
    case connected, disconnected
  }

  public enum PowerCondition: Sendable, Hashable {
    case plugged
    case unplugged
    /// The battery falls below this percentage: once per crossing.
    case batteryBelow(Int)
    /// The battery rises above this percentage: once per crossing.
    case batteryAbove(Int)
  }

  public enum SessionEvent: String, Sendable, Hashable, CaseIterable {
    case login, lock, unlock
    case beforeSleep = "before-sleep"
    case afterResume = "after-resume"
  }

  public enum AppEvent: String, Sendable, Hashable, CaseIterable {
    case opened, closed
  }
}

/// The kinds of trigger, in the order the docs present them. The switches over them have no
/// `default:`, so a new kind is a compile error wherever it needs code; what each kind reads and gives is
/// in ``TriggerFormat``.
public enum TriggerKind: String, Sendable, Hashable, CaseIterable {
  case file, drive, wifi, network, power, session, hotkey, app, schedule
}
