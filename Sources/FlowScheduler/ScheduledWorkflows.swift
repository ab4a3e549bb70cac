import FlowCron
import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowRuntime
import FlowSession
import FoundationEssentials

/// A workflow that checked clean and has a schedule.
public struct LoadedSchedule {
  public var reference: String
  public var workflow: Workflow
  public var schedule: Schedule
}

/// One workflow of ``SessionContext/scheduledWorkflows(named:library:locator:check:)``: loaded with its
/// schedule, or the diagnostics of why it cannot be.
public struct ScheduleCandidate {
  /// As given on the command line, or the library file's path.
  public var reference: String
  /// Absolute, with links resolved: what locks and run history know the workflow by.
  public var path: String
  /// Named on the command line rather than found in the library.
  public var named: Bool
  public var loaded: Result<LoadedSchedule, DiagnosticError>
}

extension SessionContext {
  /// The machine's time zone (the zone of schedules that name none): `TZ` when it names an IANA zone
  /// (`Europe/Berlin`, `:Europe/Berlin`, a path into zoneinfo), else the zone `/etc/localtime` links to,
  /// else `/etc/timezone`, else UTC.
  public var machineZone: (name: String, zone: TimeZone) {
    func named(_ text: String?) -> (name: String, zone: TimeZone)? {
      guard var name = text?.trimmingWhitespaceAndNewlines(), !name.isEmpty else { return nil }
      if name.hasPrefix(":") { name.removeFirst() }
      if let range = name.firstRange(of: "zoneinfo/") { name = String(name[range.upperBound...]) }
      return TimeZoneName.zone(named: name).map { (name, $0) }
    }
    let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")
    let file = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8)
    return named(environment["TZ"]) ?? named(link) ?? named(file) ?? ("UTC", TimeZone(identifier: "UTC") ?? .gmt)
  }

  /// The scheduled workflows: the one list that `flow schedule` (the scheduler), `flow schedule next`
  /// and `flow schedule install` work from, so that what one says is scheduled the others run.
  ///
  /// With `library`, every workflow of the library (``WorkflowLocator/libraryWorkflows``, in name
  /// order) that has a schedule; then each of `named`, found as `flow run` finds it. Only the library:
  /// `./workflows` depends on the folder a command runs in, and the scheduler's (a service's) is not
  /// the person's, so a file there is scheduled only when named. A library file without a schedule is
  /// left out; one named without a schedule, or that does not check, comes with its diagnostics. A file
  /// reached twice (a name and its path, a link) is listed once.
  public func scheduledWorkflows(
    named references: [String], library: Bool, locator: WorkflowLocator, check: WorkflowCheck? = nil
  ) -> [ScheduleCandidate] {
    let candidates =
      (library ? locator.libraryWorkflows.map { (reference: $0.url.path, named: false) } : [])
      + references.map { (reference: $0, named: true) }
    var known: Set<String> = []
    var listed: [ScheduleCandidate] = []
    for (reference, named) in candidates {
      let located = locator.locate(reference)
      let path = locator.resolvedPath(located ?? reference)
      guard known.insert(path).inserted else { continue }
      let loaded = loadSchedule(located ?? reference, locator: locator, check: check)
      if case .failure(let error) = loaded, !named, error.diagnostics.all.allSatisfy({ $0.code == .noSchedule }) {
        continue
      }
      listed.append(ScheduleCandidate(reference: reference, path: path, named: named, loaded: loaded))
    }
    return listed
  }

  /// Loads `reference` as `flow run` finds it, checked in full (with `check`, whose cache then holds
  /// it), and its schedule; diagnostics when it does not check or has no schedule.
  public func loadSchedule(_ reference: String, locator: WorkflowLocator, check: WorkflowCheck? = nil) -> Result<
    LoadedSchedule, DiagnosticError
  > {
    let (workflow, diagnostics) =
      check.map { locator.check(reference, with: $0) } ?? locator.load(reference)
    guard let workflow, !diagnostics.hasErrors else { return .failure(DiagnosticError(diagnostics)) }
    guard let schedule = WorkflowSchedule.schedule(of: workflow, machineZone: machineZone) else {
      return .failure(
        DiagnosticError(
          Diagnostic(.error, .noSchedule, "'\(workflow.name)' has no schedule", file: workflow.file.path)
            .help("add a cron expression, like 'schedule: \"0 9 * * MON-FRI\"'")))
    }
    return .success(LoadedSchedule(reference: reference, workflow: workflow, schedule: schedule))
  }
}

extension DiagnosticCode {
  /// A workflow given to `flow schedule next` or `install` has no `schedule:`.
  public static let noSchedule: Self = "no-schedule"
}
