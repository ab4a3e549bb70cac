import FlowBasics
import FlowCron
import FlowDiagnostics
import FlowHistory
import FlowIntents
import FlowLibrary
import FlowModel
import FlowRuntime
import FlowSystem
import FoundationEssentials
import Glibc

/// What fired, as `flow run --trigger-event KEY=VALUE…` gives it: the scheduler passes every event this
/// way, and a person runs a workflow as if its trigger fired (Documentation/Automations.md).
///
/// `KIND=VALUE` names the kind and its main value — `file=PATH` (repeated for a burst), `drive=FOLDER`,
/// `wifi=SSID`, `network=connected`, `power=unplugged` or `power=PERCENT`, `session=unlock`,
/// `hotkey=CHORD`, `app=ID`, `schedule=now` — and `event=`, `label=`, `on-battery=` and `time=` add to it.
public struct TriggerEvent: Sendable {
  public var kind: TriggerKind
  /// What happened: `created`, `joined`, `battery-below`, `unlock`.
  public var event: String
  public var files: [String] = []
  public var text: String?
  public var label: String?
  public var battery: Double?
  public var onBattery: Bool?
  public var time: Date

  public init(kind: TriggerKind, event: String, time: Date) {
    self.kind = kind
    self.event = event
    self.time = time
  }

  /// The `--trigger-event` arguments that give this event to `flow run`: what the scheduler starts a
  /// triggered run with, read back by ``parse(_:for:directory:now:)``.
  public var arguments: [String] { values.flatMap { ["--trigger-event", $0] } }

  /// The `KEY=VALUE`s of ``arguments``: what the scheduler hands a warm run (``TriggerHandOver``).
  public var values: [String] {
    var pairs: [String] = []
    switch kind {
    case .file: pairs = files.map { "file=\($0)" }
    case .drive: pairs = ["drive=\(text ?? "/")"] + (label.map { ["label=\($0)"] } ?? [])
    case .wifi: pairs = ["wifi=\(text ?? "")"]
    case .network, .session: pairs = ["\(kind.rawValue)=\(event)"]
    case .power:
      pairs = battery.map { ["power=\($0)"] } ?? ["power=\(event)"]
      if let onBattery { pairs.append("on-battery=\(onBattery)") }
    case .hotkey, .app: pairs = ["\(kind.rawValue)=\(text ?? "")"]
    case .schedule: pairs = ["schedule=now"]
    }
    pairs.append("event=\(event)")
    pairs.append("time=\(ISO8601Text.format(Int64(time.timeIntervalSince1970.rounded(.down)), utcOffset: 0))")
    return pairs
  }

  /// The event of a run the clock started, which gets only `--trigger <how>` (a crontab line, a systemd
  /// timer, a CronJob, `flow schedule`): its `${trigger}` still has its kind, event and time. Nil for a
  /// run the clock did not start.
  public static func arguments(startedBy trigger: RunTrigger) -> [String]? {
    switch trigger {
    case .scheduled, .cron, .systemd, .kubernetes: ["schedule=now"]
    case .catchUp: ["schedule=now", "event=catch-up"]
    default: nil
    }
  }

  /// An event of `kind` that reads, for a warm run to parse before its firing and throw away: the first
  /// parse in a process is much of a triggered run's time after its firing (the runtime instantiating,
  /// once, the metadata of the types it uses and looking up their conformances), paid then ahead.
  public static func rehearsal(of kind: TriggerKind) -> [String] {
    let main: String =
      switch kind {
      case .file, .drive: "/"
      case .network: "connected"
      case .power: "50"
      case .session: "unlock"
      case .schedule: "now"
      case .wifi, .hotkey, .app: "x"
      }
    return ["\(kind.rawValue)=\(main)", "time=\(ISO8601Text.format(0, utcOffset: 0))"]
  }

  /// A run nothing fired, of a workflow that reads `${trigger}` at `read`: refused there before step 1
  /// (exit 2), with the `--trigger-event` that runs it as if its first trigger fired.
  public static func needed(at read: Reference, by workflow: Workflow, invokedAs reference: String) -> Diagnostic {
    let kind = workflow.triggers.first?.kind ?? .schedule
    let examples: [TriggerKind: String] = [
      .file: "file=PATH", .drive: "drive=FOLDER", .wifi: "wifi=SSID", .network: "network=connected",
      .power: "power=PERCENT", .session: "session=unlock", .hotkey: "hotkey=CHORD", .app: "app=ID",
      .schedule: "schedule=now",
    ]
    return Diagnostic(
      .error, .triggerEventNeeded,
      "this workflow reads '${\(read)}', and nothing fired this run to give it a value", at: read.span
    )
    .help(
      "run it as if its trigger fired: 'flow run \(reference) --trigger-event \(examples[kind] ?? "\(kind.rawValue)=…")'"
    )
  }

