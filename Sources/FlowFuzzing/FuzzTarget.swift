/// The parts of flow the fuzzing harness feeds arbitrary bytes (CONTRIBUTING.md): each through the entry
/// point the command line uses, in-process, writing nothing. `flow-fuzz` hands them to libFuzzer, and
/// `FlowFuzzingTests` replays every input that once crashed one (Tests/FuzzRegressions/<target>/).
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// A whole file as `flow validate`, `flow show` and `flow import` take it: signature, YAML, decoder,
  /// checker, card analysis and every renderer of the result.
  case check
  /// A YAML document whose every scalar is parsed as a template and every node as a condition.
  case templates
  /// A `calculate` expression, as the step evaluates it.
  case calculate
  /// A cron expression, as `flow schedule explain` and a workflow's `schedule:` take it, and its fires.
  case cron
  /// A shared file's signature block, as `SignedFile.verify` reads it, and a trusted key's line.
  case signature
  /// An HTTP/1.1 request to `flow mcp --http`: request line, headers, Content-Length or chunked body, and
  /// the Origin, Host and Accept checks.
  case httpRequest = "http-request"
  /// JSON text, as `JSON.parse` and MCP's message decoding take it.
  case json
  /// A server-sent event stream, as the MCP client reads an answer.
  case sse
  /// Messages from the D-Bus session bus.
  case dbus
  /// CSV text, as `parse-csv` reads it.
  case csv
  /// Durations, numbers and dates as workflows and inputs write them.
  case numbers
  /// `if:` and `when:` conditions, parsed and evaluated against generated values.
  case conditions
  /// The card's soundness (issue 28): a workflow generated from the bytes, run for real in a sandbox
  /// held to its card; a step refused as "not on the card" is the finding.
  case card

  /// Runs one input where a caller may not block (a test on Swift's cooperative threads): the card's
  /// run is awaited rather than waited for.
  public func check(_ bytes: [UInt8]) async {
    if self == .card { await CardTarget.check(bytes) } else { run(bytes) }
  }

  /// Runs one input. Returns normally whatever the input holds; a crash or a hang is the finding.
  public func run(_ bytes: [UInt8]) {
    switch self {
    case .check: CheckTarget.run(bytes)
    case .templates: TemplateTarget.run(bytes)
    case .calculate: CalculateTarget.run(bytes)
    case .cron: CronTarget.run(bytes)
    case .signature: SignatureTarget.run(bytes)
    case .httpRequest: HTTPRequestTarget.run(bytes)
    case .json: JSONTarget.run(bytes)
    case .sse: EventStreamTarget.run(bytes)
    case .dbus: DBusTarget.run(bytes)
    case .csv: CSVTarget.run(bytes)
    case .numbers: NumbersTarget.run(bytes)
    case .conditions: ConditionsTarget.run(bytes)
    case .card: CardTarget.run(bytes)
    }
  }
}
