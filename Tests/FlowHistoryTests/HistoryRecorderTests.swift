import FlowDiagnostics
import FlowHistory
import FlowIntents
import FlowLibrary
import FlowRuntime
import FlowTestSupport
import Foundation
import Synchronization
import Testing

/// The recorder as the interpreter drives it: the row first, the trace at questions and at the end.
struct HistoryRecorderTests {
  static func recorder(_ history: RunHistory, redact: Redactor = .none, clock: ManualClock = ManualClock())
    throws -> HistoryRecorder
  {
    try HistoryRecorder(
      history: history,
      start: RunStart(
        id: "run-1", workflow: "W", path: "/w/w.yml", contentHash: nil, trigger: .scheduled, started: clock.now,
        process: FakeProcesses().current()),
      policy: HistoryPolicy(), clock: clock, redact: redact, warn: { Issue.record("warned: \($0)") })
  }

  /// Answers every question after checking what history already holds.
  struct CheckingPrompter: Prompter {
    let check: @Sendable () -> Void
    func requestValue(_ request: ValueRequest) async throws -> FlowValue {
      check()
      return .text("answer")
    }
    func requestChoice(_ request: ChoiceRequest) async throws -> [Int] { [0] }
    func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool { true }
  }

  @Test func theTraceIsWrittenBeforeEachQuestion() async throws {
    let processes = FakeProcesses()
    processes.start(100)
    let history = try RunHistory(file: try historyFile(), processes: processes)
    let clock = ManualClock()
    let recorder = try Self.recorder(history, clock: clock)
    recorder.record(.started(StepInfo(position: "1", label: "show")))
    recorder.record(.finished(StepRecord(step: "1", action: "show", status: .ran, value: .text("hello"))))
    recorder.record(.started(StepInfo(position: "2", label: "ask")))
    // The step going on is written with the time it has taken so far: a run killed now shows it.
    try await clock.sleep(for: .seconds(3))
    let seen = Mutex<[String]>([])
    let prompter = recorder.flushingBeforeQuestions(
      CheckingPrompter {
        let steps = (try? history.runs(idPrefix: "run-1").first?.steps) ?? []
        seen.withLock {
          $0 = steps.map {
            "\($0.position) \($0.action) \($0.status.rawValue) \($0.microseconds) \($0.summary ?? "")"
          }
        }
      })
    _ = try await prompter.requestValue(
      ValueRequest(kind: .question, origin: PromptOrigin(intentID: "ask"), dialog: "?", valueType: .text))
    #expect(seen.withLock { $0 } == ["1 show ran 0 'hello'", "2 ask running 3000000 "])
    recorder.finish(.succeeded, exitCode: 0, diagnostics: Diagnostics(), workingDirectory: "/w")
    let run = try #require(try history.runs(idPrefix: "run-1").first)
    #expect(run.status == .succeeded)
    #expect(run.trigger == "scheduled")
    // The run succeeded, so the step it was in when it ended ran.
    #expect(run.steps.map(\.status) == [.ran, .ran])
  }

  /// A long step: `flush` writes what finished before it while it runs, without a question or an end, and
  /// says to stop once the run has ended (`flow`'s service thread calls it each second: ServiceThread).
  @Test func flushWritesWhatFinishedWhileARunGoesOn() throws {
    let history = try RunHistory(file: try historyFile(), processes: FakeProcesses())
    let recorder = try Self.recorder(history)
    recorder.record(.started(StepInfo(position: "1", label: "show")))
    recorder.record(.finished(StepRecord(step: "1", action: "show", status: .ran, value: .text("before"))))
    recorder.record(.started(StepInfo(position: "2", label: "wait")))
    #expect(try history.runs(idPrefix: "run-1").first?.steps.isEmpty == true)
    #expect(recorder.flush())
    #expect(try history.runs(idPrefix: "run-1").first?.steps.map(\.status) == [.ran, .running])
    recorder.finish(.succeeded, exitCode: 0, diagnostics: Diagnostics(), workingDirectory: "/w")
    #expect(!recorder.flush())
  }

  /// Secrets given later (inputs resolved after the row was written) are masked from then on; the
  /// bytes of the database and its WAL never hold them.
  @Test func secretsNeverReachTheFile() throws {
    let file = try historyFile()
    let history = try RunHistory(file: file, processes: FakeProcesses())
    let recorder = try Self.recorder(history, redact: Redactor(secrets: ["tok-3141592653"]))
    recorder.addSecrets(Redactor(secrets: ["p4ssw0rd-xyzzy"]))
    recorder.record(.started(StepInfo(position: "1", label: "text")))
    recorder.record(
      .finished(StepRecord(step: "1", action: "text", status: .ran, value: .text("Bearer tok-3141592653"))))
    recorder.record(.started(StepInfo(position: "2", label: "get-url")))
    recorder.record(
      .finished(
        StepRecord(step: "2", action: "get-url", status: .failed, error: "refused p4ssw0rd-xyzzy")))
    recorder.record(.started(StepInfo(position: "3", label: "show")))
    let source = SourceFile(path: "/w/w.yml", text: "steps:\n  - show: p4ssw0rd-xyzzy\n")
    let span = SourceSpan(
      file: source, start: SourceLocation(line: 2, column: 11), end: SourceLocation(line: 2, column: 25))
    recorder.finish(
      .failed, exitCode: 1,
      diagnostics: Diagnostics([
        Diagnostic(.error, "step-failed", "step 3 'show': p4ssw0rd-xyzzy and tok-3141592653", at: span)
          .help("p4ssw0rd-xyzzy").note("tok-3141592653")
      ]), workingDirectory: "/w")
    let pending = FileManager.default.contents(atPath: file.path + "-pending") ?? Data()
    #expect(!pending.isEmpty)
    for secret in ["tok-3141592653", "p4ssw0rd-xyzzy"] {
      #expect(pending.range(of: Data(secret.utf8)) == nil, "\(secret) in history.sqlite-pending")
    }
    let run = try #require(try history.runs(idPrefix: "run").first)
    #expect(run.steps.map(\.summary) == ["'Bearer ***'", nil, nil])
    #expect(run.steps[1].error == "refused ***")
    #expect(run.failedStep?.message == "step 3 'show': *** and ***")
    for suffix in ["", "-wal", "-shm"] {
      let bytes = FileManager.default.contents(atPath: file.path + suffix) ?? Data()
      for secret in ["tok-3141592653", "p4ssw0rd-xyzzy"] {
        #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in history.sqlite\(suffix)")
      }
    }
  }
}
