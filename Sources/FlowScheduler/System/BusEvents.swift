import FoundationEssentials
import Synchronization

/// ``MachineEventSources`` for the scheduler, made again when the sources wanted change: each set is
/// one pair of bus connections, waited on in the scheduler's poll, and nothing is connected for a kind
/// of trigger no workflow has. What happens is posted to the clock.
public final class BusEvents: MachineEventSource, Sendable {
  private let clock: RealtimeClock
  private let environment: [String: String]
  private let appID: String
  /// Installs the desktop entry the portal needs for `appID`, before hotkeys are bound.
  private let installEntry: @Sendable () -> Void
  private let current = Mutex<(sources: Set<MachineSource>, shortcuts: [HotkeyShortcut], watch: MachineEventSources?)>(
    ([], [], nil))

  public init(
    clock: RealtimeClock, environment: [String: String], appID: String, installEntry: @escaping @Sendable () -> Void
  ) {
    self.clock = clock
    self.environment = environment
    self.appID = appID
    self.installEntry = installEntry
  }

  public func arm(_ sources: Set<MachineSource>, shortcuts: [HotkeyShortcut]) {
    let clock = clock
    let watch: MachineEventSources? = current.withLock { current in
      if current.sources == sources, current.shortcuts == shortcuts { return current.watch }
      if let old = current.watch { clock.unwatch(old.descriptor) }
      current = (sources, shortcuts, nil)
      guard !sources.isEmpty else { return nil }
      if sources.contains(.hotkeys) { installEntry() }
      current.watch = try? MachineEventSources(
        sources, environment: environment, appID: appID, shortcuts: shortcuts,
        events: { clock.post(.machine($0)) }, reports: { clock.post(.source($0)) })
      current.watch?.watch(with: clock)
      return current.watch
    }
    watch?.arm()
  }

  public func holdSleep() { current.withLock { $0.watch }?.holdSleep() }
  public func releaseSleep() { current.withLock { $0.watch }?.releaseSleep() }
  public var sleepDelayLimit: Duration? { current.withLock { $0.watch }?.sleepDelayLimit }
}
