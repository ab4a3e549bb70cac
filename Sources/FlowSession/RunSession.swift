import FlowCron
import FlowDiagnostics
import FlowHistory
import FlowIntents
import FlowLibrary
import FlowModel
import FlowRuntime
import FlowSystem
import FlowYAML
import FoundationEssentials
import Synchronization

/// Run history and the per-workflow lock around one `flow run` or `flow do` (issue 8): the command
/// makes one, calls ``begin(_:)`` once the workflow is checked, composes ``observer(_:)`` with its
/// reporter, and ends every way out through ``finish(_:diagnostics:)``.
///
/// History that cannot be opened or written never stops a run: a warning says so on standard error.
public final class RunSession: Sendable {
  private let context: SessionContext
  private let paths: FlowPaths
  private let process = LinuxProcesses().current()
  private let runID: String
  private let trigger: RunTrigger
  /// What the trigger brought, in a line, for run history.
  private let triggerDetail: String?
  private let wait: Bool
  private let policy: HistoryPolicy
  /// `limits:` in config.yml: how large a run's values may grow.
  public let limits: ValueLimits
  private let history: RunHistory?
  /// The workflow file as the person gave it, and absolute with links resolved (the lock's key).
  private let given: String?
  private let path: String?
  /// When the session began: the start of a run recorded only as it ends (refused or invalid), so that
  /// its end never comes before its start.
  private let created: Date
  private let state = Mutex(State())

  private struct State {
    var workflow: String?
    var contentHash: String?
    var lock: WorkflowLock?
    var recorder: HistoryRecorder?
    var finished = false
  }

  /// A session for a workflow file (`given` as located; nil when there is none, and nothing is
  /// recorded). Reads `config.yml`, whose problems end the run. A dry run is neither recorded nor locked
  /// (its command says so): it writes nothing at all, so it changes nothing another run could trip over.
  public init(
    _ context: SessionContext, trigger: RunTrigger, triggerDetail: String? = nil, recorded: Bool = true,
    wait: Bool = false, runID: String, workflow given: String?
  ) throws(Diagnostic) {
    self.context = context
    paths = context.paths
    created = context.clock.now
    self.runID = runID
    self.trigger = trigger
    self.triggerDetail = triggerDetail
    self.wait = wait
    self.given = given
    path = given.map(WorkflowLocator(context: context).resolvedPath)
    let configuration = try Configuration.load(paths.configFile)
    policy = configuration.history
    limits = configuration.limits
    history = !recorded || !policy.enabled ? nil : Self.open(context, paths)
  }

  /// A session for `flow do` (or an action called through `flow mcp --actions`, `trigger` `mcp`):
  /// recorded under the action's id, never locked.
  public init(_ context: SessionContext, action: String, runID: String, trigger: RunTrigger = .do) throws(Diagnostic) {
    self.context = context
    paths = context.paths
    created = context.clock.now
    self.runID = runID
    self.trigger = trigger
    triggerDetail = nil
    wait = false
    given = nil
    path = nil
    let configuration = try Configuration.load(paths.configFile)
    policy = configuration.history
    limits = configuration.limits
    history = policy.enabled ? Self.open(context, paths) : nil
    state.withLock { $0.workflow = action }
  }

  private static func open(_ context: SessionContext, _ paths: FlowPaths) -> RunHistory? {
    do {
      return try RunHistory(file: paths.history)
    } catch {
      warn(context, "run history is not being recorded: \(error)")
      return nil
    }
  }

  private static func warn(_ context: SessionContext, _ message: String) {
    let warning = Diagnostic(.warning, .historyUnavailable, message, file: nil)
    context.console.write(context.diagnosticRenderer.render(warning), to: .error)
  }

  // MARK: - Starting

  /// Takes the workflow's lock (waiting for it with `--wait`) and records the run's start. Throws the
  /// diagnostic to end with when another run holds the lock.
  public func begin(_ workflow: Workflow) throws(Diagnostic) {
    state.withLock {
      $0.workflow = workflow.name
      $0.contentHash = Digest.sha256Hex(workflow.file.bytes)
    }
    if let path { try lock(path, name: workflow.name) }
    start(secrets: secrets(of: workflow))
  }

