import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowRuntime
import FoundationEssentials

/// What one action step may do, from its intent's declarations and the values written in the step: its
/// side effect and the hosts it may contact. What `flow show` marks in the margin and what the capability
/// analysis adds up.
struct StepEffect: Sendable, Hashable {
  var effect: SideEffect
  /// Hosts named by the intent, or by a literal URL.
  var hosts: [String]
  /// The URL is computed at run time (or asked for), so the host could be any.
  var anyHost: Bool
  /// Nothing can be known before the run: a nested workflow chosen at run time could do anything.
  var unknown = false
  /// Hosts written out in a URL whose path or query is computed at run time: what the workflow holds
  /// goes to them in the URL (`https://evil.example/collect?d=${previous}`).
  var dataHosts: [String] = []
  /// Hosts sent data in a request's body or headers (`get-url`'s `json:`, `headers:`).
  var requestDataHosts: [String] = []
  /// URLs written out in full: requests to exactly these carry nothing the run computes.
  var urls: [String] = []
  /// Values computed at run time go to another program as command-line arguments, which every user of
  /// the machine can read (``FlowIntents/AppIntent/processArgumentParameters``).
  var exposesArguments = false
  /// The step asks the person before it runs: its intent always does, or its values may delete.
  var asks = false
  /// What it does to the machine it runs on: files, commands, the desktop.
  var machine: [MachineTouch] = []
  /// It may contact hosts it does not name, by the word of whoever claims its effect (an MCP tool's
  /// `openWorldHint`: "according to the server 'time'"); nil when it names every host it contacts.
  var undeclaredHosts: String?
  /// Values computed at run time go to such a step, and so, perhaps, to those hosts.
  var sendsComputed = false

  /// One thing a step does to the machine, with what it acts on as the step writes it.
  struct MachineTouch: Sendable, Hashable {
    var kind: MachineAccess.Kind
    /// A path, a glob, a script or a command as written; nil when the run computes it, or when the
    /// kind names nothing (notifications).
    var subject: String?
    /// The run computes what is acted on: it could be any file, any command.
    var computed = false
    /// The paths and globs it names, each on its own (``subject`` joins them for reading).
    var names: [String] = []
    /// The command, for ``MachineAccess/Kind/runsCommands`` when the step writes it out.
    var command: CapabilitySet.Command?
    /// What else decides what a command does, as written: "arguments ${title}".
    var details: [String] = []
  }

  init(effect: SideEffect, hosts: [String], anyHost: Bool, unknown: Bool = false) {
    self.effect = effect
    self.hosts = hosts
    self.anyHost = anyHost
    self.unknown = unknown
  }

  /// - Parameter fileSources: what earlier steps' outputs are, by the name a step refers to them with
  ///   (`previous`, an `as:` name): the paths or globs of the files a step got (`get-file:
  ///   ~/Downloads/*.tmp`), so that `delete-files: ${old}` names them rather than "any file".
  init(_ call: ActionCall, descriptor: IntentDescriptor, fileSources: [String: [String]] = [:]) {
    // An effect may hang on values (get-url's method, update-bookmarks' move-to): exact when they are
    // written out, the strongest the intent may have when any is computed, asked or left to be asked.
    let known = KnownValues(call, descriptor: descriptor)
    effect = known.sideEffect(of: descriptor)
    asks = known.asksConfirmation(descriptor)
    exposesArguments = !known.unknown.isDisjoint(with: descriptor.processArgumentParameters)
    let written = Dictionary(
      (try? Interpreter.arguments(of: call, for: descriptor)) ?? [], uniquingKeysWith: { a, _ in a })
    machine = Self.machine(
      known, descriptor: descriptor, sources: Self.sources(call, descriptor, fileSources), written: written)
    // Data in a body or headers goes wherever the step's requests go: said with the hosts, below.
    let sendsData = machine.contains { $0.kind == .sendsData }
    machine.removeAll { $0.kind == .sendsData }
    switch descriptor.networkAccess {
    case .none:
      hosts = []
      anyHost = false
    case .undeclaredHosts(let named):
      hosts = named
      anyHost = false
      undeclaredHosts = descriptor.effectClaimedBy ?? "its action"
      sendsComputed = !known.unknown.isEmpty
    case .hosts(let declared):
      hosts = declared
      anyHost = false
    case .hostOfParameter(let key):
      hosts = descriptor.hosts(for: known.literals)
      anyHost = false
      if let url = known.literals[key].flatMap({ try? URL(flowValue: $0) }) { urls = [url.absoluteString] }
      if known.unknown.contains(key) {
        let given = (try? Interpreter.arguments(of: call, for: descriptor))?.first { $0.0 == key }?.1
        if let host = Self.writtenHost(given) {
          // The host is written out; the rest of the URL is not, and carries what the run computes.
          hosts = [host]
          dataHosts = [host]
        } else {
          // Computed, asked for, or left out (and so asked for when the step runs): any host.
          anyHost = true
        }
      }
    }
    if sendsData, !anyHost {
      for host in hosts where !requestDataHosts.contains(host) { requestDataHosts.append(host) }
    }
  }

