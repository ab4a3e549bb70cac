import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowRuntime
import FoundationEssentials
import Synchronization

/// Records one run in run history as it happens: a ``RunObserver`` the command line composes with its
/// reporter, so the interpreter knows nothing of history.
///
/// Making one writes the run's row (before the first step). Step events only update the trace in
/// memory, at the cost of a dictionary lookup per step; the trace is written when the run ends, before
/// every question to the person (so a run killed at a prompt still shows what it did), and whenever
/// ``flush()`` is called (`flow` does each second while the run goes on). If history cannot be written
/// (a full disk, a lock held past the busy timeout), the run goes on: `warn` hears of it once, and
/// nothing more is written.
public final class HistoryRecorder: RunObserver, Sendable {
  public let start: RunStart
  private let history: RunHistory
  private let policy: HistoryPolicy
  private let clock: any FlowClock
  private let warn: @Sendable (String) -> Void
  private let trace = Mutex(TraceBuilder())
  /// Held while writing, so that writes happen one at a time and in order.
  private let writer: Mutex<Writer>

  private struct Writer {
    var redact: Redactor
    var broken = false
    var finished = false
  }

  /// The longest output summary kept, in characters.
  public static let summaryLimit = 80

  /// Writes the row of a run that is starting.
  public init(
    history: RunHistory, start: RunStart, policy: HistoryPolicy, clock: any FlowClock, redact: Redactor,
    warn: @escaping @Sendable (String) -> Void
  ) throws(HistoryError) {
    self.history = history
    self.start = start
    self.policy = policy
    self.clock = clock
    self.warn = warn
    writer = Mutex(Writer(redact: redact))
    try history.begin(start)
  }

  /// Masks these too from now on (the values of `secret: true` inputs, known once inputs are resolved).
  public func addSecrets(_ redactor: Redactor) {
    writer.withLock { $0.redact = $0.redact.adding(redactor) }
  }

  // MARK: - RunObserver

  public var recordsSteps: Bool { true }

  public func record(_ event: RunEvent) {
    switch event {
    case .started(let step): started(step)
    case .finished(let record): finished(record)
    case .runFailed(let error): failed(error)
    case .dialog, .loopProgress, .progress, .progressEnded: break
    }
  }

  /// `reporter` with this recorder beside it: the run's one observer. A ran step's record reaches the
  /// reporter only if it asked for those (``RunObserver/recordsSteps``).
  public func observing(_ reporter: any RunObserver) -> any RunObserver {
    RecordingObserver(recorder: self, reporter: reporter, reporterRecordsSteps: reporter.recordsSteps)
  }

  fileprivate func started(_ step: StepInfo) {
    let now = clock.now
    trace.withLock { $0.started(step, at: now) }
  }

  fileprivate func finished(_ record: StepRecord) {
    let now = clock.now
    // Only the parts the trace keeps go into the lock, so the record is not copied once more.
    // By position, not id: the passes of a loop add up in one entry.
    let (position, action, status, output) = (record.position, record.action, record.status, record.value)
    let detail = status == .failed ? record.error : status == .dryRun ? record.summary : nil
    trace.withLock { $0.finished(position, action: action, status: status, output: output, detail: detail, at: now) }
  }

  /// The run failed; its `on-failure:` steps follow, recorded in the same trace (`on-failure.1`…).
  fileprivate func failed(_ error: RunError) {
    let now = clock.now
    let status: StepTrace.Status = error.kind == .needsInput ? .needsInput : .failed
    trace.withLock { $0.failed(as: status, at: now) }
  }

  // MARK: - Writing

  /// Writes the trace entries changed since the last write, and the steps going on with their time so far.
  /// False once nothing more will be written (the run ended, or history could not be written): a caller
  /// flushing periodically stops then.
  @discardableResult
  public func flush() -> Bool {
    writer.withLock { writer in
      guard !writer.broken, !writer.finished else { return false }
      let now = clock.now
      let changed = trace.withLock { $0.takeChanged(openAt: now) }
      do {
        try history.write(
          steps: changed.map { ($0.seq, Self.masked($0.trace, $0.output, writer.redact)) }, of: start.id)
        return true
      } catch {
        broke(&writer, error)
        return false
      }
    }
  }

