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
    var content = FlowDictionary()
    for (key, property) in properties {
      let fields = property.dictionaryFields
      let title = fields["title"]?.text ?? fields["description"]?.text ?? key
      let dialog = properties.count == 1 ? elicitation.message : "\(elicitation.message) — \(title)"
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
        content[key] = .boolean(
          try await prompter.requestConfirmation(ConfirmationRequest(kind: .parameter, origin: origin, dialog: dialog)))
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
}
