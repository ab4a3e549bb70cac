import FlowTestSupport
import Foundation
import Testing

@testable import FlowModel

/// Documentation/WorkflowFormat.md describes what ``WorkflowFormat`` declares: a key, block or magic
/// variable added to the code fails here until the page has it too.
struct WorkflowFormatTests {
  static let page = Result {
    try String(
      contentsOf: testDirectory().appendingPathComponent("../../Documentation/WorkflowFormat.md"), encoding: .utf8)
  }

  @Test func theTablesListEveryKeyInOrder() throws {
    let page = try Self.page.get()
    #expect(Self.firstColumn(of: "## Top-level keys", in: page) == WorkflowFormat.keys.map(\.name))
    #expect(Self.firstColumn(of: "## Inputs", in: page) == WorkflowFormat.inputKeys.map(\.name))
    #expect(Self.firstColumn(of: "## Steps", in: page) == WorkflowFormat.stepKeys.map(\.name))
  }

  @Test func everyBlockAndItsKeysAreNamed() throws {
    let paragraph = try #require(Self.paragraph(startingWith: "Blocks:", in: try Self.page.get()))
    for block in WorkflowFormat.blocks {
      for word in [block.keyword] + block.keys.map(\.name) {
        #expect(paragraph.contains("`\(word)`"), "'\(block.keyword)': '\(word)' is not in the page's list of blocks")
      }
    }
  }

  /// Documentation/Automations.md's table has a row per kind of trigger, in order, naming every key of
  /// its long form and every property it gives `${trigger}`.
  @Test func theTriggerTableHasEveryKindKeyAndProperty() throws {
    let page = try String(
      contentsOf: testDirectory().appendingPathComponent("../../Documentation/Automations.md"), encoding: .utf8)
    #expect(Self.firstColumn(of: "## The triggers", in: page) == TriggerFormat.kinds.map(\.name))
    let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
    for kind in TriggerFormat.kinds {
      let row = try #require(rows.first { $0.hasPrefix("| `\(kind.name)` |") }, "no row for '\(kind.name)'")
      for key in kind.keys where kind.id != .schedule {
        #expect(row.contains(key.name), "'\(kind.name)': its key '\(key.name)' is not in its row")
      }
      for property in kind.properties {
        #expect(row.contains("`\(property.name)`"), "'\(kind.name)': '${trigger.\(property.name)}' is not in its row")
      }
    }
  }

  @Test func everyMagicVariableIsNamed() throws {
    let paragraph = try #require(Self.paragraph(startingWith: "Built-in names:", in: try Self.page.get()))
    for variable in MagicVariable.allCases {
      #expect(paragraph.contains("`\(variable.rawValue)"), "'\(variable)' is not in the page's built-in names")
    }
  }

  /// `MagicVariable.init(_:)` spells the names again, for speed: it must agree with the cases.
  @Test func magicVariablesAreFoundByName() {
    for variable in MagicVariable.allCases { #expect(MagicVariable(variable.rawValue) == variable) }
    #expect(MagicVariable("saved") == nil)
  }

  /// The first cell of each row of the first table under `heading`, without its backticks.
  private static func firstColumn(of heading: String, in page: String) -> [String] {
    guard let start = page.range(of: "\n\(heading)\n") else { return [] }
    let section = page[start.upperBound...]
    let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
    return section[..<end].split(separator: "\n").filter { $0.hasPrefix("| `") }.map { row in
      String(row.dropFirst(3).prefix { $0 != "`" })
    }
  }

  private static func paragraph(startingWith opening: String, in page: String) -> String? {
    guard let start = page.range(of: "\n\(opening)") else { return nil }
    let rest = page[start.lowerBound...].dropFirst()
    return String(rest.prefix(upTo: rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex))
  }
}
