import FlowIntents
import FlowModel
import FlowRuntime
import FoundationEssentials
import Synchronization

/// Works out ``Capabilities``: walks a checked workflow and, through `run-workflow`, every workflow it runs,
/// adding up what each step's intent declares.
///
/// Nested workflows are found with the same loader `flow run` uses, so the analysis sees exactly the
/// files a run would run. The cost is linear in the size of the tree of *distinct* workflows: each is
/// walked once however many steps run it (issue 16: 2,000 steps running one 2,000-step workflow were
/// 4,000,000 step visits), what each `run-workflow` reference leads to is asked of the loader once, and
/// a workflow's combined effect, which `flow show` puts in the margin of every step that runs it, is
/// remembered from that one walk. One analysis serves one outline.
public final class CapabilityAnalysis: @unchecked Sendable {
  let registry: IntentRegistry
  let loader: (any WorkflowLoading)?
  // Guards the memos below; never held while walking.
  private let lock = Mutex(())
  /// What each literal reference leads to, by the referring workflow's identity and the reference.
  private var loads: [String: Loaded] = [:]
  /// Everything each workflow may do together, its nested workflows' steps included, by identity.
  private var treeEffects: [String: StepEffect] = [:]
  /// How often each workflow's steps were walked, by identity: once, whatever runs it how often.
  private var walked: [String: Int] = [:]

  /// - Parameter loader: finds the workflows `run-workflow` names; nil leaves them unexamined.
  public init(registry: IntentRegistry, loader: (any WorkflowLoading)?) {
    self.registry = registry
    self.loader = loader
  }

  public func analyze(_ workflow: Workflow) -> Capabilities {
    analyzeTree(workflow).capabilities
  }

  /// What `workflow` may do, and the workflows it runs (literally named, resolved before the run), each
  /// once, in the order its steps first run them.
  public func analyzeTree(_ workflow: Workflow) -> (capabilities: Capabilities, workflows: [Workflow]) {
    var walk = Walk(analysis: self, autoConfirm: workflow.confirmations == .auto)
    walk.visit(workflow)
    // After the workflow's own effect is remembered: a workflow run by another never runs its
    // `on-failure:` (the run's failure is its caller's), so only the top one's counts.
    walk.visitOnFailure(of: workflow)
    var capabilities = walk.capabilities
    capabilities.file = workflow.identity
    capabilities.confirmations = workflow.confirmations.rawValue
    capabilities.schedule = Capabilities.Schedule.entries(of: workflow)
    capabilities.triggers = Capabilities.TriggerUse.entries(of: workflow)
    capabilities.runPolicy = workflow.runPolicy.rawValue
    capabilities.notifyWhenRun = workflow.notifyWhenRun
    for index in capabilities.workflows.indices where capabilities.workflows[index].file != nil {
      // Whether it travels in the file analysed: a workflow found on the reader's disk instead is
      // one the file's author never showed them (the card says so in red).
      capabilities.workflows[index].carried = walk.carried.contains(capabilities.workflows[index].file ?? "")
    }
    return (capabilities, walk.order)
  }

  /// How many times the steps of the workflow with `identity` were walked: what shows the analysis is
  /// linear (a test counts rather than times it).
  public func walks(of identity: String) -> Int {
    lock.withLock { _ in walked[identity, default: 0] }
  }

  /// The effect of one step, for `flow show`'s margin: an action's own, or everything a nested workflow
  /// may do together.
  func effect(of step: Step, in workflow: Workflow) -> StepEffect? {
    switch step.kind {
    case .action(let call):
      guard let descriptor = try? registry.descriptor(for: call.id.value) else { return nil }
      return StepEffect(call, descriptor: descriptor)
    case .runWorkflow(let reference, _):
      switch load(reference, from: workflow) {
      case .loaded(let nested):
        if let known = treeEffect(of: nested) { return known }
        var walk = Walk(analysis: self, autoConfirm: false)
        walk.visit(nested)
        return treeEffect(of: nested) ?? StepEffect.combined(walk.effects)
      case .computed:
        return StepEffect(effect: .destructive, hosts: [], anyHost: true, unknown: true)
      case .failed:
        return nil
      }
    case .ifBlock, .repeatBlock, .forEach, .menu, .stop, .set, .append:
      return nil
    }
  }

