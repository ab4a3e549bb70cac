import Foundation
import Synchronization
import Testing

/// A reference tool the tests compare flow with (`systemd-analyze`, `python3` with croniter,
/// `kubernetes-validate`), run once with everything it should look at.
///
/// A missing tool fails the test with the way to install it rather than skipping it: `.ci/run`
/// installs them all, so a skip would only hide a broken CI.
public struct ReferenceTool: Sendable {
  public let name: String
  /// How to get it, for the failure message.
  public let install: String

  public init(_ name: String, install: String) {
    self.name = name
    self.install = install
  }

  /// The tool's path on `PATH`, or a recorded issue.
  public func path(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let found = path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    if found == nil { Issue.record("'\(name)' is not installed: \(install)", sourceLocation: sourceLocation) }
    return found
  }

  /// Runs the tool with `arguments`, feeding `input` on standard input; its status and both streams.
  public func run(
    _ arguments: [String], input: String? = nil, environment: [String: String]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (status: Int32, output: String, error: String)? {
    guard let executable = path(sourceLocation: sourceLocation) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Standard error is drained on another thread so that neither pipe can fill and stall the tool.
    let errorData = Mutex(Data())
    let drained = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let data = stderr.fileHandleForReading.readDataToEndOfFile()
      errorData.withLock { $0 = data }
      drained.signal()
    }
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    drained.wait()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: output, as: UTF8.self),
      String(decoding: errorData.withLock { $0 }, as: UTF8.self)
    )
  }
}
