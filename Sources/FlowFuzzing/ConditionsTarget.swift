import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowRuntime
import FlowYAML
import Foundation

/// Conditions as `if:` and `when:` write them (every scalar of a YAML document, so that the parser sees
/// them with their spans), evaluated as a run evaluates them against values made from the input: each
/// variable a condition reads gets a value shaped like the path it reads (a dictionary for
/// `${a.b}`, a list for `${a.1}`) most of the time, and something else otherwise.
enum ConditionsTarget {
  static let now = Date(timeIntervalSince1970: 1_767_225_600)

  static func run(_ bytes: [UInt8]) {
    let document = YAMLDocument.load(SourceFile(path: "fuzz.yml", bytes: bytes))
    guard let root = document.root else { return }
    var diagnostics = document.diagnostics
    var generator = ValueGenerator(seed: bytes)
    var pending = [root]
    // An alias repeats its anchor's nodes, spans and all (up to the loader's 100,000): each is looked at
    // once, so that an alias bomb costs what the file holds, not what it expands to.
    var seen: Set<SourceSpan> = []
    while let node = pending.popLast() {
      guard seen.insert(node.span).inserted else { continue }
      switch node {
      case .scalar:
        guard let condition = Condition.parse(node, into: &diagnostics) else { continue }
        var names: [String: FlowValue] = [:]
        for reference in condition.references { names[reference.root] = generator.value(reading: reference.path) }
        let inputs = FlowDictionary([("input", generator.value(reading: []))])
        _ = try? condition.holds(
          names: names, previous: generator.value(reading: []), inputs: inputs, now: now, textLimit: 1 << 16)
      case .sequence(let sequence): pending += sequence.items
      case .mapping(let mapping): pending += mapping.entries.map(\.value)
      }
    }
    _ = DiagnosticRenderer(colors: false).render(diagnostics)
  }
}

/// Values drawn from a generator seeded by the input, so that one input always meets the same values.
struct ValueGenerator {
  var state: UInt64

  init(seed: [UInt8]) {
    // FNV-1a.
    state = seed.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }

  /// SplitMix64.
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  static let numbers: [Double] = [
    0, -0.0, 1, -1, 0.5, 3, 42, 1e15, -1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity,
    -.infinity, .nan, 9_007_199_254_740_993,
  ]
  static let texts = [
    "", "inbox", "INBOX", "a", "true", "false", "0", "3", "1e3", "-", "é", "ﬃ", "👍🏽", "a.b", ".*", "\n",
  ]

  /// A value that a reference reading `path` finds most of the time.
  mutating func value(reading path: [Reference.Component], depth: Int = 0) -> FlowValue {
    if let component = path.first, below(4) != 0 {
      let inner = value(reading: Array(path.dropFirst()), depth: depth + 1)
      switch component {
      case .property(let name): return .dictionary(FlowDictionary([(name, inner), ("other", scalar())]))
      case .index(let index):
        let count = max(0, min(index, 4))
        return .list((0..<count).map { _ in scalar() } + [inner])
      }
    }
    guard depth < 3 else { return scalar() }
    switch below(8) {
    case 0: return .list((0..<below(4)).map { _ in value(reading: [], depth: depth + 1) })
    case 1: return .dictionary(FlowDictionary((0..<below(3)).map { ("k\($0)", value(reading: [], depth: depth + 1)) }))
    default: return scalar()
    }
  }

  mutating func scalar() -> FlowValue {
    switch below(6) {
    case 0: return .number(Self.numbers[below(Self.numbers.count)])
    case 1: return .boolean(below(2) == 0)
    case 2: return .nothing
    case 3: return .date(Date(timeIntervalSince1970: Double(Int64(bitPattern: next()) % 10_000_000_000)))
    default:
      let text = Self.texts[below(Self.texts.count)]
      return .text(String(repeating: text, count: 1 + below(3)))
    }
  }
}
