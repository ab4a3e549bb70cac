import FlowIntents
import FoundationEssentials

/// Opens a URL in the browser (or the application that handles it).
struct OpenURLIntent: AppIntent {
  static let title: LocalizedStringResource = "Open URL"
  static let description = IntentDescription(
    "Open a web or mail link in the browser or mail application, with xdg-open; the browser contacts the link's host, and the link is a process argument that other users of this machine can read while it opens."
  )
  // It changes nothing stored, but a dry run should not open windows.
  static let sideEffect = SideEffect.changes
  // Opening a web link sends a request to its host, with whatever the link carries.
  static let networkAccess = NetworkAccess.hostOfParameter("url")
  static let processArgumentParameters: Set<String> = ["url"]

  @Parameter(title: "URL", primary: true)
  var url: URL

  @Dependency var launcher: any URLLauncher

  static var parameterSummary: some ParameterSummary {
    Summary("Open \(\.$url)")
  }

  /// The link goes to `xdg-open`, and from it to the browser, as a command-line argument, which any user
  /// of the machine can read in `/proc/PID/cmdline` while they run. No other way reaches every browser
  /// (xdg-open takes nothing else, and the browsers it starts take URLs only as arguments), so the card
  /// says so instead: a link with computed parts is shown in red as sending data (Sharing.md).
  ///
  /// Web and mail links only: xdg-open on a `file://` URL can start a program, which a shared workflow
  /// must not be able to do.
  static let schemes = ["http", "https", "mailto"]

  /// A link written out is checked before the run: `file:`, `vscode:`, `javascript:` and the like hand
  /// xdg-open something that can start a program.
  static func literalProblems(_ literals: [String: FlowValue]) -> [String: CoercionError] {
    guard case .text(let text)? = literals["url"], let scheme = URLScheme.of(text), !schemes.contains(scheme) else {
      return [:]
    }
    return [
      "url": CoercionError(
        message: "'open-url' opens only http, https and mailto links, not a '\(scheme):' link",
        help: "a file or application link can start a program; give a web link, or use 'run-shell' for a program")
    ]
  }

  func perform() async throws -> some IntentResult {
    guard let scheme = url.scheme?.lowercased(), Self.schemes.contains(scheme) else {
      throw AppIntentError.failed("'open-url' opens only http, https and mailto URLs, not '\(url.absoluteString)'")
    }
    try await launcher.open(url)
    return .result()
  }
}
