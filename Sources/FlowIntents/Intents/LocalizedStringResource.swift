/// Human text an intent declares: a title, a description, a dialog. App Intents' name, kept so that
/// declarations port unchanged; flow has one language, so it is the text itself.
package struct LocalizedStringResource: Sendable, Hashable, ExpressibleByStringInterpolation,
  CustomStringConvertible
{
  package var key: String

  package init(_ key: String) { self.key = key }
  package init(stringLiteral value: String) { self.key = value }
  package init(stringInterpolation: DefaultStringInterpolation) {
    self.key = String(stringInterpolation: stringInterpolation)
  }

  package var description: String { key }
}

/// A type whose values explain themselves to people: App Intents' protocol for readable errors.
///
/// ```swift
/// enum IntentServiceError: Error, CustomLocalizedStringResourceConvertible {
///   case notAuthenticated
///   var localizedStringResource: LocalizedStringResource { "please log in to Raindrop.io first" }
/// }
/// ```
package protocol CustomLocalizedStringResourceConvertible {
  var localizedStringResource: LocalizedStringResource { get }
}

/// What an intent does, in one sentence; `categoryName` groups it in listings.
package struct IntentDescription: Sendable, Hashable, ExpressibleByStringInterpolation {
  package var text: String
  package var categoryName: String?

  package init(_ text: LocalizedStringResource, categoryName: LocalizedStringResource? = nil) {
    self.text = text.key
    self.categoryName = categoryName?.key
  }

  package init(stringLiteral value: String) { self.init(LocalizedStringResource(value)) }
  package init(stringInterpolation: DefaultStringInterpolation) {
    self.init(LocalizedStringResource(String(stringInterpolation: stringInterpolation)))
  }
}

/// The name of an entity or enum type: "Bookmark", "Sort Order".
package struct TypeDisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
  package var name: String

  package init(name: LocalizedStringResource) { self.name = name.key }
  package init(stringLiteral value: String) { self.name = value }
  package init(stringInterpolation: DefaultStringInterpolation) {
    self.name = String(stringInterpolation: stringInterpolation)
  }
}

/// How one entity or enum case is shown: a title, and optionally a subtitle and a symbol name.
package struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
  /// A symbol name, kept for porting (`.init(systemName: "folder")`); the terminal does not draw it.
  package struct Image: Sendable, Hashable {
    package var systemName: String
    package init(systemName: String) { self.systemName = systemName }
  }

  package var title: String
  package var subtitle: String?
  package var image: Image?

  package init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil) {
    self.title = title.key
    self.subtitle = subtitle?.key
    self.image = image
  }

  package init(stringLiteral value: String) { self.init(title: LocalizedStringResource(value)) }
  package init(stringInterpolation: DefaultStringInterpolation) {
    self.init(title: LocalizedStringResource(String(stringInterpolation: stringInterpolation)))
  }
}

/// Text shown or spoken to the person: a result's dialog, a prompt, a confirmation question.
package struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
  package var text: String

  package init(_ text: LocalizedStringResource) { self.text = text.key }
  package init(stringLiteral value: String) { self.text = value }
  package init(stringInterpolation: DefaultStringInterpolation) {
    self.text = String(stringInterpolation: stringInterpolation)
  }

  package var description: String { text }
}
