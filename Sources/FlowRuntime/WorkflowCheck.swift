import FlowCron
import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowYAML
import FoundationEssentials
import Synchronization

/// Checks a workflow and every workflow it runs, before anything runs (SPEC §4): YAML, structure, the
/// catalogue, and across files the `input:` each `run-workflow` passes and the type it gets back. The one
/// entry point for `flow validate`, the start of `flow run`, and later `flow import` and the scheduler.
///
/// One instance serves one command: every file is read and checked once, however many workflows run it
/// (a cache by canonical path), and the run loads its nested workflows from the same cache, so nothing is
/// read twice. A workflow named by a computed reference (`run-workflow: ${name}`) is checked when the
/// step runs; a cycle of workflows that run each other is an error only when nothing can end it.
public final class WorkflowCheck: WorkflowLoading, @unchecked Sendable {
  /// A workflow as checked (usable only when there are no errors), with the problems of its whole tree:
  /// its own and those of every workflow it runs, each file's once.
  public typealias Result = (workflow: Workflow?, diagnostics: Diagnostics)

  let registry: IntentRegistry
  let files: any WorkflowFiles
  // Guards the cache: the interpreter loads nested workflows from it while a run goes on. It holds
  // nothing itself, since the recursive check below works on several of the fields at once.
  private let lock = Mutex(())
  private var entries: [String: Entry] = [:]
  /// The workflows embedded under each checked file's `workflows:`, by file key and then by name.
  private var embedded: [String: [String: Workflow]] = [:]
  /// The folder a file's references are resolved from when it is not its own: a file being imported
  /// is checked as the library copy it will become (see `check(_:asIfIn:)`).
  private var folders: [String: String] = [:]
  /// Files being checked, outermost first, each with the `run-workflow` step that leads on: a
  /// reference back into this chain is a cycle.
  private var chain: [Link] = []

  private struct Entry {
    var workflow: Workflow?
    var summary: WorkflowSummary?
    /// This file's own problems; those of the workflows it runs are in their entries.
    var diagnostics: Diagnostics
    /// The canonical path each literal `run-workflow` reference of this file leads to.
    var children: [String: String] = [:]
    /// The keys of the workflows embedded in this file, checked with it whether or not a step runs them.
    var embedded: [String] = []

    var hasErrors: Bool { diagnostics.hasErrors }
  }

  private struct Link {
    var key: String
    var step: StepWalk.Visit?
    var span: SourceSpan?
  }

  public init(registry: IntentRegistry, files: any WorkflowFiles) {
    self.registry = registry
    self.files = files
  }

  /// Reads and checks the file at `path` (as `WorkflowFiles/locate(_:from:)` found it) and every
  /// workflow it runs.
  public func check(path: String) -> Result {
    lock.withLock { _ in
      let key = files.canonicalPath(path)
      return (check(key: key, read: { files.read(path) }).workflow, tree(key))
    }
  }

  /// Checks a file in hand (an import, a test) and every workflow it runs.
  ///
  /// - Parameter folder: the folder the file's `run-workflow` references are resolved from, when that is
  ///   not the folder it was read from: `flow import` checks a download as the library copy it will
  ///   become, so that the card, the check and every later run find the same workflows.
  public func check(_ file: SourceFile, asIfIn folder: String? = nil) -> Result {
    lock.withLock { _ in
      let key = files.canonicalPath(file.path)
      if let folder { folders[key] = folder }
      return (check(key: key, read: { .success(file) }).workflow, tree(key))
    }
  }

  /// The problems of the file at `key` and of every workflow it runs, each file's once.
  private func tree(_ key: String) -> Diagnostics {
    var diagnostics = Diagnostics()
    var seen: Set<String> = []
    var pending = [key]
    while let next = pending.popLast() {
      guard seen.insert(next).inserted, let entry = entries[next] else { continue }
      diagnostics.append(contentsOf: entry.diagnostics)
      pending += (entry.children.values.sorted() + entry.embedded).reversed()
    }
    return diagnostics
  }

  /// The files the check of `workflow` read: its own and that of every workflow it runs by literal
  /// reference, each once, as canonical paths. What a cache of the check must watch (`flow mcp`).
  public func files(of workflow: Workflow) -> [String] {
    lock.withLock { _ in
      var read: [String] = []
      var seen: Set<String> = []
      var pending = [key(of: workflow)]
      while let next = pending.popLast() {
        guard seen.insert(next).inserted, let entry = entries[next] else { continue }
        // An embedded workflow's file is the one that embeds it, listed already.
        if let checked = entry.workflow, checked.embeddedName == nil, !read.contains(next) {
          read.append(next)
        }
        pending += entry.children.values.sorted() + entry.embedded
      }
      return read
    }
  }