  /// Records the start of a `flow do`.
  public func beginAction() {
    start(secrets: Backends(context: context).token().map { [$0.token] } ?? [])
  }

  private func start(secrets: [String]) {
    guard let history else { return }
    let (context, name, hash) = (context, state.withLock { $0.workflow } ?? "", state.withLock { $0.contentHash })
    do {
      let recorder = try HistoryRecorder(
        history: history, start: runStart(name, hash, started: context.clock.now), policy: policy, clock: context.clock,
        redact: Redactor(secrets: secrets), warn: { Self.warn(context, $0) })
      // Each second while the run goes on, so that one killed with SIGKILL still shows what it finished.
      // Only in the `flow` process, whose service thread does it beside whatever the run is doing.
      ServiceThread.current?.everySecond { recorder.flush() }
      state.withLock { $0.recorder = recorder }
      if context.handlesInterrupts {
        // Ctrl-C at a prompt ends the process at once; the run is still recorded as cancelled.
        let directory = context.workingDirectory
        Interrupts.whenExitingAtOnce {
          recorder.finish(
            .cancelled, exitCode: ExitStatus.cancelled.rawValue,
            diagnostics: Diagnostics([Diagnostic(.error, .cancelled, "cancelled at a prompt", file: nil)]),
            workingDirectory: directory)
        }
      }
    } catch {
      Self.warn(context, "run history is not being recorded: \(error)")
    }
  }

  private func runStart(_ name: String, _ hash: String?, started: Date) -> RunStart {
    RunStart(
      id: runID, workflow: name, path: path, contentHash: hash, trigger: trigger, triggerDetail: triggerDetail,
      started: started, process: process)
  }

  private func lock(_ path: String, name: String) throws(Diagnostic) {
    let (directory, given) = (paths.locks, given)
    let holder = WorkflowLock.Holder(runID: runID, started: context.clock.now, process: process)
    func acquire(wait: Bool) throws(Diagnostic) -> WorkflowLock? {
      do {
        return try WorkflowLock.acquire(path: path, in: directory, holder: holder, wait: wait)
      } catch {
        throw Diagnostic(.error, .lockFailed, "cannot take the workflow's lock: \(error)", file: given)
      }
    }
    if let lock = try acquire(wait: false) {
      state.withLock { $0.lock = lock }
      return
    }
    let running = WorkflowLock.holder(of: path, in: directory).map(RunHolder.init)
    guard wait else { throw alreadyRunning(name, holder: running).help("pass --wait to run it when that run ends") }
    context.console.writeShown("waiting for '\(name)' to finish\(running.map(describe) ?? "")…\n", to: .error)
    // Blocked in flock, a Ctrl-C cannot cancel cooperatively: it exits at once, as at a prompt. Nil means
    // it came first; the run then stops at its first step, cancelled.
    let acquired = Interrupts.whileReadingInput {
      Result { () throws(Diagnostic) -> WorkflowLock? in try acquire(wait: true) }
    }
    if let lock = try acquired?.get() { state.withLock { $0.lock = lock } }
  }

  private func alreadyRunning(_ name: String, holder: RunHolder?) -> Diagnostic {
    Diagnostic(.error, .alreadyRunning, "'\(name)' is already running\(holder.map(describe) ?? "")", file: given)
  }

  /// Records a run that did not start because the workflow is running (`holder`): the scheduler's
  /// skipped fire, recorded as `flow run` records the run it refuses.
  public func recordSkipped(_ name: String, holder: RunHolder?) {
    state.withLock { $0.workflow = name }
    finish(.skipped, diagnostics: Diagnostics([alreadyRunning(name, holder: holder)]))
  }

  /// The workflow's `name:`, for a run that ends before it begins (an invalid file still has one): run
  /// history lists it under that name rather than the file's.
  public func name(_ name: String) {
    state.withLock { $0.workflow = name }
  }

  /// Records a firing of a trigger that started no run of its own (it joined the queued one, or the
  /// storm bound dropped it), as skipped, with why.
  public func recordNotRun(_ name: String, _ reason: Diagnostic) {
    state.withLock { $0.workflow = name }
    finish(.skipped, diagnostics: Diagnostics([reason]))
  }

  /// " (run 3f2a9c1e, pid 4242, since 09:00:01)".
  private func describe(_ holder: RunHolder) -> String {
    " (run \(holder.runID.prefix(8)), pid \(holder.pid), since \(LocalTime(context).format(holder.started)))"
  }

