import FlowBasics
import FlowIntents
import FlowTestSupport
import Foundation

/// One run of a built-in action: the values a step gives, the person's answers, and what must happen.
struct BasicsExample: Sendable, CustomStringConvertible {
  enum Outcome: Sendable {
    case value(FlowValue)
    case dialog(String)
    /// The error's message, and its help line when given.
    case error(String, help: String? = nil)
    /// A value that depends on the machine (`device-details`), checked by a predicate.
    case satisfies(@Sendable (FlowValue) -> Bool)
  }

  var id: String
  var values: [String: FlowValue]
  var answers: [ScriptedPrompter.Answer] = []
  var outcome: Outcome

  init(_ id: String, _ values: [String: FlowValue], answers: [ScriptedPrompter.Answer] = [], _ outcome: Outcome) {
    self.id = id
    self.values = values
    self.answers = answers
    self.outcome = outcome
  }

  var isValid: Bool {
    if case .error = outcome { return false }
    return true
  }

  var description: String { "\(id) \(isValid ? "valid" : "invalid") \(values.keys.sorted())" }
}

let booksJSON: FlowValue = [
  .dictionary(["title": "Solaris", "year": 1961]), .dictionary(["title": "Dune", "year": 1965]),
  .dictionary(["title": "Ubik", "year": 1969]),
]

