import ArgumentParser
import FlowBasics
import FlowDiagnostics
import FlowHTTP
import FlowHistory
import FlowIntents
import FlowLibrary
import FlowModel
import FlowRuntime
import FlowSession
import FlowSystem
import FlowYAML
import FoundationEssentials
import Glibc
import RaindropIntents
import RaindropModel

/// `flow run` as a plain value, and the run itself: what `RunCommand` parses, or what
/// ``plain(_:)`` reads without ArgumentParser (Performance.md).
struct RunRequest: Sendable, Equatable {
  var workflow: String
  /// `--input NAME=VALUE`, in order.
  var inputs: [String] = []
  var inputFile: String?
  var action = ActionSettings()
  var dryRun = false
  /// `--dry-run=reads`: the dry run makes GET requests (by default it contacts no host a step names,
  /// since a GET can be a webhook).
  var dryRunReads = false
  var json = false
  var trigger: RunTrigger = .manual
  /// `--trigger-event KEY=VALUE`, in order: run as if the workflow's trigger fired (``TriggerEvent``).
  var triggerEvents: [String] = []
  var noHistory = false
  var wait = false
  /// `--await-trigger`: the scheduler's warm run, checked before its trigger fires and handed the
  /// `--trigger-event` values on standard input when it does (``TriggerHandOver``).
  var awaitsTrigger = false

