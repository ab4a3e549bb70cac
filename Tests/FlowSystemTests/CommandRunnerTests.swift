import FlowBasics
import FlowTestSupport
import Foundation
import Testing

@testable import FlowSystem

#if canImport(Glibc)
  import Glibc
#endif

/// `SpawnCommandRunner` with real processes: output, input, the environment, and above all that nothing
/// it started is left running — checked with `kill(-group, 0)`, which fails with ESRCH only when the
/// process group has no member left, zombies included. No sleeps: the scripts say when they are ready
/// through a FIFO the test reads.
@Suite(.serialized)
struct CommandRunnerTests {
  let runner = SpawnCommandRunner(environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home"])

  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-runner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  func sh(_ script: String, _ arguments: [String] = [], input: String? = nil) -> CommandRequest {
    CommandRequest(
      executable: "/bin/sh", arguments: ["-c", script, "sh"] + arguments, input: input.map { Array($0.utf8) })
  }

  @Test func readsStandardOutputAndErrorAndTheExitStatus() async throws {
    let result = try await runner.run(sh("echo out; echo err >&2; exit 3"))
    #expect(result.ending == .exited(3))
    #expect(String(decoding: result.standardOutput, as: UTF8.self) == "out\n")
    #expect(String(decoding: result.standardError, as: UTF8.self) == "err\n")
  }

  /// Both pipes far beyond their 64 KiB buffers, at once: a reader of one pipe at a time would deadlock.
  @Test func largeOutputOnBothPipesDoesNotDeadlock() async throws {
    let result = try await runner.run(
      sh("head -c 1000000 /dev/zero | tr '\\0' a; head -c 1000000 /dev/zero | tr '\\0' b >&2"))
    #expect(result.ending == .exited(0))
    #expect(result.standardOutput.count == 1_000_000)
    // Standard error keeps its end only.
    #expect(result.standardError.count == CommandResult.errorTail)
  }

  /// A megabyte in while the child echoes it out: the input is written as the output is read.
  @Test func largeInputPassesThroughCat() async throws {
    let input = String(repeating: "0123456789abcdef", count: 65_536)
    let result = try await runner.run(CommandRequest(executable: "cat", input: Array(input.utf8)))
    #expect(result.ending == .exited(0))
    #expect(result.standardOutput.count == input.utf8.count)
  }

  @Test func aChildThatReadsNoInputDoesNotHurtFlow() async throws {
    let input = String(repeating: "x", count: 1 << 20)
    let result = try await runner.run(sh("exit 0", input: input))
    #expect(result.ending == .exited(0))
  }

  @Test func outputOverTheLimitEndsTheCommand() async throws {
    var request = sh("yes")
    request.outputLimit = 100_000
    let result = try await runner.run(request)
    #expect(result.ending == .outputTooLarge)
  }

  @Test func aSignalIsReportedAsAShellWould() async throws {
    let result = try await runner.run(sh("kill -9 $$"))
    #expect(result.ending == .signalled(SIGKILL))
    #expect(result.exitCode == 137)
  }

  @Test func aProgramNotOnThePathIsAClearFailure() async throws {
    await #expect(throws: CommandFailure.self) {
      try await runner.run(CommandRequest(executable: "no-such-program-anywhere"))
    }
    do {
      _ = try await runner.run(CommandRequest(executable: "no-such-program-anywhere"))
    } catch let failure as CommandFailure {
      #expect(
        failure.message
          == "'no-such-program-anywhere' is not installed: it is in none of the PATH's folders (/usr/bin, /bin)")
    }
  }

  /// The script's shell and a background job it started, both in the command's group; the test learns
  /// their pids from a FIFO the script writes once both exist.
  func startGroup(timeout: Duration? = nil) throws -> (request: CommandRequest, fifo: String) {
    let fifo = try Self.folder().appendingPathComponent("pids").path
    #expect(mkfifo(fifo, 0o600) == 0)
    var request = sh(#"sleep 1000 & echo "$$ $!" > "$1"; wait"#, [fifo])
    request.timeout = timeout
    return (request, fifo)
  }

  /// Blocks until the script has written its pids: the group leader's and the background job's.
  func readPids(_ fifo: String) async throws -> (group: pid_t, job: pid_t) {
    // open blocks until the script opens the FIFO to write; read until it closes it.
    let line = await Task.detached { () -> String in
      let descriptor = open(fifo, O_RDONLY)
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 256)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    }.value
    let numbers = line.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
    try #require(numbers.count == 2)
    return (numbers[0], numbers[1])
  }

  func expectGone(_ group: pid_t, _ job: pid_t, sourceLocation: SourceLocation = #_sourceLocation) {
    errno = 0
    #expect(kill(-group, 0) == -1 && errno == ESRCH, "the process group is empty", sourceLocation: sourceLocation)
    errno = 0
    #expect(kill(job, 0) == -1 && errno == ESRCH, "the background job is gone", sourceLocation: sourceLocation)
  }

  @Test func cancellationEndsTheWholeGroup() async throws {
    let (request, fifo) = try startGroup()
    let runner = runner
    let task = Task { try await runner.run(request) }
    let (group, job) = try await readPids(fifo)
    #expect(kill(-group, 0) == 0)  // running, before the cancellation
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    expectGone(group, job)
  }

  @Test func aTimeoutEndsTheWholeGroup() async throws {
    let (request, fifo) = try startGroup(timeout: .milliseconds(300))
    let runner = runner
    let task = Task { try await runner.run(request) }
    let (group, job) = try await readPids(fifo)
    let result = try await task.value
    #expect(result.ending == .timedOut)
    expectGone(group, job)
  }

  /// A script that exits leaving a job behind: the job is ended and reaped too, and the step does not
  /// wait for the job's end (it holds the output pipe open).
  @Test func aJobLeftBehindIsEndedWhenTheScriptExits() async throws {
    let fifo = try Self.folder().appendingPathComponent("pids").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let runner = runner
    let task = Task { try await runner.run(sh(#"sleep 1000 & echo "$$ $!" > "$1"; echo done"#, [fifo])) }
    let (group, job) = try await readPids(fifo)
    let result = try await task.value
    #expect(result.ending == .exited(0))
    #expect(String(decoding: result.standardOutput, as: UTF8.self) == "done\n")
    expectGone(group, job)
  }

  /// Closing its output is not the end of a command: it is waited for, never ended.
  @Test func aChildThatClosesItsOutputIsWaitedFor() async throws {
    let result = try await runner.run(
      sh("exec >&- 2>&-; i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; exit 7"))
    #expect(result.ending == .exited(7))
  }

  @Test func aScriptFileForOtherInterpreters() async throws {
    let request = CommandRequest(
      executable: "/bin/sh", arguments: [CommandRequest.scriptPlaceholder, "one", "two"],
      script: Array(#"echo "$0|$1|$2""#.utf8))
    let result = try await runner.run(request)
    #expect(String(decoding: result.standardOutput, as: UTF8.self) == "/dev/fd/3|one|two\n")
  }
}
