import FlowIntents

/// Runs a program to its end and collects what it wrote: what `run-shell` performs through, injected so
/// that a dry run and the tests see each command (``SpawnCommandRunner`` is the real one).
public protocol CommandRunner: Sendable {
  /// Runs `command` and returns how it ended. Throws `CancellationError` when the task is cancelled
  /// (Ctrl-C, a step's `timeout:`), and ``CommandFailure`` when it cannot start; either way, and on
  /// ``CommandRequest/timeout``, nothing it started is left running.
  func run(_ command: CommandRequest) async throws -> CommandResult
  /// The home folder, for `~` in paths (the run's `HOME`).
  var home: String? { get }
  /// The most bytes of standard output a command may write (the run's text limit, ValueLimits).
  var outputLimit: Int { get }
}

/// One program to run: `argv`, what it reads, where, and with which environment.
public struct CommandRequest: Sendable, Hashable {
  /// The program: a path, or a name looked up on the `PATH` (the child's, with ``environment`` applied).
  public var executable: String
  /// `argv[1...]`, passed as they are: no shell sees them.
  public var arguments: [String]
  /// `argv[0]`; the executable as written when nil.
  public var name: String?
  /// Written to the child's standard input, which is then closed; nil gives it `/dev/null`.
  public var input: [UInt8]?
  /// A script to hand the program as a file: an in-memory file whose `/dev/fd/N` path replaces
  /// ``CommandRequest/scriptPlaceholder`` in ``arguments`` (for interpreters that take no `-c`).
  public var script: [UInt8]?
  /// The child's working directory; the run's own when nil.
  public var workingDirectory: String?
  /// Variables set in the child on top of the runner's environment.
  public var environment: [String: String]
  /// After this long the command's process group is ended and the result says it timed out.
  public var timeout: Duration?
  /// The most bytes of standard output kept; more ends the command (``CommandResult/outputTooLarge``).
  public var outputLimit: Int
  /// What the command may touch, its paths expanded (`~` replaced); nil runs it unfenced.
  public var fence: ShellFence.Limits?

  /// The argument that stands for the path of ``script``.
  public static let scriptPlaceholder = "\u{0}script"

  public init(
    executable: String, arguments: [String] = [], name: String? = nil, input: [UInt8]? = nil, script: [UInt8]? = nil,
    workingDirectory: String? = nil, environment: [String: String] = [:], timeout: Duration? = nil,
    outputLimit: Int = 16 << 20
  ) {
    self.executable = executable
    self.arguments = arguments
    self.name = name
    self.input = input
    self.script = script
    self.workingDirectory = workingDirectory
    self.environment = environment
    self.timeout = timeout
    self.outputLimit = outputLimit
  }
}

/// How a command ended, and what it wrote.
public struct CommandResult: Sendable, Hashable {
  public enum Ending: Sendable, Hashable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
    /// Its ``CommandRequest/timeout`` passed and its process group was ended.
    case timedOut
    /// It wrote more than ``CommandRequest/outputLimit`` to standard output and was ended.
    case outputTooLarge
  }

  public var ending: Ending
  public var standardOutput: [UInt8]
  /// The last ``CommandResult/errorTail`` bytes at most.
  public var standardError: [UInt8]
  /// The process id it ran as.
  public var pid: Int32

  /// How much of standard error is kept: the end, where a program says why it stopped.
  public static let errorTail = 64 << 10

  public init(ending: Ending, standardOutput: [UInt8] = [], standardError: [UInt8] = [], pid: Int32 = 0) {
    self.ending = ending
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.pid = pid
  }

  /// The exit status as a shell reports it: the status, or 128 + the signal's number.
  public var exitCode: Int {
    switch ending {
    case .exited(let status): Int(status)
    case .signalled(let signal): 128 + Int(signal)
    case .timedOut, .outputTooLarge: 128 + 15
    }
  }
}

/// A command that could not start: no such program, a working directory that is not there.
public struct CommandFailure: Error, Sendable, Hashable, CustomLocalizedStringResourceConvertible {
  public var message: String
  public var help: String?

  public init(_ message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }

  public var localizedStringResource: LocalizedStringResource { LocalizedStringResource(message) }
}
