import FlowDiagnostics
import FlowIntents
import FlowModel

/// Checks a decoded workflow against the action catalogue before anything runs (SPEC §4): actions,
/// parameters and enum cases exist; literals convert as their parameter's own type converts them; every
/// reference names something defined before it, its path exists on the type that reaches it, and its type
/// can become what the parameter takes (the coercion table, entity to entity included); what
/// `run-workflow` passes fits the inputs of the workflow it runs. Every problem is reported, in one pass.
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

  /// Checks `workflow` on its own; the workflows it runs are not looked at (see ``WorkflowCheck``).
  public func check(_ workflow: Workflow) -> Diagnostics {
    check(workflow, children: [:]).diagnostics
  }

  /// Checks `workflow`, given what is known of the workflows its literal `run-workflow` references name
  /// (nil where nothing is: missing, invalid, or on a cycle), and says what a workflow running it needs
  /// to know of it.
  func check(_ workflow: Workflow, children: [String: WorkflowSummary?]) -> (
    diagnostics: Diagnostics, summary: WorkflowSummary
  ) {
    var pass = Pass(checker: self, workflow: workflow, children: children)
    pass.run()
    return (pass.diagnostics, pass.summary)
  }

  /// The static type the check finds for each reference whose type is known: what `flow show` reads to
  /// make coercions visible (`⟨saved⟩ as URL`) without a second type inference. Reports nothing.
  public func referenceTypes(in workflow: Workflow) -> [Reference: ValueType] {
    var pass = Pass(checker: self, workflow: workflow, children: [:], keepsReferenceTypes: true)
    pass.run()
    return pass.referenceTypes
  }

  /// The type an input declaration names: `text`, `[url]`, `bookmark`, `[Bookmark]`.
  func type(named spelling: String) -> ValueType? {
    if let type = ValueType(spelling: spelling) { return type }
    let trimmed = spelling.trimmingBlanks
    if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
      return type(named: String(trimmed.dropFirst().dropLast())).map(ValueType.list)
    }
    return registry.entityType(named: trimmed) ?? entityTypes[trimmed.lowercased()]
  }

  /// The declared type of an input; any value when it declares none, or one that names no type.
  func inputType(_ input: Workflow.Input) -> ValueType {
    input.type.flatMap { type(named: $0.value) } ?? .any
  }

  /// The entity type spellings, for messages: `bookmark`, `collection`.
  var entitySpellings: [String] { Set(entityTypes.values.map(\.spelling)).sorted() }
}

/// What a workflow that runs this one (`run-workflow`) needs to know of it.
struct WorkflowSummary: Sendable {
  struct Input: Sendable {
    var name: String
    /// The declared type; nil when undeclared or unknown.
    var type: ValueType?
    /// Declared without a `default:`: a workflow that runs this one must give it.
    var isRequired: Bool
  }

  /// The file, as it is shown.
  var path: String
  var inputs: [Input]
  /// The type of its result (what `stop` gives, or its last step's output), when the steps agree on one.
  var resultType: ValueType?
  /// Its first `${trigger}`: a run that nothing fired cannot give it a value.
  var triggerRead: Reference?
}

/// Converts a literal as its parameter's Swift type would (``ParameterDescriptor/convertLiteral(_:)``).
private typealias Converter = (FlowValue) throws(CoercionError) -> FlowValue

/// One walk over a workflow, in document order, with what is known at each point.
private struct Pass {
  let checker: Checker
  let workflow: Workflow
  let children: [String: WorkflowSummary?]
  var diagnostics = Diagnostics()

  /// Names defined so far (step outputs and variables), with their type when known.
  var names: [String: ValueType?] = [:]
  /// Every name defined anywhere, for "used before it is defined".
  var definitions: [String: SourceSpan] = [:]
  /// The innermost loop: its item's type and `as` name.
  var loops: [(itemName: String?, itemType: ValueType?)] = []
  var previous: ValueType?
  var inputs: [String: ValueType?] = [:]
  /// The types `stop` gives, for the workflow's result; nil for a `stop` whose type is unknown.
  var stopTypes: [ValueType?] = []
  /// What ``Checker/referenceTypes(in:)`` returns, kept only for it: hashing every reference of a big
  /// file into it was a twentieth of `flow validate`'s time, which never reads it.
  var referenceTypes: [Reference: ValueType] = [:]
  let keepsReferenceTypes: Bool
  /// Checking `on-failure:`, where `${run.error}` is defined and the names of `steps:` are not.
  var inOnFailure = false
  /// The first `${trigger}` met (``WorkflowSummary/triggerRead``).
  var triggerRead: Reference?
  /// The names `steps:` define, while checking `on-failure:`: to say why one is not available there.
  var stepsDefinitions: [String: SourceSpan] = [:]
  /// The actions just looked up, for the next steps naming them.
  var recentDescriptors = RecentDescriptors()

  init(checker: Checker, workflow: Workflow, children: [String: WorkflowSummary?], keepsReferenceTypes: Bool = false) {
    self.checker = checker
    self.workflow = workflow
    self.children = children
    self.keepsReferenceTypes = keepsReferenceTypes
  }

  var summary: WorkflowSummary {
    let declared = workflow.inputs.map { input in
      WorkflowSummary.Input(
        name: input.name.value, type: inputs[input.name.value] ?? nil, isRequired: input.defaultValue == nil)
    }
    var results = stopTypes
    if let last = workflow.steps.last, !endsInStop(last) { results.append(lastOutput) }
    let first = results.first ?? nil
    let agreed = results.allSatisfy { $0 != nil && $0 == first } ? first : nil
    return WorkflowSummary(path: workflow.file.path, inputs: declared, resultType: agreed, triggerRead: triggerRead)
  }

