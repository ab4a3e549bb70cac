import FlowTestSupport
import Foundation
import Testing

/// Documentation/Chores.md's table of lines, recounted: each file chore of the gallery and each held-back
/// chore against its shell script, at most 2× the lines, each workflow valid and each script readable by
/// `sh -n`. The counting rules are the page's.
struct ChoreLineTests {
  static let root = testDirectory().appendingPathComponent("../..").standardizedFileURL

  struct Row {
    var chore: String
    var flowLines: Int
    var shellLines: Int
    var ratio: String
    var workflow: String
    var script: String
  }

  /// The table's rows, with the workflow's and the script's paths from the repository's root.
  static func rows() throws -> [Row] {
    let page = try String(contentsOf: root.appendingPathComponent("Documentation/Chores.md"), encoding: .utf8)
    let link = try Regex(#"\]\(([^)]+)\)"#)
    return page.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| chore") }.compactMap {
      line -> Row? in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 6, let flow = Int(cells[1]), let shell = Int(cells[2]),
        let workflow = cells[4].firstMatch(of: link)?.output[1].substring,
        let script = cells[5].firstMatch(of: link)?.output[1].substring
      else { return nil }
      func path(_ link: Substring) -> String {
        root.appendingPathComponent("Documentation").appendingPathComponent(String(link)).standardizedFileURL.path
      }
      return Row(
        chore: cells[0], flowLines: flow, shellLines: shell, ratio: cells[3], workflow: path(workflow),
        script: path(script))
    }
  }

  /// Lines that do something, of a workflow: not blank, not only a comment, not a presentation key.
  static func flowLines(_ text: String) -> Int {
    text.split(separator: "\n").filter { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return false }
      return !["name:", "description:", "icon:", "color:", "phrases:"].contains { line.hasPrefix($0) }
    }.count
  }

  /// Lines that do something, of a shell script: not blank, not a comment, but its crontab line.
  static func shellLines(_ text: String) -> Int {
    text.split(separator: "\n").filter { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return !trimmed.isEmpty && (!trimmed.hasPrefix("#") || trimmed.hasPrefix("# crontab:"))
    }.count
  }

  @Test func theTableHasEveryFileChoreOfTheGalleryAndTwoHeldBack() throws {
    let rows = try Self.rows()
    let workflows = rows.map { URL(fileURLWithPath: $0.workflow).lastPathComponent }
    for chore in ["clean-downloads.yml", "file-pdfs.yml", "back-up-documents.yml"] {
      #expect(workflows.contains(chore), "Chores.md has no row for workflows/\(chore)")
    }
    #expect(rows.filter { $0.chore.hasSuffix("(held back)") }.count == 2)
  }

  @Test func everyRowIsRecountedAndWithinTwiceTheShell() throws {
    let rows = try Self.rows()
    #expect(rows.count == 5)
    for row in rows {
      let flow = Self.flowLines(try String(contentsOfFile: row.workflow, encoding: .utf8))
      let shell = Self.shellLines(try String(contentsOfFile: row.script, encoding: .utf8))
      #expect(flow == row.flowLines, "\(row.chore): \(row.workflow) has \(flow) lines, the table says \(row.flowLines)")
      #expect(
        shell == row.shellLines, "\(row.chore): \(row.script) has \(shell) lines, the table says \(row.shellLines)")
      #expect(String(format: "%.2f", Double(flow) / Double(shell)) == row.ratio, "\(row.chore): the ratio")
      #expect(flow <= 2 * shell, "\(row.chore): \(flow) lines of flow for \(shell) of shell is more than 2×")
    }
  }

  @Test func everyWorkflowIsValidAndEveryScriptParses() async throws {
    for row in try Self.rows() {
      let result = await Machine.run(["validate", row.workflow], in: Self.root)
      #expect(result.status == 0, "\(row.workflow): \(result.output)\(result.error)")
      #expect(!result.error.contains("warning"), "\(row.workflow): \(result.error)")
      let shell = Process()
      shell.executableURL = URL(fileURLWithPath: "/bin/sh")
      shell.arguments = ["-n", row.script]
      try shell.run()
      shell.waitUntilExit()
      #expect(shell.terminationStatus == 0, "\(row.script) does not parse")
    }
  }

  /// The counting rules themselves, on lines of each kind.
  @Test func theCountingRules() {
    #expect(Self.flowLines("flow: 1\nname: A\ndescription: b\n\n# why\nsteps:\n  - show: hi  # note\n") == 3)
    #expect(Self.shellLines("#!/bin/sh\n# what\n# crontab: 0 9 * * * sh x.sh\n\necho hi\n") == 2)
  }
}
