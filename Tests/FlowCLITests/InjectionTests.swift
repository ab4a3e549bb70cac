import FlowTestSupport
import Foundation
import Testing

/// A value reaches code only as an argument: `flow validate` refuses a `${…}` in `script:` whatever
/// its YAML form, in the code a `command:` hands an interpreter (through wrappers too), and in the
/// environment variables a shell or an interpreter reads as code (Documentation/Shell.md).
struct InjectionTests {
  static let shared = """

    shared:
      created: 2026-11-18T11:06:40Z
    """

  /// One `flow validate` of a file with a text input and these steps, in a shared file or one's own.
  struct Case: Sendable, CustomTestStringConvertible {
    var golden: String
    var input = "x"
    var steps: String
    var shared = false
    /// The exit status, when the case is about it.
    var status: Int32?
    var testDescription: String { golden }
  }

  static let cases = [
    // Block scalars, quoted text, a list or a mapping, a whole `${…}`: each one found at its column.
    Case(
      golden: "injection-script-forms", input: "name",
      steps: """
          - run-shell:
              script: |
                echo start
                echo "${input.name}"
          - run-shell:
              script: >
                echo folded
                ${input.name}
          - run-shell:
              script: "echo \\"${input.name}\\""
          - run-shell:
              script: [echo, "${input.name}"]
          - run-shell:
              script: {echo: "${input.name}"}
          - run-shell:
              script: ${input.name}
        """),
    // The code argument of every known interpreter, reached directly or through a wrapper; the code's
    // own arguments, and an interpreter's name that only stands as an argument, pass.
    Case(
      golden: "injection-command",
      steps: """
          - run-shell: {command: [sh, -c, "echo ${input.x}"]}
          - run-shell: {command: [/bin/bash, -ec, "echo '${input.x}'", bash, one]}
          - run-shell: {command: [env, FOO=1, sh, -c, "echo ${input.x}"]}
          - run-shell: {command: [xargs, --null, -I, "{}", bash, -c, "cp {} ${input.x}"]}
          - run-shell: {command: [find, ., -name, "*.txt", -exec, sh, -c, "rm ${input.x}", ";"]}
          - run-shell: {command: [sudo, -u, "${input.x}", ls]}
          - run-shell: {command: [timeout, 5, python3.12, -c, "print('${input.x}')"]}
          - run-shell: {command: [node, --eval, "${input.x}"]}
          - run-shell: {command: [perl, "-E${input.x}"]}
          - run-shell: {command: [ruby, -e, "puts ${input.x}"]}
          - run-shell: {command: [php, -r, "echo ${input.x};"]}
          - run-shell: {command: [awk, -F, ",", "{print ${input.x}}", data.csv]}
          - run-shell: {command: [python3, "${input.x}"]}
          - run-shell: {command: [env, "LD_PRELOAD=${input.x}", ls]}
          - run-shell: {command: [ssh, host, ls, "${input.x}"]}
          - run-shell: {command: [nice, -n, 5, "${input.x}"]}
          - run-shell: {command: [sh, -c, 'echo "$1"', sh, "${input.x}"]}
          - run-shell: {command: [python3, -c, "import sys; print(sys.argv[1])", "${input.x}"]}
          - run-shell: {command: [apt-get, install, python3, "${input.x}"]}
          - run-shell: {command: [env, "NAME=${input.x}", sort, "${input.x}"]}
          - run-shell: {command: [perl, -ne, "print if /${input.x}/", data.txt]}
          - run-shell: {command: [env, "BASH_FUNC_f%%=() { :; }", python3, "${input.x}"]}
          - run-shell: {command: [node, -r, ./setup.js, "${input.x}"]}
        """),
    // The same in a shared file: errors, and exit status 2.
    Case(
      golden: "injection-command-shared",
      steps: """
          - run-shell: {command: [bash, -c, "echo ${input.x}"]}
        """, shared: true, status: 2),
    // Variables read as code: a value in one is refused, a computed environment too; others pass.
    Case(
      golden: "injection-environment",
      steps: """
          - run-shell:
              script: echo hi
              environment:
                NAME: ${input.x}
                BASH_ENV: ${input.x}
                BASH_FUNC_greet%%: "() { ${input.x}; }"
                LD_PRELOAD: /tmp/${input.x}.so
                GIT_SSH_COMMAND: ssh -i ${input.x}
          - dictionary: {A: b}
          - run-shell:
              script: echo hi
              environment: ${previous}
        """, status: 0),
    // In a shared file, a value is an error, and a literal one is a warning that names what reads it.
    Case(
      golden: "injection-environment-shared",
      steps: """
          - run-shell:
              script: echo hi
              environment:
                PROMPT_COMMAND: ${input.x}
                LD_PRELOAD: /tmp/evil.so
                LANG: C
          - run-shell: {command: [env, LANG=C, BASH_ENV=/tmp/evil.sh, bash, ./build.sh]}
        """, shared: true, status: 2),
  ]

  @Test(arguments: cases)
  func validate(_ check: Case) async throws {
    let file = "flow: 1\ninput:\n  \(check.input): {type: text, default: World}\nsteps:\n" + check.steps
    let result = try await RunShellTests.shell(file + (check.shared ? Self.shared : "")).run(["validate", "shell.yml"])
    if let status = check.status { #expect(result.status == status) }
    assertGolden(transcript(result), named: "run-shell/\(check.golden).txt")
  }

  /// A long command of wrappers and interpreters is read in time proportional to its length.
  @Test func aHugeCommandIsReadInLinearTime() async throws {
    let items = Array(repeating: "env, find, -exec, sh, -c, true, sh", count: 3000).joined(separator: ", ")
    let clock = ContinuousClock()
    let start = clock.now
    let result = try await RunShellTests.shell(
      """
      flow: 1
      input:
        x: {type: text, default: World}
      steps:
        - run-shell: {command: [\(items), bash, -c, "${input.x}"]}
      """
    ).run(["validate", "shell.yml"])
    #expect(result.error.contains("'${input.x}' is pasted into the code 'bash -c' runs"))
    #expect(clock.now - start < .seconds(20))
  }
}