  /// The checked workflow a literal `run-workflow` reference of `parent` leads to, from the cache.
  func child(_ reference: String, of parent: Workflow) -> Workflow? {
    lock.withLock { _ in
      entries[key(of: parent)]?.children[reference].flatMap { entries[$0]?.workflow }
    }
  }

  /// The workflows `workflow` runs by literal reference, each once, in the order its steps name them,
  /// with the reference as written: what `flow export` embeds. Only what the check has met.
  public func children(of workflow: Workflow) -> [(reference: String, workflow: Workflow)] {
    lock.withLock { _ in
      // A workflow that runs none (most) is not walked: the walk and its list cost a plain run 24 K
      // instructions of first-use metadata.
      guard let entry = entries[key(of: workflow)], !entry.children.isEmpty else { return [] }
      var found: [(String, Workflow)] = []
      StepWalk.walk(workflow) { visit in
        guard let reference = visit.step.literalWorkflowReference, !found.contains(where: { $0.0 == reference }),
          let child = entry.children[reference].flatMap({ entries[$0]?.workflow })
        else { return }
        found.append((reference, child))
      }
      return found
    }
  }

  /// The cache key of a checked workflow: its file's canonical path, `#name` for an embedded one.
  private func key(of workflow: Workflow) -> String {
    let file = files.canonicalPath(workflow.file.path)
    return workflow.embeddedName.map { "\(file)#\($0)" } ?? file
  }

  /// The type of a checked workflow's result (what `stop` gives, or its last step's output) when its
  /// steps agree on one; nil when they do not, or when the check has not met it. What `run-workflow`
  /// steps get back, and the output schema `flow mcp` gives the workflow's tool.
  public func resultType(of workflow: Workflow) -> ValueType? {
    lock.withLock { _ in entries[key(of: workflow)]?.summary?.resultType }
  }

  /// Where a checked workflow first reads `${trigger}`, if it does: a run that nothing fired is refused
  /// there before step 1 rather than failing at that step.
  public func triggerRead(of workflow: Workflow) -> Reference? {
    lock.withLock { _ in entries[key(of: workflow)]?.summary?.triggerRead }
  }

  // MARK: - WorkflowLoading

  /// The workflow `reference` names from `parent`: from the cache when the run's check met it, else
  /// read and checked now (a computed reference).
  public func load(_ reference: String, from parent: Workflow) throws(WorkflowLoadFailure) -> Workflow {
    let (entry, diagnostics): (Entry?, Diagnostics) = lock.withLock { _ in
      guard let location = locate(reference, from: parent) else { return (nil, Diagnostics()) }
      return (check(location), tree(location.key))
    }
    guard let entry else { throw WorkflowLoadFailure(message: "no workflow '\(reference)'", help: Self.lookupHelp) }
    guard let workflow = entry.workflow, !entry.hasErrors else {
      throw WorkflowLoadFailure(
        message: "'\(reference)' is invalid, so it did not run", diagnostics: diagnostics,
        help: "run 'flow validate' on it to see every problem")
    }
    return workflow
  }

  /// Where a `run-workflow` reference leads: a workflow embedded in the file, or another file.
  private enum Location {
    case embedded(key: String, workflow: Workflow)
    case file(key: String, path: String)

    var key: String {
      switch self {
      case .embedded(let key, _), .file(let key, _): key
      }
    }

    /// The path to name in messages.
    var path: String {
      switch self {
      case .embedded(_, let workflow): workflow.identity
      case .file(_, let path): path
      }
    }
  }

  /// The workflow a `run-workflow` reference of `parent` names: the one lookup, for the check, the card
  /// and the run alike. The `workflows:` section of the parent's file comes first, so that a shared file
  /// runs what it carries, whatever the importer's disk holds; then files, as `WorkflowFiles` finds them
  /// from the parent's folder (the library's, for a file being imported). Where a reference leads
  /// depends only on where its file lives, never on the working directory, so that what an import
  /// showed is what `flow run` and the scheduler run.
  private func locate(_ reference: String, from parent: Workflow) -> Location? {
    let file = files.canonicalPath(parent.file.path)
    if let workflow = embedded[file]?[reference] {
      return .embedded(key: "\(file)#\(reference)", workflow: workflow)
    }
    let folder = folders[file] ?? PathText.deletingLastComponent(parent.file.path)
    return files.locate(reference, inFolder: folder).map { .file(key: files.canonicalPath($0), path: $0) }
  }

