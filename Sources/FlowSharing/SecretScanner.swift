import FlowDiagnostics
import FlowYAML

/// Finds literals in a workflow file that look like credentials, so that `flow export` refuses to let
/// them leave the machine and `flow validate --lint-secrets` reports them (issue 9).
///
/// It reads the YAML tree, not the workflow, so that every value counts wherever it sits (a header, a
/// dictionary, a default, text), and the comments too. A reference (`${env.TOKEN}`) is never a secret:
/// it is what the file should hold instead. What it looks for, each with its reason:
///
/// - a key named like a credential (token, password, secret, api-key, access-key, private-key,
///   credential) holding literal text or a number, and an input so named with a literal default;
/// - an `Authorization`-style header with a literal value, and `Bearer …`/`Basic …`/`Token …` in any
///   text;
/// - `NAME=VALUE` or `NAME: VALUE` inside text or a comment, NAME named like a credential (a Raindrop
///   test token in `RAINDROP_TOKEN=…`, `?access_token=…` in a URL);
/// - a password in a URL (`https://user:password@host`);
/// - well-known token formats (GitHub, Slack, AWS, Google, OpenAI-style `sk-`, GitLab) and private keys;
/// - long high-entropy strings: 24 or more characters of base64's alphabet mixing upper and lower case
///   and digits, unless they read as a hash (hex), an id (a UUID) or words joined by `-` or `_`.
///
/// Defaults of inputs marked `secret: true` are skipped: export drops them.
public struct SecretScanner: Sendable {
  /// A literal that looks like a credential.
  public struct Finding: Sendable, Hashable {
    public var span: SourceSpan
    public var path: ValuePath
    /// Why it looks like one: "a key named 'password' holds literal text".
    public var reason: String
  }

  public init() {}

  /// The findings in `document`, whose `file` holds its bytes, minus those at `allowed` paths (as
  /// ``ValuePath`` prints them). Paths are given as the exported file will have them: `prefix` is
  /// where the document goes in it (an embedded workflow's `workflows["NAME"]`).
  public func scan(_ document: YAMLDocument, allowed: Set<String> = [], prefix: [String] = []) -> [Finding] {
    var walk = Walk(prefix: ValuePath(segments: prefix.map { .key($0) }))
    if let root = document.root { walk.visit(root, path: walk.prefix, key: nil, secretInput: false) }
    walk.scanComments(document)
    return walk.findings.filter { !allowed.contains($0.path.description) }
  }

  /// Findings as diagnostics: each at its place, with how to keep the value out of the file and how to
  /// let it through when it is no secret.
  public static func diagnostics(_ findings: [Finding]) -> Diagnostics {
    Diagnostics(
      findings.map { finding in
        Diagnostic(.error, .possibleSecret, "this looks like a credential: \(finding.reason)", at: finding.span)
          .help(
            "read it from the environment instead: list the variable under 'env:' and write ${env.NAME}, or make it an input with 'secret: true' or 'ask-on-import: true'"
          )
          .help("if it is not a secret: --allow-secret '\(finding.path)'")
      })
  }
}

/// One pass over a document.
private struct Walk {
  let prefix: ValuePath
  var findings: [SecretScanner.Finding] = []
  /// Every scalar's span, for telling comments from `#` inside values.
  var scalarSpans: [SourceSpan] = []

  init(prefix: ValuePath) {
    self.prefix = prefix
  }

  /// - Parameters:
  ///   - key: the mapping key the node is the value of.
  ///   - secretInput: inside an input declared `secret: true`, whose default export drops.
  mutating func visit(_ node: YAMLNode, path: ValuePath, key: String?, secretInput: Bool) {
    switch node {
    case .scalar(let scalar):
      scalarSpans.append(scalar.span)
      guard let text = Self.literal(scalar) else { return }
      if secretInput, key == "default" { return }
      if let reason = SecretRules.value(text, key: key) {
        findings.append(.init(span: scalar.span, path: path, reason: reason))
      }
    case .sequence(let sequence):
      for (index, item) in sequence.items.enumerated() {
        visit(item, path: path.appending(.index(index + 1)), key: key, secretInput: secretInput)
      }
    case .mapping(let mapping):
      let isInputs = key == "input" && path.segments.count == prefix.segments.count + 1
      for entry in mapping.entries {
        scalarSpans.append(entry.key.span)
        var secret = secretInput
        if isInputs, let declaration = entry.value.mapping {
          secret = declaration["secret"]?.value.scalar?.resolved == .bool(true)
          // An input named like a credential with a literal default: judged by the input's name.
          if let value = declaration["default"]?.value.scalar, let text = Self.literal(value), !secret,
            let reason = SecretRules.value(text, key: entry.key.value)
          {
            findings.append(
              .init(
                span: value.span, path: path.appending(.key(entry.key.value)).appending(.key("default")),
                reason: "input '\(entry.key.value)' has a literal default: " + reason))
            secret = true
          }
        }
        if let reason = SecretRules.key(entry.key.value) {
          findings.append(.init(span: entry.key.span, path: path.appending(.key(entry.key.value)), reason: reason))
        }
        let child = path.segments.count == prefix.segments.count && entry.key.value == "workflows"
        // `secrets:` at a workflow's top level lists names of keyring secrets, not values; they are still
        // checked as any text is (a token pasted there has a known format or looks random).
        let topLevel =
          path.segments.count == prefix.segments.count
          || (path.segments.count == prefix.segments.count + 2
            && path.segments[prefix.segments.count] == .key("workflows"))
        let names = topLevel && entry.key.value == "secrets"
        visit(
          entry.value, path: path.appending(.key(entry.key.value)), key: child || names ? nil : entry.key.value,
          secretInput: secret)
      }
    }
  }

  /// The text of a scalar that could hold a credential: text, or a number as written (a PIN, a numeric
  /// key); never a boolean or null.
  static func literal(_ scalar: YAMLNode.Scalar) -> String? {
    switch scalar.resolved {
    case .string(let text): text
    case .int, .double: scalar.value
    case .bool, .null: nil
    }
  }

  /// Comments: `#` that starts a line or follows a space, outside every scalar.
  mutating func scanComments(_ document: YAMLDocument) {
    var covered: [Int: [(Int, Int)]] = [:]
    for span in scalarSpans {
      for line in span.start.line...max(span.start.line, span.end.line) {
        let from = line == span.start.line ? span.start.column : 1
        let to = line == span.end.line ? span.end.column : Int.max
        covered[line, default: []].append((from, to))
      }
    }
    let file = document.file
    // One pass over the bytes: SourceFile.line(_:) scans from the start, once per line would be quadratic.
    let lines = file.bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    for (index, bytes) in lines.enumerated() where bytes.contains(UInt8(ascii: "#")) {
      let number = index + 1
      var line = String(decoding: bytes, as: UTF8.self)
      if line.hasSuffix("\r") { line.removeLast() }
      var column = 0
      var previous: Unicode.Scalar = " "
      for scalar in line.unicodeScalars {
        column += 1
        defer { previous = scalar }
        guard scalar == "#", previous == " " || previous == "\t" || column == 1 else { continue }
        if covered[number]?.contains(where: { $0.0 <= column && column < $0.1 }) == true { continue }
        let text = String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(column)))
        if let reason = SecretRules.text(text) {
          let start = SourceLocation(line: number, column: column)
          findings.append(
            .init(
              span: SourceSpan(
                file: file, start: start, end: SourceLocation(line: number, column: line.unicodeScalars.count + 1)),
              path: ValuePath(segments: prefix.segments, commentLine: number), reason: "in a comment, " + reason))
        }
        break
      }
    }
  }
}
