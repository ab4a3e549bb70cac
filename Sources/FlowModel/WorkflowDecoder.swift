import FlowDiagnostics
import FlowYAML

/// Decodes a loaded YAML document into a ``Workflow``, collecting every structural problem on the way:
/// unknown and missing keys, wrong kinds, malformed steps, references and conditions.
///
/// Short and long forms meet here: `- show: Done` and `- show: {text: Done}` both become one
/// ``ActionCall``; `retry: 3` and `retry: {attempts: 3}` one ``Step/Retry``.
public struct WorkflowDecoder {
  public private(set) var diagnostics = Diagnostics()
  private let file: SourceFile
  /// `as:` names seen so far, for the duplicate check.
  private var names: [String: SourceSpan] = [:]

  /// Decodes `document`; the workflow is nil when its top level could not be read at all.
  public static func decode(_ document: YAMLDocument) -> (workflow: Workflow?, diagnostics: Diagnostics) {
    var decoder = WorkflowDecoder(file: document.file)
    let workflow = decoder.workflow(document.root)
    return (workflow, decoder.diagnostics)
  }

  private init(file: SourceFile) {
    self.file = file
  }

  // MARK: - Top level

  private mutating func workflow(_ root: YAMLNode?) -> Workflow? {
    guard let root, root.scalar?.resolved != .null else {
      report(
        Diagnostic(
          .error, .emptyWorkflow, "the workflow file is empty",
          at: SourceSpan(file: file, at: SourceLocation(line: 1, column: 1))
        ).help("a workflow starts with 'flow: \(WorkflowFormat.version)' and lists its 'steps'"))
      return nil
    }
    guard let mapping = root.mapping else {
      report(
        Diagnostic(.error, .wrongKind, "expected a mapping at the top level, found \(root.kindName)", at: root.span)
          .help("a workflow is a mapping of keys such as 'flow', 'name' and 'steps'"))
      return nil
    }
    let stem = file.path.split(separator: "/").last.map { String($0.split(separator: ".").first ?? $0) } ?? "workflow"
    return workflow(mapping, defaultName: stem, embeddedName: nil)
  }

  /// The workflow a mapping holds: the file's, or one embedded under its `workflows:`.
  private mutating func workflow(_ mapping: YAMLNode.Mapping, defaultName: String, embeddedName: String?)
    -> Workflow
  {
    let known = WorkflowFormat.keys.map(\.name).filter {
      embeddedName == nil || !WorkflowFormat.fileOnlyKeys.contains($0)
    }
    for entry in mapping.entries {
      // A workflow names MCP servers (`time.get_current_time`); only the local config.yml says what a
      // name starts, so a file that brings its own commands is refused, whoever sent it (Documentation/MCP.md).
      if Self.serverKeys.contains(entry.key.value) {
        report(
          Diagnostic(
            .error, .serverDeclaration, "a workflow cannot declare servers: '\(entry.key.value)' is not allowed",
            at: entry.key.span
          )
          .help(
            "a workflow only names servers in its steps (SERVER.TOOL); add a server on this machine with 'flow servers add'"
          ))
        continue
      }
      guard let key = WorkflowFormat.keysByName[entry.key.value] else {
        report(
          Diagnostic(.error, .unknownKey, "unknown key '\(entry.key.value)'", at: entry.key.span)
            .help(Suggestion.help(for: entry.key.value, among: known, listUpTo: known.count)))
        continue
      }
      if embeddedName != nil, WorkflowFormat.fileOnlyKeys.contains(key.name) {
        report(
          Diagnostic(
            .error, .misplacedKey, "'\(key.name)' belongs at the top of the file, not in an embedded workflow",
            at: entry.key.span
          ).help("the file's own '\(key.name)' serves the workflows embedded in it too"))
        continue
      }
      checkShape(entry.value, against: key)
    }
    for key in WorkflowFormat.keys where key.isRequired && mapping[key.name] == nil {
      report(
        Diagnostic(
          .error, .missingKey, "missing required key '\(key.name)'", at: SourceSpan(file: file, at: mapping.span.start)
        )
        .help(key.name == "flow" ? "add 'flow: \(WorkflowFormat.version)' as the first line" : "add '\(key.name):'"))
    }

    // Each workflow names its own steps' outputs.
    let outerNames = names
    names = [:]
    // Sized once for a name per step, rather than rehashed at every doubling.
    names.reserveCapacity(mapping["steps"]?.value.sequence?.items.count ?? 0)
    defer { names = outerNames }
    var workflow = Workflow(
      file: file,
      name: mapping["name"]?.value.scalar?.value ?? defaultName,
      description: mapping["description"]?.value.scalar?.value,
      icon: mapping["icon"]?.value.scalar?.value,
      color: mapping["color"]?.value.scalar?.value,
      inputs: mapping["input"]?.value.mapping.map { inputs($0) } ?? [],
      environment: mapping["env"]?.value.sequence?.items.compactMap { item in
        item.scalar.map { Located($0.value, at: $0.span) }
      } ?? [],
      secrets: mapping["secrets"]?.value.sequence?.items.compactMap { item in
        item.scalar.map { Located($0.value, at: $0.span) }
      } ?? [],
      schedule: mapping["schedule"].map { schedule($0.value) } ?? [],
      timezone: mapping["timezone"]?.value.scalar.map { Located($0.value, at: $0.span) },
      confirmations: mapping["confirmations"]?.value.scalar.flatMap { Workflow.ConfirmationPolicy(rawValue: $0.value) }
        ?? .ask,
      steps: mapping["steps"]?.value.sequence.map { steps($0) } ?? []
    )
    workflow.onFailure = mapping["on-failure"]?.value.sequence.map { steps($0) } ?? []
    for name in workflow.secrets where !WorkflowFormat.isSecretName(name.value) {
      report(
        Diagnostic(.error, .invalidName, "'\(name.value)' is not a secret's name", at: name.span)
          .help("a secret's name is letters, digits, '-' and '_', starting with a letter or digit, like 'github-token'")
      )
    }
    if let phrases = mapping["phrases"] {
      workflow.phrases = Phrase.parse(phrases.value, inputs: workflow.inputs.map(\.name.value)) { report($0) }
    }
    if let on = mapping["on"] {
      let (triggers, schedule) = self.triggers(on.value)
      workflow.triggers = triggers
      workflow.schedule += schedule
    }
    workflow.runPolicy = mapping["run"]?.value.scalar.flatMap { Workflow.RunPolicy(rawValue: $0.value) } ?? .immediately
    workflow.notifyWhenRun = mapping["notify-when-run"].flatMap { bool($0.value, for: "notify-when-run") } ?? false
    workflow.embeddedName = embeddedName
    guard embeddedName == nil else { return workflow }
    workflow.shared = mapping["shared"]?.value.mapping.map { shared($0) }
    workflow.embedded = mapping["workflows"]?.value.mapping.map { embedded($0) } ?? []
    return workflow
  }

