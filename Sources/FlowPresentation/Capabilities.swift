import FlowCron
import FlowIntents
import FlowModel

/// What a workflow may do, worked out from its file before it runs: what `flow show` lists, and what the
/// import card and the share page put in front of a person deciding whether to trust a file.
///
/// Everything comes from declarations, never from running anything: each intent's side effect and network
/// access, the literal URLs of `get-url`, `env:`, the `run-workflow` tree and the schedule. Counts are of
/// steps in the files (a step inside a loop counts once). The JSON form (`flow show --json`'s
/// `capabilities`) is stable: fields are only ever added.
public struct Capabilities: Sendable, Hashable, Encodable {
  /// A step, in whichever file of the `run-workflow` tree it is.
  public struct StepReference: Sendable, Hashable, Encodable {
    /// The file as it was named: the workflow's own path, or a nested workflow's.
    public var file: String
    /// As `flow run` numbers steps: `3`, `3.1` for the first step inside step 3.
    public var position: String
    /// The action id, or the block keyword.
    public var action: String

    public init(file: String, position: String, action: String) {
      self.file = file
      self.position = position
      self.action = action
    }
  }

  /// What the workflow does to one app's data (a catalogue with a namespace, such as Raindrop.io).
  public struct AppAccess: Sendable, Hashable, Encodable {
    /// The catalogue's title: "Raindrop.io".
    public var app: String
    public var reads: Int = 0
    public var writes: Int = 0
    public var deletes: Int = 0
    /// The steps, in order, with what each does.
    public var steps: [EffectStep] = []
  }

  /// A step and its side effect.
  public struct EffectStep: Sendable, Hashable, Encodable {
    public var step: StepReference
    /// `read-only`, `changes` or `destructive`, as intents declare it.
    public var effect: String
    /// The kind of thing the step acts on, from its intent's entity types: `Bookmark`, `Collection`.
    public var entity: String?
  }

  /// A host the workflow may contact, with the steps that would.
  public struct HostAccess: Sendable, Hashable, Encodable {
    public var host: String
    public var steps: [StepReference]
  }

  /// Something the workflow does to the machine it runs on, with the steps that do it.
  public struct MachineUse: Sendable, Hashable, Encodable {
    /// `reads-files`, `writes-files`, `trashes-files`, `deletes-files`, `runs-commands`,
    /// `shows-notifications`, `reads-clipboard`, `writes-clipboard`, `reads-device-details`.
    public var kind: String
    /// What is acted on, as the steps write it: a path, a glob, a script, a command. Nil when the run
    /// computes it, or when the kind names nothing.
    public var subject: String?
    /// The run computes what is acted on: any file, any command.
    public var computed: Bool
    /// The paths and globs named, each on its own.
    public var names: [String] = []
    /// For `runs-commands`: the program and its words, or its script, as the step writes them.
    public var command: CapabilitySet.Command?
    /// For `runs-commands`: what else decides what runs, as written ("arguments ${title}").
    public var details: [String] = []
    public var steps: [StepReference]
  }

  /// What a `run-shell` step may touch as it runs (its `fence:`, Shell.md): limits the kernel enforces,
  /// or none at all.
  public struct Fence: Sendable, Hashable, Encodable {
    public var step: StepReference
    /// What the step may read, write and connect to; nil when it runs unfenced (`fence: none`, your own
    /// file's step that declares nothing, or a fence computed at run time).
    public var read: [String]?
    public var write: [String]?
    public var network: Bool?
    /// The limits are the shared file's default (read-only, no network), not written in the step.
    public var byDefault: Bool
    /// The fence is computed at run time, so nothing can be said of it: counted as unfenced.
    public var computed: Bool
  }

  /// Steps whose actions may contact hosts they do not name, as someone other than flow says (an MCP
  /// tool whose server gives `openWorldHint`, or no annotations): which hosts, only that one knows.
  public struct UndeclaredHosts: Sendable, Hashable, Encodable {
    /// Who says so: "the server 'time'".
    public var claimedBy: String
    /// Whether the steps pass them values the run computes (which may then go on to those hosts).
    public var sendsComputed: Bool
    public var steps: [StepReference]
  }