  private func check(_ location: Location) -> Entry {
    switch location {
    case .embedded(let key, let workflow):
      return entries[key] ?? check(workflow, key: key, own: Diagnostics())
    case .file(let key, let path):
      return check(key: key, read: { files.read(path) })
    }
  }

  private static let lookupHelp = "give a path relative to this workflow's folder, or the name of a library workflow"

  // MARK: - Checking

  private func check(key: String, read: () -> Swift.Result<SourceFile, Diagnostic>) -> Entry {
    if let entry = entries[key] { return entry }
    let file: SourceFile
    switch read() {
    case .success(let read): file = read
    case .failure(let problem): return remember(Entry(diagnostics: Diagnostics([problem])), at: key)
    }
    let document = YAMLDocument.load(file)
    var own = document.diagnostics
    // After a YAML error the tree is partial; checking it would only add noise.
    guard !own.hasErrors else { return remember(Entry(diagnostics: own), at: key) }
    let (decoded, structural) = WorkflowDecoder.decode(document)
    own.append(contentsOf: structural)
    guard let workflow = decoded else { return remember(Entry(diagnostics: own), at: key) }
    if !workflow.embedded.isEmpty {
      embedded[key] = Dictionary(
        workflow.embedded.map { ($0.name.value, $0.workflow) }, uniquingKeysWith: { a, _ in a })
    }
    var entry = check(workflow, key: key, own: own)
    // The whole file is checked: embedded workflows no step names literally too.
    for nested in workflow.embedded {
      let nestedKey = "\(key)#\(nested.name.value)"
      if entries[nestedKey] == nil { _ = check(nested.workflow, key: nestedKey, own: Diagnostics()) }
      entry.embedded.append(nestedKey)
    }
    return remember(entry, at: key)
  }

  /// Checks a decoded workflow and the workflows it runs, and remembers it at `key`.
  private func check(_ workflow: Workflow, key: String, own: Diagnostics) -> Entry {
    var own = own
    own.append(contentsOf: WorkflowSchedule.check(workflow))

    // The workflows it runs first, so that their inputs and results are known when its steps are checked.
    var visits: [StepWalk.Visit] = []
    StepWalk.walk(workflow) { if $0.step.literalWorkflowReference != nil { visits.append($0) } }
    var summaries: [String: WorkflowSummary?] = [:]
    var children: [String: String] = [:]
    chain.append(Link(key: key))
    for visit in visits {
      guard let reference = visit.step.literalWorkflowReference, summaries[reference] == nil,
        case .runWorkflow(let value, _) = visit.step.kind
      else { continue }
      summaries[reference] = .some(nil)
      guard !reference.isEmpty else {
        own.append(
          Diagnostic(.error, .workflowNotFound, "'run-workflow' names no workflow", at: value.span)
            .help(Self.lookupHelp))
        continue
      }
      guard let location = locate(reference, from: workflow) else {
        // A file checked as if it were elsewhere (an import) is told where it will look once there.
        let home = folders[files.canonicalPath(workflow.file.path)]
        own.append(
          Diagnostic(.error, .workflowNotFound, "no workflow '\(reference)' to run", at: value.span)
            .help(
              home.map {
                "a shared file runs the workflows it carries under 'workflows:', and others from your library "
                  + "(\($0)), never from beside it: add '\(reference)' to your library first, or ask for a file "
                  + "that carries it"
              } ?? Self.lookupHelp))
        continue
      }
      let childKey = location.key
      children[reference] = childKey
      if let start = chain.firstIndex(where: { $0.key == childKey }) {
        if let endless = endlessCycle(from: start, closedBy: visit, at: value.span, reference: reference) {
          own.append(endless)
        }
        continue
      }
      chain[chain.count - 1].step = visit
      chain[chain.count - 1].span = value.span
      let entry = check(location)
      if entry.hasErrors {
        own.append(
          Diagnostic(.error, .invalidWorkflow, "'\(reference)' is invalid, so this step cannot run", at: value.span)
            .help("its own errors are reported under '\(location.path)'"))
      }
      summaries[reference] = .some(entry.summary)
    }
    chain.removeLast()

    let (checked, summary) = Checker(registry: registry).check(workflow, children: summaries)
    own.append(contentsOf: checked)
    own.append(contentsOf: ScriptInjection.check(workflow, shared: isShared(workflow), registry: registry))
    return remember(Entry(workflow: workflow, summary: summary, diagnostics: own, children: children), at: key)
  }