  /// Reports a top-level value of the wrong kind.
  private mutating func checkShape(_ node: YAMLNode, against key: WorkflowFormat.Key) {
    func wrongKind(_ expected: String) {
      if key.shape == .steps, node.scalar?.resolved == .null {
        return report(
          Diagnostic(.error, .wrongKind, "'\(key.name)' is empty", at: node.span)
            .help("list the steps under it, each on its own line starting with '- ', like '  - show: Hello'"))
      }
      report(
        Diagnostic(.error, .wrongKind, "expected \(expected) for '\(key.name)', found \(node.kindName)", at: node.span)
          .help(Self.shapeHelp(for: key, node)))
    }
    switch key.shape {
    case .version:
      guard case .scalar(let scalar) = node, case .int(let version) = scalar.resolved else {
        return wrongKind("the format version \(WorkflowFormat.version)")
      }
      if version != WorkflowFormat.version {
        report(
          Diagnostic(.error, .unsupportedVersion, "unsupported format version \(version)", at: node.span)
            .help("this flow reads version \(WorkflowFormat.version) files; a newer flow may read this one"))
      }
    case .text:
      if node.scalar == nil || node.scalar?.resolved == .null { wrongKind("text") }
    case .choice(let choices):
      guard let scalar = node.scalar, scalar.resolved != .null else { return wrongKind("text") }
      if !choices.contains(scalar.value) {
        report(
          Diagnostic(.error, .unknownValue, "unknown \(key.name) '\(scalar.value)'", at: node.span)
            .help(Suggestion.help(for: scalar.value, among: choices, listUpTo: 15)))
      }
    case .inputs:
      if node.mapping == nil { wrongKind("a mapping") }
    case .steps:
      if node.sequence == nil { wrongKind("a sequence") }
    case .schedule, .triggers, .flag:
      // Read, and reported, by schedule(_:), triggers(_:) and bool(_:for:).
      break
    case .shared, .workflows:
      if node.mapping == nil { wrongKind("a mapping") }
    case .textList:
      guard let sequence = node.sequence else { return wrongKind("a sequence of names") }
      if let item = sequence.items.first(where: { $0.scalar == nil || $0.scalar?.resolved == .null }) {
        report(
          Diagnostic(.error, .wrongKind, "expected a name in '\(key.name)', found \(item.kindName)", at: item.span))
      }
    }
  }

  /// How to write a top-level value that has the wrong kind, for the keys people get wrong.
  private static func shapeHelp(for key: WorkflowFormat.Key, _ node: YAMLNode) -> String? {
    switch key.shape {
    case .steps:
      return "write each step on its own line, starting with '- ', like '  - show: Hello'"
    case .inputs:
      // `input: [url]` lists names: show the mapping those names make.
      let name = node.sequence?.items.first?.scalar?.value ?? "url"
      return "declare each input by name with its type, one per line, like '  \(name): text'"
    case .textList:
      // `env: HOME` names one variable: show the list it belongs in.
      return "list the names in brackets, like '\(key.name): [\(node.scalar?.value ?? "HOME")]'"
    case .version, .text, .choice, .schedule, .triggers, .flag, .shared, .workflows:
      return nil
    }
  }

  // MARK: - Schedule

  private static let scheduleKeys = ["cron", "timezone"]

