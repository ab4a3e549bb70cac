import FlowDiagnostics
import FlowIntents
import FlowSession
import FoundationEssentials

/// `flow actions` in its three forms — text for people, JSON for scripts (printed by the one JSON printer,
/// `SessionContext.printJSON`), Markdown for the docs — all rendered from the intents' declarations, so none
/// can say something the code does not.
public enum ActionsReference {
  // MARK: - Text

  /// The catalogue: each action's id, title and description, grouped by catalogue.
  public static func list(_ registry: IntentRegistry) -> String {
    let width = (registry.descriptors.map(\.id.count).max() ?? 0) + 2
    var out = ""
    for group in registry.groups {
      out += "\(group.title)\n"
      for descriptor in group.descriptors {
        out += "  " + pad(descriptor.id, width) + "\(descriptor.title) — \(descriptor.description)\n"
      }
      out += "\n"
    }
    out += "Run 'flow actions ACTION' for an action's parameters, output and an example.\n"
    return out
  }

  /// One catalogue (`flow actions SERVER`): its actions with their parameters and effect, under what the
  /// server's name starts here (a command line, or a Streamable HTTP server's URL).
  static func list(_ group: IntentRegistry.Group, command: String?) -> String {
    var out = "\(group.title)\n"
    if let command {
      out += "  \(command.hasPrefix("http://") || command.hasPrefix("https://") ? "at" : "starts") \(command)\n"
    }
    if group.descriptors.isEmpty { out += "  no tools: the server lists none\n" }
    for descriptor in group.descriptors {
      out += "  \(descriptor.id) — \(descriptor.title)\n"
      let parameters = descriptor.parameters.map { "\($0.key): \($0.type.name)\($0.isRequired ? "" : "?")" }
      if !parameters.isEmpty { out += "    parameters: \(parameters.joined(separator: ", "))\n" }
      if let output = descriptor.outputType { out += "    output: \(output.name)\n" }
      out += "    effect: \(effect(descriptor))\n"
      if let network = network(descriptor) { out += "    network: \(network)\n" }
    }
    return out
  }

  /// One action in full: parameters, output, summary, effects and an example step.
  public static func detail(_ descriptor: IntentDescriptor) -> String {
    var out = "\(descriptor.id) — \(descriptor.title)\n"
    out += "\(descriptor.description)\n\n"
    out += "Summary:  \(descriptor.summary.renderPlaceholders())\n"
    out += "Effect:   \(effect(descriptor))\n"
    if let network = network(descriptor) { out += "Network:  \(network)\n" }
    if let machine = machine(descriptor) { out += "Machine:  \(machine)\n" }
    if let (always, verb) = confirmation(descriptor) {
      out += "Confirm:  \(always ? "always asks before running" : "asks before running when it \(verb)")\n"
    }
    out += "\nParameters:\n"
    if descriptor.parameters.isEmpty {
      out += "  none\n"
    } else {
      let keyWidth = (descriptor.parameters.map(\.key.count).max() ?? 0) + 2
      let typeWidth = (descriptor.parameters.map(\.type.name.count).max() ?? 0) + 2
      let rules = descriptor.parameters.map(requirement)
      let ruleWidth = (rules.map(\.count).max() ?? 0) + 2
      for (parameter, rule) in zip(descriptor.parameters, rules) {
        var line = "  " + pad(parameter.key, keyWidth) + pad(parameter.type.name, typeWidth) + pad(rule, ruleWidth)
        line += parameter.title
        if let description = parameter.description { line += " — \(description)" }
        out += line + "\n"
        let indent = String(repeating: " ", count: 2 + keyWidth + typeWidth + ruleWidth)
        if let notes = notes(parameter) { out += indent + notes + "\n" }
      }
    }
    out += "\nOutput:   \(descriptor.outputType?.name ?? "nothing")\n"
    if let output = descriptor.outputType, case .entity = output.elementType {
      let properties = output.elementType.properties
      let width = (properties.map(\.key.count).max() ?? 0) + 2
      for property in properties { out += "  " + pad(property.key, width) + property.type.name + "\n" }
    }
    out += "\nExample:\n"
    out += example(descriptor).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
    return out
  }

