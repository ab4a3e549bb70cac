import Foundation
import Synchronization

@testable import FlowScheduler

/// A ``FileTriggerWatcher`` on a real inotify descriptor, read by a real ``RealtimeClock``, over a
/// temporary folder: the tests write files and wait in the clock's `poll` until the events they expect
/// have come, with a generous deadline and no sleeps. What the watcher reports also rings the clock, so
/// that the wait returns as soon as anything arrives.
final class FileTriggerHarness: Sendable {
  /// What the watcher reported.
  final class Found: Sendable {
    let value = Mutex<(events: [FileEvent], problems: [WatchProblem])>(([], []))
  }

  let root: String
  let clock: RealtimeClock
  let watcher: FileTriggerWatcher
  private let found = Found()

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("flow-files-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let clock = try RealtimeClock()
    self.clock = clock
    let found = self.found
    watcher = try FileTriggerWatcher(
      clock: clock,
      report: { events in
        found.value.withLock { $0.events += events }
        clock.post(.filesChanged)
      },
      problem: { problem in
        found.value.withLock { $0.problems.append(problem) }
        clock.post(.filesChanged)
      })
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  var events: [FileEvent] { found.value.withLock { $0.events } }
  var problems: [WatchProblem] { found.value.withLock { $0.problems } }

  /// `name` under the temporary folder.
  func path(_ name: String) -> String { root + "/" + name }

  /// Waits in the clock until at least `count` events have been reported (or 20 s have passed), then
  /// reads what else is waiting, and returns every event so far.
  @discardableResult
  func events(_ count: Int) -> [FileEvent] {
    let deadline = Date().addingTimeInterval(20)
    while events.count < count && Date() < deadline { _ = clock.wait(until: deadline) }
    watcher.drain()
    return events
  }

  /// Waits likewise until at least `count` problems have been said.
  @discardableResult
  func problems(_ count: Int) -> [WatchProblem] {
    let deadline = Date().addingTimeInterval(20)
    while problems.count < count && Date() < deadline { _ = clock.wait(until: deadline) }
    return problems
  }

  /// The events so far as "kind name", the path relative to the temporary folder.
  func said(_ events: [FileEvent]) -> [String] {
    events.map { "\($0.kind.rawValue) \($0.path.dropFirst(root.count + 1))" }
  }

  /// Writes `text` to `name` with open, write and close (truncating, or appending), as a program would.
  func write(_ name: String, _ text: String = "x", append: Bool = false) {
    let descriptor = open(name, append: append)
    put(descriptor, text)
    close(descriptor)
  }

  /// Opens `name` for writing, creating it or appending to it.
  func open(_ name: String, append: Bool = false) -> Int32 {
    Glibc.open(path(name), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
  }

  func put(_ descriptor: Int32, _ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
  }

  func makeFolder(_ name: String) {
    mkdir(path(name), 0o755)
  }

  func rename(_ from: String, _ to: String) {
    _ = Glibc.rename(path(from), path(to))
  }
}
