import FlowBasics
import FlowIntents
import Foundation

/// One run of a built-in action: the values a step gives, the person's answers, and what must happen.
struct BasicsExample: Sendable, CustomStringConvertible {
  enum Outcome: Sendable {
    case value(FlowValue)
    case dialog(String)
    /// The error's message, and its help line when given.
    case error(String, help: String? = nil)
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
  .init("text", ["text": ["a", "b"]], .value("a, b")),
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
    .error("Text has no property 'size'", help: "expected 'count'")),
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
]