  /// `schedule:` in its three forms: `"0 9 * * *"`, a list, `{cron: …, timezone: …}` (whose `cron` may be
  /// a list too); a list may mix expressions and mappings.
  mutating func schedule(_ node: YAMLNode) -> [ScheduleEntry] {
    let help = "write a cron expression like '0 9 * * MON-FRI', a list of them, or 'cron:' with 'timezone:'"
    switch node {
    case .scalar(let scalar) where scalar.resolved != .null:
      return [ScheduleEntry(cron: Located(scalar.value, at: scalar.span), locator: ScalarLocator(scalar))]
    case .sequence(let sequence) where !sequence.items.isEmpty:
      return sequence.items.flatMap { item -> [ScheduleEntry] in
        switch item {
        case .scalar(let scalar) where scalar.resolved != .null:
          return [ScheduleEntry(cron: Located(scalar.value, at: scalar.span), locator: ScalarLocator(scalar))]
        case .mapping(let mapping):
          return scheduleMapping(mapping)
        default:
          report(
            Diagnostic(
              .error, .wrongKind, "expected a cron expression or a mapping in 'schedule', found \(item.kindName)",
              at: item.span
            ).help(help))
          return []
        }
      }
    case .mapping(let mapping):
      return scheduleMapping(mapping)
    default:
      let found = node.sequence != nil ? "an empty list" : node.kindName
      report(
        Diagnostic(.error, .wrongKind, "expected a cron expression for 'schedule', found \(found)", at: node.span)
          .help(help))
      return []
    }
  }

  private mutating func scheduleMapping(_ mapping: YAMLNode.Mapping) -> [ScheduleEntry] {
    var expressions: [YAMLNode.Scalar] = []
    var timezone: Located<String>?
    for entry in mapping.entries {
      switch entry.key.value {
      case "cron":
        switch entry.value {
        case .scalar(let scalar) where scalar.resolved != .null:
          expressions = [scalar]
        case .sequence(let sequence) where !sequence.items.isEmpty:
          for item in sequence.items {
            if let scalar = item.scalar, scalar.resolved != .null {
              expressions.append(scalar)
            } else {
              report(
                Diagnostic(.error, .wrongKind, "expected a cron expression, found \(item.kindName)", at: item.span))
            }
          }
        default:
          let found = entry.value.sequence != nil ? "an empty list" : entry.value.kindName
          report(
            Diagnostic(
              .error, .wrongKind, "expected a cron expression or a list of them for 'cron', found \(found)",
              at: entry.value.span))
        }
      case "timezone":
        timezone = text(entry.value, for: "timezone")
      default:
        unknownKey(entry.key, among: Self.scheduleKeys, in: "a schedule")
      }
    }
    if mapping["cron"] == nil {
      report(
        Diagnostic(.error, .missingKey, "this schedule has no 'cron'", at: mapping.span)
          .help("add 'cron:' with an expression like '0 9 * * MON-FRI'"))
    }
    return expressions.map { scalar in
      ScheduleEntry(cron: Located(scalar.value, at: scalar.span), locator: ScalarLocator(scalar), timezone: timezone)
    }
  }

  // MARK: - Sharing

  private static let sharedKeys = WorkflowFormat.sharedKeys.map(\.name)

  /// `shared:`: dates in the one form `flow export` writes, the action count, the version.
  private mutating func shared(_ mapping: YAMLNode.Mapping) -> Workflow.Shared {
    var shared = Workflow.Shared(span: mapping.span)
    for entry in mapping.entries {
      switch entry.key.value {
      case "created", "modified":
        guard let text = text(entry.value, for: entry.key.value) else { continue }
        guard Self.isTimestamp(text.value) else {
          report(
            Diagnostic(
              .error, .wrongKind, "expected a time like 2026-11-23T09:15:00Z, found '\(text.value)'", at: text.span
            )
            .help("'flow export' writes times in UTC, to the second"))
          continue
        }
        if entry.key.value == "created" { shared.created = text } else { shared.modified = text }
      case "actions":
        guard case .int(let count)? = entry.value.scalar?.resolved, count >= 0 else {
          report(
            Diagnostic(
              .error, .wrongKind, "expected a number of actions, found \(entry.value.kindName)", at: entry.value.span))
          continue
        }
        shared.actions = count
      case "flow-version":
        shared.flowVersion = text(entry.value, for: "flow-version")?.value
      default:
        unknownKey(entry.key, among: Self.sharedKeys, in: "'shared'")
      }
    }
    return shared
  }

  /// `2026-11-23T09:15:00Z`: the one shape of a time in `shared:`.
  static func isTimestamp(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 20 else { return false }
    for (index, byte) in bytes.enumerated() {
      let expected: UInt8? =
        switch index {
        case 4, 7: UInt8(ascii: "-")
        case 10: UInt8(ascii: "T")
        case 13, 16: UInt8(ascii: ":")
        case 19: UInt8(ascii: "Z")
        default: nil
        }
      if let expected { if byte != expected { return false } } else if !(0x30...0x39).contains(byte) { return false }
    }
    return true
  }

