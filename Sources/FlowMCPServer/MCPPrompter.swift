import FlowDiagnostics
import FlowIntents
import FlowMCP
import FlowPresentation
import FlowRuntime
import FlowSession
import Synchronization

/// What the client's person answered to an `elicitation/create`.
public enum Elicited: Sendable, Equatable {
  case accept(FlowDictionary)
  case decline
  case cancel
}

/// Asks the MCP client's person (`flow mcp`), when the client declared `elicitation`: every question of
/// a run (a missing value, `ask`, a choice, a confirmation) becomes an `elicitation/create` form with one
/// field, typed as the protocol allows (``ToolSchema/elicited(_:)``); the answer goes through the same
/// coercion and re-asking as an answer typed at a terminal.
///
/// Declining or dismissing a value or a choice cancels the run, as end of input at a terminal does;
/// declining a confirmation answers no, which cancels the run with nothing further done (SPEC §5).
public final class ElicitingPrompter: Prompter {
  /// Sends one form and waits for the answer.
  public let elicit: @Sendable (_ message: String, _ schema: FlowValue) async throws -> Elicited
  /// The workflow's `secret: true` inputs: never asked for through the client (the protocol forbids
  /// asking for sensitive values in a form), only taken from the tool's arguments.
  public let secretInputs: Set<String>
  /// How many answers in a row did not fit: a client that keeps sending what flow cannot read is
  /// told so after ``maximumRetries`` rather than asked forever.
  private let refusals = Mutex(0)
  public static let maximumRetries = 3

  public init(
    secretInputs: Set<String> = [],
    elicit: @escaping @Sendable (_ message: String, _ schema: FlowValue) async throws -> Elicited
  ) {
    self.secretInputs = secretInputs
    self.elicit = elicit
  }

  public func requestValue(_ request: ValueRequest) async throws -> FlowValue {
    if request.origin.intentID == nil, let key = request.origin.parameterKey, secretInputs.contains(key) {
      var error = AppIntentError.needsValue(request.origin, dialog: request.dialog)
      error.message = "input '\(key)' needs a value"
      error.help = "give '\(key)' in the tool's arguments: a secret input is never asked for through the client"
      throw error
    }
    var message = request.dialog
    if let problem = request.problem {
      let count = refusals.withLock { count in
        count += 1
        return count
      }
      guard count < Self.maximumRetries else {
        var error = AppIntentError.needsValue(request.origin, dialog: request.dialog)
        error.message = "'\(request.dialog)' was answered \(count) times with what does not fit: \(problem)"
        throw error
      }
      message = "\(problem)\n\(message)"
    }
    var field = ToolSchema.elicited(request.valueType)
    field["title"] = .text(request.origin.parameterTitle ?? "Value")
    if let answer = request.defaultAnswer { field["default"] = answer }
    switch try await elicit(message, form(["value": .dictionary(field)])) {
    case .accept(let content):
      guard let value = content["value"], value != .nothing else {
        throw AppIntentError.needsValue(request.origin, dialog: request.dialog)
      }
      return value
    case .decline, .cancel:
      throw AppIntentError.userCancelled
    }
  }

  public func requestChoice(_ request: ChoiceRequest) async throws -> [Int] {
    // The answer names an option by its text, so texts that repeat are told apart by their number.
    let labels =
      Set(request.options).count == request.options.count
      ? request.options : request.options.enumerated().map { "\($0.offset + 1). \($0.element)" }
    let choice: FlowDictionary = ["type": "string", "enum": .list(labels.map(FlowValue.text))]
    let field: FlowDictionary =
      request.allowsMultiple ? ["type": "array", "title": "Choices", "items": .dictionary(choice)] : choice
    switch try await elicit(request.dialog, form(["choice": .dictionary(field)])) {
    case .accept(let content):
      let answers: [FlowValue] =
        switch content["choice"] {
        case .list(let items)?: items
        case let item?: [item]
        case nil: []
        }
      let chosen = answers.compactMap { answer in labels.firstIndex { $0 == Coercion.text(of: answer) } }
      guard !chosen.isEmpty, chosen.count == answers.count else {
        throw AppIntentError.needsChoice(request.origin, dialog: request.dialog, options: request.options)
      }
      return request.allowsMultiple ? chosen : [chosen[0]]
    case .decline, .cancel:
      throw AppIntentError.userCancelled
    }
  }

  public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    let field: FlowDictionary = [
      "type": "boolean", "title": "Confirm", "description": .text(request.dialog), "default": true,
    ]
    switch try await elicit(request.dialog, form(["confirm": .dictionary(field)])) {
    case .accept(let content):
      // Accepting the form is the answer; a client that shows the field may still have unticked it.
      return content["confirm"] != .boolean(false)
    case .decline, .cancel:
      return false
    }
  }

  private func form(_ properties: FlowDictionary) -> FlowValue {
    ["type": "object", "properties": .dictionary(properties), "required": .list(properties.keys.map(FlowValue.text))]
  }
}

/// Answers nothing, for a client that did not declare `elicitation`: each question fails at once with
/// what would have answered it, in the client's terms (the tool's arguments, `confirmations: auto`).
/// Before the run, ``MCPToolCall`` finds the same questions with ``UnattendedCheck``; this catches those
/// only the run meets (a workflow named at run time).
public struct NoElicitationPrompter: Prompter {
  public let inputNames: Set<String>
  /// Whether it answers for an action called as a tool (`--actions`), which has no file to write
  /// `confirmations: auto` in.
  public var action = false

  public func requestValue(_ request: ValueRequest) async throws -> FlowValue {
    var error = AppIntentError.needsValue(request.origin, dialog: request.dialog)
    if let key = request.origin.parameterKey, request.origin.intentID == nil, inputNames.contains(key) {
      error.message = "input '\(key)' needs a value"
      error.help = MCPHelp.argument(key)
    } else {
      error.help = MCPHelp.noElicitation
    }
    throw error
  }

  public func requestChoice(_ request: ChoiceRequest) async throws -> [Int] {
    var error = AppIntentError.needsChoice(request.origin, dialog: request.dialog, options: request.options)
    error.help = "the choices are \(List.or(request.options.map { "'\($0)'" })); \(MCPHelp.noElicitation)"
    throw error
  }

  public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    var error = AppIntentError.confirmationRequired(request.origin, dialog: request.dialog)
    error.help = action ? MCPHelp.actionConfirmation : MCPHelp.confirmation
    throw error
  }
}

/// What a tool error tells an MCP client would have answered a question.
public enum MCPHelp {
  public static let noElicitation = "the MCP client cannot answer questions (it did not declare 'elicitation')"
  public static let confirmation =
    "\(noElicitation); write 'confirmations: auto' in the workflow to confirm without asking"
  public static let actionConfirmation =
    "\(noElicitation); a workflow that runs the action with 'confirmations: auto' confirms without asking"
  public static func argument(_ name: String) -> String { "give '\(name)' in the tool's arguments" }

  /// ``UnattendedCheck``'s findings, their help reworded for a client: its helps name `--input`, `--yes`
  /// and the terminal, which a client has none of.
  public static func reworded(_ diagnostics: Diagnostics, inputs: Set<String>) -> Diagnostics {
    Diagnostics(
      diagnostics.all.map { diagnostic in
        var diagnostic = diagnostic
        let input = inputs.first { diagnostic.message == "input '\($0)' needs a value" }
        diagnostic.helps = [
          input.map(argument) ?? (diagnostic.message.contains("confirmation") ? confirmation : noElicitation)
        ]
        return diagnostic
      })
  }
}
