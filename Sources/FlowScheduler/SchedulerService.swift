import FlowCron
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FoundationEssentials

/// `flow schedule` as a service: ``Scheduler`` on Linux's clock, processes, inotify and signals, over
/// the library, the workflow locks, run history and the fire record.
///
/// It runs on the calling thread, which must be the process's only one: its signals are read from
/// signalfds, which see them only when no other thread takes them. `FlowCommand.start` runs it so, on
/// the main thread of a process that starts neither Dispatch's threads nor Swift concurrency's.
public struct SchedulerService {
  public let context: SessionContext
  public let references: [String]
  public let log: SchedulerLog

  public init(context: SessionContext, references: [String], log: SchedulerLog) {
    self.context = context
    self.references = references
    self.log = log
  }

  /// Runs until a signal stops it; `.invalid` when it cannot start, `.skipped` when another scheduler
  /// runs for the same state folder (both reported).
  public func run() -> ExitStatus {
    let lock: WorkflowLock
    switch takeLock() {
    case .success(let taken): lock = taken
    case .failure(let status): return status
    }
    let paths = context.paths
    let effects: Scheduler.Effects
    do {
      // Made when missing, so that it can be watched and the first workflow put there is seen.
      try PrivateFiles.ensureDirectory(paths.workflows)
      let clock = try RealtimeClock()
      let files = try FileTriggerWatcher(
        clock: clock, report: { clock.post(.filesArrived($0)) }, problem: { clock.post(.watchProblem($0)) })
      effects = Scheduler.Effects(
        clock: clock, launcher: try ProcessLauncher(clock: clock), watcher: try InotifyWatcher(clock: clock),
        signals: try ServiceSignals(clock: clock),
        workflows: SchedulerWorkflows(context: context, references: references, executable: context.executable),
        record: FireRecordFile(file: paths.schedulerRecord), ledger: SchedulerLedger(context: context),
        files: files,
        machine: BusEvents(
          clock: clock, environment: context.environment, appID: DesktopEntry.appID,
          installEntry: { [executable = context.executable] in DesktopEntry.install(paths, executable: executable) }),
        status: StatusFile(file: paths.schedulerStatus))
    } catch {
      context.report(
        Diagnostics([Diagnostic(.error, .schedulerUnavailable, "the scheduler cannot start: \(error)", file: nil)]))
      return .invalid
    }
    let options = Scheduler.Options(executable: context.executable, environment: context.environment)
    Scheduler(options: options, effects: effects, report: log.write).run()
    withExtendedLifetime(lock) {}
    return .success
  }

  /// One scheduler per state folder: a second would start every fire again (and skip each, as the
  /// first one's run holds the lock) and overwrite the fire record.
  private func takeLock() -> Result<WorkflowLock, ExitStatus> {
    let paths = context.paths
    // The lock's key names no workflow file: "scheduler" in the state folder gives `scheduler-HASH.lock`.
    let key = paths.state.appending(path: "scheduler").path
    let holder = WorkflowLock.Holder(
      runID: UUID().uuidString.lowercased(), started: context.clock.now, process: LinuxProcesses().current())
    do {
      if let lock = try WorkflowLock.acquire(path: key, in: paths.locks, holder: holder, wait: false) {
        return .success(lock)
      }
    } catch {
      context.report(
        Diagnostics([Diagnostic(.error, .lockFailed, "cannot take the scheduler's lock: \(error)", file: nil)]))
      return .failure(.invalid)
    }
    let running = WorkflowLock.holder(of: key, in: paths.locks).map {
      " (pid \($0.process.pid), since \(LocalTime(context).format($0.started)))"
    }
    context.report(
      Diagnostics([
        Diagnostic(
          .error, .schedulerRunning, "a scheduler is already running for \(paths.state.path)\(running ?? "")",
          file: nil
        ).help("stop that one first (systemctl --user stop flow-schedule, or kill its pid)")
      ]))
    return .failure(.skipped)
  }
}

extension DiagnosticCode {
  /// Another `flow schedule` holds the scheduler's lock for this state folder (exit 6).
  public static let schedulerRunning: Self = "scheduler-running"
  /// The scheduler's timer or file watch cannot be made (exit 2).
  public static let schedulerUnavailable: Self = "scheduler-unavailable"
}
