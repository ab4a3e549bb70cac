import FlowIntents
import FlowRuntime
import Foundation
import Testing

@testable import FlowHistory
@testable import FlowLibrary

/// Step events become one trace entry per step of the file, in the order steps first started.
struct TraceBuilderTests {
  /// Feeds events on a clock that moves a quarter of a second per event (exact in binary).
  struct Feed {
    var builder = TraceBuilder()
    var time = Date(timeIntervalSince1970: 1_000)

    mutating func start(_ position: String, _ action: String) {
      time += 0.25
      builder.started(StepInfo(position: position, label: action), at: time)
    }

    mutating func finish(
      _ position: String, _ action: String, _ status: StepRecord.Status = .ran, value: FlowValue? = nil,
      error: String? = nil
    ) {
      time += 0.25
      builder.finished(position, action: action, status: status, output: value, detail: error, at: time)
    }

    mutating func entries() -> [String] {
      builder.entries.map { entry in
        "\(entry.position) \(entry.action) \(entry.status.rawValue) ran=\(entry.ran) skipped=\(entry.skipped) "
          + "failed=\(entry.failed) \(entry.microseconds)µs"
      }
    }
  }

  @Test func loopPassesAreOneEntryEach() {
    var feed = Feed()
    feed.start("1", "repeat")
    for pass in 1...3 {
      feed.start("1.1", "set")
      feed.finish("1.1", "set", value: .number(Double(pass)))
      if pass == 2 {
        feed.finish("1.2", "show", .skipped)
      } else {
        feed.start("1.2", "show")
        feed.finish("1.2", "show")
      }
    }
    feed.finish("1", "repeat")
    #expect(
      feed.entries() == [
        "1 repeat ran ran=1 skipped=0 failed=0 3000000µs",
        "1.1 set ran ran=3 skipped=0 failed=0 750000µs",
        "1.2 show ran ran=2 skipped=1 failed=0 500000µs",
      ])
    let changed = feed.builder.takeChanged()
    #expect(changed.map(\.seq) == [0, 1, 2])
    #expect(changed[1].output == .number(3))
    #expect(feed.builder.takeChanged().isEmpty)
  }

  /// A nested workflow numbers its steps from 1 again; they go under the `run-workflow` step.
  @Test func nestedWorkflowStepsSitUnderTheirStep() {
    var feed = Feed()
    feed.start("1", "show")
    feed.finish("1", "show")
    feed.start("2", "run-workflow")
    feed.start("1", "if")
    feed.start("1.1", "show")
    feed.finish("1.1", "show")
    feed.finish("1", "if")
    feed.finish("2", "text", .skipped)
    feed.finish("2", "run-workflow")
    feed.start("3", "show")
    feed.finish("3", "show")
    #expect(feed.builder.entries.map(\.position) == ["1", "2", "2.1", "2.1.1", "2.2", "3"])
    #expect(feed.builder.entries.map(\.action) == ["show", "run-workflow", "if", "show", "text", "show"])
  }

  /// `stop` inside a block of a nested workflow leaves the block unfinished; it is closed, and a block
  /// of the same position in the parent is not mistaken for it.
  @Test func blocksLeftByStopAreClosed() {
    var feed = Feed()
    feed.start("2", "run-workflow")
    feed.start("2", "if")
    feed.start("2.1", "stop")
    feed.finish("2.1", "stop")
    feed.finish("2", "run-workflow")
    feed.start("3", "show")
    feed.finish("3", "show")
    #expect(feed.builder.entries.map(\.position) == ["2", "2.2", "2.2.1", "3"])
    #expect(feed.builder.entries.map(\.status) == [.ran, .ran, .ran, .ran])
  }

  /// The run failed in step 2.1, then ran `on-failure:`: the failing steps end failed before those steps
  /// start (not closed as ran by them), and the run's failing step stays 2.1 whatever happens after.
  @Test func onFailureStepsFollowTheFailedStep() {
    var feed = Feed()
    feed.start("1", "show")
    feed.finish("1", "show")
    feed.start("2", "if")
    feed.start("2.1", "get-url")
    feed.builder.failed(as: .failed, at: feed.time + 0.25)
    feed.time += 0.25
    feed.start("on-failure.1", "show")
    feed.finish("on-failure.1", "show")
    feed.start("on-failure.2", "calculate")
    let failed = feed.builder.end(as: .failed, at: feed.time + 0.25)
    #expect(failed?.position == "2.1")
    #expect(failed?.action == "get-url")
    #expect(
      feed.entries() == [
        "1 show ran ran=1 skipped=0 failed=0 250000µs",
        "2 if failed ran=0 skipped=0 failed=1 500000µs",
        "2.1 get-url failed ran=0 skipped=0 failed=1 250000µs",
        "on-failure.1 show ran ran=1 skipped=0 failed=0 250000µs",
        "on-failure.2 calculate failed ran=0 skipped=0 failed=1 250000µs",
      ])
  }

  @Test func theRunEndsInTheInnermostOpenStep() {
    var feed = Feed()
    feed.start("1", "for-each")
    feed.start("1.1", "get-url")
    feed.finish("1.1", "get-url", .failed, error: "no answer")
    feed.start("1.1", "get-url")
    let innermost = feed.builder.end(as: .failed, at: feed.time + 1.25)
    #expect(innermost?.position == "1.1")
    #expect(innermost?.action == "get-url")
    #expect(
      feed.entries() == [
        "1 for-each failed ran=0 skipped=0 failed=1 2000000µs",
        "1.1 get-url failed ran=0 skipped=0 failed=2 1500000µs",
      ])
    #expect(feed.builder.entries[1].error == "no answer")
  }

  /// What is written while a run goes on: the step in progress says running.
  @Test func openStepsAreRunningUntilTheyFinish() {
    var feed = Feed()
    feed.start("1", "show")
    feed.finish("1", "show")
    feed.start("2", "ask")
    #expect(feed.builder.takeChanged().map(\.trace.status) == [.ran, .running])
  }
}