  /// An MCP server the workflow's steps call tools of, with what it starts on this machine.
  public struct ServerUse: Sendable, Hashable, Encodable {
    /// The name the steps write before the tool (`time` in `time.get_current_time`).
    public var name: String
    /// What config.yml here says the name starts (a command line, or a URL); nil when no server of that
    /// name is configured here: then its steps can be neither checked nor run.
    public var command: String?
    public var steps: [StepReference]
  }

  /// A workflow this one runs with `run-workflow`.
  public struct WorkflowRun: Sendable, Hashable, Encodable {
    /// As written in the step; a computed reference is shown as written (`${choice}`).
    public var reference: String
    /// The file it resolved to; nil when it did not.
    public var file: String?
    /// Its `name:`.
    public var name: String?
    /// Why it could not be looked at: computed at run time, missing, or invalid.
    public var problem: String?
    /// Whether it travels inside the file analysed (under its `workflows:`): false for a workflow found
    /// on the reader's disk, which a shared file's author never showed them; nil when it did not resolve.
    public var carried: Bool?
    /// The step that runs it.
    public var step: StepReference
  }

  /// A confirmation that `confirmations: auto` answers without asking anybody.
  public struct Unattended: Sendable, Hashable, Encodable {
    public var step: StepReference
    /// The question that will not be asked, when the step wrote one.
    public var question: String?
    /// Whether what it lets through deletes something: the card shows these in red.
    public var deletes: Bool
  }

  /// One cron expression of the schedule, as written and in words.
  public struct Schedule: Sendable, Hashable, Encodable {
    public var cron: String
    /// Its own `timezone`, else the workflow's; nil for the machine's zone.
    public var timezone: String?
    /// FlowScheduler's words ("at 09:00, on Monday"); nil when the expression does not read as cron.
    public var words: String?

    public init(cron: String, timezone: String?, words: String?) {
      self.cron = cron
      self.timezone = timezone
      self.words = words
    }

    /// The schedule of `workflow`: one entry per cron expression, none without `schedule:`.
    public static func entries(of workflow: Workflow) -> [Schedule] {
      workflow.schedule.map { entry in
        let expression = CronExpression.parse(entry.cron.value, locate: { _, _ in nil }).expression
        return Schedule(
          cron: entry.cron.value, timezone: (entry.timezone ?? workflow.timezone)?.value, words: expression?.words)
      }
    }
  }

  /// One trigger of `on:`, in words (``TriggerWords``).
  public struct TriggerUse: Sendable, Hashable, Encodable {
    public var kind: String
    /// After "Starts when": "a PDF appears in ~/Downloads".
    public var words: String
    /// For a table: "file ~/Downloads/*.pdf".
    public var short: String

    public static func entries(of workflow: Workflow) -> [TriggerUse] {
      workflow.triggers.map {
        TriggerUse(kind: $0.kind.rawValue, words: TriggerWords.words($0), short: TriggerWords.short($0))
      }
    }
  }