  /// The output of the last top-level step.
  private var lastOutput: ValueType?

  mutating func run() {
    for input in workflow.inputs {
      var type: ValueType?
      if let spelling = input.type {
        type = checker.type(named: spelling.value)
        if type == nil {
          let entities = checker.entitySpellings.map { "'\($0)'" }
          report(
            Diagnostic(
              .error, .unknownType, "unknown type '\(spelling.value)' for input '\(input.name.value)'",
              at: spelling.span
            )
            .help(
              Suggestion.closest(to: spelling.value, among: ValueType.spellings + checker.entitySpellings).map {
                "did you mean '\($0)'?"
              }
                ?? "the types are \(ValueType.spellings.map { "'\($0)'" }.joined(separator: ", ")), "
                + "the entities \(List.and(entities)), and a list of any of them in brackets, like '[text]'"))
        }
      }
      inputs[input.name.value] = type
      if let defaultValue = input.defaultValue, let type {
        // A date default is read as the run will read it ('tomorrow'): whether it reads does not depend
        // on the day, which is the run's.
        let convert: Converter? =
          type.elementType == .date
          ? { value throws(CoercionError) in
            try Coercion.coerce(DateWords.reading(value, as: type, now: .init(timeIntervalSince1970: 0)), to: type)
          } : nil
        check(
          defaultValue, against: type, range: nil, description: "input '\(input.name.value)'", convert: convert)
      }
    }
    // Sized once for a name per step, rather than rehashed at every doubling of a big file's names.
    definitions.reserveCapacity(workflow.steps.count)
    names.reserveCapacity(workflow.steps.count)
    collectDefinitions(workflow.steps)
    // Each step read where it stands: `for step in` copied each one out of the list and destroyed it after.
    let steps = workflow.steps
    for index in steps.indices {
      check(steps[index])
      lastOutput = previous
    }
    checkOnFailure()
  }

  /// `on-failure:` starts afresh: the run may have failed at any step, so no output of `steps:` is
  /// known to exist (the run gives it none of them either); it has `${run.error}` instead. Its `stop`
  /// ends only the block, so it says nothing of the workflow's result.
  private mutating func checkOnFailure() {
    guard !workflow.onFailure.isEmpty else { return }
    let results = stopTypes
    defer { stopTypes = results }
    stepsDefinitions = definitions
    (names, definitions, previous, inOnFailure) = ([:], [:], nil, true)
    collectDefinitions(workflow.onFailure)
    check(workflow.onFailure)
  }

  private mutating func collectDefinitions(_ steps: [Step]) {
    // Read in place, by index: copying each step cost more than recording its name.
    for index in steps.indices {
      if let name = steps[index].name, !isForEach(steps[index]) {
        // The first definition is kept, with one lookup: the default is stored only when the name is new.
        Self.keepFirst(&definitions[name.value, default: name.span])
      }
      if case .action = steps[index].kind { continue }
      for body in steps[index].kind.bodies { collectDefinitions(body) }
      if let variable = steps[index].kind.variable, definitions[variable.value] == nil {
        definitions[variable.value] = variable.span
      }
    }
  }

  /// Reads nothing and writes nothing: passed `&dictionary[key, default: value]`, it stores `value` when
  /// `key` is absent, in the lookup that finds it.
  private static func keepFirst<Value>(_ value: inout Value) {}

  // MARK: - Steps

  private mutating func check(_ steps: [Step]) {
    for index in steps.indices { check(steps[index]) }
  }

  private mutating func check(_ step: Step) {
    if let condition = step.when { check(condition) }
    if let message = step.confirm?.message { check(message) }
    var output: ValueType?
    switch step.kind {
    case .action(let call):
      output = check(call)
      if let condition = step.where { check(condition, keepingItemsOf: output, action: call.id.value) }
    case .ifBlock(let condition, let then, let otherwise):
      check(condition)
      output = check(branches: [then, otherwise])
    case .repeatBlock(let count, let body):
      check(
        count, against: .number, range: 0...Double(WorkflowFormat.repeatLimit), description: "'repeat'", convert: nil)
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
      output = check(branches: options.map(\.steps))
    case .stop(let value):
      var result: ValueType? = .nothing
      if let value { result = type(of: value) }
      stopTypes.append(result)
    case .runWorkflow(let reference, let input):
      output = checkRunWorkflow(step, reference: reference, input: input)
    case .set(let variable, let value):
      output = value.map { type(of: $0) } ?? previous
      names[variable.value] = output
    case .append(let variable, let value):
      output = value.map { type(of: $0) } ?? previous
      names[variable.value] = .list(.any)
    }
    previous = output
    if let name = step.name, !isForEach(step) { names[name.value] = output }
  }

