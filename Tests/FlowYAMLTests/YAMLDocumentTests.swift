import FlowDiagnostics
import Testing

@testable import FlowYAML

/// Loads `text` as a file named `test.yml`.
private func load(_ text: String, limits: YAMLLimits = .workflow) -> YAMLDocument {
  YAMLDocument.load(SourceFile(path: "test.yml", text: text), limits: limits)
}

private func at(_ line: Int, _ column: Int) -> FlowDiagnostics.SourceLocation {
  FlowDiagnostics.SourceLocation(line: line, column: column)
}

struct YAMLDocumentTests {
  // MARK: - Node kinds and spans

  @Test func mappingKeepsKeysInOrderWithSpansOfKeysAndValues() throws {
    let document = load("name: Save\nflow: 1\nsteps: []\n")
    let mapping = try #require(document.root?.mapping)
    #expect(mapping.keys == ["name", "flow", "steps"])
    let name = try #require(mapping["name"])
    #expect(name.key.span.start == at(1, 1))
    #expect(name.key.span.end == at(1, 5))
    #expect(name.value.span.start == at(1, 7))
    #expect(name.value.span.end == at(1, 11))
    #expect(name.value.span.file.path == "test.yml")
    #expect(mapping.span.start == at(1, 1))
    // A block mapping ends at its last value, not at whatever follows it.
    #expect(mapping.span.end == at(3, 10))
    #expect(document.diagnostics.isEmpty)
  }

  /// A UTF-8 byte-order mark before the first key is allowed (WorkflowFormat.md) and takes no column:
  /// the first key is not taken as indented, and its spans are where a person sees them.
  @Test func aByteOrderMarkBeforeTheFirstKeyIsAllowed() throws {
    let file = SourceFile(path: "test.yml", bytes: [0xEF, 0xBB, 0xBF] + Array("flow: 1\nsteps: []\n".utf8))
    // The excerpt of line 1 is what a person sees, so that a caret at column 1 is under the key.
    #expect(file.line(1) == "flow: 1")
    #expect(file.line(2) == "steps: []")
    let document = YAMLDocument.load(file)
    #expect(document.diagnostics.all.isEmpty)
    let mapping = try #require(document.root?.mapping)
    #expect(mapping.keys == ["flow", "steps"])
    #expect(try #require(mapping["flow"]).key.span.start == at(1, 1))
    #expect(try #require(mapping["steps"]).key.span.start == at(2, 1))
  }

  @Test func sequencesBlockAndFlow() throws {
    let document = load("a:\n  - one\n  - two\nb: [x, y]\n")
    let mapping = try #require(document.root?.mapping)
    let block = try #require(mapping["a"]?.value.sequence)
    #expect(block.items.compactMap(\.scalar?.value) == ["one", "two"])
    #expect(!block.isFlow)
    #expect(block.span.start == at(2, 3))
    #expect(block.span.end == at(3, 8))
    let flow = try #require(mapping["b"]?.value.sequence)
    #expect(flow.isFlow)
    #expect(flow.span.start == at(4, 4))
    #expect(flow.span.end == at(4, 10))
    #expect(flow.items[1].span.start == at(4, 8))
  }

  @Test func nestedMappingInSequence() throws {
    let document = load("steps:\n  - show:\n      text: hi\n    as: greeting\n")
    let steps = try #require(document.root?.mapping?["steps"]?.value.sequence)
    let step = try #require(steps.items.first?.mapping)
    #expect(step.keys == ["show", "as"])
    #expect(step["as"]?.key.span.start == at(4, 5))
    #expect(step["show"]?.value.mapping?["text"]?.value.span.start == at(3, 13))
  }

  @Test func multiLineAndBlockScalars() throws {
    let text = """
      literal: |
        line one
        line two
      folded: >
        one
        two
      plain: first
        second
      quoted: "a
        b"
      """
    let mapping = try #require(load(text + "\n").root?.mapping)
    let literal = try #require(mapping["literal"]?.value.scalar)
    #expect(literal.value == "line one\nline two\n")
    #expect(literal.style == .literal)
    #expect(literal.span.start == at(1, 10))
    let folded = try #require(mapping["folded"]?.value.scalar)
    #expect(folded.value == "one two\n")
    #expect(folded.style == .folded)
    let plain = try #require(mapping["plain"]?.value.scalar)
    #expect(plain.value == "first second")
    #expect(plain.span.start == at(7, 8))
    #expect(plain.span.end == at(8, 9))
    let quoted = try #require(mapping["quoted"]?.value.scalar)
    #expect(quoted.value == "a b")
    #expect(quoted.span.start == at(9, 9))
    #expect(quoted.span.end == at(10, 5))
  }

