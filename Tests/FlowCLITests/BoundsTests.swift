import FlowTestSupport
import Foundation
import Testing

/// Issue 28, item 6: numbers from outside never crash flow. Each of these trapped (SIGILL) before: a
/// duration past what `Duration` holds in milliseconds, and a history setting that became such a date.
struct BoundsTests {
  /// Durations too long for any wait, in every place a file writes one: each is an error at its place.
  @Test func overflowingDurationsAreDiagnosedAtTheirPlace() async throws {
    let directory = try temporaryDirectory()
    try """
    flow: 1
    steps:
      - wait: 1e300
        timeout: 99999999999999999d
      - wait: 366d 1s
      - notify:
          title: Hi
          buttons: [OK]
          timeout: 9223372036854775807
      - show: x
        retry:
          attempts: 2
          delay: 1e309
    """.write(to: directory.appendingPathComponent("long.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(["validate", "long.yml"], in: directory)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "bounds/overflowing-durations.txt")
  }

  /// A duration that arrives at run time (an input) fails its step, naming it.
  @Test func anOverflowingDurationAtRunTimeFailsTheStep() async throws {
    let directory = try temporaryDirectory()
    try "flow: 1\ninput:\n  n: text\nsteps:\n  - wait: ${input.n}\n"
      .write(to: directory.appendingPathComponent("wait.yml"), atomically: true, encoding: .utf8)
    for value in ["1e300", "99999999999999999999d", "inf"] {
      let result = await Machine.run(["run", "wait.yml", "--input", "n=\(value)"], in: directory)
      #expect(result.status == 1, "\(value): \(result.error)")
      #expect(result.error.contains("step 1 'wait': 'duration': '\(value)' is too long"), "\(result.error)")
    }
  }

  /// `keep-days` became a date `keep-days` days ago, in milliseconds: every reader of history trapped.
  @Test func aHugeKeepDaysIsRefused() async throws {
    let machine = try Machine()
    let config = machine.home.appendingPathComponent(".config/flow")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    try "history:\n  keep-days: 9223372036854775807\n"
      .write(to: config.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
    try machine.write("show.yml", "flow: 1\nsteps:\n  - show: hi\n")
    let result = await machine.run(["run", "show.yml"])
    #expect(result.status == 2)
    #expect(
      result.error.contains(
        "config.yml:2:14: error: 'keep-days' must be at most 36500 days, found 9223372036854775807"),
      "\(result.error)")
  }

  /// A mapping of 200,000 keys is read, checked and run in one pass over its keys: each key was looked
  /// for among those before it (FlowDictionary), so 25,000 keys took 50 s to validate and 200,000 close to
  /// an hour. (This machine has no instruction counter for a test to read, so the count is the keys.)
  @Test func aMappingOfTwoHundredThousandKeysStaysLinear() async throws {
    let directory = try temporaryDirectory()
    // A flow mapping, to stay under the 4 MiB a workflow file may be.
    let entries = (0..<200_000).map { "k\($0): \($0 % 7)" }.joined(separator: ", ")
    var text = "flow: 1\nsteps:\n  - dictionary: {\(entries)}\n"
    text += "  - get-value:\n      dictionary: ${previous}\n      key: k199999\n  - show: ${previous}\n"
    try text.write(to: directory.appendingPathComponent("keys.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(["run", "keys.yml"], in: directory)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "\(199_999 % 7)\n")
  }

  /// A condition's `matches` has the actions' engine and budget: a pattern that backtracks on a hostile
  /// subject stops at 1 s with an error at the pattern, instead of hanging the run (it did for minutes).
  @Test func aBacktrackingConditionStopsAtTheBudget() async throws {
    let directory = try temporaryDirectory()
    try "flow: 1\ninput:\n  s: text\nsteps:\n  - if: ${input.s} matches \"(a+)+$\"\n    then:\n      - show: yes\n"
      .write(to: directory.appendingPathComponent("match.yml"), atomically: true, encoding: .utf8)
    let subject = String(repeating: "a", count: 34) + "b"
    let result = await Machine.run(["run", "match.yml", "--input", "s=\(subject)"], in: directory)
    #expect(result.status == 1)
    assertGolden(transcript(result), named: "bounds/backtracking-condition.txt")
    let plain = await Machine.run(["run", "match.yml", "--input", "s=xaa"], in: directory)
    #expect(plain.status == 0, "\(plain.error)")
    #expect(plain.output.contains("yes"))
  }

  // MARK: - Item 7: a write that fails part-way

  /// `append-to-file` past the file size limit (RLIMIT_FSIZE, as a full disk would: `write` takes what fits,
  /// then fails with EFBIG) leaves the file byte for byte as it was, and says why.
  @Test func anAppendThatFailsPartWayLeavesTheFileAsItWas() throws {
    let machine = try Machine()
    let config = machine.home.appendingPathComponent(".config/flow")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    try "history: off\n".write(to: config.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
    let log = machine.home.appendingPathComponent("log.txt")
    let before = Data((0..<2000).map { UInt8(ascii: "a") + UInt8($0 % 26) } + [0x0A])
    try before.write(to: log)
    try
      "flow: 1\nsteps:\n  - append-to-file:\n      path: log.txt\n      text: \(String(repeating: "x", count: 8000))\n"
      .write(to: machine.home.appendingPathComponent("append.yml"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // 4 blocks (2 KiB in dash's 512-byte blocks, 4 KiB in bash's): the 8,000 bytes never fit. SIGXFSZ is
    // ignored so that the write fails instead of the signal ending flow; an ignored signal stays so in exec.
    process.arguments = [
      "-c", "ulimit -f 4; trap '' XFSZ; exec \"$0\" \"$@\"", Machine.executable.path, "run", "append.yml",
    ]
    process.environment = machine.environment
    process.currentDirectoryURL = machine.home
    let error = Pipe()
    (process.standardInput, process.standardOutput, process.standardError) = (nil, FileHandle.nullDevice, error)
    try process.run()
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1, "\(message)")
    #expect(
      message.contains("cannot write '~/log.txt': the file would be larger than this system allows"), "\(message)")
    #expect(try Data(contentsOf: log) == before)
  }
}