  /// The host of a URL template whose scheme and host are written out and ended (by `/`, `?` or `#`)
  /// before the first reference: `https://evil.example/c?d=${previous}` → `evil.example`. Nil when a
  /// reference could still change the host (`https://${host}/`, `https://evil.example${x}` could be
  /// `https://evil.example.other.net`).
  static func writtenHost(_ value: Value?) -> String? {
    guard case .text(let template)? = value, case .literal(let prefix)? = template.parts.first,
      let scheme = prefix.firstRange(of: "://")
    else { return nil }
    let authority = prefix[scheme.upperBound...]
    guard let end = authority.firstIndex(where: { "/?#".contains($0) }) else { return nil }
    return URL(string: String(prefix[..<end]) + "/")?.host.map(HostName.canonical)
  }

  /// What a step does to the machine, from what its intent declares and the values it writes out. A
  /// parameter the step leaves out names its default, or nothing when it has none (`run-shell` takes a
  /// `script` or a `command`).
  static func machine(
    _ known: KnownValues, descriptor: IntentDescriptor, sources: [String: [String]] = [:],
    written: [String: Value] = [:]
  ) -> [MachineTouch] {
    var touches: [MachineTouch] = []
    for access in descriptor.machineAccess(for: known.literals, unknown: known.unknown) {
      var touch: MachineTouch
      if let key = access.parameter {
        let interpreterUnknown = access.interpreter.map { known.unknown.contains($0) } ?? false
        if let source = sources[key] {
          touch = MachineTouch(kind: access.kind, subject: source.joined(separator: ", "), names: source)
        } else if known.unknown.contains(key) || interpreterUnknown {
          touch = MachineTouch(kind: access.kind, subject: nil, computed: true)
        } else if let value = known.literals[key] ?? descriptor.parameter(key)?.defaultValue {
          touch = MachineTouch(kind: access.kind, subject: subject(value, for: access.kind), names: names(value))
          if access.kind == .runsCommands {
            touch.command = command(value, interpreter: access.interpreter, known: known, descriptor: descriptor)
            touch.details = details(access.details, written: written)
          }
        } else {
          continue
        }
      } else {
        touch = MachineTouch(kind: access.kind, subject: nil)
      }
      if !touches.contains(touch) { touches.append(touch) }
    }
    return touches
  }

  /// The items of a value as paths: a list's each, or the one.
  private static func names(_ value: FlowValue) -> [String] {
    if case .list(let items) = value { return items.map { Coercion.text(of: $0) } }
    return [Coercion.text(of: value)]
  }

  /// The command a step runs: its words, or its script with the interpreter that runs it.
  private static func command(
    _ value: FlowValue, interpreter: String?, known: KnownValues, descriptor: IntentDescriptor
  ) -> CapabilitySet.Command? {
    if let interpreter {
      guard let program = known.literals[interpreter] ?? descriptor.parameter(interpreter)?.defaultValue else {
        return nil
      }
      return CapabilitySet.Command(program: Coercion.text(of: program), script: Coercion.text(of: value))
    }
    let words = names(value)
    guard let program = words.first else { return nil }
    return CapabilitySet.Command(program: program, arguments: Array(words.dropFirst()))
  }

  /// The values of `keys` the step gives, as written: "arguments ${title}", "environment LANG=C".
  private static func details(_ keys: [String], written: [String: Value]) -> [String] {
    keys.compactMap { key in
      guard let value = written[key] else { return nil }
      if case .null = value { return nil }
      return key.replacingEvery("-", with: " ") + " " + Self.written(value)
    }
  }

  /// A value as the step writes it: literals as text, references as `${…}`.
  static func written(_ value: Value) -> String {
    switch value {
    case .text(let template): template.asWritten
    case .list(let items, _): items.map(written).joined(separator: ", ")
    case .dictionary(let entries, _): entries.map { "\($0.key.value)=\(written($0.value))" }.joined(separator: ", ")
    case .ask: "ask"
    default: literal(value).map { Coercion.text(of: $0) } ?? "?"
    }
  }

  /// The parameters whose value is exactly another step's output (`${old}`, `${previous}`) whose files
  /// are known, with what those files are.
  static func sources(_ call: ActionCall, _ descriptor: IntentDescriptor, _ fileSources: [String: [String]])
    -> [String: [String]]
  {
    guard !fileSources.isEmpty else { return [:] }
    var found: [String: [String]] = [:]
    for (key, value) in (try? Interpreter.arguments(of: call, for: descriptor)) ?? [] {
      guard case .text(let template) = value, let reference = template.wholeReference, reference.path.isEmpty,
        let source = fileSources[reference.root]
      else { continue }
      found[key] = source
    }
    return found
  }

