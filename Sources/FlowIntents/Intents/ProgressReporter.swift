/// How far a running action has got, as it says so itself (App Intents' `ProgressReportingIntent`):
/// units done, of a total when it knows one, and what it is doing now. An MCP tool's
/// `notifications/progress` carries exactly these.
public struct ActionProgress: Sendable, Hashable {
  public var completed: Double
  /// Nil when the action does not know how much there is.
  public var total: Double?
  public var message: String?

  public init(completed: Double, total: Double? = nil, message: String? = nil) {
    self.completed = completed
    self.total = total
    self.message = message
  }
}

/// Where a running action reports its progress: the run hands one to the steps whose actions report
/// (``IntentDescriptor/reportsProgress``) in their ``IntentContext``, and it reaches the run's observers
/// as an event of that step, so the command line draws it as it draws a loop's bar.
public struct ProgressReporter: Sendable {
  private let sink: @Sendable (ActionProgress) -> Void

  public init(_ sink: @escaping @Sendable (ActionProgress) -> Void) { self.sink = sink }

  public func report(_ progress: ActionProgress) { sink(progress) }
}

extension IntentContext {
  /// Reports the running action's progress; nothing happens when nobody listens.
  public func reportProgress(_ progress: ActionProgress) { self.progress?.report(progress) }
}