  @Test func columnsCountUnicodeScalars() throws {
    let mapping = try #require(load("name: “Grüße” 🎉\nnext: x\n").root?.mapping)
    let name = try #require(mapping["name"]?.value.scalar)
    #expect(name.span.end == at(1, 16))
  }

  // MARK: - Typing

  @Test(arguments: [
    ("true", ScalarValue.bool(true)), ("false", .bool(false)),
    ("yes", .string("yes")), ("no", .string("no")), ("on", .string("on")), ("True", .string("True")),
    ("null", .null), ("~", .null), ("", .null), ("NULL", .string("NULL")),
    ("42", .int(42)), ("-7", .int(-7)), ("+3", .int(3)), ("0777", .int(777)),
    ("1.5", .double(1.5)), (".5", .double(0.5)), ("1e3", .double(1000)), ("-2.5E-1", .double(-0.25)),
    ("1.2.3", .string("1.2.3")), ("0x1F", .string("0x1F")), ("1_000", .string("1_000")),
    ("12abc", .string("12abc")), (".", .string(".")), ("-x", .string("-x")), ("1e", .string("1e")),
    ("99999999999999999999", .double(1e20)),
  ])
  func plainScalarTyping(text: String, expected: ScalarValue) throws {
    let value = try #require(load("v: \(text)\n").root?.mapping?["v"]?.value.scalar)
    #expect(value.resolved == expected)
  }

  @Test(arguments: ["'true'", "\"42\"", "'null'", "|\n  true"])
  func quotedAndBlockScalarsAreAlwaysText(text: String) throws {
    let value = try #require(load("v: \(text)\n").root?.mapping?["v"]?.value.scalar)
    guard case .string = value.resolved else {
      Issue.record("expected text, got \(value.resolved)")
      return
    }
  }

  // MARK: - Anchors, aliases and merge keys

  @Test func aliasesExpandToTheAnchoredNode() throws {
    let document = load("base: &b [1, 2]\ncopy: *b\nname: &n hello\nagain: *n\n")
    let mapping = try #require(document.root?.mapping)
    let copy = try #require(mapping["copy"]?.value.sequence)
    #expect(copy.items.compactMap(\.scalar?.value) == ["1", "2"])
    // The expanded node keeps the anchored node's span (which libyaml starts at the anchor): errors
    // point where the value is written.
    #expect(copy.span.start == at(1, 7))
    #expect(mapping["again"]?.value.scalar?.value == "hello")
    #expect(document.diagnostics.isEmpty)
  }

  @Test func mergeKeysAddMissingEntriesAndExplicitKeysWin() throws {
    let text = """
      defaults: &d
        retry: 3
        timeout: 10s
      other: &o
        timeout: 5s
        when: always
      step:
        <<: [*d, *o]
        retry: 5
      """
    let step = try #require(load(text + "\n").root?.mapping?["step"]?.value.mapping)
    #expect(step.keys == ["retry", "timeout", "when"])
    #expect(step["retry"]?.value.scalar?.value == "5")
    #expect(step["timeout"]?.value.scalar?.value == "10s")
    #expect(step["when"]?.value.scalar?.value == "always")
  }

