/// A workflow's `icon:` as a character the share page can draw.
///
/// `icon:` names a symbol, as Shortcuts names SF Symbols (`bookmark`, `trash`, `star.fill`). The page
/// is self-contained (no font or image is fetched), so each name maps to the emoji of the same thing,
/// which every browser draws in colour; a name the table lacks draws nothing, and the caller falls back
/// to the workflow's initial, as Shortcuts shows a shortcut without a symbol.
public enum IconGlyph {
  /// The glyph for `icon`; nil for a name the table lacks. SF Symbols' variants (`.fill`, `.circle`,
  /// `.badge.plus`…) and case do not matter: `Star.Fill` is a star.
  public static func glyph(for icon: String?) -> String? {
    guard let icon else { return nil }
    let name = icon.lowercased().trimmingCharacters(in: .whitespaces)
    let base = name.split(separator: ".").first.map(String.init) ?? name
    return glyphs[name] ?? glyphs[base]
  }

  /// The symbols workflows reach for: the gallery's, and Shortcuts' common ones.
  static let glyphs: [String: String] = [
    "archivebox": "🗄️", "bell": "🔔", "bolt": "⚡", "book": "📖", "bookmark": "🔖", "briefcase": "💼",
    "bubble": "💬", "calendar": "📅", "camera": "📷", "cart": "🛒", "chart": "📊", "checkmark": "✅",
    "clock": "🕒", "cloud": "☁️", "doc": "📄", "document": "📄", "envelope": "✉️", "flag": "🚩",
    "folder": "📁", "gear": "⚙️", "gearshape": "⚙️", "gift": "🎁", "globe": "🌐", "hand-wave": "👋",
    "hand": "✋", "heart": "❤️", "house": "🏠", "inbox": "📥", "key": "🔑", "leaf": "🍃", "lightbulb": "💡",
    "link": "🔗", "list": "📋", "lock": "🔒", "magnifyingglass": "🔍", "mail": "✉️", "map": "🗺️",
    "moon": "🌙", "music": "🎵", "newspaper": "📰", "paperclip": "📎", "paperplane": "📨", "pencil": "✏️",
    "person": "👤", "phone": "📞", "photo": "🖼️", "pin": "📌", "search": "🔍", "sparkles": "✨",
    "star": "⭐", "sun": "☀️", "tag": "🏷️", "trash": "🗑️", "tray": "📥", "wand": "🪄",
  ]
}