  /// A prompter that writes the trace before each question, for the time a person takes to answer.
  public func flushingBeforeQuestions(_ prompter: any Prompter) -> any Prompter {
    FlushingPrompter(base: prompter, recorder: self)
  }

  /// Ends the run's row: status, exit code, the problems that ended it and the step it ended in, the
  /// rest of the trace; then prunes history by the policy. Only the first call counts.
  public func finish(_ status: RunStatus, exitCode: Int32, diagnostics: Diagnostics, workingDirectory: String) {
    let now = clock.now
    writer.withLock { writer in
      guard !writer.finished else { return }
      writer.finished = true
      let stepStatus: StepTrace.Status =
        switch status {
        case .succeeded: .ran
        case .cancelled: .cancelled
        case .needsInput: .needsInput
        default: .failed
        }
      let (innermost, changed) = trace.withLock { ($0.end(as: stepStatus, at: now), $0.takeChanged()) }
      guard !writer.broken else { return }
      let redact = writer.redact
      let end = RunEnd(
        ended: now, status: status, exitCode: exitCode,
        diagnostics: diagnostics.sorted().map {
          RecordedDiagnostic($0, workingDirectory: workingDirectory, redact: redact)
        },
        failedStep: status == .succeeded ? nil : innermost)
      do {
        try history.finish(
          start.id, end, steps: changed.map { ($0.seq, Self.masked($0.trace, $0.output, redact)) },
          workflowKey: start.workflowKey, policy: policy)
      } catch {
        broke(&writer, error)
      }
    }
  }

  private func broke(_ writer: inout Writer, _ error: any Error) {
    writer.broken = true
    warn("run history is not being recorded: \(error)")
  }

  /// A trace entry as stored: the output summarised, secrets masked everywhere.
  static func masked(_ trace: StepTrace, _ output: FlowValue?, _ redact: Redactor) -> StepTrace {
    var trace = trace
    if let output {
      trace.summary = summary(of: output, redact)
    } else {
      trace.summary = trace.summary.map { redact.excerpt($0, limit: summaryLimit) }
    }
    trace.error = trace.error.map { redact($0) }
    return trace
  }

  /// A value in a few words, masked: text quoted, a list or dictionary counted, an entity by type and
  /// title.
  static func summary(of value: FlowValue, _ redact: Redactor) -> String? {
    switch value {
    case .nothing: nil
    // Cut before quoting, so that a megabyte of text is not copied to keep its first words.
    case .text(let text): "'" + redact.excerpt(text, limit: summaryLimit - 2) + "'"
    default: redact.excerpt(value.quoted, limit: summaryLimit)
    }
  }
}

/// The reporter and the recorder as one observer. Events are looked at once, here, rather than by a
/// general pair of observers and then by each: this runs for every step.
private struct RecordingObserver: RunObserver {
  let recorder: HistoryRecorder
  let reporter: any RunObserver
  let reporterRecordsSteps: Bool

  var recordsSteps: Bool { true }

  func record(_ event: RunEvent) {
    switch event {
    case .started(let step):
      recorder.started(step)
      reporter.record(event)
    case .finished(let record):
      recorder.finished(record)
      if reporterRecordsSteps || record.status != .ran || record.warning != nil { reporter.record(event) }
    case .runFailed(let error):
      recorder.failed(error)
      reporter.record(event)
    case .dialog, .loopProgress, .progress, .progressEnded:
      reporter.record(event)
    }
  }
}

/// Writes a run's trace before handing a question to the person.
private struct FlushingPrompter: Prompter {
  let base: any Prompter
  let recorder: HistoryRecorder

  func requestValue(_ request: ValueRequest) async throws -> FlowValue {
    recorder.flush()
    return try await base.requestValue(request)
  }

  func requestChoice(_ request: ChoiceRequest) async throws -> [Int] {
    recorder.flush()
    return try await base.requestChoice(request)
  }

  func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    recorder.flush()
    return try await base.requestConfirmation(request)
  }
}
