import FlowCLI
import FlowSession
import FlowTestSupport
import Foundation
import Testing

/// `flow manual`: the man page, read by the real `man`.
struct ManualTests {
  /// `man -l` on the page flow writes, with groff's warnings on; returns what man shows and its warnings.
  static func readWithMan() async throws -> (page: String, warnings: String) {
    let directory = try temporaryDirectory()
    let console = BufferConsole()
    let context = SessionContext(
      console: console, environment: ["NO_COLOR": "1"], workingDirectory: directory.path, clock: FixedTime.clock)
    #expect(await FlowCommand.main(arguments: ["manual"], context: context) == 0)
    let file = directory.appendingPathComponent("flow.1")
    try console.output.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/man")
    process.arguments = ["--warnings", "-l", file.path]
    process.environment = ["PATH": "/usr/bin:/bin", "MANWIDTH": "80", "MANPAGER": "cat", "LANG": "C.UTF-8"]
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let page = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return (page, warnings)
  }

  @Test func manReadsThePageWithoutWarnings() async throws {
    let (page, warnings) = try await Self.readWithMan()
    #expect(warnings == "")
    assertGolden(page, named: "help/manual.txt")
  }

  /// Generated from the command tree: every subcommand has its section, including those added later.
  @Test func everySubcommandHasASection() async throws {
    let (page, _) = try await Self.readWithMan()
    for subcommand in FlowCommand.configuration.subcommands {
      let name = subcommand.configuration.commandName ?? ""
      #expect(page.contains("\n   flow \(name)\n"), "no section for 'flow \(name)'")
    }
    for heading in ["NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT"] {
      #expect(page.contains("\n\(heading)\n"))
    }
  }
}