  enum Loaded {
    case loaded(Workflow)
    case computed
    case failed(String)
  }

  /// The workflow a `run-workflow` step names, when it can be known before the run.
  func load(_ reference: Value, from workflow: Workflow) -> Loaded {
    guard case .text(let template) = reference, let name = template.literal else { return .computed }
    guard let loader else { return .failed("not examined") }
    let key = workflow.identity + "\u{0}" + name
    if let known = lock.withLock({ _ in loads[key] }) { return known }
    let loaded: Loaded
    do {
      loaded = .loaded(try loader.load(name, from: workflow))
    } catch {
      loaded = .failed(error.message)
    }
    lock.withLock { _ in loads[key] = loaded }
    return loaded
  }

  fileprivate func treeEffect(of workflow: Workflow) -> StepEffect? {
    lock.withLock { _ in treeEffects[workflow.identity] }
  }

  fileprivate func remember(_ effect: StepEffect, of workflow: Workflow) {
    lock.withLock { _ in
      treeEffects[workflow.identity] = effect
      walked[workflow.identity, default: 0] += 1
    }
  }
}

/// One walk through a workflow tree, accumulating what it finds.
private struct Walk {
  let analysis: CapabilityAnalysis
  /// The top workflow's `confirmations: auto`, which answers nested workflows' confirmations too.
  let autoConfirm: Bool
  var capabilities = Capabilities()
  var effects: [StepEffect] = []
  var visited: Set<String> = []
  /// The nested workflows met, each once, in order; and the identities of those carried in the top
  /// workflow's own file (embedded under its `workflows:`).
  var order: [Workflow] = []
  var carried: Set<String> = []
  var top: String?
  /// Where each host is in `capabilities.hosts`, so that a file of many hosts is not searched per step.
  var hostIndex: [String: Int] = [:]
  /// The entity types of each catalogue, by namespace, looked up once per analysis.
  var catalogueEntities: [String: [String]] = [:]
  /// The files earlier steps' outputs are, by the name later steps refer to them with (`previous`, `as:`):
  /// what `delete-files: ${old}` after `get-file: ~/Downloads/*.tmp` names on the card.
  var fileSources: [String: [String]] = [:]

  init(analysis: CapabilityAnalysis, autoConfirm: Bool) {
    self.analysis = analysis
    self.autoConfirm = autoConfirm
  }

  /// Walks `workflow` the first time it is met; its steps' effects, and those of what it runs, end up
  /// in `effects`, and together they are remembered as the workflow's own.
  mutating func visit(_ workflow: Workflow) {
    guard visited.insert(workflow.identity).inserted else { return }
    if top == nil {
      top = workflow.file.path
    } else {
      order.append(workflow)
      if workflow.file.path == top { carried.insert(workflow.identity) }
    }
    for name in workflow.environment.map(\.value) where !capabilities.environment.contains(name) {
      capabilities.environment.append(name)
    }
    for name in workflow.secrets.map(\.value) where !capabilities.secrets.contains(name) {
      capabilities.secrets.append(name)
    }
    let before = effects.count
    visit(workflow.steps, prefix: "", in: workflow)
    analysis.remember(StepEffect.combined(Array(effects[before...])), of: workflow)
  }

  /// The steps of `on-failure:`: they may run, so what they may do is on the card like any step's.
  mutating func visitOnFailure(of workflow: Workflow) {
    // They run after whichever step failed: any output may be there.
    fileSources = [:]
    visit(workflow.onFailure, prefix: Step.onFailurePrefix, in: workflow)
  }

  /// - Parameter confirmed: inside a block whose `confirm:` answers its actions' confirmations, as a run
  ///   does: those are not asked on their own.
  private mutating func visit(
    _ steps: [Step], prefix: String, first: Int = 1, in workflow: Workflow, confirmed: Bool = false
  ) {
    for (offset, step) in steps.enumerated() {
      visit(step, position: prefix + String(first + offset), in: workflow, confirmed: confirmed)
    }
  }

