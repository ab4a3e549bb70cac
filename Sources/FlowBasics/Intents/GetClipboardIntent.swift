import FlowIntents

/// The clipboard's text: Shortcuts' "Get Clipboard".
struct GetClipboardIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Clipboard"
  static let description = IntentDescription(
    "The text on the desktop clipboard (wl-paste under Wayland, xclip or xsel under X11); empty when nothing is copied."
  )
  static let machineAccess = [MachineAccess(.readsClipboard)]

  @Dependency var clipboard: any ClipboardService

  func perform() async throws -> some ReturnsValue<String> {
    .result(value: try await clipboard.text())
  }
}
