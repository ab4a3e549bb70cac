import FlowDiagnostics
import FlowIntents
import FoundationEssentials
import Glibc

/// Dialogs on the person's desktop, through a dialog tool: `yad` or `zenity` (GNOME's) on GTK desktops,
/// `kdialog` on KDE's. No portal offers a general dialog, and a toolkit of flow's own would
/// cost every run its libraries; a tool costs only the runs that ask, once per question.
///
/// Each dialog is one child process (``Subprocess``) with the run's environment; what the person
/// types comes back on its standard output, never in an argument another user could read (a list's
/// options go to its standard input, a masked answer is never given as a default).
public struct DesktopDialogs: Sendable {
  public enum Tool: String, Sendable, Hashable, CaseIterable {
    case zenity, kdialog, yad
  }

  /// What a dialog asks.
  public enum Dialog: Sendable, Hashable {
    /// A one-line field; `hidden` shows dots for what is typed.
    case entry(text: String, initial: String?, hidden: Bool)
    /// A text of several lines, in an editable box.
    case text(text: String, initial: String?)
    /// A list to pick one option from, or several; the answer is their indices.
    case list(text: String, options: [String], multiple: Bool)
    /// A yes/no question; `warning` words it as one that cannot be undone (a warning icon, Cancel first).
    case question(text: String, warning: Bool)
  }

  public enum Answer: Sendable, Hashable {
    case text(String)
    case chosen([Int])
    case yes
    /// Cancel, Escape, the window closed (for a question, its "no").
    case cancelled
  }

  public let tool: Tool
  /// The tool's path, found on the run's `PATH`.
  public let executable: String
  public let environment: [String: String]
  /// The window's title: which workflow asks.
  public var title: String
  /// How long a dialog waits for the person before the run is cancelled.
  public var timeout: Duration = .seconds(15 * 60)

  public init(tool: Tool, executable: String, environment: [String: String], title: String) {
    self.tool = tool
    self.executable = executable
    self.environment = environment
    self.title = title
  }

  // MARK: - Which tool

  /// Why this environment has no desktop session to show a dialog in, or nil when it has one: a display
  /// (`WAYLAND_DISPLAY` or `DISPLAY`) and a session bus (the dialog tools, and the person's desktop,
  /// live on it). Read from the environment, and a `stat` of the bus's socket at most.
  public static func missingSession(environment: [String: String], uid: UInt32) -> String? {
    if (environment["WAYLAND_DISPLAY"] ?? "").isEmpty, (environment["DISPLAY"] ?? "").isEmpty {
      return SystemClipboard.noDisplay
    }
    return DBusNotifications(environment: environment, uid: uid).missingBus().map { "no D-Bus session bus: " + $0 }
  }

  /// The tools in the order they are tried on a desktop (`XDG_CURRENT_DESKTOP`, a colon-separated
  /// list): KDE's and LXQt's own first there; on every other desktop (GNOME, Xfce, Cinnamon, MATE,
  /// Budgie: GTK desktops) the two GTK tools, yad before zenity, which it forked and which takes two to
  /// three times as long to show its window and twice the memory (zenity 3.44 loads WebKit for
  /// `--html`; Desktop.md has the figures), then kdialog.
  public static func order(desktop: String?) -> [Tool] {
    let names = (desktop ?? "").uppercased().split(separator: ":").map(String.init)
    if names.contains(where: { $0 == "KDE" || $0 == "LXQT" }) { return [.kdialog, .yad, .zenity] }
    return [.yad, .zenity, .kdialog]
  }

  /// The first tool of ``order(desktop:)`` installed on the run's `PATH`, or nil.
  public static func find(environment: [String: String], title: String) -> DesktopDialogs? {
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    for tool in order(desktop: environment["XDG_CURRENT_DESKTOP"]) {
      if let executable = try? Subprocess.locate(tool.rawValue, path: path) {
        return DesktopDialogs(tool: tool, executable: executable, environment: environment, title: title)
      }
    }
    return nil
  }

