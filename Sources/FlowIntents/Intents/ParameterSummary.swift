/// A sentence that says what a step does, with its parameters in it (App Intents' `ParameterSummary`).
///
/// ```swift
/// static var parameterSummary: some ParameterSummary {
///   Summary("Save \(\.$url) to Raindrop.io") {
///     \.$title
///     \.$collection
///   }
/// }
/// ```
///
/// The sentence's parameters are shown inline; those in the trailing block follow it. `flow show`
/// renders it with a step's values, `flow actions` with placeholders.
public protocol ParameterSummary: Sendable {
  /// The sentence's parts and the trailing parameters, as parameter keys.
  func layout(keys: (AnyKeyPath) -> String?) -> SummaryLayout
}

/// A summary with its key paths turned into parameter keys: what renderers use.
public struct SummaryLayout: Sendable, Hashable {
  /// Literal text, or a parameter by key.
  public enum Part: Sendable, Hashable {
    case text(String)
    case parameter(String)
  }

  public var sentence: [Part]
  /// Parameters shown after the sentence.
  public var trailing: [String]
  /// Key paths that are not parameters of the intent (CatalogValidator reports them).
  public var unknownKeyPaths: Int
  /// Whether the intent declared no summary (the title stands in).
  public var isUndeclared: Bool

  public init(sentence: [Part], trailing: [String], unknownKeyPaths: Int = 0, isUndeclared: Bool = false) {
    self.sentence = sentence
    self.trailing = trailing
    self.unknownKeyPaths = unknownKeyPaths
    self.isUndeclared = isUndeclared
  }

  /// Every parameter key the summary mentions, sentence first.
  public var keys: [String] {
    sentence.compactMap { if case .parameter(let key) = $0 { key } else { nil } } + trailing
  }

  /// The sentence with values where a step gives them and `placeholder(key)` elsewhere; then the
  /// trailing parameters that have values, as `key: value`.
  ///
  /// `Save https://example.com to Raindrop.io (title: Example, tags: a, b)`.
  public func render(
    values: [String: String], placeholder: (String) -> String = { "<\($0)>" }, details showsDetails: Bool = true
  ) -> String {
    var out = ""
    for part in sentence {
      switch part {
      case .text(let text): out += text
      case .parameter(let key): out += values[key] ?? placeholder(key)
      }
    }
    let details = showsDetails ? trailing.compactMap { key in values[key].map { "\(key): \($0)" } } : []
    if !details.isEmpty { out += " (" + details.joined(separator: ", ") + ")" }
    return out
  }

  /// The sentence with placeholders, and the trailing parameters listed as placeholders too:
  /// `Save <url> to Raindrop.io [title] [collection]`, for `flow actions`.
  public func renderPlaceholders() -> String {
    var out = render(values: [:])
    for key in trailing { out += " [\(key)]" }
    return out
  }
}

/// The summary `Summary("…") { … }` builds for an intent.
public struct IntentParameterSummary<Intent: AppIntent>: ParameterSummary {
  let template: SummaryTemplate<Intent>
  let trailing: [PartialKeyPath<Intent>]
  let isUndeclared: Bool

  public init(_ template: SummaryTemplate<Intent>) {
    self.template = template
    self.trailing = []
    self.isUndeclared = false
  }

  public init(_ template: SummaryTemplate<Intent>, @SummaryBuilder<Intent> _ trailing: () -> [PartialKeyPath<Intent>]) {
    self.template = template
    self.trailing = trailing()
    self.isUndeclared = false
  }

  init(undeclared title: String) {
    self.template = SummaryTemplate(parts: [.text(title)])
    self.trailing = []
    self.isUndeclared = true
  }

  public func layout(keys: (AnyKeyPath) -> String?) -> SummaryLayout {
    var unknown = 0
    var sentence: [SummaryLayout.Part] = []
    for part in template.parts {
      switch part {
      case .text(let text): sentence.append(.text(text))
      case .parameter(let keyPath):
        if let key = keys(keyPath) { sentence.append(.parameter(key)) } else { unknown += 1 }
      }
    }
    var trailingKeys: [String] = []
    for keyPath in trailing {
      if let key = keys(keyPath) { trailingKeys.append(key) } else { unknown += 1 }
    }
    return SummaryLayout(
      sentence: sentence, trailing: trailingKeys, unknownKeyPaths: unknown, isUndeclared: isUndeclared)
  }
}

// Key paths are immutable values; the standard library has not yet marked them Sendable.
extension IntentParameterSummary: @unchecked Sendable {}

/// The sentence of a summary: text with `\(\.$parameter)` interpolations.
public struct SummaryTemplate<Intent: AppIntent>: ExpressibleByStringInterpolation, @unchecked Sendable {
  /// Literal text, or a parameter by key path.
  enum Part {
    case text(String)
    case parameter(PartialKeyPath<Intent>)
  }

  var parts: [Part]

  init(parts: [Part]) { self.parts = parts }

  public init(stringLiteral value: String) { self.parts = [.text(value)] }

  public init(stringInterpolation: StringInterpolation) { self.parts = stringInterpolation.parts }

  /// Builds the sentence from text and `\(\.$parameter)`.
  public struct StringInterpolation: StringInterpolationProtocol {
    var parts: [Part] = []

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) {
      if !literal.isEmpty { parts.append(.text(literal)) }
    }

    public mutating func appendInterpolation<Value>(_ keyPath: KeyPath<Intent, Parameter<Value>>) {
      parts.append(.parameter(keyPath))
    }
  }
}

/// Collects the trailing parameters of a summary: one `\.$name` per line.
@resultBuilder
public enum SummaryBuilder<Intent: AppIntent> {
  public static func buildExpression<Value>(_ keyPath: KeyPath<Intent, Parameter<Value>>) -> [PartialKeyPath<Intent>] {
    [keyPath]
  }

  public static func buildBlock(_ components: [PartialKeyPath<Intent>]...) -> [PartialKeyPath<Intent>] {
    components.flatMap { $0 }
  }
}
