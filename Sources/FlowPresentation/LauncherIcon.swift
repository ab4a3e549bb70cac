/// A workflow's launcher icon: the share page's tile — a rounded square in the gradient of its
/// `color:`, with its `icon:` glyph or its initial — as a scalable SVG that launchers draw at any size.
public enum LauncherIcon {
  public static func svg(name: String, icon: String?, color: String?) -> String {
    let (from, to) = SharePage.gradient(color)
    // The icon's line drawing when `icon:` names one, else the initial: never an emoji, which would
    // need a colour-emoji font the desktop may not have (IconGlyph).
    let glyph =
      IconGlyph.shapes(for: icon).map {
        ##"<g transform="translate(28 28) scale(3)" fill="none" stroke="#ffffff" stroke-width="2" "##
          + ##"stroke-linecap="round" stroke-linejoin="round">\##($0)</g>"##
      }
        ?? """
        <text x="64" y="86" font-family="sans-serif" font-size="60" font-weight="600" fill="#ffffff" \
        text-anchor="middle">\(escape(name.first.map { String($0).uppercased() } ?? "F"))</text>
        """
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
        <defs><linearGradient id="tile" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="\(from)"/><stop offset="1" stop-color="\(to)"/>
        </linearGradient></defs>
        <rect x="4" y="4" width="120" height="120" rx="28" fill="url(#tile)"/>
        \(glyph)
      </svg>

      """
  }

  private static func escape(_ text: String) -> String {
    text.replacingEvery("&", with: "&amp;").replacingEvery("<", with: "&lt;")
      .replacingEvery(">", with: "&gt;")
  }
}
