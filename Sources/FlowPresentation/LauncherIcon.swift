/// A workflow's launcher icon: the share page's tile — a rounded square in the gradient of its
/// `color:`, with its `icon:` glyph or its initial — as a scalable SVG that launchers draw at any size.
public enum LauncherIcon {
  public static func svg(name: String, icon: String?, color: String?) -> String {
    let (from, to) = SharePage.gradient(color)
    let glyph = escape(SharePage.glyph(icon: icon, name: name))
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
        <defs><linearGradient id="tile" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="\(from)"/><stop offset="1" stop-color="\(to)"/>
        </linearGradient></defs>
        <rect x="4" y="4" width="120" height="120" rx="28" fill="url(#tile)"/>
        <text x="64" y="86" font-family="sans-serif" font-size="60" font-weight="600" fill="#ffffff" \
      text-anchor="middle">\(glyph)</text>
      </svg>

      """
  }

  private static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
