import FlowIntents

/// flow's types as the JSON Schema of the Model Context Protocol (`flow mcp`): what a tool's
/// `inputSchema` says an argument is, what its `outputSchema` says the result is, and what an
/// elicitation asks for.
///
/// Unlike the editor schema (``WorkflowSchema``), which accepts everything a workflow file may write (a
/// `${…}` reference, `ask`, a number in text), these say what a program should send and what flow sends
/// back: JSON as ``JSON/encode(_:pretty:)`` writes flow's values. A client that validates
/// `structuredContent` against the output schema (the Python SDK does) must find it conforms.
public enum ToolSchema {
  /// Whether the schema describes what flow takes (an argument) or what it gives (a result): an entity
  /// is taken as its id or title, and given as the object of its properties.
  public enum Direction: Sendable {
    case input, output
  }

  /// The schema of a value of `type`.
  public static func schema(for type: ValueType, _ direction: Direction) -> FlowValue {
    .dictionary(properties(of: type, direction, depth: 0))
  }

  private static func properties(of type: ValueType, _ direction: Direction, depth: Int) -> FlowDictionary {
    switch type {
    case .text: return ["type": "string"]
    case .number: return ["type": "number"]
    case .integer: return ["type": "integer"]
    case .boolean: return ["type": "boolean"]
    case .date:
      // flow writes dates in UTC with seconds (DateParsing.format); it reads a plain date too.
      return direction == .output
        ? ["type": "string", "format": "date-time"]
        : ["type": "string", "description": "A date: 2026-11-21 or 2026-11-21T14:30:00Z."]
    case .url: return ["type": "string", "format": "uri"]
    case .duration:
      // A duration is a number of seconds once read (the coercion table), and is given back so.
      return direction == .output
        ? ["type": "number", "description": "Seconds."]
        : ["type": ["string", "number"], "description": "A duration: 30s, 2m, 1h30m, or a number of seconds."]
    case .list(let element):
      return ["type": "array", "items": .dictionary(properties(of: element, direction, depth: depth))]
    case .dictionary: return ["type": "object"]
    case .enumeration(let enumeration):
      return [
        "type": "string",
        "enum": .list(enumeration.cases.map { .text($0.id) }),
        "description": .text(
          "\(enumeration.name): " + enumeration.cases.map { "\($0.id) (\($0.title))" }.joined(separator: ", ") + "."),
      ]
    case .entity(let entity):
      guard direction == .output else {
        // Found through the entity's query when the run needs it, as a workflow file's text is.
        return ["type": ["string", "integer"], "description": .text("A \(entity.name): its id or its title.")]
      }
      // Entities refer to each other (a bookmark's collection): one level of properties is described,
      // deeper ones are objects.
      guard depth == 0 else { return ["type": "object", "title": .text(entity.name)] }
      var fields: FlowDictionary = ["id": ["type": ["string", "integer"]], "title": ["type": "string"]]
      for property in entity.properties where fields[property.key] == nil {
        var field = properties(of: property.type, direction, depth: depth + 1)
        field["title"] = .text(property.title)
        fields[property.key] = .dictionary(field)
      }
      return [
        "type": "object", "title": .text(entity.name), "properties": .dictionary(fields), "required": ["id", "title"],
      ]
    case .any: return [:]
    case .nothing: return ["type": "null"]
    }
  }

  /// A tool's `outputSchema` for a result of `type`: an object holding it as `result`, since the
  /// protocol's structured content is always an object (the convention of the Python SDK, whose tools
  /// returning a plain value are described the same way). Nil when there is no result to describe.
  public static func output(_ type: ValueType?) -> FlowValue? {
    guard let type, type != .nothing else { return nil }
    return [
      "type": "object",
      "properties": ["result": schema(for: type, .output)],
      "required": ["result"],
    ]
  }

  /// A result as the `structuredContent` that ``output(_:)`` describes.
  public static func structured(_ value: FlowValue) -> FlowValue {
    ["result": value]
  }

  /// What `elicitation/create` may ask for a value of `type`: the protocol allows only flat primitives
  /// (text with a format, number, integer, boolean, a choice). Anything else is asked for as text,
  /// which flow's coercion then reads as it reads a typed answer at a terminal.
  public static func elicited(_ type: ValueType) -> FlowDictionary {
    switch type {
    case .number: return ["type": "number"]
    case .integer: return ["type": "integer"]
    case .boolean: return ["type": "boolean"]
    case .url: return ["type": "string", "format": "uri"]
    case .date: return ["type": "string", "format": "date"]
    case .enumeration(let enumeration):
      return [
        "type": "string",
        "enum": .list(enumeration.cases.map { .text($0.id) }),
        "enumNames": .list(enumeration.cases.map { .text($0.title) }),
      ]
    default: return ["type": "string"]
    }
  }
}
