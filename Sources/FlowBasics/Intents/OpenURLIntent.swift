import FlowIntents
import Foundation

/// Opens a URL in the browser (or the application that handles it).
struct OpenURLIntent: AppIntent {
  static let title: LocalizedStringResource = "Open URL"
  static let description = IntentDescription(
    "Open a web or mail link in the browser or mail application, with xdg-open.")
  // It changes nothing stored, but a dry run should not open windows.
  static let sideEffect = SideEffect.changes

  @Parameter(title: "URL", primary: true)
  var url: URL

  @Dependency var launcher: any URLLauncher

  static var parameterSummary: some ParameterSummary {
    Summary("Open \(\.$url)")
  }

  /// Web and mail links only: xdg-open on a `file://` URL can start a program, which a shared workflow
  /// must not be able to do.
  static let schemes = ["http", "https", "mailto"]

  func perform() async throws -> some IntentResult {
    guard let scheme = url.scheme?.lowercased(), Self.schemes.contains(scheme) else {
      throw AppIntentError.failed("'open-url' opens only http, https and mailto URLs, not '\(url.absoluteString)'")
    }
    try await launcher.open(url)
    return .result()
  }
}
