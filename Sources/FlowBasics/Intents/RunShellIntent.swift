import FlowIntents
import FoundationEssentials
import Glibc

/// Runs a shell script, or a program with its arguments, and passes on what it prints (Shortcuts' Run
/// Shell Script).
///
/// Values reach the command as data, never as code: `arguments:` become `"$1"`, `"$2"`… (and `sys.argv`
/// for Python), `input:` arrives on standard input; a `${…}` written inside `script:` is a checker
/// diagnostic (ScriptInjection, in FlowRuntime). See Documentation/Shell.md.
struct RunShellIntent: AppIntent {
  static let title: LocalizedStringResource = "Run Shell Script"
  static let description = IntentDescription(
    "Run a script with sh (or bash, python3, any interpreter), or a program with its arguments and no shell, and pass on its standard output; a failing exit stops the step, with the end of its standard error, unless 'output' is 'result'."
  )
  // A command can do anything the person can: a dry run never starts one.
  static let sideEffect = SideEffect.destructive
  // A step that asks to run unfenced (`fence: none`, or a fence computed at run time) may do anything the
  // account can, deleting included: it asks first, and in a shared file only a person (or --yes) may
  // answer (ConfirmationPolicy). Without a fence it runs as before in one's own file, and fenced in a
  // shared one.
  static let sideEffectParameters: Set<String> = ["fence"]

  static func sideEffect(for values: [String: FlowValue]) -> SideEffect {
    values["fence"].flatMap { try? ShellFence(flowValue: $0) } == .unfenced ? .destructive : .changes
  }
  // The card shows the script, or the command line, in full and in red: a step has one or the other;
  // and beside it everything else that decides what runs.
  static let machineAccess = [
    MachineAccess(.runsCommands, parameter: "script", interpreter: "shell", details: commandDetails),
    MachineAccess(.runsCommands, parameter: "command", details: commandDetails),
  ]
  static let commandDetails = ["arguments", "input", "pass-input", "environment", "working-directory"]

  @Parameter(
    title: "Script", description: "Shell code, run as written: give values through 'arguments' or 'input', never ${…}.",
    primary: true)
  var script: String?

  @Parameter(
    title: "Command",
    description:
      "A program and its arguments, run without a shell: [git, -C, ~/src, status]. Give 'script' or 'command'."
  )
  var command: [String]?

  @Parameter(
    title: "Shell",
    description:
      "The interpreter of 'script': a path or a name on the PATH. sh, bash, dash, zsh, ksh get it with -c; others (python3, node, perl) as a file.",
    default: "/bin/sh")
  var shell: String

  @Parameter(title: "Input", description: "A value for the command: on its standard input, or as arguments.")
  var input: FlowValue?

  @Parameter(
    title: "Pass Input", description: "Arguments go after 'arguments'; a list as one argument each.", default: .stdin)
  var passInput: PassInput

  @Parameter(
    title: "Arguments",
    description: "Values the script reads as \"$1\", \"$2\"…, passed as they are: no shell reads them.")
  var arguments: [String]?

  @Parameter(title: "Working Directory", description: "Where the command runs; flow's working directory if not given.")
  var workingDirectory: String?

  @Parameter(title: "Environment", description: "Variables added to the command's environment: {NAME: value}.")
  var environment: FlowDictionary?

  @Parameter(title: "Timeout", description: "After this long, the command and everything it started are ended.")
  var timeout: Duration?

  @Parameter(
    title: "Fence",
    description:
      "What the command may touch: {read: [paths], write: [paths], network: true|false}, enforced by the kernel (Landlock); 'none' for anything your account can. A shared file's step without one may only read."
  )
  var fence: ShellFence?

  @Parameter(
    title: "Output",
    description:
      "Standard output as text (without its last line break), lines, or JSON; 'result' gives exit-code, stdout and stderr and does not stop at a failing exit.",
    default: .text)
  var output: ShellOutput

  @Dependency var runner: any CommandRunner

