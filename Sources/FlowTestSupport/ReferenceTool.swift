import Foundation
import Synchronization
import Testing

/// A reference tool the tests compare flow with (`systemd-analyze`, `python3` with croniter,
/// `kubernetes-validate`, `check-jsonschema`), run once with everything it should look at.
///
/// Found first in the checkout's `.venv-tools/bin`, where `Scripts/setup.sh` installs the Python tools,
/// then on `PATH`. A missing tool fails the test with the way to install it rather than skipping it:
/// `Scripts/setup.sh` (which `.ci/run` runs) installs them all, so a skip would only hide a broken CI.
public struct ReferenceTool: Sendable {
  public let name: String
  /// How to get it, for the failure message.
  public let install: String

  public init(_ name: String, install: String) {
    self.name = name
    self.install = install
  }

  /// The virtual environment `Scripts/setup.sh` makes, in the checkout these tests were built from.
  public static let toolsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".venv-tools/bin").path

  /// The tool's path in `.venv-tools/bin` or on `PATH`, or a recorded issue.
  public func path(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let directories = [Self.toolsDirectory] + path.split(separator: ":").map(String.init)
    let found = directories.map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    if found == nil { Issue.record("'\(name)' is not installed: \(install)", sourceLocation: sourceLocation) }
    return found
  }

  /// Runs the tool with `arguments` in `directory` (the current one when nil), feeding `input` on standard
  /// input; its status and both streams.
  public func run(
    _ arguments: [String], input: String? = nil, environment: [String: String]? = nil, in directory: URL? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (status: Int32, output: String, error: String)? {
    guard let executable = path(sourceLocation: sourceLocation) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
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
