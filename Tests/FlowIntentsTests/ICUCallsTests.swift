import Foundation
import Testing

@testable import FlowIntents

/// TextPattern and UnicodeDateFormat call ICU directly; Foundation's NSRegularExpression and DateFormatter,
/// which wrap the same ICU, give the same answers on the same input.
struct ICUCallsTests {
  static let patterns = [
    "a", "a*", "^", "$", "\\b", "(a)(b)?", "(?<year>\\d{4})-(?<month>\\d\\d)", "[à-ü]+", "\\p{L}+", "x|", "(?i)É",
    "😀+", ".", "(a|ab)(c|bcd)(d*)", "a{2,3}", "(?=b)", "\\s+", "((((((((((a))))))))))", "\\$",
  ]
  static let texts = [
    "", "a", "aaa", "ab abc", "2026-11 and 1999-01", "éàü Ü", "x😀😀y", "AbC\nabc", "Émile émile", "a\u{301}b",
    "((a))", "$5", "aaaaaaaaaaa",
  ]

  @Test func matchesAsNSRegularExpression() throws {
    for pattern in Self.patterns {
      for caseSensitive in [true, false] {
        let expression = try NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
        let ours = try TextPattern(pattern, caseSensitive: caseSensitive)
        for text in Self.texts {
          let source = text as NSString
          let theirs = expression.matches(in: text, range: NSRange(location: 0, length: source.length))
          #expect(try ours.matches(in: text) == theirs.map { source.substring(with: $0.range) }, "\(pattern) \(text)")
          #expect(try ours.hasMatch(in: text) == !theirs.isEmpty)
          for template in ["<$0>", "$1$2", "$12", "\\$1", "$", "a\\", "\\\\", "[$3]"] {
            let replaced = expression.stringByReplacingMatches(
              in: text, range: NSRange(location: 0, length: source.length), withTemplate: template)
            #expect(try ours.replacing(in: text, with: template) == replaced, "\(pattern) \(text) \(template)")
          }
        }
      }
    }
  }

  @Test func namedGroupsReadAsNSRegularExpression() throws {
    let pattern = "(?<year>\\d{4})-(?<month>\\d\\d)?(?<day>x)?"
    let expression = try NSRegularExpression(pattern: pattern)
    let text = "on 😀 2026-11 and 1999-"
    let match = try #require(
      expression.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)))
    let groups = ["year", "month", "day"].map { name in
      let range = match.range(withName: name)
      return range.location == NSNotFound ? "" : (text as NSString).substring(with: range)
    }
    let ours = try #require(
      try TextPattern(pattern, caseSensitive: true).firstMatch(in: text, groups: ["year", "month", "day"]))
    #expect(ours.text == (text as NSString).substring(with: match.range))
    #expect(ours.groups == groups)
  }

  @Test func literalPatternsEscapeAsNSRegularExpression() throws {
    let ascii = String(String.UnicodeScalarView((32...126).compactMap(Unicode.Scalar.init)))
    #expect(TextPattern.escaped(ascii) == NSRegularExpression.escapedPattern(for: ascii))
    #expect(try TextPattern(literal: ascii + "é", caseSensitive: true).matches(in: "<" + ascii + "é>") == [ascii + "é"])
  }

  @Test func invalidPatternsAreThoseNSRegularExpressionRefuses() {
    for pattern in ["(", "a{,3}", "[z-a]", "*", "(?<1>a)", "\\", "a)", "(?<name>a)(?<name>b)", "ok", "a{2}"] {
      let refused = (try? NSRegularExpression(pattern: pattern)) == nil
      #expect((TextPattern.problem(.text(pattern)) != nil) == refused, "\(pattern)")
    }
  }

  /// Where NSRegularExpression found nothing, an evaluation ICU gives up on fails in ICU's words.
  @Test func aMatchICUGivesUpOnFailsTheStep() throws {
    let text = String(repeating: "ab", count: 2_000_000)
    let error = #expect(throws: AppIntentError.self) {
      try TextPattern("(?:a|b)*c", caseSensitive: true).hasMatch(in: text)
    }
    #expect(error?.message == "matching '(?:a|b)*c' failed: U_REGEX_STACK_OVERFLOW", "\(String(describing: error))")
  }

  static let formats = [
    "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm",
    "yyyy-MM-dd",
  ]
  static let dateTexts = [
    "2026-11-21", "2026-11-21T14:30:00Z", "2026-11-21T14:30:00+02:00", "2026-11-21T14:30:00.250-05:30",
    "2026-11-21 14:30", "2026-02-30", "2026-13-01", "2026-11-21T25:00:00Z", "2026-1-2", "20261-11-21",
    "2026-11-21T14:30:00", "2026-11-21 14:30 ", "2026-11-21x", "0001-01-01", "9999-12-31T23:59:59Z",
  ]

  @Test func strictDatesReadAsDateFormatter() {
    for zone in ["UTC", "Europe/Paris", "Asia/Kolkata"] {
      for format in Self.formats {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = format
        formatter.isLenient = false
        let ours = UnicodeDateFormat(pattern: format, timeZone: zone)
        for text in Self.dateTexts {
          #expect(ours?.date(from: text) == formatter.date(from: text), "\(zone) \(format) \(text)")
        }
      }
    }
  }

  @Test func datesWriteAsDateFormatter() {
    let dates = [0, 1_795_264_200, -2_000_000_000.5, 1_000_000_000.999, 253_402_300_799].map(
      Date.init(timeIntervalSince1970:))
    for zone in ["UTC", "America/New_York", "Asia/Kolkata"] {
      for pattern in Self.formats + ["EEEE d MMMM y, h:mm a zzz", "QQQ w D", "'quoted' yy"] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = pattern
        // Foundation names UTC "GMT", and so does the TimeZone flow passes on.
        let ours = UnicodeDateFormat(pattern: pattern, timeZone: TimeZone(identifier: zone)!.identifier)
        for date in dates { #expect(ours?.string(from: date) == formatter.string(from: date), "\(zone) \(pattern)") }
      }
      let styles: [(UnicodeDateFormat.Style, DateFormatter.Style)] = [
        (.short, .short), (.medium, .medium), (.long, .long), (.full, .full),
      ]
      for (ours, theirs) in styles {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateStyle = theirs
        formatter.timeStyle = theirs
        let format = UnicodeDateFormat(
          dateStyle: ours, timeStyle: ours, locale: "en_US", timeZone: TimeZone(identifier: zone)!.identifier)
        for date in dates { #expect(format?.string(from: date) == formatter.string(from: date), "\(zone) \(theirs)") }
      }
    }
  }
}