  @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
    let mapping = try #require(load("'<<': x\n").root?.mapping)
    #expect(mapping.keys == ["<<"])
  }

  @Test func mergeOfAScalarIsAnError() {
    let document = load("a: &x 1\nb:\n  <<: *x\n")
    #expect(document.diagnostics.map(\.code) == [.invalidMerge])
  }

  // MARK: - Problems

  @Test func duplicateKeysAreAllReportedWithBothPlaces() throws {
    let document = load("name: a\nflow: 1\nname: b\nflow: 2\n")
    let diagnostics = document.diagnostics.all
    #expect(diagnostics.map(\.code) == [.duplicateKey, .duplicateKey])
    #expect(diagnostics[0].message == "duplicate key 'name'")
    #expect(diagnostics[0].span?.start == at(3, 1))
    #expect(diagnostics[0].notes.first?.span?.start == at(1, 1))
    // The first value is kept.
    #expect(document.root?.mapping?["name"]?.value.scalar?.value == "a")
  }

  @Test func duplicateKeysInLargeMappingsAreFound() throws {
    let keys = (0..<100).map { "key\($0): \($0)" }.joined(separator: "\n")
    let document = load(keys + "\nkey42: again\n")
    #expect(document.diagnostics.map(\.code) == [.duplicateKey])
    #expect(document.diagnostics.all.first?.notes.first?.span?.start == at(43, 1))
  }

  @Test func aliasBombStopsAtTheExpansionBudget() {
    var lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for level in 1...9 {
      let previous = Character(UnicodeScalar(UInt8(96 + level)))
      let name = Character(UnicodeScalar(UInt8(97 + level)))
      lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
    }
    let document = load(lines.joined(separator: "\n") + "\n")
    #expect(document.diagnostics.map(\.code) == [.aliasExpansionLimit])
  }

  @Test func recursiveAliasIsAnError() {
    let document = load("a: &x [1, *x]\n")
    #expect(document.diagnostics.map(\.code) == [.recursiveAlias])
  }

  @Test func depthLimitStopsDeepNesting() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    let document = load(deep)
    #expect(document.diagnostics.map(\.code) == [.nestingTooDeep])
    #expect(document.diagnostics.all.first?.span?.start == at(1, 257))
  }

  @Test func sizeLimits() {
    let limits = YAMLLimits(maxFileSize: 100, maxScalarSize: 10, maxDepth: 8, maxAliasExpansion: 10)
    #expect(load(String(repeating: "a", count: 101), limits: limits).diagnostics.map(\.code) == [.fileTooLarge])
    let scalar = load("v: " + String(repeating: "a", count: 11), limits: limits)
    #expect(scalar.diagnostics.map(\.code) == [.scalarTooLarge])
    #expect(scalar.diagnostics.all.first?.span?.start == at(1, 4))
  }

  @Test func secondDocumentIsAnError() {
    let document = load("a: 1\n---\nb: 2\n")
    #expect(document.diagnostics.map(\.code) == [.multipleDocuments])
    #expect(document.diagnostics.all.first?.span?.start == at(2, 1))
  }

  @Test func emptyFileHasNoRoot() {
    #expect(load("").root == nil)
    #expect(load("# only a comment\n").root == nil)
    #expect(load("").diagnostics.isEmpty)
  }

  @Test func tagsAreRefused() {
    #expect(load("v: !!str 42\n").diagnostics.map(\.code) == [.unsupportedTag])
  }

  @Test func invalidUTF8IsReportedAtItsByte() {
    let file = SourceFile(path: "bad.yml", bytes: Array("name: ok\nx: ".utf8) + [0xC3, 0x28] + Array("\n".utf8))
    let document = YAMLDocument.load(file)
    #expect(document.diagnostics.map(\.code) == [.invalidEncoding])
    #expect(document.diagnostics.all.first?.span?.start == at(2, 4))
  }

  @Test(arguments: [
    ("a:\n\tb: 1\n", "tabs cannot be used for indentation", 2, 1),
    ("a: \"open\nb: 1\n", "this quoted text has no closing \"", 1, 4),
    ("a: 1\n b: 2\n", "unexpected ':' here", 2, 3),
    ("a: [1, 2\nb: c\n", "expected ',' or ']' to continue the list", 2, 2),
    ("a: \"\\q\"\n", "unknown escape sequence in double-quoted text", 1, 5),
    ("a: @x\n", "a plain value cannot start with '@'", 1, 4),
  ])
  func libyamlErrorsAreReworded(text: String, message: String, line: Int, column: Int) throws {
    let diagnostic = try #require(load(text).diagnostics.all.first)
    #expect(diagnostic.code == .yamlSyntax)
    #expect(diagnostic.message == message)
    #expect(diagnostic.span?.start == at(line, column))
  }
}
