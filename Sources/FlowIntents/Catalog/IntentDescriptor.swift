/// Everything known about an intent without running it: what `flow actions`, the checker, the docs and
/// the import card read. Made from the declaration by reflection, once per intent.
///
/// Immutable, and a class so that handing one out is one reference: the checker looks one up for every
/// step, and copying the struct it was (two dozen fields) was a tenth of `flow validate`'s time on a big
/// file (Performance.md).
public final class IntentDescriptor: Sendable {
  /// The full id: `raindrop.save-bookmark`, or `show` for the basics.
  public let id: String
  /// The id without the namespace: `save-bookmark`.
  public let shortID: String
  public let namespace: String?
  /// The catalogue's title: "Basics", "Raindrop.io".
  public let catalogTitle: String
  public let title: String
  public let description: String
  public let parameters: [ParameterDescriptor]
  /// What the step outputs; nil when it outputs nothing.
  public let outputType: ValueType?
  /// The strongest effect it may have, whatever its values.
  public let sideEffect: SideEffect
  /// The parameters whose values decide its effect (``AppIntent/sideEffectParameters``).
  public let sideEffectParameters: Set<String>
  public let requiresConfirmation: Bool
  /// The parameters it passes to another program as command-line arguments
  /// (``AppIntent/processArgumentParameters``).
  public let processArgumentParameters: Set<String>
  /// What it asks the person while it performs (``AppIntent/prompts``).
  public let prompts: IntentPrompts
  public let networkAccess: NetworkAccess
  /// What it may do to the machine it runs on (``AppIntent/machineAccess``).
  public let machineAccess: [MachineAccess]
  public let summary: SummaryLayout
  /// The Swift type names of its `@Dependency`s.
  public let dependencies: [String]
  /// Who claims the side effect when flow cannot know it: an MCP tool's annotations are its server's
  /// hints, not guarantees, so `flow actions` and the card say "according to the server 'time'". Nil for
  /// Swift intents, whose effect flow declares itself.
  public let effectClaimedBy: String?
  /// Whether it says how far it has got while it runs (an MCP tool, through the server's progress
  /// notifications): only such steps get a ``ProgressReporter`` in their context, so that the others pay
  /// nothing for it.
  public let reportsProgress: Bool
  /// The Swift type, for code that needs it (tests, the validator).
  public let intentType: any AppIntent.Type
  /// The parameters whose value names an environment variable (``AppIntent/environmentNameParameters``).
  public var environmentNameParameters: Set<String> { intentType.environmentNameParameters }
  /// The Swift type's name: `SaveBookmarkIntent`.
  public var typeName: String { String(describing: intentType) }

  private let runner:
    @Sendable ([String: FlowValue], Set<String>, IntentRunner.Mode, IntentContext) async throws -> IntentOutput
  private let sideEffectForValues: @Sendable ([String: FlowValue]) -> SideEffect
  private let machineAccessForValues: @Sendable ([String: FlowValue]) -> [MachineAccess]
  private let outputTypeForParameters: @Sendable ([String: ValueType], [String: FlowValue]) -> ValueType?

  /// Describes `type` as a member of a catalogue.
  public convenience init(_ type: any AppIntent.Type, namespace: String? = nil, catalogTitle: String = "") {
    self.init(describing: type, namespace: namespace, catalogTitle: catalogTitle)
  }

  init(
    id: String, shortID: String, namespace: String?, catalogTitle: String, title: String, description: String,
    parameters: [ParameterDescriptor], outputType: ValueType?, sideEffect: SideEffect,
    sideEffectParameters: Set<String>, requiresConfirmation: Bool, processArgumentParameters: Set<String>,
    prompts: IntentPrompts, networkAccess: NetworkAccess, machineAccess: [MachineAccess], summary: SummaryLayout,
    dependencies: [String], effectClaimedBy: String? = nil, reportsProgress: Bool = false,
    intentType: any AppIntent.Type,
    runner:
      @escaping @Sendable ([String: FlowValue], Set<String>, IntentRunner.Mode, IntentContext) async throws ->
      IntentOutput,
    sideEffectForValues: @escaping @Sendable ([String: FlowValue]) -> SideEffect,
    machineAccessForValues: @escaping @Sendable ([String: FlowValue]) -> [MachineAccess],
    outputTypeForParameters: @escaping @Sendable ([String: ValueType], [String: FlowValue]) -> ValueType?
  ) {
    self.id = id
    self.shortID = shortID
    self.namespace = namespace
    self.catalogTitle = catalogTitle
    self.title = title
    self.description = description
    self.parameters = parameters
    self.outputType = outputType
    self.sideEffect = sideEffect
    self.sideEffectParameters = sideEffectParameters
    self.requiresConfirmation = requiresConfirmation
    self.processArgumentParameters = processArgumentParameters
    self.prompts = prompts
    self.networkAccess = networkAccess
    self.machineAccess = machineAccess
    self.summary = summary
    self.dependencies = dependencies
    self.effectClaimedBy = effectClaimedBy
    self.reportsProgress = reportsProgress
    self.intentType = intentType
    self.runner = runner
    self.sideEffectForValues = sideEffectForValues
    self.machineAccessForValues = machineAccessForValues
    self.outputTypeForParameters = outputTypeForParameters
  }

