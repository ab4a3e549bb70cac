import FlowDiagnostics
import FlowYAML
import Testing

@testable import FlowModel

/// Parses the value of `v:` in a one-line document as a template.
private func template(_ yamlValue: String) throws -> (Template, Diagnostics) {
  let document = YAMLDocument.load(SourceFile(path: "t.yml", text: "v: \(yamlValue)\n"))
  var diagnostics = Diagnostics()
  let scalar = try #require(document.root?.mapping?["v"]?.value.scalar)
  return (Template.parse(scalar, into: &diagnostics), diagnostics)
}

struct TemplateTests {
  @Test func wholeReferenceKeepsItsPathAndSpan() throws {
    let (parsed, diagnostics) = try template("${saved.link.host}")
    #expect(diagnostics.isEmpty)
    let reference = try #require(parsed.wholeReference)
    #expect(reference.root == "saved")
    #expect(reference.path == [.property("link"), .property("host")])
    #expect(reference.span.start == at(1, 4))
    #expect(reference.span.end == at(1, 22))
  }

  @Test func referencesInsideTextHaveExactSpans() throws {
    let (parsed, _) = try template("\"Saved “${saved.title}” (${items[2].name})\"")
    #expect(parsed.wholeReference == nil)
    let references = parsed.references
    #expect(references.map(\.description) == ["saved.title", "items[2].name"])
    // The value starts after the opening quote at column 5.
    #expect(references[0].span.start == at(1, 12))
    #expect(references[0].span.end == at(1, 26))
    #expect(references[1].path == [.index(2), .property("name")])
  }

  /// Other tools' reference syntax, kept as text, with what it resembles for the checker's warning.
  @Test func lookalikesOfOtherToolsAreNoted() throws {
    let (parsed, diagnostics) = try template("\"$previous, {{ saved.title }}, {{x}} and costs $total.\"")
    #expect(diagnostics.isEmpty)
    #expect(parsed.literal == "$previous, {{ saved.title }}, {{x}} and costs $total.")
    #expect(parsed.lookalikes.map(\.written) == ["$previous", "{{ saved.title }}", "{{x}}", "$total"])
    #expect(parsed.lookalikes.map(\.reference.description) == ["previous", "saved.title", "x", "total"])
    #expect(parsed.lookalikes[1].reference.span.start == at(1, 16))
    #expect(parsed.lookalikes[1].reference.span.end == at(1, 33))
    // Money, `$${`, an unclosed `{{` and a real reference are not lookalikes.
    let (plain, _) = try template("\"$5, $${x}, {{ open and ${previous}\"")
    #expect(plain.lookalikes.isEmpty)
  }

  @Test func dollarDollarIsALiteral() throws {
    let (parsed, diagnostics) = try template("'costs $${price}'")
    #expect(diagnostics.isEmpty)
    #expect(parsed.literal == "costs ${price}")
  }

  @Test func unclosedAndMalformedReferencesAreReported() throws {
    let (_, unclosed) = try template("\"Hi ${name\"")
    #expect(unclosed.all.map(\.code) == [.malformedReference])
    #expect(unclosed.all.first?.span?.start == at(1, 8))
    let (_, malformed) = try template("${a..b}")
    #expect(malformed.all.map(\.code) == [.malformedReference])
    let (_, empty) = try template("${}")
    #expect(empty.all.map(\.code) == [.malformedReference])
  }

  @Test func blockScalarReferencesPointAtTheWholeScalar() throws {
    let document = YAMLDocument.load(SourceFile(path: "b.yml", text: "v: |\n  Hello ${name}\n"))
    var diagnostics = Diagnostics()
    let scalar = try #require(document.root?.mapping?["v"]?.value.scalar)
    let parsed = Template.parse(scalar, into: &diagnostics)
    #expect(parsed.references.first?.span == scalar.span)
  }
}

/// Date arithmetic after a reference: `${now - 7 days}`.
struct DateOffsetTests {
  @Test func anOffsetFollowsTheReference() throws {
    let (parsed, diagnostics) = try template("\"${now - 7 days} and ${file.modified + 1 hour} and ${week-ago}\"")
    #expect(diagnostics.isEmpty)
    let references = parsed.references
    #expect(references.map(\.description) == ["now - 7 days", "file.modified + 1 hour", "week-ago"])
    #expect(references[0].dateOffset == DateOffset(amount: -7, unit: .day, span: references[0].dateOffset!.span))
    #expect(references[1].dateOffset?.amount == 1)
    #expect(references[1].dateOffset?.unit == .hour)
    #expect(references[2].dateOffset == nil)
  }

  /// Each problem at its own column: the unit, the amount, a missing part.
  @Test func problemsAreReportedAtTheirColumn() throws {
    let (_, unit) = try template("${now - 7 dayz}")
    #expect(unit.all.map(\.message) == ["unknown unit 'dayz' in date arithmetic"])
    #expect(unit.all.first?.span?.start == at(1, 14))
    #expect(unit.all.first?.helps == ["did you mean 'days'?"])
    let (_, amount) = try template("${now - 7.5 days}")
    #expect(amount.all.map(\.message) == ["'7.5' is not a whole number of days"])
    #expect(amount.all.first?.span?.start == at(1, 12))
    let (_, large) = try template("${now + 100001 years}")
    #expect(large.all.map(\.code) == [.outOfRange])
    let (_, missing) = try template("${now - 7}")
    #expect(missing.all.map(\.message) == ["'- 7' needs an amount and a unit"])
    let (_, base) = try template("${ - 7 days}")
    #expect(base.all.map(\.code) == [.malformedReference])
  }
}
