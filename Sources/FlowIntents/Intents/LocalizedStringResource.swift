/// Human text an intent declares: a title, a description, a dialog. App Intents' name, kept so that
/// declarations port unchanged; flow has one language, so it is the text itself.
public struct LocalizedStringResource: Sendable, Hashable, ExpressibleByStringInterpolation,
  CustomStringConvertible
{
  public var key: String

  public init(_ key: String) { self.key = key }
  public init(stringLiteral value: String) { self.key = value }
  public init(stringInterpolation: DefaultStringInterpolation) {
    self.key = String(stringInterpolation: stringInterpolation)
  }

  public var description: String { key }
}

/// A type whose values explain themselves to people: App Intents' protocol for readable errors.
///
/// ```swift
/// enum IntentServiceError: Error, CustomLocalizedStringResourceConvertible {
///   case notAuthenticated
///   var localizedStringResource: LocalizedStringResource { "please log in to Raindrop.io first" }
/// }
/// ```
public protocol CustomLocalizedStringResourceConvertible {
  var localizedStringResource: LocalizedStringResource { get }
}

/// What an intent does, in one sentence; `categoryName` groups it in listings.
public struct IntentDescription: Sendable, Hashable, ExpressibleByStringInterpolation {
  public var text: String
  public var categoryName: String?

  public init(_ text: LocalizedStringResource, categoryName: LocalizedStringResource? = nil) {
    self.text = text.key
    self.categoryName = categoryName?.key
  }

  public init(stringLiteral value: String) { self.init(LocalizedStringResource(value)) }
  public init(stringInterpolation: DefaultStringInterpolation) {
    self.init(LocalizedStringResource(String(stringInterpolation: stringInterpolation)))
  }
}

/// The name of an entity or enum type: "Bookmark", "Sort Order".
public struct TypeDisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
  public var name: String

  public init(name: LocalizedStringResource) { self.name = name.key }
  public init(stringLiteral value: String) { self.name = value }
  public init(stringInterpolation: DefaultStringInterpolation) {
    self.name = String(stringInterpolation: stringInterpolation)
  }
}

/// How one entity or enum case is shown: a title, and optionally a subtitle and a symbol name.
public struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
  /// A symbol name, kept for porting (`.init(systemName: "folder")`); the terminal does not draw it.
  public struct Image: Sendable, Hashable {
    public var systemName: String
    public init(systemName: String) { self.systemName = systemName }
  }

  public var title: String
  public var subtitle: String?
  public var image: Image?

  public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil) {
    self.title = title.key
    self.subtitle = subtitle?.key
    self.image = image
  }

  public init(stringLiteral value: String) { self.init(title: LocalizedStringResource(value)) }
  public init(stringInterpolation: DefaultStringInterpolation) {
    self.init(title: LocalizedStringResource(String(stringInterpolation: stringInterpolation)))
  }
}

/// Text shown or spoken to the person: a result's dialog, a prompt, a confirmation question.
public struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
  public var text: String

  public init(_ text: LocalizedStringResource) { self.text = text.key }
  public init(stringLiteral value: String) { self.text = value }
  public init(stringInterpolation: DefaultStringInterpolation) {
    self.text = String(stringInterpolation: stringInterpolation)
  }

  public var description: String { text }
}
