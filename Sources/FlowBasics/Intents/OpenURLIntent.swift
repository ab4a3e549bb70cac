import FlowIntents
import Foundation

/// Opens a URL in the browser (or the application that handles it).
struct OpenURLIntent: AppIntent {
  static let title: LocalizedStringResource = "Open URL"
  static let description = IntentDescription("Open a URL in the browser, or in the application that handles it, with xdg-open.")
  // It changes nothing stored, but a dry run should not open windows.
  static let sideEffect = SideEffect.changes

  @Parameter(title: "URL", primary: true)
  var url: URL

  @Dependency var launcher: any URLLauncher

  static var parameterSummary: some ParameterSummary {
    Summary("Open \(\.$url)")
  }

  func perform() async throws -> some IntentResult {
    try await launcher.open(url)
    return .result()
  }
}
