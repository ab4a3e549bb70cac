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
