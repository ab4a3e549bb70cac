import FlowIntents

/// A server's `elicitation/create`, asked through flow's `Prompter` like any intent's `requestValue`: each
/// property of the requested schema is one question (text, number, integer, boolean, or a choice for an
/// enum), with the server's message as the dialog.
public enum ElicitationPrompts {
  /// The answer to send back: `{action: "accept", content: {...}}`. Throws what the prompter throws (an
  /// unattended run cannot ask, and the step fails naming the question).
  public static func answer(
    _ elicitation: MCPClient.Elicitation, server: String, prompter: any Prompter
  ) async throws -> FlowValue {
    let schema = elicitation.requestedSchema.dictionaryFields
    let properties = schema["properties"]?.dictionaryFields ?? FlowDictionary()
    // Bounded (issue 28): a question is read by a person, so a server gets a few of them, each short.
    guard properties.count <= maximumQuestions else {
      throw AppIntentError.failed(
        "the MCP server '\(server)' asked \(properties.count) questions at once; flow answers at most \(maximumQuestions)"
      )
    }
    // Whose question it is, always: a server's words must not pass for flow's.
    let message = "The MCP server '\(server)' asks: " + bounded(elicitation.message)
    var content = FlowDictionary()
    for (key, property) in properties {
      let fields = property.dictionaryFields
      let title = bounded(fields["title"]?.text ?? fields["description"]?.text ?? key)
      let dialog = properties.count == 1 ? message : "\(message) — \(title)"
      let origin = PromptOrigin(intentID: server, parameterKey: key, parameterTitle: title)
      let type = SchemaTypes.valueType(of: property, named: title).type
      if case .enumeration(let enumType) = type {
        let chosen = try await prompter.requestChoice(
          ChoiceRequest(kind: .choice, origin: origin, dialog: dialog, options: enumType.cases.map(\.title)))
        if let index = chosen.first, enumType.cases.indices.contains(index) {
          content[key] = .text(enumType.cases[index].id)
        }
        continue
      }
      if type == .boolean {
        // Only the person answers a server's yes/no: neither `confirmations: auto` nor a block's `confirm:`
        // says yes for them, and a terminal's default is no, whatever the schema's `default` says.
        var request = ConfirmationRequest(kind: .parameter, origin: origin, dialog: dialog)
        request.needsExplicitYes = true
        content[key] = .boolean(try await prompter.requestConfirmation(request))
        continue
      }
      let value = try await Prompting.requestValue(
        ValueRequest(
          kind: .question, origin: origin, dialog: dialog, valueType: type == .url || type == .date ? .text : type,
          defaultAnswer: fields["default"]),
        prompter: prompter
      ) { answer in try Coercion.coerce(answer, to: type == .url || type == .date ? .text : type) }
      content[key] = value
    }
    return ["action": "accept", "content": .dictionary(content)]
  }

  /// The most questions one elicitation may ask.
  static let maximumQuestions = 16
  /// The longest message or title shown, in characters; the rest is cut with "…".
  static let maximumText = 500

  static func bounded(_ text: String) -> String {
    text.count <= maximumText ? text : String(text.prefix(maximumText)) + "…"
  }
}