  // MARK: - JSON

  /// The catalogue for `--json`: `{"catalogs": [{"title", "namespace", "actions": [{"id", "title",
  /// "description"}]}]}` (Documentation/JSON.md).
  public static func listJSON(_ registry: IntentRegistry) -> FlowValue {
    let catalogs: [FlowValue] = registry.groups.map { group in
      .dictionary([
        "title": .text(group.title),
        "namespace": group.namespace.map(FlowValue.text) ?? .nothing,
        "actions": .list(
          group.descriptors.map { descriptor in
            .dictionary([
              "id": .text(descriptor.id), "title": .text(descriptor.title),
              "description": .text(descriptor.description),
            ])
          }),
      ])
    }
    return .dictionary(["catalogs": .list(catalogs)])
  }

  /// One action for `--json`, with everything `detail` shows.
  public static func detailJSON(_ descriptor: IntentDescriptor) -> FlowValue {
    let parameters: [FlowValue] = descriptor.parameters.map { parameter in
      var entry: FlowDictionary = [
        "key": .text(parameter.key), "title": .text(parameter.title), "type": .text(parameter.type.name),
        "required": .boolean(parameter.isRequired), "primary": .boolean(parameter.isPrimary),
      ]
      if let description = parameter.description { entry["description"] = .text(description) }
      if let value = parameter.defaultValue { entry["default"] = value }
      if let range = parameter.range {
        entry["range"] = .dictionary(["min": .number(range.lowerBound), "max": .number(range.upperBound)])
      }
      if let choices = parameter.choices {
        entry["choices"] = .list(choices.map { .dictionary(["id": .text($0.id), "title": .text($0.title)]) })
      }
      return .dictionary(entry)
    }
    var output: FlowDictionary = ["type": .text(descriptor.outputType?.name ?? "Nothing")]
    if let type = descriptor.outputType, case .entity = type.elementType {
      output["properties"] = .list(
        type.elementType.properties.map { .dictionary(["key": .text($0.key), "type": .text($0.type.name)]) })
    }
    var network: FlowValue = .nothing
    switch descriptor.networkAccess {
    case .none: break
    case .hosts(let hosts): network = .dictionary(["hosts": .list(hosts.map(FlowValue.text))])
    case .hostOfParameter(let key): network = .dictionary(["hostOfParameter": .text(key)])
    case .undeclaredHosts(let hosts):
      network = .dictionary(["hosts": .list(hosts.map(FlowValue.text)), "undeclaredHosts": true])
    }
    return .dictionary([
      "id": .text(descriptor.id), "title": .text(descriptor.title), "description": .text(descriptor.description),
      "catalog": .text(descriptor.catalogTitle), "summary": .text(descriptor.summary.renderPlaceholders()),
      "sideEffect": .text(descriptor.sideEffect.rawValue),
      "requiresConfirmation": .boolean(descriptor.requiresConfirmation),
      "sideEffectParameters": .list(descriptor.sideEffectParameters.sorted().map(FlowValue.text)),
      "network": network,
      "machine": .list(
        descriptor.machineAccess.map { access in
          var entry: FlowDictionary = ["kind": .text(access.kind.rawValue)]
          if let key = access.parameter { entry["parameter"] = .text(key) }
          return .dictionary(entry)
        }),
      "parameters": .list(parameters), "output": .dictionary(output),
      "example": .text(example(descriptor)),
    ])
  }

  // MARK: - Markdown

  /// The first line of the generated reference; the stale-docs test and readers look for it.
  public static let markdownHeader =
    "<!-- Generated by `flow actions --markdown` from the intents' declarations. Do not edit. -->"

