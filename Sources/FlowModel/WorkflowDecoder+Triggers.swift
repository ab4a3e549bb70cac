import FlowDiagnostics
import FlowYAML

/// `on:` (SPEC §10): a list of triggers, each a mapping with one key, the kind, whose value is the short
/// form (`wifi: joined`) or the long one (`wifi: {ssid: HomeNet, event: left}`). Schedules join the
/// workflow's `schedule:`.
extension WorkflowDecoder {
  mutating func triggers(_ node: YAMLNode) -> (triggers: [Trigger], schedule: [ScheduleEntry]) {
    let items: [YAMLNode]
    switch node {
    case .sequence(let sequence) where !sequence.items.isEmpty: items = sequence.items
    case .mapping: items = [node]
    default:
      let found = node.sequence != nil ? "an empty list" : node.kindName
      report(
        Diagnostic(.error, .wrongKind, "expected a list of triggers for 'on', found \(found)", at: node.span)
          .help("list what starts the workflow, one per line, like '  - file: ~/Downloads/*.pdf'"))
      return ([], [])
    }
    var triggers: [Trigger] = []
    var schedule: [ScheduleEntry] = []
    let names = TriggerFormat.kinds.map(\.name)
    for item in items {
      guard let mapping = item.mapping, let entry = mapping.entries.first else {
        report(
          Diagnostic(.error, .wrongKind, "expected a trigger, found \(item.kindName)", at: item.span)
            .help(
              "a trigger is its kind and what it waits for, like 'session: unlock'; the kinds are \(List.or(names))"))
        continue
      }
      for extra in mapping.entries.dropFirst() {
        report(
          Diagnostic(
            .error, .multipleActions, "a trigger has one kind; '\(extra.key.value)' starts another", at: extra.key.span
          )
          .help("write each trigger as its own item of the list, starting with '- '"))
      }
      guard let kind = TriggerKind(rawValue: entry.key.value) else {
        report(
          Diagnostic(.error, .unknownKey, "unknown trigger '\(entry.key.value)'", at: entry.key.span)
            .help(Suggestion.help(for: entry.key.value, among: names, listUpTo: names.count)))
        continue
      }
      if kind == .schedule {
        schedule += self.schedule(entry.value)
      } else if let condition = condition(kind, entry.value, at: entry.key) {
        triggers.append(Trigger(kindSpan: entry.key.span, condition: condition))
      }
    }
    return (triggers, schedule)
  }

  private mutating func condition(_ kind: TriggerKind, _ node: YAMLNode, at key: YAMLNode.Scalar)
    -> Trigger.Condition?
  {
    let format = TriggerFormat.kind(kind)
    if let mapping = node.mapping {
      return longForm(kind, mapping, format: format)
    }
    guard let scalar = node.scalar, scalar.resolved != .null else {
      report(
        Diagnostic(
          .error, .wrongKind, "expected what the '\(kind.rawValue)' trigger waits for, found \(node.kindName)",
          at: node.span
        ).help("write it like '\(format.example)'"))
      return nil
    }
    switch kind {
    case .file:
      return path(scalar).map { .file(Trigger.FileCondition(folder: $0.folder, pattern: $0.pattern)) }
    case .drive:
      return word(scalar, Trigger.DriveEvent.self, of: kind).map { .drive(label: nil, event: $0) }
    case .wifi:
      return word(scalar, Trigger.WifiEvent.self, of: kind).map { .wifi(ssid: nil, event: $0) }
    case .network:
      return word(scalar, Trigger.NetworkEvent.self, of: kind).map { .network($0) }
    case .power:
      switch scalar.value {
      case "plugged": return .power(.plugged)
      case "unplugged": return .power(.unplugged)
      default:
        report(
          Diagnostic(.error, .unknownValue, "unknown power event '\(scalar.value)'", at: scalar.span)
            .help(
              Suggestion.help(for: scalar.value, among: ["plugged", "unplugged"])
                ?? "write 'plugged', 'unplugged', or '{battery-below: 20}' or '{battery-above: 90}'"))
        return nil
      }
    case .session:
      return word(scalar, Trigger.SessionEvent.self, of: kind).map { .session($0) }
    case .hotkey:
      return chord(scalar).map { .hotkey($0) }
    case .app:
      return appID(scalar).map { .app(id: $0, event: .opened) }
    case .schedule:
      return nil
    }
  }

