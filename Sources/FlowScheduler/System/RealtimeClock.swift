import CLinux
import FoundationEssentials
import Glibc
import Synchronization

/// The scheduler's clock on Linux, and the one place its process waits: a `poll(2)` with no timeout on
/// a `timerfd` on CLOCK_REALTIME armed at the absolute time of the earliest fire, an `eventfd` that
/// ``post(_:)`` rings, and the descriptors the other effects add (``watch(_:readable:)``: signals,
/// inotify, children ending). Between fires nothing in the process runs at all.
///
/// The timer is armed with `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`. Absolute on the wall clock, it
/// expires when the wall clock reaches the fire time, however long the machine slept meanwhile (a
/// relative or monotonic timer would fire late by the time asleep). And when the wall clock is set
/// (`date -s`, NTP stepping it, the kernel after a resume), reading it fails with ECANCELED, which
/// becomes ``SchedulerEvent/clockChanged``: the fires are looked at again against the new time.
///
/// No Dispatch and no Swift concurrency: their thread pools keep a monitor that wakes the process every
/// second (libdispatch's workqueue monitor), which `flow schedule` avoids by running on the main thread
/// of a process that never starts them (`FlowCommand.start`).
public final class RealtimeClock: SchedulerClock, Sendable {
  private let timer: Int32
  private let doorbell: Int32
  private let inbox = Mutex<[SchedulerEvent]>([])
  /// Descriptors waited on beside the timer, with what to do when each can be read.
  private let sources = Mutex<[(descriptor: Int32, readable: @Sendable () -> Void)]>([])

  public init() throws(LaunchFailure) {
    timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    guard timer >= 0 else { throw LaunchFailure("cannot create a timer: \(String(cString: strerror(errno)))") }
    doorbell = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    guard doorbell >= 0 else {
      close(timer)
      throw LaunchFailure("cannot create an eventfd: \(String(cString: strerror(errno)))")
    }
  }

  deinit {
    close(timer)
    close(doorbell)
  }

  public var now: Date { Date() }

  /// Waits on `descriptor` too from now on: `readable` runs inside ``wait(until:)``, on the scheduler's
  /// thread, whenever it can be read, and must read what is there.
  public func watch(_ descriptor: Int32, readable: @escaping @Sendable () -> Void) {
    sources.withLock { $0.append((descriptor, readable)) }
  }

  /// Stops waiting on `descriptor`, before whoever owns it closes it.
  public func unwatch(_ descriptor: Int32) {
    sources.withLock { $0.removeAll { $0.descriptor == descriptor } }
  }

  public func post(_ event: SchedulerEvent) {
    inbox.withLock { $0.append(event) }
    var one: UInt64 = 1
    _ = write(doorbell, &one, MemoryLayout<UInt64>.size)
  }

  public func wait(until deadline: Date?) -> [SchedulerEvent] {
    arm(deadline)
    while true {
      let posted = takePosted()
      if !posted.isEmpty { return posted }
      let sources = self.sources.withLock { $0 }
      var descriptors = [timer, doorbell].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      descriptors += sources.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
      guard poll(&descriptors, nfds_t(descriptors.count), -1) > 0 else { continue }  // EINTR
      for (index, source) in sources.enumerated() where descriptors[index + 2].revents != 0 { source.readable() }
      if descriptors[1].revents != 0 {
        var count: UInt64 = 0
        _ = read(doorbell, &count, MemoryLayout<UInt64>.size)
      }
      if descriptors[0].revents != 0 {
        var expirations: UInt64 = 0
        let changed = read(timer, &expirations, MemoryLayout<UInt64>.size) < 0 && errno == ECANCELED
        return (changed ? [.clockChanged] : []) + takePosted()
      }
    }
  }

  private func takePosted() -> [SchedulerEvent] {
    inbox.withLock { inbox in
      defer { inbox.removeAll() }
      return inbox
    }
  }

  /// Arms the timer at `deadline` on the wall clock, or disarms it. A deadline already past expires at
  /// once.
  private func arm(_ deadline: Date?) {
    var value = itimerspec()
    if let deadline {
      let time = max(deadline.timeIntervalSince1970, 1)  // zero would disarm it: 1970 is as past as any time
      let seconds = time.rounded(.down)
      value.it_value = timespec(tv_sec: Int(seconds), tv_nsec: Int((time - seconds) * 1_000_000_000))
    }
    _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &value, nil)
  }
}
