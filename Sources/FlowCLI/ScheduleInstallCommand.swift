import ArgumentParser
import FlowCron
import FlowDiagnostics
import FlowLibrary
import FlowScheduler
import FlowSession
import FoundationEssentials

/// `flow schedule install systemd|cron|kubernetes [WORKFLOW…]`: the workflows' schedules as units of an
/// engine that already runs schedules. Every workflow is checked in full first; one that does not check
/// stops the install before anything is written.
struct ScheduleInstallCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "install",
    abstract: "Install scheduled workflows as systemd timers, crontab lines or Kubernetes CronJobs.",
    discussion: """
      Without WORKFLOW, every scheduled workflow of the library is installed: what 'flow schedule' runs. \
      systemd: writes a .service and a .timer per workflow to $XDG_CONFIG_HOME/systemd/user (--apply \
      says the same; --print shows them instead). cron: prints crontab lines; --apply puts them into your crontab between \
      marker comments, replacing the previous block. kubernetes: prints a ConfigMap and CronJobs as one \
      YAML stream for 'kubectl apply -f -'; --image is required. Documentation/Scheduling.md has examples.
      """
  )

  enum Engine: String, ExpressibleByArgument, CaseIterable {
    case systemd, cron, kubernetes
  }

  @Argument(help: "The engine: systemd, cron or kubernetes.")
  var engine: Engine

  @Argument(
    help: "The workflows: paths or names. Default: every scheduled workflow of the library.",
    completion: Completions.workflow)
  var workflows: [String] = []

  // Every engine takes it, as the usage line says: cron and kubernetes print anyway, so a person can
  // write `--print` out of habit (or to be sure nothing is written) and get what they asked for.
  @Flag(
    name: .customLong("print"),
    help: "Print what would be installed instead of installing it (cron and kubernetes always print).")
  var printOnly = false

  // systemd takes it too, as what it does anyway: people write `--apply` for every engine that installs.
  @Flag(
    help:
      "cron: install the lines into your crontab (through the 'crontab' command); systemd: write the units (the default)."
  )
  var apply = false

  @Option(help: "kubernetes: the container image that has 'flow' on its PATH (required).")
  var image: String?

  @Option(help: "kubernetes: the namespace of the objects. Default: kubectl's current one.")
  var namespace: String?

  @Option(help: "kubernetes: the Secret holding the Raindrop token under the key 'token'. (default: flow-raindrop)")
  var secret: String?

  func validate() throws {
    switch engine {
    case .systemd where apply && printOnly, .cron where apply && printOnly:
      throw ValidationError("--print and --apply ask for opposite things: choose one")
    case .kubernetes where apply:
      throw ValidationError("--apply is for cron; kubernetes objects are printed for 'kubectl apply -f -'")
    case .kubernetes where image == nil:
      throw ValidationError("kubernetes needs --image: an image with 'flow' on its PATH (flow publishes none)")
    case .systemd, .cron:
      let given = [("--image", image), ("--namespace", namespace), ("--secret", secret)].filter { $0.1 != nil }
      guard given.isEmpty else {
        throw ValidationError("\(List.and(given.map(\.0))) \(given.count == 1 ? "is" : "are") for kubernetes")
      }
    case .kubernetes: break
    }
  }

  func run() async throws {
    let context = SessionContext.current
    let loaded = try load(context)
    let executable = context.executable
    let scheduled = loaded.map { item in
      ScheduledWorkflow(
        name: item.workflow.name, path: context.url(for: item.workflow.file.path).standardizedFileURL.path,
        contents: String(decoding: item.workflow.file.bytes, as: UTF8.self), schedule: item.schedule,
        executable: executable, secrets: item.workflow.secrets.map(\.value))
    }
    try checkNames(scheduled, context: context)
    switch engine {
    case .systemd: try installSystemd(scheduled, context: context)
    case .cron: try installCron(scheduled, context: context)
    case .kubernetes: try printKubernetes(scheduled, loaded: loaded, context: context)
    }
  }

  // MARK: - Workflows

  /// The workflows named, or every scheduled one of the library (what the scheduler runs); all checked.
  private func load(_ context: SessionContext) throws -> [LoadedSchedule] {
    let locator = WorkflowLocator(context: context)
    var problems = Diagnostics()
    var loaded: [LoadedSchedule] = []
    // Without names, what the scheduler runs.
    for candidate in context.scheduledWorkflows(named: workflows, library: workflows.isEmpty, locator: locator) {
      switch candidate.loaded {
      case .success(let item): loaded.append(item)
      case .failure(let error): problems.append(contentsOf: error.diagnostics)
      }
    }
    if problems.hasErrors {
      context.report(problems)
      context.console.write("nothing was installed\n", to: .error)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    if loaded.isEmpty {
      context.report(
        Diagnostics([
          Diagnostic(.error, .noSchedule, "no workflow in \(locator.libraryDirectory.path) has a schedule", file: nil)
            .help("name the workflows to install, or add 'schedule:' to one")
        ]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    return loaded
  }

  /// Two workflows whose files give the same unit name would overwrite each other's units.
  private func checkNames(_ scheduled: [ScheduledWorkflow], context: SessionContext) throws {
    var byName: [String: String] = [:]
    var problems = Diagnostics()
    for workflow in scheduled {
      let name = workflow.unitName(limit: engine == .kubernetes ? 52 : 63)
      if let other = byName[name], other != workflow.path {
        problems.append(
          Diagnostic(
            .error, .unitNameClash, "'\(workflow.path)' and '\(other)' would both install as '\(name)'", file: nil
          ).help("rename one of the files"))
      }
      byName[name] = workflow.path
    }
    if problems.hasErrors {
      context.report(problems)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
  }

  // MARK: - Engines

  private func installSystemd(_ scheduled: [ScheduledWorkflow], context: SessionContext) throws {
    let units = scheduled.flatMap(SystemdUnits.units)
    if printOnly {
      for unit in units {
        context.print("# \(unit.fileName)")
        context.print(unit.contents)
      }
      return
    }
    let folder = context.paths.systemdUserUnits
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for unit in units {
        let url = folder.appendingPathComponent(unit.fileName)
        try Data(unit.contents.utf8).write(to: url, options: .atomic)
        context.print("wrote \(url.path)")
      }
    } catch {
      context.report(
        Diagnostics([
          Diagnostic(.error, .fileNotFound, "cannot write the units: \(error.reason)", file: folder.path)
        ]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let timers = units.map(\.fileName).filter { $0.hasSuffix(".timer") }
    context.print("start the timers with:")
    context.print("  systemctl --user daemon-reload && systemctl --user enable --now \(timers.joined(separator: " "))")
  }

  private func installCron(_ scheduled: [ScheduledWorkflow], context: SessionContext) throws {
    let machine = context.machineZone.name
    guard apply else {
      for line in CrontabBlock.block(for: scheduled, machineZone: machine) { context.print(line) }
      return
    }
    let store: any CrontabStore = CrontabCommand(environment: context.environment)
    do {
      let current = try store.read()
      let block = CrontabBlock.block(
        for: scheduled, machineZone: machine, zoneAfter: CrontabBlock.zoneBeforeBlock(in: current))
      try store.write(CrontabBlock.merge(block, into: current))
      context.print("installed \(Count.of(scheduled.count, "workflow")) into your crontab ('crontab -l' shows it)")
    } catch {
      context.report(Diagnostics([error]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
  }

  private func printKubernetes(_ scheduled: [ScheduledWorkflow], loaded: [LoadedSchedule], context: SessionContext)
    throws
  {
    var problems = Diagnostics()
    for item in loaded {
      for (entry, written) in zip(item.schedule.entries, item.workflow.schedule) {
        if let problem = KubernetesManifest.problem(with: entry.expression) {
          problems.append(
            Diagnostic(.error, .unsupportedByEngine, problem, at: written.cron.span)
              .help("install it with systemd or cron, which read it as flow does"))
        }
      }
    }
    if problems.hasErrors {
      context.report(problems)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let options = KubernetesManifest.Options(
      image: image ?? "", namespace: namespace, secret: secret ?? "flow-raindrop")
    context.console.write(KubernetesManifest.stream(for: scheduled, options: options), to: .output)
  }
}

extension DiagnosticCode {
  /// Two workflows would install under the same unit or object name.
  public static let unitNameClash: Self = "unit-name-clash"
  /// A schedule that the chosen engine would read differently from cron.
  public static let unsupportedByEngine: Self = "unsupported-by-engine"
}
