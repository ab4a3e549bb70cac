import FlowDiagnostics
import FoundationEssentials

/// Runs one intent: assign, ask, confirm, perform (see ``IntentDescriptor/run(values:asking:context:)``).
enum IntentRunner {
  /// How far to go.
  enum Mode: Sendable {
    /// All the way: resolve, confirm, perform.
    case perform
    /// Resolve the parameters but those under `unresolved` and stop; the output is a dictionary of the
    /// resolved values by key.
    case resolve(unresolved: Set<String>)

    var performs: Bool {
      if case .perform = self { return true }
      return false
    }
  }

  static func run<I: AppIntent>(
    _ type: I.Type, id: String, values: [String: FlowValue], asking: Set<String>, mode: Mode, context: IntentContext
  ) async throws -> IntentOutput {
    let intent = I()
    let (parameters, dependencies) = IntentReflection.reflect(intent)
    let keys = parameters.map(\.key)
    for key in values.keys.sorted() where !keys.contains(key) {
      throw AppIntentError(
        .unknownParameter, "'\(id)' has no parameter '\(key)'", help: Suggestion.help(for: key, among: keys))
    }
    // Only `perform()` reads the intent's services: resolving its parameters needs none of them.
    for dependency in dependencies where !context.hasDependency(dependency) && mode.performs {
      let name = String(describing: dependency).replacingEvery("any ", with: "")
      throw AppIntentError(.missingDependency, "'\(id)' needs a service this run does not provide: \(name)")
    }
    return try await IntentContext.$current.withValue(context) {
      for reflected in parameters {
        reflected.parameter.bind(
          PromptOrigin(intentID: id, parameterKey: reflected.key, parameterTitle: reflected.parameter.title))
      }
      var unresolved: Set<String> = []
      if case .resolve(let keys) = mode { unresolved = keys }
      for reflected in parameters where !unresolved.contains(reflected.key) {
        let parameter = reflected.parameter
        if asking.contains(reflected.key) {
          try await parameter.requestValueErased()
        } else if let value = values[reflected.key], value != .nothing || Self.acceptsNothing(parameter.valueType) {
          try Self.checkOnePath(value, for: reflected.key, of: parameter.valueType, in: I.machineAccess)
          try await parameter.assign(value, in: context)
        } else if parameter.isOptional || parameter.defaultFlowValue != nil {
          parameter.assignDefault()
        } else {
          try await parameter.requestValueErased()
        }
      }
      if case .resolve = mode {
        var resolved = FlowDictionary()
        for reflected in parameters {
          resolved[reflected.key] =
            unresolved.contains(reflected.key) ? values[reflected.key] : reflected.parameter.currentFlowValue
        }
        return IntentOutput(value: .dictionary(resolved))
      }
      // The values as resolved decide (a collection given by name is now the collection it names), so
      // a step asks exactly when what it is about to do deletes, or when its intent always asks.
      let resolved = Dictionary(
        uniqueKeysWithValues: parameters.compactMap { reflected in
          reflected.parameter.currentFlowValue.map { (reflected.key, $0) }
        })
      let effect = I.sideEffect(for: resolved)
      if I.requiresConfirmation || effect == .destructive {
        let question = ConfirmationWords.question(
          I.self, values: resolved, sentence: IntentReflection.summaryLayout(of: intent, parameters: parameters))
        var request = ConfirmationRequest(
          kind: .intent, origin: PromptOrigin(intentID: id), dialog: question,
          isDestructive: effect == .destructive)
        request.needsExplicitYes = ConfirmationPolicy.needsPerson(
          I.machineAccess(for: resolved).lazy.map(\.kind), shared: context.dependency(RunOrigin.self)?.shared ?? false)
        request.access = I.machineAccess(for: resolved).map(\.kind)
        let confirmed = try await context.confirm(request)
        if !confirmed { throw AppIntentError.userCancelled }
      }
      if let question = context.question {
        try await question.askBeforeActing(intentID: id, prompter: context.prompter)
      }
      let result = try await intent.perform()
      return IntentOutput(value: result.outputValue ?? .nothing, dialog: result.outputDialog?.text)
    }
  }

  /// A parameter that names one file — a path or a pattern — given a list: joined as text, the items
  /// would make a path nobody wrote (`a.txt, b.txt`), and the card would not show it. A list of one is
  /// that one; any other count fails the step.
  static func checkOnePath(_ value: FlowValue, for key: String, of type: ValueType, in access: [MachineAccess])
    throws
  {
    guard case .list(let items) = value, items.count != 1, type == .text,
      access.contains(where: { $0.parameter == key && $0.kind.actsOnFiles })
    else { return }
    throw AppIntentError(
      .invalidValue,
      "'\(key)' names one file or pattern, and was given a list of \(items.count)",
      help: "use 'for-each' to act on each item")
  }

  /// Whether `nothing` is a value for this type (any value; a list, as an empty one) rather than a
  /// missing one: `- show: ${previous}` after a step without output shows nothing instead of asking.
  static func acceptsNothing(_ type: ValueType) -> Bool {
    switch type {
    case .any, .list: true
    default: false
    }
  }
}
