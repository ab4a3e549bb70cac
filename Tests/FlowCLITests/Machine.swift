import FlowCLI
import FlowIntents
import FlowSession
import FlowTestSupport
import Foundation
import Testing

/// A person's machine, as the tests give it to flow: a temporary home of its own, the environment flow
/// sees, the folder it runs in and its clock. flow runs there in one of two ways:
///
/// - ``run(_:in:environment:terminal:lines:piped:id:)``: in-process, the real commands with a captured
///   console (``BufferConsole``) and this machine's environment, through their `SessionContext`. Fast;
///   what most tests use. ``Machine/run(_:in:environment:terminal:lines:piped:clock:)`` is the same on a
///   fresh machine, for a test that needs nothing else of it.
/// - ``spawn(_:at:in:environment:id:)`` and ``launch(_:in:environment:umask:input:output:error:)``: the real
///   `flow` binary (``executable``) as a process, at a pseudo-terminal or with the given standard streams,
///   for signals, terminals, locks between processes and what a process writes.
///
/// Every test that runs flow runs it through this type.
struct Machine {
  typealias Result = (status: Int32, output: String, error: String)

  /// The `flow` executable, built beside the test bundle.
  static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("flow")

  /// The temporary folder that is this machine's home.
  let home: URL
  /// What flow finds in its environment (for the binary, all of it).
  var environment: [String: String]
  /// The working folder of a run, unless the run names another.
  var directory: URL
  var clock: any FlowClock
  /// How far ``clock`` moves on after each in-process run (a ``ManualClock`` moves when slept on).
  var step: Duration?

  /// A fresh home; `environment` is given the home and says what flow sees (by default `NO_COLOR` and
  /// `HOME`); runs happen in `directory`, by default the home.
  init(
    in directory: URL? = nil, clock: any FlowClock = SystemClock(), step: Duration? = nil,
    environment: (URL) -> [String: String] = { ["NO_COLOR": "1", "HOME": $0.path] }
  ) throws {
    try self.init(home: temporaryDirectory(), in: directory, clock: clock, step: step, environment: environment)
  }

  /// A machine whose home is `home`, which exists.
  init(
    home: URL, in directory: URL? = nil, clock: any FlowClock = SystemClock(), step: Duration? = nil,
    environment: (URL) -> [String: String] = { ["NO_COLOR": "1", "HOME": $0.path] }
  ) {
    self.home = home
    self.environment = environment(home)
    self.directory = directory ?? home
    self.clock = clock
    self.step = step
  }

  /// The library: `$XDG_DATA_HOME/flow/workflows`, by default under the home.
  var library: URL {
    let data = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
    return (data ?? home.appendingPathComponent(".local/share")).appendingPathComponent("flow/workflows")
  }

  /// The environment of one run: `extra` adds to this machine's, an empty value takes a variable out, and
  /// `id` is the run's `FLOW_RUN_ID`.
  func environment(_ extra: [String: String], id: String? = nil) -> [String: String] {
    var environment = self.environment
    for (name, value) in extra { environment[name] = value.isEmpty ? nil : value }
    if let id { environment["FLOW_RUN_ID"] = id }
    return environment
  }

  /// Writes `text` as `name` in the working folder; its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  // MARK: - In-process

  /// Runs `flow ARGS…` in-process here, from `directory` (by default the machine's), and moves the clock
  /// on by ``step``. `terminal`, `lines` and `piped` say what standard input is: a terminal where a person
  /// types `lines`, or a pipe.
  func run(
    _ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:],
    terminal: Bool = false, lines: [String] = [], piped: String? = nil, id: String? = nil
  ) async -> Result {
    let result = await Self.run(
      arguments, in: directory ?? self.directory, environment: environment(extra, id: id), terminal: terminal,
      lines: lines, piped: piped, clock: clock)
    if let step { try? await clock.sleep(for: step) }
    return result
  }

  /// Runs `flow ARGS…` in-process in `directory` and returns its exit status and captured streams.
  ///
  /// Without a `HOME` in `environment`, the run gets a fresh one of its own, so that tests running at the
  /// same time never share run history or a workflow's lock.
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = ["NO_COLOR": "1"],
    terminal: Bool = false, lines: [String] = [], piped: String? = nil, clock: any FlowClock = SystemClock()
  ) async -> Result {
    let console = BufferConsole(terminal: terminal, lines: lines, piped: piped)
    var environment = environment
    if environment["HOME"] == nil { environment["HOME"] = try? temporaryDirectory().path }
    let context = SessionContext(
      console: console, environment: environment, workingDirectory: directory.path, clock: clock)
    let status = await FlowCommand.main(arguments: arguments, context: context)
    return (status, console.output, console.error)
  }

  /// `flow runs ARGS… --json`, read in this process: a list of runs, or one run for `runs show`.
  func runsJSON(_ arguments: [String] = []) async throws -> Any {
    let result = await run(["runs"] + arguments + ["--json"])
    return try JSONSerialization.jsonObject(with: Data(result.output.utf8))
  }

  /// `flow runs ARGS… --json`, read in this process: the runs listed, newest first.
  func runs(_ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> [[String: Any]]
  {
    try #require(try await runsJSON(arguments) as? [[String: Any]], sourceLocation: sourceLocation)
  }

  // MARK: - The binary

  /// Starts `flow ARGS…` with `terminal` as its standard input, output and error.
  func spawn(
    _ arguments: [String], at terminal: PseudoTerminal, in directory: URL? = nil,
    environment extra: [String: String] = [:], id: String? = nil
  ) throws -> Process {
    try terminal.spawn(
      Self.executable, arguments: arguments, environment: environment(extra, id: id),
      directory: directory ?? self.directory)
  }

  /// Starts `flow ARGS…` with the given standard streams (by default none: `/dev/null`), under `umask`
  /// when one is given.
  func launch(
    _ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:],
    umask: mode_t? = nil, input: Any? = FileHandle.nullDevice, output: Any? = FileHandle.nullDevice,
    error: Any? = FileHandle.nullDevice
  ) throws -> Process {
    let process = Process()
    if let umask {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments =
        ["-c", "umask \(String(umask, radix: 8)); exec \"$0\" \"$@\"", Self.executable.path] + arguments
    } else {
      process.executableURL = Self.executable
      process.arguments = arguments
    }
    process.environment = environment(extra)
    process.currentDirectoryURL = directory ?? self.directory
    (process.standardInput, process.standardOutput, process.standardError) = (input, output, error)
    try process.run()
    return process
  }

  /// Runs `flow ARGS…` as a process to its end, its output to `/dev/null`; its exit status.
  func runBinary(
    _ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:],
    umask: mode_t? = nil
  ) throws -> Int32 {
    let process = try launch(arguments, in: directory, environment: extra, umask: umask, input: nil)
    process.waitUntilExit()
    return process.terminationStatus
  }

  // MARK: - What a person sees

  /// The exit status and both streams, with this machine's home written as `$HOME`, for goldens.
  func transcript(_ result: Result) -> String {
    FlowCLITests.transcript(result).replacingOccurrences(of: home.path, with: "$HOME")
  }
}

/// What a person sees: the exit status and both streams, for goldens.
func transcript(_ result: Machine.Result) -> String {
  "exit status: \(result.status)\n--- stdout\n\(result.output)--- stderr\n\(result.error)"
}

/// A fresh, empty folder.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
