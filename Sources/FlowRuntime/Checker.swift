import FlowDiagnostics
import FlowIntents
import FlowModel

/// Checks a decoded workflow against the action catalogue before anything runs (SPEC §4): actions,
/// parameters and enum cases exist; literals have the right type and range; every name is defined
/// before it is used; properties exist on the type that reaches them; no list goes where one value is
/// wanted. Every problem is reported, in one pass.
public struct Checker {
  let registry: IntentRegistry
  public init(registry: IntentRegistry) {
    self.registry = registry
  }

  /// Entity types the catalogues know, by lower-cased name, for input declarations like `type: bookmark`.
  /// Computed only when an input names a type that is not built in: it describes every intent.
  private var entityTypes: [String: ValueType] {
    var types: [String: ValueType] = [:]
    for descriptor in registry.descriptors {
      for type in descriptor.parameters.map(\.type) + [descriptor.outputType].compactMap({ $0 }) {
        if case .entity(let entity) = type.elementType {
          types[entity.name.lowercased()] = type.elementType
          types[type.elementType.spelling] = type.elementType
        }
      }
    }
    return types
  }

  public func check(_ workflow: Workflow) -> Diagnostics {
    var pass = Pass(checker: self, workflow: workflow)
    pass.run()
    return pass.diagnostics
  }

  /// The static type the check finds for each reference whose type is known: what `flow show` reads to
  /// make coercions visible (`⟨saved⟩ as URL`) without a second type inference. Reports nothing.
  public func referenceTypes(in workflow: Workflow) -> [Reference: ValueType] {
    var pass = Pass(checker: self, workflow: workflow)
    pass.run()
    return pass.referenceTypes
  }

  /// The type an input declaration names: `text`, `[url]`, `bookmark`, `[Bookmark]`.
  func type(named spelling: String) -> ValueType? {
    if let type = ValueType(spelling: spelling) { return type }
    let trimmed = spelling.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
      return type(named: String(trimmed.dropFirst().dropLast())).map(ValueType.list)
    }
    return entityTypes[trimmed.lowercased()]
  }

  var typeSpellings: [String] { ValueType.spellings + entityTypes.values.map(\.spelling) }
}

/// One walk over a workflow, in document order, with what is known at each point.
private struct Pass {
  let checker: Checker
  let workflow: Workflow
  var diagnostics = Diagnostics()

  /// Names defined so far (step outputs and variables), with their type when known.
  var names: [String: ValueType?] = [:]
  /// Every name defined anywhere, for "used before it is defined".
  var definitions: [String: SourceSpan] = [:]
  /// The innermost loop: its item's type and `as` name.
  var loops: [(itemName: String?, itemType: ValueType?)] = []
  var previous: ValueType?
  var inputs: [String: ValueType?] = [:]
  /// What ``Checker/referenceTypes(in:)`` returns.
  var referenceTypes: [Reference: ValueType] = [:]

  init(checker: Checker, workflow: Workflow) {
    self.checker = checker
    self.workflow = workflow
  }

  mutating func run() {
    for input in workflow.inputs {
      var type: ValueType?
      if let spelling = input.type {
        type = checker.type(named: spelling.value)
        if type == nil {
          report(
            Diagnostic(
              .error, .unknownType, "unknown type '\(spelling.value)' for input '\(input.name.value)'",
              at: spelling.span
            )
            .help(Suggestion.help(for: spelling.value, among: checker.typeSpellings)))
        }
      }
      inputs[input.name.value] = type
      if let defaultValue = input.defaultValue, let type {
        check(
          defaultValue, against: type, parameter: input.name.value, range: nil,
          description: "input '\(input.name.value)'")
      }
    }
    collectDefinitions(workflow.steps)
    check(workflow.steps)
  }

  private mutating func collectDefinitions(_ steps: [Step]) {
    for step in steps {
      if let name = step.name, !isForEach(step), definitions[name.value] == nil { definitions[name.value] = name.span }
      switch step.kind {
      case .ifBlock(_, let then, let otherwise):
        collectDefinitions(then)
        collectDefinitions(otherwise)
      case .repeatBlock(_, let body), .forEach(_, let body):
        collectDefinitions(body)
      case .menu(_, let options, _):
        options.forEach { collectDefinitions($0.steps) }
      case .set(let variable, _), .append(let variable, _):
        if definitions[variable.value] == nil { definitions[variable.value] = variable.span }
      default:
        break
      }
    }
  }

