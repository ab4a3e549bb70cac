/// A workflow's `icon:` as a drawing the share page can show.
///
/// `icon:` names a symbol, as Shortcuts names SF Symbols (`bookmark`, `trash`, `star.fill`). The page
/// is self-contained (no font or image is fetched) and must not depend on the reader's fonts: an emoji
/// needs a colour-emoji font, which many Linux machines lack, and then draws as an empty box. So each
/// name maps to a small line drawing, inline SVG in the tile's white, which every browser draws the
/// same with no font at all. A name the table lacks draws nothing, and the caller falls back to the
/// workflow's initial, as Shortcuts shows a shortcut without a symbol.
public enum IconGlyph {
  /// The drawing for `icon`, as an `<svg>` element; nil for a name the table lacks. SF Symbols' variants
  /// (`.fill`, `.circle`, `.badge.plus`…) and case do not matter: `Star.Fill` is a star.
  public static func svg(for icon: String?) -> String? {
    guard let shapes = shapes(for: icon) else { return nil }
    return """
      <svg class="symbol" viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" \
      stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">\(shapes)</svg>
      """
  }

  /// The drawing's shapes alone, on a 24-unit square, stroked in `currentColor` by whatever holds them:
  /// for another SVG to place and scale (a launcher's icon) without a font either.
  public static func shapes(for icon: String?) -> String? {
    guard let icon else { return nil }
    let name = icon.lowercased().trimmingWhitespace()
    let base = name.split(separator: ".").first.map(String.init) ?? name
    return drawings[name] ?? drawings[base]
  }

  /// Every symbol name the page draws.
  public static var names: [String] { drawings.keys.sorted() }

  /// Whether `icon` names a symbol the page draws.
  public static func draws(_ icon: String?) -> Bool { svg(for: icon) != nil }

  private static let envelope = #"<rect x="3" y="5" width="18" height="14" rx="2"/><path d="M3 7l9 6 9-6"/>"#
  private static let document = #"<path d="M6 3h8l4 4v14H6z"/><path d="M14 3v4h4M9 12h6M9 16h6"/>"#
  private static let gear =
    #"<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1"/>"#
  private static let tray = #"<path d="M3 13l3-8h12l3 8v6H3z"/><path d="M3 13h5l1 3h6l1-3h5"/>"#
  private static let magnifier = #"<circle cx="10.5" cy="10.5" r="6.5"/><path d="M15.5 15.5L21 21"/>"#

