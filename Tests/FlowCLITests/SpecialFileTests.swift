import FlowLibrary
import FlowTestSupport
import Foundation
import Testing

/// Only regular files are read, and only as far as the limit, whatever `stat` says (issue 16, item 6); a
/// file that may not be a workflow is never quoted.
struct SpecialFileTests {
  /// A folder with `files` written into it.
  private func folder(_ files: [String: String] = [:]) throws -> URL {
    let directory = try temporaryDirectory()
    for (name, text) in files {
      try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return directory
  }

  /// `flow validate zero.yml` where zero.yml leads to /dev/zero: stat says 0 bytes, and reading it never ends.
  @Test func linkToADevice() async throws {
    let directory = try folder()
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("zero.yml").path, withDestinationPath: "/dev/zero")
    let result = await Machine.run(["validate", "zero.yml"], in: directory)
    assertGolden(transcript(result), named: "validate/device.txt")
  }

  /// A FIFO blocks `open` and `read` until a writer comes, which none will.
  @Test func namedPipe() async throws {
    let directory = try folder()
    #expect(mkfifo(directory.appendingPathComponent("x.yml").path, 0o600) == 0)
    let result = await Machine.run(["validate", "x.yml"], in: directory)
    assertGolden(transcript(result), named: "validate/fifo.txt")
  }

  @Test func runWorkflowOfADevice() async throws {
    let directory = try folder(["main.yml": "flow: 1\nsteps:\n  - run-workflow: /dev/zero\n"])
    let result = await Machine.run(["validate", "main.yml"], in: directory)
    #expect(result.status != 0)
    assertGolden(transcript(result), named: "validate/run-workflow-device.txt")
  }

  /// /proc/self/environ is a "regular" file of 0 bytes that holds the environment (tokens and all).
  @Test func runWorkflowOfAKernelFile() async throws {
    let directory = try folder(["main.yml": "flow: 1\nsteps:\n  - run-workflow: /proc/self/environ\n"])
    let result = await Machine.run(["validate", "main.yml"], in: directory)
    #expect(result.status != 0)
    #expect(!result.error.contains("PATH="))
    assertGolden(transcript(result), named: "validate/run-workflow-proc.txt")
  }

  /// A file not named like a workflow is pointed at, never shown: it may be a secret.
  @Test func aFileThatIsNotAWorkflowIsNotQuoted() async throws {
    let directory = try folder([
      "main.yml": "flow: 1\nsteps:\n  - run-workflow: credentials\n",
      "credentials": "[default]\naws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY\n",
    ])
    let result = await Machine.run(["validate", "main.yml"], in: directory)
    #expect(result.status != 0)
    #expect(!result.error.contains("wJalrXUtnFEMI"))
    assertGolden(transcript(result), named: "validate/run-workflow-not-a-workflow.txt")
  }

  @Test func theReaderCountsWhatItReads() throws {
    let directory = try folder(["big.yml": String(repeating: "x", count: 100)])
    let path = directory.appendingPathComponent("big.yml").path
    #expect(RegularFile.read(path, limit: 10) == .failure(.tooLarge(size: 100)))
    #expect(try RegularFile.read(path, limit: 100).get().count == 100)
    #expect(RegularFile.read("/dev/null", limit: 10) == .failure(.special(kind: "a character device")))
    #expect(RegularFile.read("/proc/self/status", limit: 1 << 20) == .failure(.kernel))
    #expect(RegularFile.read(directory.path, limit: 10) == .failure(.directory))
    #expect(RegularFile.read(directory.appendingPathComponent("none").path, limit: 10) == .failure(.missing))
  }

  /// A file is read in a buffer of the size it says plus a byte, then in growing chunks: every byte
  /// arrives, in order, whatever the size.
  @Test func theReaderReadsEveryByte() throws {
    let large = String((0..<200_000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
    let directory = try folder(["empty.yml": "", "large.yml": large])
    #expect(try RegularFile.read(directory.appendingPathComponent("empty.yml").path, limit: 10).get() == [])
    let path = directory.appendingPathComponent("large.yml").path
    #expect(try RegularFile.read(path, limit: 1 << 20).get() == Array(large.utf8))
    #expect(try RegularFile.read(path, limit: 200_000).get() == Array(large.utf8))
    #expect(RegularFile.read(path, limit: 199_999) == .failure(.tooLarge(size: 200_000)))
  }

  /// config.yml is read the same way.
  @Test func configurationThatIsADevice() async throws {
    let home = try folder()
    let config = home.appendingPathComponent("config/flow")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: config.appendingPathComponent("config.yml").path, withDestinationPath: "/dev/zero")
    #expect(throws: (any Error).self) { try Configuration.load(config.appendingPathComponent("config.yml")) }
  }
}