  /// The values history must never hold: the token, `secret: true` inputs' defaults (their given
  /// values come later, ``addSecrets(_:of:)``), and environment variables with secret-sounding names.
  private func secrets(of workflow: Workflow) -> [String] {
    var secrets = Backends(context: context).token().map { [$0.token] } ?? []
    for name in workflow.environment.map(\.value) where Redactor.isSecretName(name) {
      if let value = context.environment[name] { secrets.append(value) }
    }
    return secrets
  }

  /// Masks the values of the workflow's `secret: true` inputs from now on.
  public func addSecrets(_ inputs: FlowDictionary, of workflow: Workflow) {
    let values = workflow.inputs.filter(\.secret).compactMap { inputs[$0.name.value]?.text }
    guard !values.isEmpty, let recorder = state.withLock({ $0.recorder }) else { return }
    recorder.addSecrets(Redactor(secrets: values))
  }

  /// Masks these values from now on: the secrets read from the keyring for the run (`secrets:`).
  public func addSecrets(_ values: [String]) {
    guard !values.isEmpty, let recorder = state.withLock({ $0.recorder }) else { return }
    recorder.addSecrets(Redactor(secrets: values))
  }

  // MARK: - Running

  /// The run's observer: the reporter, and the history recorder when there is one.
  public func observer(_ reporter: any RunObserver) -> any RunObserver {
    state.withLock { $0.recorder }?.observing(reporter) ?? reporter
  }

  /// The prompter, writing the trace before each question when the run is recorded.
  public func prompter(_ prompter: any Prompter) -> any Prompter {
    state.withLock { $0.recorder }?.flushingBeforeQuestions(prompter) ?? prompter
  }

  // MARK: - Ending

  /// Records how the run ended and lets the next run of the workflow in. A run that never began (the
  /// file is invalid, or another run holds the lock) is recorded as it ends, when there is a file.
  public func finish(_ status: ExitStatus, diagnostics: Diagnostics) {
    let (recorder, workflow, hash, done) = state.withLock { state in
      defer { state.finished = true }
      return (state.recorder, state.workflow, state.contentHash, state.finished)
    }
    guard !done else { return }
    // Released after the run is recorded, so that a run waiting for it starts after it ended.
    defer { state.withLock { $0.lock = nil } }
    guard let history else { return }
    let runStatus = RunStatus(status)
    if let recorder {
      recorder.finish(
        runStatus, exitCode: status.rawValue, diagnostics: diagnostics, workingDirectory: context.workingDirectory)
      return
    }
    guard let path, let given else { return }
    let name = workflow ?? URL(fileURLWithPath: given).deletingPathExtension().lastPathComponent
    let contentHash =
      hash ?? (try? RegularFile.read(path, limit: YAMLLimits.workflow.maxFileSize).get()).map(Digest.sha256Hex)
    let redact = Redactor(secrets: Backends(context: context).token().map { [$0.token] } ?? [])
    let end = RunEnd(
      ended: context.clock.now, status: runStatus, exitCode: status.rawValue,
      diagnostics: diagnostics.sorted().map {
        RecordedDiagnostic($0, workingDirectory: context.workingDirectory, redact: redact)
      })
    do {
      try history.record(runStart(name, contentHash, started: created), end, policy: policy)
    } catch {
      Self.warn(context, "run history is not being recorded: \(error)")
    }
  }
}

extension RunStatus {
  /// How history names a run that ended with `status`.
  public init(_ status: ExitStatus) {
    switch status {
    case .success: self = .succeeded
    case .stepFailed, .backendUnavailable: self = .failed
    case .invalid: self = .invalid
    case .cancelled: self = .cancelled
    case .needsInput: self = .needsInput
    case .skipped: self = .skipped
    }
  }
}

extension DiagnosticCode {
  /// Another run of the workflow holds its lock (exit 6).
  public static let alreadyRunning: Self = "already-running"
  /// The workflow's lock file cannot be created or locked (exit 2).
  public static let lockFailed: Self = "lock-failed"
  /// Run history cannot be opened or written; the run goes on unrecorded (a warning).
  public static let historyUnavailable: Self = "history-unavailable"
}
