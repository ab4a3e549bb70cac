import FlowDiagnostics
import FlowIntents
import FlowModel

/// ``Capabilities`` as short lines a person reads: `flow show`'s "What it may do", and the body of the
/// import card. Each line has a tone, so a terminal can colour changes, deletions and what acts without
/// asking.
public enum CapabilityLines {
  public enum Tone: Sendable, Hashable {
    case plain
    /// Changes something, or reaches something unknown before the run.
    case changes
    case deletes
    /// Deletes without anybody being asked, or sends what the run computes out of the workflow's hands
    /// (to any host, to a host in a URL, to other users through process arguments): the card's red lines.
    case alarm
  }

  public struct Line: Sendable, Hashable {
    public var text: StyledText
    public var tone: Tone
    /// Text shown in full under the line, as written, never wrapped into it: the script a step runs.
    public var verbatim: [String] = []
  }

  /// - Parameters:
  ///   - schedule: whether to say the schedule too (`flow show` has a section of its own for it).
  ///   - shared: the lines are for a file someone else wrote (the import card, the share page): a
  ///     workflow it runs but does not carry, found on the reader's disk, and one chosen at run time are
  ///     in red, by name and file — the file's author never showed what they do.
  public static func lines(_ capabilities: Capabilities, schedule: Bool = false, shared: Bool = false) -> [Line] {
    var lines: [Line] = []
    for app in capabilities.apps {
      for (effect, verb, tone) in [
        ("read-only", "reads", Tone.plain), ("changes", "writes", .changes),
        ("destructive", "deletes", .deletes),
      ] {
        let steps = app.steps.filter { $0.effect == effect }
        guard !steps.isEmpty else { continue }
        var nouns: [String] = []
        for noun in steps.map({ $0.entity.map { $0.lowercased() + "s" } ?? "data" }) where !nouns.contains(noun) {
          nouns.append(noun)
        }
        lines.append(
          Line(
            text: StyledText(stringLiteral: verb + " ") + StyledText([.init(.value, app.app)])
              + StyledText(stringLiteral: " \(List.and(nouns)) (\(Count.of(steps.count, "step")))"),
            tone: tone))
      }
    }
    lines += serverLines(capabilities, shared: shared)
    for (effect, verb, tone) in [("changes", "changes", Tone.changes), ("destructive", "deletes", .deletes)] {
      let steps = capabilities.otherChanges.filter { $0.effect == effect }
        .map { "\($0.step.action) (\(place($0.step, in: capabilities)))" }
      guard !steps.isEmpty else { continue }
      lines.append(Line(text: StyledText(stringLiteral: "\(verb): " + steps.joined(separator: ", ")), tone: tone))
    }
    lines += machineLines(capabilities)
    lines += fenceLines(capabilities)
    if !capabilities.hosts.isEmpty {
      lines.append(
        Line(
          text: "contacts " + StyledText([.init(.value, capabilities.hosts.map(\.host).joined(separator: ", "))]),
          tone: .plain))
    }
    for undeclared in capabilities.undeclaredHosts {
      // Hosts only the server knows: unknown before the run (orange), and red when what the run computes
      // goes to such a step, as for a URL the run computes.
      var text = StyledText(stringLiteral: "may contact other hosts, according to \(undeclared.claimedBy)")
      if undeclared.sendsComputed { text.append(.text, ", and send them what the run computes") }
      text.append(.text, ": " + named(undeclared.steps, in: capabilities).joined(separator: ", "))
      lines.append(Line(text: text, tone: undeclared.sendsComputed ? .alarm : .changes))
    }
    for sent in capabilities.dataSent {
      let steps = named(sent.steps, in: capabilities)
      lines.append(
        Line(
          text: "sends what the run computes to " + StyledText([.init(.value, sent.host)])
            + StyledText(stringLiteral: ", in the URL of " + steps.joined(separator: ", ")),
          tone: .alarm))
    }
    for sent in capabilities.requestData {
      lines.append(
        Line(
          text: "sends data to " + StyledText([.init(.value, sent.host)])
            + StyledText(
              stringLiteral: ", in the body or headers of "
                + named(sent.steps, in: capabilities).joined(separator: ", ")),
          tone: .alarm))
    }
    if !capabilities.anyHost.isEmpty {
      let steps = named(capabilities.anyHost, in: capabilities)
      lines.append(
        Line(
          text: StyledText(
            stringLiteral: "may contact any host, and send it anything: the URL is computed at run time in "
              + steps.joined(separator: ", ")),
          tone: .alarm))
    }
    if !capabilities.exposedArguments.isEmpty {
      let steps = named(capabilities.exposedArguments, in: capabilities)
      lines.append(
        Line(
          text: StyledText(
            stringLiteral: "shows what the run computes to every user of this machine, as a command-line "
              + "argument of another program: " + steps.joined(separator: ", ")),
          tone: .alarm))
    }
    if !capabilities.environment.isEmpty {
      lines.append(
        Line(
          text: "reads environment variables "
            + StyledText([.init(.value, capabilities.environment.joined(separator: ", "))]),
          tone: .plain))
    }
    for secret in capabilities.secrets {
      // The card's promise about a secret: where its value may end up.
      var text: StyledText = "reads your secret " + StyledText([.init(.value, secret)])
      let destinations = capabilities.secretDestinations
      var tone: Tone = .plain
      if capabilities.secretsMayGoAnywhere {
        text.append(.text, " and may send it to any host: a URL is computed at run time")
        tone = .alarm
      } else if !destinations.isEmpty {
        text.append(.text, " and may send it to ")
        text.append(.value, destinations.joined(separator: ", "))
        tone = .changes
      }
      lines.append(Line(text: text, tone: tone))
    }
    var said: Set<Capabilities.WorkflowRun> = []
    for var run in capabilities.workflows {
      // A workflow run from several steps is one line: what it may do is the same each time.
      run.step = Capabilities.StepReference(file: "", position: "", action: "")
      guard said.insert(run).inserted else { continue }
      var text: StyledText = "runs workflow " + StyledText([.init(.value, run.reference)])
      if let name = run.name, run.file != nil { text.append(.text, " (\(name))") }
      if let problem = run.problem { text.append(.text, ": \(problem)") }
      var tone: Tone = run.problem == nil ? .plain : .changes
      if shared, let file = run.file, run.carried == false {
        text.append(.text, ", which this file does not carry: ")
        text.append(.value, file)
        text.append(.text, ", as it is now")
        tone = .alarm
      } else if shared, run.file == nil, run.problem != nil {
        // Chosen at run time (or not found): whatever the reader's library holds could run.
        tone = .alarm
      }
      lines.append(Line(text: text, tone: tone))
    }
    if schedule, let plan = OutlineRenderer.summary(capabilities.schedule) {
      lines.append(Line(text: "runs on a schedule: " + StyledText([.init(.value, plan)]), tone: .plain))
    }
    if schedule, !capabilities.triggers.isEmpty {
      // Whatever else the card says, this is when it happens: without anybody starting it.
      var text = StyledText(stringLiteral: "starts by itself when ")
      for (index, trigger) in capabilities.triggers.enumerated() {
        if index > 0 { text.append(.text, ", or when ") }
        text.append(.value, trigger.words)
      }
      let asks = capabilities.runPolicy == "ask"
      text.append(.text, asks ? ", and asks with a notification before it runs" : ", and then runs without asking")
      lines.append(Line(text: text, tone: asks ? .changes : .alarm))
    }
    for unattended in capabilities.unattended {
      var text = StyledText(
        stringLiteral:
          "\(unattended.step.action) (\(place(unattended.step, in: capabilities))) is confirmed without asking")
      if let question = unattended.question { text.append(.text, " “\(question)”") }
      text.append(.text, unattended.deletes ? ", and deletes" : "")
      text.append(.text, " (confirmations: auto)")
      lines.append(Line(text: text, tone: unattended.deletes ? .alarm : .changes))
    }
    if lines.isEmpty {
      lines.append(Line(text: "nothing outside the workflow: no app data, no host, no environment", tone: .plain))
    }
    return lines
  }

