import FlowDiagnostics
import FlowIntents
import FlowYAML

/// How large one value may grow during a run, and how many passes one loop may make: the bounds that keep
/// a workflow (`repeat: 1000000000`, a text doubled forty times) from taking the machine's memory.
///
/// Each is far beyond what a workflow of bookmarks and text needs and far below what would hurt; all are
/// settings in `config.yml` (`limits:`, see Documentation/Running.md). A value over a limit fails the step
/// that made it, by name (``DiagnosticCode/valueTooLarge``), before anything larger is built from it.
public struct ValueLimits: Sendable, Hashable {
  /// The UTF-8 bytes of text one value may hold: one text, or all the texts in a list or dictionary.
  public var textBytes: Int
  /// The list items and dictionary entries one value may hold, counted through every level.
  public var items: Int
  /// How deep lists and dictionaries may nest in a value: the walks that print and free values recurse.
  public var depth: Int
  /// The passes of one `repeat` or `for-each`.
  public var passes: Int

  public init(
    textBytes: Int = 16 << 20, items: Int = 1_000_000, depth: Int = 256, passes: Int = 1_000_000
  ) {
    self.textBytes = textBytes
    self.items = items
    self.depth = depth
    self.passes = passes
  }

  /// What a value holds, as the limits count it.
  public struct Measure: Sendable, Hashable {
    public var textBytes = 0
    public var items = 0
    public var depth = 0

    public static func + (lhs: Measure, rhs: Measure) -> Measure {
      Measure(
        textBytes: lhs.textBytes + rhs.textBytes, items: lhs.items + rhs.items, depth: max(lhs.depth, rhs.depth))
    }
  }

  /// Measures `value` without recursion (the value may be deeper than the stack allows), stopping as soon
  /// as a limit is passed, so that measuring a huge value costs no more than the limit.
  public func measure(_ value: FlowValue) -> Measure {
    // Most steps make one text or number: measured without the walk's allocation, as every step's is.
    switch value {
    case .text(let text): return Measure(textBytes: text.utf8.count)
    case .list, .dictionary: break
    default: return Measure()
    }
    var measure = Measure()
    var pending: [(value: FlowValue, depth: Int)] = [(value, 0)]
    while let (value, depth) = pending.popLast() {
      measure.depth = max(measure.depth, depth)
      switch value {
      case .text(let text): measure.textBytes += text.utf8.count
      case .list(let items):
        measure.items += items.count
        guard depth < self.depth else {
          measure.depth = depth + 1
          break
        }
        if !items.isEmpty { measure.depth = max(measure.depth, depth + 1) }
        // Only lists and dictionaries wait their turn: a list of 100,000 Files is walked once, not
        // copied onto the stack item by item.
        for item in items {
          switch item {
          case .text(let text): measure.textBytes += text.utf8.count
          case .list, .dictionary: pending.append((item, depth + 1))
          default: break
          }
        }
      case .dictionary(let dictionary):
        measure.items += dictionary.count
        measure.textBytes += dictionary.keys.reduce(0) { $0 + $1.utf8.count }
        if depth < self.depth {
          pending += dictionary.values.lazy.map { ($0, depth + 1) }
        } else {
          measure.depth = depth + 1
        }
      default: break
      }
      if problem(measure) != nil { return measure }
    }
    return measure
  }

  /// Which limit `measure` passes, in words ("a text of 17 MiB, more than the 16 MiB a value may hold"); nil
  /// within them.
  public func problem(_ measure: Measure) -> String? {
    if measure.textBytes > textBytes {
      return "more than \(ByteCount(textBytes)) of text, the most one value may hold"
    }
    if measure.items > items {
      return "more than \(Self.number(items)) items, the most one value may hold"
    }
    if measure.depth > depth {
      return "lists and dictionaries nested more than \(depth) deep, the most one value may hold"
    }
    return nil
  }

  /// The diagnostic for a value made at `span` by `what` ("step 3 (text)") that passes a limit.
  func check(_ value: FlowValue, made what: String, at span: SourceSpan?) throws(RunError) {
    if let problem = problem(measure(value)) { throw tooLarge(what, problem, at: span) }
  }

  func tooLarge(_ what: String, _ problem: String, at span: SourceSpan?) -> RunError {
    RunError(
      .stepFailed,
      Diagnostic(.error, .valueTooLarge, "\(what) made a value of \(problem)", at: span)
        .help("if the workflow really needs more, raise the limit under 'limits:' in config.yml"))
  }

  func tooManyPasses(_ what: String, _ count: String, at span: SourceSpan?) -> RunError {
    RunError(
      .stepFailed,
      Diagnostic(
        .error, .tooManyPasses,
        "\(what) would make \(count) passes, more than the \(Self.number(passes)) one loop may make", at: span
      )
      .help("if the workflow really needs more, raise 'passes' under 'limits:' in config.yml"))
  }

  /// "1,000,000".
  static func number(_ value: Int) -> String {
    let digits = Array(String(value))
    var out = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return out
  }
}

extension DiagnosticCode {
  /// A value made during a run passes one of the ``ValueLimits`` (text, items, nesting).
  public static let valueTooLarge: Self = "value-too-large"
  /// A `repeat` or `for-each` would make more passes than ``ValueLimits/passes``.
  public static let tooManyPasses: Self = "too-many-passes"
}
