import FoundationEssentials
import Glibc

/// The rules of ``SecretScanner``, on text: each returns why a literal looks like a credential, or nil.
enum SecretRules {
  /// Parts of key names that mark a credential, compared without case, `-`, `_` and `.`.
  static let secretWords = ["token", "password", "passwd", "secret", "apikey", "accesskey", "privatekey", "credential"]
  /// Headers whose value is a credential.
  static let credentialHeaders: Set<String> = [
    "authorization", "proxy-authorization", "x-api-key", "x-auth-token", "x-access-token", "cookie",
  ]
  /// Schemes that put a credential after them in a header or text.
  static let schemes = ["bearer", "basic", "token"]

  /// Whether `name` is named like a credential: `RAINDROP_TOKEN`, `api-key`, `clientSecret`.
  static func isSecretName(_ name: String) -> Bool {
    let folded = String(name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" && $0 != "." && $0 != " " })
    return secretWords.contains { folded.contains($0) }
  }

  /// A value under `key`.
  static func value(_ text: String, key: String?) -> String? {
    let literal = literalText(text)
    if let key, credentialHeaders.contains(key.lowercased()) {
      var rest = literal.trimmingSpaces
      for scheme in schemes where rest.lowercased() == scheme || rest.lowercased().hasPrefix(scheme + " ") {
        rest = String(rest.dropFirst(scheme.count)).trimmingSpaces
      }
      if rest.count >= 6 { return "the header '\(key)' holds a literal value" }
      return nil
    }
    if let key, isSecretName(key), literal == text, text.count >= 6, text != "ask",
      !text.unicodeScalars.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" })
    {
      return "a key named '\(key)' holds literal text"
    }
    return self.text(literal)
  }

  /// A mapping key: only the formats that cannot be anything but a credential.
  static func key(_ text: String) -> String? {
    tokens(of: text, separators: tokenSeparators).lazy.compactMap(knownFormat).first
  }

  /// Free text: a value's literal parts, or a comment.
  static func text(_ text: String) -> String? {
    if text.contains("PRIVATE KEY-----") { return "a private key" }
    if let scheme = schemeCredential(text) { return "a credential after '\(scheme)'" }
    if let name = assignment(text) { return "'\(name)=…' sets a credential" }
    if hasURLPassword(text) { return "a password in a URL" }
    for token in tokens(of: text, separators: tokenSeparators) {
      if let format = knownFormat(token) { return format }
    }
    for token in tokens(of: text, separators: entropySeparators) where looksRandom(token) {
      return "a long random-looking string (\(token.count) characters)"
    }
    return nil
  }

  // MARK: - Rules

  /// `Bearer abc…`: a scheme word, then 16 or more credential characters.
  private static func schemeCredential(_ text: String) -> String? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\"" || $0 == "'" })
    for (index, word) in words.enumerated().dropLast() {
      let scheme = word.lowercased()
      guard schemes.contains(scheme) else { continue }
      let credential = words[index + 1]
      if credential.count >= 16, credential.unicodeScalars.allSatisfy(isCredentialCharacter) {
        return String(word)
      }
    }
    return nil
  }

  /// `NAME=VALUE` or `NAME: VALUE` with NAME named like a credential and VALUE six or more characters.
  private static func assignment(_ text: String) -> String? {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      guard isNameCharacter(scalars[index]) else {
        index += 1
        continue
      }
      let start = index
      while index < scalars.count, isNameCharacter(scalars[index]) { index += 1 }
      let name = String(String.UnicodeScalarView(scalars[start..<index]))
      guard isSecretName(name), index < scalars.count, scalars[index] == "=" || scalars[index] == ":" else { continue }
      // `NAME: value` is spaced as YAML and JSON space it; `NAME=value` is not, as in a shell or a URL.
      let spaced = scalars[index] == ":"
      var value = index + 1
      while value < scalars.count,
        scalars[value] == "\"" || scalars[value] == "'" || (spaced && scalars[value] == " ")
      {
        value += 1
      }
      var end = value
      while end < scalars.count, isCredentialCharacter(scalars[end]) || scalars[end] == ":" { end += 1 }
      if end - value >= 6, scalars[value] != "$" { return name }
    }
    return nil
  }

  /// `scheme://user:password@host`.
  private static func hasURLPassword(_ text: String) -> Bool {
    var rest = Substring(text)
    while let range = rest.firstRange(of: "://") {
      let authority = rest[range.upperBound...].prefix { $0 != "/" && $0 != " " && $0 != "\n" && $0 != "\"" }
      if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":"),
        authority[authority.index(after: colon)...].first != "$"
      {
        return true
      }
      rest = rest[range.upperBound...]
    }
    return false
  }

  /// Token formats that are credentials whatever holds them.
  private static func knownFormat(_ token: Substring) -> String? {
    let formats: [(prefix: String, minimum: Int, name: String)] = [
      ("ghp_", 40, "a GitHub token"), ("gho_", 40, "a GitHub token"), ("ghu_", 40, "a GitHub token"),
      ("ghs_", 40, "a GitHub token"), ("ghr_", 40, "a GitHub token"), ("github_pat_", 40, "a GitHub token"),
      ("glpat-", 26, "a GitLab token"), ("xoxb-", 20, "a Slack token"), ("xoxp-", 20, "a Slack token"),
      ("xoxa-", 20, "a Slack token"), ("xoxr-", 20, "a Slack token"), ("sk-", 23, "an API secret key (sk-…)"),
      ("AIza", 39, "a Google API key"),
    ]
    for format in formats where token.hasPrefix(format.prefix) && token.count >= format.minimum {
      return format.name
    }
    if (token.hasPrefix("AKIA") || token.hasPrefix("ASIA")), token.count == 20,
      token.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
    {
      return "an AWS access key"
    }
    return nil
  }

  /// 24 or more characters that mix upper case, lower case and digits, change between them often and
  /// carry at least 3.5 bits a character (a random token changes between them at
  /// about six characters in ten; words joined in camel case, at one in four or five): a generated key. Hex (hashes), UUIDs (ids) and words joined by
  /// `-` or `_` (slugs, names) are not.
  static func looksRandom(_ token: Substring) -> Bool {
    guard token.count >= 24 else { return false }
    let scalars = Array(token.unicodeScalars)
    if scalars.allSatisfy({ isHex($0) || $0 == "-" }) { return false }
    let parts = token.split(whereSeparator: { $0 == "-" || $0 == "_" })
    if parts.allSatisfy({ part in
      part.unicodeScalars.allSatisfy(\.properties.isAlphabetic) || part.unicodeScalars.allSatisfy(isDigit)
    }) {
      return false
    }
    guard scalars.contains(where: isDigit), scalars.contains(where: isUpper), scalars.contains(where: isLower) else {
      return false
    }
    var changes = 0
    for index in scalars.indices.dropFirst() where kind(scalars[index]) != kind(scalars[index - 1]) { changes += 1 }
    guard Double(changes) >= 0.4 * Double(scalars.count) else { return false }
    return entropy(scalars) >= 3.5
  }

  /// Shannon entropy in bits per character.
  static func entropy(_ scalars: [Unicode.Scalar]) -> Double {
    var counts: [Unicode.Scalar: Int] = [:]
    for scalar in scalars { counts[scalar, default: 0] += 1 }
    let total = Double(scalars.count)
    return counts.values.reduce(0) { sum, count in
      let p = Double(count) / total
      return sum - p * log2(p)
    }
  }

  // MARK: - Characters

  /// Text with its `${…}` references taken out (each leaves a space), `$${` kept as the `${` it writes.
  static func literalText(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let start = rest.firstRange(of: "${") {
      if rest[..<start.lowerBound].hasSuffix("$") {
        out += rest[..<start.upperBound]
        rest = rest[start.upperBound...]
        continue
      }
      out += rest[..<start.lowerBound]
      guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
        rest = rest[start.lowerBound...]
        break
      }
      out += " "
      rest = rest[rest.index(after: end)...]
    }
    return out + rest
  }

  static func tokenSeparators(_ scalar: Unicode.Scalar) -> Bool { !isCredentialCharacter(scalar) || scalar == "." }
  /// Paths split at `/` too, so that a long URL path is judged a segment at a time.
  static func entropySeparators(_ scalar: Unicode.Scalar) -> Bool {
    !isCredentialCharacter(scalar) || scalar == "." || scalar == "/"
  }

  private static func tokens(of text: String, separators: (Unicode.Scalar) -> Bool) -> [Substring] {
    var tokens: [Substring] = []
    var start: String.Index?
    var index = text.startIndex
    while index < text.endIndex {
      let scalar = text.unicodeScalars[index]
      if separators(scalar) {
        if let from = start { tokens.append(text[from..<index]) }
        start = nil
      } else if start == nil {
        start = index
      }
      index = text.unicodeScalars.index(after: index)
    }
    if let from = start { tokens.append(text[from...]) }
    return tokens
  }

  private static func isCredentialCharacter(_ scalar: Unicode.Scalar) -> Bool {
    isUpper(scalar) || isLower(scalar) || isDigit(scalar) || "-_.~+/=".unicodeScalars.contains(scalar)
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    isUpper(scalar) || isLower(scalar) || isDigit(scalar) || scalar == "_" || scalar == "-"
  }

  private static func isUpper(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) }
  private static func isLower(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) }
  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
  private static func isHex(_ scalar: Unicode.Scalar) -> Bool {
    isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
  }

  private static func kind(_ scalar: Unicode.Scalar) -> Int {
    isUpper(scalar) ? 0 : isLower(scalar) ? 1 : isDigit(scalar) ? 2 : 3
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
