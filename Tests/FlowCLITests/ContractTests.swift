import FlowBasics
import FlowHTTP
import FlowIntents
import FlowLibrary
import FlowMCPServer
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowSession
import FlowSystem
import FlowTestSupport
import Foundation
import Testing

/// The card is a contract (issue 28): a run is held to what its card shows, every way a workflow starts
/// applies one confirmation policy, and a gap in the analysis becomes a refused step, never a deleted
/// file.
struct ContractTests {
  /// A workflow whose step 2 deletes a file for good: what the audit did to the card, made on purpose
  /// here by taking step 2 out of the analysis before the run. The run must refuse, not act.
  @Test func aStepTheAnalysisMissedIsRefusedNotPerformed() async throws {
    let machine = try Machine()
    try "keep".write(to: machine.home.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let path = try machine.write(
      "gap.yml",
      """
      flow: 1
      steps:
        - get-file: ~/notes.txt
        - delete-files:
            files: ${previous}
            permanently: true
      """)
    let context = SessionContext(
      console: BufferConsole(), environment: machine.environment, workingDirectory: machine.directory.path)
    let (check, loaded, diagnostics) = WorkflowLocator(context: context).checkToRun(path, in: context)
    let workflow = try #require(loaded, "\(diagnostics)")
    var capabilities = CapabilityAnalysis(registry: Catalogs.registry, loader: check).analyze(workflow)
    let locations = FileLocations(home: machine.home.path, workingDirectory: machine.directory.path)
    #expect(
      capabilities.contract.allows(.deletesFiles, path: machine.home.path + "/notes.txt", resolve: locations.absolute))
    // The analysis "misses" step 2.
    for index in capabilities.machine.indices { capabilities.machine[index].steps.removeAll { $0.position == "2" } }
    capabilities.machine.removeAll { $0.steps.isEmpty }
    let services = try ActionSettings(yes: true).intentContext(
      context, prompter: ConfirmingPrompter(base: ScriptedPrompter([]))
    ) { _ in }
    let interpreter = Interpreter(
      registry: Catalogs.registry, context: services.holding(to: capabilities.contract), loader: check)
    let error = await #expect(throws: RunError.self) { _ = try await interpreter.run(workflow, inputs: [:]) }
    let message = error?.diagnostics.all.first?.message ?? ""
    #expect(message.contains("deletes for good '~/notes.txt': not on the card"), "\(message)")
    #expect(FileManager.default.fileExists(atPath: machine.home.path + "/notes.txt"))
  }

  /// The same workflow, with the card intact, runs: the contract is what the card shows.
  @Test func whatTheCardShowsRuns() async throws {
    let machine = try Machine()
    try "bye".write(to: machine.home.appendingPathComponent("old.txt"), atomically: true, encoding: .utf8)
    try machine.write(
      "clean.yml",
      """
      flow: 1
      steps:
        - get-file: ~/old.txt
        - delete-files:
            files: ${previous}
            permanently: true
      """)
    let result = await machine.run(["run", "clean.yml", "--yes"])
    #expect(result.status == 0, "\(result.error)")
    #expect(!FileManager.default.fileExists(atPath: machine.home.path + "/old.txt"))
  }

