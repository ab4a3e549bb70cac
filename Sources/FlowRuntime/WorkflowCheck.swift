import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowYAML

/// Reads a workflow file all the way: YAML, structure, then the catalogue (SPEC §4). What
/// `flow validate` reports and what every `flow run` checks before its first step.
public enum WorkflowCheck {
  /// The workflow, and every problem found. The workflow is usable only when there are no errors.
  public static func load(_ file: SourceFile, registry: IntentRegistry) -> (
    workflow: Workflow?, diagnostics: Diagnostics
  ) {
    let document = YAMLDocument.load(file)
    var diagnostics = document.diagnostics
    // After a YAML error the tree is partial; checking it would only add noise.
    guard !diagnostics.hasErrors else { return (nil, diagnostics) }
    let (workflow, structural) = WorkflowDecoder.decode(document)
    diagnostics.append(contentsOf: structural)
    if let workflow {
      diagnostics.append(contentsOf: Checker(registry: registry).check(workflow))
    }
    return (workflow, diagnostics)
  }
}

/// Resolves a workflow's inputs before its first step (SPEC §5): given values are coerced to the
/// declared types, defaults fill the rest, and what is still missing is asked for.
public enum InputResolver {
  /// - Parameters:
  ///   - given: values from the command line, an input file or standard input, by name.
  public static func resolve(
    _ workflow: Workflow, given: [String: FlowValue], registry: IntentRegistry, prompter: any Prompter
  ) async throws(RunError) -> FlowDictionary {
    let checker = Checker(registry: registry)
    let declared = workflow.inputs.map(\.name.value)
    for name in given.keys.sorted() where !declared.contains(name) {
      throw RunError(
        .invalid,
        Diagnostic(.error, .unknownInput, "'\(workflow.name)' has no input '\(name)'", file: workflow.file.path)
          .help(Suggestion.help(for: name, among: declared) ?? (declared.isEmpty ? "it takes no inputs" : nil)))
    }
    var inputs = FlowDictionary()
    for input in workflow.inputs {
      let name = input.name.value
      let type = declaredType(of: input, checker: checker)
      do {
        if let value = given[name] {
          inputs[name] = try coerce(value, to: type)
        } else if let value = input.defaultValue {
          inputs[name] = try coerce(Evaluator.evaluate(value, in: Scope.empty), to: type)
        } else {
          let request = ValueRequest(
            kind: .missingParameter, origin: PromptOrigin(parameterKey: name, parameterTitle: input.prompt ?? name),
            dialog: input.prompt ?? "Value for '\(name)'", valueType: type)
          inputs[name] = try await Prompting.requestValue(request, prompter: prompter) { try coerce($0, to: type) }
        }
      } catch let error as RunError {
        throw error
      } catch {
        let (message, help) = AppIntentError.describe(error)
        let kind = RunError.classify(error)
        // A prompter's refusal already names the input; a value that does not fit gets it added.
        let text = kind == .needsInput ? message : "input '\(name)': \(message)"
        throw RunError(
          kind == .stepFailed ? .invalid : kind,
          Diagnostic(.error, kind == .needsInput ? .inputNeeded : .invalidInput, text, at: input.name.span).help(help))
      }
    }
    return inputs
  }

  /// The type an input declares (`any` when it declares none), so that the command line can tell a list
  /// input, which a repeated `--input` adds to, from a single one.
  public static func declaredType(of input: Workflow.Input, registry: IntentRegistry) -> ValueType {
    declaredType(of: input, checker: Checker(registry: registry))
  }

  private static func declaredType(of input: Workflow.Input, checker: Checker) -> ValueType {
    input.type.flatMap { checker.type(named: $0.value) } ?? .any
  }

  /// Entity-typed inputs stay as given; their parameters resolve them through the entity's query.
  private static func coerce(_ value: FlowValue, to type: ValueType) throws -> FlowValue {
    if case .entity = type.elementType { return value }
    return try Coercion.coerce(value, to: type)
  }
}

extension Scope {
  /// A scope with nothing in it, for literal defaults.
  static var empty: Scope {
    Scope(
      inputs: FlowDictionary(), builtIns: BuiltIns(workflowName: "", runID: "", environment: [:], clock: SystemClock()))
  }
}

extension DiagnosticCode {
  /// A value given for an input that the workflow does not declare.
  public static let unknownInput: Self = "unknown-input"
  /// A value given for an input that does not fit its type.
  public static let invalidInput: Self = "invalid-input"
}