  /// What the workflow does to the machine, a line per kind: what it names (each with its steps), then
  /// what the run computes, which could be any file or command. Commands and deletions are red, and a
  /// script is shown in full: a person deciding to trust a file reads what it will run, not its name.
  private static func machineLines(_ capabilities: Capabilities) -> [Line] {
    var lines: [Line] = []
    for kind in MachineAccess.Kind.allCases {
      let uses = capabilities.machine.filter { $0.kind == kind.rawValue }
      guard !uses.isEmpty else { continue }
      let words = (named: kind.words.card, computed: kind.words.any)
      let named = uses.filter { $0.subject != nil }
      if kind == .runsCommands {
        for use in named {
          // Everything that decides what runs: the interpreter of a script, its arguments, its standard
          // input, its environment and where it runs.
          let what = use.command?.script == nil ? "this command" : "this script with \(use.command?.program ?? "?")"
          let details = use.details.isEmpty ? "" : ", " + use.details.joined(separator: ", ")
          lines.append(
            Line(
              text: StyledText(
                stringLiteral: "runs \(what) in \(List.and(Self.named(use.steps, in: capabilities)))\(details):"),
              tone: .alarm, verbatim: Self.scriptLines(use.subject ?? "")))
        }
      } else if !named.isEmpty {
        var text = StyledText(stringLiteral: words.named + ": ")
        for (index, use) in named.enumerated() {
          if index > 0 { text.append(.text, ", ") }
          text.append(.value, use.subject ?? "")
          text.append(.text, " (\(use.steps.map { place($0, in: capabilities) }.joined(separator: ", ")))")
        }
        lines.append(Line(text: text, tone: kind.isAlarming ? .alarm : kind.onlyReads ? .plain : .changes))
      }
      let computed = uses.filter(\.computed).flatMap(\.steps)
      if !computed.isEmpty {
        lines.append(
          Line(
            text: StyledText(
              stringLiteral: words.computed + ": computed at run time in "
                + List.and(Self.named(computed, in: capabilities))),
            tone: kind.onlyReads ? .changes : .alarm))
      }
      let plain = uses.filter { $0.subject == nil && !$0.computed }.flatMap(\.steps)
      if !plain.isEmpty {
        lines.append(
          Line(
            text: StyledText(
              stringLiteral: words.named + ": " + Self.named(plain, in: capabilities).joined(separator: ", ")),
            tone: kind.isAlarming ? .alarm : kind.onlyReads ? .plain : .changes))
      }
    }
    return lines
  }

