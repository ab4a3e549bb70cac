import FlowDiagnostics
import FoundationEssentials

/// The share page `flow export --html` writes (issue 9): one self-contained HTML file that shows a
/// workflow as SwiftShortcuts shows a shared shortcut — a tile in the workflow's colour gradient, the
/// summary line, the steps as nested blocks (the outline `flow show` draws) and the permission card —
/// with the workflow file embedded for download, byte for byte, and the `flow import` command to copy.
///
/// No external asset and no network: CSS and script are inline, the file is a `data:` URL, and a
/// Content-Security-Policy forbids loading anything else. Everything from the workflow is escaped.
public enum SharePage {
  /// Who signed the file, as the page says it to whoever opens it.
  public struct Signer: Sendable {
    public var name: String
    /// The key's fingerprint, which the reader compares with what `flow import` shows them.
    public var fingerprint: String

    public init(name: String, fingerprint: String) {
      self.name = name
      self.fingerprint = fingerprint
    }
  }

  /// - Parameters:
  ///   - file: the exported workflow file, embedded as it is.
  ///   - fileName: the name the download gets, and the import command uses.
  ///   - signer: who signed the file. The page names the signer with the key's fingerprint rather than
  ///     as "trusted": whether a key is trusted is the reader's call, made on their machine at import.
  public static func html(_ outline: Outline, file: [UInt8], fileName: String, signer: Signer? = nil) -> String {
    let (from, to) = gradient(outline.color)
    let command = "flow import \(fileName)"
    var body = ""
    body += """
      <header class="hero">
        <div class="tile" style="--from:\(from);--to:\(to)" aria-hidden="true">
          <span class="glyph">\(glyph(outline))</span>
          <span class="tile-name">\(escape(outline.name))</span>
        </div>
        <div class="intro">
          <h1 id="name">\(escape(outline.name))</h1>

      """
    if let description = outline.description {
      body += "      <p class=\"description\">\(escape(description))</p>\n"
    }
    let signature = outline.summary.signature
    var summary = outline.summary.text
    if summary.hasSuffix(signature.words) { summary.removeLast(signature.words.count) }
    let signatureWords = signer.map { "signed by \($0.name) (key \($0.fingerprint))" } ?? signature.words
    body += """
          <p class="summary" id="summary">\(escape(summary))<span class="signature \(signature.isAlarming ? "alarm" : "")">\(escape(signatureWords))</span></p>
          <div class="get">
            <a id="download" class="button" download="\(escape(fileName))" href="data:application/yaml;base64,\(Data(file).base64EncodedString())">Download \(escape(fileName))</a>
            <div class="command"><code id="import-command">\(escape(command))</code><button id="copy" type="button">Copy</button></div>
          </div>
        </div>
      </header>

      """
    body += "<section class=\"card\" id=\"card\">\n  <h2>What it may do</h2>\n  <ul>\n"
    for line in CapabilityLines.lines(outline.capabilities, schedule: true, shared: true) {
      let script = line.verbatim.isEmpty ? "" : "<pre>\(escape(line.verbatim.joined(separator: "\n")))</pre>"
      body += "    <li class=\"tone-\(tone(line.tone))\">\(styled(line.text))\(script)</li>\n"
    }
    body += "  </ul>\n</section>\n"
    if !outline.inputs.isEmpty {
      body += "<section id=\"inputs\">\n  <h2>Input</h2>\n  <dl>\n"
      for input in outline.inputs {
        var details = [escape(input.type ?? "any type")]
        if let prompt = input.prompt { details.append("asks “\(escape(prompt))”") }
        if let value = input.defaultValue { details.append("default \(styled(value))") }
        if input.askOnImport { details.append("asked on import") }
        body += "    <dt>\(escape(input.name))</dt><dd>\(details.joined(separator: " · "))</dd>\n"
      }
      body += "  </dl>\n</section>\n"
    }
    if !outline.schedule.isEmpty {
      body += "<section id=\"schedule\">\n  <h2>Schedule</h2>\n  <ul>\n"
      for entry in outline.schedule { body += "    <li>\(styled(OutlineRenderer.words(entry)))</li>\n" }
      body += "  </ul>\n</section>\n"
    }
    body += "<section id=\"steps\">\n  <h2>Steps</h2>\n"
    body += steps(outline.steps, depth: 1)
    body += "</section>\n"
    if !outline.onFailure.isEmpty {
      body += "<section id=\"on-failure\">\n  <h2>If the run fails</h2>\n"
      body += steps(outline.onFailure, depth: 1)
      body += "</section>\n"
    }
    // Every workflow it runs, each once, with its steps: what runs is all on the page (issue 16).
    for (index, nested) in outline.workflows.enumerated() {
      body += "<section class=\"workflow\" id=\"workflow-\(index + 1)\" data-file=\"\(escape(nested.file))\">\n"
      body += "  <h2>Runs “\(escape(nested.name))” · \(escape(nested.file))"
      if !nested.carried { body += " <span class=\"tone-alarm\">not in this file</span>" }
      body += "</h2>\n"
      body += steps(nested.steps, depth: 1)
      body += "</section>\n"
    }
    body += """
      <section id="source">
        <details><summary>The file, as it will be imported</summary><pre>\(escape(String(decoding: file, as: UTF8.self)))</pre></details>
      </section>
      <footer>Shared with <strong>flow</strong>, Apple Shortcuts for Linux. Import it with <code>\(escape(command))</code>; flow shows what it may do and asks before it joins your library.</footer>

      """
    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
      <title>\(escape(outline.name)) · a flow workflow</title>
      <style>\(style)</style>
      </head>
      <body>
      <main>
      \(body)</main>
      <script>\(script)</script>
      </body>
      </html>

      """
  }

  // MARK: - Steps

  private static func steps(_ steps: [OutlineStep], depth: Int) -> String {
    let indent = String(repeating: "  ", count: depth)
    var html = "\(indent)<ol class=\"steps\">\n"
    for step in steps {
      let isBlock = step.end != nil
      html += "\(indent)  <li class=\"step kind-\(step.kind.name)\" data-position=\"\(step.position)\">\n"
      html += "\(indent)    <div class=\"block\(isBlock ? " opener" : "")\">"
      html += "<span class=\"position\">\(step.position)</span><span class=\"sentence\">\(styled(step.sentence))</span>"
      if let mark = step.mark {
        html += "<span class=\"mark effect-\(mark.effect)\">\(escape(mark.text))</span>"
      }
      for annotation in step.annotations {
        html += "<span class=\"note note-\(annotation.kind.rawValue)\">\(styled(annotation.text))</span>"
      }
      html += "</div>\n"
      for (index, branch) in step.branches.enumerated() {
        if index > 0 || branch.label != nil {
          html += "\(indent)    <div class=\"branch-label\">\(styled(branch.label ?? StyledText()))</div>\n"
        }
        html += Self.steps(branch.steps, depth: depth + 2)
      }
      if let end = step.end { html += "\(indent)    <div class=\"end\">\(escape(end))</div>\n" }
      html += "\(indent)  </li>\n"
    }
    return html + "\(indent)</ol>\n"
  }

  /// Styled text as HTML: chips for magic variables, marks for values, placeholders and block words.
  static func styled(_ text: StyledText) -> String {
    text.parts.map { part in
      switch part.kind {
      case .text: escape(part.text)
      case .variable:
        "<span class=\"chip\">\(escape(part.text.replacingEvery("⟨", with: "").replacingEvery("⟩", with: "")))</span>"
      case .coercion: "<span class=\"coercion\">\(escape(part.text))</span>"
      case .value: "<span class=\"value\">\(escape(part.text))</span>"
      case .placeholder: "<span class=\"placeholder\">\(escape(part.text))</span>"
      case .ask: "<span class=\"ask\">\(escape(part.text))</span>"
      case .keyword: "<strong>\(escape(part.text))</strong>"
      }
    }.joined()
  }

  /// Text safe in HTML content and attribute values. The bidirectional overrides and isolates are
  /// shown as `�`, as at a terminal (see `TerminalSafe`): a browser obeys them too, and the page must
  /// read as the file does. The download link carries the exact bytes.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}": out += "&#xFFFD;"
      default: out.append(character)
      }
    }
    return out
  }

  private static func tone(_ tone: CapabilityLines.Tone) -> String {
    switch tone {
    case .plain: "plain"
    case .changes: "changes"
    case .deletes: "deletes"
    case .alarm: "alarm"
    }
  }

  /// The tile's glyph, as HTML: the drawing of the workflow's `icon:`, else the first letter of the name
  /// (escaped), as Shortcuts shows a shortcut without a symbol. Never an emoji: it would need a
  /// colour-emoji font the reader may not have (IconGlyph).
  private static func glyph(_ outline: Outline) -> String {
    IconGlyph.svg(for: outline.icon)
      ?? escape(outline.name.first.map { String($0).uppercased() } ?? "")
  }

  /// The two ends of a palette colour's gradient, lighter at the top as Shortcuts draws its tiles.
  static func gradient(_ color: String?) -> (String, String) {
    switch color {
    case "red": ("#ff7b72", "#e03131")
    case "orange": ("#ffb35c", "#f76707")
    case "yellow": ("#ffd84d", "#f59f00")
    case "green": ("#6fdd83", "#2b8a3e")
    case "mint": ("#63e6be", "#0ca678")
    case "teal": ("#4fd1e0", "#0c8599")
    case "cyan": ("#72e3f0", "#1098ad")
    case "blue": ("#5db5ff", "#1864ab")
    case "indigo": ("#8c9eff", "#364fc7")
    case "purple": ("#c0a3ff", "#6741d9")
    case "pink": ("#ff8fba", "#c2255c")
    case "brown": ("#d2ab84", "#7f5539")
    case "light-gray": ("#e9ecef", "#adb5bd")
    case "dark-gray": ("#868e96", "#212529")
    default: ("#adb5bd", "#495057")
    }
  }

  private static let style = """

    :root { color-scheme: light dark; --ink: #1d1d1f; --soft: #6e6e73; --line: #d2d2d7; --paper: #f5f5f7; --panel: #ffffff;
      --chip: #0a84ff; --chip-ink: #ffffff; --changes: #b25000; --deletes: #d70015; }
    @media (prefers-color-scheme: dark) { :root { --ink: #f5f5f7; --soft: #a1a1a6; --line: #3a3a3c; --paper: #1c1c1e;
      --panel: #2c2c2e; --changes: #ff9f0a; --deletes: #ff453a; } }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--paper); color: var(--ink);
      font: 15px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, "DejaVu Sans", sans-serif; }
    main { max-width: 860px; margin: 0 auto; padding: 32px 20px 48px; }
    h1 { font-size: 30px; margin: 0 0 6px; letter-spacing: -0.02em; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.06em; color: var(--soft); margin: 0 0 10px; }
    section { background: var(--panel); border-radius: 16px; padding: 18px 20px; margin: 18px 0;
      box-shadow: 0 1px 2px rgba(0,0,0,0.06); }
    .hero { display: flex; gap: 24px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
    .tile { width: 168px; height: 168px; border-radius: 28px; padding: 18px; color: #fff; flex: none;
      display: flex; flex-direction: column; justify-content: space-between;
      background: linear-gradient(180deg, var(--from), var(--to)); box-shadow: 0 10px 24px rgba(0,0,0,0.18); }
    .glyph { width: 44px; height: 44px; border-radius: 50%; background: rgba(255,255,255,0.25);
      display: flex; align-items: center; justify-content: center; font-weight: 700; font-size: 22px; }
    .tile-name { font-weight: 600; font-size: 17px; line-height: 1.2; overflow-wrap: anywhere; }
    .intro { flex: 1; min-width: 260px; }
    .description { margin: 0 0 6px; font-size: 17px; }
    .summary { margin: 0 0 14px; color: var(--soft); }
    .signature.alarm { color: var(--deletes); font-weight: 600; }
    .get { display: flex; gap: 10px; flex-wrap: wrap; align-items: center; }
    .button { display: inline-block; background: var(--chip); color: #fff; text-decoration: none; font-weight: 600;
      padding: 9px 16px; border-radius: 999px; }
    .command { display: inline-flex; align-items: center; border: 1px solid var(--line); border-radius: 999px;
      overflow: hidden; background: var(--panel); }
    .command code { padding: 8px 12px; font: 13px ui-monospace, "DejaVu Sans Mono", monospace; }
    .command button { border: 0; border-left: 1px solid var(--line); background: transparent; color: var(--chip);
      font: inherit; font-weight: 600; padding: 8px 14px; cursor: pointer; }
    .card ul, #schedule ul { margin: 0; padding-left: 18px; }
    .card li { margin: 3px 0; }
    .tone-changes { color: var(--changes); }
    .tone-deletes { color: var(--deletes); }
    .tone-alarm { color: var(--deletes); font-weight: 700; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
    dt { font-weight: 600; }
    dd { margin: 0; color: var(--soft); }
    ol.steps { list-style: none; margin: 0; padding: 0; }
    ol.steps ol.steps { margin: 6px 0 4px 18px; padding-left: 12px; border-left: 3px solid var(--line); }
    .block { position: relative; background: var(--paper); border-radius: 12px; padding: 10px 12px 10px 44px;
      margin: 6px 0; display: flex; flex-wrap: wrap; gap: 2px 10px; align-items: baseline; }
    .position { position: absolute; left: 12px; top: 11px; font-size: 12px; color: var(--soft);
      font-variant-numeric: tabular-nums; }
    .sentence { flex: 1 1 60%; }
    .mark { font-size: 12px; color: var(--soft); white-space: nowrap; }
    .mark.effect-changes, .mark.effect-unknown { color: var(--changes); }
    .mark.effect-destructive { color: var(--deletes); font-weight: 600; }
    .note { flex-basis: 100%; font-size: 13px; color: var(--soft); }
    .note-unattended { color: var(--deletes); font-weight: 600; }
    .branch-label, .end { font-weight: 600; font-size: 13px; color: var(--soft); margin: 6px 0 0 6px; }
    .chip { display: inline-block; background: var(--chip); color: var(--chip-ink); border-radius: 7px;
      padding: 0 7px; font-size: 13.5px; font-weight: 600; line-height: 1.55; }
    .value { font-weight: 500; }
    .placeholder, .coercion { color: var(--soft); }
    .ask { color: #bf5af2; font-weight: 600; }
    pre { overflow: auto; font: 12.5px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; margin: 12px 0 0; }
    summary { cursor: pointer; font-weight: 600; }
    footer { color: var(--soft); font-size: 13px; text-align: center; margin-top: 28px; }

    """

  private static let script = """

    (function () {
      var button = document.getElementById("copy");
      var command = document.getElementById("import-command");
      function select() {
        var range = document.createRange();
        range.selectNodeContents(command);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      }
      button.addEventListener("click", function () {
        var done = function () { button.textContent = "Copied"; };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(command.textContent).then(done, function () { select(); button.textContent = "Press Ctrl-C"; });
        } else {
          select();
          button.textContent = "Press Ctrl-C";
        }
      });
    })();

    """
}
