import FlowIntents

/// Puts text on the clipboard: Shortcuts' "Copy to Clipboard".
struct CopyToClipboardIntent: AppIntent {
  static let title: LocalizedStringResource = "Copy to Clipboard"
  static let description = IntentDescription(
    "Put a value's text on the desktop clipboard (wl-copy under Wayland, xclip or xsel under X11); a list is copied one item per line."
  )
  // It replaces what the person had copied.
  static let sideEffect = SideEffect.changes
  static let machineAccess = [MachineAccess(.writesClipboard)]

  @Parameter(title: "Content", primary: true)
  var content: FlowValue

  @Dependency var clipboard: any ClipboardService

  static var parameterSummary: some ParameterSummary {
    Summary("Copy \(\.$content) to the clipboard")
  }

  func perform() async throws -> some IntentResult {
    // A list as `show` prints it, one item per line, which is what a person pastes.
    try await clipboard.copy(ShowIntent.render(content))
    return .result()
  }
}