  /// Each layer refuses what the card does not name: a host, data sent to a host, a command, the
  /// clipboard, a notification.
  @Test func everyLayerChecksTheContract() async throws {
    var contract = CapabilitySet()
    contract.hosts = .only(["example.org"])
    contract.urls = ["https://example.org/a"]
    contract.commands = .only([CapabilitySet.Command(program: "/bin/sh", script: "echo hi")])
    let services = IntentContext(prompter: ScriptedPrompter([]))
      .with(Unreachable() as any HTTPTransport, as: (any HTTPTransport).self)
      .with(
        SpawnCommandRunner(environment: ["PATH": "/usr/bin:/bin"]) as any CommandRunner, as: (any CommandRunner).self
      )
      .with(SystemClipboard(environment: [:]) as any ClipboardService, as: (any ClipboardService).self)
      .holding(to: contract)
    let transport = try #require(services.dependency((any HTTPTransport).self))
    // The URL written out reaches the transport (which here answers that it cannot connect)…
    await #expect(throws: HTTPTransportError.cannotConnect(host: "example.org")) {
      _ = try await transport.send(HTTPRequest(url: URL(string: "https://example.org/a")!))
    }
    // …another host, data in a body, or a URL the run computed does not.
    for request in [
      HTTPRequest(url: URL(string: "https://evil.example/a")!),
      HTTPRequest(method: "POST", url: URL(string: "https://example.org/a")!, body: Data("secret".utf8)),
      HTTPRequest(url: URL(string: "https://example.org/a?d=secret")!),
    ] {
      do {
        _ = try await transport.send(request)
        Issue.record("\(request.url) was sent")
      } catch {
        #expect("\(error)".hasSuffix("not on the card"), "\(error)")
      }
    }
    let runner = try #require(services.dependency((any CommandRunner).self))
    let ran = try await runner.run(CommandRequest(executable: "/bin/sh", arguments: ["-c", "echo hi", "sh"]))
    #expect(ran.standardOutput == Array("hi\n".utf8))
    await #expect(throws: AppIntentError.self) {
      _ = try await runner.run(CommandRequest(executable: "/bin/sh", arguments: ["-c", "rm -rf ~", "sh"]))
    }
    let clipboard = try #require(services.dependency((any ClipboardService).self))
    await #expect(throws: AppIntentError.self) { _ = try await clipboard.text() }
  }

  /// An action run on its own (`flow do`, `flow mcp --actions`) is held to its own card: the URL it was
  /// given and no other; a script with its `${HOME}` as written (text, not a reference) and no other;
  /// values the check cannot take leave the analysis to say "any" host, never none.
  @Test func anActionAloneIsHeldToItsOwnCard() async throws {
    let services = IntentContext(prompter: ScriptedPrompter([]))
      .with(Unreachable() as any HTTPTransport, as: (any HTTPTransport).self)
      .with(
        SpawnCommandRunner(environment: ["PATH": "/usr/bin:/bin", "HOME": "/home/ada"]) as any CommandRunner,
        as: (any CommandRunner).self)
    let held = RunContract.holding(services, toAction: "get-url", values: ["url": "https://example.org/a"])
    let transport = try #require(held.dependency((any HTTPTransport).self))
    await #expect(throws: HTTPTransportError.cannotConnect(host: "example.org")) {
      _ = try await transport.send(HTTPRequest(url: URL(string: "https://example.org/a")!))
    }
    do {
      _ = try await transport.send(HTTPRequest(url: URL(string: "https://evil.example/a")!))
      Issue.record("a host the action was not given was reached")
    } catch {
      #expect("\(error)".hasSuffix("not on the card"), "\(error)")
    }
    let shell = RunContract.holding(services, toAction: "run-shell", values: ["script": "echo ${HOME}"])
    let runner = try #require(shell.dependency((any CommandRunner).self))
    let ran = try await runner.run(CommandRequest(executable: "/bin/sh", arguments: ["-c", "echo ${HOME}", "sh"]))
    #expect(ran.standardOutput == Array("/home/ada\n".utf8))
    await #expect(throws: AppIntentError.self) {
      _ = try await runner.run(CommandRequest(executable: "/bin/sh", arguments: ["-c", "rm -rf ~", "sh"]))
    }
    let unread = RunContract.holding(services, toAction: "get-url", values: ["url": "https://example.org", "nope": 1])
    let anyHost = try #require(unread.dependency((any HTTPTransport).self))
    await #expect(throws: HTTPTransportError.cannotConnect(host: "evil.example")) {
      _ = try await anyHost.send(HTTPRequest(url: URL(string: "https://evil.example/a")!))
    }
  }

  /// A transport that never connects: the request got past the contract when it says so.
  struct Unreachable: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
      throw .cannotConnect(host: request.url.host ?? "")
    }
  }

  // MARK: - One confirmation policy

  static let purge = """
    flow: 1
    name: Purge
    confirmations: auto
    steps:
      - delete-files:
          files: ~/cache
          permanently: true
    """

  /// `flow run --no-input`, a scheduled run (`flow run --no-input --trigger scheduled`, as the scheduler
  /// starts it) and `flow mcp` for a client that cannot answer refuse the same irreversible step, before
  /// step 1; `--yes` from the person running it confirms it.
  @Test func runSchedulerAndMCPRefuseTheSameIrreversibleStep() async throws {
    let machine = try Machine()
    let cache = machine.home.appendingPathComponent("cache")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    let path = machine.library.appendingPathComponent("purge.yml").path
    try Self.purge.write(toFile: path, atomically: true, encoding: .utf8)

    for arguments in [["run", "purge", "--no-input"], ["run", "purge", "--no-input", "--trigger", "scheduled"]] {
      let refused = await machine.run(arguments)
      #expect(refused.status == 4, "\(arguments): \(refused.error)")
      #expect(refused.error.contains("a person's confirmation (it deletes files for good"), "\(refused.error)")
    }
    let context = SessionContext(
      console: BufferConsole(), environment: machine.environment, workingDirectory: machine.home.path)
    let client = CallingClient(elicits: false, elicit: { _, _ in throw CancellationError() }, progress: nil)
    let called = await MCPToolCall(context: context, options: ActionSettings(), client: client)
      .runWorkflow(at: path, arguments: [:])
    #expect(called.isError)
    let said = called.texts.joined()
    #expect(said.contains("a person's confirmation"), "\(said)")
    #expect(FileManager.default.fileExists(atPath: cache.path))

    let confirmed = await machine.run(["run", "purge", "--yes"])
    #expect(confirmed.status == 0, "\(confirmed.error)")
    #expect(!FileManager.default.fileExists(atPath: cache.path))
  }

  /// `confirmations: auto` answers replacing a file in one's own workflow, and never in a file that came
  /// from elsewhere.
  @Test func autoNeverReplacesAFileInASharedWorkflow() async throws {
    let machine = try Machine()
    let own = """
      flow: 1
      confirmations: auto
      steps:
        - save-file:
            content: new
            path: ~/doc.txt
            if-exists: replace
      """
    try "old".write(to: machine.home.appendingPathComponent("doc.txt"), atomically: true, encoding: .utf8)
    try machine.write("shared.yml", own + "\nshared:\n  created: 2026-11-18T11:06:40Z\n")
    let refused = await machine.run(["run", "shared.yml", "--no-input"])
    #expect(refused.status == 4, "\(refused.error)")
    #expect(refused.error.contains("it replaces files in a file that came from elsewhere"), "\(refused.error)")
    #expect(try String(contentsOf: machine.home.appendingPathComponent("doc.txt"), encoding: .utf8) == "old")

    try machine.write("own.yml", own)
    let done = await machine.run(["run", "own.yml", "--no-input"])
    #expect(done.status == 0, "\(done.error)")
    #expect(try String(contentsOf: machine.home.appendingPathComponent("doc.txt"), encoding: .utf8) == "new")
  }

  // MARK: - The approved card

  /// An imported workflow runs within the card approved at import; once an edit makes it do more, the
  /// next run asks again before step 1 — refused unattended, allowed by `--yes` (and then recorded).
  @Test func anImportedWorkflowThatNowDoesMoreAsksAgain() async throws {
    let machine = try Machine()
    try machine.write(
      "draft.yml",
      """
      flow: 1
      name: Note
      steps:
        - save-file:
            content: hello
            path: ~/note.txt
            if-exists: keep-both
      """)
    let exported = await machine.run(["export", "draft.yml", "-o", "note.flow.yml"])
    #expect(exported.status == 0, "\(exported.error)")
    let imported = await machine.run(["import", "note.flow.yml", "--yes"])
    #expect(imported.status == 0, "\(imported.error)")
    let ran = await machine.run(["run", "note", "--no-input"])
    #expect(ran.status == 0, "\(ran.error)")

    // Someone edits the library copy to delete a file the card never showed.
    let copy = machine.library.appendingPathComponent("note.yml")
    try "keep".write(to: machine.home.appendingPathComponent("thesis.txt"), atomically: true, encoding: .utf8)
    let edited = try String(contentsOf: copy, encoding: .utf8)
      .replacingOccurrences(
        of: "steps:\n", with: "steps:\n  - delete-files: ~/thesis.txt\n    confirm: Tidy?\n")
    try edited.write(to: copy, atomically: true, encoding: .utf8)
    let refused = await machine.run(["run", "note", "--no-input"])
    #expect(refused.status == 4, "\(refused.error)")
    #expect(
      refused.error.contains(
        "'Note' can now do more than the card approved at import: moves to the Trash ~/thesis.txt"),
      "\(refused.error)")
    #expect(FileManager.default.fileExists(atPath: machine.home.path + "/thesis.txt"))

    let allowed = await machine.run(["run", "note", "--yes"])
    #expect(allowed.status == 0, "\(allowed.error)")
    #expect(!FileManager.default.fileExists(atPath: machine.home.path + "/thesis.txt"))
    // Approved now: the next run does not ask about it again.
    let record = try String(
      contentsOf: machine.library.appendingPathComponent(".provenance/note.json"), encoding: .utf8)
    #expect(record.contains("thesis.txt"), "\(record)")
  }

  /// A record whose approved card does not read approves nothing: the run asks about all it may do,
  /// rather than running as if no card had been approved.
  @Test func anApprovedCardThatDoesNotReadApprovesNothing() async throws {
    let machine = try Machine()
    try machine.write(
      "draft.yml", "flow: 1\nname: Note\nsteps:\n  - save-file: {content: hi, path: ~/note.txt, if-exists: keep-both}\n"
    )
    #expect(await machine.run(["export", "draft.yml", "-o", "note.flow.yml"]).status == 0)
    #expect(await machine.run(["import", "note.flow.yml", "--yes"]).status == 0)
    let record = machine.library.appendingPathComponent(".provenance/note.json")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
    var broken = json
    broken["approved"] = ["files": "everything, honestly"]
    try JSONSerialization.data(withJSONObject: broken).write(to: record)
    let refused = await machine.run(["run", "note", "--no-input"])
    #expect(refused.status == 4, "\(refused.error)")
    #expect(
      refused.error.contains("'Note' can now do more than the card approved at import: writes ~/note.txt"),
      "\(refused.error)")
  }
}