  /// `Documentation/Actions.md`: an index, then every action in full.
  public static func markdown(_ registry: IntentRegistry) -> String {
    var out = markdownHeader + "\n\n# Actions\n\n"
    out += "Every action a workflow step can use, generated from the intents' declarations. "
    out += "`flow actions ACTION` shows the same at the terminal.\n"
    for group in registry.groups {
      out += "\n## \(group.title)\n\n| action | title | what it does |\n|---|---|---|\n"
      for descriptor in group.descriptors {
        out +=
          "| [`\(descriptor.id)`](#\(anchor(descriptor.id))) | \(descriptor.title) | \(escape(descriptor.description)) |\n"
      }
      for descriptor in group.descriptors { out += "\n" + markdown(descriptor) }
    }
    return out
  }

  static func markdown(_ descriptor: IntentDescriptor) -> String {
    var out = "### \(descriptor.id)\n\n**\(descriptor.title).** \(descriptor.description)\n\n"
    out += "`\(descriptor.summary.renderPlaceholders())`\n\n"
    var facts = ["effect: \(effect(descriptor))"]
    if let network = network(descriptor) { facts.append("network: \(network)") }
    if let machine = machine(descriptor) { facts.append("machine: \(machine)") }
    if let (always, verb) = confirmation(descriptor) {
      facts.append(always ? "always asks for confirmation" : "asks for confirmation when it \(verb)")
    }
    out += facts.joined(separator: "; ").capitalizedFirst + ".\n\n"
    if !descriptor.parameters.isEmpty {
      out += "| parameter | type | | title | notes |\n|---|---|---|---|---|\n"
      for parameter in descriptor.parameters {
        var notes = [parameter.description, self.notes(parameter)].compactMap { $0 }.joined(separator: " ")
        if notes.isEmpty { notes = " " }
        out +=
          "| `\(parameter.key)` | \(parameter.type.name) | \(requirement(parameter)) | \(parameter.title) | \(escape(notes)) |\n"
      }
      out += "\n"
    }
    out += "Output: \(descriptor.outputType?.name ?? "nothing")"
    if let output = descriptor.outputType, case .entity = output.elementType {
      out += ", with " + output.elementType.properties.map { "`\($0.key)` (\($0.type.name))" }.joined(separator: ", ")
    }
    out += ".\n\n```yaml\n\(example(descriptor))\n```\n"
    return out
  }

  // MARK: - Parts

  /// "required (primary)", "default '30s'", "optional".
  static func requirement(_ parameter: ParameterDescriptor) -> String {
    var text: String
    if let value = parameter.defaultValue {
      text = "default \(literal(value))"
    } else {
      text = parameter.isRequired ? "required" : "optional"
    }
    if parameter.isPrimary { text += " (primary)" }
    return text
  }

  /// The range or the choices of a parameter.
  static func notes(_ parameter: ParameterDescriptor) -> String? {
    if let range = parameter.range {
      return "from \(FlowValue.formatNumber(range.lowerBound)) to \(FlowValue.formatNumber(range.upperBound))"
    }
    if let choices = parameter.choices {
      return "one of " + choices.map { "\($0.id) (\($0.title))" }.joined(separator: ", ")
    }
    return nil
  }

  static func effect(_ descriptor: IntentDescriptor) -> String {
    // A server's annotations are hints it gives, not something flow can know (Documentation/MCP.md).
    if let claimant = descriptor.effectClaimedBy { return "\(words(descriptor.sideEffect)), according to \(claimant)" }
    let usual = descriptor.sideEffect(for: [:])
    if usual != descriptor.sideEffect {
      let keys = descriptor.sideEffectParameters.sorted().map { "'\($0)'" }.joined(separator: " and ")
      return
        "\(words(usual)) with its defaults; as \(keys) decide\(descriptor.sideEffectParameters.count == 1 ? "s" : ""), "
        + "up to \(words(descriptor.sideEffect))"
    }
    return words(descriptor.sideEffect)
  }

