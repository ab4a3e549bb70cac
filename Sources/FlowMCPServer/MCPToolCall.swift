import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowMCP
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowSession
import FoundationEssentials
import Synchronization

/// What a `tools/call` gives back: the protocol's `CallToolResult`.
public struct ToolResult: Sendable, Equatable {
  /// Text blocks: what the run showed, then the result (its JSON when there is structured content), or
  /// the diagnostics of a failure.
  public var texts: [String]
  public var structured: FlowValue?
  public var isError: Bool

  public var value: FlowValue {
    var result: FlowDictionary = [
      "content": .list(texts.map { ["type": "text", "text": .text($0)] })
    ]
    if let structured { result["structuredContent"] = structured }
    if isError { result["isError"] = true }
    return .dictionary(result)
  }

  /// This result with the run's secrets masked (`secrets:`).
  func masked(_ mask: SecretMask) -> ToolResult {
    guard !mask.isEmpty else { return self }
    return ToolResult(texts: texts.map { mask($0) }, structured: structured.map { mask($0) }, isError: isError)
  }

  /// A failure, its diagnostics rendered as `flow run` prints them (without colour).
  public static func failure(_ diagnostics: Diagnostics) -> ToolResult {
    ToolResult(texts: [DiagnosticRenderer(colors: false).render(diagnostics)], structured: nil, isError: true)
  }
}

/// What the server knows of its client that a run needs.
public struct CallingClient: Sendable {
  /// Whether questions can go to the client's person (`elicitation` declared, in form mode), and
  /// `--no-input` was not given.
  public var elicits: Bool
  /// Sends an `elicitation/create` and waits for the answer.
  public var elicit: @Sendable (_ message: String, _ schema: FlowValue) async throws -> Elicited
  /// Sends a `notifications/progress` for the call's token, when the client gave one.
  public var progress: (@Sendable (_ progress: Int, _ message: String) -> Void)?

  public init(
    elicits: Bool, elicit: @escaping @Sendable (_ message: String, _ schema: FlowValue) async throws -> Elicited,
    progress: (@Sendable (_ progress: Int, _ message: String) -> Void)?
  ) {
    self.elicits = elicits
    self.elicit = elicit
    self.progress = progress
  }
}

/// One `tools/call`: a library workflow run as `flow run` runs it, or an action run as `flow do` runs
/// it, in this process, with the client in place of the terminal: questions become elicitations (or,
/// for a client without them, a tool error naming what was needed), what the run shows and its result
/// come back as the tool's content, and the run is recorded in history with trigger `mcp` under the
/// workflow's lock.
public struct MCPToolCall: Sendable {
  /// The server's context: its console writes only to standard error.
  public let context: SessionContext
  public let options: ActionSettings
  public let client: CallingClient

  public init(context: SessionContext, options: ActionSettings, client: CallingClient) {
    self.context = context
    self.options = options
    self.client = client
  }

  // MARK: - Workflows

