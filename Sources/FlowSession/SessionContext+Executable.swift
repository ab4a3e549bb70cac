import FoundationEssentials

extension SessionContext {
  /// The absolute path of the running `flow` binary, which units, the scheduler and launcher entries
  /// start runs with.
  public var executable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }
}