  /// What each `run-shell` step may touch, a line per fence with its steps: the limits in orange, or
  /// in red "unfenced" (`fence: none`, a fence the run computes, your own file's step that declares
  /// none, or any fence on a machine without Landlock, which then runs unfenced).
  private static func fenceLines(_ capabilities: Capabilities) -> [Line] {
    var groups: [(fence: Capabilities.Fence, steps: [Capabilities.StepReference])] = []
    for fence in capabilities.fences {
      var key = fence
      key.step = Capabilities.StepReference(file: "", position: "", action: "")
      if let index = groups.firstIndex(where: { $0.fence == key }) {
        groups[index].steps.append(fence.step)
      } else {
        groups.append((key, [fence.step]))
      }
    }
    return groups.map { fence, steps in
      let places = List.and(Self.named(steps, in: capabilities))
      guard let read = fence.read, let write = fence.write, let network = fence.network else {
        let why = fence.computed ? " (its fence is computed at run time)" : ""
        return Line(
          text: StyledText(stringLiteral: "runs unfenced, and may do anything your account can\(why): \(places)"),
          tone: .alarm)
      }
      let limits = ShellFence.Limits(read: read, write: write, network: network)
      if capabilities.landlock == false {
        return Line(
          text: StyledText(
            stringLiteral:
              "runs unfenced, and may do anything your account can: Landlock is missing here, so the fence (it \(limits.words)) cannot hold: \(places)"
          ), tone: .alarm)
      }
      let how = fence.byDefault ? "fenced, as a shared file's step that declares no fence" : "fenced"
      return Line(text: StyledText(stringLiteral: "runs \(how): it \(limits.words): \(places)"), tone: .changes)
    }
  }

  /// The MCP servers whose tools the steps call: what each name starts on this machine, or that it starts
  /// nothing here (in red on the card of a shared file: nothing can be known of what its tools do).
  private static func serverLines(_ capabilities: Capabilities, shared: Bool) -> [Line] {
    capabilities.servers.map { server in
      let places = " (" + server.steps.map { place($0, in: capabilities) }.joined(separator: ", ") + ")"
      var text = "uses MCP server " + StyledText([.init(.value, server.name)])
      guard let command = server.command else {
        text.append(
          .text,
          ", which is not configured here: what its tools do is unknown, and runs stop before step 1 until "
            + "'flow servers add \(server.name) -- COMMAND' adds it" + places)
        return Line(text: text, tone: shared ? .alarm : .changes)
      }
      // config.yml gives a stdio server a command line and a Streamable HTTP server its URL.
      let remote = command.hasPrefix("http://") || command.hasPrefix("https://")
      text.append(.text, remote ? ", which here is reached at " : ", which here starts ")
      text.append(.value, command)
      text.append(.text, places)
      return Line(text: text, tone: .plain)
    }
  }

  /// A script's lines as written, without the line break a YAML block leaves at its end.
  private static func scriptLines(_ script: String) -> [String] {
    var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// "step 3", "on-failure step 1", or "step 2 of greet.yml" for a step of a nested workflow, so
  /// positions never mix.
  /// Steps as the card names them: "open-url (step 2)", "get-url (step 1 of tidy.yml)".
  private static func named(_ steps: [Capabilities.StepReference], in capabilities: Capabilities) -> [String] {
    steps.map { "\($0.action) (\(place($0, in: capabilities)))" }
  }

  private static func place(_ step: Capabilities.StepReference, in capabilities: Capabilities) -> String {
    let words = Step.describe(position: step.position)
    return step.file == capabilities.file ? words : "\(words) of \(step.file)"
  }
}