  /// `workflows:`: each entry a whole workflow, named by the reference its `run-workflow` uses.
  private mutating func embedded(_ mapping: YAMLNode.Mapping) -> [Workflow.Embedded] {
    mapping.entries.compactMap { entry in
      let name = Located(entry.key.value, at: entry.key.span)
      guard let body = entry.value.mapping else {
        report(
          Diagnostic(
            .error, .wrongKind, "expected a workflow for '\(name.value)' in 'workflows', found \(entry.value.kindName)",
            at: entry.value.span
          ).help("each entry of 'workflows' is a whole workflow, with 'flow' and 'steps'"))
        return nil
      }
      let stem = String(name.value.split(separator: "/").last?.split(separator: ".").first ?? "workflow")
      return Workflow.Embedded(name: name, workflow: workflow(body, defaultName: stem, embeddedName: name.value))
    }
  }

  // MARK: - Inputs

  private static let inputKeys = WorkflowFormat.inputKeys.map(\.name)

  private mutating func inputs(_ mapping: YAMLNode.Mapping) -> [Workflow.Input] {
    mapping.entries.map { entry in
      let name = Located(entry.key.value, at: entry.key.span)
      var input = Workflow.Input(
        name: name, type: nil, prompt: nil, defaultValue: nil, askOnImport: false, secret: false)
      switch entry.value {
      case .scalar(let scalar) where scalar.resolved == .null:
        break
      case .scalar(let scalar):
        // The short form `url: url` names the type.
        input.type = Located(scalar.value, at: scalar.span)
      case .mapping(let declaration):
        for field in declaration.entries {
          switch field.key.value {
          case "type": input.type = text(field.value, for: "type")
          case "prompt": input.prompt = text(field.value, for: "prompt")?.value
          case "default": input.defaultValue = value(field.value)
          case "ask-on-import": input.askOnImport = bool(field.value, for: "ask-on-import") ?? false
          case "secret": input.secret = bool(field.value, for: "secret") ?? false
          default: unknownKey(field.key, among: Self.inputKeys, in: "an input")
          }
        }
      case .sequence:
        report(
          Diagnostic(
            .error, .wrongKind, "expected a type or a mapping for input '\(name.value)', found a sequence",
            at: entry.value.span
          ).help("write 'type: \"[text]\"' for a list input"))
      }
      return input
    }
  }

  // MARK: - Steps

  /// Keys any step may carry besides what it does.
  static let stepKeys = WorkflowFormat.stepKeys.map { $0.name }

  /// The block keywords and the keys that belong to each.
  static let blocks = Dictionary(
    uniqueKeysWithValues: WorkflowFormat.blocks.map { block in (block.keyword, block.keys.map { $0.name }) })

  /// Step keys that are also actions: `confirm` asks before a step runs, and is the basic action that asks
  /// a question. In a step whose only other keys are step keys, it is the action (`- confirm: Sure?`).
  static let actionStepKeys: Set<String> = ["confirm"]

  /// The keys that belong to blocks (`then`, `do`, `value`…): what a step tells from its action. A set
  /// made once; which blocks own a key is worked out only for a message (``owners(of:)``).
  private static let blockKeys = Set(WorkflowFormat.blocks.flatMap { block in block.keys.map { $0.name } })

  /// How to name the owners of a key that belongs to blocks: "an 'if'", "a 'set' or 'append'". Made
  /// only for the message: joining the names costs a conformance scan, a thirtieth of a one-step run.
  private static func owners(of key: String) -> String {
    let names = blocks.keys.sorted().filter { blocks[$0]?.contains(key) == true }.map { "'\($0)'" }
    guard let first = names.first else { return "a block" }
    let article = first.dropFirst().first.map { "aeiou".contains($0) } == true ? "an" : "a"
    return "\(article) \(List.or(names))"
  }

  private mutating func steps(_ sequence: YAMLNode.Sequence) -> [Step] {
    // Room for every step at once: grown by doubling, a list of 20,000 steps was copied fifteen times and
    // held twice at its last growth, the peak of a check's memory.
    var steps: [Step] = []
    steps.reserveCapacity(sequence.items.count)
    for item in sequence.items {
      if let step = step(item) { steps.append(step) }
    }
    return steps
  }

  /// The steps of a block body (`then`, `else`, `do`, a menu option).
  private mutating func body(_ node: YAMLNode?, of block: String, key: String, at span: SourceSpan) -> [Step] {
    guard let node else {
      var purpose = ""
      for blockKey in WorkflowFormat.blocksByKeyword[block]?.keys ?? [] where blockKey.name == key {
        if case .steps(let text) = blockKey.holds { purpose = text }
      }
      report(
        Diagnostic(.error, .missingKey, "'\(block)' needs '\(key):' with its steps", at: span)
          .help("add '\(key):' beside '\(block)', with the steps \(purpose) as a list under it"))
      return []
    }
    switch node {
    case .sequence(let sequence): return steps(sequence)
    case .scalar(let scalar) where scalar.resolved == .null: return []
    default:
      report(
        Diagnostic(.error, .wrongKind, "expected a list of steps for '\(key)', found \(node.kindName)", at: node.span)
          .help("write each step on its own line, starting with '- '"))
      return []
    }
  }

