import FlowIntents
import FoundationEssentials

/// The desktop clipboard; `get-clipboard` and `copy-to-clipboard` use it.
public protocol ClipboardService: Sendable {
  /// The clipboard's text; empty when nothing is copied.
  func text() async throws -> String
  func copy(_ text: String) async throws
}