  private mutating func visit(_ step: Step, position: String, in workflow: Workflow, confirmed: Bool) {
    let inner = confirmed || step.confirm != nil
    let reference = Capabilities.StepReference(file: workflow.identity, position: position, action: step.label)
    let sub = position + "."
    // A block's own confirmation is listed before what is inside it.
    let unattendedIndex = capabilities.unattended.count
    var deletes = false
    switch step.kind {
    case .action(let call):
      let descriptor: IntentDescriptor
      do {
        descriptor = try analysis.registry.descriptor(for: call.id.value)
      } catch {
        // A server not configured here: listed (the card says so), though nothing of its tool is known.
        if error.kind == .unknownServer { recordServer(of: call.id.value, at: reference) }
        return
      }
      if descriptor.intentType is ExternalIntent.Type { recordServer(of: descriptor.id, at: reference) }
      let effect = StepEffect(call, descriptor: descriptor, fileSources: fileSources)
      record(effect, of: descriptor, at: reference)
      if let fence = Self.fence(call, descriptor: descriptor, in: workflow, at: reference) {
        capabilities.fences.append(fence)
      }
      // What this step's output is, for the steps after it that act on it: the files it read, or some of
      // the files an earlier step got, picked out by one of the list actions that pass on a part of their
      // list ('filter: ${previous}' keeps the files the glob named, and no other).
      let source =
        StepEffect.listSubsetActions.contains(descriptor.id)
        ? StepEffect.sources(call, descriptor, fileSources)["list"]
        : StepEffect.fileSource(call, descriptor: descriptor, effect: effect)
      // A step that may not run (`when:`) or may fail and go on (`on-error: continue`) leaves what was
      // there before: either may be what the next step acts on.
      let mayNotRun = step.when != nil || step.onError != .stop
      for key in ["previous"] + [step.name?.value].compactMap({ $0 }) {
        fileSources[key] = mayNotRun ? Self.either(fileSources[key], source) : source
      }
      deletes = effect.effect == .destructive
      if autoConfirm, effect.asks, step.confirm == nil, !confirmed {
        capabilities.unattended.append(.init(step: reference, question: nil, deletes: deletes))
      }
    case .runWorkflow(let value, _):
      deletes = visitNested(value, from: workflow, at: reference)
    case .ifBlock, .repeatBlock, .forEach, .menu, .stop, .set, .append:
      let before = fileSources
      // Names a body gives its steps' outputs: in a loop, the next time round starts with them as the
      // last time left them, and after the block they are whichever body ran, if any.
      let assigned = Self.names(in: step.kind.bodies)
      let loops = step.kind.isLoop
      for (body, first) in zip(step.kind.bodies, step.kind.bodyStarts) {
        // Each body starts from what was there before the block, never from another body's outputs.
        fileSources = before
        if loops { for name in assigned + ["previous"] { fileSources[name] = nil } }
        deletes = visitBody(body, prefix: sub, first: first, in: workflow, confirmed: inner) || deletes
      }
      fileSources = before
      for name in assigned { fileSources[name] = nil }
    }
    if step.kind.keyword != nil {
      // A block's or a variable's value is not one step's files any more.
      fileSources["previous"] = nil
      if let name = step.name?.value { fileSources[name] = nil }
      if let variable = step.kind.variable { fileSources[variable.value] = nil }
    }
    if autoConfirm, let confirm = step.confirm {
      capabilities.unattended.insert(
        .init(step: reference, question: confirm.message.map(\.asWritten), deletes: deletes),
        at: unattendedIndex)
    }
  }

  /// What either of two earlier outputs is, when the run may have left either: both sets of files, or
  /// unknown (any file) when either is.
  static func either(_ one: [String]?, _ other: [String]?) -> [String]? {
    guard let one, let other else { return nil }
    return one + other.filter { !one.contains($0) }
  }

  /// The output names (`as:`) and variables the steps in `bodies` set, however deep.
  static func names(in bodies: [[Step]]) -> [String] {
    var names: [String] = []
    for body in bodies {
      StepWalk.walk(body) { visit in
        if let name = visit.step.name?.value { names.append(name) }
        if let variable = visit.step.kind.variable { names.append(variable.value) }
      }
    }
    return names
  }