/// A valid and an invalid case for every basic action but `get-url`, which has its own suite against a
/// loopback server (GetURLIntentTests).
let basicsExamples: [BasicsExample] = [
  .init("show", ["content": ["a", "b"]], .dialog("a\nb")),
  .init("show", ["content": 1.5], .value(1.5)),
  .init("show", ["content": .nothing], .dialog("")),
  .init("show", [:], .error("'content' needs a value: Content")),

  .init("text", ["text": 42], .value("42")),
  .init("text", ["text": ["a", "b"]], .value("a\nb")),
  .init("text", [:], .error("'text' needs a value: Text")),

  .init("number", ["number": "1.5"], .value(1.5)),
  .init("number", ["number": "lots"], .error("expected a number for 'number', got 'lots'")),
  .init("number", ["number": .nothing], .error("'number' needs a value: Number")),

  .init("list", ["items": "one"], .value(["one"])),
  .init("list", ["items": [1, "a"]], .value([1, "a"])),
  .init("list", ["items": .nothing], .value([])),
  .init("list", [:], .error("'items' needs a value: Items")),

  .init("dictionary", ["entries": #"{"a": 1}"#], .value(.dictionary(["a": 1]))),
  .init("dictionary", ["entries": "not json"], .error("expected a dictionary for 'entries', got 'not json'")),

  .init("ask", ["prompt": "Age?", "type": "number"], answers: [.value("lots"), .value("42")], .value(42)),
  .init("ask", ["prompt": "Name?", "default-answer": "Ann"], answers: [.value("")], .value("Ann")),
  .init(
    "ask", ["prompt": "Age?", "type": "colour"],
    .error(
      "expected one of 'text', 'number', 'integer', 'url', 'date' or 'boolean' for 'type', got 'colour'")),

  .init("choose-from-list", ["list": ["a", "b", "c"]], answers: [.choice(2)], .value("c")),
  .init(
    "choose-from-list", ["list": ["a", "b", "c"], "select-multiple": true], answers: [.choices([0, 2])],
    .value(["a", "c"])),
  .init("choose-from-list", ["list": []], .error("there is nothing to choose from: the list is empty")),

  .init("confirm", ["message": "Go on?"], answers: [.confirmation(true)], .value(.nothing)),
  .init("confirm", ["message": "Go on?"], answers: [.confirmation(false)], .error("cancelled")),

  .init("get-item", ["list": [1, 2, 3]], .value(1)),
  .init("get-item", ["list": [1, 2, 3], "item": "Last Item"], .value(3)),
  .init("get-item", ["list": [1, 2, 3], "item": "index", "index": -2], .value(2)),
  .init("get-item", ["list": [1, 2, 3, 4, 5], "item": "random"], .value(3)),  // seed 7 picks the third
  .init(
    "get-item", ["list": [1, 2, 3], "item": "index", "index": 5],
    .error("index 5 is out of range for a list of 3 items", help: "use 1 to 3, or -1 for the last item")),
  .init("get-item", ["list": []], .error("cannot get an item from an empty list")),

  .init("get-value", ["dictionary": .dictionary(["name": "x"]), "key": "name"], .value("x")),
  .init(
    "get-value", ["dictionary": .dictionary(["name": "x"]), "key": "nmae"],
    .error("the dictionary has no key 'nmae'", help: "did you mean 'name'?")),

  .init("count", ["input": [1, 2, 3]], .value(3)),
  .init("count", ["input": "one two  three\nfour", "unit": "words"], .value(4)),
  .init("count", ["input": "a\nb", "unit": "lines"], .value(2)),
  .init(
    "count", ["input": "abc", "unit": "paragraphs"],
    .error("expected one of 'items', 'characters', 'words' or 'lines' for 'unit', got 'paragraphs'")),

  .init(
    "filter", ["list": booksJSON, "property": "year", "comparison": "greater-than", "value": 1962],
    .value([.dictionary(["title": "Dune", "year": 1965]), .dictionary(["title": "Ubik", "year": 1969])])),
  .init("filter", ["list": ["apple", "banana", "cherry"], "value": "AN"], .value(["banana"])),
  .init("filter", ["list": ["a1", "b", "c2"], "comparison": "matches", "value": "[0-9]", "limit": 1], .value(["a1"])),
  .init(
    "filter", ["list": ["a", "b"], "property": "size", "value": 1],
    .error("Text has no property 'size'", help: "expected 'count', 'host', 'scheme', 'path', 'query' or 'port'")),
  .init("filter", ["list": ["a"], "comparison": "is"], .error("'equals' needs a 'value' to compare with")),

  .init("sort", ["list": [3, 1, 2]], .value([1, 2, 3])),
  .init("sort", ["list": ["item 10", "Item 2", "item 1"]], .value(["item 1", "Item 2", "item 10"])),
  .init(
    "sort", ["list": booksJSON, "by": "year", "order": "descending"],
    .value([
      .dictionary(["title": "Ubik", "year": 1969]), .dictionary(["title": "Dune", "year": 1965]),
      .dictionary(["title": "Solaris", "year": 1961]),
    ])),
  .init(
    "sort", ["list": [1], "order": "sideways"],
    .error("expected one of 'ascending' or 'descending' for 'order', got 'sideways'")),

  .init("split-text", ["text": "a\nb\n"], .value(["a", "b"])),
  .init("split-text", ["text": "a, b,c", "separator": "commas"], .value(["a", "b", "c"])),
  .init("split-text", ["text": "a|b", "separator": "custom", "custom-separator": "|"], .value(["a", "b"])),
  .init(
    "split-text", ["text": "a|b", "separator": "custom"],
    .error("'separator: custom' needs a 'custom-separator'", help: "add 'custom-separator: \" | \"', for example")),

  .init("combine-text", ["list": ["a", "b"]], .value("a b")),
  .init("combine-text", ["list": ["a", 2], "separator": "new-lines"], .value("a\n2")),
  .init(
    "combine-text", ["list": ["a"], "separator": "custom"],
    .error("'separator: custom' needs a 'custom-separator'", help: "add 'custom-separator: \" | \"', for example")),

  .init(
    "replace-text", ["text": "Hello World", "find": "world", "replacement": "there", "case-sensitive": false],
    .value("Hello there")),
  .init(
    "replace-text",
    ["text": "2026-11-21", "find": "(\\d+)-(\\d+)-(\\d+)", "replacement": "$3.$2.$1", "regular-expression": true],
    .value("21.11.2026")),
  .init(
    "replace-text", ["text": "x", "find": "(", "regular-expression": true],
    .error(
      "'(' is not a valid regular expression", help: "escape special characters such as '(' and '[' with a backslash")),

  .init("match-text", ["text": "a1 b22", "pattern": "[0-9]+"], .value(["1", "22"])),
  .init(
    "match-text", ["text": "x", "pattern": "["],
    .error(
      "'[' is not a valid regular expression", help: "escape special characters such as '(' and '[' with a backslash")),

  .init(
    "format-date", ["date": "2026-11-21T14:30:00Z", "format": "yyyy-MM-dd HH:mm", "time-zone": "UTC"],
    .value("2026-11-21 14:30")),
  .init(
    "format-date", ["date": "2026-11-21T14:30:00Z", "time-zone": "Europe/Paris"], .value("2026-11-21T15:30:00+01:00")),
  .init(
    "format-date", ["date": "2026-11-21", "time-zone": "Mars/Base"],
    .error("unknown time zone 'Mars/Base'", help: "use an IANA name such as 'UTC' or 'Europe/Paris'")),
  .init(
    "format-date", ["date": "tomorrow"],
    .error("expected a date for 'date', got 'tomorrow'", help: "write a date as '2026-11-21' or '2026-11-21T14:30:00Z'")
  ),

  .init("calculate", ["expression": "(2 + 3) * 4 - 2^3"], .value(12)),
  .init("calculate", ["expression": "round(10 / 3) + max(1, 7, 2) % 4 - -1"], .value(7)),
  .init(
    "calculate", ["expression": "2 +"],
    .error(
      "cannot calculate '2 +': expected a number at the end",
      help: "write arithmetic such as '(2 + 3) * 4' or 'round(10 / 3)'")),
  // A pattern that backtracks for minutes is stopped at its budget (issue 16).
  .init(
    "match-text", ["text": .text(String(repeating: "a", count: 40) + "b"), "pattern": "(a+)+$"],
    .error(
      "matching '(a+)+$' took longer than 1 s, so it was stopped",
      help: "the pattern backtracks: avoid a repetition inside a repetition, such as '(a+)+'")),

  // Ten times the nesting limit: these overflowed the stack (issue 16).
  .init(
    "calculate", ["expression": .text(String(repeating: "(", count: 1000) + "1" + String(repeating: ")", count: 1000))],
    .error("'expression': the expression nests more than 100 deep", help: "write it with fewer parentheses and signs")),
  .init(
    "calculate", ["expression": .text(String(repeating: "-", count: 500_000) + "1")],
    .error("'expression': the expression nests more than 100 deep", help: "write it with fewer parentheses and signs")),
  .init(
    "calculate", ["expression": .text(Array(repeating: "2", count: 1001).joined(separator: "^"))],
    .error("'expression': the expression nests more than 100 deep", help: "write it with fewer parentheses and signs")),
  .init(
    "calculate",
    ["expression": .text(String(repeating: "abs(", count: 1000) + "1" + String(repeating: ")", count: 1000))],
    .error("'expression': the expression nests more than 100 deep", help: "write it with fewer parentheses and signs")),
  .init(
    "calculate", ["expression": .text(String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100))],
    .value(1)),
  .init(
    "calculate", ["expression": "1 / 0"],
    .error(
      "cannot calculate '1 / 0': division by zero",
      help: "the divisor is 0 here; skip the step when it would be, with 'when: ${…} != 0'")),
  .init(
    "calculate", ["expression": "7 % (2 - 2)"],
    .error(
      "cannot calculate '7 % (2 - 2)': division by zero",
      help: "the divisor is 0 here; skip the step when it would be, with 'when: ${…} != 0'")),

  .init("open-url", ["url": "example.com"], .value(.nothing)),
  .init("open-url", ["url": "not a url"], .error("expected a URL for 'url', got 'not a url'")),
  .init(
    "open-url", ["url": "file:///tmp/x.desktop"],
    .error("'open-url' opens only http, https and mailto URLs, not 'file:///tmp/x.desktop'")),

  .init("wait", ["duration": "1h30m"], .value(.nothing)),
  .init(
    "wait", ["duration": "soon"],
    .error(
      "expected a duration for 'duration', got 'soon'", help: "write a duration as '30s', '2m', '1h30m' or '500ms'")),
  .init(
    "wait", ["duration": "2d"],
    .error(
      "cannot wait 2d: the longest wait is 1d", help: "use 'schedule:' for something that should happen much later")),

  .init("comment", ["text": "why this step exists"], .value(.nothing)),
  .init("comment", [:], .error("'text' needs a value: Text")),

  .init(
    "parse-json", ["text": #"{"b": [1, true, null], "a": "x"}"#],
    .value(.dictionary(["b": [1, true, .nothing], "a": "x"]))),
  .init("parse-json", ["text": "[1, 2]"], .value([1, 2])),
  .init(
    "parse-json", ["text": "{\"a\": 1,}"],
    .error("the text is not JSON: expected a key at offset 8", help: "check the text with 'show' before this step")),

  .init("format-json", ["input": .dictionary(["a": [1, "x"]]), "style": "compact"], .value(#"{"a":[1,"x"]}"#)),
  .init("format-json", ["input": .dictionary(["a": 1, "b": true])], .value("{\n  \"a\": 1,\n  \"b\": true\n}")),
  .init(
    "format-json", ["input": 1, "style": "tight"],
    .error("expected one of 'pretty' or 'compact' for 'style', got 'tight'")),

  .init(
    "parse-csv", ["text": "title,link\r\n\"Dune, 1965\",https://a.example\r\n\"say \"\"hi\"\"\",\"two\nlines\"\r\n"],
    .value([
      .dictionary(["title": "Dune, 1965", "link": "https://a.example"]),
      .dictionary(["title": "say \"hi\"", "link": "two\nlines"]),
    ])),
  .init("parse-csv", ["text": "a;b\n1;\n\n", "separator": ";"], .value([.dictionary(["a": "1", "b": ""])])),
  .init("parse-csv", ["text": ""], .value([])),
  .init(
    "parse-csv", ["text": "a,b\n1,2,3\n"],
    .error("line 2 has 3 fields, the header has 2", help: "quote fields that contain ',', such as \"a, b\"")),
  .init("parse-csv", ["text": "a\n\"open\n"], .error("the text is not CSV: line 2: a quoted field is not closed")),
  .init(
    "parse-csv", ["text": "a\nsay \"hi\"\n"],
    .error(
      "the text is not CSV: line 2: a quote inside an unquoted field; a field with quotes is quoted whole, with quotes doubled"
    )),
  .init("parse-csv", ["text": "a\n\"x\"y\n"], .error("the text is not CSV: line 2: text after a closing quote: 'y'")),
  .init(
    "parse-csv", ["text": "a,a\n1,2"],
    .error("the header row names 'a' twice", help: "every column needs its own name to be a dictionary key")),
  .init(
    "parse-csv", ["text": "a", "separator": ",,"],
    .error(
      "'separator' must be one character other than a quote or a line break, not ',,'", help: "use ',', ';' or \"\\t\"")
  ),

  .init(
    "make-csv",
    [
      "list": [.dictionary(["title": "Dune, 1965", "year": 1965]), .dictionary(["title": "say \"hi\"", "link": "x"])]
    ],
    .value("title,year,link\n\"Dune, 1965\",1965,\n\"say \"\"hi\"\"\",,x\n")),
  .init("make-csv", ["list": booksJSON, "columns": ["year"], "separator": "\t"], .value("year\n1961\n1965\n1969\n")),
  .init(
    "make-table", ["list": booksJSON, "columns": ["year"], "limit": 2], .value("| Year |\n| ---: |\n| 1961 |\n| 1965 |")
  ),
  .init(
    "make-table", ["list": [.dictionary(["a": 1]), "plain"]],
    .error(
      "item 2 is Text, not a dictionary or an entity",
      help: "make-table shows one row per dictionary, File or Bookmark; for a list of text use 'combine-text'")),
  .init(
    "make-csv", ["list": [.dictionary(["a": 1]), "plain"]],
    .error(
      "item 2 is Text, not a dictionary",
      help: "make-csv writes one row per dictionary or entity; make a dictionary with 'dictionary' first")),

  .init(
    "set-value", ["dictionary": .dictionary(["a": 1, "b": 2]), "key": "a", "value": "x"],
    .value(.dictionary(["a": "x", "b": 2]))),
  .init(
    "set-value", ["dictionary": .dictionary(["a": 1]), "key": "c", "value": [1]],
    .value(.dictionary(["a": 1, "c": [1]]))),
  .init(
    "set-value", ["dictionary": .dictionary(["a": 1]), "key": "", "value": 1],
    .error("'key' is empty", help: "name the key to set, such as 'key: title'")),
  .init("set-value", ["dictionary": .dictionary(["a": 1]), "key": "a"], .error("'value' needs a value: Value")),

  .init("unique", ["list": [1, "a", 1, "b", "a"]], .value([1, "a", "b"])),
  .init(
    "unique",
    [
      "list": [
        .dictionary(["link": "https://a", "n": 1]), .dictionary(["link": "https://b", "n": 2]),
        .dictionary(["link": "https://a", "n": 3]),
      ], "by": "link",
    ],
    .value([.dictionary(["link": "https://a", "n": 1]), .dictionary(["link": "https://b", "n": 2])])),
  .init("unique", ["list": ["a", "b"], "by": "link"], .error("Text has no property 'link'")),

  .init("change-case", ["text": "hello World"], .value("HELLO WORLD")),
  .init("change-case", ["text": "the iPhone of NASA", "to": "capitalize-every-word"], .value("The IPhone Of NASA")),
  .init("change-case", ["text": "  ÉTÉ IS HERE. YES", "to": "sentence"], .value("  Été is here. yes")),
  .init("change-case", ["text": "ABC", "to": "lowercase"], .value("abc")),
  .init(
    "change-case", ["text": "x", "to": "shouting"],
    .error(
      "expected one of 'uppercase', 'lowercase', 'capitalize-every-word' or 'sentence' for 'to', got 'shouting'")),

  .init("trim-text", ["text": " \t a b \n"], .value("a b")),
  .init("trim-text", ["text": "  a  ", "from": "start"], .value("a  ")),
  .init("trim-text", ["text": "  a  ", "from": "end"], .value("  a")),
  .init(
    "trim-text", ["text": "a", "from": "middle"],
    .error("expected one of 'both-ends', 'start' or 'end' for 'from', got 'middle'")),

  .init("hash", ["input": "abc"], .value("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")),
  .init("hash", ["input": "abc", "algorithm": "md5"], .value("900150983cd24fb0d6963f7d28e17f72")),
  .init("hash", ["input": "abc", "algorithm": "sha1"], .value("a9993e364706816aba3e25717850c26c9cd0d89d")),
  .init(
    "hash", ["input": "abc", "algorithm": "sha512"],
    .value(
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
    )),
  .init(
    "hash", ["input": "abc", "algorithm": "crc32"],
    .error("expected one of 'md5', 'sha1', 'sha256' or 'sha512' for 'algorithm', got 'crc32'")),

  .init("base64", ["input": "héllo?"], .value("aMOpbGxvPw==")),
  .init("base64", ["input": "aMOp\nbGxvPw==", "mode": "decode"], .value("héllo?")),
  .init(
    "base64", ["input": "not base64!", "mode": "decode"],
    .error(
      "the input is not base64", help: "base64 uses A-Z, a-z, 0-9, '+' and '/', padded with '=' to a multiple of 4")),
  .init("base64", ["input": "/w==", "mode": "decode"], .error("the decoded bytes are not UTF-8 text")),

  .init("random-number", ["minimum": 10, "maximum": 20], .value(12)),  // seed 7
  .init("random-number", ["minimum": 5, "maximum": 5], .value(5)),
  .init(
    "random-number", ["minimum": 3, "maximum": 1],
    .error("the minimum 3 is above the maximum 1", help: "swap them, or make the maximum at least 3")),

  .init("round-number", ["number": 2.5], .value(3)),
  .init("round-number", ["number": -2.5], .value(-3)),
  .init("round-number", ["number": 2.675, "decimal-places": 2], .value(2.68)),
  .init("round-number", ["number": 1.21, "decimal-places": 1, "mode": "up"], .value(1.3)),
  .init("round-number", ["number": -1.21, "decimal-places": 1, "mode": "down"], .value(-1.3)),
  .init("round-number", ["number": -1.29, "mode": "up"], .value(-1)),
  // The nearest Double to the decimal result: NSDecimalNumber's doubleValue gave 1.0050000000000001.
  .init("round-number", ["number": 1.005, "decimal-places": 3], .value(1.005)),
  .init("round-number", ["number": 0.285, "decimal-places": 2], .value(0.29)),
  .init(
    "round-number", ["number": 1, "decimal-places": 16], .error("'decimal-places' must be between 0 and 15, got 16")),

  .init("format-number", ["number": 1234567.891, "group-thousands": true], .value("1,234,567.89")),
  .init("format-number", ["number": 2.5, "decimal-places": 0], .value("3")),
  .init("format-number", ["number": -0.5, "decimal-places": 3], .value("-0.500")),
  .init("format-number", ["number": -0.001, "decimal-places": 2], .value("0.00")),
  .init("format-number", ["number": 1e-7, "decimal-places": 8], .value("0.00000010")),
  .init("format-number", ["number": 1.5e20, "group-thousands": true], .value("150,000,000,000,000,000,000.00")),
  .init("format-number", ["number": 999.995], .value("1000.00")),
  .init("format-number", ["number": "many"], .error("expected a number for 'number', got 'many'")),

  .init(
    "url", ["url": "example.com/a?b=1"], .value(URL(string: "https://example.com/a?b=1").map(FlowValue.url) ?? .nothing)
  ),
  .init(
    "url", ["url": "mailto:ann@example.com"],
    .value(URL(string: "mailto:ann@example.com").map(FlowValue.url) ?? .nothing)),
  .init("url", ["url": "not a url"], .error("expected a URL for 'url', got 'not a url'")),
  .init("url", ["url": "https://"], .error("expected a URL for 'url', got 'https://'")),

  .init("get-url-component", ["url": "https://a.example:8443/x%20y?q=1#top"], .value("a.example")),
  .init("get-url-component", ["url": "https://a.example:8443/x%20y?q=1#top", "component": "port"], .value(8443)),
  .init("get-url-component", ["url": "https://a.example/x", "component": "port"], .value(.nothing)),
  .init("get-url-component", ["url": "https://a.example:8443/x%20y?q=1#top", "component": "path"], .value("/x y")),
  .init("get-url-component", ["url": "https://a.example/?q=1&r=2", "component": "query"], .value("q=1&r=2")),
  .init("get-url-component", ["url": "https://a.example/#top", "component": "fragment"], .value("top")),
  .init("get-url-component", ["url": "HTTPS://a.example/", "component": "scheme"], .value("HTTPS")),
  .init(
    "get-url-component",
    ["url": "https://a.example/?q=a+b%26c&id=7&id=8", "component": "query-parameter", "name": "q"], .value("a b&c")),
  .init(
    "get-url-component", ["url": "https://a.example/?q=1&id=7&id=8", "component": "query-parameter", "name": "id"],
    .value("7")),
  .init(
    "get-url-component", ["url": "https://a.example/?flag", "component": "query-parameter", "name": "flag"], .value("")),
  .init(
    "get-url-component", ["url": "https://a.example/?q=1", "component": "query-parameter", "name": "x"],
    .value(.nothing)),
  .init(
    "get-url-component", ["url": "https://a.example/", "component": "query-parameter"],
    .error("'component: query-parameter' needs a 'name'", help: "add 'name: id' for the value of '?id=…'")),
  .init("get-url-component", ["url": "nope"], .error("expected a URL for 'url', got 'nope'")),

  .init("url-encode", ["text": "a b&c=d/é~"], .value("a%20b%26c%3Dd%2F%C3%A9~")),
  .init("url-encode", [:], .error("'text' needs a value: Text")),

  .init("url-decode", ["text": "a%20b%26c%3dd%2F%C3%A9+"], .value("a b&c=d/é+")),
  .init("url-decode", ["text": "a+b", "plus-as-space": true], .value("a b")),
  .init(
    "url-decode", ["text": "100%"],
    .error("'%' is not a percent-escape", help: "a '%' is followed by two hexadecimal digits; a '%' itself is '%25'")),
  .init("url-decode", ["text": "%zz1"], .error("'%zz' is not a percent-escape")),
  .init("url-decode", ["text": "%FF"], .error("the decoded bytes are not UTF-8 text")),

  // The run's clock, never the machine's: the tests' ManualClock starts at 1,795,000,000.
  .init("current-date", [:], .value(.date(Date(timeIntervalSince1970: 1_795_000_000)))),
  .init("current-date", ["unused": 1], .error("'current-date' has no parameter 'unused'")),

  .init(
    "adjust-date", ["date": "2026-01-31T10:00:00Z", "amount": 1, "unit": "months", "time-zone": "UTC"],
    .value(.date(Date(timeIntervalSince1970: 1_772_272_800)))),  // 2026-02-28T10:00:00Z
  .init(
    "adjust-date", ["date": "2024-02-29T10:00:00Z", "amount": 1, "unit": "years", "time-zone": "UTC"],
    .value(.date(Date(timeIntervalSince1970: 1_740_736_800)))),  // 2025-02-28T10:00:00Z
  // Across the end of summer time in Paris a day is 25 hours: 09:00 stays 09:00 local.
  .init(
    "adjust-date", ["date": "2026-10-24T07:00:00Z", "amount": 1, "unit": "days", "time-zone": "Europe/Paris"],
    .value(.date(Date(timeIntervalSince1970: 1_792_915_200)))),  // 2026-10-25T08:00:00Z
  .init(
    "adjust-date", ["date": "2026-11-21T00:00:00Z", "operation": "subtract", "amount": 1.5, "unit": "hours"],
    .value(.date(Date(timeIntervalSince1970: 1_795_219_200 - 5400)))),
  .init(
    "adjust-date", ["date": "2026-11-21", "amount": 1.5, "unit": "days"],
    .error(
      "days are added in whole numbers, not 1.5",
      help: "use hours for parts of a day, such as 'amount: 36' with 'unit: hours'")),
  // A date past the calendar's years was made, and then overflowed every step that measured it (issue 28).
  .init(
    "adjust-date", ["date": "2026-11-21", "amount": 1e300, "unit": "seconds"],
    .error("the adjusted date is out of the calendar's range")),
  .init(
    "adjust-date", ["date": "2026-11-21", "time-zone": "Mars/Base"],
    .error("unknown time zone 'Mars/Base'", help: "use an IANA name such as 'UTC' or 'Europe/Paris'")),

  .init("time-between", ["start": "2026-01-31", "end": "2026-03-01", "unit": "months", "time-zone": "UTC"], .value(1)),
  .init("time-between", ["start": "2026-03-01", "end": "2026-01-31", "time-zone": "UTC"], .value(-29)),
  .init("time-between", ["start": "2026-11-21T10:00:00Z", "end": "2026-11-21T12:59:59Z", "unit": "hours"], .value(2)),
  .init(
    "time-between", ["start": "2026-10-24T07:00:00Z", "end": "2026-10-25T07:00:00Z", "time-zone": "Europe/Paris"],
    .value(0)),  // 24 hours, but 09:00 to 08:00 local: not yet a calendar day
  .init(
    "time-between",
    [
      "start": .date(Date(timeIntervalSince1970: 0)), "end": .date(Date(timeIntervalSince1970: 1e300)),
      "unit": "seconds",
    ],
    .error("the dates are too far apart to count in seconds")),
  .init(
    "time-between", ["start": "2026-11-21", "end": "later"],
    .error("expected a date for 'end', got 'later'", help: "write a date as '2026-11-21' or '2026-11-21T14:30:00Z'")),

  // The tests' clock reads 2026-11-18T11:06:40Z, a Wednesday.
  .init(
    "get-dates-from-input", ["input": "today\ntomorrow\n\n yesterday \nnow", "time-zone": "UTC"],
    .value([
      .date(Date(timeIntervalSince1970: 1_794_960_000)), .date(Date(timeIntervalSince1970: 1_795_046_400)),
      .date(Date(timeIntervalSince1970: 1_794_873_600)), .date(Date(timeIntervalSince1970: 1_795_000_000)),
    ])),
  .init(
    "get-dates-from-input",
    ["input": "next monday\nnext wednesday\nlast friday\nin 3 days\n2 hours ago", "time-zone": "UTC"],
    .value([
      .date(Date(timeIntervalSince1970: 1_795_392_000)), .date(Date(timeIntervalSince1970: 1_795_564_800)),
      .date(Date(timeIntervalSince1970: 1_794_528_000)), .date(Date(timeIntervalSince1970: 1_795_219_200)),
      .date(Date(timeIntervalSince1970: 1_794_992_800)),
    ])),
  // Without a zone, in the one given; with one, as written.
  .init(
    "get-dates-from-input", ["input": "2026-12-01 09:00\n2026-12-01T09:00:00Z", "time-zone": "Europe/Paris"],
    .value([.date(Date(timeIntervalSince1970: 1_796_112_000)), .date(Date(timeIntervalSince1970: 1_796_115_600))])),
  .init(
    "get-dates-from-input", ["input": "today\nsoonish"],
    .error(
      "line 2: 'soonish' is not a date",
      help: "write '2026-12-01', '2026-12-01 09:00', 'today', 'tomorrow', 'next monday' or 'in 3 days'")),
  .init("get-dates-from-input", ["input": "in 3 fortnights"], .error("line 1: 'in 3 fortnights' is not a date")),

  // Real processes (CommandRunnerTests and RunShellTests go further).
  .init("run-shell", ["script": #"echo "$1""#, "arguments": ["a; b"]], .value("a; b")),
  .init("run-shell", ["command": ["printf", "%s", "x"]], .value("x")),
  .init(
    "run-shell", [:],
    .error(
      "'run-shell' needs a 'script' or a 'command', and takes one of them",
      help: "write 'script: echo hello', or 'command: [ls, -l]' to run a program without a shell")),
  .init(
    "run-shell", ["script": "exit 3"],
    .error(
      "the script exited with status 3",
      help: "to go on and read the exit code, add 'output: result' and test '${…exit-code}'")),
]
