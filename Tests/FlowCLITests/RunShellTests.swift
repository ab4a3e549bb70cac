import FlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `run-shell` through `flow run` and `flow validate`, with real processes: values reach the command as
/// data (arguments, standard input, the environment), exits and standard error reach the diagnostic,
/// and a value written into `script:` is caught before step 1.
struct RunShellTests {
  /// A fresh machine whose working folder (not its home) holds `text` as `shell.yml`.
  static func shell(_ text: String) throws -> Machine {
    let machine = try Machine(in: temporaryDirectory()) { ["NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": $0.path] }
    try machine.write("shell.yml", text)
    return machine
  }

  /// Arguments and standard input arrive exactly as given: nothing in them is expanded or run.
  @Test func argumentsAndInputAreDataNotCode() async throws {
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell:
            script: 'printf "[%s]" "$@"; cat'
            arguments: ["a  b", "$(echo pwned)", "*", "; exit 9"]
            input: "and from stdin"
        - show: ${previous}
      """
    ).run(["run", "shell.yml"])
    #expect(result.status == 0)
    #expect(result.output == "[a  b][$(echo pwned)][*][; exit 9]and from stdin\n")
  }

  @Test func aListInputAsArgumentsAfterTheArguments() async throws {
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - list: [two, three]
        - run-shell:
            script: 'echo "$#: $*"'
            arguments: [one]
            input: ${previous}
            pass-input: arguments
        - show: ${previous}
      """
    ).run(["run", "shell.yml"])
    #expect(result.output == "3: one two three\n")
  }

  @Test func environmentAndWorkingDirectory() async throws {
    let folder = try temporaryDirectory().resolvingSymlinksInPath().path
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell:
            script: 'echo "$GREETING from $(pwd)"'
            environment: {GREETING: hello}
            working-directory: \(folder)
        - show: ${previous}
      """
    ).run(["run", "shell.yml"])
    #expect(result.output == "hello from \(folder)\n")
  }

  /// The argv form: no shell, `~` expanded in the items as a shell would expand an unquoted word.
  @Test func commandRunsWithoutAShellAndExpandsHome() async throws {
    let home = try temporaryDirectory().resolvingSymlinksInPath()
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell:
            command: [printf, "%s|", ~/notes, "$HOME", "~user"]
        - show: ${previous}
      """
    ).run(["run", "shell.yml"], environment: ["HOME": home.path])
    #expect(result.output == "\(home.path)/notes|$HOME|~user|\n")
  }

  @Test func outputModes() async throws {
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell: {script: 'printf "a\\nb\\nc\\n"', output: lines}
          as: lines
        - run-shell: {script: 'echo "{\\"name\\": \\"flow\\", \\"n\\": 2}"', output: json}
          as: data
        - run-shell: {script: 'echo no; echo why >&2; exit 1', output: result}
          as: r
        - show: "${lines.count} ${lines[1]} ${data.name} ${r.exit-code} ${r.stdout} ${r.stderr}"
      """
    ).run(["run", "shell.yml"])
    #expect(result.error == "")
    #expect(result.output == "3 b flow 1 no why\n")
  }

  @Test func pythonGetsTheScriptAsAFileAndItsArguments() async throws {
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell:
            shell: python3
            script: |
              import sys
              print(sys.argv[1:], sys.stdin.read())
            arguments: ["x y"]
            input: piped
        - show: ${previous}
      """
    ).run(["run", "shell.yml"], environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
    #expect(result.output == "['x y'] piped\n")
  }

  /// A failing exit: its status and the end of its standard error, at the step.
  @Test func aFailingExitShowsItsStatusAndStandardError() async throws {
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell: |
            echo "fine so far"
            for i in 1 2 3 4 5 6 7; do echo "line $i" >&2; done
            echo "tar: backup.tar: Cannot open: No such file or directory" >&2
            exit 2
      """
    ).run(["run", "shell.yml"])
    #expect(result.status == 1)
    assertGolden(transcript(result), named: "run-shell/failing-exit.txt")
  }

  @Test func theTimeoutEndsTheCommandAndSaysSo() async throws {
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell:
            script: sleep 1000
            timeout: 100ms
      """
    ).run(["run", "shell.yml"])
    #expect(result.status == 1)
    assertGolden(transcript(result), named: "run-shell/timeout.txt")
  }

  /// The step key `timeout:` cancels the step; the command's whole group goes with it.
  @Test func theStepTimeoutLeavesNothingRunning() async throws {
    let pids = try temporaryDirectory().appendingPathComponent("pids").path
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell:
            script: 'sleep 1000 & echo "$$ $!" > "$1"; wait'
            arguments: [\(pids)]
          timeout: 300ms
      """
    ).run(["run", "shell.yml"])
    #expect(result.status == 1)
    let numbers = try String(contentsOfFile: pids, encoding: .utf8).split(whereSeparator: \.isWhitespace)
      .compactMap { pid_t($0) }
    try #require(numbers.count == 2)
    errno = 0
    #expect(kill(-numbers[0], 0) == -1 && errno == ESRCH)
    errno = 0
    #expect(kill(numbers[1], 0) == -1 && errno == ESRCH)
  }

  @Test func aDryRunStartsNothing() async throws {
    let marker = try temporaryDirectory().appendingPathComponent("ran").path
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - run-shell:
            command: [touch, \(marker)]
      """
    ).run(["run", "--dry-run", "shell.yml"])
    #expect(result.status == 0)
    #expect(!FileManager.default.fileExists(atPath: marker))
    assertGolden(transcript(result).replacingOccurrences(of: marker, with: "MARKER"), named: "run-shell/dry-run.txt")
  }

  static let injected = """
    flow: 1
    input:
      name: {type: text, default: World}
    steps:
      - run-shell:
          script: echo "Hello, ${input.name}" && touch ${input.name}.txt
    """

  /// The injection diagnostic with the rewrite, a warning in a workflow of one's own.
  @Test func aValueInTheScriptIsAWarningWithTheRewrite() async throws {
    let result = try await Self.shell(Self.injected).run(["validate", "shell.yml"])
    #expect(result.status == 0)
    assertGolden(transcript(result), named: "run-shell/injection-warning.txt")
  }

  /// The same in a shared file is an error.
  @Test func aValueInTheScriptOfASharedFileIsAnError() async throws {
    let text =
      Self.injected + """

        shared:
          created: 2026-11-18T11:06:40Z
        """
    let result = try await Self.shell(text).run(["validate", "shell.yml"])
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "run-shell/injection-shared.txt")
  }

  @Test func aWholeArgumentInCommandIsFineButNotTheProgram() async throws {
    let result = try await Self.shell(
      """
      flow: 1
      steps:
        - text: ls
        - run-shell:
            command: [git, -C, "${previous}", status]
        - run-shell:
            command: ["${previous}", -l]
        - run-shell:
            shell: ${previous}
            script: print(1)
        - run-shell:
            shell: python3
            script: print("${previous}")
      """
    ).run(["validate", "shell.yml"])
    assertGolden(transcript(result), named: "run-shell/injection-program.txt")
  }
}