  private mutating func longForm(_ kind: TriggerKind, _ mapping: YAMLNode.Mapping, format: TriggerFormat.Kind)
    -> Trigger.Condition?
  {
    let known = format.keys.map(\.name)
    guard !known.isEmpty else {
      report(
        Diagnostic(
          .error, .wrongKind, "the '\(kind.rawValue)' trigger takes one word, not a mapping", at: mapping.span
        ).help("write it like '\(format.example)'"))
      return nil
    }
    var values: [String: YAMLNode] = [:]
    for entry in mapping.entries {
      if known.contains(entry.key.value) {
        values[entry.key.value] = entry.value
      } else {
        unknownKey(entry.key, among: known, in: "a '\(kind.rawValue)' trigger")
      }
    }
    func required(_ key: String) -> YAMLNode? {
      if let value = values[key] { return value }
      report(
        Diagnostic(.error, .missingKey, "this '\(kind.rawValue)' trigger has no '\(key)'", at: mapping.span)
          .help("write it like '\(format.example)'"))
      return nil
    }
    /// The `event:` key: its word, the default when it is left out, nil when it is wrong (reported).
    func event<Word: RawRepresentable & CaseIterable>(_ defaultWord: Word) -> Word? where Word.RawValue == String {
      guard let node = values["event"] else { return defaultWord }
      return scalarText(node, for: "event").flatMap { word($0, Word.self, of: kind) }
    }
    switch kind {
    case .file:
      guard let node = required("path"), let scalar = scalarText(node, for: "path"), let place = path(scalar) else {
        return nil
      }
      var condition = Trigger.FileCondition(folder: place.folder, pattern: place.pattern)
      if let events = values["events"] { condition.events = fileEvents(events) }
      if let recursive = values["recursive"] { condition.recursive = bool(recursive, for: "recursive") ?? false }
      if let settle = values["settle"] { condition.settle = duration(settle, for: "settle")?.value }
      return .file(condition)
    case .drive:
      let label = values["label"].flatMap { text($0, for: "label") }
      return event(Trigger.DriveEvent.mounted).map { .drive(label: label, event: $0) }
    case .wifi:
      let ssid = values["ssid"].flatMap { text($0, for: "ssid") }
      return event(Trigger.WifiEvent.joined).map { .wifi(ssid: ssid, event: $0) }
    case .power:
      let below = values["battery-below"].flatMap { percentage($0, for: "battery-below") }
      let above = values["battery-above"].flatMap { percentage($0, for: "battery-above") }
      if values["battery-below"] != nil, values["battery-above"] != nil {
        report(
          Diagnostic(
            .error, .wrongKind, "a 'power' trigger waits for one crossing: 'battery-below' or 'battery-above'",
            at: mapping.span
          ).help("write two triggers, one for each"))
        return nil
      }
      if values.isEmpty { _ = required("battery-below") }
      return below.map { .power(.batteryBelow($0)) } ?? above.map { .power(.batteryAbove($0)) }
    case .app:
      guard let node = required("id"), let scalar = scalarText(node, for: "id"), let id = appID(scalar) else {
        return nil
      }
      return event(Trigger.AppEvent.opened).map { .app(id: id, event: $0) }
    case .network, .session, .hotkey, .schedule:
      return nil
    }
  }

  private mutating func scalarText(_ node: YAMLNode, for key: String) -> YAMLNode.Scalar? {
    guard let scalar = node.scalar, scalar.resolved != .null else {
      report(Diagnostic(.error, .wrongKind, "expected text for '\(key)', found \(node.kindName)", at: node.span))
      return nil
    }
    return scalar
  }