  private mutating func step(_ node: YAMLNode) -> Step? {
    switch node {
    case .scalar(let scalar) where scalar.resolved != .null:
      if let block = WorkflowFormat.blocksByKeyword[scalar.value] {
        // `- stop` ends the run; every other block needs its value.
        guard block.id == .stop else {
          report(
            Diagnostic(.error, .missingKey, "'\(scalar.value)' needs a value", at: scalar.span)
              .help("write it as '\(block.example)'"))
          return nil
        }
        return Step(kind: .stop(output: nil), span: node.span, onError: .stop)
      }
      // `- raindrop.get-collections`: an action without parameters.
      guard let id = actionID(scalar) else { return nil }
      return Step(kind: .action(ActionCall(id: id, arguments: .none)), span: node.span, onError: .stop)
    case .mapping(let mapping):
      return step(mapping)
    default:
      report(
        Diagnostic(.error, .wrongKind, "expected a step, found \(node.kindName)", at: node.span)
          .help("a step is an action name, or a mapping like 'show: Hello'"))
      return nil
    }
  }

  /// What a key of a step's mapping is, found with one lookup: a block's keyword, a step key, or a key
  /// that belongs to blocks. Any other key names an action.
  private enum KeyRole {
    case keyword(BlockKeyword)
    case stepKey
    case blockKey
  }

  /// Every key with a role. A key both a step key and a block's would be read as the block's, which
  /// sends its step down the general path below, where both count.
  private static let keyRoles: [String: KeyRole] = {
    var roles: [String: KeyRole] = [:]
    for block in WorkflowFormat.blocks { roles[block.keyword] = .keyword(block.id) }
    for key in stepKeys { roles[key] = .stepKey }
    for key in blockKeys { roles[key] = .blockKey }
    return roles
  }()

  private mutating func step(_ mapping: YAMLNode.Mapping) -> Step? {
    // Most steps are one action or block keyword beside step keys: each key looked up once, and the step
    // made without listing its heads or looking for misplaced keys, of which it has none.
    var head: Int?
    var block: BlockKeyword?
    var plain = true
    for index in mapping.entries.indices {
      switch Self.keyRoles[mapping.entries[index].key.value] {
      case .stepKey?:
        continue
      case .blockKey?:
        plain = false
      case .keyword(let keyword)?:
        if head != nil { plain = false }
        (head, block) = (index, keyword)
      case nil:
        if head != nil { plain = false }
        head = index
      }
      if !plain { break }
    }
    if plain, let head {
      let entry = mapping.entries[head]
      guard let kind = kind(keyword: entry, in: mapping, block: block) else { return nil }
      var step = Step(kind: kind, span: mapping.span, onError: .stop)
      if mapping.entries.count > 1 { decodeStepKeys(mapping, into: &step, action: entry.key.value) }
      return step
    }
    return generalStep(mapping)
  }

  /// A step with no action, several, or keys of blocks: what it is is worked out from every key, and
  /// each problem reported.
  private mutating func generalStep(_ mapping: YAMLNode.Mapping) -> Step? {
    var mapping = mapping
    var heads = mapping.entries.filter {
      !Self.stepKeys.contains($0.key.value) && !Self.blockKeys.contains($0.key.value)
    }
    if heads.isEmpty, let action = mapping.entries.first(where: { Self.actionStepKeys.contains($0.key.value) }) {
      heads = [action]
    }
    if let head = heads.first, heads.count > 1 {
      heads = [head] + heads.dropFirst().filter { !renamedBlockKey($0, of: head.key.value, in: &mapping) }
    }
    guard let head = heads.first else {
      if let stray = mapping.entries.first(where: { Self.blockKeys.contains($0.key.value) }) {
        report(
          Diagnostic(
            .error, .misplacedKey,
            "'\(stray.key.value)' belongs to \(Self.owners(of: stray.key.value)) step",
            at: stray.key.span
          )
          .help(
            "'- ' starts a step of its own: write '\(stray.key.value):' in the step of its block, without the '- ',"
              + " lined up with the block's keyword"))
      } else {
        report(
          Diagnostic(.error, .missingAction, "this step has no action", at: mapping.span)
            .help("add the action to run, like 'show: Hello'"))
      }
      return nil
    }
    if heads.count > 1 {
      let others = heads.dropFirst().map { "'\($0.key.value)'" }
      report(
        Diagnostic(
          .error, .multipleActions, "a step runs one action, but this one also has \(List.and(others))",
          at: heads[1].key.span
        ).help(
          "indent parameters under '\(head.key.value):', or split the actions into separate steps"))
    }
    let keyword = head.key.value
    let allowed = Self.blocks[keyword] ?? []
    for entry in mapping.entries where Self.blockKeys.contains(entry.key.value) && !allowed.contains(entry.key.value) {
      report(
        Diagnostic(
          .error, .misplacedKey,
          "'\(entry.key.value)' belongs to \(Self.owners(of: entry.key.value)) step, not '\(keyword)'",
          at: entry.key.span
        )
        .help("move it to the step it belongs to, or remove it"))
    }
    guard let kind = kind(keyword: head, in: mapping, block: WorkflowFormat.blocksByKeyword[keyword]?.id) else {
      return nil
    }
    var step = Step(kind: kind, span: mapping.span, onError: .stop)
    decodeStepKeys(mapping, into: &step, action: head.key.value)
    return step
  }

  /// Words for a block's keys that people bring from elsewhere: Shortcuts says "Otherwise".
  static let blockKeySynonyms = ["otherwise": "else"]