  /// What to install when no tool is there, for this desktop: its own first.
  public static func installHelp(desktop: String?) -> String {
    let tools = order(desktop: desktop).map(\.rawValue)
    return "install \(tools[0]) ('apt-get install \(tools[0])'), or \(tools[1]) or \(tools[2]), to be asked in a dialog"
  }

  // MARK: - Asking

  /// Shows `dialog` and waits for the person (at most ``timeout``, after which the run is cancelled).
  public func ask(_ dialog: Dialog) async throws -> Answer {
    let (arguments, input) = invocation(dialog)
    let options = Subprocess.Options(
      executable: executable, arguments: arguments, environment: environment, standardOutput: .pipe,
      standardError: .pipe)
    let result: Subprocess.Collected
    do {
      result = try await Subprocess.collectOnThread(options, input: input, deadline: timeout)
    } catch let error where error.code == ETIMEDOUT {
      throw AppIntentError(
        .userCancelled, "nobody answered the dialog within \(Int(timeout.components.seconds / 60)) minutes")
    } catch {
      throw AppIntentError.failed("cannot show a dialog with \(tool.rawValue): \(error.message)")
    }
    switch result.termination {
    case .exited(0):
      break
    // GTK's tools exit 1 when they cannot reach the display too, which is no answer of the person's.
    case .exited(1) where result.errorText.contains("cannot open display"):
      let display = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["DISPLAY"] ?? ""
      throw AppIntentError.failed(
        "cannot show a dialog: '\(tool.rawValue)' cannot open the display '\(display)'",
        help: "run it in the person's desktop session, or pass --no-input to never ask")
    // Cancel or Escape (1), yad's window closed (252).
    case .exited(1), .exited(252):
      return .cancelled
    default:
      let detail = result.errorText.split(separator: "\n").last.map { ": \($0)" } ?? ""
      throw AppIntentError.failed(
        "cannot show a dialog: '\(tool.rawValue)' exited with status \(result.termination.shellStatus)\(detail)")
    }
    var output = String(decoding: result.output, as: UTF8.self)
    if output.hasSuffix("\n") { output.removeLast() }
    switch dialog {
    case .entry, .text: return .text(output)
    case .question: return .yes
    case .list(_, let options, _):
      // Each tool prints the tags (1-based) of the rows chosen, one a line (kdialog quotes none with
      // --separate-output).
      let chosen = output.split(whereSeparator: { $0 == "\n" || $0 == "|" }).compactMap { Int($0) }
        .filter { (1...options.count).contains($0) }.map { $0 - 1 }
      return chosen.isEmpty ? .cancelled : .chosen(chosen)
    }
  }

  /// The tool's arguments for `dialog`, and what it reads on standard input.
  func invocation(_ dialog: Dialog) -> (arguments: [String], input: [UInt8]?) {
    switch tool {
    case .zenity: zenity(dialog)
    case .yad: yad(dialog)
    case .kdialog: kdialog(dialog)
    }
  }

  private func zenity(_ dialog: Dialog) -> (arguments: [String], input: [UInt8]?) {
    var arguments = ["--title=\(shown(title))"]
    switch dialog {
    case .entry(let text, let initial, let hidden):
      arguments += ["--entry", "--text=\(markup(text))"]
      if let initial, !hidden { arguments.append("--entry-text=\(shown(initial))") }
      if hidden { arguments.append("--hide-text") }
      return (arguments, nil)
    case .text(let text, let initial):
      // zenity's text box has no label of its own: the question is the window's title.
      arguments[0] = "--title=\(shown(title + ": " + text))"
      return (arguments + ["--text-info", "--editable"], Array((initial ?? "").utf8))
    case .list(let text, let options, let multiple):
      arguments += [
        "--list", "--text=\(markup(text))", "--column=", "--column=", "--hide-column=1", "--print-column=1",
        "--hide-header", "--separator=\n",
      ]
      if multiple { arguments.append("--multiple") }
      return (arguments, rows(options))
    case .question(let text, let warning):
      arguments += ["--question", "--text=\(markup(text))"]
      if warning { arguments += ["--icon-name=dialog-warning", "--default-cancel", "--ok-label=Continue"] }
      return (arguments, nil)
    }
  }