  // MARK: - Steps

  private mutating func check(_ steps: [Step]) {
    for step in steps { check(step) }
  }

  private mutating func check(_ step: Step) {
    if let condition = step.when { check(condition) }
    if let message = step.confirm?.message { check(message) }
    var output: ValueType?
    switch step.kind {
    case .action(let call):
      output = check(call)
    case .ifBlock(let condition, let then, let otherwise):
      check(condition)
      check(then)
      check(otherwise)
      output = nil
    case .repeatBlock(let count, let body):
      check(count, against: .number, parameter: "repeat", range: 0...1_000_000_000, description: "'repeat'")
      loops.append((nil, .number))
      check(body)
      loops.removeLast()
      output = .list(.any)
    case .forEach(let items, let body):
      let itemsType = type(of: items)
      let itemType: ValueType? = itemsType.map { $0.isList ? $0.elementType : $0 }
      loops.append((step.name?.value, itemType))
      check(body)
      loops.removeLast()
      output = .list(.any)
    case .menu(let prompt, let options, _):
      _ = type(of: prompt)
      for option in options { check(option.steps) }
      output = nil
    case .stop(let value):
      if let value { _ = type(of: value) }
    case .runWorkflow(let reference, let input):
      _ = type(of: reference)
      if let input { _ = type(of: input) }
      output = nil
    case .set(let variable, let value):
      output = value.map { type(of: $0) } ?? previous
      names[variable.value] = output
    case .append(let variable, let value):
      _ = value.map { type(of: $0) }
      output = .list(.any)
      names[variable.value] = output
    }
    previous = output
    if let name = step.name, !isForEach(step) { names[name.value] = output }
  }

  /// Checks an action step and returns its output type.
  private mutating func check(_ call: ActionCall) -> ValueType? {
    let descriptor: IntentDescriptor
    do {
      descriptor = try checker.registry.descriptor(for: call.id.value)
    } catch {
      report(error.diagnostic(at: call.id.span))
      return nil
    }
    let keys = descriptor.parameters.map(\.key)
    switch call.arguments {
    case .none:
      break
    case .primary(let value):
      guard let primary = descriptor.primaryParameter else {
        report(
          Diagnostic(
            .error, .noPrimaryParameter, "'\(descriptor.id)' takes named parameters, not a single value", at: value.span
          )
          .help("name the parameter: \(List.or(keys.map { "'\($0)'" }))"))
        _ = type(of: value)
        break
      }
      check(value, against: primary, of: descriptor)
    case .named(let entries, let span):
      if let primary = descriptor.primaryParameter, primary.type == .dictionary,
        entries.contains(where: { descriptor.parameter($0.key.value) == nil })
      {
        check(.dictionary(entries, span), against: primary, of: descriptor)
        break
      }
      for entry in entries {
        guard let parameter = descriptor.parameter(entry.key.value) else {
          report(
            Diagnostic(
              .error, .unknownParameter, "'\(descriptor.id)' has no parameter '\(entry.key.value)'", at: entry.key.span
            )
            .help(Suggestion.help(for: entry.key.value, among: keys, listUpTo: 8) ?? "it takes no parameters"))
          _ = type(of: entry.value)
          continue
        }
        check(entry.value, against: parameter, of: descriptor)
      }
    }
    return descriptor.outputType
  }

  private mutating func check(_ value: Value, against parameter: ParameterDescriptor, of descriptor: IntentDescriptor) {
    check(
      value, against: parameter.type, parameter: parameter.key, range: parameter.range,
      description: "'\(parameter.key)'")
  }