  /// Visits a block's body; true when something in it deletes.
  private mutating func visitBody(
    _ steps: [Step], prefix: String, first: Int, in workflow: Workflow, confirmed: Bool
  ) -> Bool {
    let before = effects.count
    visit(steps, prefix: prefix, first: first, in: workflow, confirmed: confirmed)
    return effects[before...].contains { $0.effect == .destructive }
  }

  private mutating func visitNested(_ value: Value, from workflow: Workflow, at step: Capabilities.StepReference)
    -> Bool
  {
    // Listed before what it runs, so the list reads in the order the steps come.
    let index = capabilities.workflows.count
    capabilities.workflows.append(Capabilities.WorkflowRun(reference: Self.written(value), step: step))
    switch analysis.load(value, from: workflow) {
    case .computed:
      capabilities.workflows[index].problem = "chosen at run time: it could be any workflow"
      return false
    case .failed(let problem):
      capabilities.workflows[index].problem = problem
      return false
    case .loaded(let nested):
      capabilities.workflows[index].file = nested.identity
      capabilities.workflows[index].name = nested.name
      let before = effects.count
      if visited.contains(nested.identity) {
        // Walked already: what it does is known, and counted once. Its effect stands in for its steps
        // here, so that a block around this step knows whether it deletes. (Nil while a cycle is still
        // walking it, as before.)
        if let known = analysis.treeEffect(of: nested) { effects.append(known) }
      } else {
        visit(nested)
      }
      return effects[before...].contains { $0.effect == .destructive }
    }
  }

  /// What an intent acts on: the entity of its catalogue that its title names ("Update Bookmarks" acts on
  /// bookmarks even though it takes them as ids), else the entity it returns, else the first it takes.
  private mutating func entity(of descriptor: IntentDescriptor) -> String? {
    let named = Self.entityNames(in: [descriptor])
    guard let namespace = descriptor.namespace else { return named.first }
    if catalogueEntities[namespace] == nil {
      catalogueEntities[namespace] = Self.entityNames(
        in: analysis.registry.descriptors.filter { $0.namespace == namespace })
    }
    let title = descriptor.title.lowercased()
    return catalogueEntities[namespace]?.first { title.contains($0.lowercased()) } ?? named.first
  }

  /// The entity types `descriptors` return or take, outputs first, each once.
  private static func entityNames(in descriptors: [IntentDescriptor]) -> [String] {
    var names: [String] = []
    for descriptor in descriptors {
      for type in [descriptor.outputType].compactMap({ $0 }) + descriptor.parameters.map(\.type) {
        if case .entity(let entity) = type.elementType, !names.contains(entity.name) { names.append(entity.name) }
      }
    }
    return names
  }

  /// The server of a tool a step calls, with what it starts here.
  private mutating func recordServer(of id: String, at step: Capabilities.StepReference) {
    guard let server = analysis.registry.server(of: id) else { return }
    if let index = capabilities.servers.firstIndex(where: { $0.name == server.name }) {
      capabilities.servers[index].steps.append(step)
    } else {
      capabilities.servers.append(.init(name: server.name, command: server.command, steps: [step]))
    }
  }