  /// The workflow's own file; steps of nested workflows name theirs.
  public var file: String = ""
  public var apps: [AppAccess] = []
  /// Steps outside any app's catalogue that change or delete something (open-url, get-url with POST or
  /// DELETE), each with its effect.
  public var otherChanges: [EffectStep] = []
  /// Hosts named by the intents or by literal URLs, in the order the steps meet them.
  public var hosts: [HostAccess] = []
  /// Steps whose URL is computed at run time: they may contact any host.
  public var anyHost: [StepReference] = []
  /// Steps that may contact hosts they do not name, by who says so, in the order the steps meet them.
  public var undeclaredHosts: [UndeclaredHosts] = []
  /// The MCP servers whose tools the steps call, in the order the steps meet them.
  public var servers: [ServerUse] = []
  /// Hosts written out in URLs whose path or query the run computes (`https://evil.example/c?d=${previous}`):
  /// what the workflow holds goes to them, in the URL. Each host is also under ``hosts``.
  public var dataSent: [HostAccess] = []
  /// Hosts sent data in a request's body or headers (`get-url`'s `json:`, `body:`, `headers:`), written
  /// out or computed. Each host is also under ``hosts``.
  public var requestData: [HostAccess] = []
  /// URLs written out in full: a request to exactly one of these carries nothing the run computes.
  public var urls: [String] = []
  /// Steps that hand values computed at run time to another program as command-line arguments
  /// (`open-url` to `xdg-open`), which every user of the machine can read while it runs.
  public var exposedArguments: [StepReference] = []
  /// What it does to the machine it runs on (files, commands, the desktop), by kind and subject, in the
  /// order the steps first do it. Steps listed here are not under ``otherChanges``.
  public var machine: [MachineUse] = []
  /// The fence of every `run-shell` step, in step order.
  public var fences: [Fence] = []
  /// False when this machine cannot enforce fences (no Landlock), as the command that presents finds;
  /// nil otherwise (and on the share page, read on other machines).
  public var landlock: Bool?
  /// The environment variables it may read (`env:`), its own and its nested workflows'.
  public var environment: [String] = []
  /// The secrets it reads from the keyring (`secrets:`), its own and its nested workflows'.
  public var secrets: [String] = []
  public var workflows: [WorkflowRun] = []
  /// When it runs unattended: one entry per cron expression.
  public var schedule: [Schedule] = []
  /// What else starts it by itself (`on:`), in words.
  public var triggers: [TriggerUse] = []
  /// `run:`: `immediately` or `ask`, when a trigger fires.
  public var runPolicy = "immediately"
  public var notifyWhenRun = false
  /// `ask` or `auto`: how confirmations are answered when nobody is at a terminal.
  public var confirmations: String = "ask"
  /// What acts without asking: every confirmation `confirmations: auto` answers by itself.
  public var unattended: [Unattended] = []

  /// Whether the workflow can change or delete anything at all.
  public var changesAnything: Bool {
    apps.contains { $0.writes + $0.deletes > 0 } || !otherChanges.isEmpty
      || machine.contains { MachineAccess.Kind(rawValue: $0.kind)?.onlyReads == false }
  }

  /// Where a secret it reads may go: a value reaches a host only in what a request carries (a URL the run
  /// computes, a body, headers), so the hosts sent data, then the MCP servers its steps call.
  public var secretDestinations: [String] {
    var names: [String] = []
    for host in (dataSent + requestData).map(\.host) where !names.contains(host) { names.append(host) }
    return names + servers.map { "the MCP server \($0.name)" }
  }

  /// Whether a secret may go to any host: a URL computed at run time, or a server that may contact hosts
  /// it does not name with what the run computes.
  public var secretsMayGoAnywhere: Bool { !anyHost.isEmpty || undeclaredHosts.contains(where: \.sendsComputed) }

  /// Whether anything deletes without the person being asked: the card's red line.
  public var deletesWithoutAsking: Bool { unattended.contains(where: \.deletes) }
}

extension Capabilities {
  /// What a run of the workflow is held to: everything on its card and nothing else (issue 28). A
  /// workflow the card cannot look into (chosen at run time, or not found) leaves the run unlimited, as
  /// the card says in its words.
  public var contract: CapabilitySet {
    var set = CapabilitySet()
    if workflows.contains(where: { $0.problem != nil }) { return .unlimited }
    for use in machine {
      guard let kind = MachineAccess.Kind(rawValue: use.kind) else { continue }
      switch kind {
      case .readsFiles, .writesFiles, .replacesFiles, .trashesFiles, .deletesFiles:
        var scope = set.files[kind] ?? .nothing
        if use.computed { scope = .any } else { for name in use.names { scope.insert(name) } }
        set.files[kind] = scope
      case .runsCommands:
        if case .only(var commands) = set.commands {
          if let command = use.command, !use.computed {
            commands.insert(command)
            set.commands = .only(commands)
          } else {
            set.commands = .any
          }
        }
      case .showsNotifications, .readsClipboard, .writesClipboard, .readsDevice:
        set.desktop.insert(kind)
      case .sendsData:
        break
      }
    }
    if anyHost.isEmpty {
      for host in hosts { set.hosts.insert(host.host) }
      for host in dataSent + requestData { set.sends.insert(host.host) }
      set.urls = Set(urls)
    } else {
      set.hosts = .any
      set.sends = .any
    }
    for server in servers { set.servers.insert(server.name) }
    set.secrets = Set(secrets)
    return set
  }
}