  /// Checks an action step and returns its output type.
  private mutating func check(_ call: ActionCall) -> ValueType? {
    let descriptor: IntentDescriptor
    do {
      descriptor = try recentDescriptors.descriptor(for: call.id.value, in: checker.registry)
    } catch  where error.kind == .unknownServer {
      // A server this machine has not configured: a shared file names servers, and only the config.yml of
      // the machine that runs it says what they start (Documentation/MCP.md). Without its tool cache the
      // tool and its arguments cannot be checked, which the checker says; the run refuses to start
      // (``Diagnostics/stoppingRun``). The values' own references are still checked.
      report(Self.unconfiguredServer(error, at: call.id.span))
      switch call.arguments {
      case .none: break
      case .primary(let value): _ = type(of: value)
      case .named(let entries, _): for entry in entries { _ = type(of: entry.value) }
      }
      return nil
    } catch {
      report(error.diagnostic(at: call.id.span))
      return nil
    }
    // The parameters' keys, for messages only.
    var keys: [String] { descriptor.parameters.map(\.key) }
    // The static types of the values given, for outputs that follow their inputs (`list: [a, b]`).
    var given: [String: ValueType] = [:]
    // The values written out, for outputs a value decides (`run-shell`'s `output: lines`).
    var literals: [String: FlowValue] = [:]
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
      given[primary.key] = check(value, against: primary, of: descriptor)
      if let literal = Self.literal(value) {
        checkLiterals([primary.key: literal], [primary.key: value.span], descriptor)
      }
    case .named(let entries, let span):
      if let primary = descriptor.primaryParameter, primary.type == .dictionary,
        entries.contains(where: { descriptor.parameter($0.key.value) == nil })
      {
        given[primary.key] = check(.dictionary(entries, span), against: primary, of: descriptor)
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
        given[parameter.key] = check(entry.value, against: parameter, of: descriptor)
        if let literal = Self.literal(entry.value) { literals[parameter.key] = literal }
      }
      let spans = Dictionary(entries.map { ($0.key.value, $0.value.span) }, uniquingKeysWith: { first, _ in first })
      checkLiterals(literals, spans, descriptor)
    }
    if !descriptor.environmentNameParameters.isEmpty { checkEnvironmentNames(call, descriptor) }
    return descriptor.outputType(given: given, literals: literals)
  }

  /// The intent's own refusals of values written out (``AppIntent/literalProblems(_:)``), at each value.
  private mutating func checkLiterals(
    _ literals: [String: FlowValue], _ spans: [String: SourceSpan], _ descriptor: IntentDescriptor
  ) {
    for (key, problem) in descriptor.intentType.literalProblems(literals).sorted(by: { $0.key < $1.key }) {
      guard let span = spans[key] else { continue }
      report(Diagnostic(.error, .invalidValue, problem.message, at: span).help(problem.help))
    }
  }

  /// `notes.add` when no server `notes` is configured here: a warning, since the file may well be meant
  /// for a machine that has it; the same words stop a run (``Diagnostics/stoppingRun``).
  static func unconfiguredServer(_ error: IntentLookupError, at span: SourceSpan) -> Diagnostic {
    let server = error.id.split(separator: ".", maxSplits: 1).first.map(String.init) ?? error.id
    return Diagnostic(
      .warning, error.code,
      "server '\(server)' is not configured here: '\(error.id)' can be neither checked nor run",
      at: span
    ).help(error.help)
  }

  /// A literal environment variable name (`get-env: HOME`) must be listed under `env:`, as `${env.HOME}`
  /// must; a computed one is checked by the run.
  private mutating func checkEnvironmentNames(_ call: ActionCall, _ descriptor: IntentDescriptor) {
    let arguments = (try? Interpreter.arguments(of: call, for: descriptor)) ?? []
    let listed = workflow.environment.map(\.value)
    for (key, value) in arguments where descriptor.environmentNameParameters.contains(key) {
      guard case .text(let template) = value, let name = template.literal, !listed.contains(name) else { continue }
      report(
        Diagnostic(.error, .environmentNotAllowed, "'\(name)' is not listed under 'env:'", at: template.span)
          .help(
            Suggestion.closest(to: name, among: listed).map { "did you mean '\($0)'?" }
              ?? "a workflow reads only the environment variables it lists: add 'env: [\(name)]'"))
    }
  }

  private mutating func check(_ value: Value, against parameter: ParameterDescriptor, of descriptor: IntentDescriptor)
    -> ValueType?
  {
    let action = descriptor.id
    let start = diagnostics.all.count
    // The description captures the key alone: a capture of the whole parameter copies it at each level.
    let key = parameter.key
    // The converter closes over a copy of the parameter: made only for a value with a literal to convert,
    // not for text with references (most values), which no converter reads.
    let convert: Converter?
    switch value {
    case .text(let template) where template.literal == nil: convert = nil
    case .ask, .null: convert = nil
    default: convert = parameter.convertLiteral
    }
    let type = check(
      value, against: parameter.type, range: parameter.range, description: "'\(key)'", convert: convert)
    if parameter.type == .text, let type, type.isList, case .text(let template) = value,
      let reference = template.wholeReference, !descriptor.intentType.linesParameters.contains(parameter.key)
    {
      report(
        Diagnostic(
          .warning, .listAsText,
          "'\(parameter.key)' takes text, so the \(type.name) '${\(reference)}' becomes its items one per line",
          at: reference.span
        )
        .help(
          "say how to join them with 'combine-text' (separator: ', '), or take one item with 'get-item' or 'for-each'"))
    }
    guard diagnostics.all.count > start else { return type }
    // A value refused with no word on how to write one (none of many choices is close, a number out of
    // range): the action's own reference lists the choices, with what each means, and the range.
    diagnostics = Diagnostics(
      diagnostics.all.enumerated().map { index, diagnostic in
        guard index >= start, diagnostic.helps.isEmpty, [.invalidValue, .outOfRange].contains(diagnostic.code) else {
          return diagnostic
        }
        return diagnostic.help("'flow actions \(action)' describes what '\(parameter.key)' takes")
      })
    return type
  }

  /// Checks a value against the type a parameter (or input) wants — literals by converting them as the
  /// run will, references by their static type through the coercion table — and returns the value's
  /// static type when it is known. `description` names the value in messages, made only for one.
  @discardableResult
  private mutating func check(
    _ value: Value, against type: ValueType, range: ClosedRange<Double>?, description: @autoclosure () -> String,
    convert: Converter?
  ) -> ValueType? {
    switch value {
    case .ask, .null:
      return nil
    case .text(let template):
      if let reference = template.wholeReference {
        guard let actual = self.type(of: reference) else { return nil }
        check(reference, of: actual, against: type, description: description())
        return actual
      }
      check(template)
      if let literal = template.literal {
        checkLiteral(.text(literal), against: type, range: range, span: template.span, description(), convert)
      }
      return .text
    case .bool(let bool, let span):
      checkLiteral(.boolean(bool), against: type, range: range, span: span, description(), convert)
      return .boolean
    case .integer(let number, let span):
      checkLiteral(.number(Double(number)), against: type, range: range, span: span, description(), convert)
      return .number
    case .double(let number, let span):
      checkLiteral(.number(number), against: type, range: range, span: span, description(), convert)
      return .number
    case .list(let items, let span):
      if let literal = Self.literal(value) {
        if type.isList || Self.acceptsAnything(type) {
          checkLiteral(literal, against: type, range: range, span: span, description(), convert)
        } else {
          reportListWhereOneExpected(description(), type, at: span)
        }
        return self.type(of: value)
      }
      var types: [ValueType?] = []
      if case .list(let element) = type {
        // Each literal item converts as a one-item list would: the element's own rules.
        var convertItem: Converter?
        if let convert {
          convertItem = { (item: FlowValue) throws(CoercionError) -> FlowValue in try convert(.list([item])) }
        }
        for item in items {
          types.append(check(item, against: element, range: range, description: description(), convert: convertItem))
        }
      } else {
        if !Self.acceptsAnything(type) { reportListWhereOneExpected(description(), type, at: span) }
        types = items.map { self.type(of: $0) }
      }
      return .list(Self.common(types))
    case .dictionary(let entries, let span):
      for entry in entries { _ = self.type(of: entry.value) }
      switch type {
      case .dictionary, .any, .text, .list(.any), .list(.dictionary):
        if let literal = Self.literal(value) {
          checkLiteral(literal, against: type, range: range, span: span, description(), convert)
        }
      default:
        report(
          Diagnostic(
            .error, .invalidValue,
            "expected \(CoercionError.article(for: type)) for \(description()), got a dictionary",
            at: span
          )
          .help("'{…}' and 'name: value' lines make a dictionary in YAML; quote the text if it is meant as written"))
      }
      return .dictionary
    }
  }

  /// A whole reference given where `type` is wanted: a list where one value is, or a type no value of
  /// which converts (a Bookmark where a Collection is wanted).
  private mutating func check(
    _ reference: Reference, of actual: ValueType, against type: ValueType, description: @autoclosure () -> String
  ) {
    if actual.isList, !type.isList, !Self.acceptsAnything(type) {
      report(
        Diagnostic(
          .error, .listWhereOneExpected,
          "\(description()) takes one \(type.name), but '${\(reference)}' is a \(actual.name)", at: reference.span
        )
        .help("run the step once per item with 'for-each', or pick one with 'get-item'"))
      return
    }
    guard Coercion.compatibility(of: actual, to: type) == .never else { return }
    // A property that names what is wanted: a Bookmark's 'collection-id' where a Collection is.
    let wanted = Naming.kebabCase(type.elementType.name)
    let hint = actual.elementType.properties.first { property in
      property.key != "id" && property.key.contains(wanted)
        && Coercion.compatibility(of: property.type, to: type.elementType) != .never
    }
    report(
      Diagnostic(
        .error, .typeMismatch,
        "\(description()) takes \(CoercionError.article(for: type)), but '${\(reference)}' is "
          + CoercionError.article(for: actual),
        at: reference.span
      )
      .help(
        hint.map { "did you mean '${\(reference).\($0.key)}'?" }
          ?? "\(CoercionError.article(for: actual)) cannot become \(CoercionError.article(for: type))"))
  }

  private mutating func reportListWhereOneExpected(_ description: String, _ type: ValueType, at span: SourceSpan) {
    report(
      Diagnostic(.error, .listWhereOneExpected, "\(description) takes one \(type.name), not a list", at: span)
        .help("run the step once per item with 'for-each', or pick one with 'get-item'"))
  }

  /// Converts a literal as the run will: with the parameter type's own initialiser, or the coercion table
  /// for inputs; then checks the range.
  private mutating func checkLiteral(
    _ literal: FlowValue, against type: ValueType, range: ClosedRange<Double>?, span: SourceSpan,
    _ description: @autoclosure () -> String, _ convert: Converter?
  ) {
    let converted: FlowValue
    do {
      if let convert {
        converted = try convert(literal)
      } else {
        // Entities are found through their queries at run time; text naming one is checked then.
        if case .entity = type.elementType { return }
        converted = try Coercion.coerce(literal, to: type)
      }
    } catch {
      let message =
        error.expected.map { "expected \($0) for \(description()), got \(error.got ?? literal.quoted)" }
        ?? error.message
      report(Diagnostic(.error, .invalidValue, message, at: span).help(error.help))
      return
    }
    guard let range else { return }
    let numbers: [Double] =
      switch converted {
      case .number(let number): [number]
      case .list(let items): items.compactMap { if case .number(let number) = $0 { number } else { nil } }
      default: []
      }
    if let number = numbers.first(where: { !range.contains($0) }) {
      report(
        Diagnostic(
          .error, .outOfRange,
          "\(description()) must be between \(FlowValue.formatNumber(range.lowerBound)) and \(FlowValue.formatNumber(range.upperBound)), got \(FlowValue.formatNumber(number))",
          at: span))
    }
  }

  private static func acceptsAnything(_ type: ValueType) -> Bool {
    switch type {
    case .any, .text, .dictionary: true
    default: false
    }
  }

  /// The value of a literal with no references and no `ask` in it.
  private static func literal(_ value: Value) -> FlowValue? {
    switch value {
    case .null: return .nothing
    case .ask: return nil
    case .bool(let bool, _): return .boolean(bool)
    case .integer(let number, _): return .number(Double(number))
    case .double(let number, _): return .number(number)
    case .text(let template): return template.literal.map(FlowValue.text)
    case .list(let items, _):
      var values: [FlowValue] = []
      for item in items {
        guard let value = literal(item) else { return nil }
        values.append(value)
      }
      return .list(values)
    case .dictionary(let entries, _):
      var values: [(key: String, value: FlowValue)] = []
      for entry in entries {
        guard let value = literal(entry.value) else { return nil }
        values.append((entry.key.value, value))
      }
      return .dictionary(FlowDictionary(values))
    }
  }

  /// The one type all of `types` share, or `any`.
  private static func common(_ types: [ValueType?]) -> ValueType {
    guard let first = types.first ?? nil, types.allSatisfy({ $0 == first }) else { return .any }
    return first
  }

  // MARK: - Nested workflows

  /// Checks what a `run-workflow` step passes against the inputs of the workflow it runs, and returns
  /// that workflow's result type.
  private mutating func checkRunWorkflow(_ step: Step, reference: Value, input: Value?) -> ValueType? {
    guard let literal = step.literalWorkflowReference else {
      _ = type(of: reference)
      if let input { _ = type(of: input) }
      report(
        Diagnostic(
          .warning, .uncheckedWorkflow, "the workflow to run is computed, so it is checked only when this step runs",
          at: reference.span
        )
        .help("name it as written text, choosing among several with 'if' or 'menu', to check it before the run"))
      return nil
    }
    guard let child = children[literal] ?? nil else {
      if let input { _ = type(of: input) }
      return nil
    }
    let name = "'\(literal)'"
    let names = child.inputs.map(\.name)
    switch child.inputs.count {
    case 0:
      if let input {
        _ = type(of: input)
        report(
          Diagnostic(.error, .unknownInput, "\(name) takes no inputs", at: input.span)
            .help("remove 'input:', or declare an input in \(name)"))
      }
    case 1 where !Workflow.namesInputs(input, of: names):
      let declared = child.inputs[0]
      if let input {
        check(
          input, against: declared.type ?? .any, range: nil, description: "input '\(declared.name)' of \(name)",
          convert: nil)
      } else if declared.isRequired {
        report(
          Diagnostic(
            .error, .missingInput, "\(name) needs its input '\(declared.name)', which has no default",
            at: reference.span
          )
          .help("add 'input:' beside 'run-workflow' with the value"))
      }
    default:
      var given: Set<String>?
      switch input {
      case .dictionary(let entries, _)?:
        given = []
        for entry in entries {
          given?.insert(entry.key.value)
          guard let declared = child.inputs.first(where: { $0.name == entry.key.value }) else {
            _ = type(of: entry.value)
            report(
              Diagnostic(.error, .unknownInput, "\(name) has no input '\(entry.key.value)'", at: entry.key.span)
                .help(
                  Suggestion.help(for: entry.key.value, among: names, listUpTo: 6)
                    ?? "its inputs are \(List.and(names.map { "'\($0)'" }))"))
            continue
          }
          check(
            entry.value, against: declared.type ?? .any, range: nil,
            description: "input '\(declared.name)' of \(name)", convert: nil)
        }
      case let value?:
        let type = type(of: value)
        if let type, Coercion.compatibility(of: type, to: .dictionary) == .never {
          report(
            Diagnostic(
              .error, .invalidValue, "\(name) takes the inputs \(List.and(names.map { "'\($0)'" })), given by name",
              at: value.span
            )
            .help("write 'input:' as a mapping, one 'name: value' per line"))
          given = []
        }
      case nil:
        given = []
      }
      if let given {
        let missing = child.inputs.filter { $0.isRequired && !given.contains($0.name) }.map { "'\($0.name)'" }
        if !missing.isEmpty {
          let which =
            missing.count == 1
            ? "its input \(missing[0]), which has no default" : "the inputs \(List.and(missing)), which have no default"
          report(
            Diagnostic(.error, .missingInput, "\(name) needs \(which)", at: input?.span ?? reference.span)
              .help("give \(missing.count == 1 ? "it" : "them") under 'input:' by name"))
        }
      }
    }
    return child.resultType
  }

  // MARK: - References

  /// A step's `where:`, checked with `${item}` of the list's element type, so that `kindd == file` is an
  /// unknown property of File at its column. An output that is never a list is an error.
  private mutating func check(_ condition: Located<Condition>, keepingItemsOf output: ValueType?, action: String) {
    var itemType: ValueType?
    if let output {
      if output.isList {
        itemType = output.elementType
      } else if output != .any {
        report(
          Diagnostic(
            .error, .notAList,
            "'where' keeps items of a list, but '\(action)' outputs \(CoercionError.article(for: output))",
            at: condition.span
          )
          .help("put 'where' on an action that outputs a list, such as 'get-folder-contents' or 'filter'"))
      }
    }
    loops.append((nil, itemType))
    check(condition.value)
    loops.removeLast()
  }

  private mutating func check(_ condition: Condition) {
    for reference in condition.references { _ = type(of: reference) }
    checkPatterns(condition)
  }

  /// A `matches` whose pattern is written out: compiled now, as the run will, so that a typo is found
  /// before step 1 and at its column.
  private mutating func checkPatterns(_ condition: Condition) {
    switch condition {
    case .compare(_, .matches, let pattern):
      guard case .template(let template) = pattern.kind, let text = template.literal,
        let problem = TextPattern.problem(.text(text))
      else { return }
      report(Diagnostic(.error, .invalidValue, problem.message, at: pattern.span).help(problem.help))
    case .not(let inner): checkPatterns(inner)
    case .and(let lhs, let rhs), .or(let lhs, let rhs):
      checkPatterns(lhs)
      checkPatterns(rhs)
    case .value, .compare, .isEmpty: return
    }
  }

  private mutating func check(_ template: Template) {
    for case .reference(let reference) in template.parts { _ = type(of: reference) }
    for lookalike in template.lookalikes { check(lookalike) }
  }

  /// `$previous` or `{{ previous }}` in text is not a reference; say so where the name exists.
  private mutating func check(_ lookalike: Template.Lookalike) {
    let reference = lookalike.reference
    // `$previous` stands for a reference; `$run` would not be one (it needs a property), `$item` only in a loop.
    let builtIn = MagicVariable(reference.root).map { $0.isLoopVariable ? !loops.isEmpty : !$0.needsProperty }
    let meant: String
    if builtIn == true || names[reference.root] != nil || definitions[reference.root] != nil
      || loops.contains(where: { $0.itemName == reference.root })
    {
      meant = "${\(reference)}"
    } else if inputs[reference.root] != nil {
      meant = "${input.\(reference)}"
    } else {
      return
    }
    report(
      Diagnostic(
        .warning, .plainReference, "'\(lookalike.written)' is plain text here, not a reference", at: reference.span
      )
      .help("write '\(meant)' to use its value"))
  }

  /// The static type of a value, checking its references on the way; nil when unknown.
  private mutating func type(of value: Value) -> ValueType? {
    switch value {
    case .text(let template):
      if let reference = template.wholeReference { return type(of: reference) }
      check(template)
      return .text
    case .list(let items, _):
      return .list(Self.common(items.map { type(of: $0) }))
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
    var type = resolve(reference)
    if reference.dateOffset != nil {
      // `${count - 7 days}`: arithmetic on what can never be a date.
      if let base = type, Coercion.compatibility(of: base, to: .date) == .never {
        report(
          Diagnostic(
            .error, .typeMismatch,
            "date arithmetic needs a date, but '${\(Reference(root: reference.root, path: reference.path, span: reference.span))}' is "
              + CoercionError.article(for: base),
            at: reference.span
          )
          .help("count from a date, like '${now - 7 days}' or '${file.modified + 1 hour}'"))
        return nil
      }
      type = .date
    }
    if keepsReferenceTypes, let type { referenceTypes[reference] = type }
    return type
  }

  /// The built-in names that stand alone everywhere, offered by "did you mean": `previous`, `input`, `now`.
  private static let plainBuiltIns = MagicVariable.allCases
    .filter { !$0.needsProperty && !$0.isLoopVariable && $0 != .trigger }.map(\.rawValue)

  /// The one property `${workflow}` and `${run}` are read with, as "did you mean" offers it; made once
  /// rather than for every `${workflow.name}` of a file.
  private static let expectedProperties = ["workflow": "name", "run": "id"]

  /// Checks that a reference names something defined by now, and that its path exists on the type.
  private mutating func resolve(_ reference: Reference) -> ValueType? {
    var path = reference.path[...]
    var current: ValueType?
    let variable = MagicVariable(reference.root)
    switch variable {
    case .previous?:
      current = previous
    case .item?, .index?:
      guard let loop = loops.last else {
        report(
          Diagnostic(
            .error, .undefinedName, "'\(reference.root)' is only defined inside 'repeat' and 'for-each'",
            at: reference.span
          )
          .help("use it in the steps under a loop's 'do:'; elsewhere, name a step's output with 'as:' and use that"))
        return nil
      }
      current = variable == .item ? loop.itemType : .integer
    case .now?:
      current = .date
    case .trigger?:
      if triggerRead == nil { triggerRead = reference }
      guard let (type, rest) = triggerType(reference) else { return nil }
      current = type
      path = rest
    case .input?:
      guard let (type, rest) = inputType(reference) else { return nil }
      current = type
      path = rest
    case .workflow?, .run?, .env?, .secret?:
      let expected = Self.expectedProperties
      guard case .property(let name)? = path.first else {
        let listed =
          variable == .secret
          ? "'${secret.NAME}', with NAME listed under 'secrets:'" : "'${env.NAME}', with NAME listed under 'env:'"
        report(
          Diagnostic(.error, .undefinedName, "'\(reference.root)' needs a property", at: reference.span)
            .help("write \(expected[reference.root].map { "'${\(reference.root).\($0)}'" } ?? listed)"))
        return nil
      }
      path = path.dropFirst()
      if variable == .secret {
        let declared = workflow.secrets.map(\.value)
        if !declared.contains(name) {
          report(
            Diagnostic(
              .error, .secretNotDeclared, "secret '\(name)' is not listed under 'secrets:'", at: reference.span
            )
            .help(
              Suggestion.closest(to: name, among: declared).map { "did you mean '\($0)'?" }
                ?? "a workflow reads only the secrets it lists: add 'secrets: [\(name)]'"))
        }
      } else if variable == .env {
        if !workflow.environment.contains(where: { $0.value == name }) {
          report(
            Diagnostic(.error, .environmentNotAllowed, "'\(name)' is not listed under 'env:'", at: reference.span)
              .help("a workflow reads only the environment variables it lists: add 'env: [\(name)]'"))
        }
      } else if variable == .run, name == "error" {
        guard inOnFailure else {
          report(
            Diagnostic(
              .error, .undefinedName, "'${run.error}' is only defined in the steps of 'on-failure'",
              at: reference.span
            )
            .help("'on-failure:' at the top of the file lists steps that run when the run fails, with '${run.error}'"))
          return nil
        }
        current = RunFailureValue.type
      } else if expected[reference.root] != name {
        let help =
          variable == .run
          ? Suggestion.help(for: name, among: ["id", "error"]) : "did you mean '\(expected[reference.root] ?? "")'?"
        report(
          Diagnostic(.error, .unknownProperty, "unknown property '\(name)' of '\(reference.root)'", at: reference.span)
            .help(help))
        return nil
      }
      if current == nil { current = .text }
    case nil:
      if let loop = loops.last(where: { $0.itemName == reference.root }) {
        current = loop.itemType
      } else if let known = names[reference.root] {
        current = known
      } else if inOnFailure, definitions[reference.root] == nil, let definition = stepsDefinitions[reference.root] {
        report(
          Diagnostic(
            .error, .undefinedName,
            "'\(reference.root)' is set by 'steps:', which may not have got that far when 'on-failure' runs",
            at: reference.span
          )
          .note("'\(reference.root)' is defined here", at: definition)
          .help(
            "'on-failure' sees '${run.error}', '${run.id}', the inputs, '${workflow.name}', '${now}' and its own steps' outputs"
          ))
        return nil
      } else if let definition = definitions[reference.root] {
        report(
          Diagnostic(.error, .usedBeforeDefined, "'\(reference.root)' is used before it is defined", at: reference.span)
            .note("'\(reference.root)' is defined here", at: definition)
            .help("steps run in order: move the step that defines '\(reference.root)' above this one"))
        return nil
      } else {
        let visible = names.keys.sorted() + loops.compactMap(\.itemName) + Self.plainBuiltIns
        report(
          Diagnostic(.error, .undefinedName, "undefined name '\(reference.root)'", at: reference.span)
            .help(
              Suggestion.closest(to: reference.root, among: visible).map { "did you mean '\($0)'?" }
                ?? "name an earlier step's output with 'as: \(reference.root)', or set it with 'set: \(reference.root)'"
            ))
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
            let keys = type.properties.map(\.key)
            report(
              Diagnostic(.error, .unknownProperty, "unknown property '\(name)' of \(type.name)", at: reference.span)
                .help(
                  Suggestion.help(for: name, among: keys, listUpTo: 8)
                    ?? (keys.isEmpty
                      ? "\(CoercionError.article(for: type)) has no properties"
                      : "its properties are \(List.and(keys.map { "'\($0)'" }))")))
            return nil
          }
          current = property
        }
      case .index:
        guard type.isList || type == .any else {
          report(
            Diagnostic(
              .error, .notAList, "'${\(reference)}' indexes \(type.name), which is not a list", at: reference.span
            )
            .help("only lists have items to index: drop the '[…]' to use the value itself"))
          return nil
        }
        current = type.isList ? type.elementType : nil
      }
    }
    return current
  }

  /// `${trigger}` and `${trigger.NAME}`: the type reached and the rest of the path, or nil after
  /// reporting. A property only another kind of trigger gives is an error that names that kind.
  private mutating func triggerType(_ reference: Reference) -> (ValueType?, ArraySlice<Reference.Component>)? {
    let kinds = Set(workflow.triggers.map(\.kind) + (workflow.schedule.isEmpty ? [] : [.schedule]))
    guard !kinds.isEmpty else {
      report(
        Diagnostic(
          .error, .undefinedName, "the workflow has no triggers, so '${\(reference)}' has no value", at: reference.span
        )
        .help("'${trigger}' is what started the run; add what starts it under 'on:', like 'on: [{file: ~/Downloads}]'"))
      return nil
    }
    let type = TriggerValue.type(kinds: TriggerKind.allCases.filter(kinds.contains), file: checker.type(named: "file"))
    guard case .property(let name)? = reference.path.first else { return (type, reference.path[...]) }
    if type.property(named: name) == nil,
      let owner = TriggerFormat.kinds.first(where: { $0.properties.contains { $0.name == name } })
    {
      report(
        Diagnostic(
          .error, .unknownProperty,
          "'${trigger.\(name)}' is given by a '\(owner.name)' trigger, and this workflow has none", at: reference.span
        )
        .help("its triggers give \(List.and(type.properties.map { "'\($0.key)'" }))"))
      return nil
    }
    return (type, reference.path[...])
  }

  /// `${input}` and `${input.NAME}`: the type reached and the rest of the path, or nil after reporting.
  /// With one declared input, `${input}` is that input and `${input.host}` a property of it; a name
  /// that is neither an input nor such a property is reported as a misspelt input.
  private mutating func inputType(_ reference: Reference) -> (ValueType?, ArraySlice<Reference.Component>)? {
    let path = reference.path[...]
    let declared = workflow.inputs.map(\.name.value)
    guard !declared.isEmpty else {
      report(
        Diagnostic(
          .error, .undefinedName,
          path.first.map { _ in "the workflow has no inputs, so '${\(reference)}' has no value" }
            ?? "the workflow has no inputs", at: reference.span
        )
        .help("declare the input under 'input:', like 'input: {\(Self.inputName(reference) ?? "url"): text}'"))
      return nil
    }
    guard case .property(let name)? = path.first else {
      return (declared.count == 1 ? inputs[declared[0]] ?? nil : .dictionary, path)
    }
    if let input = inputs[name] { return (input, path.dropFirst()) }
    if declared.count == 1, let only = inputs[declared[0]] ?? nil, only.property(named: name) != nil {
      return (only, path)
    }
    report(
      Diagnostic(.error, .undefinedName, "the workflow has no input '\(name)'", at: reference.span)
        .help(Suggestion.help(for: name, among: declared, listUpTo: 6) ?? "declare it under 'input:'"))
    return nil
  }

  private static func inputName(_ reference: Reference) -> String? {
    if case .property(let name)? = reference.path.first { return name }
    return nil
  }

  private func isForEach(_ step: Step) -> Bool {
    if case .forEach = step.kind { return true }
    return false
  }

  /// Checks the branches of a block that runs one of them (`if`, `menu`) and returns what `${previous}`
  /// is after it, as the run gives it: each branch starts from what came before, an empty branch leaves
  /// it as it was, and a branch ending in `stop` never reaches the next step. The types of the branches
  /// that do are joined (``commonType(_:_:)``); nil (any) when nothing is known.
  private mutating func check(branches: [[Step]]) -> ValueType? {
    let before = previous
    var reaching: [ValueType?] = []
    for branch in branches {
      previous = before
      check(branch)
      if let last = branch.last, endsInStop(last) { continue }
      reaching.append(previous)
    }
    previous = before
    guard let first = reaching.first else { return nil }
    return reaching.dropFirst().reduce(first) { joined, next in joined.flatMap { Self.commonType($0, next) } }
  }

  /// The type a value has when it may come from either side (Documentation/WorkflowFormat.md, "Blocks and
  /// `${previous}`"): the same type; Number for an Integer and a Number; a list of the common type of
  /// two lists' items (a List of Any when they have none); otherwise nil, any, which is not checked.
  static func commonType(_ one: ValueType, _ other: ValueType?) -> ValueType? {
    guard let other else { return nil }
    switch (one, other) {
    case _ where one == other: return one
    case (.integer, .number), (.number, .integer): return .number
    case (.list(let a), .list(let b)): return .list(commonType(a, b) ?? .any)
    default: return nil
    }
  }

  /// Whether the run never goes on past `step`: a `stop`, or a block every branch of which ends in one
  /// (unless a `when:` may skip the block).
  private func endsInStop(_ step: Step) -> Bool {
    switch step.kind {
    case .stop: return true
    case .ifBlock(_, let then, let otherwise) where step.when == nil:
      return [then, otherwise].allSatisfy { $0.last.map(endsInStop) ?? false }
    case .menu(_, let options, _) where step.when == nil:
      return options.allSatisfy { $0.steps.last.map(endsInStop) ?? false }
    default: return false
    }
  }

  private mutating func report(_ diagnostic: Diagnostic) {
    diagnostics.append(diagnostic)
  }
}