  /// Checks a value against the type a parameter (or input) wants: literals by coercion and range,
  /// references by their static type.
  private mutating func check(
    _ value: Value, against type: ValueType, parameter: String, range: ClosedRange<Double>?, description: String
  ) {
    switch value {
    case .ask, .null:
      return
    case .text(let template):
      if let reference = template.wholeReference {
        guard let actual = self.type(of: reference) else { return }
        if actual.isList, !type.isList, !Self.acceptsAnything(type) {
          report(
            Diagnostic(
              .error, .listWhereOneExpected,
              "\(description) takes one \(type.name), but '${\(reference)}' is a \(actual.name)", at: reference.span
            )
            .help("run the step once per item with 'for-each', or pick one with 'get-item'"))
        }
        return
      }
      for reference in template.references { _ = self.type(of: reference) }
      guard let literal = template.literal else { return }
      checkLiteral(.text(literal), against: type, span: template.span, description: description)
    case .bool(let bool, let span):
      checkLiteral(.boolean(bool), against: type, span: span, description: description)
    case .integer, .double:
      let number: Double =
        switch value {
        case .integer(let int, _): Double(int)
        case .double(let double, _): double
        default: 0
        }
      guard checkLiteral(.number(number), against: type, span: value.span, description: description) else { return }
      if let range, !range.contains(number) {
        report(
          Diagnostic(
            .error, .outOfRange,
            "\(description) must be between \(FlowValue.formatNumber(range.lowerBound)) and \(FlowValue.formatNumber(range.upperBound)), got \(FlowValue.formatNumber(number))",
            at: value.span))
      }
    case .list(let items, let span):
      if case .list(let element) = type {
        for item in items {
          check(item, against: element, parameter: parameter, range: range, description: description)
        }
      } else if !Self.acceptsAnything(type) {
        report(
          Diagnostic(.error, .listWhereOneExpected, "\(description) takes one \(type.name), not a list", at: span)
            .help("run the step once per item with 'for-each', or pick one with 'get-item'"))
      }
    case .dictionary(let entries, let span):
      for entry in entries { _ = self.type(of: entry.value) }
      switch type {
      case .dictionary, .any, .text, .list(.any), .list(.dictionary): break
      default:
        report(
          Diagnostic(
            .error, .invalidValue, "expected \(CoercionError.article(for: type)) for \(description), got a dictionary",
            at: span))
      }
    }
  }

  /// Checks a literal by the coercion table; false when it cannot be coerced.
  @discardableResult
  private mutating func checkLiteral(
    _ literal: FlowValue, against type: ValueType, span: SourceSpan, description: String
  ) -> Bool {
    // Entities are found through their queries at run time; text naming one is checked then.
    if case .entity = type.elementType { return true }
    do {
      _ = try Coercion.coerce(literal, to: type)
      return true
    } catch {
      let message =
        error.expected.map { "expected \($0) for \(description), got \(error.got ?? literal.quoted)" } ?? error.message
      report(Diagnostic(.error, .invalidValue, message, at: span).help(error.help))
      return false
    }
  }

  private static func acceptsAnything(_ type: ValueType) -> Bool {
    switch type {
    case .any, .text, .dictionary: true
    default: false
    }
  }

  // MARK: - References

  private mutating func check(_ condition: Condition) {
    for reference in condition.references { _ = type(of: reference) }
  }

  private mutating func check(_ template: Template) {
    for reference in template.references { _ = type(of: reference) }
  }

  /// The static type of a value, checking its references on the way; nil when unknown.
  private mutating func type(of value: Value) -> ValueType? {
    switch value {
    case .text(let template):
      if let reference = template.wholeReference { return type(of: reference) }
      check(template)
      return .text
    case .list(let items, _):
      items.forEach { _ = type(of: $0) }
      return .list(.any)
    case .dictionary(let entries, _):
      entries.forEach { _ = type(of: $0.value) }
      return .dictionary
    case .integer, .double: return .number
    case .bool: return .boolean
    case .null, .ask: return nil
    }
  }

  /// The static type of a reference, kept for ``Checker/referenceTypes(in:)``.
  private mutating func type(of reference: Reference) -> ValueType? {
    let type = resolve(reference)
    if let type { referenceTypes[reference] = type }
    return type
  }

