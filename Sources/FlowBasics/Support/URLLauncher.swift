import FlowIntents
import FoundationEssentials

/// Opens a URL in the person's browser or the application registered for it; `open-url` uses it.
public protocol URLLauncher: Sendable {
  func open(_ url: URL) async throws
}
