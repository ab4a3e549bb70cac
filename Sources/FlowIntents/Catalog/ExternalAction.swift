import FlowDiagnostics

/// An action declared by data rather than by a Swift type: a tool an MCP server publishes. It becomes the
/// same ``IntentDescriptor`` a Swift intent does, so the checker, `flow actions`, `flow show`, the card
/// and the schema read it through one path; only running it differs (`perform`).
public struct ExternalAction: Sendable {
  public var id: String
  public var shortID: String
  public var namespace: String
  public var catalogTitle: String
  public var title: String
  public var description: String
  public var parameters: [ParameterDescriptor]
  public var outputType: ValueType?
  public var sideEffect: SideEffect
  public var networkAccess: NetworkAccess
  /// Who claims the effect ("the server 'time'").
  public var effectClaimedBy: String

  public init(
    namespace: String, shortID: String, catalogTitle: String, title: String, description: String,
    parameters: [ParameterDescriptor], outputType: ValueType?, sideEffect: SideEffect,
    networkAccess: NetworkAccess = .none, effectClaimedBy: String
  ) {
    self.id = "\(namespace).\(shortID)"
    self.shortID = shortID
    self.namespace = namespace
    self.catalogTitle = catalogTitle
    self.title = title
    self.description = description
    self.parameters = parameters
    self.outputType = outputType
    self.sideEffect = sideEffect
    self.networkAccess = networkAccess
    self.effectClaimedBy = effectClaimedBy
  }
}

/// The Swift type external actions stand behind in ``IntentDescriptor/intentType``: they have none, and
/// nothing performs this one (the descriptor's runner calls the action's own `perform`).
public struct ExternalIntent: AppIntent {
  public static let title: LocalizedStringResource = "External Action"
  public static let description = IntentDescription("An action another program publishes.")
  public init() {}
  public func perform() async throws -> some IntentResult { .result() }
}

extension IntentDescriptor {
  /// Describes an external action. `perform` gets the step's values converted, defaults filled and
  /// missing required ones asked for, after the confirmation a destructive action asks.
  public convenience init(
    _ action: ExternalAction,
    perform: @escaping @Sendable ([String: FlowValue], IntentContext) async throws -> IntentOutput
  ) {
    let id = action.id
    let parameters = action.parameters
    let effect = action.sideEffect
    let summary = SummaryLayout(
      sentence: [.text(action.title)], trailing: parameters.map(\.key), isUndeclared: true)
    self.init(
      id: id, shortID: action.shortID, namespace: action.namespace, catalogTitle: action.catalogTitle,
      title: action.title, description: action.description, parameters: parameters, outputType: action.outputType,
      sideEffect: effect, sideEffectParameters: [], requiresConfirmation: false, processArgumentParameters: [],
      prompts: [], networkAccess: action.networkAccess, machineAccess: [], summary: summary, dependencies: [],
      effectClaimedBy: action.effectClaimedBy, reportsProgress: true, intentType: ExternalIntent.self,
      runner: { values, asking, mode, context in
        try await ExternalRunner.run(
          id: id, parameters: parameters, effect: effect, summary: summary, values: values, asking: asking,
          mode: mode, context: context, perform: perform)
      },
      sideEffectForValues: { _ in effect },
      machineAccessForValues: { _ in [] },
      outputTypeForParameters: { _, _ in nil })
  }
}

/// IntentRunner's steps for an action without a Swift type: check keys, convert, ask, confirm, perform.
enum ExternalRunner {
  static func run(
    id: String, parameters: [ParameterDescriptor], effect: SideEffect, summary: SummaryLayout,
    values: [String: FlowValue], asking: Set<String>, mode: IntentRunner.Mode, context: IntentContext,
    perform: @Sendable ([String: FlowValue], IntentContext) async throws -> IntentOutput
  ) async throws -> IntentOutput {
    let keys = parameters.map(\.key)
    for key in values.keys.sorted() where !keys.contains(key) {
      throw AppIntentError(
        .unknownParameter, "'\(id)' has no parameter '\(key)'", help: Suggestion.help(for: key, among: keys))
    }
    var unresolved: Set<String> = []
    if case .resolve(let keys) = mode { unresolved = keys }
    var resolved: [String: FlowValue] = [:]
    for parameter in parameters where !unresolved.contains(parameter.key) {
      let origin = PromptOrigin(intentID: id, parameterKey: parameter.key, parameterTitle: parameter.title)
      let ask = {
        try await Prompting.requestValue(
          ValueRequest(
            kind: asking.contains(parameter.key) ? .question : .missingParameter, origin: origin,
            dialog: parameter.title, valueType: parameter.type, defaultAnswer: parameter.defaultValue),
          prompter: context.prompter
        ) { answer in try parameter.convertLiteral(answer) }
      }
      if asking.contains(parameter.key) {
        resolved[parameter.key] = try await ask()
      } else if let value = values[parameter.key], value != .nothing {
        do {
          resolved[parameter.key] = try parameter.convertLiteral(value)
        } catch {
          throw AppIntentError(.invalidValue, error.message(forParameter: parameter.key))
        }
      } else if !parameter.isRequired {
        // Absent: the server applies its own default, so the argument is left out rather than filled in.
        continue
      } else {
        resolved[parameter.key] = try await ask()
      }
    }
    if case .resolve = mode {
      var all = FlowDictionary()
      for parameter in parameters {
        all[parameter.key] = unresolved.contains(parameter.key) ? values[parameter.key] : resolved[parameter.key]
      }
      return IntentOutput(value: .dictionary(all))
    }
    // The server layer's check of the card (issue 28): a tool of a server the card does not name is
    // not called, nor asked about.
    if let contract = context.dependency(CardContract.self), let server = id.split(separator: ".").first,
      !contract.set.allowsServer(String(server))
    {
      throw CapabilitySet.refusal("calls a tool of the MCP server '\(server)'")
    }
    if effect == .destructive {
      let shown = resolved.mapValues { Prompting.optionText(for: $0) }
      let confirmed = try await context.confirm(
        ConfirmationRequest(
          kind: .intent, origin: PromptOrigin(intentID: id), dialog: "\(summary.render(values: shown))?",
          isDestructive: true))
      if !confirmed { throw AppIntentError.userCancelled }
    }
    if let question = context.question { try await question.askBeforeActing(intentID: id, prompter: context.prompter) }
    return try await IntentContext.$current.withValue(context) { try await perform(resolved, context) }
  }
}
