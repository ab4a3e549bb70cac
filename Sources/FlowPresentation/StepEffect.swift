import FlowIntents
import FlowModel
import FlowRuntime

/// What one action step may do, from its intent's declarations and the values written in the step: its
/// side effect and the hosts it may contact. What `flow show` marks in the margin and what the capability
/// analysis adds up.
struct StepEffect: Sendable, Hashable {
  var effect: SideEffect
  /// Hosts named by the intent, or by a literal URL.
  var hosts: [String]
  /// The URL is computed at run time (or asked for), so the host could be any.
  var anyHost: Bool
  /// Nothing can be known before the run: a nested workflow chosen at run time could do anything.
  var unknown = false

  init(effect: SideEffect, hosts: [String], anyHost: Bool, unknown: Bool = false) {
    self.effect = effect
    self.hosts = hosts
    self.anyHost = anyHost
    self.unknown = unknown
  }

  init(_ call: ActionCall, descriptor: IntentDescriptor) {
    var literals: [String: FlowValue] = [:]
    var computed: [ParameterDescriptor] = []
    for (key, value) in (try? Interpreter.arguments(of: call, for: descriptor)) ?? [] {
      if let literal = Self.literal(value) {
        literals[key] = literal
      } else if let parameter = descriptor.parameter(key) {
        computed.append(parameter)
      }
    }
    // An effect may hang on a value (get-url's method). A computed enum could be any of its cases, so every
    // case is tried and the worst kept; other computed values are assumed not to change the effect.
    var effect = descriptor.sideEffect(for: literals)
    for parameter in computed {
      for choice in parameter.choices ?? [] {
        var values = literals
        values[parameter.key] = .text(choice.id)
        effect = max(effect, descriptor.sideEffect(for: values))
      }
    }
    self.effect = effect
    switch descriptor.networkAccess {
    case .none:
      hosts = []
      anyHost = false
    case .hosts(let declared):
      hosts = declared
      anyHost = false
    case .hostOfParameter(let key):
      hosts = descriptor.hosts(for: literals)
      // Computed, asked for, or left out (and so asked for when the step runs): any host.
      anyHost = literals[key] == nil
    }
  }

  /// A value known before the run: literals, and lists and dictionaries of literals.
  static func literal(_ value: Value) -> FlowValue? {
    switch value {
    case .null, .ask: return nil
    case .bool(let bool, _): return .boolean(bool)
    case .integer(let int, _): return .number(Double(int))
    case .double(let double, _): return .number(double)
    case .text(let template): return template.literal.map(FlowValue.text)
    case .list(let items, _):
      let literals = items.compactMap(literal)
      return literals.count == items.count ? .list(literals) : nil
    case .dictionary(let entries, _):
      var dictionary = FlowDictionary()
      for entry in entries {
        guard let literal = literal(entry.value) else { return nil }
        dictionary[entry.key.value] = literal
      }
      return .dictionary(dictionary)
    }
  }

  /// The words in `flow show`'s margin: "changes · api.raindrop.io", "contacts any host"; nil for a step
  /// that only reads what the workflow already has.
  var margin: String? {
    if unknown { return "anything: chosen at run time" }
    var contacts = hosts
    if anyHost { contacts.append("any host") }
    let verb: String? =
      switch effect {
      case .readOnly: nil
      case .changes: "changes"
      case .destructive: "deletes"
      }
    switch (verb, contacts.isEmpty) {
    case (nil, true): return nil
    case (nil, false): return "contacts " + contacts.joined(separator: ", ")
    case (let verb?, true): return verb
    case (let verb?, false): return verb + " · " + contacts.joined(separator: ", ")
    }
  }

  /// The effect of several steps together (a nested workflow): the worst effect, every host.
  static func combined(_ effects: [StepEffect]) -> StepEffect {
    var hosts: [String] = []
    var seen: Set<String> = []
    for host in effects.flatMap(\.hosts) where seen.insert(host).inserted { hosts.append(host) }
    return StepEffect(
      effect: effects.map(\.effect).max() ?? .readOnly, hosts: hosts, anyHost: effects.contains(where: \.anyHost))
  }
}
