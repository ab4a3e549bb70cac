import FlowDiagnostics
import FlowSharing
import FlowYAML
import Foundation

/// The starting inputs of each target, made from the project's own files (the workflows, the examples
/// and the test fixtures) when `Scripts/fuzz.sh` runs, rather than kept as copies that would go stale.
public enum Seeds {
  /// The key the signature seeds are signed with, and the one `SignatureTarget` trusts: a fixed seed,
  /// because a random one would make every fuzzing run take different paths.
  /// (Any 32 bytes are an Ed25519 seed, so the random fallback is never taken.)
  static let signingKey = SigningKey(seed: Array(repeating: 7, count: 32)) ?? SigningKey()

  /// The folders of the project whose YAML files seed every target: every workflow flow ships or
  /// shows, and every fixture a test reads (the corpora of bad files, hostile files, schedules, sharing).
  public static let folders = ["workflows", "examples", "Tests"]

  /// The YAML files under `folders` of the project at `root`, in a stable order.
  public static func files(root: URL) -> [URL] {
    folders.flatMap { folder -> [URL] in
      let enumerator = FileManager.default.enumerator(
        at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
      return (enumerator?.allObjects as? [URL] ?? []).filter { ["yml", "yaml"].contains($0.pathExtension) }
    }.sorted { $0.path < $1.path }
  }

  /// The inputs for `target` from the project at `root`.
  public static func inputs(for target: FuzzTarget, root: URL) -> [[UInt8]] {
    inputs(for: target, from: files(root: root).compactMap { try? [UInt8](Data(contentsOf: $0)) })
  }

  /// The inputs for `target` drawn from `files` (their bytes), each once.
  public static func inputs(for target: FuzzTarget, from files: [[UInt8]]) -> [[UInt8]] {
    var inputs: [[UInt8]]
    switch target {
    case .check:
      // Signed copies reach the card's signature line.
      inputs = files + files.map { SignedFile.sign($0, with: signingKey) }
    case .templates:
      inputs = files
    case .calculate:
      inputs =
        files.flatMap { scalars(under: ["calculate"], in: $0) }.map { Array(fillIn($0).utf8) }
        + ["(2 + 3) * 4", "round(10 / 3)", "-2 ^ -2", "max(1, min(2, 3))", "sqrt(16) % 3", "abs(-1.5e3) / 0"]
        .map { Array($0.utf8) }
    case .cron:
      inputs =
        files.flatMap { scalars(under: ["cron", "schedule"], in: $0) }.map { Array($0.utf8) }
        + ["0 9 * * 1-5", "*/15 * * * *", "0 0 29 2 *", "0 9 1 * MON", "30 2 * * SUN", "@daily", "5 4 * * sun,tue"]
        .map { Array($0.utf8) }
    case .signature:
      inputs =
        files.map { SignedFile.sign($0, with: signingKey) } + files
        + [Array(signingKey.publicKey.line(name: "seeds").utf8)]
    case .httpRequest:
      inputs = HandWritten.httpRequests.map { Array($0.utf8) }
    case .json:
      inputs = (HandWritten.json + HandWritten.rpcMessages).map { Array($0.utf8) }
    case .sse:
      inputs = HandWritten.eventStreams.map { Array($0.utf8) }
    case .dbus:
      inputs = HandWritten.dbusMessages
    case .csv:
      // The first byte picks the separator (CSVTarget): 0 a comma, 1 a semicolon, 2 a tab.
      inputs = HandWritten.csv.map { [$0.separator] + Array($0.text.utf8) }
    case .numbers:
      inputs =
        files.flatMap { scalars(under: ["wait", "timeout", "duration", "default"], in: $0) }.map { Array($0.utf8) }
        + HandWritten.numbers.map { Array($0.utf8) }
    case .conditions:
      inputs = files.flatMap { scalars(under: ["if", "when"], in: $0) }.map { Array($0.utf8) } + files
    case .card:
      // Each byte is a choice of the generator (CardTarget): counting up walks every kind of step.
      inputs = (0..<32).map { seed in (0..<48).map { UInt8(truncatingIfNeeded: seed &* 7 &+ $0 &* 13) } }
    }
    var seen: Set<[UInt8]> = []
    return inputs.filter { !$0.isEmpty && seen.insert($0).inserted }
  }

  /// Every scalar written as the value of one of `keys` (or an item of a list there), anywhere in the
  /// YAML file `bytes`.
  static func scalars(under keys: Set<String>, in bytes: [UInt8]) -> [String] {
    let file = SourceFile(path: "seed.yml", bytes: bytes)
    guard let root = YAMLDocument.load(file).root else { return [] }
    var found: [String] = []
    var pending = [root]
    while let node = pending.popLast() {
      switch node {
      case .scalar: break
      case .sequence(let sequence): pending += sequence.items
      case .mapping(let mapping):
        for entry in mapping.entries {
          pending.append(entry.value)
          guard keys.contains(entry.key.value) else { continue }
          let values = entry.value.sequence?.items ?? [entry.value]
          found += values.compactMap { $0.scalar?.value }
        }
      }
    }
    return found
  }

  /// An expression with each `${…}` replaced by a number, as a run would fill it in.
  static func fillIn(_ expression: String) -> String {
    var result = ""
    var rest = Substring(expression)
    while let open = rest.range(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
      result += rest[..<open.lowerBound] + "3"
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }
}
