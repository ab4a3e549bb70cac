import Foundation
import RaindropModel

/// The stand-in's mutable state: the rate window, the fault plan and the request counts.
actor StubState {
  let window: RateWindow
  private let clock: any BackendClock
  private var windowReset: Date?
  private var used = 0

  private var queued: [QueuedFault] = []
  private var randomRate = 0.0
  private var randomFaults: [StubFault] = []
  private var random = SplitMix64(seed: 0)

  private(set) var counts: [String: Int] = [:]
  private(set) var total = 0
  private(set) var rateLimited = 0
  private(set) var faultsInjected: [String: Int] = [:]
  private(set) var firstRequest: Date?
  private(set) var lastRequest: Date?

  init(window: RateWindow, clock: any BackendClock) {
    self.window = window
    self.clock = clock
  }

  /// Counts a request against the window. Returns the headers to send and whether the window was exhausted.
  func admit() -> (headers: [String: String], allowed: Bool) {
    let now = clock.now
    if firstRequest == nil { firstRequest = now }
    lastRequest = now
    if let reset = windowReset, now >= reset {
      windowReset = nil
    }
    if windowReset == nil {
      // The window starts with this request, on a whole second so that the reset second is exact.
      windowReset = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down) + Double(window.seconds))
      used = 0
    }
    let reset = windowReset ?? now
    let allowed = used < window.limit
    if allowed { used += 1 } else { rateLimited += 1 }
    let headers = [
      "x-ratelimit-limit": String(window.limit),
      "x-ratelimit-remaining": String(max(window.limit - used, 0)),
      "x-ratelimit-reset": String(Int(reset.timeIntervalSince1970)),
    ]
    return (headers, allowed)
  }

  /// Seconds until the window resets, rounded up, for `Retry-After`.
  func secondsToReset() -> Int {
    guard let reset = windowReset else { return 0 }
    return max(Int(reset.timeIntervalSince(clock.now).rounded(.up)), 0)
  }

  func count(_ endpoint: String) {
    counts[endpoint, default: 0] += 1
    total += 1
  }

  /// A planned fault, for any request or only for one endpoint's after `skip` of them pass.
  struct QueuedFault {
    var fault: StubFault
    var endpoint: String?
    var skip: Int
  }

  func nextFault(for endpoint: String?) -> StubFault? {
    if let index = queued.firstIndex(where: { $0.endpoint == nil || $0.endpoint == endpoint }) {
      if queued[index].skip > 0 {
        queued[index].skip -= 1
        return nil
      }
      return queued.remove(at: index).fault
    }
    guard randomRate > 0, !randomFaults.isEmpty else { return nil }
    let roll = Double(random.next() % 1_000_000) / 1_000_000
    guard roll < randomRate else { return nil }
    return randomFaults[Int(random.next() % UInt64(randomFaults.count))]
  }

  func noteFault(_ fault: StubFault) { faultsInjected[fault.description, default: 0] += 1 }

  func enqueue(_ fault: StubFault, times: Int, on endpoint: String? = nil, skipping: Int = 0) {
    for time in 0..<max(times, 0) {
      queued.append(QueuedFault(fault: fault, endpoint: endpoint, skip: time == 0 ? skipping : 0))
    }
  }

  func setRandom(rate: Double, faults: [StubFault], seed: UInt64) {
    randomRate = rate
    randomFaults = faults
    random = SplitMix64(seed: seed)
  }

  func clearFaults() {
    queued = []
    randomRate = 0
  }

  func resetCounts() {
    counts = [:]
    total = 0
    rateLimited = 0
    faultsInjected = [:]
    firstRequest = nil
    lastRequest = nil
  }
}
