import FlowCron
import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowModel
import FlowRuntime
import FlowSession
import FlowSharing
import FoundationEssentials
import Synchronization

/// The workflows `flow schedule` runs: every workflow of the library that has a schedule, and the files
/// named on its command line (``SessionContext/scheduledWorkflows(named:library:locator:check:)``, the list
/// `flow schedule next` and `install` use too), each checked in full as `flow run` checks it, and known
/// by the absolute path with links resolved that locks and run history use.
///
/// A file that does not check is left out with its diagnostics (the others still run); a file named on
/// the command line without a schedule is left out and said so; a library file without one is simply
/// not scheduled. A scheduled workflow that would have to ask something (an input without a default, a
/// confirmation without `confirmations: auto`) is scheduled with a warning: every run of it will end
/// with exit 4 until the file is fixed.
public final class SchedulerWorkflows: WorkflowSource {
  private let context: SessionContext
  private let references: [String]
  private let executable: String
  /// The problems last reported for each file, as text: a file is reported again only when they change.
  private let reported = Mutex<[String: String]>([:])

  public init(context: SessionContext, references: [String], executable: String) {
    self.context = context
    self.references = references
    self.executable = executable
  }

  public func load() -> LoadedWorkflows {
    let locator = WorkflowLocator(context: context)
    let check = WorkflowCheck(registry: Catalogs.registry, files: locator)
    var workflows: [ScheduledWorkflow] = []
    var problems: [WorkflowProblem] = []
    var folders = [locator.libraryDirectory.path]
    let candidates = context.scheduledWorkflows(named: references, library: true, locator: locator, check: check)
    for candidate in candidates {
      let path = candidate.path
      let folder = PathText.deletingLastComponent(path)
      // The folder of a file named is watched too, so that a file that is missing now is read once it is
      // made, and an edit is seen.
      if candidate.named, !folders.contains(folder) { folders.append(folder) }
      switch candidate.loaded {
      case .success(let loaded):
        workflows.append(
          ScheduledWorkflow(
            name: loaded.workflow.name, path: path,
            contents: String(decoding: loaded.workflow.file.bytes, as: UTF8.self), schedule: loaded.schedule,
            executable: executable))
        if let warning = unattendedWarning(loaded.workflow, path: path, check: check) {
          problems.append(WorkflowProblem(path: path, diagnostics: Diagnostics([warning]), leftOut: false))
        }
      case .failure(let error):
        problems.append(WorkflowProblem(path: path, diagnostics: error.diagnostics, leftOut: true))
      }
    }
    // The library changed (or the scheduler started): launcher entries follow it (Desktop.md).
    LauncherEntries(paths: context.paths, executable: executable).follow(locator.libraryWorkflows)
    let (automations, unarmed) = self.automations(locator: locator, check: check)
    // Library files without a schedule are known too: their fire record stays, as for a file that is there.
    let known = Set(candidates.map(\.path) + locator.libraryWorkflows.map { locator.resolvedPath($0.url.path) })
    // Compared as rendered: spans number their files, and every read numbers them anew.
    let renderer = DiagnosticRenderer(colors: false)
    let current = Dictionary(
      problems.map { ($0.path, renderer.render($0.diagnostics)) }, uniquingKeysWith: { first, _ in first })
    let fresh = reported.withLock { reported in
      defer { reported = current }
      return problems.filter { reported[$0.path] != current[$0.path] }
    }
    var loaded = LoadedWorkflows(workflows: workflows, problems: fresh, folders: folders, known: known)
    loaded.automations = automations
    loaded.unarmed = unarmed
    return loaded
  }