  /// Checks that a reference names something defined by now, and that its path exists on the type.
  private mutating func resolve(_ reference: Reference) -> ValueType? {
    var path = reference.path[...]
    var current: ValueType?
    switch reference.root {
    case "previous":
      current = previous
    case "item", "index":
      guard let loop = loops.last else {
        report(
          Diagnostic(
            .error, .undefinedName, "'\(reference.root)' is only defined inside 'repeat' and 'for-each'",
            at: reference.span))
        return nil
      }
      current = reference.root == "item" ? loop.itemType : .integer
    case "now":
      current = .date
    case "input":
      if case .property(let name)? = path.first, let input = inputs[name] {
        current = input
        path = path.dropFirst()
      } else if inputs.count == 1 {
        current = inputs.values.first ?? nil
      } else if case .property(let name)? = path.first, !inputs.isEmpty {
        report(
          Diagnostic(.error, .undefinedName, "the workflow has no input '\(name)'", at: reference.span)
            .help(Suggestion.help(for: name, among: inputs.keys.sorted(), listUpTo: 6) ?? "declare it under 'input:'"))
        return nil
      } else {
        current = .dictionary
      }
    case "workflow", "run", "env":
      let expected = ["workflow": "name", "run": "id"]
      guard case .property(let name)? = path.first else {
        report(Diagnostic(.error, .undefinedName, "'\(reference.root)' needs a property", at: reference.span))
        return nil
      }
      path = path.dropFirst()
      if reference.root == "env" {
        if !workflow.environment.contains(where: { $0.value == name }) {
          report(
            Diagnostic(.error, .environmentNotAllowed, "'\(name)' is not listed under 'env:'", at: reference.span)
              .help("a workflow reads only the environment variables it lists: add 'env: [\(name)]'"))
        }
      } else if expected[reference.root] != name {
        report(
          Diagnostic(.error, .unknownProperty, "unknown property '\(name)' of '\(reference.root)'", at: reference.span)
            .help("did you mean '\(expected[reference.root] ?? "")'?"))
        return nil
      }
      current = .text
    default:
      if let loop = loops.last(where: { $0.itemName == reference.root }) {
        current = loop.itemType
      } else if let known = names[reference.root] {
        current = known
      } else if let definition = definitions[reference.root] {
        report(
          Diagnostic(.error, .usedBeforeDefined, "'\(reference.root)' is used before it is defined", at: reference.span)
            .note("'\(reference.root)' is defined here", at: definition))
        return nil
      } else {
        let visible = names.keys.sorted() + loops.compactMap(\.itemName) + ["previous", "input", "now"]
        report(
          Diagnostic(.error, .undefinedName, "undefined name '\(reference.root)'", at: reference.span)
            .help(Suggestion.closest(to: reference.root, among: visible).map { "did you mean '\($0)'?" }))
        return nil
      }
    }
    for component in path {
      guard let type = current else { return nil }
      switch component {
      case .property(let name):
        switch type {
        case .any, .dictionary: return nil
        default:
          guard let property = type.property(named: name) else {
            report(
              Diagnostic(.error, .unknownProperty, "unknown property '\(name)' of \(type.name)", at: reference.span)
                .help(Suggestion.help(for: name, among: type.properties.map(\.key), listUpTo: 8)))
            return nil
          }
          current = property
        }
      case .index:
        guard type.isList || type == .any else {
          report(
            Diagnostic(
              .error, .notAList, "'${\(reference)}' indexes \(type.name), which is not a list", at: reference.span))
          return nil
        }
        current = type.isList ? type.elementType : nil
      }
    }
    return current
  }

  private func isForEach(_ step: Step) -> Bool {
    if case .forEach = step.kind { return true }
    return false
  }

  private mutating func report(_ diagnostic: Diagnostic) {
    diagnostics.append(diagnostic)
  }
}

/// The problems the checker finds.
extension DiagnosticCode {
  /// A parameter name the action does not have.
  public static let unknownParameter: Self = "unknown-parameter"
  /// A literal of the wrong type for its parameter.
  public static let invalidValue: Self = "invalid-value"
  /// A number outside its parameter's range.
  public static let outOfRange: Self = "out-of-range"
  /// A reference to a name nothing defines.
  public static let undefinedName: Self = "undefined-name"
  /// A reference to a name defined only by a later step.
  public static let usedBeforeDefined: Self = "used-before-defined"
  /// A property the value's type does not have.
  public static let unknownProperty: Self = "unknown-property"
  /// A list where the parameter takes one value.
  public static let listWhereOneExpected: Self = "list-where-one-expected"
  /// An index into a value that is not a list.
  public static let notAList: Self = "not-a-list"
  /// `${env.NAME}` for a name the workflow does not list under `env:`.
  public static let environmentNotAllowed: Self = "environment-not-allowed"
  /// An input type that names no type.
  public static let unknownType: Self = "unknown-type"
  /// A bare value given to an action that has no primary parameter.
  public static let noPrimaryParameter: Self = "no-primary-parameter"
}