  /// Whether `entry`, beside the block keyword `keyword`, is one of the block's keys written in another
  /// tool's word or misspelt by a letter (`otherwise:`, `than:` beside `if`): then it is reported with
  /// the key it is meant to be, and read as that key, so the step is not also "two actions" and "needs
  /// 'then:'". Only a key the step lacks, and only this close: `text:` beside `if` is an action.
  private mutating func renamedBlockKey(
    _ entry: YAMLNode.Mapping.Entry, of keyword: String, in mapping: inout YAMLNode.Mapping
  ) -> Bool {
    let missing = (Self.blocks[keyword] ?? []).filter { mapping[$0] == nil }
    let word = entry.key.value
    guard
      let meant = Self.blockKeySynonyms[word].flatMap({ missing.contains($0) ? $0 : nil })
        ?? missing.first(where: { Suggestion.editDistance(word, $0) == 1 }),
      let index = mapping.entries.firstIndex(where: { $0.key.value == word })
    else { return false }
    let article = "aeiou".contains(keyword.first ?? "x") ? "an" : "a"
    report(
      Diagnostic(.error, .unknownKey, "unknown key '\(word)' in \(article) '\(keyword)' step", at: entry.key.span)
        .help("did you mean '\(meant):'?"))
    mapping.entries[index].key.value = meant
    return true
  }

  /// What the step whose head is `head` does: the block `block`, or the action `head` names when nil.
  private mutating func kind(keyword head: YAMLNode.Mapping.Entry, in mapping: YAMLNode.Mapping, block: BlockKeyword?)
    -> Step.Kind?
  {
    let keySpan = head.key.span
    let keyword = head.key.value
    switch block {
    case .if?:
      guard let condition = Condition.parse(head.value, into: &diagnostics) else { return nil }
      return .ifBlock(
        condition,
        then: body(mapping["then"]?.value, of: keyword, key: "then", at: keySpan),
        otherwise: mapping["else"].map { body($0.value, of: keyword, key: "else", at: keySpan) } ?? [])
    case .repeat?:
      return .repeatBlock(
        count: value(head.value), body: body(mapping["do"]?.value, of: keyword, key: "do", at: keySpan))
    case .forEach?:
      return .forEach(
        items: value(head.value), body: body(mapping["do"]?.value, of: keyword, key: "do", at: keySpan))
    case .menu?:
      return menu(head, in: mapping)
    case .stop?:
      let output = head.value.scalar?.resolved == .null ? nil : value(head.value)
      return .stop(output: output)
    case .runWorkflow?:
      return .runWorkflow(workflow: value(head.value), input: mapping["input"].map { value($0.value) })
    case .set?:
      guard let variable = variableName(head.value) else { return nil }
      return .set(variable: variable, value: mapping["value"].map { value($0.value) })
    case .append?:
      guard let variable = variableName(head.value) else { return nil }
      return .append(variable: variable, value: mapping["value"].map { value($0.value) })
    case nil:
      guard let id = actionID(head.key) else { return nil }
      let arguments: ActionCall.Arguments =
        switch head.value {
        case .scalar(let scalar) where scalar.resolved == .null: .none
        case .mapping(let parameters): .named(entries(parameters), parameters.span)
        default: .primary(value(head.value))
        }
      return .action(ActionCall(id: id, arguments: arguments))
    }
  }

  private mutating func menu(_ head: YAMLNode.Mapping.Entry, in mapping: YAMLNode.Mapping) -> Step.Kind? {
    var options: [MenuOption] = []
    switch mapping["options"]?.value {
    case .mapping(let choices)?:
      for choice in choices.entries {
        let label = Located(choice.key.value, at: choice.key.span)
        options.append(
          MenuOption(label: label, steps: body(choice.value, of: "menu", key: choice.key.value, at: choice.key.span)))
      }
    case let other?:
      report(
        Diagnostic(
          .error, .wrongKind, "expected a mapping of choices for 'options', found \(other.kindName)", at: other.span
        )
        .help("write each choice as 'Label: [steps]'"))
    case nil:
      break
    }
    if options.isEmpty {
      report(
        Diagnostic(.error, .emptyMenu, "'menu' has no options to choose from", at: head.key.span)
          .help("add 'options:' with a choice per line, like 'Archive: [...]'"))
    }
    var defaultOption: Located<String>?
    if let node = mapping["default"]?.value, let label = text(node, for: "default") {
      defaultOption = label
      let labels = options.map(\.label.value)
      if !options.isEmpty, !labels.contains(label.value) {
        report(
          Diagnostic(.error, .unknownValue, "'default' names no option: '\(label.value)'", at: label.span)
            .help(Suggestion.help(for: label.value, among: labels, listUpTo: 8)))
      }
    }
    return .menu(prompt: value(head.value), options: options, defaultOption: defaultOption)
  }

  // MARK: - Step keys

