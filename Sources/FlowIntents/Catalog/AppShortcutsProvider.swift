/// Zero-setup commands for a catalogue's most useful intents (App Intents' `AppShortcutsProvider`):
/// `flow do save to raindrop https://…` matches a phrase and asks for what is missing.
///
/// ```swift
/// struct RaindropShortcuts: AppShortcutsProvider {
///   static let applicationName = "Raindrop"
///   static var appShortcuts: [AppShortcut] {
///     AppShortcut(intent: SaveBookmarkIntent(), phrases: ["Save to \(.applicationName)"],
///                 shortTitle: "Save Bookmark", systemImageName: "bookmark.fill")
///   }
/// }
/// ```
public protocol AppShortcutsProvider: Sendable {
  /// What `\(.applicationName)` stands for in phrases.
  static var applicationName: String { get }
  @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
}

extension AppShortcutsProvider {
  public static var applicationName: String { "flow" }

  /// Every phrase of every shortcut with the application name filled in, lowercased for matching.
  public static var phrases: [(phrase: String, shortcut: AppShortcut)] {
    appShortcuts.flatMap { shortcut in
      shortcut.phrases.map { ($0.render(applicationName: applicationName), shortcut) }
    }
  }
}

/// One app shortcut: an intent, the phrases that start it, a short title and a symbol name.
public struct AppShortcut: Sendable {
  public let intentType: any AppIntent.Type
  public let phrases: [AppShortcutPhrase]
  public let shortTitle: String
  public let systemImageName: String?

  public init<Intent: AppIntent>(
    intent: Intent,
    phrases: [AppShortcutPhrase],
    shortTitle: LocalizedStringResource? = nil,
    systemImageName: String? = nil
  ) {
    self.intentType = Intent.self
    self.phrases = phrases
    self.shortTitle = shortTitle?.key ?? Intent.title.key
    self.systemImageName = systemImageName
  }
}

/// A phrase such as "Save to \(.applicationName)".
public struct AppShortcutPhrase: Sendable, Hashable, ExpressibleByStringInterpolation {
  /// Literal text, or the application name.
  public enum Part: Sendable, Hashable {
    case text(String)
    case applicationName
  }

  public var parts: [Part]

  public init(stringLiteral value: String) { self.parts = [.text(value)] }
  public init(stringInterpolation: StringInterpolation) { self.parts = stringInterpolation.parts }

  /// The phrase with the application name filled in, lowercased: "save to raindrop".
  public func render(applicationName: String) -> String {
    parts.map { part in
      switch part {
      case .text(let text): text
      case .applicationName: applicationName
      }
    }.joined().lowercased()
  }

  /// Builds a phrase from text and `\(.applicationName)`.
  public struct StringInterpolation: StringInterpolationProtocol {
    var parts: [Part] = []
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) { if !literal.isEmpty { parts.append(.text(literal)) } }
    public mutating func appendInterpolation(_ token: AppShortcutPhraseToken) { parts.append(.applicationName) }
  }
}

/// The tokens a phrase may contain.
public enum AppShortcutPhraseToken: Sendable {
  case applicationName
}

/// Lets `appShortcuts` list shortcuts one per line, as App Intents does.
@resultBuilder
public enum AppShortcutsBuilder {
  public static func buildExpression(_ shortcut: AppShortcut) -> [AppShortcut] { [shortcut] }
  public static func buildBlock(_ components: [AppShortcut]...) -> [AppShortcut] { components.flatMap { $0 } }
  public static func buildArray(_ components: [[AppShortcut]]) -> [AppShortcut] { components.flatMap { $0 } }
  public static func buildOptional(_ component: [AppShortcut]?) -> [AppShortcut] { component ?? [] }
}