  private convenience init<I: AppIntent>(describing type: I.Type, namespace: String?, catalogTitle: String) {
    let shortID = I.identifier
    let id = namespace.map { "\($0).\(shortID)" } ?? shortID
    let intent = I()
    let reflected = IntentReflection.parameters(of: intent)
    let parameters = reflected.map { ParameterDescriptor($0.key, $0.parameter) }
    let summary = IntentReflection.summaryLayout(of: intent, parameters: reflected)
    self.init(
      id: id, shortID: shortID, namespace: namespace, catalogTitle: catalogTitle, title: I.title.key,
      description: I.description.text, parameters: parameters, outputType: I._outputValueType,
      sideEffect: I.sideEffect, sideEffectParameters: I.sideEffectParameters,
      requiresConfirmation: I.requiresConfirmation, processArgumentParameters: I.processArgumentParameters,
      prompts: I.prompts,
      networkAccess: I.networkAccess, machineAccess: I.machineAccess, summary: summary,
      dependencies: IntentReflection.dependencies(of: intent).map { _typeName($0, qualified: false) },
      intentType: I.self,
      runner: { values, asking, mode, context in
        try await IntentRunner.run(I.self, id: id, values: values, asking: asking, mode: mode, context: context)
      },
      sideEffectForValues: { I.sideEffect(for: $0) },
      machineAccessForValues: { I.machineAccess(for: $0) },
      outputTypeForParameters: { I.outputType(given: $0, literals: $1) }
    )
  }

  /// The parameter with this key.
  public func parameter(_ key: String) -> ParameterDescriptor? { parameters.first { $0.key == key } }

  /// The parameter a bare scalar fills (SPEC §1), if the intent has one.
  public var primaryParameter: ParameterDescriptor? { parameters.first(where: \.isPrimary) }

  /// The side effect of a step with these values (`get-url` is read-only for GET), all of them known.
  public func sideEffect(for values: [String: FlowValue]) -> SideEffect { sideEffectForValues(values) }

  /// The side effect of a step of which only some values are known: `values` are the known ones, and
  /// `unknown` names the parameters that get a value only at run time (computed, asked for, or left out
  /// of the step and so asked). A value not known yet could be any, so when it is one that decides the
  /// effect, the step is taken at its strongest: `update-bookmarks` moving to `${collection}` may be
  /// moving to Trash.
  public func sideEffect(for values: [String: FlowValue], unknown: Set<String>) -> SideEffect {
    unknown.isDisjoint(with: sideEffectParameters) ? sideEffect(for: values) : sideEffect
  }

  /// What a step of which only some values are known does to the machine, as
  /// ``sideEffect(for:unknown:)`` is for its effect: everything the intent may do when a value that
  /// decides it is not known yet.
  public func machineAccess(for values: [String: FlowValue], unknown: Set<String>) -> [MachineAccess] {
    unknown.isDisjoint(with: sideEffectParameters) ? machineAccessForValues(values) : machineAccess
  }

  /// Whether a step with these values asks the person before it runs: every step of an intent that
  /// requires confirmation, and every step its values make destructive — a bulk move to Trash asks as
  /// deleting one bookmark does. What the run asks, and what the unattended check and the card expect
  /// it to ask (with `unknown` as in ``sideEffect(for:unknown:)``).
  public func asksConfirmation(for values: [String: FlowValue], unknown: Set<String> = []) -> Bool {
    requiresConfirmation || sideEffect(for: values, unknown: unknown) == .destructive
  }

  /// The output type of a step whose parameters have these static types (`list: [a, b]` makes a list of
  /// text) and, where written out, these values (`run-shell`'s `output: lines`), or the declared
  /// ``outputType``.
  public func outputType(given parameters: [String: ValueType], literals: [String: FlowValue] = [:]) -> ValueType? {
    outputTypeForParameters(parameters, literals) ?? outputType
  }

