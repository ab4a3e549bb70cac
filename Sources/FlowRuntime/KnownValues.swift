import FlowIntents
import FlowModel

/// What is known of an action step's values before it runs: the literals written in it, and the
/// parameters that get a value only at run time — computed from variables, `ask`, or required and left
/// out, and so asked for. What `flow show`, the import card and the unattended check work out a step's
/// effect from, so that the three agree with each other and with the run (issue 16).
public struct KnownValues: Sendable, Hashable {
  /// The values written as literals (lists and dictionaries of literals too).
  public var literals: [String: FlowValue] = [:]
  /// The parameters whose values the run computes or asks for.
  public var unknown: Set<String> = []

  /// - Parameter inputs: the workflow's input values where they are known before step 1 (`--input`,
  ///   defaults): a value that is exactly `${input.NAME}` counts as known then.
  public init(_ call: ActionCall, descriptor: IntentDescriptor, inputs: [String: FlowValue] = [:]) {
    for (key, value) in (try? Interpreter.arguments(of: call, for: descriptor)) ?? [] {
      if case .null = value { continue }
      if let literal = Self.literal(value) {
        literals[key] = literal
      } else if case .text(let template) = value, let reference = template.wholeReference, reference.root == "input",
        reference.path.count == 1, case .property(let name) = reference.path[0], let given = inputs[name]
      {
        literals[key] = given
      } else {
        unknown.insert(key)
      }
    }
    for parameter in descriptor.parameters where parameter.isRequired && literals[parameter.key] == nil {
      unknown.insert(parameter.key)
    }
  }

  /// The step's side effect: exact when every value that decides it is written out, else the strongest
  /// its intent may have (``IntentDescriptor/sideEffect(for:unknown:)``).
  public func sideEffect(of descriptor: IntentDescriptor) -> SideEffect {
    descriptor.sideEffect(for: literals, unknown: unknown)
  }

  /// Whether the step will ask the person before it runs: its intent always does, or it may delete.
  public func asksConfirmation(_ descriptor: IntentDescriptor) -> Bool {
    descriptor.asksConfirmation(for: literals, unknown: unknown)
  }

  /// A value known before the run: literals, and lists and dictionaries of literals.
  public static func literal(_ value: Value) -> FlowValue? {
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
      var values: [(key: String, value: FlowValue)] = []
      for entry in entries {
        guard let literal = literal(entry.value) else { return nil }
        values.append((entry.key.value, literal))
      }
      return .dictionary(FlowDictionary(values))
    }
  }
}
