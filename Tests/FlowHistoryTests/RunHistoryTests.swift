import FlowDiagnostics
import FlowSQLite
import Foundation
import Synchronization
import Testing

@testable import FlowHistory
@testable import FlowLibrary

/// A process table the test decides: which pids are alive on which boot.
final class FakeProcesses: ProcessInspector, Sendable {
  private let alive = Mutex<Set<Int32>>([])
  let boot: String

  init(boot: String = "boot-1") { self.boot = boot }

  func current() -> ProcessIdentity { ProcessIdentity(pid: 100, bootID: boot, startTime: 5) }
  func isRunning(_ process: ProcessIdentity) -> Bool {
    process.bootID == boot && alive.withLock { $0.contains(process.pid) }
  }
  func start(_ pid: Int32) { alive.withLock { _ = $0.insert(pid) } }
  func stop(_ pid: Int32) { alive.withLock { _ = $0.remove(pid) } }
}

func historyFile() throws -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
  return directory.appendingPathComponent("state/flow/history.sqlite")
}

struct RunHistoryTests {
  static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

  static func start(
    _ id: String, workflow: String = "Save", path: String? = "/w/save.yml", at offset: TimeInterval = 0,
    pid: Int32 = 100, boot: String = "boot-1"
  ) -> RunStart {
    RunStart(
      id: id, workflow: workflow, path: path, contentHash: "abc", trigger: .manual, started: epoch + offset,
      process: ProcessIdentity(pid: pid, bootID: boot, startTime: 5))
  }

  @Test func aRunIsWrittenAtItsStartAndCompletedAtItsEnd() throws {
    let processes = FakeProcesses()
    processes.start(100)
    let history = try RunHistory(file: try historyFile(), processes: processes)
    try history.begin(Self.start("run-1"))
    #expect(try history.runs(.init()).map(\.status) == [.running])
    let trace = StepTrace(position: "1", action: "show", status: .ran, ran: 1, microseconds: 1500, summary: "'hi'")
    try history.finish(
      "run-1", RunEnd(ended: Self.epoch + 2, status: .succeeded, exitCode: 0), steps: [(0, trace)],
      workflowKey: "/w/save.yml", policy: HistoryPolicy())
    let run = try #require(try history.runs(idPrefix: "run-1").first)
    #expect(run.status == .succeeded)
    #expect(run.duration == 2)
    #expect(run.exitCode == 0)
    #expect(run.steps == [trace])
    #expect(run.trigger == "manual")
  }

  /// The scheduler's question at every run's end, how long it took, is read from the pending entries
  /// as they are, without moving them into the database (a transaction and its fsyncs); a run whose
  /// entries were moved is found in the database.
  @Test func aRunsDurationIsReadWithoutMovingPendingEntries() throws {
    let file = try historyFile()
    let history = try RunHistory(file: file, processes: FakeProcesses())
    try history.begin(Self.start("run-1"))
    try history.finish(
      "run-1", RunEnd(ended: Self.epoch + 1.5, status: .succeeded, exitCode: 0), steps: [],
      workflowKey: "/w/save.yml", policy: HistoryPolicy())
    try history.begin(Self.start("run-2", at: 10))
    #expect(history.duration(ofRun: "run-1") == 1.5)
    #expect(history.duration(ofRun: "run-2") == nil)
    #expect(!FileManager.default.fileExists(atPath: file.path), "the database was not made")
    _ = try history.runs(.init())  // Moves them.
    #expect(try RunHistory(file: file, processes: FakeProcesses()).duration(ofRun: "run-1") == 1.5)
  }

  /// The files are created for their owner alone: runs say what a person did.
  @Test func theFilesArePrivate() throws {
    let file = try historyFile()
    let history = try RunHistory(file: file)
    let directory = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
    #expect(directory[.posixPermissions] as? Int == 0o700)
    try history.begin(Self.start("private"))
    _ = try history.runs(.init())
    for path in [file.path, file.path + "-pending", file.path + "-wal"] {
      #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600, "\(path)")
    }
  }

  /// A run only appends to the pending file; the database is opened, and the entries moved into it, by
  /// whatever reads history first, or by a run that ends when the pending file has grown large.
  @Test func runsWriteOnlyThePendingFile() throws {
    let file = try historyFile()
    let history = try RunHistory(file: file, processes: FakeProcesses())
    try history.record(
      Self.start("quiet"), RunEnd(ended: Self.epoch, status: .succeeded, exitCode: 0), policy: HistoryPolicy())
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let pending = try Data(contentsOf: URL(fileURLWithPath: file.path + "-pending"))
    #expect(pending.count > 0)
    // Another process (another RunHistory) reads it, and empties the pending file.
    #expect(try RunHistory(file: file).runs(.init()).map(\.id) == ["quiet"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: file.path + "-pending")).isEmpty)
    // A run that ends past the limit moves everything, its own entries too.
    let padding = String(repeating: "x", count: RunHistory.pendingLimit)
    try history.record(
      Self.start("large", workflow: padding), RunEnd(ended: Self.epoch, status: .succeeded, exitCode: 0),
      policy: HistoryPolicy())
    #expect(try Data(contentsOf: URL(fileURLWithPath: file.path + "-pending")).isEmpty)
    #expect(try RunHistory(file: file).runs(.init()).map(\.id) == ["large", "quiet"])
  }

