/// Whether runs are recorded, and how many are kept (`history:` in `config.yml`).
///
/// A run is pruned when it is older than ``keepDays`` or when its workflow has more than ``keepRuns``
/// newer runs, whichever comes first. Pruning happens as each run ends, for that run's workflow and for
/// age.
public struct HistoryPolicy: Sendable, Hashable {
  /// `history: off` turns recording off (`flow run --no-history` does for one run).
  public var enabled: Bool
  /// Runs kept per workflow (`keep-runs`, default 1,000).
  public var keepRuns: Int
  /// Days a run is kept (`keep-days`, default 90).
  public var keepDays: Int

  public init(enabled: Bool = true, keepRuns: Int = 1000, keepDays: Int = 90) {
    self.enabled = enabled
    self.keepRuns = keepRuns
    self.keepDays = keepDays
  }
}
