import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowYAML
import FoundationEssentials

/// Turns what a workflow writes into values: templates and references into typed values, conditions
/// into booleans. Pure: reads the scope, changes nothing.
enum Evaluator {
  /// The value of `value`; `ask` values are reported by the caller, never evaluated.
  static func evaluate(_ value: Value, in scope: Scope) throws -> FlowValue {
    switch value {
    case .null, .ask: return .nothing
    case .bool(let bool, _): return .boolean(bool)
    case .integer(let int, _): return .number(Double(int))
    case .double(let double, _): return .number(double)
    case .text(let template): return try evaluate(template, in: scope)
    case .list(let items, _):
      var values: [FlowValue] = []
      for item in items { values.append(try evaluate(item, in: scope)) }
      return .list(values)
    case .dictionary(let entries, _):
      var values: [(key: String, value: FlowValue)] = []
      for entry in entries { values.append((entry.key.value, try evaluate(entry.value, in: scope))) }
      return .dictionary(FlowDictionary(values))
    }
  }

  /// A template: one whole reference keeps its type; otherwise the parts are joined as text.
  static func evaluate(_ template: Template, in scope: Scope) throws -> FlowValue {
    if let reference = template.wholeReference { return try lookUp(reference, in: scope) }
    var text = ""
    for part in template.parts {
      switch part {
      case .literal(let literal): text += literal
      case .reference(let reference): text += try standIn(of: reference, in: scope) ?? lookUp(reference, in: scope).text
      }
      // Checked as it grows: a template naming a large text a thousand times would otherwise build it whole.
      if text.utf8.count > scope.textLimit {
        throw RunError(
          .stepFailed,
          Diagnostic(
            .error, .valueTooLarge,
            "this text is more than \(ByteCount(scope.textLimit)), the most one value may hold", at: template.span
          )
          .help("if the workflow really needs more, raise the limit under 'limits:' in config.yml"))
      }
    }
    return .text(text)
  }

  /// Dry runs: the label of the stand-in a value reads (`⟨save-bookmark output⟩`), when it is exactly a
  /// reference into one.
  static func standIn(of value: Value, in scope: Scope) -> String? {
    guard !scope.standIns.isEmpty, case .text(let template) = value, let reference = template.wholeReference else {
      return nil
    }
    return standIn(of: reference, in: scope)
  }

  /// Dry runs: whether any reference in the value reads a stand-in, so that what it computes is made up.
  static func readsStandIn(_ value: Value, in scope: Scope) -> Bool {
    !scope.standIns.isEmpty && value.references.contains { standIn(of: $0, in: scope) != nil }
  }

  /// The stand-in label of a reference's variable, if it holds one.
  private static func standIn(of reference: Reference, in scope: Scope) -> String? {
    guard !scope.standIns.isEmpty else { return nil }
    if let loop = scope.loop, loop.itemName == reference.root { return nil }
    return scope.standIns[reference.root]
  }

  // MARK: - References

  static func lookUp(_ reference: Reference, in scope: Scope) throws -> FlowValue {
    let value = try lookUpPath(reference, in: scope)
    guard let offset = reference.dateOffset else { return value }
    let date: Date
    do {
      guard case .date(let read) = try Coercion.coerce(value, to: .date) else { return value }
      date = read
    } catch {
      // A dry run's stand-in is no date, and the real value may well be one.
      if standIn(of: reference, in: scope) != nil { return value }
      throw RunFailure(
        "'${\(reference)}' counts from a date, but \(value.quoted) is not one", at: reference.span,
        help: "date arithmetic works on dates, like '${now - 7 days}' or '${file.modified + 1 hour}'")
    }
    return .date(try shift(date, by: offset, at: reference.span))
  }

  /// `date` moved by `offset`: seconds, minutes and hours as elapsed time, days and longer on the
  /// calendar in the system's time zone, as `adjust-date` counts them.
  static func shift(_ date: Date, by offset: DateOffset, at span: SourceSpan) throws -> Date {
    let seconds: Double? =
      switch offset.unit {
      case .second: 1
      case .minute: 60
      case .hour: 3_600
      default: nil
      }
    if let seconds { return date.addingTimeInterval(Double(offset.amount) * seconds) }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    var components = DateComponents()
    switch offset.unit {
    case .day: components.day = offset.amount
    case .week: components.day = offset.amount * 7
    case .month: components.month = offset.amount
    default: components.year = offset.amount
    }
    guard let shifted = calendar.date(byAdding: components, to: date),
      let year = calendar.dateComponents([.year], from: shifted).year, (1...9999).contains(year)
    else {
      throw RunFailure("the date \(offset) is out of the calendar's range", at: span)
    }
    return shifted
  }