/// Ctrl-C with the real binary: flow is interrupted while a script and a job it started run; flow exits
/// as cancelled, and the script's process group is empty by then (reaped, not zombies). No waiting on a
/// clock: the script writes its pids to a FIFO the test reads, and the signal goes after that.
@Suite(.serialized)
struct RunShellInterruptTests {
  @Test func ctrlCEndsTheCommandsWholeGroup() throws {
    let directory = try temporaryDirectory()
    let fifo = directory.appendingPathComponent("pids").path
    #expect(mkfifo(fifo, 0o600) == 0)
    try """
    flow: 1
    steps:
      - run-shell:
          script: 'sleep 1000 & echo "$$ $!" > "$1"; wait'
          arguments: [\(fifo)]
    """.write(to: directory.appendingPathComponent("wait.yml"), atomically: true, encoding: .utf8)

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 2, directory.appendingPathComponent("stderr.txt").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = [Machine.executable.path, "run", directory.appendingPathComponent("wait.yml").path]
    let environment = ["HOME=\(directory.path)", "NO_COLOR=1", "PATH=/usr/bin:/bin", "TZ=UTC"]
    let cArguments = argv.map { strdup($0) } + [nil]
    let cEnvironment = environment.map { strdup($0) } + [nil]
    defer { (cArguments + cEnvironment).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, Machine.executable.path, &actions, nil, cArguments, cEnvironment)
    try #require(spawned == 0)

    // Blocks until the script has started its job and written both pids.
    let pids = try String(
      decoding: FileHandle(forReadingFrom: URL(fileURLWithPath: fifo)).readToEnd() ?? Data(), as: UTF8.self
    )
    .split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
    try #require(pids.count == 2)
    kill(pid, SIGINT)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 3, "flow exits as cancelled")
    errno = 0
    #expect(kill(-pids[0], 0) == -1 && errno == ESRCH, "the script's process group is empty")
    errno = 0
    #expect(kill(pids[1], 0) == -1 && errno == ESRCH, "its background job is gone")
  }
}