  /// Adds a later firing of the same trigger to this one, which has not run yet: its files join (each
  /// once, in the order they came), and everything else is the later firing's.
  public mutating func join(_ later: TriggerEvent) {
    var seen = Set(files)
    let files = self.files + later.files.filter { seen.insert($0).inserted }
    self = later
    self.files = files
  }

  /// The keys besides the kinds.
  static let extraKeys = ["event", "label", "on-battery", "time"]

  /// Reads `arguments` for `workflow`; paths are made absolute against `directory`. A kind the workflow
  /// has no trigger of is refused, as is every value out of its range.
  public static func parse(
    _ arguments: [String], for workflow: Workflow, directory: String, now: Date
  ) throws(Diagnostic) -> TriggerEvent {
    let kinds = workflow.triggers.map(\.kind) + (workflow.schedule.isEmpty ? [] : [.schedule])
    var kind: TriggerKind?
    var event = TriggerEvent(kind: .file, event: "", time: now)
    var extras: [String: String] = [:]
    for argument in arguments {
      guard let equals = argument.firstIndex(of: "=") else {
        throw problem(
          "'\(argument)' is not KEY=VALUE", help: "write the kind and its value, like 'file=~/Downloads/a.pdf'")
      }
      let key = String(argument[..<equals])
      let value = String(argument[argument.index(after: equals)...])
      if let named = TriggerKind(rawValue: key) {
        if let kind, kind != named {
          throw problem("one event has one kind: '\(kind.rawValue)' and '\(key)' were both given")
        }
        kind = named
        try event.take(named, value, directory: directory)
      } else if extraKeys.contains(key) {
        extras[key] = value
      } else {
        let keys = TriggerKind.allCases.map(\.rawValue) + extraKeys
        throw problem("unknown key '\(key)'", help: Suggestion.help(for: key, among: keys, listUpTo: keys.count))
      }
    }
    guard let kind else {
      throw problem(
        "the event names no kind",
        help: "start with the kind and its value, like '\(kinds.first?.rawValue ?? "file")=…'")
    }
    guard kinds.contains(kind) else {
      let has =
        kinds.isEmpty ? "no triggers" : "triggers of kind \(List.or(Array(Set(kinds.map(\.rawValue))).sorted()))"
      throw problem(
        "'\(workflow.name)' has no '\(kind.rawValue)' trigger", help: "it has \(has) (under 'on:')")
    }
    event.kind = kind
    try event.apply(extras)
    return event
  }

  private mutating func take(_ kind: TriggerKind, _ value: String, directory: String) throws(Diagnostic) {
    guard !value.isEmpty else { throw Self.problem("'\(kind.rawValue)=' has no value") }
    switch kind {
    case .file:
      files.append(Self.absolute(value, in: directory))
      event = "created"
    case .drive:
      text = Self.absolute(value, in: directory)
      event = "mounted"
    case .wifi:
      text = value
      event = "joined"
    case .network:
      guard let word = Trigger.NetworkEvent(rawValue: value) else { throw Self.word(value, for: kind) }
      event = word.rawValue
    case .power:
      if let word = ["plugged", "unplugged"].first(where: { $0 == value }) {
        event = word
        onBattery = word == "unplugged"
      } else if let percentage = Double(value.hasSuffix("%") ? String(value.dropLast()) : value),
        (0...100).contains(percentage)
      {
        battery = percentage
        event = "battery"
      } else {
        throw Self.problem(
          "'\(value)' is not a power event",
          help: "write 'plugged', 'unplugged' or a percentage from 0 to 100, like 'power=19'")
      }
    case .session:
      guard let word = Trigger.SessionEvent(rawValue: value) else { throw Self.word(value, for: kind) }
      event = word.rawValue
    case .hotkey:
      switch Chord.parse(value) {
      case .success(let chord): text = chord.description
      case .failure(let problem): throw Self.problem("'\(value)' is not a key chord: \(problem)", help: problem.help)
      }
      event = "pressed"
    case .app:
      text = value
      event = "opened"
    case .schedule:
      event = "scheduled"
    }
  }