  /// The workflows whose triggers may be armed: every library workflow with `on:` triggers, and each
  /// file named, that checks clean; left unarmed, with why, when a run of it would have to ask (nobody
  /// is there when a trigger fires) or when it was imported and the person has not said that its
  /// triggers may start it (`flow import --arm`, `flow schedule arm`). A file that does not check is
  /// reported with the schedules' problems.
  private func automations(locator: WorkflowLocator, check: WorkflowCheck) -> (
    [Automation], [(path: String, name: String, reason: String)]
  ) {
    var automations: [Automation] = []
    var unarmed: [(path: String, name: String, reason: String)] = []
    var seen: Set<String> = []
    let home = context.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
    // Whether the daemon's session can ask (its environment is the runs'): a display, a session bus, and
    // a dialog tool or a notification server's buttons.
    let desktop = DesktopAsking.answers(environment: context.environment)
    for reference in locator.libraryWorkflows.map(\.url.path) + references {
      let located = locator.locate(reference) ?? reference
      let path = locator.resolvedPath(located)
      guard seen.insert(path).inserted else { continue }
      let (workflow, diagnostics) = locator.check(located, with: check)
      guard let workflow, !diagnostics.hasErrors, !workflow.triggers.isEmpty else { continue }
      if let reason = withoutConsent(workflow, path: path) ?? needsAnswers(workflow, check: check, desktop: desktop) {
        unarmed.append((path, workflow.name, reason))
        continue
      }
      var folders: [Int: String] = [:]
      for (index, trigger) in workflow.triggers.enumerated() {
        guard case .file(let condition) = trigger.condition else { continue }
        let folder = condition.folder.value
        folders[index] = FileSystemPath.expandingHome(folder, home: home)
      }
      automations.append(
        Automation(
          name: workflow.name, path: path, triggers: workflow.triggers, folders: folders,
          runPolicy: workflow.runPolicy, notifyWhenRun: workflow.notifyWhenRun,
          asks: desktop != .nobody && needsAnswers(workflow, check: check, desktop: .nobody) != nil))
    }
    return (automations, unarmed)
  }

  /// Why an imported workflow's triggers are not armed: the person has not said they may start it. A
  /// copy the person has edited since is theirs, and arms.
  private func withoutConsent(_ workflow: Workflow, path: String) -> String? {
    guard ProvenanceRecord.exists(for: path), let record = ProvenanceRecord.read(for: URL(fileURLWithPath: path)),
      record.armed != true, Digest.sha256Hex(workflow.file.bytes) == record.sha256
    else { return nil }
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return "it was imported, and its triggers start it only once you say so: flow schedule arm \(name)"
  }

  /// Every answer a triggered run of `workflow` would lack, with what the daemon's desktop can answer,
  /// in a line; nil when it asks nothing nobody can answer.
  private func needsAnswers(_ workflow: Workflow, check: WorkflowCheck, desktop: UnattendedCheck.Desktop) -> String? {
    var answers = UnattendedCheck.Answers(inputs: [], yes: false, workflow: workflow)
    answers.desktop = desktop
    let needed = UnattendedCheck.check(workflow, answers: answers, registry: Catalogs.registry, loader: check)
    guard !needed.isEmpty else { return nil }
    let why =
      desktop == .nobody
      ? "a trigger's run cannot ask (no desktop session to show a dialog in), and it would have to: "
      : "a trigger's run can ask only with a notification's buttons (no dialog tool), and it would have to: "
    return why + needed.all.map(\.message).joined(separator: "; ")
  }

  /// What an unattended run of `workflow` would have to ask, as one warning with a note at each place;
  /// nil when it asks nothing.
  private func unattendedWarning(_ workflow: Workflow, path: String, check: WorkflowCheck) -> Diagnostic? {
    let answers = UnattendedCheck.Answers(inputs: [], yes: false, workflow: workflow)
    let needed = UnattendedCheck.check(workflow, answers: answers, registry: Catalogs.registry, loader: check)
    guard !needed.isEmpty else { return nil }
    return Diagnostic(
      .warning, .scheduledNeedsAnswers,
      "'\(workflow.name)' is scheduled, but a scheduled run cannot ask: it will end with exit 4 (needs input)",
      file: path, notes: needed.all.map { Diagnostic.Note($0.message, at: $0.span) },
      helps: ["give each input a 'default:', and write 'confirmations: auto' for its confirmations"])
  }
}

extension DiagnosticCode {
  /// A scheduled workflow would need an answer (an input, a confirmation, a choice) that a scheduled run
  /// cannot give: it is scheduled, and each run will end with exit 4.
  public static let scheduledNeedsAnswers: Self = "scheduled-needs-answers"
}