  /// An entry no flow writes (here a run without an id, from a damaged file) is passed over; the rest
  /// reach the database, and later reads are not stopped by it.
  @Test func aDamagedEntryIsPassedOver() throws {
    let file = try historyFile()
    let history = try RunHistory(file: file, processes: FakeProcesses())
    var values = Array(repeating: SQLValue.integer(1), count: RunHistory.insertColumns)
    values[0] = .null
    try PendingRuns(path: file.path + "-pending").append([.began(values)])
    try history.record(
      Self.start("good"), RunEnd(ended: Self.epoch, status: .succeeded, exitCode: 0), policy: HistoryPolicy())
    #expect(try history.runs(.init()).map(\.id) == ["good"])
    #expect(try history.runs(.init()).map(\.id) == ["good"])
  }

  /// A run that goes on while history is read: its start reaches the database with one reader, its trace
  /// and end with the next.
  @Test func aRunReadInTheMiddleIsCompletedLater() throws {
    let file = try historyFile()
    let processes = FakeProcesses()
    processes.start(100)
    let history = try RunHistory(file: file, processes: processes)
    try history.begin(Self.start("long"))
    #expect(try RunHistory(file: file, processes: processes).runs(.init()).map(\.status) == [.running])
    let trace = StepTrace(position: "1", action: "show", status: .ran, ran: 1)
    try history.write(steps: [(0, trace)], of: "long")
    try history.finish(
      "long", RunEnd(ended: Self.epoch + 1, status: .succeeded, exitCode: 0), steps: [], workflowKey: "/w/save.yml",
      policy: HistoryPolicy())
    let run = try #require(try RunHistory(file: file, processes: processes).runs(idPrefix: "long").first)
    #expect(run.status == .succeeded)
    #expect(run.steps == [trace])
  }

  /// Decided when history is read: a running row whose process is gone, or from an earlier boot.
  @Test func deadProcessesAndEarlierBootsAreInterrupted() throws {
    let processes = FakeProcesses(boot: "boot-2")
    processes.start(7)
    processes.start(8)
    let history = try RunHistory(file: try historyFile(), processes: processes)
    _ = try history.begin(Self.start("alive", pid: 7, boot: "boot-2"))
    _ = try history.begin(Self.start("killed", at: 1, pid: 9, boot: "boot-2"))
    _ = try history.begin(Self.start("rebooted", at: 2, pid: 8, boot: "boot-1"))
    let statuses = Dictionary(uniqueKeysWithValues: try history.runs(.init()).map { ($0.id, $0.status) })
    #expect(statuses == ["alive": .running, "killed": .interrupted, "rebooted": .interrupted])
    // Fixed in the row: the process coming back (a reused pid) does not revive it.
    processes.start(9)
    #expect(try history.runs(idPrefix: "killed").first?.status == .interrupted)
    #expect(try history.runs(idPrefix: "killed").first?.ended == nil)
  }

  @Test func retentionKeepsTheNewestRunsPerWorkflow() throws {
    let history = try RunHistory(file: try historyFile(), processes: FakeProcesses())
    let policy = HistoryPolicy(keepRuns: 3, keepDays: 90)
    for index in 0..<5 {
      try history.record(
        Self.start("a\(index)", path: "/w/a.yml", at: Double(index)),
        RunEnd(ended: Self.epoch + Double(index), status: .succeeded, exitCode: 0), policy: policy)
      try history.record(
        Self.start("b\(index)", workflow: "B", path: "/w/b.yml", at: Double(index)),
        RunEnd(ended: Self.epoch + Double(index), status: .failed, exitCode: 1), policy: policy)
    }
    #expect(try history.runs(.init(path: "/w/a.yml")).map(\.id) == ["a4", "a3", "a2"])
    #expect(try history.runs(.init(workflow: "b")).map(\.id) == ["b4", "b3", "b2"])
  }

  @Test func retentionDropsRunsOlderThanTheDays() throws {
    let history = try RunHistory(file: try historyFile(), processes: FakeProcesses())
    let policy = HistoryPolicy(keepRuns: 1000, keepDays: 90)
    let day: TimeInterval = 86_400
    try history.record(
      Self.start("old", at: 0), RunEnd(ended: Self.epoch, status: .succeeded, exitCode: 0), policy: policy)
    try history.record(
      Self.start("recent", path: "/w/other.yml", at: 10 * day),
      RunEnd(ended: Self.epoch + 10 * day, status: .succeeded, exitCode: 0), policy: policy)
    #expect(try history.runs(.init()).count == 2)
    try history.record(
      Self.start("new", path: "/w/third.yml", at: 90 * day + 1),
      RunEnd(ended: Self.epoch + 90 * day + 1, status: .succeeded, exitCode: 0), policy: policy)
    #expect(try history.runs(.init()).map(\.id) == ["new", "recent"])
  }