  static var parameterSummary: some ParameterSummary {
    Summary("Run \(\.$script)") {
      \.$command
      \.$shell
      \.$input
      \.$passInput
      \.$arguments
      \.$workingDirectory
      \.$environment
      \.$timeout
      \.$fence
      \.$output
    }
  }

  /// Text by default, a list of text for `output: lines`, a Shell Result for `output: result`; any
  /// value when the mode is computed.
  static func outputType(given parameters: [String: ValueType], literals: [String: FlowValue]) -> ValueType? {
    if let literal = literals["output"] { return (try? ShellOutput(flowValue: literal))?.valueType }
    return parameters["output"] == nil ? .text : nil
  }

  /// Shells that take a script with `-c` and its arguments after a `$0`; any other interpreter gets the
  /// script as a file (`/dev/fd/3`), which python3, node, perl, ruby and fish all read.
  static let dashCShells: Set<String> = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"]

  func perform() async throws -> some ReturnsValue<FlowValue> {
    let request = try makeRequest()
    let result: CommandResult
    do {
      result = try await runner.run(request)
    } catch let failure as CommandFailure {
      throw AppIntentError.failed(failure.message, help: failure.help)
    }
    let label = command.map { "'\($0.first ?? "")'" } ?? "the script"
    switch result.ending {
    case .timedOut:
      var error = AppIntentError.failed(
        "\(label) ran longer than its timeout of \(timeout.map { "\($0)" } ?? "?"), so it and everything it started were ended",
        notes: Self.errorNotes(result.standardError))
      error.standardError = Self.errorTail(result.standardError)
      throw error
    case .outputTooLarge:
      throw AppIntentError.failed(
        "\(label) wrote more than the \(request.outputLimit) bytes a value may hold, so it was ended",
        help: "write its output to a file and read the part you need, or raise 'limits.text-bytes' in config.yml")
    case .exited, .signalled:
      break
    }
    let stdout = Self.text(result.standardOutput)
    if output == .result {
      return .result(
        value: ShellResultEntity(
          id: Int(result.pid), exitCode: result.exitCode, stdout: Self.withoutLastLineBreak(stdout),
          stderr: Self.withoutLastLineBreak(Self.text(result.standardError)), command: command?.first ?? shell
        ).flowValue)
    }
    guard result.exitCode == 0 else {
      let how =
        if case .signalled(let signal) = result.ending {
          "was ended by signal \(Self.signalName(signal)) (exit code \(result.exitCode))"
        } else {
          "exited with status \(result.exitCode)"
        }
      // A fenced command that was refused something says "Permission denied": say what it was allowed.
      let fenced = request.fence.map { ["it ran fenced: it \($0.words) (its 'fence')"] } ?? []
      var error = AppIntentError.failed(
        "\(label) \(how)",
        help: "to go on and read the exit code, add 'output: result' and test '${…exit-code}'",
        notes: Self.errorNotes(result.standardError) + fenced)
      error.exitStatus = result.exitCode
      error.standardError = Self.errorTail(result.standardError)
      throw error
    }
    switch output {
    case .lines:
      var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if lines.last == "" { lines.removeLast() }
      return .result(value: .list(lines.map(FlowValue.text)))
    case .json:
      do {
        return .result(value: try JSON.parse(stdout))
      } catch {
        throw AppIntentError.failed(
          "\(label) printed something that is not JSON: \(error.message)",
          help: "use 'output: text' to see what it printed")
      }
    case .text, .result:
      return .result(value: .text(Self.withoutLastLineBreak(stdout)))
    }
  }