  private static func lookUpPath(_ reference: Reference, in scope: Scope) throws -> FlowValue {
    var path = reference.path[...]
    var value: FlowValue
    let variable = MagicVariable(reference.root)
    switch variable {
    case .previous?: value = scope.previous
    case .item?, .index?:
      guard let loop = scope.loop else {
        throw RunFailure("'\(reference.root)' is only defined inside 'repeat' and 'for-each'", at: reference.span)
      }
      value = variable == .item ? loop.item : .number(Double(loop.index))
    case .now?: value = .date(scope.builtIns.clock.now)
    case .trigger?:
      guard let trigger = scope.builtIns.trigger else {
        throw RunFailure(
          "this run was not started by a trigger, so '${\(reference)}' has no value", at: reference.span,
          help: "run it as if its trigger fired with 'flow run WORKFLOW --trigger-event KIND=VALUE'")
      }
      value = trigger
    case .input?:
      // `${input.NAME}` names an input; with a single input, `${input}` is that input itself.
      if case .property(let name)? = path.first, let named = scope.inputs[name] {
        value = named
        path = path.dropFirst()
      } else {
        value = scope.input
      }
    case .workflow?, .run?, .env?, .secret?:
      guard case .property(let name)? = path.first else {
        throw RunFailure(
          "'\(reference.root)' needs a property, like '${\(Self.example(reference.root))}'", at: reference.span)
      }
      path = path.dropFirst()
      switch (reference.root, name) {
      case ("workflow", "name"): value = .text(scope.builtIns.workflowName)
      // The short id `flow runs` lists, which `flow runs show` takes.
      case ("run", "id"): value = .text(String(scope.builtIns.runID.prefix(8)))
      case ("run", "error"):
        guard let error = scope.runError else {
          throw RunFailure("'run.error' is only defined inside 'on-failure'", at: reference.span)
        }
        value = error
      case ("env", _):
        guard let variable = scope.builtIns.environment[name] else {
          throw RunFailure(
            "environment variable '\(name)' is not set", at: reference.span,
            help:
              "the workflow may read it (it is under 'env:'), but flow was started without it: "
              + "set it first (export \(name)=…); cron and systemd pass only a few variables")
        }
        value = .text(variable)
      case ("secret", _):
        guard let secret = scope.builtIns.secrets[name] else {
          throw RunFailure(
            "secret '\(name)' is not listed under 'secrets:'", at: reference.span,
            help: "a workflow reads only the secrets it lists: add 'secrets: [\(name)]'")
        }
        value = .text(secret)
      default:
        throw RunFailure("unknown property '\(name)' of '\(reference.root)'", at: reference.span)
      }
    case nil:
      if let loop = scope.loop, loop.itemName == reference.root {
        value = loop.item
      } else if let named = scope.names[reference.root] {
        value = named
      } else {
        throw RunFailure(
          "'\(reference.root)' has no value yet", at: reference.span,
          help: "it is set by a step that has not run (a skipped 'when', or another branch)")
      }
    }
    // A dry run's stand-in has made-up contents: where its path leads nowhere, the value is unknown.
    if let label = standIn(of: reference, in: scope) {
      for component in path {
        guard let next = try? step(value, component, reference: reference) else { return .text(label) }
        value = next
      }
      return value
    }
    for component in path {
      value = try step(value, component, reference: reference)
    }
    return value
  }