  @Test func listingFiltersByWorkflowStatusAndLimit() throws {
    let history = try RunHistory(file: try historyFile(), processes: FakeProcesses())
    for (index, status) in [RunStatus.succeeded, .failed, .succeeded, .skipped].enumerated() {
      try history.record(
        Self.start("r\(index)", at: Double(index)),
        RunEnd(ended: Self.epoch + Double(index), status: status, exitCode: 0), policy: HistoryPolicy())
    }
    #expect(try history.runs(.init(status: .succeeded)).map(\.id) == ["r2", "r0"])
    #expect(try history.runs(.init(limit: 2)).map(\.id) == ["r3", "r2"])
    #expect(try history.runs(.init(workflow: "SAVE")).count == 4)
    #expect(try history.runs(.init(workflow: "other")).isEmpty)
    #expect(try history.workflowNames() == ["Save"])
  }

  @Test func idPrefixesFindOneOrSeveral() throws {
    let history = try RunHistory(file: try historyFile(), processes: FakeProcesses())
    for id in ["3f2a9c1e", "3f2b0000", "77aa0000"] {
      try history.record(
        Self.start(id), RunEnd(ended: Self.epoch, status: .succeeded, exitCode: 0), policy: HistoryPolicy())
    }
    #expect(try history.runs(idPrefix: "3f2").count == 2)
    #expect(try history.runs(idPrefix: "3f2a").map(\.id) == ["3f2a9c1e"])
    #expect(try history.runs(idPrefix: "x").isEmpty)
    // Wildcards are plain characters.
    #expect(try history.runs(idPrefix: "%").isEmpty)
  }

  /// The failing step and its diagnostic, with the source line as it was.
  @Test func diagnosticsKeepTheirSourceLine() throws {
    let history = try RunHistory(file: try historyFile(), processes: FakeProcesses())
    let file = SourceFile(path: "save.yml", text: "flow: 1\nsteps:\n  - get-url: https://x.test/?key=hunter2\n")
    let span = SourceSpan(
      file: file, start: SourceLocation(line: 3, column: 14), end: SourceLocation(line: 3, column: 40))
    let diagnostic = Diagnostic(.error, "step-failed", "step 1 'get-url': no answer from x.test", at: span)
      .help("check the address")
    let recorded = RecordedDiagnostic(diagnostic, workingDirectory: "/w", redact: Redactor(secrets: ["hunter2"]))
    try history.record(
      Self.start("f"),
      RunEnd(
        ended: Self.epoch, status: .failed, exitCode: 1, diagnostics: [recorded], failedStep: ("1", "get-url")),
      policy: HistoryPolicy())
    let run = try #require(try history.runs(idPrefix: "f").first)
    #expect(run.failedStep?.position == "1")
    #expect(run.failedStep?.action == "get-url")
    #expect(run.failedStep?.location == "/w/save.yml:3:14")
    #expect(run.failedStep?.message == "step 1 'get-url': no answer from x.test")
    #expect(
      DiagnosticRenderer().render(run.diagnostics[0].diagnostic()) == """
        /w/save.yml:3:14: error: step 1 'get-url': no answer from x.test
            3 |   - get-url: https://x.test/?key=***
              |              ^~~~~~~~~~~~~~~~~~~~~~~
              = help: check the address

        """)
  }
}

extension RunHistoryTests {
  /// A reader killed after its transaction committed and before it emptied the pending file (a `flow runs`
  /// killed mid-merge) leaves the same entries for the next reader: merging them again adds no run and no
  /// step twice (issue 28).
  @Test func mergingTheSameEntriesTwiceDuplicatesNothing() throws {
    let file = try historyFile()
    let history = try RunHistory(file: file, processes: FakeProcesses())
    let trace = StepTrace(position: "1", action: "show", status: .ran, ran: 1)
    func run(_ index: Int) throws {
      try history.begin(Self.start("run-\(index)", at: Double(index)))
      try history.finish(
        "run-\(index)", RunEnd(ended: Self.epoch + Double(index) + 1, status: .succeeded, exitCode: 0),
        steps: [(0, trace)], workflowKey: "/w/save.yml", policy: HistoryPolicy())
    }
    for index in 0..<3 { try run(index) }
    let pending = URL(fileURLWithPath: file.path + "-pending")
    let entries = try Data(contentsOf: pending)
    #expect(try RunHistory(file: file).runs(.init()).count == 3)
    // The state a kill between the commit and the truncation leaves, then a run that ends after it.
    try entries.write(to: pending)
    try run(3)
    let runs = try RunHistory(file: file).runs(.init())
    #expect(runs.map(\.id) == ["run-3", "run-2", "run-1", "run-0"])
    let database = try SQLiteConnection(path: file.path)
    #expect(try database.query("SELECT count(*) FROM runs").first?.first?.int == 4)
    #expect(try database.query("SELECT count(*) FROM steps").first?.first?.int == 4)
  }
}
