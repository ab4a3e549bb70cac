import FlowDiagnostics
import FlowIntents
import FlowRuntime
import FlowSession
import FoundationEssentials

/// What `flow run --json` and `flow do --json` print: how the run ended and everything it produced.
struct RunReport: Encodable {
  var status: String
  var exitCode: Int32
  /// `local` or `raindrop`: the backend the run opened; absent when it opened none.
  var backend: String?
  /// Why that backend: `--backend`, `config file`, or whether a token is configured.
  var backendReason: String?
  /// The run's result: the value given to `stop`, or else the last step's output.
  var output: JSONValue?
  var shown: [String]
  var steps: [StepRecord]
  /// Errors, and the warnings of steps that failed with `on-error: continue`.
  var diagnostics: [Diagnostic]

  init(_ status: ExitStatus, output: FlowValue?, reporter: RunReporter?, diagnostics: Diagnostics) {
    self.status = status.name
    exitCode = status.rawValue
    backend = reporter?.backend?.choice.rawValue
    backendReason = reporter?.backend?.reason.explanation
    self.output = output.map(JSONValue.init)
    shown = reporter?.shown ?? []
    steps = reporter?.records ?? []
    var all = reporter?.warnings ?? Diagnostics()
    all.append(contentsOf: diagnostics)
    self.diagnostics = all.sorted()
  }
}

extension ExitStatus {
  /// The status as `--json` names it.
  var name: String {
    switch self {
    case .success: "success"
    case .stepFailed: "step-failed"
    case .invalid: "invalid"
    case .cancelled: "cancelled"
    case .needsInput: "needs-input"
    case .backendUnavailable: "backend-unavailable"
    case .skipped: "skipped"
    }
  }
}

/// A value as JSON for `--json`: entities become objects with their type, id, title and properties.
struct JSONValue: Encodable {
  let value: FlowValue

  init(_ value: FlowValue) { self.value = value }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    switch value {
    case .list(let items):
      var container = encoder.unkeyedContainer()
      for item in items { try container.encode(JSONValue(item)) }
    case .dictionary(let dictionary):
      var container = encoder.container(keyedBy: Key.self)
      for (key, item) in dictionary { try container.encode(JSONValue(item), forKey: Key(key)) }
    case .entity(let entity):
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(entity.typeName, forKey: Key("type"))
      try container.encode(JSONValue(entity.id), forKey: Key("id"))
      try container.encode(entity.title, forKey: Key("title"))
      for (key, item) in entity.properties where !["type", "id", "title"].contains(key) {
        try container.encode(JSONValue(item), forKey: Key(key))
      }
    default:
      var container = encoder.singleValueContainer()
      switch value {
      case .number(let number):
        if number == number.rounded(), abs(number) < 1e15 {
          try container.encode(Int64(number))
        } else {
          try container.encode(number)
        }
      case .boolean(let bool): try container.encode(bool)
      case .nothing: try container.encodeNil()
      default: try container.encode(value.text)
      }
    }
  }
}
