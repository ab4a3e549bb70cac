import FlowDiagnostics
import FlowYAML

/// A phrase `flow do` answers to (SPEC §11 `phrases:`, an App Shortcut's phrase): words, and inputs
/// named as whole words (`save ${url} for later`), which take the words typed in their place.
///
/// Words match case-insensitively, one typed word each; an input takes one or more typed words (as
/// few as let the rest match). What is typed after the phrase is the rest, which `flow do` gives to the
/// one input the phrase does not name.
public struct Phrase: Sendable, Hashable {
  public enum Token: Sendable, Hashable {
    /// A word, lowercased.
    case word(String)
    /// `${NAME}`: an input of the workflow.
    case input(String)
  }

  /// The phrase as written.
  public let text: String
  public let tokens: [Token]

  /// The most words a phrase may have: a phrase is something said.
  public static let maximumWords = 16

  /// What tells two phrases apart: its words, each input as `${}`. Phrases with the same key answer to
  /// the same words, so they clash.
  public var key: String {
    tokens.map { token in
      switch token {
      case .word(let word): word
      case .input: "${}"
      }
    }.joined(separator: " ")
  }

  /// How many of its tokens are words: the more, the more specific the phrase.
  public var wordCount: Int { tokens.count { if case .word = $0 { true } else { false } } }

  /// The inputs the phrase names, in order.
  public var inputs: [String] {
    tokens.compactMap { if case .input(let name) = $0 { name } else { nil } }
  }

  /// A phrase without inputs, as the catalogues' app shortcuts have them.
  public init(words text: String) {
    self.text = text
    tokens = text.split(whereSeparator: \.isWhitespace).map { .word($0.lowercased()) }
  }

  init(text: String, tokens: [Token]) {
    self.text = text
    self.tokens = tokens
  }

  /// What `typed` fills: the inputs the phrase names, and the words after it; nil when it does not match.
  public func match(_ typed: [String]) -> (values: [String: String], rest: [String])? {
    var values: [String: String] = [:]
    func match(_ token: Int, _ word: Int) -> Int? {
      guard token < tokens.count else { return word }
      switch tokens[token] {
      case .word(let expected):
        guard word < typed.count, typed[word].lowercased() == expected else { return nil }
        return match(token + 1, word + 1)
      case .input(let name):
        // The last token takes every remaining word; one inside takes as few as let the rest match.
        guard word < typed.count else { return nil }
        let ends = token == tokens.count - 1 ? [typed.count] : Array((word + 1)...typed.count)
        for end in ends {
          if let matched = match(token + 1, end) {
            values[name] = typed[word..<end].joined(separator: " ")
            return matched
          }
        }
        return nil
      }
    }
    guard let end = match(0, 0) else { return nil }
    return (values, Array(typed[end...]))
  }
}

extension Phrase {
  /// Reads `phrases:`: each scalar a phrase, its problems (an input that is not a whole word, one the
  /// workflow does not declare, two side by side, a phrase twice) at their columns.
  static func parse(
    _ node: YAMLNode, inputs: [String], report: (Diagnostic) -> Void
  ) -> [Located<Phrase>] {
    guard let sequence = node.sequence else { return [] }
    var phrases: [Located<Phrase>] = []
    var seen: [String: SourceSpan] = [:]
    for item in sequence.items {
      guard let scalar = item.scalar, scalar.resolved != .null else { continue }
      guard let phrase = parse(scalar, inputs: inputs, report: report) else { continue }
      if let first = seen[phrase.key] {
        report(
          Diagnostic(
            .error, .phraseClash, "'\(phrase.text)' answers to the same words as a phrase above", at: scalar.span
          )
          .note("the other phrase is here", at: first)
          .help("each phrase must say something the others do not"))
        continue
      }
      seen[phrase.key] = scalar.span
      phrases.append(Located(phrase, at: scalar.span))
    }
    return phrases
  }

  private static func parse(_ scalar: YAMLNode.Scalar, inputs: [String], report: (Diagnostic) -> Void) -> Phrase? {
    let locator = ScalarLocator(scalar)
    let scalars = Array(scalar.value.unicodeScalars)
    var tokens: [Token] = []
    var named: Set<String> = []
    var valid = true
    var index = 0
    while index < scalars.count {
      guard !scalars[index].properties.isWhitespace else {
        index += 1
        continue
      }
      var end = index
      while end < scalars.count, !scalars[end].properties.isWhitespace { end += 1 }
      let word = String(String.UnicodeScalarView(scalars[index..<end]))
      let span = locator.span(index, end)
      defer { index = end }
      guard word.contains("${") else {
        tokens.append(.word(word.lowercased()))
        continue
      }
      guard word.hasPrefix("${"), word.hasSuffix("}"), word.count > 3,
        !word.dropFirst(2).dropLast().contains(where: { "${}".contains($0) })
      else {
        valid = false
        report(
          Diagnostic(.error, .invalidPhrase, "an input in a phrase is a word of its own: '\(word)'", at: span)
            .help("put spaces around it, as in 'save ${url} for later'"))
        continue
      }
      // `${input.url}`, as steps write it, is `${url}` too.
      var name = String(word.dropFirst(2).dropLast())
      if name.hasPrefix("input.") { name.removeFirst("input.".count) }
      guard inputs.contains(name) else {
        valid = false
        report(
          Diagnostic(.error, .unknownPhraseInput, "the phrase names '\(name)', which is not an input", at: span)
            .help(
              Suggestion.help(for: name, among: inputs, listUpTo: 8)
                ?? "declare it under 'input:', or write the word without '${…}'"))
        continue
      }
      guard named.insert(name).inserted else {
        valid = false
        report(Diagnostic(.error, .invalidPhrase, "the phrase names '\(name)' twice", at: span))
        continue
      }
      if case .input? = tokens.last {
        valid = false
        report(
          Diagnostic(.error, .invalidPhrase, "two inputs side by side cannot be told apart", at: span)
            .help("put a word between them"))
        continue
      }
      tokens.append(.input(name))
    }
    guard valid else { return nil }
    guard case .word? = tokens.first else {
      report(
        Diagnostic(
          .error, .invalidPhrase,
          tokens.isEmpty ? "a phrase needs words" : "a phrase starts with a word, not an input", at: scalar.span
        ).help("write what a person would say, like 'tidy my downloads' or 'save ${url} for later'"))
      return nil
    }
    guard tokens.count <= maximumWords else {
      report(
        Diagnostic(
          .error, .invalidPhrase, "a phrase has at most \(maximumWords) words; this one has \(tokens.count)",
          at: scalar.span))
      return nil
    }
    return Phrase(text: scalar.value.split(whereSeparator: \.isWhitespace).joined(separator: " "), tokens: tokens)
  }
}

extension DiagnosticCode {
  /// A phrase under `phrases:` that cannot be matched: an input inside a word, two side by side, none
  /// but inputs.
  public static let invalidPhrase: Self = "invalid-phrase"
  /// A phrase names an input the workflow does not declare.
  public static let unknownPhraseInput: Self = "unknown-phrase-input"
  /// Two phrases answer to the same words: in one file, two workflows of the library, or a workflow and
  /// an app shortcut of the catalogue.
  public static let phraseClash: Self = "phrase-clash"
}