  /// The symbols workflows reach for: the gallery's, and Shortcuts' common ones.
  static let drawings: [String: String] = [
    "archivebox": #"<rect x="3" y="4" width="18" height="5" rx="1"/><path d="M5 9v11h14V9M10 13h4"/>"#,
    "battery": #"<rect x="2" y="7" width="17" height="10" rx="2"/><path d="M22 11v2M5 10v4"/>"#,
    "bell": #"<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z"/><path d="M10 20a2 2 0 0 0 4 0"/>"#,
    "bolt": #"<path d="M13 2L4 14h7l-1 8 9-12h-7z"/>"#,
    "book": #"<path d="M12 6C10 4 6 4 3 5v14c3-1 7-1 9 1 2-2 6-2 9-1V5c-3-1-7-1-9 1zM12 6v14"/>"#,
    "bookmark": #"<path d="M6 3h12v18l-6-5-6 5z"/>"#,
    "briefcase": #"<rect x="3" y="7" width="18" height="13" rx="2"/><path d="M9 7V4h6v3M3 13h18"/>"#,
    "bubble": #"<path d="M4 5h16v11H9l-5 4z"/>"#,
    "calendar": #"<rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4M16 3v4"/>"#,
    "camera": #"<path d="M3 8h4l2-3h6l2 3h4v12H3z"/><circle cx="12" cy="13" r="4"/>"#,
    "cart": #"<path d="M2 3h3l3 12h11l2-8H6"/><circle cx="9" cy="20" r="1.5"/><circle cx="18" cy="20" r="1.5"/>"#,
    "chart": #"<path d="M4 20V10M10 20V4M16 20v-7M22 20H2"/>"#,
    "checkmark": #"<path d="M4 12l5 5L20 6"/>"#,
    "clock": #"<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 3"/>"#,
    "cloud": #"<path d="M7 18h11a4 4 0 0 0 0-8 6 6 0 0 0-11.5 1.5A3.5 3.5 0 0 0 7 18z"/>"#,
    "doc": document, "document": document,
    "envelope": envelope, "mail": envelope,
    "flag": #"<path d="M5 21V4M5 4h12l-2 4 2 4H5"/>"#,
    "folder": #"<path d="M3 6h6l2 2h10v11H3z"/>"#,
    "gear": gear, "gearshape": gear,
    "gift":
      #"<rect x="3" y="8" width="18" height="4"/><path d="M5 12v9h14v-9M12 8v13M12 8C10 4 6 5 8 8M12 8c2-4 6-3 4 0"/>"#,
    "globe": #"<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18"/>"#,
    "hand-wave":
      #"<path d="M8 13V6a1.5 1.5 0 0 1 3 0v5M11 11V4.5a1.5 1.5 0 0 1 3 0V11M14 11V6a1.5 1.5 0 0 1 3 0v8c0 4-3 7-7 7-3 0-5-2-6-4l-2-4a1.5 1.5 0 0 1 2.5-1.5L8 15"/>"#,
    "hand":
      #"<path d="M8 13V6a1.5 1.5 0 0 1 3 0v5M11 11V4.5a1.5 1.5 0 0 1 3 0V11M14 11V6a1.5 1.5 0 0 1 3 0v8c0 4-3 7-7 7-3 0-5-2-6-4l-2-4a1.5 1.5 0 0 1 2.5-1.5L8 15"/>"#,
    "heart": #"<path d="M12 20S3 14 3 8.5A4.5 4.5 0 0 1 12 6a4.5 4.5 0 0 1 9 2.5C21 14 12 20 12 20z"/>"#,
    "house": #"<path d="M3 11l9-7 9 7M5 10v10h5v-6h4v6h5V10"/>"#,
    "inbox": tray, "tray": tray,
    "key": #"<circle cx="8" cy="15" r="4"/><path d="M11 12l9-9M17 6l3 3M15 8l2 2"/>"#,
    "leaf": #"<path d="M5 19C5 9 11 4 20 4c0 9-5 15-15 15zM5 19l8-8"/>"#,
    "lightbulb": #"<path d="M9 18h6M10 21h4M8 14a6 6 0 1 1 8 0c-1 1-1 2-1 4H9c0-2 0-3-1-4z"/>"#,
    "link": #"<path d="M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1"/>"#,
    "list":
      #"<path d="M9 6h12M9 12h12M9 18h12"/><circle cx="4" cy="6" r="1"/><circle cx="4" cy="12" r="1"/><circle cx="4" cy="18" r="1"/>"#,
    "lock": #"<rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>"#,
    "magnifyingglass": magnifier, "search": magnifier,
    "map": #"<path d="M3 6l6-3 6 3 6-3v15l-6 3-6-3-6 3zM9 3v15M15 6v15"/>"#,
    "moon": #"<path d="M20 14A8 8 0 1 1 10 4a6 6 0 0 0 10 10z"/>"#,
    "music": #"<path d="M9 18V5l11-2v13"/><circle cx="6.5" cy="18" r="2.5"/><circle cx="17.5" cy="16" r="2.5"/>"#,
    "newspaper": #"<path d="M4 4h13v16H6a2 2 0 0 1-2-2zM17 8h3v10a2 2 0 0 1-4 0M7 8h7M7 12h7M7 16h4"/>"#,
    "paperclip": #"<path d="M20 11l-8 8a5 5 0 0 1-7-7l9-9a3.5 3.5 0 0 1 5 5l-9 9a2 2 0 0 1-3-3l8-8"/>"#,
    "paperplane": #"<path d="M21 3L3 11l7 3 3 7zM10 14l11-11"/>"#,
    "pencil": #"<path d="M4 20l1-5L16 4l4 4L9 19zM14 6l4 4"/>"#,
    "person": #"<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>"#,
    "phone": #"<path d="M5 3h4l2 5-3 2a12 12 0 0 0 6 6l2-3 5 2v4a2 2 0 0 1-2 2A17 17 0 0 1 3 5a2 2 0 0 1 2-2z"/>"#,
    "photo":
      #"<rect x="3" y="4" width="18" height="16" rx="2"/><circle cx="9" cy="10" r="2"/><path d="M21 16l-5-5-9 9"/>"#,
    "pin": #"<path d="M12 22s7-7 7-12a7 7 0 0 0-14 0c0 5 7 12 7 12z"/><circle cx="12" cy="10" r="2.5"/>"#,
    "sparkles": #"<path d="M10 3l2 5 5 2-5 2-2 5-2-5-5-2 5-2zM18 14l1 3 3 1-3 1-1 3-1-3-3-1 3-1z"/>"#,
    "star": #"<path d="M12 3l2.8 5.8 6.2.9-4.5 4.4 1 6.2L12 17.4l-5.5 2.9 1-6.2L3 9.7l6.2-.9z"/>"#,
    "sun":
      #"<circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M2 12h2M20 12h2M5 5l1.5 1.5M17.5 17.5L19 19M5 19l1.5-1.5M17.5 6.5L19 5"/>"#,
    "tag": #"<path d="M3 12V3h9l9 9-9 9z"/><circle cx="7.5" cy="7.5" r="1.5"/>"#,
    "trash": #"<path d="M4 7h16M10 3h4M6 7l1 14h10l1-14M10 11v6M14 11v6"/>"#,
    "wand": #"<path d="M4 20L16 8M14 4v2M18 8h2M17 5l1.5-1.5M19 11h-1"/>"#,
  ]
}