  public func runWorkflow(at path: String, arguments: [String: FlowValue]) async -> ToolResult {
    let registry = Catalogs.registry
    let locator = WorkflowLocator(context: context)
    let runID = UUID().uuidString.lowercased()
    let (check, loaded, diagnostics) = locator.checkToRun(path, in: context)
    let session: RunSession
    do {
      session = try RunSession(context, trigger: .mcp, runID: runID, workflow: path)
    } catch {
      return .failure(Diagnostics([error]))
    }
    guard let loaded, !diagnostics.hasErrors else { return finish(session, .invalid, diagnostics) }
    do {
      try session.begin(loaded)
    } catch {
      return finish(session, error.code == .alreadyRunning ? .skipped : .invalid, Diagnostics([error]))
    }
    // Secrets are read before step 1; nothing the client gets back carries their values.
    var secrets: [String: String] = [:]
    let declared = SecretStore.declared(in: loaded, check: check)
    if !declared.isEmpty {
      do throws(RunError) {
        let read = try SecretStore(context: context).readForRun(declared)
        secrets = read.values
        if !read.warnings.isEmpty { context.report(Diagnostics(read.warnings)) }
      } catch {
        return finish(session, ExitStatus(error.kind), error.diagnostics)
      }
      session.addSecrets(Array(secrets.values))
    }
    let mask = SecretMask(secrets: Array(secrets.values))
    let inputNames = Set(loaded.inputs.map(\.name.value))
    let asks = client.elicits && !options.noInput
    var prompter: any Prompter =
      asks
      ? ElicitingPrompter(secretInputs: Set(loaded.inputs.filter(\.secret).map(\.name.value)), elicit: client.elicit)
      : NoElicitationPrompter(inputNames: inputNames)
    // `confirmations: auto` answers when nobody can (SPEC §5); a client that asks has somebody. The
    // same policy as `flow run`'s: auto never confirms what only a person may.
    prompter = ConfirmationPolicy.prompter(
      prompter, yes: options.yes, auto: loaded.confirmations == .auto, somebodyAnswers: asks)
    prompter = session.prompter(prompter)
    let observer = MCPRunObserver(progress: client.progress)
    let services: IntentContext
    do {
      services = try options.intentContext(context, prompter: prompter) { use in
        context.console.write(use.line + "\n", to: .error)
      }
    } catch {
      return finish(session, .invalid, Diagnostics([error]))
    }
    do {
      let contract = RunContract(loaded, check: check, context: context)
      try await contract.approve(loaded, prompter: prompter, yes: options.yes)
      try InputResolver.checkGiven(loaded, given: arguments, registry: registry)
      if !asks {
        let answers = UnattendedCheck.Answers(
          inputs: Set(arguments.keys), yes: options.yes, workflow: loaded, values: arguments)
        let needed = UnattendedCheck.check(loaded, answers: answers, registry: registry, loader: check)
        if needed.hasErrors { throw RunError(.needsInput, MCPHelp.reworded(needed, inputs: inputNames)) }
      }
      let inputs = try await InputResolver.resolve(loaded, given: arguments, registry: registry, prompter: prompter)
      session.addSecrets(inputs, of: loaded)
      var interpreterOptions = Interpreter.Options()
      interpreterOptions.environment = context.environment
      interpreterOptions.secrets = secrets
      interpreterOptions.runID = runID
      interpreterOptions.limits = session.limits
      // MCP servers as `flow run` has them (Documentation/MCP.md): those the file's own steps name start
      // now and are compared with their caches; any other starts on first use; all end with the call.
      let servers = ServerSessions(paths: context.paths, prompter: prompter, environment: context.environment)
      let result = try await servers.serving(ServerSessions.toolUses(in: loaded, builtIn: Catalogs.builtIn)) {
        let interpreter = Interpreter(
          registry: registry, context: contract.hold(services).with(servers), loader: check,
          observer: session.observer(observer), options: interpreterOptions)
        return try await interpreter.run(loaded, inputs: inputs)
      }
      session.finish(.success, diagnostics: Diagnostics())
      return observer.result(result.output, structured: ToolSchema.output(check.resultType(of: loaded)) != nil)
        .masked(mask)
    } catch let error as RunError {
      return finish(session, ExitStatus(error.kind), error.diagnostics).masked(mask)
    } catch {
      // Only RunError comes out of the run; anything else is a cancellation on the way in.
      return finish(
        session, .cancelled, Diagnostics([Diagnostic(.error, .cancelled, "the run was cancelled", file: path)]))
    }
  }

  private func finish(_ session: RunSession, _ status: ExitStatus, _ diagnostics: Diagnostics) -> ToolResult {
    session.finish(status, diagnostics: diagnostics)
    return .failure(diagnostics)
  }

  // MARK: - Actions