/// The problems the checker finds.
extension DiagnosticCode {
  /// `SERVER.TOOL` for a server not configured here: a warning for the check, an error for a run.
  public static let unknownServer: Self = "unknown-server"
  /// A parameter name the action does not have.
  public static let unknownParameter: Self = "unknown-parameter"
  /// A literal of the wrong type for its parameter.
  public static let invalidValue: Self = "invalid-value"
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
  /// `${secret.NAME}` for a name the workflow does not list under `secrets:`.
  public static let secretNotDeclared: Self = "secret-not-declared"
  /// An input type that names no type.
  public static let unknownType: Self = "unknown-type"
  /// A bare value given to an action that has no primary parameter.
  public static let noPrimaryParameter: Self = "no-primary-parameter"
  /// A reference whose type can never become what the parameter takes (a Bookmark for a Collection).
  public static let typeMismatch: Self = "type-mismatch"
  /// `run-workflow` does not give an input that the workflow it runs declares without a default.
  public static let missingInput: Self = "missing-input"
  /// `run-workflow` names its workflow with a computed reference, which is checked only when it runs.
  public static let uncheckedWorkflow: Self = "unchecked-workflow"
  /// `$name` or `{{ name }}` written in text where `${name}` was meant.
  public static let plainReference: Self = "plain-reference"
  /// A whole list given to a text parameter, which it reaches as one item per line.
  public static let listAsText: Self = "list-as-text"
}
