import ArgumentParser
import FlowDiagnostics
import FlowHTTP
import FlowIntents
import FlowLibrary
import FlowRuntime
import FlowSession
import FoundationEssentials
import RaindropModel

/// `flow do PHRASE…`: the app shortcuts of the catalogues (the seed's AppShortcutsProvider) as
/// zero-setup commands. `flow do save to raindrop https://swift.org` saves a bookmark.
struct DoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "do",
    abstract: "Run an action or a library workflow by one of its phrases, such as 'save to raindrop URL'.",
    discussion: """
      Phrases are the catalogues' app shortcuts and the 'phrases:' of library workflows, whose \
      ${NAME} words fill that input. The words after the phrase fill the action's main parameter, or \
      the one input a workflow's phrase does not name; what is still missing is asked for at a terminal. flow's options may come anywhere (flow do save to raindrop URL --yes); after \
      '--' every word is part of the phrase or the value. Run 'flow do' alone to list the phrases.
      """
  )

  /// Every word that is not one of the options below, in order: options are taken out wherever they are.
  @Argument(parsing: .allUnrecognized, help: "A phrase, then the value for the action.")
  var words: [String] = []

  @OptionGroup var options: ActionOptions

  @Flag(help: "Print the result as JSON on standard output.")
  var json = false

  /// The command's own options (which ArgumentParser has taken out of ``words`` wherever they were), as
  /// its help lists them, so that an option added later is known here too.
  static var optionNames: [String] { helpMessage().matches(of: /--[a-z][a-z-]*/).map { String($0.output) } }

  /// Before `--`, a word that looks like a long option is a mistyped one (`--jsn`), not part of the value:
  /// a usage error, as any other command's unknown option is, rather than a search for '--jsn'.
  func validate() throws {
    guard let option = words.prefix(while: { $0 != "--" }).first(where: { $0.hasPrefix("--") }) else { return }
    let name = String(option.prefix { $0 != "=" })
    let suggestion = Suggestion.closest(to: name, among: Self.optionNames).map { " Did you mean '\($0)'?" } ?? ""
    throw ValidationError(
      "Unknown option '\(name)'.\(suggestion) Write it after '--' if it is part of the value")
  }

  /// The phrase and the value: the words without the first `--`, which only ends flow's options.
  private var phraseWords: [String] {
    guard let end = words.firstIndex(of: "--") else { return words }
    return Array(words[..<end] + words[(end + 1)...])
  }

  func run() async throws {
    let context = SessionContext.current
    let book = PhraseBook(library: WorkflowLocator(context: context))
    let words = phraseWords.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
    guard !words.isEmpty else { return try list(book, context: context) }
    let typed = words.joined(separator: " ")
    guard let match = book.match(words) else {
      let diagnostic = Diagnostic(.error, .unknownPhrase, "nothing answers to '\(typed)'", file: nil)
        .help(
          Self.closestPhrase(to: words, among: book.entries.map(\.phrase.text)).map { "did you mean '\($0)'?" }
            ?? "run 'flow do' to list the phrases")
      return try finish(.invalid, output: nil, reporter: nil, diagnostics: Diagnostics([diagnostic]), context: context)
    }
    let intentID: String
    switch match.entry.target {
    case .action(let id): intentID = id
    case .workflow(let name, let file):
      return try await runWorkflow(name: name, file: file, match: (match.values, match.rest), context: context)
    }
    let rest = match.rest.joined(separator: " ")
    let descriptor = try Catalogs.registry.descriptor(for: intentID)
    var values: [String: FlowValue] = [:]
    if !rest.isEmpty, let primary = descriptor.primaryParameter {
      values[primary.key] = .text(rest)
    }

    let (console, json) = (context.console, json)
    let reporter = RunReporter(console: console, json: json, renderer: context.diagnosticRenderer)
    let services: IntentContext
    let session: RunSession
    do {
      session = try RunSession(
        context, action: descriptor.id, runID: context.environment["FLOW_RUN_ID"] ?? UUID().uuidString.lowercased())
    } catch {
      return try finish(.invalid, output: nil, reporter: nil, diagnostics: Diagnostics([error]), context: context)
    }
    // Recorded as a one-step run: the action is step 1.
    session.beginAction()
    do {
      services = try options.intentContext(
        context, prompter: options.prompter(context, quiet: json), limits: session.limits
      ) { use in
        reporter.backend = use
        if !json { console.write(use.line + "\n", to: .error) }
      }
    } catch {
      return try finish(
        .invalid, output: nil, reporter: nil, diagnostics: Diagnostics([error]), session: session, context: context)
    }
    let (observer, step) = (session.observer(reporter), StepInfo(position: "1", label: descriptor.id))
    observer.record(.started(step))
    do {
      let output = try await descriptor.run(
        values: values, context: RunContract.holding(services, toAction: descriptor.id, values: values))
      if let dialog = output.dialog { observer.record(.dialog(dialog, step)) }
      observer.record(
        .finished(
          StepRecord(step: "1", action: descriptor.id, status: .ran, output: output.value.typeName, value: output.value)
        ))
      try finish(
        .success, output: output.value, reporter: reporter, diagnostics: Diagnostics(), session: session,
        context: context)
    } catch let error as ExitCode {
      throw error
    } catch {
      let (message, help) = AppIntentError.describe(error)
      let diagnostic = Diagnostic(.error, .stepFailed, "\(descriptor.id): \(message)", file: nil).help(help)
      try finish(
        ExitStatus(RunError.classify(error)), output: nil, reporter: reporter, diagnostics: Diagnostics([diagnostic]),
        session: session, context: context)
    }
  }

  /// `flow do` alone: the phrases, the catalogues' then the library's, with what each runs.
  private func list(_ book: PhraseBook, context: SessionContext) throws {
    guard json else {
      for entry in book.entries {
        let runs =
          switch entry.target {
          case .action: entry.title
          case .workflow(let name, _): "\(entry.title) (flow run \(name))"
          }
        context.printShown("\(PlainText.padded(entry.phrase.text, to: 40)) \(runs)")
      }
      return
    }
    let entries: [FlowValue] = book.entries.map { entry in
      var fields: [(key: String, value: FlowValue)] = [
        ("phrase", .text(entry.phrase.text)), ("title", .text(entry.title)),
      ]
      switch entry.target {
      case .action(let id): fields.append(("action", .text(id)))
      case .workflow(let name, _): fields.append(("workflow", .text(name)))
      }
      return .dictionary(FlowDictionary(fields))
    }
    try context.printJSON(JSONValue(.dictionary(["phrases": .list(entries)])))
  }

  /// A library workflow's phrase: the workflow runs as `flow run NAME` would run it (recorded as started
  /// by `flow do`), with the inputs the phrase named and the words after it for the one input it did
  /// not name.
  private func runWorkflow(
    name: String, file: URL, match: (values: [String: String], rest: [String]), context: SessionContext
  ) async throws {
    var values = match.values
    if !match.rest.isEmpty {
      let unnamed = (LauncherEntries.decode(file)?.inputs.map(\.name.value) ?? []).filter { values[$0] == nil }
      guard unnamed.count == 1, let input = unnamed.first else {
        let diagnostic = Diagnostic(
          .error, .unknownPhrase, "'\(match.rest.joined(separator: " "))' is more than the phrase takes", file: nil
        ).help(
          unnamed.isEmpty
            ? "'\(name)' has no input left for the words after its phrase"
            : "'\(name)' has several inputs the phrase does not name; give them with 'flow run \(name) --input NAME=VALUE'"
        )
        return try finish(
          .invalid, output: nil, reporter: nil, diagnostics: Diagnostics([diagnostic]), context: context)
      }
      values[input] = match.rest.joined(separator: " ")
    }
    let request = RunRequest(
      workflow: file.path, inputs: values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" },
      action: ActionSettings(yes: options.yes, noInput: options.noInput, backend: options.backend), json: json,
      trigger: .do)
    try await request.run()
  }

  /// Records the run, prints the action's output (or the JSON report, the same as `flow run`'s) and ends
  /// with the status.
  private func finish(
    _ status: ExitStatus, output: FlowValue?, reporter: RunReporter?, diagnostics: Diagnostics,
    session: RunSession? = nil, context: SessionContext
  ) throws {
    session?.finish(status, diagnostics: diagnostics)
    if json {
      try context.printJSON(RunReport(status, output: output, reporter: reporter, diagnostics: diagnostics))
    } else {
      switch output {
      case nil, .nothing?: break
      case .list(let items)?: for item in items { context.printShown(Self.line(for: item)) }
      case let value?: context.printShown(Self.line(for: value))
      }
      if !diagnostics.isEmpty { context.report(diagnostics) }
    }
    if status != .success { throw ExitCode(status.rawValue) }
  }

  /// A value on one line: an entity as its title and subtitle.
  static func line(for value: FlowValue) -> String {
    if case .entity(let entity) = value {
      return entity.subtitle.map { "\(entity.title) — \($0)" } ?? entity.title
    }
    return value.text
  }

  /// The phrase a misspelt one was meant to be: each phrase is compared with as many of the typed words
  /// as it has, so the value after the phrase (a long URL) does not hide a one-letter slip.
  static func closestPhrase(to words: [String], among phrases: [String]) -> String? {
    var best: (phrase: String, distance: Int)?
    for phrase in phrases {
      let typed = words.prefix(phrase.split(separator: " ").count).joined(separator: " ").lowercased()
      guard Suggestion.closest(to: typed, among: [phrase]) != nil else { continue }
      let distance = Suggestion.editDistance(typed, phrase)
      if distance < (best?.distance ?? .max) { best = (phrase, distance) }
    }
    return best?.phrase
  }
}

extension DiagnosticCode {
  /// `flow do` was given words that start no phrase.
  public static let unknownPhrase: Self = "unknown-phrase"
}