  private static func step(_ value: FlowValue, _ component: Reference.Component, reference: Reference) throws
    -> FlowValue
  {
    switch component {
    case .property(let name):
      if let property = value.property(named: name) { return property }
      if case .text(let text) = value, ValueType.url.property(named: name) != nil {
        throw RunFailure(
          "'${\(reference)}' reads '\(name)' of a URL, but the text "
            + "\(FlowValue.text(text.count > 60 ? text.prefix(59) + "…" : text).quoted) is not one",
          at: reference.span,
          help: "text has a URL's properties only when it holds a URL, like 'https://example.com/page'")
      }
      throw RunFailure(
        "\(value.typeName) has no property '\(name)' in '${\(reference)}'", at: reference.span,
        help: Suggestion.help(for: name, among: value.propertyNames))
    case .index(let index):
      guard case .list(let items) = value else {
        throw RunFailure("'${\(reference)}' indexes \(value.typeName), which is not a list", at: reference.span)
      }
      guard items.indices.contains(index) else {
        throw RunFailure(
          "index \(index) is outside the list of \(Count.of(items.count, "item")) in '${\(reference)}'",
          at: reference.span, help: items.isEmpty ? "the list is empty" : "indexes count from 0 to \(items.count - 1)")
      }
      return items[index]
    }
  }

  private static func example(_ root: String) -> String {
    switch root {
    case "workflow": "workflow.name"
    case "run": "run.id"
    default: "env.HOME"
    }
  }

  // MARK: - Conditions

  static func evaluate(_ condition: Condition, in scope: Scope) throws -> Bool {
    switch condition {
    case .value(let operand): return truthy(try evaluate(operand, in: scope))
    case .isEmpty(let operand, let negated): return try evaluate(operand, in: scope).isEmpty != negated
    case .not(let inner): return try !evaluate(inner, in: scope)
    case .and(let lhs, let rhs): return try evaluate(lhs, in: scope) && evaluate(rhs, in: scope)
    case .or(let lhs, let rhs): return try evaluate(lhs, in: scope) || evaluate(rhs, in: scope)
    case .compare(let lhs, let comparison, let rhs):
      let left = try evaluate(lhs, in: scope)
      let right = try evaluate(rhs, in: scope)
      return try compare(left, comparison, right, span: rhs.span)
    }
  }

  private static func evaluate(_ operand: Operand, in scope: Scope) throws -> FlowValue {
    switch operand.kind {
    case .template(let template): try evaluate(template, in: scope)
    case .number(let number): .number(number)
    case .bool(let bool): .boolean(bool)
    case .null: .nothing
    }
  }

  /// Shortcuts' truthiness: false, zero, nothing and empty text or lists are false.
  static func truthy(_ value: FlowValue) -> Bool {
    switch value {
    case .boolean(let bool): bool
    case .number(let number): number != 0
    case .nothing: false
    case .text(let text): !text.isEmpty && text != "false"
    case .list(let items): !items.isEmpty
    case .dictionary(let dictionary): !dictionary.isEmpty
    default: true
    }
  }

  private static func compare(_ lhs: FlowValue, _ comparison: Condition.Comparison, _ rhs: FlowValue, span: SourceSpan)
    throws -> Bool
  {
    switch comparison {
    case .equal: return ValueComparison.compare(lhs, rhs) == .orderedSame
    case .notEqual: return ValueComparison.compare(lhs, rhs) != .orderedSame
    case .less: return ValueComparison.compare(lhs, rhs) == .orderedAscending
    case .lessOrEqual: return ValueComparison.compare(lhs, rhs) != .orderedDescending
    case .greater: return ValueComparison.compare(lhs, rhs) == .orderedDescending
    case .greaterOrEqual: return ValueComparison.compare(lhs, rhs) != .orderedAscending
    case .contains:
      if case .list(let items) = lhs { return items.contains { ValueComparison.compare($0, rhs) == .orderedSame } }
      return TextOrder.contains(lhs.text, ignoringCase: rhs.text)
    case .startsWith: return lhs.text.lowercased().hasPrefix(rhs.text.lowercased())
    case .endsWith: return lhs.text.lowercased().hasSuffix(rhs.text.lowercased())
    case .matches:
      // The actions' engine and budget (TextPattern): a backtracking pattern stops at the budget with an
      // error naming it, instead of hanging the run.
      do {
        return try TextPattern(rhs.text, caseSensitive: true).hasMatch(in: lhs.text)
      } catch let error as AppIntentError {
        throw RunFailure(error.message, at: span, help: error.help)
      }
    }
  }
}

/// A failure while evaluating or running, with the place it belongs to.
struct RunFailure: Error {
  var message: String
  var span: SourceSpan?
  var help: String?

  init(_ message: String, at span: SourceSpan?, help: String? = nil) {
    self.message = message
    self.span = span
    self.help = help
  }
}