  /// One of the words of `Word`, with "did you mean" for a near miss.
  private mutating func word<Word: RawRepresentable & CaseIterable>(
    _ scalar: YAMLNode.Scalar, _: Word.Type, of kind: TriggerKind
  ) -> Word? where Word.RawValue == String {
    if let word = Word(rawValue: scalar.value) { return word }
    let words = Word.allCases.map(\.rawValue)
    report(
      Diagnostic(.error, .unknownValue, "unknown \(kind.rawValue) event '\(scalar.value)'", at: scalar.span)
        .help(Suggestion.help(for: scalar.value, among: words, listUpTo: words.count)))
    return nil
  }

  /// A trigger's folder: absolute or under `~`, since the scheduler, not the person's shell, reads it;
  /// a glob only in its last part, which is then the pattern.
  private mutating func path(_ scalar: YAMLNode.Scalar) -> (folder: Located<String>, pattern: String?)? {
    let text = scalar.value
    guard text == "~" || text.hasPrefix("~/") || text.hasPrefix("/") else {
      report(
        Diagnostic(.error, .wrongKind, "a trigger's path must start with '~/' or '/', found '\(text)'", at: scalar.span)
          .help(
            "the scheduler watches it, whose working folder is not yours: write it from your home, like '~/\(text)'"))
      return nil
    }
    if text.contains("${") {
      report(
        Diagnostic(.error, .wrongKind, "a trigger's path is read before any run: it cannot use '${…}'", at: scalar.span)
          .help("write the folder itself; the file that fired is '${trigger.file}' in the steps"))
      return nil
    }
    var parts = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let isGlob = { (part: String) in part.contains { "*?[".contains($0) } }
    var pattern: String?
    if let last = parts.last, isGlob(last) {
      pattern = last
      parts.removeLast()
    }
    if let part = parts.first(where: isGlob) {
      report(
        Diagnostic(
          .error, .wrongKind, "a pattern may only be in the last part of the path, not in '\(part)'", at: scalar.span
        )
        .help("watch the folder with 'recursive: true' and a pattern of names, like '~/Photos/*.jpg'"))
      return nil
    }
    let folder = (text.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    return (Located(folder.isEmpty ? "/" : folder, at: scalar.span), pattern)
  }

  private mutating func fileEvents(_ node: YAMLNode) -> [Trigger.FileEvent] {
    let scalars =
      node.sequence.map { $0.items.compactMap { scalarText($0, for: "events") } }
      ?? [scalarText(node, for: "events")].compactMap { $0 }
    var events: [Trigger.FileEvent] = []
    for scalar in scalars {
      guard let event = word(scalar, Trigger.FileEvent.self, of: .file) else { continue }
      if !events.contains(event) { events.append(event) }
    }
    return events.isEmpty ? [.created] : events
  }

  private mutating func percentage(_ node: YAMLNode, for key: String) -> Int? {
    let range = TriggerFormat.percentages
    guard case .int(let value)? = node.scalar?.resolved, range.contains(value) else {
      report(
        Diagnostic(
          .error, .outOfRange,
          "expected a whole percentage from \(range.lowerBound) to \(range.upperBound) for '\(key)', found \(node.scalar.map { "'\($0.value)'" } ?? node.kindName)",
          at: node.span))
      return nil
    }
    return value
  }

  private mutating func chord(_ scalar: YAMLNode.Scalar) -> Located<Chord>? {
    switch Chord.parse(scalar.value) {
    case .success(let chord): return Located(chord, at: scalar.span)
    case .failure(let problem):
      report(
        Diagnostic(.error, .wrongKind, "'\(scalar.value)' is not a key chord: \(problem)", at: scalar.span)
          .help(problem.help))
      return nil
    }
  }

  /// An application id as desktop files and systemd scopes carry it: `org.mozilla.firefox`, `firefox`.
  private mutating func appID(_ scalar: YAMLNode.Scalar) -> Located<String>? {
    let valid =
      !scalar.value.isEmpty && scalar.value.count <= 255
      && scalar.value.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || "._-".unicodeScalars
            .contains($0)
      }
    guard valid else {
      report(
        Diagnostic(.error, .wrongKind, "'\(scalar.value)' is not an application id", at: scalar.span)
          .help("an application id is letters, digits, '.', '_' and '-', like 'org.mozilla.firefox'"))
      return nil
    }
    return Located(scalar.value, at: scalar.span)
  }
}