  /// Whether values in `workflow` come from someone else: a file `flow export` wrote (`shared:`, and the
  /// workflows embedded in it), or one being imported. What makes ScriptInjection an error.
  private func isShared(_ workflow: Workflow) -> Bool {
    workflow.shared != nil || workflow.embeddedName != nil || folders[files.canonicalPath(workflow.file.path)] != nil
  }

  private func remember(_ entry: Entry, at key: String) -> Entry {
    entries[key] = entry
    return entry
  }

  /// A cycle that every run goes round forever: each `run-workflow` on it runs whenever its workflow
  /// does. One that a condition can leave is bounded at run time (8 levels) and not reported.
  private func endlessCycle(from start: Int, closedBy visit: StepWalk.Visit, at span: SourceSpan, reference: String)
    -> Diagnostic?
  {
    let links = chain[start...].dropLast()
    guard visit.certain, links.allSatisfy({ $0.step?.certain == true }) else { return nil }
    var diagnostic = Diagnostic(
      .error, .endlessRecursion,
      links.isEmpty
        ? "this workflow runs itself every time it runs, without end"
        : "'\(reference)' runs this workflow again every time it runs, without end",
      at: span)
    for link in links { if let span = link.span { diagnostic = diagnostic.note("the cycle goes on here", at: span) } }
    return diagnostic.help(
      "put the 'run-workflow' under 'if' or 'when' so that the workflows stop running each other")
  }
}

/// Where workflows are found and read: the command line's `WorkflowLocator`, over the file system.
/// Lookup lives here alone, so that `flow run NAME`, `flow validate NAME` and `run-workflow: NAME` find
/// the same file.
public protocol WorkflowFiles: Sendable {
  /// The path of the file a `run-workflow` reference names, as a person should see it: relative to
  /// `folder` (the running workflow's) first, then a library name; never the working directory. Nil
  /// when nothing matches.
  func locate(_ reference: String, inFolder folder: String) -> String?
  /// One spelling per file (absolute, normalised), so that a file reached by two paths is read once.
  func canonicalPath(_ path: String) -> String
  /// The file's contents, or a diagnostic saying why they cannot be had.
  func read(_ path: String) -> Swift.Result<SourceFile, Diagnostic>
}

/// Loads the workflows that `run-workflow` names while a workflow runs.
public protocol WorkflowLoading: Sendable {
  /// The checked workflow `reference` names from `parent`.
  func load(_ reference: String, from parent: Workflow) throws(WorkflowLoadFailure) -> Workflow
}

/// Why a nested workflow cannot run: a message for the step, and the workflow's own problems.
public struct WorkflowLoadFailure: Error, Sendable {
  public var message: String
  public var diagnostics: Diagnostics
  public var help: String?

  public init(message: String, diagnostics: Diagnostics = Diagnostics(), help: String? = nil) {
    self.message = message
    self.diagnostics = diagnostics
    self.help = help
  }
}

/// Resolves a workflow's inputs before its first step (SPEC §5): given values are coerced to the
/// declared types, defaults fill the rest, and what is still missing is asked for.
public enum InputResolver {
  /// - Parameters:
  ///   - given: values from the command line, an input file or standard input, by name.
  ///   - asking: inputs to ask for even when they have a default (`input: ask` on `run-workflow`).
  public static func resolve(
    _ workflow: Workflow, given: [String: FlowValue], asking: Set<String> = [], registry: IntentRegistry,
    prompter: any Prompter, clock: any FlowClock = SystemClock()
  ) async throws(RunError) -> FlowDictionary {
    let checker = Checker(registry: registry)
    let now = clock.now
    var inputs = try checkGiven(workflow, given: given, checker: checker, now: now)
    for input in workflow.inputs where inputs[input.name.value] == nil {
      let name = input.name.value
      let type = checker.inputType(input)
      try await failing(input) {
        if let value = input.defaultValue, !asking.contains(name) {
          inputs[name] = try coerce(Evaluator.evaluate(value, in: Scope.empty), to: type, now: now)
        } else {
          var request = ValueRequest(
            kind: .missingParameter, origin: PromptOrigin(parameterKey: name, parameterTitle: input.prompt ?? name),
            dialog: input.prompt ?? "Value for '\(name)'", valueType: type)
          request.masked = input.secret
          inputs[name] = try await Prompting.requestValue(request, prompter: prompter) {
            try coerce($0, to: type, now: now)
          }
        }
      }
    }
    return FlowDictionary(
      workflow.inputs.compactMap { input in inputs[input.name.value].map { (input.name.value, $0) } })
  }