  /// Decodes the step keys beside `action`, the key that says what the step does.
  private mutating func decodeStepKeys(_ mapping: YAMLNode.Mapping, into step: inout Step, action: String) {
    for entry in mapping.entries where entry.key.value != action {
      let node = entry.value
      switch entry.key.value {
      case "as":
        guard let name = variableName(node) else { continue }
        // One lookup for the usual new name; a name defined before keeps its first place.
        if let first = names.updateValue(name.span, forKey: name.value) {
          names[name.value] = first
          report(
            Diagnostic(.error, .duplicateName, "'\(name.value)' already names another step's output", at: name.span)
              .note("'\(name.value)' is first defined here", at: first)
              .help("choose a different name, or use 'set' to update a variable"))
        }
        step.name = name
      case "when":
        step.when = Condition.parse(node, into: &diagnostics)
      case "where":
        step.where = Condition.parse(node, into: &diagnostics, itemProperties: true).map { Located($0, at: node.span) }
        if case .action = step.kind {
        } else {
          report(
            Diagnostic(
              .error, .misplacedKey, "'where' keeps items of what an action outputs, and '\(step.label)' is a block",
              at: entry.key.span
            )
            .help("put 'where' on the action that makes the list, or use 'filter' after the block"))
        }
      case "confirm":
        switch node.scalar?.resolved {
        case .bool(false)?: step.confirm = nil
        case .bool(true)?: step.confirm = Step.Confirmation(message: nil, span: node.span)
        case .string?:
          if let scalar = node.scalar {
            step.confirm = Step.Confirmation(message: Template.parse(scalar, into: &diagnostics), span: node.span)
          }
        default:
          report(
            Diagnostic(
              .error, .wrongKind, "expected a question or true for 'confirm', found \(node.kindName)", at: node.span))
        }
      case "on-error":
        guard let policy = text(node, for: "on-error") else { continue }
        if let value = Step.ErrorPolicy(rawValue: policy.value) {
          step.onError = value
        } else {
          report(
            Diagnostic(.error, .unknownValue, "unknown on-error policy '\(policy.value)'", at: policy.span)
              .help("expected 'stop' or 'continue'"))
        }
      case "retry":
        step.retry = retry(node)
      case "timeout":
        step.timeout = duration(node, for: "timeout")
        if case .action = step.kind {
        } else {
          report(
            Diagnostic(
              .error, .misplacedKey, "'timeout' limits one action, not a '\(step.label)' block", at: entry.key.span
            )
            .help("put 'timeout' on the steps inside"))
        }
      default:
        continue
      }
    }
  }

  private mutating func retry(_ node: YAMLNode) -> Step.Retry? {
    var retry = Step.Retry(attempts: 1, delay: .seconds(1))
    switch node {
    case .scalar:
      guard let attempts = attempts(node, for: "retry") else { return nil }
      retry.attempts = attempts
    case .mapping(let mapping):
      for entry in mapping.entries {
        switch entry.key.value {
        case "attempts": retry.attempts = attempts(entry.value, for: "attempts") ?? retry.attempts
        case "delay": retry.delay = duration(entry.value, for: "delay")?.value ?? retry.delay
        default: unknownKey(entry.key, among: ["attempts", "delay"], in: "'retry'")
        }
      }
    case .sequence:
      report(
        Diagnostic(.error, .wrongKind, "expected a number or a mapping for 'retry', found a sequence", at: node.span))
      return nil
    }
    return retry
  }

  // MARK: - Values

  /// A parameter value: literals keep their YAML type, text is parsed for references.
  private mutating func value(_ node: YAMLNode) -> Value {
    switch node {
    case .scalar(let scalar):
      switch scalar.resolved {
      case .null: return .null(scalar.span)
      case .bool(let value): return .bool(value, scalar.span)
      case .int(let value): return .integer(value, scalar.span)
      case .double(let value): return .double(value, scalar.span)
      case .string(let text):
        if scalar.style == .plain, text == "ask" { return .ask(scalar.span) }
        return .text(Template.parse(scalar, into: &diagnostics))
      }
    case .sequence(let sequence):
      return .list(sequence.items.map { value($0) }, sequence.span)
    case .mapping(let mapping):
      return .dictionary(entries(mapping), mapping.span)
    }
  }

  private mutating func entries(_ mapping: YAMLNode.Mapping) -> [Value.DictionaryEntry] {
    mapping.entries.map { Value.DictionaryEntry(key: Located($0.key.value, at: $0.key.span), value: value($0.value)) }
  }

  mutating func text(_ node: YAMLNode, for key: String) -> Located<String>? {
    guard let scalar = node.scalar, scalar.resolved != .null else {
      report(Diagnostic(.error, .wrongKind, "expected text for '\(key)', found \(node.kindName)", at: node.span))
      return nil
    }
    return Located(scalar.value, at: scalar.span)
  }

  mutating func bool(_ node: YAMLNode, for key: String) -> Bool? {
    guard case .bool(let value)? = node.scalar?.resolved else {
      report(
        Diagnostic(.error, .wrongKind, "expected true or false for '\(key)', found \(node.kindName)", at: node.span))
      return nil
    }
    return value
  }

