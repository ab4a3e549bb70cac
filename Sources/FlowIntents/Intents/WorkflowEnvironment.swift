/// The environment variables a workflow may read: those its `env:` lists, with the values the run was
/// given. The run provides it to an intent that declares ``AppIntent/environmentNameParameters``
/// (`get-env`), so an action reads exactly what `${env.NAME}` reads.
public struct WorkflowEnvironment: Sendable, Hashable {
  /// The names under `env:`, in the order written.
  public var allowed: [String]
  /// The values of those that are set.
  public var values: [String: String]

  public init(allowed: [String], values: [String: String]) {
    self.allowed = allowed
    self.values = values
  }
}
