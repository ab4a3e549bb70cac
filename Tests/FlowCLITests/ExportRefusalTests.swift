import FlowTestSupport
import Foundation
import Testing

/// `flow export` refusing a file: what the person can fix is said as theirs to fix.
struct ExportRefusalTests {
  /// A value pasted into a script is a warning in a person's own file and an error in a shared one:
  /// exporting says to fix it, at its place in the person's file, rather than blame the export.
  @Test func exportingAFileWithAnInjectionWarningSaysToFixIt() async throws {
    let machine = try Machine()
    try machine.write(
      "inj.yml", "flow: 1\nname: Inj\ninput:\n  name: text\nsteps:\n  - run-shell: \"echo ${input.name}\"\n")
    let result = await machine.run(["export", "inj.yml", "-o", "out.yml"])
    #expect(result.status == 2)
    #expect(!FileManager.default.fileExists(atPath: machine.directory.appendingPathComponent("out.yml").path))
    assertGolden(transcript(result), named: "export/injection-warning.txt")
  }
}