extension ContractTests {
  /// `--replace` of a signed, scheduled workflow with a file nobody signed is called out under the card,
  /// in red: its next scheduled run is no longer what the trusted signer vouched for.
  @Test func anUnsignedReplaceOfASignedScheduledWorkflowIsCalledOut() async throws {
    let machine = try Machine.sharing()
    let daily = """
      flow: 1
      name: Daily
      schedule: "0 9 * * *"
      steps:
        - show: good morning
      """
    try machine.write("daily.yml", daily)
    let signed = await machine.run(["export", "daily.yml", "--sign", "-o", "signed.flow.yml"])
    #expect(signed.status == 0, "\(signed.error)")
    let first = await machine.run(["import", "signed.flow.yml", "--yes"])
    #expect(first.status == 0, "\(first.error)")
    try machine.write("daily.yml", daily.replacingOccurrences(of: "good morning", with: "hello"))
    let unsigned = await machine.run(["export", "daily.yml", "-o", "unsigned.flow.yml"])
    #expect(unsigned.status == 0, "\(unsigned.error)")
    let replaced = await machine.run(["import", "unsigned.flow.yml", "--replace", "--yes"])
    #expect(replaced.status == 0, "\(replaced.error)")
    #expect(
      replaced.error.contains(
        "replaces 'Daily', signed by ada and run on a schedule, with a file that is unsigned: from its next "
          + "scheduled run on, nobody you trust vouches for what runs"), "\(replaced.error)")
    // Signed by the same trusted key, it is not.
    let again = await machine.run(["import", "signed.flow.yml", "--replace", "--yes"])
    #expect(again.status == 0, "\(again.error)")
    #expect(!again.error.contains("nobody you trust"), "\(again.error)")
  }
}