  /// Checks the values given before anything is asked or run: each names a declared input and fits its
  /// type. Such mistakes are usage errors (exit 2), reported before an unattended run says what it lacks.
  public static func checkGiven(
    _ workflow: Workflow, given: [String: FlowValue], registry: IntentRegistry, clock: any FlowClock = SystemClock()
  ) throws(RunError) {
    _ = try checkGiven(workflow, given: given, checker: Checker(registry: registry), now: clock.now)
  }

  private static func checkGiven(_ workflow: Workflow, given: [String: FlowValue], checker: Checker, now: Date)
    throws(RunError) -> FlowDictionary
  {
    let declared = workflow.inputs.map(\.name.value)
    for name in given.keys.sorted() where !declared.contains(name) {
      throw RunError(
        .invalid,
        Diagnostic(.error, .unknownInput, "'\(workflow.name)' has no input '\(name)'", file: workflow.file.path)
          .help(Suggestion.help(for: name, among: declared) ?? (declared.isEmpty ? "it takes no inputs" : nil)))
    }
    var inputs = FlowDictionary()
    for input in workflow.inputs {
      guard let value = given[input.name.value] else { continue }
      try failing(input) { inputs[input.name.value] = try coerce(value, to: checker.inputType(input), now: now) }
    }
    return inputs
  }

  /// The type an input declares (`any` when it declares none), so that the command line can tell a list
  /// input, which a repeated `--input` adds to, from a single one.
  public static func declaredType(of input: Workflow.Input, registry: IntentRegistry) -> ValueType {
    Checker(registry: registry).inputType(input)
  }

  /// Runs `body` for `input`, turning what it throws into the run error of its class.
  private static func failing(_ input: Workflow.Input, _ body: () async throws -> Void) async throws(RunError) {
    do {
      try await body()
    } catch let error as RunError {
      throw error
    } catch {
      throw runError(error, input)
    }
  }

  private static func failing(_ input: Workflow.Input, _ body: () throws -> Void) throws(RunError) {
    do {
      try body()
    } catch let error as RunError {
      throw error
    } catch {
      throw runError(error, input)
    }
  }

  private static func runError(_ error: any Error, _ input: Workflow.Input) -> RunError {
    let (message, help) = AppIntentError.describe(error)
    let kind = RunError.classify(error)
    // A prompter's refusal already names the input; a value that does not fit gets it added.
    let text = kind == .needsInput ? message : "input '\(input.name.value)': \(message)"
    return RunError(
      kind == .stepFailed ? .invalid : kind,
      Diagnostic(.error, kind == .needsInput ? .inputNeeded : .invalidInput, text, at: input.name.span).help(help))
  }

  /// Entity-typed inputs stay as given; their parameters resolve them through the entity's query. Dates
  /// are read as `ask` reads them ('tomorrow', '2026-12-01 09:00' in the system's zone), as of `now`:
  /// the run's clock, when the inputs are resolved before step 1.
  private static func coerce(_ value: FlowValue, to type: ValueType, now: Date) throws -> FlowValue {
    if case .entity = type.elementType { return value }
    return try Coercion.coerce(DateWords.reading(value, as: type, now: now), to: type)
  }
}

extension Scope {
  /// A scope with nothing in it, for literal defaults.
  static var empty: Scope {
    Scope(
      inputs: FlowDictionary(), builtIns: BuiltIns(workflowName: "", runID: "", environment: [:], clock: SystemClock()))
  }
}

extension DiagnosticCode {
  /// `run-workflow` names a workflow that cannot be found or read.
  public static let workflowNotFound: Self = "workflow-not-found"
  /// `run-workflow` names a workflow that has errors of its own.
  public static let invalidWorkflow: Self = "invalid-workflow"
  /// Workflows that run each other on every run, so that the run could never end.
  public static let endlessRecursion: Self = "endless-recursion"
  /// A value given for an input that the workflow does not declare.
  public static let unknownInput: Self = "unknown-input"
  /// A value given for an input that does not fit its type.
  public static let invalidInput: Self = "invalid-input"
}