  /// The program, its arguments and what it reads, from the step's values.
  func makeRequest() throws -> CommandRequest {
    let home = runner.home
    var extra = arguments ?? []
    var standardInput: [UInt8]?
    if let input {
      switch passInput {
      case .stdin: standardInput = Array(Self.inputText(input).utf8)
      case .arguments:
        if case .list(let items) = input { extra += items.map(\.text) } else { extra.append(input.text) }
      }
    }
    var request: CommandRequest
    switch (script, command) {
    case (nil, nil), (_?, _?):
      throw AppIntentError.failed(
        "'run-shell' needs a 'script' or a 'command', and takes one of them",
        help: "write 'script: echo hello', or 'command: [ls, -l]' to run a program without a shell")
    case (let script?, nil):
      let shell = Self.expandingHome(self.shell, home: home)
      let name = shell.split(separator: "/").last.map(String.init) ?? shell
      if Self.dashCShells.contains(name) {
        // `sh -c SCRIPT NAME ARG…`: the arguments are "$1"…, with $0 the shell's name as it would be.
        request = CommandRequest(executable: shell, arguments: ["-c", script, name] + extra)
      } else {
        request = CommandRequest(
          executable: shell, arguments: [CommandRequest.scriptPlaceholder] + extra, script: Array(script.utf8))
      }
    case (nil, let argv?):
      guard let program = argv.first, !program.isEmpty else {
        throw AppIntentError.failed(
          "'command' names no program", help: "put the program first: 'command: [git, status]'")
      }
      // A word that starts with ~ is expanded, as a shell expands it when it is not quoted.
      request = CommandRequest(
        executable: Self.expandingHome(program, home: home),
        arguments: argv.dropFirst().map { Self.expandingHome($0, home: home) } + extra, name: program)
    }
    request.input = standardInput
    request.workingDirectory = workingDirectory.map { Self.expandingHome($0, home: home) }
    request.environment = Dictionary(
      (environment ?? [:]).map { ($0.key, $0.value.text) }, uniquingKeysWith: { _, last in last })
    request.timeout = timeout
    request.outputLimit = runner.outputLimit
    request.fence = Self.limits(fence, shared: IntentContext.current?.dependency(RunOrigin.self)?.shared ?? false)
      .map { limits in
        ShellFence.Limits(
          read: limits.read.map { Self.expandingHome($0, home: home) },
          write: limits.write.map { Self.expandingHome($0, home: home) }, network: limits.network)
      }
    return request
  }

  /// The limits a step runs within: what it declares; when it declares nothing, none in your own file
  /// and read-only without network in a shared one (only `fence: none` lifts that).
  static func limits(_ fence: ShellFence?, shared: Bool) -> ShellFence.Limits? {
    switch fence {
    case .unfenced?: nil
    case .limited(let limits)?: limits
    case nil: shared ? .readOnly : nil
    }
  }

  /// `~` and `~/…` with the home folder; anything else as it is (`~user` too).
  static func expandingHome(_ word: String, home: String?) -> String {
    guard let home, word == "~" || word.hasPrefix("~/") else { return word }
    return home + word.dropFirst()
  }

  /// What standard input gets: a list one item per line, a dictionary as JSON, anything else as text.
  static func inputText(_ value: FlowValue) -> String {
    switch value {
    case .list(let items): items.map { $0.text + "\n" }.joined()
    case .dictionary: JSON.encode(value)
    default: value.text
    }
  }

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// What `$(…)` would give, minus only one line break: the output of `echo hi` is `hi`.
  static func withoutLastLineBreak(_ text: String) -> String {
    text.hasSuffix("\n") ? String(text.dropLast()) : text
  }

  /// The last lines of standard error, where a program says why it failed, as the diagnostic's notes.
  static func errorNotes(_ bytes: [UInt8]) -> [String] {
    let lines = errorLines(bytes)
    let tail = lines.suffix(5).map { "stderr: " + $0 }
    return lines.count > 5 ? ["stderr (last 5 of \(lines.count) lines):"] + tail : tail
  }

  /// The same last lines as one text, one a line, for `${run.error.stderr}`: what the notes show.
  static func errorTail(_ bytes: [UInt8]) -> String {
    errorLines(bytes).suffix(5).joined(separator: "\n")
  }

  /// Standard error's lines that say something, each cut at 300 characters.
  private static func errorLines(_ bytes: [UInt8]) -> [String] {
    text(bytes).split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }.map { line in
      line.count > 300 ? line.prefix(300) + "…" : String(line)
    }
  }

  static func signalName(_ number: Int32) -> String {
    let names: [Int32: String] = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL",
      SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
    ]
    return names[number] ?? "\(number)"
  }
}