  /// An action of the catalogue (`flow mcp --actions`), recorded as `flow do` records one: a one-step
  /// run under the action's id.
  public func runAction(_ descriptor: IntentDescriptor, arguments: [String: FlowValue]) async -> ToolResult {
    let session: RunSession
    do {
      session = try RunSession(context, action: descriptor.id, runID: UUID().uuidString.lowercased(), trigger: .mcp)
    } catch {
      return .failure(Diagnostics([error]))
    }
    session.beginAction()
    let asks = client.elicits && !options.noInput
    var prompter: any Prompter =
      asks ? ElicitingPrompter(elicit: client.elicit) : NoElicitationPrompter(inputNames: [], action: true)
    prompter = session.prompter(
      ConfirmationPolicy.prompter(prompter, yes: options.yes, auto: false, somebodyAnswers: asks))
    let reporter = MCPRunObserver(progress: client.progress)
    let services: IntentContext
    do {
      services = try options.intentContext(context, prompter: prompter) { use in
        context.console.write(use.line + "\n", to: .error)
      }
    } catch {
      return finish(session, .invalid, Diagnostics([error]))
    }
    let (observer, step) = (session.observer(reporter), StepInfo(position: "1", label: descriptor.id))
    observer.record(.started(step))
    // A server's tool (`--actions` offers them by id) starts its server for this call alone.
    let servers = ServerSessions(paths: context.paths, prompter: prompter, environment: context.environment)
    do {
      let output = try await servers.serving(ServerSessions.toolUses(of: descriptor.id, builtIn: Catalogs.builtIn)) {
        let held = RunContract.holding(services, toAction: descriptor.id, values: arguments)
        return try await descriptor.run(values: arguments, context: held.with(servers))
      }
      if let dialog = output.dialog { observer.record(.dialog(dialog, step)) }
      observer.record(
        .finished(
          StepRecord(step: "1", action: descriptor.id, status: .ran, output: output.value.typeName, value: output.value)
        ))
      session.finish(.success, diagnostics: Diagnostics())
      return reporter.result(output.value, structured: ToolSchema.output(descriptor.outputType) != nil)
    } catch let error as RunError {
      // The server's cache no longer matches it, or it did not start: nothing was called.
      return finish(session, ExitStatus(error.kind), error.diagnostics)
    } catch {
      let (message, help) = AppIntentError.describe(error)
      let diagnostic = Diagnostic(.error, .stepFailed, "\(descriptor.id): \(message)", file: nil).help(help)
      return finish(session, ExitStatus(RunError.classify(error)), Diagnostics([diagnostic]))
    }
  }
}

/// Collects what a run shows for the tool's content, and reports each step's start, and the progress a
/// step's action reports, as progress when the client asked for progress.
public final class MCPRunObserver: RunObserver, @unchecked Sendable {
  private let progress: (@Sendable (Int, String) -> Void)?
  private let lock = Mutex(())
  private var shown: [String] = []
  private var warnings = Diagnostics()
  private var started = 0

  public init(progress: (@Sendable (Int, String) -> Void)?) {
    self.progress = progress
  }

  public var recordsSteps: Bool { false }

  public func record(_ event: RunEvent) {
    switch event {
    case .started(let info):
      guard let progress else { return }
      let count = lock.withLock { _ in
        started += 1
        return started
      }
      progress(count, info.description)
    case .progress(let info, let report):
      // A step's own progress (a server's tool it calls) goes on to the client with the step's, counted
      // on the same token, which the protocol wants to grow with every notification.
      guard let progress else { return }
      let count = lock.withLock { _ in
        started += 1
        return started
      }
      var words = info.description
      if let total = report.total {
        words += " \(FlowValue.formatNumber(report.completed))/\(FlowValue.formatNumber(total))"
      }
      if let message = report.message { words += ": " + message }
      progress(count, words)
    case .dialog(let text, _):
      lock.withLock { _ in shown.append(text) }
    case .finished(let record):
      if let warning = record.warning { lock.withLock { _ in warnings.append(warning) } }
    case .loopProgress, .progressEnded, .runFailed:
      // The failure itself comes back as the tool's error; on-failure steps' dialogs come as dialogs.
      break
    }
  }

  /// The tool's result for a run that produced `output`: what it showed, the failures it went past
  /// (`on-error: continue`), and the output, as `structuredContent` with its JSON in a text block (the
  /// protocol's advice for clients that read only text) when the tool has an output schema, else as text.
  public func result(_ output: FlowValue, structured: Bool) -> ToolResult {
    var texts = lock.withLock { _ in shown }
    let warnings = lock.withLock { _ in self.warnings }
    if !warnings.isEmpty { texts.append(DiagnosticRenderer(colors: false).render(warnings)) }
    guard structured else {
      if case .list(let items) = output {
        texts.append(items.map(\.text).joined(separator: "\n"))
      } else if output != .nothing {
        texts.append(output.text)
      }
      return ToolResult(texts: texts, structured: nil, isError: false)
    }
    let content = ToolSchema.structured(output)
    texts.append(JSON.encode(content))
    return ToolResult(texts: texts, structured: content, isError: false)
  }
}