  /// `flow run WORKFLOW` with on/off flags and the options people, scripts and the scheduler give
  /// (`--input NAME=VALUE`, `--input-file FILE`, `--trigger cron`, `--backend raindrop`), parsed without
  /// ArgumentParser, or nil for anything else (which ArgumentParser parses).
  ///
  /// ArgumentParser reads a command by reflecting over it, its option groups and each option's type, and
  /// each of those casts and generic types makes the Swift runtime scan all 7,000 protocol conformances
  /// in the binary once: 25 scans, 12 M instructions, 40% of a one-step run (with `--input`, as the
  /// README's first command has it, 13.6 M of 31 M; every crontab line and systemd unit flow writes
  /// passes `--trigger`). Even making a `RunCommand` without parsing cost three (its property
  /// wrappers' types): a plain run makes none. Every other form (other options, help, errors, a value
  /// that is empty, missing, starts with `-` or names no trigger or backend, an option given twice) still
  /// reads as ArgumentParser has it. `StartupTests.plainRunsParseAsArgumentParserParsesThem` checks that
  /// the two give the same request for every combination of these flags and values.
  static func plain(_ arguments: ArraySlice<String>) -> RunRequest? {
    var workflow: String?
    var flags: Set<String> = []
    var inputs: [String] = []
    var inputFile: String?
    var trigger: RunTrigger?
    var triggerEvents: [String] = []
    var backend: BackendChoice?
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      guard argument.hasPrefix("-") else {
        // `help` reads as a request for help; an empty name gets ArgumentParser's own answer.
        guard workflow == nil, !argument.isEmpty, argument != "help" else { return nil }
        workflow = argument
        continue
      }
      // An option's value: attached after `=`, or the next argument.
      var name = argument[...]
      var attached: String?
      if let equals = argument.firstIndex(of: "=") {
        name = argument[..<equals]
        attached = String(argument[argument.index(after: equals)...])
      }
      guard ["--input", "--input-file", "--trigger", "--trigger-event", "--backend"].contains(name) else {
        guard attached == nil, plainFlags.contains(argument), flags.insert(argument).inserted else { return nil }
        continue
      }
      guard let value = attached ?? rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else { return nil }
      switch name {
      case "--input": inputs.append(value)
      case "--trigger-event": triggerEvents.append(value)
      case "--input-file" where inputFile == nil: inputFile = value
      case "--trigger" where trigger == nil:
        guard let named = RunTrigger(rawValue: value) else { return nil }
        trigger = named
      case "--backend" where backend == nil:
        guard let named = BackendChoice(rawValue: value) else { return nil }
        backend = named
      default: return nil
      }
    }
    guard let workflow else { return nil }
    return RunRequest(
      workflow: workflow, inputs: inputs, inputFile: inputFile,
      action: ActionSettings(yes: flags.contains("--yes"), noInput: flags.contains("--no-input"), backend: backend),
      dryRun: flags.contains("--dry-run") || flags.contains("--dry-run-reads"),
      dryRunReads: flags.contains("--dry-run-reads"), json: flags.contains("--json"), trigger: trigger ?? .manual,
      triggerEvents: triggerEvents, noHistory: flags.contains("--no-history"), wait: flags.contains("--wait"),
      awaitsTrigger: flags.contains("--await-trigger"))
  }

  /// The flags ``plain(_:)`` reads that take no value.
  static let plainFlags: Set<String> = [
    "--yes", "--no-input", "--dry-run", "--dry-run-reads", "--json", "--no-history", "--wait", "--await-trigger",
  ]

  func run() async throws {
    guard trigger == .launcher else { return try await perform() }
    // Started from the launcher: nobody sees the terminal, so the run ends in a notification.
    let context = SessionContext.current
    var launched = context
    let runID = context.environment["FLOW_RUN_ID"] ?? UUID().uuidString.lowercased()
    launched.environment["FLOW_RUN_ID"] = runID
    let notice = LauncherNotice()
    let entries = LauncherEntries(context: context)
    let icon = entries.iconFile(workflow).path
    func post() async {
      await notice.post(
        reference: workflow, runID: runID, icon: FileManager.default.fileExists(atPath: icon) ? icon : "",
        notifications: DBusNotifications(environment: context.environment, uid: getuid()), console: context.console)
    }
    do {
      try await Self.$launcherNotice.withValue(notice) {
        try await SessionContext.$current.withValue(launched) { try await perform() }
      }
    } catch {
      // An entry whose workflow left the library goes with it.
      if !WorkflowLocator(context: context).libraryWorkflows.contains(where: { $0.name == workflow }) {
        entries.remove(workflow)
      }
      await post()
      throw error
    }
    await post()
  }

  /// What a run from the launcher ends with, collected for its notification.
  @TaskLocal static var launcherNotice: LauncherNotice?

  private func perform() async throws {
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    if awaitsTrigger { return try await serveFirings(locator: locator, context: context) }
    let (check, loaded, diagnostics) = locator.checkToRun(workflow, in: context)
    try await perform(
      check: check, loaded: loaded, diagnostics: diagnostics, triggerEvents: triggerEvents,
      runID: context.environment["FLOW_RUN_ID"] ?? UUID().uuidString.lowercased(), locator: locator, context: context)
  }

  /// `--await-trigger`: the scheduler's warm run (Automations.md, "Warm runs"). It checks the workflow
  /// before anything fires, then runs each firing the scheduler hands it (``TriggerHandOver``) as a run
  /// of its own, with its own id and record, until its input ends. Should a file the check read change
  /// meanwhile, it is read and checked again, so a run is of the workflow as it is when its trigger fires;
  /// the workflow's own file is stamped before it is read too, as an edit can land between the read and
  /// the stamps taken after the check.
  private func serveFirings(locator: WorkflowLocator, context: SessionContext) async throws {
    guard let handOver = TriggerHandOver() else {
      throw ValidationError("--await-trigger is the scheduler's: a run started so is handed its firings on pipes")
    }
    RunHistory.movesPendingWhenIdle.store(true, ordering: .relaxed)
    func stamp() -> FileStamp? { locator.locate(workflow).flatMap { FileStamp(path: $0) } }
    var before = stamp()
    var (check, loaded, diagnostics) = locator.checkToRun(workflow, in: context)
    var read = stamps(check, loaded, locator: locator)
    // What a firing's run first does is rehearsed now and thrown away: the runtime's first instantiation
    // of the types a parse and the card's analysis use is most of their cost, paid ahead of the firing.
    if let loaded, let kind = loaded.triggers.first?.kind {
      _ = try? TriggerEvent.parse(
        TriggerEvent.rehearsal(of: kind), for: loaded, directory: context.workingDirectory, now: context.clock.now
      ).value
      _ = RunContract(loaded, check: check, context: context).set
    }
    while let firing = handOver.next() {
      let now = stamp()
      if now != before || stamps(check, loaded, locator: locator) != read {
        before = now
        (check, loaded, diagnostics) = locator.checkToRun(workflow, in: context)
        read = stamps(check, loaded, locator: locator)
      }
      var run = context
      run.environment["FLOW_RUN_ID"] = firing.runID
      var status: Int32 = 0
      do {
        try await SessionContext.$current.withValue(run) {
          try await perform(
            check: check, loaded: loaded, diagnostics: diagnostics, triggerEvents: firing.values,
            runID: firing.runID, locator: locator, context: run)
        }
      } catch let exit as ExitCode {
        status = exit.rawValue
      }
      handOver.ended(status)
      // Cancelled (SIGTERM, Ctrl-C): the scheduler is stopping, and so does this.
      if Task.isCancelled { throw ExitCode(status) }
      // Run history's upkeep, once firings have paused: the scheduler hands the next firing of a burst
      // over as soon as it hears of this run's end, so a pause of 50 ms is the end of the burst.
      if !handOver.firingComes(within: 50), RunHistory.exists(at: context.paths.history),
        let history = try? RunHistory(file: context.paths.history)
      {
        history.ingestIfLarge()
      }
      // The MCP servers' tools are read once a process, from caches `flow servers` may refresh: a
      // workflow that calls them runs one firing a process, each with what the caches say then.
      if let loaded, !ServerSessions.toolUses(in: loaded, builtIn: Catalogs.builtIn).isEmpty { return }
    }
  }

  /// One run of the checked workflow: what fired, the session and its record, then the steps.
  private func perform(
    check: WorkflowCheck, loaded: Workflow?, diagnostics: Diagnostics, triggerEvents: [String], runID: String,
    locator: WorkflowLocator, context: SessionContext
  ) async throws {
    var context = context
    let registry = Catalogs.registry
    // What fired, read against the workflow's triggers before the session, which records it.
    var event: TriggerEvent?
    var eventProblem: Diagnostic?
    // Only for a workflow that something can start: a plain run pays nothing here.
    if let loaded, !diagnostics.hasErrors,
      !triggerEvents.isEmpty || !loaded.triggers.isEmpty || !loaded.schedule.isEmpty
    {
      let clockEvent = loaded.schedule.isEmpty ? nil : TriggerEvent.arguments(startedBy: trigger)
      if let arguments = triggerEvents.isEmpty ? clockEvent : triggerEvents {
        do throws(Diagnostic) {
          event = try TriggerEvent.parse(
            arguments, for: loaded, directory: context.workingDirectory, now: context.clock.now)
        } catch {
          eventProblem = error
        }
      } else if let read = check.triggerRead(of: loaded) {
        eventProblem = TriggerEvent.needed(at: read, by: loaded, invokedAs: workflow)
      }
    }
    // The session: config.yml read, the workflow's file found and resolved, history's folder made. Made
    // after the check, in turn: it once opened beside the check in an `async let`, which a run whose
    // tasks all run on the main thread (MainThreadExecutor) would only pay a child task for.
    let session: RunSession
    let runTrigger = trigger == .manual ? event?.runTrigger ?? trigger : trigger
    do throws(Diagnostic) {
      session = try RunSession(
        context, trigger: runTrigger, triggerDetail: event?.summary,
        recorded: !noHistory && !dryRun, wait: wait, runID: runID, workflow: dryRun ? nil : locator.locate(workflow))
    } catch {
      return try finish(.invalid, diagnostics: Diagnostics([error]), output: nil, reporter: nil, context: context)
    }
    if trigger == .launcher, let name = loaded?.name { Self.launcherNotice?.named(name) }
    // A run nobody started by hand (a schedule, a trigger, cron, a timer) that stops before step 1 still
    // runs `on-failure:`, so the person hears of it; one by hand shows the error, as it always has.
    let unattended = runTrigger != .manual && !dryRun
    var notRun = diagnostics.hasErrors ? diagnostics : Diagnostics()
    if let eventProblem { notRun.append(eventProblem) }
    guard let loaded, !notRun.hasErrors || (unattended && loaded.onFailureRuns(despite: notRun)) else {
      if let name = loaded?.name { session.name(name) }
      // No `on-failure:` could run: a file that does not read as a workflow, or whose `on-failure:` is
      // itself wrong, says so on the desktop instead.
      // (A run from the launcher notifies its own end.)
      if unattended, trigger != .launcher, loaded?.onFailure.isEmpty != true {
        await AutomationNotices(notifications: DBusNotifications(environment: context.environment, uid: getuid()))
          .notRun(loaded?.name ?? Self.fileName(workflow), icon: loaded?.icon, diagnostics: notRun, runID: runID)
      }
      return try finish(
        .invalid, diagnostics: notRun, output: nil, reporter: nil, session: session, context: context)
    }
    let invalid = notRun.hasErrors ? RunError(.invalid, notRun) : nil
    if invalid == nil, !diagnostics.isEmpty, !json { context.report(diagnostics) }
    do {
      try session.begin(loaded)
    } catch {
      let status: ExitStatus = error.code == .alreadyRunning ? .skipped : .invalid
      return try finish(
        status, diagnostics: Diagnostics([error]), output: nil, reporter: nil, session: session, context: context)
    }

    // Secrets (`secrets:`) are read before step 1, and from then on nothing printed shows their values.
    var secrets: [String: String] = [:]
    let declared = SecretStore.declared(in: loaded, check: check)
    if !declared.isEmpty {
      if dryRun {
        for name in declared { secrets[name.value] = Redactor.shownMask }
      } else {
        do throws(RunError) {
          let read = try SecretStore(context: context).readForRun(declared)
          secrets = read.values
          if !read.warnings.isEmpty, !json { context.report(Diagnostics(read.warnings)) }
        } catch {
          return try finish(
            ExitStatus(error.kind), diagnostics: error.diagnostics, output: nil, reporter: nil, session: session,
            context: context)
        }
        session.addSecrets(Array(secrets.values))
        context.console = RedactingConsole(context.console, secrets: Array(secrets.values))
      }
    }

    let prompter = session.prompter(
      action.prompter(
        context, inputNames: Set(loaded.inputs.map(\.name.value)), quiet: json, confirmAll: dryRun,
        confirmUnattended: loaded.confirmations == .auto, title: loaded.name))
    let reporter = RunReporter(console: context.console, json: json, renderer: context.diagnosticRenderer)
    let (console, json) = (context.console, json)
    let services: IntentContext
    do {
      services = try action.intentContext(
        context, prompter: prompter, readOnly: dryRun, limits: session.limits
      ) { use in
        reporter.backend = use
        if !json { console.write(use.line + "\n", to: .error) }
      }
    } catch {
      return try finish(
        .invalid, diagnostics: Diagnostics([error]), output: nil, reporter: nil, session: session, context: context)
    }
    // A triggered run nobody started at a terminal: `run: ask` and `notify-when-run:` (SPEC §10).
    let notices = event.flatMap { event in
      action.isInteractive(context, quiet: json)
        ? nil
        : (event, AutomationNotices(notifications: DBusNotifications(environment: context.environment, uid: getuid())))
    }
    if invalid == nil, let (event, notices) = notices, loaded.runPolicy == .ask,
      let refused = await notices.ask(loaded, event: event)
    {
      return try finish(
        ExitStatus(refused.kind), diagnostics: refused.diagnostics, output: nil, reporter: reporter, session: session,
        context: context)
    }
    /// `notify-when-run: true`: says how the triggered run ended, before it is recorded and exits.
    func notifyRan(_ status: ExitStatus) async {
      guard let (event, notices) = notices, loaded.notifyWhenRun else { return }
      await notices.ran(loaded, event: event, status: status, runID: runID)
    }
    var options = Interpreter.Options()
    options.dryRun = dryRun
    options.dryRunReads = dryRunReads
    options.passIDs = json
    options.environment = context.environment
    options.runID = runID
    options.limits = session.limits
    options.trigger = event?.value
    options.secrets = secrets
    // What the run is held to; an imported workflow that now needs more than its approved card asks.
    let contract = RunContract(loaded, check: check, context: context)
    var given: [String: FlowValue] = [:]
    var started = false
    do {
      if let invalid { throw invalid }
      if !dryRun { try await contract.approve(loaded, prompter: prompter, yes: action.yes) }
      given = try givenInputs(for: loaded, context: context)
      if !action.isInteractive(context, quiet: json) {
        try InputResolver.checkGiven(loaded, given: given, registry: registry, clock: context.clock)
        try refuseUnanswerable(loaded, given: given, check: check, environment: context.environment)
      }
      let inputs = try await InputResolver.resolve(
        loaded, given: given, registry: registry, prompter: prompter, clock: context.clock)
      session.addSecrets(inputs, of: loaded)
      // MCP servers (Documentation/MCP.md): those the file's own steps name start now and are compared
      // with their caches, so a stale cache stops the run before step 1; any other starts on first use.
      let servers = ServerSessions(paths: context.paths, prompter: prompter, environment: context.environment)
      let uses = ServerSessions.toolUses(in: loaded, builtIn: Catalogs.builtIn)
      let result: Interpreter.Result
      do {
        if !uses.isEmpty, !dryRun { try await servers.connect(uses) }
        let interpreter = Interpreter(
          registry: registry, context: contract.hold(services).with(servers), loader: check,
          observer: session.observer(reporter), options: options)
        started = true
        result = try await interpreter.run(loaded, inputs: inputs)
        await servers.shutdown()
      } catch {
        await servers.shutdown()
        throw error
      }
      await notifyRan(.success)
      // `--json` always carries the result; people see it whole when the run ends with `stop`, and a
      // line saying what it was when a run by hand showed nothing else (a dry run says what it did).
      if !json, !result.stopped, !dryRun, trigger == .manual, event == nil, reporter.shown.isEmpty,
        let line = RunReporter.resultLine(result.output)
      {
        context.printShown(line)
      }
      try finish(
        .success, diagnostics: Diagnostics(), output: result.output, printsOutput: result.stopped,
        reporter: reporter, session: session, context: context)
    } catch var error as RunError {
      if unattended, !started {
        let interpreter = Interpreter(
          registry: registry, context: contract.hold(services), loader: check, observer: session.observer(reporter),
          options: options)
        error = await interpreter.runOnFailure(
          loaded, inputs: Interpreter.knownInputs(of: loaded, given: given), before: error)
      }
      await notifyRan(ExitStatus(error.kind))
      try finish(
        ExitStatus(error.kind), diagnostics: error.diagnostics, output: nil, reporter: reporter, session: session,
        context: context)
    }
  }

  /// The stamps of the files a check of the workflow read: its own, and those of the workflows it runs.
  private func stamps(_ check: WorkflowCheck, _ loaded: Workflow?, locator: WorkflowLocator) -> [FileStamp?] {
    let files = loaded.map { check.files(of: $0) } ?? locator.locate(workflow).map { [$0] } ?? []
    return files.map { FileStamp(path: $0) }
  }

  /// The workflow's name when its file could not be read as one: the file's name without `.yml`.
  static func fileName(_ reference: String) -> String {
    let name = reference.split(separator: "/").last.map(String.init) ?? reference
    for suffix in [".yml", ".yaml"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
    return name
  }

  /// Records the run, prints the result (or the JSON report) and ends with the status's exit code.
  private func finish(
    _ status: ExitStatus, diagnostics: Diagnostics, output: FlowValue?, printsOutput: Bool = true,
    reporter: RunReporter?, session: RunSession? = nil, context: SessionContext
  ) throws {
    session?.finish(status, diagnostics: diagnostics)
    // Only a run from the launcher reads the task-local: its type's metadata costs a plain run 12 K
    // instructions (Performance.md).
    if trigger == .launcher {
      Self.launcherNotice?.ended(
        status, shown: reporter?.shown ?? [], output: printsOutput ? output : nil, diagnostics: diagnostics)
    }
    if json {
      try context.printJSON(RunReport(status, output: output, reporter: reporter, diagnostics: diagnostics))
    } else {
      if printsOutput, let output, output != .nothing {
        let text = if case .list(let items) = output { items.map(\.text).joined(separator: "\n") } else { output.text }
        context.printShown(text)
      }
      if !diagnostics.isEmpty { context.report(diagnostics) }
    }
    if status != .success { throw ExitCode(status.rawValue) }
  }

  /// Unattended, ends the run before its first step when it would have to ask something nobody can
  /// answer, listing every such question with what would answer it (SPEC §5).
  private func refuseUnanswerable(
    _ workflow: Workflow, given: [String: FlowValue], check: WorkflowCheck, environment: [String: String]
  )
    throws(RunError)
  {
    var answers = UnattendedCheck.Answers(
      inputs: Set(given.keys), yes: action.yes || dryRun, workflow: workflow, values: given,
      unreachable: dryRun ? [] : Self.unreachableDesktop(environment))
    let desktop = action.asksOnDesktop(SessionContext.current, quiet: json)
    if desktop { answers.desktop = DesktopAsking.answers(environment: environment) }
    var needed = UnattendedCheck.check(workflow, answers: answers, registry: Catalogs.registry, loader: check)
    if answers.desktop == .choices {
      let note = DesktopAsking.missingToolNote(environment: environment)
      needed = Diagnostics(needed.all.map { $0.note(note) })
    }
    if needed.hasErrors { throw RunError(.needsInput, needed) }
  }

  /// The desktop this run cannot reach, found from the environment alone (a `stat` of the bus socket at
  /// most; no connection): a dry run shows no notification and copies nothing, so it needs none.
  static func unreachableDesktop(_ environment: [String: String]) -> [(kind: MachineAccess.Kind, why: String)] {
    var unreachable: [(kind: MachineAccess.Kind, why: String)] = []
    if let why = DBusNotifications(environment: environment, uid: getuid()).missingBus() {
      unreachable.append((.showsNotifications, "no D-Bus session bus: " + why))
    }
    if let why = SystemClipboard(environment: environment).missingDisplay() {
      unreachable += [(.readsClipboard, why), (.writesClipboard, why)]
    }
    // In the order of their names, as a step that needs several reports them.
    return unreachable.sorted { $0.kind.rawValue < $1.kind.rawValue }
  }

  /// Inputs from `--input-file`, then `--input` (which wins), then piped standard input for a workflow
  /// with a single input that was not given otherwise.
  private func givenInputs(for workflow: Workflow, context: SessionContext) throws(RunError) -> [String: FlowValue] {
    var given: [String: FlowValue] = [:]
    if let inputFile {
      given = try readInputFile(inputFile, context: context)
    }
    given.merge(try InputAssignments.values(inputs, for: workflow, registry: Catalogs.registry)) { $1 }
    if workflow.inputs.count == 1, given[workflow.inputs[0].name.value] == nil,
      let piped = context.console.readAllInput()
    {
      let input = workflow.inputs[0]
      let isList = InputResolver.declaredType(of: input, registry: Catalogs.registry).isList
      given[input.name.value] = InputAssignments.piped(piped, isList: isList)
    }
    return given
  }

  private func readInputFile(_ path: String, context: SessionContext) throws(RunError) -> [String: FlowValue] {
    let file: SourceFile
    switch SourceReader.read(path, in: context) {
    case .success(let read): file = read
    case .failure(let problem): throw RunError(.invalid, problem)
    }
    // JSON is YAML, so one reader takes both.
    let document = YAMLDocument.load(file)
    guard !document.diagnostics.hasErrors else { throw RunError(.invalid, document.diagnostics) }
    guard let mapping = document.root?.mapping else {
      throw RunError(
        .invalid,
        Diagnostic(
          .error, .invalidInput, "an input file holds a mapping of input names to values", at: document.root?.span
        )
        .help("write one 'name: value' per line"))
    }
    var given: [String: FlowValue] = [:]
    for entry in mapping.entries { given[entry.key.value] = FlowValue(yaml: entry.value) }
    return given
  }
}

extension FlowValue {
  /// A YAML value as given in an input file: numbers, booleans, lists and mappings keep their types.
  init(yaml node: YAMLNode) {
    switch node {
    case .scalar(let scalar):
      switch scalar.resolved {
      case .null: self = .nothing
      case .bool(let value): self = .boolean(value)
      case .int(let value): self = .number(Double(value))
      case .double(let value): self = .number(value)
      case .string(let text): self = .text(text)
      }
    case .sequence(let sequence): self = .list(sequence.items.map(FlowValue.init(yaml:)))
    case .mapping(let mapping):
      self = .dictionary(FlowDictionary(mapping.entries.map { (key: $0.key.value, value: FlowValue(yaml: $0.value)) }))
    }
  }
}