  static func words(_ effect: SideEffect) -> String {
    switch effect {
    case .readOnly: "read-only"
    case .changes: "may change things"
    case .destructive: "destructive: deletes or overwrites"
    }
  }

  /// When it asks the person first: always, or when its values make it delete (``IntentDescriptor/asksConfirmation(for:unknown:)``).
  static func confirmation(_ descriptor: IntentDescriptor) -> (always: Bool, verb: String)? {
    if descriptor.requiresConfirmation { return (true, "") }
    return descriptor.sideEffect == .destructive ? (false, "deletes") : nil
  }

  static func network(_ descriptor: IntentDescriptor) -> String? {
    switch descriptor.networkAccess {
    case .none: nil
    case .hosts(let hosts): hosts.joined(separator: ", ")
    case .hostOfParameter(let key): "the host of '\(key)'"
    case .undeclaredHosts(let hosts):
      hosts.map { $0 + ", " }.joined() + "may contact other hosts"
        + (descriptor.effectClaimedBy.map { ", according to \($0)" } ?? "")
    }
  }

  /// What it may do to the machine: "reads files ('path')", "runs commands ('script', 'command')".
  static func machine(_ descriptor: IntentDescriptor) -> String? {
    var kinds: [MachineAccess.Kind] = []
    for access in descriptor.machineAccess where !kinds.contains(access.kind) { kinds.append(access.kind) }
    guard !kinds.isEmpty else { return nil }
    return kinds.map { kind in
      let keys = descriptor.machineAccess.filter { $0.kind == kind }.compactMap(\.parameter).map { "'\($0)'" }
      let words = kind.rawValue.replacingEvery("-", with: " ")
      return keys.isEmpty ? words : "\(words) (\(keys.joined(separator: ", ")))"
    }
    .joined(separator: ", ")
  }

  /// An example step in workflow YAML: the primary parameter alone when it is the only one needed,
  /// otherwise a mapping of the required parameters.
  public static func example(_ descriptor: IntentDescriptor) -> String {
    let required = descriptor.parameters.filter(\.isRequired)
    if descriptor.parameters.isEmpty { return "- \(descriptor.id)" }
    if let primary = descriptor.primaryParameter, required.allSatisfy({ $0.key == primary.key }) {
      return "- \(descriptor.id): \(sample(primary))"
    }
    let shown = required.isEmpty ? Array(descriptor.parameters.prefix(1)) : required
    return "- \(descriptor.id):\n" + shown.map { "    \($0.key): \(sample($0))" }.joined(separator: "\n")
  }

  /// A plausible value for a parameter, in YAML.
  static func sample(_ parameter: ParameterDescriptor) -> String {
    switch parameter.type {
    case .text:
      switch parameter.key {
      case "expression": "\"${count} * 2\""
      // run-shell: a script that reads its values as a script should, from the environment or "$1".
      case "script": "'df -h \"$HOME\"'"
      default: "\"\(parameter.title)\""
      }
    case .number: "1.5"
    case .integer: parameter.range.map { FlowValue.formatNumber($0.lowerBound) } ?? "1"
    case .boolean: "true"
    case .date: "2026-11-21"
    case .url: "https://example.com"
    case .duration: "30s"
    case .enumeration(let type): type.cases.first?.id ?? "\"\""
    case .any: "\"Hello\""
    case .list(.text), .list(.any): "[first, second]"
    case .entity, .list, .dictionary, .nothing: "${previous}"
    }
  }

  /// A default as a person writes it: text quoted, numbers and booleans bare.
  static func literal(_ value: FlowValue) -> String {
    switch value {
    case .number, .boolean: value.text
    default: "'\(value.text)'"
    }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }

  private static func anchor(_ id: String) -> String { id.replacingEvery(".", with: "") }

  private static func escape(_ text: String) -> String { text.replacingEvery("|", with: "\\|") }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
