import FlowTestSupport
import Foundation
import Testing

/// Every recursive parser has a depth limit, found by `flow validate` at the place, and none crashes at ten
/// times its limit (issue 16, item 7).
struct RecursionLimitTests {
  private func validate(_ text: String) async throws -> (status: Int32, output: String, error: String) {
    let directory = try temporaryDirectory()
    try text.write(to: directory.appendingPathComponent("deep.yml"), atomically: true, encoding: .utf8)
    return await Machine.run(["validate", "deep.yml"], in: directory)
  }

  /// `flow validate` said "valid" about this, and the run died of SIGSEGV.
  @Test func calculateTenThousandParentheses() async throws {
    let expression = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
    let result = try await validate("flow: 1\nsteps:\n  - calculate: \"\(expression)\"\n")
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "validate/calculate-too-deep.txt")
  }

  @Test func conditionParenthesesTenTimesTheLimit() async throws {
    let condition = String(repeating: "(", count: 640) + "${a}" + String(repeating: ")", count: 640)
    let result = try await validate(
      "flow: 1\nsteps:\n  - text: x\n    as: a\n  - show: y\n    when: \"\(condition)\"\n")
    #expect(result.status == 2)
    #expect(result.error.contains("the condition nests too deeply"))
  }

  /// A chain of 'and's is a tree as deep as it is long.
  @Test func conditionJoinsTenTimesTheLimit() async throws {
    let condition = Array(repeating: "${a}", count: 2_561).joined(separator: " and ")
    let result = try await validate(
      "flow: 1\nsteps:\n  - text: x\n    as: a\n  - show: y\n    when: \"\(condition)\"\n")
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "validate/condition-too-many-joins.txt")
  }
}
