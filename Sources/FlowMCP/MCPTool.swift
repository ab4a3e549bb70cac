import FlowIntents

/// A tool as `tools/list` describes it, kept as the server wrote it (the cache stores the JSON as is).
public struct MCPTool: Sendable, Hashable {
  public var name: String
  public var title: String?
  public var description: String
  public var inputSchema: FlowValue
  public var outputSchema: FlowValue?
  public var annotations: FlowDictionary
  /// The tool's JSON, for the cache and for comparing with what the server says at run time.
  public var raw: FlowValue

  public init?(_ value: FlowValue) {
    guard case .dictionary(let fields) = value, case .text(let name)? = fields["name"], !name.isEmpty else {
      return nil
    }
    self.name = name
    if case .text(let title)? = fields["title"] { self.title = title }
    if case .dictionary(let annotations)? = fields["annotations"] {
      self.annotations = annotations
      if title == nil, case .text(let title)? = annotations["title"] { self.title = title }
    } else {
      self.annotations = FlowDictionary()
    }
    description = fields["description"].map(\.text) ?? ""
    inputSchema = fields["inputSchema"] ?? ["type": "object"]
    if let output = fields["outputSchema"], output != .nothing { outputSchema = output }
    raw = value
  }

  /// The side effect the annotations claim, with the specification's defaults for what they leave out:
  /// not read-only, and destructive unless it says otherwise. No annotations at all may change and delete.
  public var sideEffect: SideEffect {
    if annotations["readOnlyHint"] == .boolean(true) { return .readOnly }
    if annotations["destructiveHint"] == .boolean(false) { return .changes }
    return .destructive
  }

  /// Whether it may reach beyond the server (the specification's default: yes).
  public var isOpenWorld: Bool { annotations["openWorldHint"] != .boolean(false) }

  /// The title `flow actions` shows: the tool's own, or its name in words.
  public var displayTitle: String {
    if let title, !title.isEmpty { return title }
    let words = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
    guard let first = words.first else { return name }
    return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
  }

  /// Whether the output is `{result: T}`, the wrapper the Python SDK puts around a plain return value: the
  /// step's output is then the value itself, so a workflow writes `${time}` rather than `${time.result}`.
  public var wrapsResult: Bool {
    guard case .dictionary(let schema)? = outputSchema, case .dictionary(let properties)? = schema["properties"]
    else { return false }
    return properties.keys == ["result"]
  }
}

/// JSON Schema (the part MCP tools use) → flow's types: Documentation/MCP.md has the table.
public enum SchemaTypes {
  /// The parameters of `inputSchema`'s properties, in the order the server wrote them.
  public static func parameters(of tool: MCPTool) -> [ParameterDescriptor] {
    guard case .dictionary(let schema) = tool.inputSchema, case .dictionary(let properties)? = schema["properties"]
    else { return [] }
    var required: Set<String> = []
    if case .list(let names)? = schema["required"] { required = Set(names.map(\.text)) }
    let parameters = properties.map { key, property -> ParameterDescriptor in
      let fields = property.dictionaryFields
      let (type, nullable) = valueType(of: property, named: key)
      return ParameterDescriptor(
        key: key, title: fields["title"].map(\.text) ?? key, description: fields["description"].map(\.text),
        type: type, isRequired: required.contains(key) && !nullable && fields["default"] == nil,
        defaultValue: fields["default"].flatMap { $0 == .nothing ? nil : $0 }, range: range(fields))
    }
    // One required parameter takes a bare value, as an intent's primary parameter does: `- time.x: UTC`.
    let requiredKeys = parameters.filter(\.isRequired)
    guard requiredKeys.count == 1 else { return parameters }
    return parameters.map { parameter in
      guard parameter.isRequired else { return parameter }
      return ParameterDescriptor(
        key: parameter.key, title: parameter.title, description: parameter.description, type: parameter.type,
        isRequired: true, defaultValue: nil, range: parameter.range, isPrimary: true)
    }
  }

  /// The step's output type: the structured result's properties when there is an `outputSchema`, else text.
  public static func outputType(of tool: MCPTool, actionTitle: String) -> ValueType {
    guard let schema = tool.outputSchema else { return .text }
    if tool.wrapsResult, case .dictionary(let properties)? = schema.dictionaryFields["properties"],
      let result = properties["result"]
    {
      return valueType(of: result, named: "result").type
    }
    return objectType(schema, name: schema.dictionaryFields["title"].map(\.text) ?? "\(actionTitle) Result")
  }

  /// A JSON Schema's flow type, and whether it admits null (`["string", "null"]`, or pydantic's `anyOf`).
  public static func valueType(of schema: FlowValue, named name: String) -> (type: ValueType, nullable: Bool) {
    let fields = schema.dictionaryFields
    if case .list(let options)? = fields["anyOf"] ?? fields["oneOf"] {
      let nonNull = options.filter { $0.dictionaryFields["type"] != .text("null") }
      let nullable = nonNull.count < options.count
      if nonNull.count == 1 { return (valueType(of: nonNull[0], named: name).type, nullable) }
      return (.any, nullable)
    }
    var typeName = fields["type"]?.text
    var nullable = false
    if case .list(let names)? = fields["type"] {
      let nonNull = names.map(\.text).filter { $0 != "null" }
      nullable = nonNull.count < names.count
      typeName = nonNull.count == 1 ? nonNull[0] : nil
    }
    if case .list(let values)? = fields["enum"], !values.isEmpty,
      values.allSatisfy({ if case .text = $0 { true } else { false } })
    {
      let title = fields["title"].map(\.text) ?? name
      return (
        .enumeration(EnumType(name: title, cases: values.map { EnumType.Case(id: $0.text, title: $0.text) })), nullable
      )
    }
    switch typeName {
    case "string":
      switch fields["format"]?.text {
      case "uri", "url", "iri": return (.url, nullable)
      case "date-time", "date": return (.date, nullable)
      default: return (.text, nullable)
      }
    case "number": return (.number, nullable)
    case "integer": return (.integer, nullable)
    case "boolean": return (.boolean, nullable)
    case "array":
      return (.list(fields["items"].map { valueType(of: $0, named: name).type } ?? .any), nullable)
    case "object":
      if fields["properties"] != nil {
        return (objectType(schema, name: fields["title"].map(\.text) ?? name), nullable)
      }
      return (.dictionary, nullable)
    default: return (.any, nullable)
    }
  }

  /// An object with declared properties: an entity type, so that `${result.prop}` is checked (its values at
  /// run time are dictionaries, whose keys the properties name).
  static func objectType(_ schema: FlowValue, name: String) -> ValueType {
    guard case .dictionary(let properties)? = schema.dictionaryFields["properties"] else { return .dictionary }
    let schemas = properties.map { key, property in
      PropertySchema(
        key: key, title: property.dictionaryFields["title"].map(\.text) ?? key,
        type: valueType(of: property, named: key).type)
    }
    return .entity(EntityType(name: name) { schemas })
  }

  private static func range(_ fields: FlowDictionary) -> ClosedRange<Double>? {
    guard case .number(let low)? = fields["minimum"], case .number(let high)? = fields["maximum"], low <= high
    else { return nil }
    return low...high
  }
}

extension FlowValue {
  /// The fields of an object, or none.
  var dictionaryFields: FlowDictionary {
    if case .dictionary(let fields) = self { return fields }
    return FlowDictionary()
  }
}
