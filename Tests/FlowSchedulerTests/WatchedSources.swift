import FlowScheduler
import FlowTestSupport
import Foundation
import Synchronization
import Testing

/// ``MachineEventSources`` driven the way the scheduler's poll drives them, by the test itself: waiting
/// on its descriptor for what the test expects next, and reading when it can be read.
final class WatchedSources: Sendable {
  let sources: MachineEventSources
  private let inbox: Inbox

  final class Inbox: Sendable {
    let events = Mutex<[MachineEvent]>([])
    let reports = Mutex<[MachineSourceReport]>([])
  }

  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  init(
    _ set: Set<MachineSource>, environment: [String: String], appID: String? = nil,
    shortcuts: [HotkeyShortcut] = []
  ) throws {
    let inbox = Inbox()
    self.inbox = inbox
    sources = try MachineEventSources(
      set, environment: environment, appID: appID, shortcuts: shortcuts,
      events: { event in inbox.events.withLock { $0.append(event) } },
      reports: { report in inbox.reports.withLock { $0.append(report) } })
  }

  /// The next event, in order.
  func nextEvent(within limit: Duration = .seconds(60)) throws -> MachineEvent {
    let inbox = self.inbox
    try pump(until: { inbox.events.withLock { !$0.isEmpty } }, within: limit, "an event")
    return inbox.events.withLock { $0.removeFirst() }
  }

  /// The next report, in order.
  func nextReport(within limit: Duration = .seconds(60)) throws -> MachineSourceReport {
    let inbox = self.inbox
    try pump(until: { inbox.reports.withLock { !$0.isEmpty } }, within: limit, "a report")
    return inbox.reports.withLock { $0.removeFirst() }
  }

  /// What is waiting now, taken.
  var waitingEvents: [MachineEvent] {
    inbox.events.withLock { events in
      defer { events.removeAll() }
      return events
    }
  }

  /// Reads until `condition` holds.
  func pump(until condition: () -> Bool, within limit: Duration = .seconds(60), _ what: String) throws {
    let deadline = ContinuousClock.now + limit
    while !condition() {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { throw Timeout(description: "waited \(limit) for \(what)") }
      var descriptor = pollfd(fd: sources.descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, Int32(left.components.seconds * 1000 + 1))
      if descriptor.revents != 0 { sources.readable() }
    }
  }
}