  /// A step's attempts: at least one, and at most ``Step/Retry/maximumAttempts``, so that a retried
  /// step cannot keep a run (or the scheduler's next one) waiting for ever.
  private mutating func attempts(_ node: YAMLNode, for key: String) -> Int? {
    let maximum = Step.Retry.maximumAttempts
    guard case .int(let value)? = node.scalar?.resolved, (1...maximum).contains(value) else {
      report(
        Diagnostic(
          .error, .wrongKind,
          "expected a whole number from 1 to \(maximum) for '\(key)', found \(node.scalar.map { "'\($0.value)'" } ?? node.kindName)",
          at: node.span))
      return nil
    }
    return value
  }

  mutating func duration(_ node: YAMLNode, for key: String) -> Located<Duration>? {
    guard let scalar = node.scalar else {
      report(Diagnostic(.error, .wrongKind, "expected a duration for '\(key)', found \(node.kindName)", at: node.span))
      return nil
    }
    switch DurationParsing.read(scalar.value) {
    case .success(let duration): return Located(duration, at: scalar.span)
    case .failure(.tooLong):
      report(
        Diagnostic(
          .error, .outOfRange,
          "'\(scalar.value)' is too long for '\(key)': the longest duration is \(DurationParsing.longestText)",
          at: scalar.span))
      return nil
    case .failure(.notADuration):
      report(
        Diagnostic(.error, .wrongKind, "expected a duration for '\(key)', found '\(scalar.value)'", at: scalar.span)
          .help("write a number of seconds, or a duration like '30s', '2m', '1h30m' or '500ms'"))
      return nil
    }
  }

  // MARK: - Names

  /// Names the person chooses (`as`, `set`) are identifiers that do not shadow built-ins.
  private mutating func variableName(_ node: YAMLNode) -> Located<String>? {
    guard let scalar = node.scalar, case .string(let name) = scalar.resolved, Self.isName(name, span: scalar.span)
    else {
      report(
        Diagnostic(
          .error, .invalidName, "expected a name, found \(node.scalar.map { "'\($0.value)'" } ?? node.kindName)",
          at: node.span
        )
        .help("a name is letters, digits, '_' and '-', starting with a letter"))
      return nil
    }
    if MagicVariable(name) != nil {
      report(
        Diagnostic(
          .error, .invalidName, "'\(name)' is a built-in variable and cannot be reused as a name", at: scalar.span))
      return nil
    }
    return Located(name, at: scalar.span)
  }

  /// Whether `text` is a reference's name alone, without a path: in ASCII read on its bytes in place, the
  /// grammar of ``Reference/parse(_:span:)`` without making the reference.
  private static func isName(_ text: String, span: SourceSpan) -> Bool {
    var text = text
    let ascii = text.withUTF8 { bytes -> Bool? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
      guard let first = bytes.first, !isDigit(first) else { return false }
      return bytes.allSatisfy { byte in
        ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")) || isDigit(byte)
          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      }
    }
    return ascii ?? (Reference.parse(text, span: span).map { $0.path.isEmpty } == true)
  }

  /// Keys through which other tools declare MCP servers and their commands: never read from a workflow.
  static let serverKeys: Set<String> = ["servers", "mcpServers", "mcp-servers", "mcp_servers", "mcp"]

  /// Action ids are kebab-case, with an optional catalogue namespace: `show`, `raindrop.save-bookmark`.
  /// After a namespace, the name may also be an MCP tool's as its server spells it (letters of either
  /// case, digits, `_`, `-` and `.`: `time.get_current_time`; Documentation/MCP.md).
  private mutating func actionID(_ scalar: YAMLNode.Scalar) -> Located<String>? {
    // Every character allowed is ASCII, so the bytes are read, in place: scalars would be decoded for
    // each step, and a search by Character cost more than the rest of the step's decoding.
    var text = scalar.value
    let valid = text.withUTF8(Self.isActionID)
    guard valid else {
      report(
        Diagnostic(.error, .invalidName, "'\(scalar.value)' is not an action name", at: scalar.span)
          .help("action names are kebab-case, like 'show' or 'raindrop.save-bookmark'"))
      return nil
    }
    return Located(scalar.value, at: scalar.span)
  }

  /// Whether `bytes` are `kebab-name` or `kebab-namespace.ToolName`.
  private static func isActionID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    guard let first = bytes.first, isLower(first) else { return false }
    var index = 1
    while index < bytes.count, bytes[index] != UInt8(ascii: ".") {
      let byte = bytes[index]
      guard isLower(byte) || isDigit(byte) || byte == UInt8(ascii: "-") else { return false }
      index += 1
    }
    guard index < bytes.count else { return true }
    // The tool's name after the first dot: ASCII only, so its length in bytes is its length in characters.
    let tool = UnsafeBufferPointer(rebasing: bytes[(index + 1)...])
    guard let head = tool.first, let tail = tool.last, tool.count <= 128, head != UInt8(ascii: "."),
      tail != UInt8(ascii: ".")
    else { return false }
    return tool.allSatisfy { byte in
      isLower(byte) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || isDigit(byte)
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
  }

  mutating func unknownKey(_ key: YAMLNode.Scalar, among known: [String], in place: String) {
    report(
      Diagnostic(.error, .unknownKey, "unknown key '\(key.value)' in \(place)", at: key.span)
        .help(Suggestion.help(for: key.value, among: known)))
  }

  mutating func report(_ diagnostic: Diagnostic) {
    diagnostics.append(diagnostic)
  }
}
