import FlowTestSupport
import Foundation
import Testing

/// Values written out in a step that the run would refuse are refused by `flow validate`, at their
/// column: links `open-url` and `get-url` do not take, and regular expressions that do not compile.
struct LiteralCheckTests {
  @Test func linksAndPatternsAreCheckedBeforeTheRun() async throws {
    let result = try await RunShellTests.shell(
      """
      flow: 1
      steps:
        - open-url: file:///etc/passwd
        - open-url: "vscode://vscode.git/clone?url=x"
        - open-url: javascript:alert(1)
        - open-url: mailto:someone@example.com
        - open-url: https://example.com
        - get-url: file:///etc/passwd
        - match-text: {text: abc, pattern: "a(b"}
        - replace-text: {text: abc, find: "[a", regular-expression: true}
        - replace-text: {text: abc, find: "[a"}
        - filter: {list: [a, b], comparison: matches, value: "*a"}
        - if: ${previous} matches "(x"
          then:
            - show: yes
      """
    ).run(["validate", "shell.yml"])
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "validate/literal-problems.txt")
  }

  /// A condition's pattern is checked by the engine the run matches it with (ICU's, `TextPattern`):
  /// `a{,3}` is no pattern to ICU, `\g{1}` is one.
  @Test func aConditionsPatternIsCheckedInTheRunsDialect() async throws {
    func validate(_ pattern: String) async throws -> (status: Int32, text: String) {
      let result = try await RunShellTests.shell(
        """
        flow: 1
        steps:
          - text: aa
          - if: ${previous} matches '\(pattern)'
            then:
              - show: matched
        """
      ).run(["validate", "shell.yml"])
      return (result.status, result.error)
    }
    let refused = try await validate("a{,3}")
    #expect(refused.status == 2)
    #expect(refused.text.contains("shell.yml:4:29: error: 'a{,3}' is not a valid regular expression"))
    #expect(try await validate(#"(a)\g{1}"#).status == 0)
  }
}
