/// Where the workflow whose step is running comes from: a shared file (exported, imported or embedded in
/// one) or the person's own. The interpreter provides it for a shared workflow; absent means the
/// person's own file. `run-shell` fences a shared file's steps by default.
public struct RunOrigin: Sendable, Hashable {
  public var shared: Bool

  public init(shared: Bool) { self.shared = shared }
}