  /// The hosts a step with these values may contact.
  public func hosts(for values: [String: FlowValue]) -> [String] { networkAccess.hosts(for: values) }

  /// Runs the intent: a fresh instance gets `values` (already resolved from the workflow: literals,
  /// magic variables), each converted and checked for its parameter; missing required values and the
  /// keys in `asking` (SPEC §3's `ask`) are requested from `context.prompter`; an intent that
  /// requires confirmation asks for it; then `perform()` runs with `context` as
  /// ``IntentContext/current``.
  ///
  /// Throws ``AppIntentError`` for unknown keys, invalid or out-of-range values, missing services and
  /// unanswered prompts, and whatever `perform()` throws.
  public func run(
    values: [String: FlowValue], asking: Set<String> = [], context: IntentContext
  ) async throws -> IntentOutput {
    try await runner(values, asking, .perform, context)
  }

  /// Resolves the parameters exactly as ``run(values:asking:context:)`` does — conversion, entity
  /// queries, asking for what is missing — and stops there: no confirmation, no `perform()`. What a dry
  /// run does with a step that would change something, so that it meets every problem a real run would
  /// before the change (a collection that does not exist).
  ///
  /// The values under `unresolved` are taken as they are (a dry run's stand-ins for outputs it did not
  /// produce). Returns every parameter's value as resolved: an entity given as text comes back as the
  /// entity.
  public func resolve(
    values: [String: FlowValue], asking: Set<String> = [], unresolved: Set<String> = [], context: IntentContext
  ) async throws -> [String: FlowValue] {
    let output = try await runner(values, asking, .resolve(unresolved: unresolved), context)
    guard case .dictionary(let resolved) = output.value else { return [:] }
    return Dictionary(uniqueKeysWithValues: resolved.map { ($0.key, $0.value) })
  }
}

/// What a run produced: the step's output and the text to show.
public struct IntentOutput: Sendable, Hashable {
  /// The magic variable's value; `.nothing` when the intent returns no value.
  public var value: FlowValue
  public var dialog: String?

  public init(value: FlowValue, dialog: String? = nil) {
    self.value = value
    self.dialog = dialog
  }
}

/// A parameter as `flow actions` and the checker see it.
public struct ParameterDescriptor: Sendable, Hashable {
  public let key: String
  public let title: String
  public let description: String?
  public let type: ValueType
  /// Non-optional without a default: a step must give it, or the person is asked.
  public let isRequired: Bool
  /// Declared with an optional Swift type.
  public let isOptional: Bool
  public let defaultValue: FlowValue?
  public let range: ClosedRange<Double>?
  public let isPrimary: Bool
  public let requestValueDialog: String?
  /// Whether the declaration's range is reversed (CatalogValidator reports it).
  let reversedRange: Bool
  /// The Swift type's `init(flowValue:)`, for literals.
  private let converter: LiteralConverter

  /// A parameter described by data (an MCP tool's `inputSchema`), whose literals convert with the one
  /// coercion table.
  public init(
    key: String, title: String, description: String?, type: ValueType, isRequired: Bool, defaultValue: FlowValue?,
    range: ClosedRange<Double>? = nil, isPrimary: Bool = false
  ) {
    self.key = key
    self.title = title
    self.description = description
    self.type = type
    self.defaultValue = defaultValue
    self.isOptional = !isRequired
    self.isRequired = isRequired
    self.range = range
    self.isPrimary = isPrimary
    self.requestValueDialog = nil
    self.reversedRange = false
    self.converter = LiteralConverter { value throws(CoercionError) in try Coercion.coerce(value, to: type) }
  }

  init(_ key: String, _ parameter: any AnyParameter) {
    self.key = key
    self.title = parameter.title
    self.description = parameter.parameterDescription
    self.type = parameter.valueType
    self.defaultValue = parameter.defaultFlowValue
    self.isOptional = parameter.isOptional
    self.isRequired = !parameter.isOptional && parameter.defaultFlowValue == nil
    self.range = parameter.inclusiveRange
    self.isPrimary = parameter.isPrimary
    self.requestValueDialog = parameter.requestValueDialog?.text
    self.reversedRange = parameter.reversedRange
    self.converter = LiteralConverter(convert: parameter.literalConverter)
  }

  /// The enum cases the parameter accepts, when its type (or its list's element type) is an enum.
  public var choices: [EnumType.Case]? {
    if case .enumeration(let enumType) = type.elementType { return enumType.cases }
    return nil
  }
}