  /// The basics whose output is some of the items of their `list`, never anything else.
  static let listSubsetActions: Set<String> = ["filter", "sort", "unique", "get-item"]

  /// What the output of a step is, as a path or glob of files, when it is the files its intent read and
  /// the step wrote out where they are: Files (get-folder-contents) or `get-file`'s
  /// File or list of Files (typed `any`, since a glob makes a list and a path one File).
  static func fileSource(_ call: ActionCall, descriptor: IntentDescriptor, effect: StepEffect) -> [String]? {
    let outputIsFiles: Bool
    if case .entity(let entity)? = descriptor.outputType?.elementType, entity.name == "File" {
      outputIsFiles = true
    } else {
      outputIsFiles = descriptor.id == "get-file"
    }
    // Only an action that passes on the files it read: a copy or a move passes on the files it made,
    // which `if-exists: keep-both` numbers (`b 3.txt`), so no path written in the step names them.
    guard outputIsFiles, let read = descriptor.machineAccess.first(where: { $0.kind == .readsFiles }),
      read.parameter != nil,
      !descriptor.machineAccess.contains(where: { $0.kind == .writesFiles || $0.kind == .replacesFiles })
    else { return nil }
    return effect.machine.first { $0.kind == .readsFiles && !$0.computed }?.names
  }

  /// A value as the card names it: a path, several paths, a command's words as a shell would read them.
  private static func subject(_ value: FlowValue, for kind: MachineAccess.Kind) -> String {
    guard case .list(let items) = value else { return Coercion.text(of: value) }
    let words = items.map { Coercion.text(of: $0) }
    return kind == .runsCommands ? words.map(shellQuoted).joined(separator: " ") : words.joined(separator: ", ")
  }

  /// A word quoted for a POSIX shell when it needs it, so that `[echo, "a b"]` reads `echo 'a b'`.
  static func shellQuoted(_ word: String) -> String {
    let plain =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "-_./=:,+@%~".unicodeScalars.contains(scalar))
      }
    return plain ? word : "'" + word.replacingEvery("'", with: "'\\''") + "'"
  }

  /// A value known before the run: literals, and lists and dictionaries of literals.
  static func literal(_ value: Value) -> FlowValue? { KnownValues.literal(value) }

  /// The words in `flow show`'s margin: "changes · api.raindrop.io", "contacts any host"; nil for a step
  /// that only reads what the workflow already has.
  var margin: String? {
    if unknown { return "anything: chosen at run time" }
    var contacts = hosts
    if anyHost { contacts.append("any host") } else if undeclaredHosts != nil { contacts.append("other hosts") }
    // What it does to the machine says more than "changes": "runs commands", "trashes files".
    let verb: String? =
      if !machine.isEmpty {
        machine.map(\.kind.words.margin).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
          .joined(separator: ", ")
      } else {
        switch effect {
        case .readOnly: nil
        case .changes: "changes"
        case .destructive: "deletes"
        }
      }
    switch (verb, contacts.isEmpty) {
    case (nil, true): return nil
    case (nil, false): return "contacts " + contacts.joined(separator: ", ")
    case (let verb?, true): return verb
    case (let verb?, false): return verb + " · " + contacts.joined(separator: ", ")
    }
  }

  /// The effect of several steps together (a nested workflow): the worst effect, every host.
  static func combined(_ effects: [StepEffect]) -> StepEffect {
    var hosts: [String] = []
    var seen: Set<String> = []
    for host in effects.flatMap(\.hosts) where seen.insert(host).inserted { hosts.append(host) }
    var combined = StepEffect(
      effect: effects.map(\.effect).max() ?? .readOnly, hosts: hosts, anyHost: effects.contains(where: \.anyHost))
    var seenData: Set<String> = []
    for host in effects.flatMap(\.dataHosts) where seenData.insert(host).inserted { combined.dataHosts.append(host) }
    for host in effects.flatMap(\.requestDataHosts) where !combined.requestDataHosts.contains(host) {
      combined.requestDataHosts.append(host)
    }
    for url in effects.flatMap(\.urls) where !combined.urls.contains(url) { combined.urls.append(url) }
    combined.exposesArguments = effects.contains(where: \.exposesArguments)
    combined.asks = effects.contains(where: \.asks)
    combined.undeclaredHosts = effects.lazy.compactMap(\.undeclaredHosts).first
    combined.sendsComputed = effects.contains { $0.undeclaredHosts != nil && $0.sendsComputed }
    for touch in effects.flatMap(\.machine) where !combined.machine.contains(touch) { combined.machine.append(touch) }
    return combined
  }
}
