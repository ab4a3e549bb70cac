import FlowIntents
import Foundation
import Testing

@testable import FlowBasics

/// A regular expression that backtracks catastrophically is stopped at its budget, or when the run is
/// cancelled, instead of running for seconds or years (issue 16, item 10).
struct TextPatternBudgetTests {
  /// `(a+)+$` on 36 a's and a b took 24 s; with one more a, twice that.
  static let hostile = String(repeating: "a", count: 40) + "b"

  @Test func matchingStopsAtTheBudget() throws {
    let pattern = try TextPattern("(a+)+$", caseSensitive: true, budget: .milliseconds(20))
    #expect {
      _ = try pattern.matches(in: Self.hostile)
    } throws: { error in
      AppIntentError.describe(error).message == "matching '(a+)+$' took longer than 20 ms, so it was stopped"
    }
  }

  @Test func replacingStopsAtTheBudget() throws {
    let pattern = try TextPattern("(a+)+$", caseSensitive: true, budget: .milliseconds(20))
    #expect(throws: AppIntentError.self) { _ = try pattern.replacing(in: Self.hostile, with: "x") }
  }

  @Test func cancellationStopsAMatch() async throws {
    let pattern = try TextPattern("(a+)+$", caseSensitive: true, budget: .seconds(3600))
    let task = Task { try pattern.matches(in: Self.hostile) }
    task.cancel()
    await #expect(throws: CancellationError.self) { _ = try await task.value }
  }

  /// Replacing by hand (to keep the budget) gives what `stringByReplacingMatches` gave.
  @Test func replacementsAreUnchanged() throws {
    let pattern = try TextPattern("(\\w+)@(\\w+)", caseSensitive: true)
    #expect(try pattern.replacing(in: "ada@home, bob@work.", with: "$2:$1") == "home:ada, work:bob.")
    #expect(try pattern.replacing(in: "héllo ✓ wörld", with: "x") == "héllo ✓ wörld")
    #expect(try TextPattern("ö", caseSensitive: true).replacing(in: "héllo ✓ wörld", with: "o") == "héllo ✓ world")
    for (find, text, template) in [("a*", "baaac", "-"), ("(é)(.)", "éa éb ✓é", "$2$1\\$"), ("^", "x\ny", ">")] {
      let expression = try NSRegularExpression(pattern: find)
      let expected = expression.stringByReplacingMatches(
        in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
      #expect(try TextPattern(find, caseSensitive: true).replacing(in: text, with: template) == expected)
    }
  }
}