  private mutating func apply(_ extras: [String: String]) throws(Diagnostic) {
    if let value = extras["event"] {
      let words: [String] =
        switch kind {
        case .file: Trigger.FileEvent.allCases.map(\.rawValue)
        case .drive: Trigger.DriveEvent.allCases.map(\.rawValue)
        case .wifi: Trigger.WifiEvent.allCases.map(\.rawValue)
        case .app: Trigger.AppEvent.allCases.map(\.rawValue)
        case .power: ["plugged", "unplugged", "battery", "battery-below", "battery-above"]
        case .network: Trigger.NetworkEvent.allCases.map(\.rawValue)
        case .session: Trigger.SessionEvent.allCases.map(\.rawValue)
        case .hotkey: ["pressed"]
        case .schedule: ["scheduled", "catch-up"]
        }
      guard words.contains(value) else {
        throw Self.problem(
          "'\(value)' is not an event of a '\(kind.rawValue)' trigger",
          help: "write one of \(List.or(words))")
      }
      event = value
    }
    if let value = extras["label"] {
      guard kind == .drive else { throw Self.problem("'label=' belongs to a 'drive' event") }
      label = value
    }
    if kind == .drive, label == nil { label = text.map(PathText.lastComponent) }
    if let value = extras["on-battery"] {
      guard kind == .power, let flag = Bool(value) else {
        throw Self.problem("'on-battery=' is 'true' or 'false', for a 'power' event")
      }
      onBattery = flag
    }
    if let value = extras["time"] {
      // Read without Foundation's formatters, which cost a triggered run more than its step.
      guard let instant = ISO8601Text.parse(value) else {
        throw Self.problem("'\(value)' is not a time", help: "write it in ISO 8601, like 2026-11-28T09:00:00Z")
      }
      time = Date(timeIntervalSince1970: TimeInterval(instant))
    }
  }

  /// The value of `${trigger}`.
  public var value: FlowValue {
    var properties: [(key: String, value: FlowValue)] = []
    switch kind {
    case .file:
      let values = files.map(Self.file)
      properties = [("file", values.first ?? .nothing), ("files", .list(values))]
    case .drive:
      properties = [("drive", text.map { Self.file($0, isFolder: true) } ?? .nothing), ("label", .text(label ?? ""))]
    case .wifi: properties = [("ssid", .text(text ?? ""))]
    case .power:
      properties = [
        ("battery", battery.map { TriggerValue.battery(percentage: $0, onBattery: onBattery ?? true) } ?? .nothing)
      ]
    case .hotkey: properties = [("hotkey", .text(text ?? ""))]
    case .app: properties = [("app", .text(text ?? ""))]
    case .network, .session, .schedule: break
    }
    return TriggerValue.value(kind: kind, event: event, time: .date(time), summary: summary, properties: properties)
  }

  /// The event in a line, for run history and `${trigger}` as text: `created /home/ada/Downloads/a.pdf and 2 more`.
  public var summary: String {
    let subject: String? =
      switch kind {
      case .file: files.first.map { files.count > 1 ? "\($0) and \(files.count - 1) more" : $0 }
      case .drive: [label.map { "'\($0)'" }, text.map { "at \($0)" }].compactMap { $0 }.joined(separator: " ")
      case .wifi, .hotkey, .app: text
      case .power: battery.map { "\(Int($0.rounded()))%" }
      case .network, .session, .schedule: nil
      }
    return [event, subject].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// The run-history name of what started the run: the kind's own name (RunTrigger has one for each),
  /// `scheduled` for a schedule.
  public var runTrigger: RunTrigger {
    kind == .schedule ? .scheduled : RunTrigger(rawValue: kind.rawValue) ?? .manual
  }

  private static func file(_ path: String) -> FlowValue { file(path, isFolder: false) }

  private static func file(_ path: String, isFolder: Bool) -> FlowValue {
    let slash = path.lastIndex(of: "/") ?? path.startIndex
    let folder = slash == path.startIndex ? "/" : String(path[..<slash])
    let name = String(path[path.index(after: slash)...])
    return FileEntity(folder: folder, name: name, isFolder: isFolder, details: nil, loader: LocalFiles.self).flowValue
  }

  private static func absolute(_ path: String, in directory: String) -> String {
    FileSystemPath.standardized(path, in: directory, home: getenv("HOME").map { String(cString: $0) })
  }

  private static func word(_ value: String, for kind: TriggerKind) -> Diagnostic {
    let words: [String] =
      kind == .network
      ? Trigger.NetworkEvent.allCases.map(\.rawValue) : Trigger.SessionEvent.allCases.map(\.rawValue)
    return problem(
      "'\(value)' is not a '\(kind.rawValue)' event",
      help: Suggestion.help(for: value, among: words, listUpTo: words.count))
  }

  private static func problem(_ message: String, help: String? = nil) -> Diagnostic {
    let diagnostic = Diagnostic(.error, .invalidTriggerEvent, "--trigger-event: \(message)", file: nil)
    return help.map { diagnostic.help($0) } ?? diagnostic
  }
}

extension DiagnosticCode {
  /// `flow run --trigger-event` was given something no trigger of the workflow gives (exit 2).
  public static let invalidTriggerEvent: Self = "invalid-trigger-event"
  /// A workflow that reads `${trigger}` was run by hand without `--trigger-event` (exit 2).
  public static let triggerEventNeeded: Self = "trigger-event-needed"
}
