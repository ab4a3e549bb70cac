import FlowIntents
import FlowModel
import FlowRuntime

/// A library workflow, or an action, as a Model Context Protocol tool (`flow mcp`): what `tools/list`
/// tells an assistant.
///
/// Everything comes from what `flow show` and the import card already know: the inputs (their types,
/// prompts and defaults) make the `inputSchema`, the type the check finds for the result makes the
/// `outputSchema`, and the capability analysis (``CapabilityAnalysis``) makes the annotations, so a
/// client is told what a person deciding to import the file is told.
public enum ToolDescription {
  /// The tool for the library workflow `name` (what `flow run NAME` takes), checked by `check`.
  public static func tool(
    named name: String, workflow: Workflow, check: WorkflowCheck, analysis: CapabilityAnalysis,
    registry: IntentRegistry
  ) -> FlowValue {
    var inputs = FlowDictionary()
    var required: [FlowValue] = []
    for input in workflow.inputs {
      let key = input.name.value
      let type = InputResolver.declaredType(of: input, registry: registry)
      var schema = ToolSchema.schema(for: type, .input).objectEntries ?? [:]
      var description = input.prompt ?? schema["description"]?.textValue
      if input.secret {
        // JSON Schema's word for a value that is sent and never shown back.
        schema["writeOnly"] = true
        description = (description.map { $0 + " " } ?? "") + "Secret: never recorded in run history."
      }
      if let description { schema["description"] = .text(description) }
      if let value = input.defaultValue {
        if let literal = KnownValues.literal(value), let coerced = try? Coercion.coerce(literal, to: type) {
          schema["default"] = coerced
        }
      } else {
        required.append(.text(key))
      }
      inputs[key] = .dictionary(schema)
    }
    var tool: FlowDictionary = [
      "name": .text(name),
      "title": .text(workflow.name),
      "description": .text(workflow.description ?? "Runs the flow workflow '\(workflow.name)'."),
      "inputSchema": objectSchema(inputs, required: required),
    ]
    if let output = ToolSchema.output(check.resultType(of: workflow)) { tool["outputSchema"] = output }
    tool["annotations"] = annotations(analysis.analyze(workflow), title: workflow.name)
    return .dictionary(tool)
  }

  /// The tool for an action of the catalogue (`flow mcp --actions`), named by its id.
  public static func tool(for descriptor: IntentDescriptor) -> FlowValue {
    var parameters = FlowDictionary()
    var required: [FlowValue] = []
    for parameter in descriptor.parameters {
      var schema = ToolSchema.schema(for: parameter.type, .input).objectEntries ?? [:]
      schema["title"] = .text(parameter.title)
      if let description = parameter.description ?? schema["description"]?.textValue {
        schema["description"] = .text(description)
      }
      if let range = parameter.range {
        schema["minimum"] = .number(range.lowerBound)
        schema["maximum"] = .number(range.upperBound)
      }
      if let value = parameter.defaultValue { schema["default"] = value }
      if parameter.isRequired && parameter.defaultValue == nil { required.append(.text(parameter.key)) }
      parameters[parameter.key] = .dictionary(schema)
    }
    var tool: FlowDictionary = [
      "name": .text(descriptor.id),
      "title": .text(descriptor.title),
      "description": .text(descriptor.description),
      "inputSchema": objectSchema(parameters, required: required),
    ]
    if let output = ToolSchema.output(descriptor.outputType) { tool["outputSchema"] = output }
    let machine = descriptor.machineAccess.map(\.kind)
    let changes = descriptor.sideEffect != .readOnly || machine.contains { !$0.onlyReads }
    var annotations: FlowDictionary = ["title": .text(descriptor.title), "readOnlyHint": .boolean(!changes)]
    if changes {
      annotations["destructiveHint"] = .boolean(
        descriptor.sideEffect == .destructive || machine.contains(where: \.isAlarming))
    }
    annotations["openWorldHint"] = .boolean(descriptor.networkAccess != .none)
    tool["annotations"] = .dictionary(annotations)
    return .dictionary(tool)
  }

  /// The protocol's hints from what the card says the workflow may do: read-only when it changes
  /// nothing, destructive when it deletes (bookmarks, files, to the Trash or for good) or runs commands
  /// (which may do anything: the card's red lines), open-world when it contacts hosts. A workflow it
  /// runs that could not be looked at (named at run time, missing) may do anything, so it makes every
  /// hint the cautious one.
  static func annotations(_ capabilities: Capabilities, title: String) -> FlowValue {
    let unknown = capabilities.workflows.contains { $0.problem != nil }
    let changes = unknown || capabilities.changesAnything
    let deletes =
      unknown || capabilities.apps.contains { $0.deletes > 0 }
      || capabilities.otherChanges.contains { $0.effect == SideEffect.destructive.rawValue }
      || capabilities.machine.contains { MachineAccess.Kind(rawValue: $0.kind)?.isAlarming == true }
    let contacts =
      unknown || !capabilities.hosts.isEmpty || !capabilities.anyHost.isEmpty || !capabilities.undeclaredHosts.isEmpty
    var annotations: FlowDictionary = ["title": .text(title), "readOnlyHint": .boolean(!changes)]
    // The protocol reads destructiveHint only when readOnlyHint is false.
    if changes { annotations["destructiveHint"] = .boolean(deletes) }
    annotations["openWorldHint"] = .boolean(contacts)
    return .dictionary(annotations)
  }

  private static func objectSchema(_ properties: FlowDictionary, required: [FlowValue]) -> FlowValue {
    var schema: FlowDictionary = ["type": "object", "properties": .dictionary(properties)]
    if !required.isEmpty { schema["required"] = .list(required) }
    schema["additionalProperties"] = false
    return .dictionary(schema)
  }
}

extension FlowValue {
  /// The dictionary this value holds, if it is one.
  fileprivate var objectEntries: FlowDictionary? {
    if case .dictionary(let dictionary) = self { return dictionary }
    return nil
  }

  /// The text this value holds, if it is text.
  fileprivate var textValue: String? {
    if case .text(let text) = self { return text }
    return nil
  }
}
