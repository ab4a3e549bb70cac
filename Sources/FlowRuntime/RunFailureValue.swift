import FlowDiagnostics
import FlowIntents
import FlowModel

/// `${run.error}`: what made the run fail, as the steps of `on-failure:` see it.
///
/// An entity, so that the checker knows its properties before the run (`${run.error.mesage}` is an
/// error with "did you mean") and so that as text it reads as the one-line diagnostic a person would
/// see first: `digest.yml:7:13: error: step 2 'get-url': the server answered 503`.
public enum RunFailureValue {
  /// The type of `${run.error}`.
  public static let type = ValueType.entity(
    EntityType(name: "Error") {
      [
        PropertySchema(key: "message", title: "Message", type: .text),
        PropertySchema(key: "step", title: "Step", type: .text),
        PropertySchema(key: "position", title: "Position", type: .text),
        PropertySchema(key: "action", title: "Action", type: .text),
        PropertySchema(key: "place", title: "Place", type: .text),
        PropertySchema(key: "file", title: "File", type: .text),
        PropertySchema(key: "line", title: "Line", type: .integer),
        PropertySchema(key: "column", title: "Column", type: .integer),
        PropertySchema(key: "code", title: "Code", type: .text),
        PropertySchema(key: "status", title: "Exit Status", type: .integer),
        PropertySchema(key: "stderr", title: "Standard Error", type: .text),
      ]
    })

  /// The value of `${run.error}` for `error`, which ended the run in `step` (nil when it ended outside
  /// any step). Properties a failure has no value for are empty text (or nothing, for line and column),
  /// never missing, so `${run.error.step}` is valid whatever failed.
  public static func value(of error: RunError) -> FlowValue {
    let lead = error.diagnostics.all.first { $0.severity == .error } ?? error.diagnostics.all.first
    let span = lead?.span
    let file = span?.file.path ?? lead?.path ?? ""
    let place = span.map { "\($0.file.path):\($0.start.line):\($0.start.column)" } ?? file
    // The header line of the one renderer, without its excerpt: what a person reads first.
    let line = lead.map { DiagnosticRenderer().render($0).prefix { $0 != "\n" } }.map(String.init) ?? "the run failed"
    // The message without the step it names (`step 2 'calculate': `): `step` says that.
    var message = lead?.message ?? "the run failed"
    if let step = error.step, message.hasPrefix(step.description + ": ") {
      message.removeFirst(step.description.count + 2)
    }
    let properties: [(key: String, value: FlowValue)] = [
      ("message", .text(message)),
      ("step", .text(error.step?.description ?? "")),
      ("position", .text(error.step?.position ?? "")),
      ("action", .text(error.step?.label ?? "")),
      ("place", .text(place)),
      ("file", .text(file)),
      ("line", span.map { .number(Double($0.start.line)) } ?? .nothing),
      ("column", span.map { .number(Double($0.start.column)) } ?? .nothing),
      ("code", .text(lead?.code.rawValue ?? "")),
      ("status", error.exitStatus.map { .number(Double($0)) } ?? .nothing),
      ("stderr", .text(error.standardError ?? "")),
    ]
    return .entity(
      EntityValue(typeName: "Error", id: .text(place), title: line, properties: FlowDictionary(properties)))
  }
}