  private mutating func record(
    _ effect: StepEffect, of descriptor: IntentDescriptor, at step: Capabilities.StepReference
  ) {
    effects.append(effect)
    let entry = Capabilities.EffectStep(step: step, effect: effect.effect.rawValue, entity: entity(of: descriptor))
    if descriptor.namespace != nil {
      let app = descriptor.catalogTitle
      // Changed in place: a copy taken out and put back would copy its list of steps every time.
      let index =
        capabilities.apps.firstIndex { $0.app == app }
        ?? {
          capabilities.apps.append(Capabilities.AppAccess(app: app))
          return capabilities.apps.count - 1
        }()
      switch effect.effect {
      case .readOnly: capabilities.apps[index].reads += 1
      case .changes: capabilities.apps[index].writes += 1
      case .destructive: capabilities.apps[index].deletes += 1
      }
      capabilities.apps[index].steps.append(entry)
    } else if effect.effect != .readOnly, effect.machine.isEmpty {
      // A step that acts on the machine is said by what it does there ("writes files: ~/notes.md").
      capabilities.otherChanges.append(entry)
    }
    for touch in effect.machine {
      if let index = capabilities.machine.firstIndex(where: {
        $0.kind == touch.kind.rawValue && $0.subject == touch.subject && $0.computed == touch.computed
          && $0.command == touch.command && $0.details == touch.details
      }) {
        capabilities.machine[index].steps.append(step)
      } else {
        capabilities.machine.append(
          .init(
            kind: touch.kind.rawValue, subject: touch.subject, computed: touch.computed, names: touch.names,
            command: touch.command, details: touch.details, steps: [step]))
      }
    }
    for url in effect.urls where !capabilities.urls.contains(url) { capabilities.urls.append(url) }
    for host in effect.requestDataHosts {
      if let index = capabilities.requestData.firstIndex(where: { $0.host == host }) {
        capabilities.requestData[index].steps.append(step)
      } else {
        capabilities.requestData.append(.init(host: host, steps: [step]))
      }
    }
    for host in effect.hosts {
      if let index = hostIndex[host] {
        capabilities.hosts[index].steps.append(step)
      } else {
        hostIndex[host] = capabilities.hosts.count
        capabilities.hosts.append(.init(host: host, steps: [step]))
      }
    }
    if effect.anyHost { capabilities.anyHost.append(step) }
    for host in effect.dataHosts {
      if let index = capabilities.dataSent.firstIndex(where: { $0.host == host }) {
        capabilities.dataSent[index].steps.append(step)
      } else {
        capabilities.dataSent.append(.init(host: host, steps: [step]))
      }
    }
    if effect.exposesArguments { capabilities.exposedArguments.append(step) }
    if let claimant = effect.undeclaredHosts {
      if let index = capabilities.undeclaredHosts.firstIndex(where: {
        $0.claimedBy == claimant && $0.sendsComputed == effect.sendsComputed
      }) {
        capabilities.undeclaredHosts[index].steps.append(step)
      } else {
        capabilities.undeclaredHosts.append(
          .init(claimedBy: claimant, sendsComputed: effect.sendsComputed, steps: [step]))
      }
    }
  }

  /// The fence of a step whose action runs commands and takes a `fence` (run-shell): as written, the
  /// shared file's default when it writes none, or unfenced.
  static func fence(
    _ call: ActionCall, descriptor: IntentDescriptor, in workflow: Workflow, at step: Capabilities.StepReference
  ) -> Capabilities.Fence? {
    guard descriptor.parameter("fence") != nil, descriptor.machineAccess.contains(where: { $0.kind == .runsCommands })
    else { return nil }
    let known = KnownValues(call, descriptor: descriptor)
    let shared = workflow.shared != nil || workflow.embeddedName != nil
    var fence = Capabilities.Fence(step: step, byDefault: false, computed: known.unknown.contains("fence"))
    let declared = known.literals["fence"].flatMap { try? ShellFence(flowValue: $0) }
    let limits: ShellFence.Limits?
    switch declared {
    case .limited(let given)?: limits = given
    case .unfenced?: limits = nil
    case nil:
      fence.byDefault = !fence.computed && shared
      limits = fence.byDefault ? .readOnly : nil
    }
    if let limits {
      (fence.read, fence.write, fence.network) = (limits.read, limits.write, limits.network)
    }
    return fence
  }

  /// A value as written, for naming a nested workflow: `greet.yml`, `${choice}`.
  static func written(_ value: Value) -> String {
    if case .text(let template) = value { return template.asWritten }
    return StepEffect.literal(value)?.text ?? "?"
  }
}

extension Step.Kind {
  /// Whether its body may run again with what its last time left.
  fileprivate var isLoop: Bool {
    switch self {
    case .repeatBlock, .forEach: true
    case .action, .ifBlock, .menu, .stop, .runWorkflow, .set, .append: false
    }
  }
}
