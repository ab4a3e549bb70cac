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
package protocol AppShortcutsProvider: Sendable {
  /// What `\(.applicationName)` stands for in phrases.
  static var applicationName: String { get }
  @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
}

extension AppShortcutsProvider {
  package static var applicationName: String { "flow" }

  /// Every phrase of every shortcut with the application name filled in, lowercased for matching.
  package static var phrases: [(phrase: String, shortcut: AppShortcut)] {
    appShortcuts.flatMap { shortcut in
      shortcut.phrases.map { ($0.render(applicationName: applicationName), shortcut) }
    }
  }
}

/// One app shortcut: an intent, the phrases that start it, a short title and a symbol name.
package struct AppShortcut: Sendable {
  package let intentType: any AppIntent.Type
  package let phrases: [AppShortcutPhrase]
  package let shortTitle: String
  package let systemImageName: String?

  package init<Intent: AppIntent>(
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
package struct AppShortcutPhrase: Sendable, Hashable, ExpressibleByStringInterpolation {
  /// Literal text, or the application name.
  package enum Part: Sendable, Hashable {
    case text(String)
    case applicationName
  }

  package var parts: [Part]

  package init(stringLiteral value: String) { self.parts = [.text(value)] }
  package init(stringInterpolation: StringInterpolation) { self.parts = stringInterpolation.parts }

  /// The phrase with the application name filled in, lowercased: "save to raindrop".
  package func render(applicationName: String) -> String {
    parts.map { part in
      switch part {
      case .text(let text): text
      case .applicationName: applicationName
      }
    }.joined().lowercased()
  }

  /// Builds a phrase from text and `\(.applicationName)`.
  package struct StringInterpolation: StringInterpolationProtocol {
    var parts: [Part] = []
    package init(literalCapacity: Int, interpolationCount: Int) {}
    package mutating func appendLiteral(_ literal: String) { if !literal.isEmpty { parts.append(.text(literal)) } }
    package mutating func appendInterpolation(_ token: AppShortcutPhraseToken) { parts.append(.applicationName) }
  }
}

/// The tokens a phrase may contain.
package enum AppShortcutPhraseToken: Sendable {
  case applicationName
}

/// Lets `appShortcuts` list shortcuts one per line, as App Intents does.
@resultBuilder
package enum AppShortcutsBuilder {
  package static func buildExpression(_ shortcut: AppShortcut) -> [AppShortcut] { [shortcut] }
  package static func buildBlock(_ components: [AppShortcut]...) -> [AppShortcut] { components.flatMap { $0 } }
  package static func buildArray(_ components: [[AppShortcut]]) -> [AppShortcut] { components.flatMap { $0 } }
  package static func buildOptional(_ component: [AppShortcut]?) -> [AppShortcut] { component ?? [] }
}
