import FlowCLI
import FlowTestSupport
import Foundation
import Testing

/// `flow completions`: the bash script through bash's own completion machinery (`complete -p` gives the
/// function, which is called with `COMP_WORDS`/`COMP_CWORD` as readline would), with the real `flow` on
/// the PATH answering the questions only it can (library names, action ids).
struct CompletionTests {
  static let flowDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  static let examples = testDirectory().appendingPathComponent("../../examples").standardizedFileURL

  /// What bash offers for each command line (the cursor at its end), one list per line.
  static func complete(_ lines: [String], in directory: URL, environment: [String: String] = [:]) throws -> [[String]] {
    let script = """
      source <(flow completions bash) || exit 3
      function=$(complete -p flow | sed -E 's/.* -F ([^ ]+) .*/\\1/')
      while IFS= read -r line; do
        COMP_LINE="$line"; COMP_POINT=${#line}
        read -ra COMP_WORDS <<< "$line"
        [[ "$line" == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        COMPREPLY=()
        "$function" flow "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[*]}"
      done
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["--norc", "--noprofile", "-c", script]
    process.currentDirectoryURL = directory
    process.environment = [
      "PATH": "\(flowDirectory.path):/usr/bin:/bin", "HOME": directory.path, "NO_COLOR": "1",
    ].merging(environment) { $1 }
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
      $0.split(separator: " ").map(String.init).sorted()
    }
  }

  @Test func bashCompletesCommandsOptionsActionsAndWorkflows() throws {
    let home = try temporaryDirectory()
    let library = home.appendingPathComponent("data/flow/workflows")
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    for name in ["morning-digest.yml", "mine.yaml", "notes.txt"] {
      try "flow: 1\nsteps: []\n".write(to: library.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    let offered = try Self.complete(
      [
        "flow r", "flow run --dr", "flow run --backend ", "flow actions get-u", "flow actions raindrop.save",
        "flow run m", "flow validate he", "flow run inv", "flow auth l", "flow completions ", "flow show mor",
        "flow remove m", "flow export mor", "flow runs list mor", "flow schedule install systemd mor",
      ], in: Self.examples, environment: ["XDG_DATA_HOME": home.appendingPathComponent("data").path])
    #expect(
      offered == [
        ["remove", "run", "runs"], ["--dry-run"], ["local", "raindrop"], ["get-url", "get-url-component"],
        ["raindrop.save-bookmark"],
        ["magic-variables.yml", "mcp/", "menu.yml", "mine", "morning-digest"], ["hello.yml"], ["invalid/"],
        ["login", "logout"], ["bash", "fish", "zsh"], ["morning-digest"], ["mine", "morning-digest"],
        ["morning-digest"], ["morning-digest"], ["morning-digest"],
      ])
  }

  /// The script is generated from the command tree: every subcommand there is offered, including those
  /// added after this test was written.
  @Test func everySubcommandInTheTreeIsOffered() throws {
    let offered = try Self.complete(["flow "], in: Self.examples)
    let subcommands = FlowCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" }
    #expect(!subcommands.isEmpty)
    for name in subcommands { #expect(offered.first?.contains(name) == true, "'\(name)' is not completed") }
  }

  @Test func zshAndFishScriptsNameEverySubcommand() async throws {
    let directory = try temporaryDirectory()
    for shell in ["zsh", "fish"] {
      let result = await Machine.run(["completions", shell], in: directory)
      #expect(result.status == 0)
      #expect(result.output.contains(shell == "zsh" ? "#compdef flow" : "complete -c 'flow'"))
      for subcommand in FlowCommand.configuration.subcommands {
        let name = subcommand.configuration.commandName ?? ""
        #expect(result.output.contains(name), "\(shell) script lacks '\(name)'")
      }
    }
  }
}
