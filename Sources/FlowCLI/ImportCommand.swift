import ArgumentParser
import FlowDiagnostics
import FlowHTTP
import FlowIntents
import FlowLibrary
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowSession
import FlowSharing
import FlowSystem
import FlowYAML
import FoundationEssentials

/// `flow import FILE|-|URL`: a shared workflow into the library, behind a permission card.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Add a shared workflow to the library, after showing what it may do.",
    discussion: """
      Reads the file (a path, '-' for standard input, or an http(s) URL), checks its signature (a file \
      changed after it was signed is refused, always) and checks it as 'flow validate' does. Then it \
      shows the permission card: who signed it and everything it may do, in red what acts without \
      asking. Then the import questions: inputs marked 'ask-on-import' are asked (or taken from \
      --answer) and kept as their defaults. Then it asks before adding the workflow. Without a terminal \
      nothing is added unless --yes is given. The library name is --as, or the workflow's name in \
      kebab-case; a name the library has needs --replace, which keeps the old copy as a backup.
      """
  )

  @Argument(help: "The shared file: a path, '-' for standard input, or an http(s) URL.")
  var source: String

  @Option(
    name: .customLong("as"),
    help: ArgumentHelp("The name in the library (what 'flow run NAME' takes).", valueName: "NAME"))
  var name: String?

  @Option(
    name: .customLong("answer"), help: ArgumentHelp("Answer an import question, repeatable.", valueName: "NAME=VALUE"))
  var answers: [String] = []

  @Flag(help: "Add it without asking (the card is still shown).")
  var yes = false

  @Flag(help: "Replace a workflow of the same name, keeping the old copy as a backup.")
  var replace = false

  @Flag(name: .customLong("no-input"), help: "Never ask: answers come from --answer and defaults.")
  var noInput = false

  @Flag(help: "Let its triggers ('on:') start it by themselves; without it, they wait for 'flow schedule arm'.")
  var arm = false

  /// The largest shared file read, as `flow validate` reads any workflow file.
  static let maximumSize = YAMLLimits.workflow.maxFileSize

  func run() async throws {
    let context = SessionContext.current
    let bytes = try await read(context)
    let locator = WorkflowLocator(context: context)
    let importer = Importer(
      source: source, library: locator.libraryDirectory,
      check: WorkflowCheck(registry: Catalogs.registry, files: locator))
    // Until something is written, nothing needs finishing: Ctrl-C and SIGTERM end the import at once,
    // however long the check and the card take.
    let (inspection, capabilities) = try Interrupts.endingAtOnce { try card(bytes, importer: importer, context) }
    let servers = capabilities.servers
    let workflow = inspection.workflow

    // A server it names that this machine has not configured: its runs would stop before step 1, and what
    // its tools do is unknown, so only an explicit --yes adds it.
    let unconfigured = servers.filter { $0.command == nil }.map(\.name)
    if !unconfigured.isEmpty, !yes {
      throw ExitCode(
        Self.refuse(
          "nothing was added: it uses \(unconfigured.count == 1 ? "server" : "servers") "
            + "\(List.and(unconfigured.map { "'\($0)'" })), which \(unconfigured.count == 1 ? "is" : "are") "
            + "not configured here",
          help: unconfigured.map { "add it with 'flow servers add \($0) -- COMMAND [ARGS...]'" }.joined(separator: "; ")
            + "; or pass --yes to add the workflow anyway (its runs stop before step 1 until then)",
          status: .needsInput, context))
    }

    // Where it goes, before anybody answers anything.
    let name = try libraryName(for: workflow, context)
    let existing = locator.libraryWorkflows.first { $0.name == name }
    if let existing, !replace {
      throw Library.fail(
        Diagnostic(
          .error, .workflowExists, "the library already has a workflow named '\(name)'", file: existing.url.path
        )
        .help("--replace replaces it, keeping the old copy as a backup; --as NAME imports it under another name"),
        context)
    }

    let clashes = PhraseBook(library: locator).clashes(of: workflow, replacing: existing?.url)
    if clashes.hasErrors {
      context.report(clashes)
      throw ExitCode(
        Self.refuse(
          "nothing was added: its phrases clash with phrases 'flow do' already answers to",
          help: "change its phrases, or the other workflow's", status: .invalid, context))
    }

    if let existing, let warning = Self.downgrade(replacing: existing.url, with: inspection, context) {
      context.console.write(warning + "\n", to: .error)
    }

    let attended = !noInput && context.console.isTerminal(.input) && context.console.isTerminal(.error)
    let answered = try ask(workflow, attended: attended, context)
    if !yes {
      guard attended else {
        throw ExitCode(
          Self.refuse(
            "nothing was added: importing needs a yes, and nobody is at a terminal to give it",
            help: "read the card above, then pass --yes to add it", status: .needsInput, context))
      }
      let confirmed = try await TerminalPrompter(console: context.console).requestConfirmation(
        ConfirmationRequest(kind: .alert, origin: PromptOrigin(), dialog: "Add '\(name)' to your library?"))
      guard confirmed else {
        throw ExitCode(Self.refuse("nothing was added", help: nil, status: .cancelled, context))
      }
    }

    let armed = try await consent(to: capabilities, attended: attended, context)

    let copy: [UInt8]
    switch Interrupts.endingAtOnce({ importer.copy(of: inspection, answers: answered) }) {
    case .success(let made): copy = made
    case .failure(let error):
      context.report(error.diagnostics)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let target = locator.libraryDirectory.appendingPathComponent("\(name).yml")
    do {
      let (_, backup) = try importer.add(
        copy, as: name, replacing: existing?.url, origin: origin(context), verification: inspection.verification,
        answered: answered.keys.sorted(), approved: capabilities.contract, armed: armed, now: context.clock.now)
      if let backup { context.console.write("the old '\(name)' is kept as \(backup.path)\n", to: .error) }
    } catch {
      throw Library.fail(
        Diagnostic(.error, .cannotWrite, "cannot add the workflow: \(error.reason)", file: target.path),
        context)
    }
    context.print(target.path)
    context.console.write("added '\(name)' to your library; run it with: flow run \(name)\n", to: .error)
    // A workflow it replaced that was in the launcher: its entry shows the new one.
    if existing != nil, LauncherEntries(context: context).follow(locator.libraryWorkflows).contains(.updated(name)) {
      context.console.write("its launcher entry is up to date\n", to: .error)
    }
    if armed == false {
      context.console.write(
        "its triggers are not armed: it starts by itself only after 'flow schedule arm \(name)'\n", to: .error)
    }
  }

  /// Whether the workflow's triggers may start it by themselves: `--arm`, or a yes at the terminal to
  /// the card's question; nil when it has no triggers. Never by default, `--yes` included: a file
  /// someone else wrote starts by itself only when the person said so in as many words.
  private func consent(to capabilities: Capabilities, attended: Bool, _ context: SessionContext) async throws -> Bool? {
    guard !capabilities.triggers.isEmpty else { return nil }
    if arm { return true }
    guard attended, !yes else { return false }
    let words = capabilities.triggers.map(\.words).joined(separator: ", or when ")
    return try await TerminalPrompter(console: context.console).requestConfirmation(
      ConfirmationRequest(
        kind: .alert, origin: PromptOrigin(), dialog: "Let it start by itself when \(words)?"))
  }

  // MARK: - The check and the card

  /// Verifies the signature, checks the file and shows the card: the workflow, when it may be imported.
  private func card(_ bytes: [UInt8], importer: Importer, _ context: SessionContext) throws -> (
    Importer.Inspection, Capabilities
  ) {
    let inspection: Importer.Inspection
    switch importer.inspect(bytes, trustedName: Sharing.keyStore(context).trustedNames()) {
    case .success(let inspected): inspection = inspected
    case .failure(.signature(let problem)): throw Library.fail(problem, context)
    case .failure(.invalid(let diagnostics)):
      context.report(diagnostics)
      context.console.write("refusing to import '\(source)': it has errors\n", to: .error)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let (workflow, verification, check) = (inspection.workflow, inspection.verification, importer.check)
    if !inspection.warnings.isEmpty { context.report(inspection.warnings) }

    // The card.
    let provenance = Provenance(
      created: workflow.shared?.created.flatMap { SharedTime.parse($0.value) },
      modified: workflow.shared?.modified.flatMap { SharedTime.parse($0.value) }, signature: verification.status)
    var outline = OutlineBuilder(registry: Catalogs.registry, loader: check).outline(
      of: workflow, provenance: provenance, now: context.clock.now)
    // Whether run-shell's fences hold here, which the card says (Shell.md).
    if LandlockFence.abi(environment: context.environment) == nil { outline.capabilities.landlock = false }
    let colors = context.colors(.error)
    let width = context.environment["COLUMNS"].flatMap { Int($0) } ?? context.console.columns(.error) ?? 80
    context.console.write(
      PermissionCard(width: width, colors: colors).render(
        outline, source: source, sourceIsFile: source != "-" && !Self.isURL(source)),
      to: .error)
    return (inspection, outline.capabilities)
  }

  // MARK: - Reading

  /// Where the file came from, as the provenance record keeps it: a URL, an absolute path, or
  /// "standard input".
  private func origin(_ context: SessionContext) -> String {
    if source == "-" { return "standard input" }
    return Self.isURL(source) ? source : context.url(for: source).standardizedFileURL.path
  }

  private static func isURL(_ source: String) -> Bool {
    source.hasPrefix("https://") || source.hasPrefix("http://")
  }

  private func read(_ context: SessionContext) async throws -> [UInt8] {
    if source == "-" {
      // One byte past the limit is enough to know the stream is too long.
      guard let text = context.console.readAllInput(atMost: Self.maximumSize + 1) else {
        throw Library.fail(
          Diagnostic(.error, .importSource, "nothing on standard input", file: "-")
            .help("pipe the file in: flow import - < shared.flow.yml"), context)
      }
      let bytes = Array(text.utf8)
      guard bytes.count <= Self.maximumSize else { throw tooLarge(context) }
      return bytes
    }
    if Self.isURL(source) {
      guard let url = URL(string: source), url.host != nil else {
        throw Library.fail(Diagnostic(.error, .importSource, "not a URL flow can read", file: source), context)
      }
      let response: HTTPResponse
      do {
        response = try await context.transport.send(
          HTTPRequest(
            url: url, headers: ["Accept": "application/yaml, text/yaml, text/plain, */*"],
            maximumBodySize: Self.maximumSize))
      } catch .tooLarge {
        throw tooLarge(context)
      } catch {
        throw Library.fail(
          Diagnostic(.error, .importSource, "cannot fetch the file: \(error.description)", file: source), context)
      }
      guard (200..<300).contains(response.status) else {
        throw Library.fail(
          Diagnostic(.error, .importSource, "the server answered \(response.status) instead of the file", file: source),
          context)
      }
      return [UInt8](response.body)
    }
    switch SourceReader.read(source, in: context) {
    case .success(let file): return file.bytes
    case .failure(let problem): throw Library.fail(problem, context)
    }
  }

  private func tooLarge(_ context: SessionContext) -> ExitCode {
    Library.fail(YAMLLimits.workflow.streamTooLarge(path: source), context)
  }

  // MARK: - Name and questions

  /// The name the copy gets in the library, refused when it could pass for a name already there.
  private func libraryName(for workflow: Workflow, _ context: SessionContext) throws -> String {
    let name = try proposedName(for: workflow, context)
    let existing = WorkflowLocator(context: context).libraryWorkflows.map(\.name)
    if let lookAlike = LookAlikes.problem(name, .workflow, among: existing) {
      throw Library.fail(lookAlike.help(self.name == nil ? "give it another name with --as NAME" : nil), context)
    }
    return name
  }

  private func proposedName(for workflow: Workflow, _ context: SessionContext) throws -> String {
    if let name {
      let stripped = WorkflowName.stripExtension(name)
      guard WorkflowName.isValidName(stripped) else {
        throw Library.fail(
          Diagnostic(.error, .invalidWorkflowName, "'\(name)' cannot name a workflow", at: nil)
            .help("use letters, digits, '-' and '_', starting with a letter or digit, like 'daily-digest'"), context)
      }
      return stripped
    }
    if let derived = Sharing.libraryName(for: workflow.name) { return derived }
    let stem = URL(fileURLWithPath: source).lastPathComponent.split(separator: ".").first.map(String.init) ?? ""
    guard WorkflowName.isValidName(stem) else {
      throw Library.fail(
        Diagnostic(.error, .invalidWorkflowName, "the workflow's name does not make a library name", at: nil)
          .help("give one with --as NAME"), context)
    }
    return stem
  }

  /// The answers to the import questions, as YAML by input name: from `--answer`, else asked at the
  /// terminal (again while an answer does not fit), else the input's default stays.
  private func ask(_ workflow: Workflow, attended: Bool, _ context: SessionContext) throws -> [String: String] {
    let questions = workflow.inputs.filter(\.askOnImport)
    var given: [String: String] = [:]
    for answer in answers {
      guard let equals = answer.firstIndex(of: "="), equals != answer.startIndex else {
        throw Library.fail(
          Diagnostic(.error, .invalidAnswer, "'\(answer)' is not NAME=VALUE", at: nil)
            .help("answer like --answer tag=reading"), context)
      }
      let key = String(answer[..<equals])
      guard questions.contains(where: { $0.name.value == key }) else {
        let names = questions.map(\.name.value)
        throw Library.fail(
          Diagnostic(.error, .invalidAnswer, "'\(workflow.name)' asks no import question '\(key)'", at: nil)
            .help(
              Suggestion.help(for: key, among: names)
                ?? (names.isEmpty ? "it asks none" : "it asks \(names.map { "'\($0)'" }.joined(separator: ", "))")),
          context)
      }
      given[key] = String(answer[answer.index(after: equals)...])
    }
    var yaml: [String: String] = [:]
    for input in questions {
      let key = input.name.value
      let type = input.type.flatMap { ValueType(spelling: $0.value) } ?? .any
      if let answer = given[key] {
        if let problem = Importer.problem(answer, type: type) {
          throw Library.fail(
            Diagnostic(.error, .invalidAnswer, "--answer \(key): \(problem)", at: input.name.span), context)
        }
        yaml[key] = ImportAnswers.yaml(for: answer, type: type)
        continue
      }
      guard attended else {
        if input.defaultValue != nil { continue }
        throw ExitCode(
          Self.refuse(
            "nothing was added: import question '\(key)' needs an answer, and nobody is at a terminal",
            help: "pass --answer \(key)=VALUE", status: .needsInput, context))
      }
      let current = input.defaultValue.flatMap(Self.literalText)
      while true {
        var question = input.prompt ?? "Value for '\(key)'"
        if type != .text, type != .any { question += " (\(type.name))" }
        if let current { question += " [\(current)]" }
        let line = Interrupts.whileReadingInput {
          // The prompt is the sender's text, asked before anything is trusted: shown, never obeyed.
          context.console.write("\(TerminalSafe.text(question)): ", to: .error)
          return context.console.readLine()
        }
        guard let line else { throw ExitCode(Self.refuse("nothing was added", help: nil, status: .cancelled, context)) }
        if line.isEmpty, current != nil { break }
        if line.isEmpty {
          context.console.write("  this question needs an answer\n", to: .error)
          continue
        }
        if let problem = Importer.problem(line, type: type) {
          context.console.write("  \(problem)\n", to: .error)
          continue
        }
        yaml[key] = ImportAnswers.yaml(for: line, type: type)
        break
      }
    }
    return yaml
  }

  /// The red line under the card when `--replace` puts a file nobody signed (or a key nobody trusts
  /// signed) in place of a signed workflow that runs on a schedule: from then on, what runs unattended
  /// every day is no longer what the trusted signer vouched for.
  static func downgrade(replacing old: URL, with new: Importer.Inspection, _ context: SessionContext) -> String? {
    guard
      case .trusted(let name) = Presentation.signature(
        of: (try? RegularFile.read(old.path, limit: YAMLLimits.workflow.maxFileSize).get()) ?? [], at: old, in: context),
      !Self.isTrusted(new.verification.status)
    else { return nil }
    let check = WorkflowCheck(registry: Catalogs.registry, files: WorkflowLocator(context: context))
    guard let replaced = WorkflowLocator(context: context).check(old.path, with: check).0, !replaced.schedule.isEmpty
    else { return nil }
    let text =
      "replaces '\(replaced.name)', signed by \(name) and run on a schedule, with a file that is "
      + new.verification.status.words + ": from its next scheduled run on, nobody you trust vouches for what runs"
    return context.colors(.error) ? "\u{1B}[31m\(text)\u{1B}[0m" : text
  }

  private static func isTrusted(_ status: SignatureStatus) -> Bool {
    if case .trusted = status { return true }
    return false
  }

  /// Says why nothing was added and returns the status to exit with.
  private static func refuse(_ message: String, help: String?, status: ExitStatus, _ context: SessionContext) -> Int32 {
    context.report(Diagnostics([Diagnostic(.error, .importRefused, message, at: nil).help(help)]))
    return status.rawValue
  }

  /// The text of a literal default, for showing it in brackets after a question.
  private static func literalText(_ value: Value) -> String? {
    switch value {
    case .text(let template): template.literal
    case .integer(let number, _): String(number)
    case .double(let number, _): String(number)
    case .bool(let bool, _): String(bool)
    case .list(let items, _): items.compactMap(literalText).joined(separator: ", ")
    default: nil
    }
  }
}