/// Reads an intent's declarations: its `@Parameter`s and `@Dependency`s (at the offsets ``IntentLayout``
/// found, or with `Mirror`, the way swift-argument-parser reads `@Option`s).
enum IntentReflection {
  /// A parameter found on an intent, with its key and Swift property name.
  struct Reflected {
    var key: String
    var label: String
    var parameter: any AnyParameter
  }

  /// The `@Parameter`s of an intent, in declaration order, with their keys.
  static func parameters(of intent: some AppIntent) -> [Reflected] {
    reflect(intent).parameters
  }

  /// The types of an intent's `@Dependency`s.
  static func dependencies(of intent: some AppIntent) -> [Any.Type] {
    reflect(intent).dependencies
  }

  /// Parameters and dependencies in one pass: every action step reflects a fresh intent, so the
  /// parameters are read at the offsets the type's ``IntentLayout`` found once.
  static func reflect<I: AppIntent>(_ intent: I) -> (parameters: [Reflected], dependencies: [Any.Type]) {
    let layout = IntentLayout.of(I.self)
    guard let fields = layout.parameters else { return mirrored(intent) }
    if fields.isEmpty { return ([], layout.dependencies) }
    let parameters = withUnsafeBytes(of: intent) { value -> [Reflected] in
      guard let start = value.baseAddress else { return [] }
      return fields.map { field in
        let parameter = field.parameter(in: start)
        return Reflected(key: parameter.explicitKey ?? field.key, label: field.label, parameter: parameter)
      }
    }
    return (parameters, layout.dependencies)
  }

  /// The same through `Mirror`: for an intent that is a class, whose fields are not in the value.
  private static func mirrored(_ intent: some AppIntent) -> (parameters: [Reflected], dependencies: [Any.Type]) {
    var parameters: [Reflected] = []
    var dependencies: [Any.Type] = []
    for child in Mirror(reflecting: intent).children {
      if let label = child.label, let parameter = child.value as? any AnyParameter {
        let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
        parameters.append(
          Reflected(key: parameter.explicitKey ?? Naming.kebabCase(name), label: name, parameter: parameter))
      } else if let dependency = child.value as? any AnyDependency {
        dependencies.append(dependency.dependencyType)
      }
    }
    return (parameters, dependencies)
  }

  static func summaryLayout<I: AppIntent>(of intent: I, parameters: [Reflected]) -> SummaryLayout {
    I._summaryLayout { keyPath in
      // A class check, not a cast to AnyParameter (see ParameterObject).
      guard let keyPath = keyPath as? PartialKeyPath<I>,
        let parameter = intent[keyPath: keyPath] as? ParameterObject
      else { return nil }
      return parameters.first { $0.parameter === parameter }?.key
    }
  }
}

/// A parameter type's `init(flowValue:)`, kept in a descriptor that is compared by its data.
private struct LiteralConverter: Sendable, Hashable {
  let convert: @Sendable (FlowValue) throws(CoercionError) -> FlowValue
  static func == (lhs: Self, rhs: Self) -> Bool { true }
  func hash(into hasher: inout Hasher) {}
}

extension ParameterDescriptor {
  /// Converts a value known before the run (a literal in the workflow) as the run will: with the
  /// parameter type's own initialiser, so that every custom type (`ResultLimit`'s "a number from 1 or
  /// 'all'") is checked by its own rules.
  ///
  /// Entities are found through their queries, which need the backend: a literal for an entity
  /// parameter is returned as it is, and checked by the run (or a dry run).
  public func convertLiteral(_ value: FlowValue) throws(CoercionError) -> FlowValue {
    if case .entity = type.elementType {
      if case .entity = type, case .list(let items) = value {
        throw CoercionError.listWhereOneExpected(count: items.count, expected: type)
      }
      return value
    }
    return try converter.convert(value)
  }

  /// Checks a value known before the run (a literal in the workflow) against the parameter's type and
  /// range, for `flow validate`; nil when it would be accepted.
  public func check(_ value: FlowValue) -> CoercionError? {
    do {
      let converted = try convertLiteral(value)
      if let range, case .number(let number) = converted, !range.contains(number) {
        let low = FlowValue.formatNumber(range.lowerBound), high = FlowValue.formatNumber(range.upperBound)
        return CoercionError(
          message: "'\(key)' must be between \(low) and \(high), got \(FlowValue.formatNumber(number))")
      }
      return nil
    } catch {
      var located = error
      located.message = error.message(forParameter: key)
      return located
    }
  }
}
