/// The kinds of `on:` (SPEC §10): how each is written, the keys of its long form, what `${trigger}`
/// gives when it fires, and where the event comes from.
///
/// One table, read by the decoder, the checker (``TriggerFormat/Property``), `flow schema` and the docs,
/// so that a kind of trigger is described in exactly one place.
public enum TriggerFormat {
  public struct Kind: Sendable {
    public let id: TriggerKind
    public let summary: String
    /// What `KIND: VALUE` takes: the words it accepts, or what the text is.
    public let short: Short
    /// The keys of `KIND: {…}`.
    public let keys: [WorkflowFormat.Field]
    /// The properties of `${trigger}` a trigger of this kind gives, besides ``common``.
    public let properties: [Property]
    /// Where flow hears of it.
    public let source: String
    public let example: String

    public var name: String { id.rawValue }
  }

  /// What the short form of a kind holds.
  public enum Short: Sendable, Hashable {
    /// One of these words.
    case words([String])
    /// A path, with an optional glob in its last part.
    case path
    /// A key chord.
    case chord
    /// An application id.
    case appID
    /// A cron expression.
    case cron
  }

  /// A property of `${trigger}`.
  public struct Property: Sendable, Hashable {
    public let name: String
    public let type: PropertyType
    public let summary: String
  }

  /// The type of a property, named here and made a value type by the checker.
  public enum PropertyType: Sendable, Hashable {
    case text, number, boolean, date, file, files, battery
  }

  /// The properties every trigger gives.
  public static let common: [Property] = [
    Property(name: "kind", type: .text, summary: "the kind of trigger that fired: file, wifi, power…"),
    Property(name: "event", type: .text, summary: "what happened: created, joined, unplugged, battery-below, unlock…"),
    Property(name: "time", type: .date, summary: "when it fired"),
  ]

  /// The most a battery threshold may be: a percentage strictly between 0 and 100.
  public static let percentages = 1...99

  public static let kinds: [Kind] = TriggerKind.allCases.map(kind)

  static let kindsByName = Dictionary(uniqueKeysWithValues: kinds.map { ($0.name, $0) })

  public static func kind(named name: String) -> Kind? { kindsByName[name] }

  /// The properties `${trigger}` has in a workflow with triggers of `kinds`.
  public static func properties(for kinds: some Sequence<TriggerKind>) -> [Property] {
    var seen = Set(common.map(\.name))
    var properties = common
    for kind in kinds {
      for property in self.kind(kind).properties where seen.insert(property.name).inserted {
        properties.append(property)
      }
    }
    return properties
  }

  /// The one description of each kind.
  public static func kind(_ id: TriggerKind) -> Kind {
    switch id {
    case .file:
      Kind(
        id: id, summary: "a file appears (created or moved in, and complete), changes or is deleted",
        short: .path,
        keys: [
          .init(name: "path", summary: "the folder, or the folder and a pattern of names: ~/Downloads/*.pdf"),
          .init(name: "events", summary: "created (default), changed, deleted: one or a list"),
          .init(name: "recursive", summary: "true: the folders inside it too, new ones as they appear"),
          .init(name: "settle", summary: "how long a file must stay unwritten before it counts, like 2s"),
        ],
        properties: [
          .init(name: "file", type: .file, summary: "the file (the first, when a burst brought several)"),
          .init(name: "files", type: .files, summary: "every file the firing brought, in the order they came"),
        ],
        source: "inotify", example: "file: ~/Downloads/*.pdf")
    case .drive:
      Kind(
        id: id, summary: "a removable drive is mounted or unmounted",
        short: .words(Trigger.DriveEvent.allCases.map(\.rawValue)),
        keys: [
          .init(name: "label", summary: "only the drive with this label (its file system's name)"),
          .init(name: "event", summary: "mounted (default) or unmounted"),
        ],
        properties: [
          .init(name: "drive", type: .file, summary: "where it is mounted, as a folder"),
          .init(name: "label", type: .text, summary: "its label; empty when it has none"),
        ],
        source: "UDisks2 on the system bus", example: "drive: {label: BACKUP, event: mounted}")
    case .wifi:
      Kind(
        id: id, summary: "Wi-Fi joins or leaves a network", short: .words(Trigger.WifiEvent.allCases.map(\.rawValue)),
        keys: [
          .init(name: "ssid", summary: "only the network of this name"),
          .init(name: "event", summary: "joined (default) or left"),
        ],
        properties: [.init(name: "ssid", type: .text, summary: "the network's name")],
        source: "NetworkManager on the system bus", example: "wifi: {ssid: HomeNet, event: joined}")
    case .network:
      Kind(
        id: id, summary: "the machine connects to a network or loses it",
        short: .words(Trigger.NetworkEvent.allCases.map(\.rawValue)), keys: [], properties: [],
        source: "NetworkManager on the system bus", example: "network: connected")
    case .power:
      Kind(
        id: id, summary: "the charger is plugged or unplugged, or the battery crosses a percentage",
        short: .words(["plugged", "unplugged"]),
        keys: [
          .init(name: "battery-below", summary: "fires once when the battery falls below this percentage (1–99)"),
          .init(name: "battery-above", summary: "fires once when the battery rises above this percentage (1–99)"),
        ],
        properties: [.init(name: "battery", type: .battery, summary: "the battery: its percentage and on-battery")],
        source: "UPower on the system bus", example: "power: {battery-below: 15}")
    case .session:
      Kind(
        id: id, summary: "you log in, the screen locks or unlocks, the machine sleeps or resumes",
        short: .words(Trigger.SessionEvent.allCases.map(\.rawValue)), keys: [], properties: [],
        source: "logind on the system bus", example: "session: unlock")
    case .hotkey:
      Kind(
        id: id, summary: "a global shortcut is pressed", short: .chord, keys: [],
        properties: [.init(name: "hotkey", type: .text, summary: "the chord, like Ctrl+Alt+D")],
        source: "the desktop's GlobalShortcuts portal on the session bus", example: "hotkey: Ctrl+Alt+D")
    case .app:
      Kind(
        id: id, summary: "an application opens or closes", short: .appID,
        keys: [
          .init(name: "id", summary: "the application's id, like org.mozilla.firefox"),
          .init(name: "event", summary: "opened (default) or closed"),
        ],
        properties: [.init(name: "app", type: .text, summary: "the application's id")],
        source: "the systemd user manager (app-*.scope units) on the session bus",
        example: "app: {id: org.mozilla.firefox, event: opened}")
    case .schedule:
      Kind(
        id: id, summary: "a time comes: a cron expression, or 'cron' with 'timezone'", short: .cron,
        keys: [
          .init(name: "cron", summary: "a cron expression, or a list of them"),
          .init(name: "timezone", summary: "the IANA time zone; default the workflow's, else the machine's"),
        ],
        properties: [], source: "the scheduler's timer", example: "schedule: \"0 9 * * MON\"")
    }
  }
}
