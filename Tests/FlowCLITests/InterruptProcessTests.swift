import FlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C and SIGTERM end the commands that only read and check (`validate`, `show`, `import`, `export`)
/// at once, with exit 3, however long the check would take (issue 16: a CPU-bound check ignored both
/// until SIGKILL). Real processes, and no waiting on a clock: the signal is sent the moment the process
/// exists, while it still has the signal blocked (as its parent had), so it is pending when flow starts
/// and reaches flow whatever it is doing by then — deterministic, where a signal sent "a little later"
/// would race with start-up.
@Suite(.serialized)
struct InterruptProcessTests {
  /// A shared file that is costly to check: `runs` steps each running one embedded workflow of `steps`
  /// steps (the 2,000 × 2,000).
  static func bigSharedFile(runs: Int, steps: Int) -> String {
    var text = "flow: 1\nname: Many Runs\nsteps:\n"
    text += String(repeating: "  - run-workflow: child.yml\n", count: runs)
    text += "workflows:\n  child.yml:\n    flow: 1\n    name: Child\n    steps:\n"
    for index in 0..<steps { text += "      - text: \"step \(index)\"\n" }
    return text
  }

  /// Starts flow with SIGTERM or SIGINT blocked, sends it the signal at once, and waits for it to end:
  /// its exit status (nil when a signal ended it) and standard error.
  static func interrupted(_ arguments: [String], signal number: Int32, in directory: URL) throws -> (
    status: Int32?, output: String, error: String
  ) {
    let output = directory.appendingPathComponent("stdout.txt").path
    let error = directory.appendingPathComponent("stderr.txt").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    sigaddset(&mask, number)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    let environment = ["HOME=\(directory.path)", "NO_COLOR=1", "PATH=/usr/bin:/bin", "TZ=UTC"]
    let argv = [Machine.executable.path] + arguments
    var pid: pid_t = 0
    let spawned = withCStrings(argv) { argv in
      withCStrings(environment) { envp in
        posix_spawn(&pid, Machine.executable.path, &actions, &attributes, argv, envp)
      }
    }
    try #require(spawned == 0, "posix_spawn: \(String(cString: strerror(spawned)))")
    kill(pid, number)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let exited = status & 0x7f == 0
    return (
      exited ? (status >> 8) & 0xff : nil,
      (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
      (try? String(contentsOfFile: error, encoding: .utf8)) ?? ""
    )
  }

  private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func aSignalEndsValidateOfABigFileAtOnce(signal: Int32) throws {
    let directory = try temporaryDirectory()
    try Self.bigSharedFile(runs: 2_000, steps: 2_000).write(
      to: directory.appendingPathComponent("big.flow.yml"), atomically: true, encoding: .utf8)
    let file = directory.appendingPathComponent("big.flow.yml").path
    let result = try Self.interrupted(["validate", file], signal: signal, in: directory)
    #expect(result.status == 3, "\(result.error)")
    #expect(result.error.hasSuffix("cancelled\n"))
    #expect(!result.output.contains("valid"))
  }

  @Test(arguments: [["show"], ["import", "--yes"], ["export"]])
  func sigtermEndsTheOtherReadingCommandsAtOnce(command: [String]) throws {
    let directory = try temporaryDirectory()
    try Self.bigSharedFile(runs: 200, steps: 200).write(
      to: directory.appendingPathComponent("big.flow.yml"), atomically: true, encoding: .utf8)
    let file = directory.appendingPathComponent("big.flow.yml").path
    let result = try Self.interrupted([command[0], file] + command.dropFirst(), signal: SIGTERM, in: directory)
    #expect(result.status == 3, "\(result.error)")
    #expect(result.error.hasSuffix("cancelled\n"))
    #expect(result.output.isEmpty)
    #expect(
      !FileManager.default.fileExists(atPath: directory.appendingPathComponent(".local/share/flow/workflows").path))
  }
}