  private func yad(_ dialog: Dialog) -> (arguments: [String], input: [UInt8]?) {
    var arguments = ["--title=\(shown(title))", "--center"]
    switch dialog {
    case .entry(let text, let initial, let hidden):
      arguments += ["--entry", "--text=\(markup(text))"]
      if let initial, !hidden { arguments.append("--entry-text=\(shown(initial))") }
      if hidden { arguments.append("--hide-text") }
      return (arguments, nil)
    case .text(let text, let initial):
      return (
        arguments + ["--text-info", "--editable", "--wrap", "--text=\(markup(text))"], Array((initial ?? "").utf8)
      )
    case .list(let text, let options, let multiple):
      arguments += [
        "--list", "--text=\(markup(text))", "--column=", "--column=", "--hide-column=1", "--print-column=1",
        "--no-headers", "--separator=", "--search-column=2",
      ]
      if multiple { arguments.append("--multiple") }
      return (arguments, rows(options))
    case .question(let text, let warning):
      arguments += [
        "--text=\(markup(text))", "--image=\(warning ? "dialog-warning" : "dialog-question")",
        "--button=Cancel:1", warning ? "--button=Continue:0" : "--button=OK:0",
      ]
      return (arguments, nil)
    }
  }

  private func kdialog(_ dialog: Dialog) -> (arguments: [String], input: [UInt8]?) {
    let title = ["--title", shown(title)]
    switch dialog {
    case .entry(let text, let initial, let hidden):
      return (title + (hidden ? ["--password", shown(text)] : ["--inputbox", shown(text), shown(initial ?? "")]), nil)
    case .text(let text, let initial):
      return (title + ["--textinputbox", shown(text), TerminalSafe.lines(initial ?? "")], nil)
    case .list(let text, let options, let multiple):
      let items = options.enumerated().flatMap { index, option in
        [String(index + 1), shown(option)] + (multiple ? ["off"] : [])
      }
      return (
        title
          + (multiple
            ? ["--checklist", shown(text)] + items + ["--separate-output"] : ["--menu", shown(text)] + items),
        nil
      )
    case .question(let text, let warning):
      return (
        title
          + (warning
            ? ["--warningcontinuecancel", shown(text)]
            : ["--yesno", shown(text), "--yes-label", "OK", "--no-label", "Cancel"]),
        nil
      )
    }
  }

  /// A list's rows on standard input, as zenity and yad read them: the tag, then the option, a line each.
  private func rows(_ options: [String]) -> [UInt8] {
    Array(options.enumerated().map { "\($0.offset + 1)\n\(shown($0.element))\n" }.joined().utf8)
  }

  /// Text as a dialog shows it: control characters made visible and bidirectional overrides
  /// neutralised (TerminalSafe), within a length a window can show.
  private func shown(_ text: String) -> String {
    let safe = TerminalSafe.text(text)
    return safe.count <= Self.textLimit ? safe : String(safe.prefix(Self.textLimit - 1)) + "…"
  }

  /// Text for a field zenity and yad read as Pango markup: kept as lines, escaped to stay text.
  private func markup(_ text: String) -> String {
    var safe = TerminalSafe.lines(text)
    if safe.count > Self.textLimit { safe = String(safe.prefix(Self.textLimit - 1)) + "…" }
    return safe.replacingEvery("&", with: "&amp;").replacingEvery("<", with: "&lt;")
      .replacingEvery(">", with: "&gt;")
  }

  static let textLimit = 2000
}
