import FlowDiagnostics
import FlowModel
import FoundationEssentials

/// A workflow's `schedule:` and `timezone:` read with the cron grammar: checked wherever the workflow
/// is checked (`FlowRuntime.WorkflowCheck`), and turned into a ``Schedule`` for the commands.
public enum WorkflowSchedule {
  /// Every problem in the workflow's schedule and zones, each at its place: a bad field at its column
  /// inside the expression, an unknown zone with the closest names.
  public static func check(_ workflow: Workflow) -> Diagnostics {
    read(workflow).diagnostics
  }

  /// The schedule of a workflow whose schedule checks clean; nil when it has no `schedule:` or it
  /// does not check. Entries without a zone of their own or of the workflow use `machineZone`.
  public static func schedule(of workflow: Workflow, machineZone: (name: String, zone: TimeZone)) -> Schedule? {
    let (entries, diagnostics) = read(workflow)
    guard !diagnostics.hasErrors, !entries.isEmpty else { return nil }
    return Schedule(
      entries.map { entry in
        let (name, zone) = entry.zone ?? machineZone
        return Schedule.Entry(entry.expression, timeZone: zone, zoneName: name)
      })
  }

  private static func read(_ workflow: Workflow) -> (
    entries: [(expression: CronExpression, zone: (name: String, zone: TimeZone)?)], diagnostics: Diagnostics
  ) {
    typealias Zone = (name: String, zone: TimeZone)
    var diagnostics = Diagnostics()
    func zone(_ name: Located<String>?) -> Zone? {
      guard let name else { return nil }
      guard let zone = TimeZoneName.zone(named: name.value) else {
        diagnostics.append(TimeZoneName.unknown(name.value, at: name.span))
        return nil
      }
      return (name.value, zone)
    }
    let workflowZone = zone(workflow.timezone)
    // An entry's zone is checked once even when its mapping lists several expressions.
    var entryZones: [SourceSpan: Zone?] = [:]
    var entries: [(CronExpression, Zone?)] = []
    for entry in workflow.schedule {
      let (expression, problems) = CronExpression.parse(entry.cron.value, locate: entry.locator.span)
      diagnostics.append(contentsOf: problems)
      var entryZone = workflowZone
      if let name = entry.timezone {
        if entryZones[name.span] == nil { entryZones[name.span] = zone(name) }
        entryZone = entryZones[name.span] ?? nil
      }
      if let expression { entries.append((expression, entryZone)) }
    }
    return (entries, diagnostics)
  }
}
