import FlowBasics
import FlowIntents
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowTestSupport
import Foundation
import RaindropIntents
import Testing

/// What steps do to the machine — files, commands, the desktop — from what their intents declare and the
/// values the steps write out: exact when written, "any" when computed, red for commands and deletions.
struct MachineAccessTests {
  /// Intents that declare machine access the way the Linux catalogue's do, so that the card's wording is
  /// tested apart from any one action.
  enum MachineCatalog: IntentCatalog {
    static let namespace: String? = nil
    static let title = "Machine"
    static let intents: [any AppIntent.Type] = [ReadThing.self, RunThing.self, TrashThing.self, PingThing.self]
  }

  struct ReadThing: AppIntent {
    static let title: LocalizedStringResource = "Read Thing"
    static let description = IntentDescription("Reads a file.")
    static let machineAccess = [MachineAccess(.readsFiles, parameter: "path")]
    @Parameter(title: "Path", primary: true) var path: String
    static var parameterSummary: some ParameterSummary { Summary("Read \(\.$path)") }
    func perform() async throws -> some IntentResult { .result() }
  }

  struct RunThing: AppIntent {
    static let title: LocalizedStringResource = "Run Thing"
    static let description = IntentDescription("Runs a script or a command.")
    static let sideEffect = SideEffect.changes
    static let machineAccess = [
      MachineAccess(.runsCommands, parameter: "script"), MachineAccess(.runsCommands, parameter: "command"),
    ]
    @Parameter(title: "Script") var script: String?
    @Parameter(title: "Command") var command: [String]?
    static var parameterSummary: some ParameterSummary { Summary("Run \(\.$script)") { \.$command } }
    func perform() async throws -> some IntentResult { .result() }
  }

  struct TrashThing: AppIntent {
    static let title: LocalizedStringResource = "Trash Thing"
    static let description = IntentDescription("Moves files to the Trash, or deletes them.")
    static let sideEffect = SideEffect.destructive
    static let sideEffectParameters: Set<String> = ["permanently"]
    static let machineAccess = [
      MachineAccess(.trashesFiles, parameter: "files"), MachineAccess(.deletesFiles, parameter: "files"),
    ]
    static func machineAccess(for values: [String: FlowValue]) -> [MachineAccess] {
      values["permanently"] == .boolean(true) ? [machineAccess[1]] : [machineAccess[0]]
    }
    @Parameter(title: "Files", primary: true) var files: [String]
    @Parameter(title: "Permanently", default: false) var permanently: Bool
    static var parameterSummary: some ParameterSummary { Summary("Trash \(\.$files)") { \.$permanently } }
    func perform() async throws -> some IntentResult { .result() }
  }

  struct PingThing: AppIntent {
    static let title: LocalizedStringResource = "Ping Thing"
    static let description = IntentDescription("Shows a notification.")
    static let sideEffect = SideEffect.changes
    static let machineAccess = [MachineAccess(.showsNotifications)]
    @Parameter(title: "Text", primary: true) var text: String
    static var parameterSummary: some ParameterSummary { Summary("Ping \(\.$text)") }
    func perform() async throws -> some IntentResult { .result() }
  }

  let machineRegistry = IntentRegistry(catalogs: [BasicsCatalog.self, RaindropCatalog.self, MachineCatalog.self])

  func outline(_ yaml: String) throws -> Outline {
    let check = WorkflowCheck(registry: machineRegistry, files: MemoryFiles(files: ["test.yml": yaml]))
    let (workflow, diagnostics) = check.check(path: "test.yml")
    #expect(!diagnostics.hasErrors)
    return OutlineBuilder(registry: machineRegistry, loader: check)
      .outline(of: try #require(workflow), provenance: Provenance(), now: Date(timeIntervalSince1970: 1_795_000_000))
  }

  static let workflow = """
    flow: 1
    name: Tidy
    input:
      where: text
    steps:
      - read-thing: ~/notes.md
      - read-thing: ${input.where}
      - run-thing:
          script: |
            set -eu
            find ~/Downloads -name '*.tmp'   -mtime +7
      - run-thing:
          command: [git, -C, "~/my src", status]
      - run-thing:
          script: ${previous}
      - trash-thing: [~/Downloads/a.tmp, ~/Downloads/b.tmp]
      - trash-thing:
          files: [~/old]
          permanently: ${input.where}
      - ping-thing: done
      - read-thing: ~/notes.md
    """

  @Test func stepsSayWhatTheyDoToTheMachineWithWhatTheyWriteOut() throws {
    let machine = try outline(Self.workflow).capabilities.machine
    let summary = machine.map { "\($0.kind) \($0.subject ?? "-") \($0.computed) \($0.steps.map(\.position))" }
    #expect(
      summary == [
        #"reads-files ~/notes.md false ["1", "9"]"#,
        #"reads-files - true ["2"]"#,
        "runs-commands set -eu\nfind ~/Downloads -name '*.tmp'   -mtime +7\n false [\"3\"]",
        #"runs-commands git -C '~/my src' status false ["4"]"#,
        #"runs-commands - true ["5"]"#,
        #"trashes-files ~/Downloads/a.tmp, ~/Downloads/b.tmp false ["6"]"#,
        // Whether it deletes for good is computed: it may do either.
        #"trashes-files ~/old false ["7"]"#,
        #"deletes-files ~/old false ["7"]"#,
        #"shows-notifications - false ["8"]"#,
      ])
  }

  @Test func theCardShowsScriptsInFullAndCommandsAndDeletionsInRed() throws {
    let lines = CapabilityLines.lines(try outline(Self.workflow).capabilities, shared: true)
    let red = lines.filter { $0.tone == .alarm }.map { $0.text.description }
    #expect(red.contains { $0.hasPrefix("runs this command in run-thing (step 3)") })
    #expect(red.contains { $0.hasPrefix("may run any command: computed at run time in run-thing (step 5)") })
    #expect(red.contains { $0.hasPrefix("moves files to the Trash: ~/Downloads/a.tmp, ~/Downloads/b.tmp (step 6)") })
    #expect(red.contains { $0.hasPrefix("deletes files permanently: ~/old (step 7)") })
    let script = try #require(lines.first { $0.text.description.hasPrefix("runs this command in run-thing (step 3)") })
    #expect(script.verbatim == ["set -eu", "find ~/Downloads -name '*.tmp'   -mtime +7"])
    // A step that acts on the machine is said once, by what it does there.
    #expect(!lines.contains { $0.text.description.hasPrefix("changes:") })
  }

  @Test func theCardGolden() throws {
    let card = PermissionCard(width: 80).render(try outline(Self.workflow), source: "tidy.yml")
    assertGolden(card, named: "card-machine.txt")
  }
}