extension ContractTests {
  /// A shared file's step that asks to run unfenced needs a person: `confirmations: auto` never answers
  /// it, in `flow run` as in `flow mcp`; in one's own file, auto does.
  @Test func anUnfencedStepOfASharedFileNeedsAPerson() async throws {
    let machine = try Machine()
    let own = """
      flow: 1
      name: Unfenced
      confirmations: auto
      steps:
        - run-shell:
            script: touch ~/touched
            fence: none
      """
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    let shared = machine.library.appendingPathComponent("unfenced.yml").path
    try (own + "\nshared:\n  created: 2026-11-18T11:06:40Z\n").write(toFile: shared, atomically: true, encoding: .utf8)
    let refused = await machine.run(["run", "unfenced", "--no-input"])
    #expect(refused.status == 4, "\(refused.error)")
    #expect(refused.error.contains("it runs a command in a file that came from elsewhere"), "\(refused.error)")
    let context = SessionContext(
      console: BufferConsole(), environment: machine.environment, workingDirectory: machine.home.path)
    let client = CallingClient(elicits: false, elicit: { _, _ in throw CancellationError() }, progress: nil)
    let called = await MCPToolCall(context: context, options: ActionSettings(), client: client)
      .runWorkflow(at: shared, arguments: [:])
    #expect(called.isError)
    #expect(!FileManager.default.fileExists(atPath: machine.home.path + "/touched"))

    try machine.write("own.yml", own)
    let ran = await machine.run(["run", "own.yml", "--no-input"])
    #expect(ran.status == 0, "\(ran.error)")
    #expect(FileManager.default.fileExists(atPath: machine.home.path + "/touched"))
  }
}
