import FlowBasics
import FlowIntents
import FoundationEssentials

/// The clipboard through the standard command-line tools (Linux has no clipboard library every desktop
/// shares): `wl-paste`/`wl-copy` (wl-clipboard) under Wayland, else `xclip`, else `xsel` under X11.
///
/// The environment comes from the caller (the CLI), so this module never reads the process's own.
public struct SystemClipboard: ClipboardService {
  public let environment: [String: String]

  public init(environment: [String: String]) { self.environment = environment }

  /// A tool, its arguments to paste and to copy, and the Debian package it comes in.
  struct Tool: Equatable {
    var paste: [String]
    var copy: [String]
    var package: String
  }

  static let wayland = Tool(paste: ["wl-paste", "--no-newline"], copy: ["wl-copy"], package: "wl-clipboard")
  static let xclip = Tool(
    paste: ["xclip", "-selection", "clipboard", "-o"], copy: ["xclip", "-selection", "clipboard", "-i"],
    package: "xclip")
  static let xsel = Tool(
    paste: ["xsel", "--clipboard", "--output"], copy: ["xsel", "--clipboard", "--input"], package: "xsel")

  private func set(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }

  /// Why there is no clipboard to reach, or nil: what the unattended check reports before step 1.
  public func missingDisplay() -> String? {
    set("WAYLAND_DISPLAY") || set("DISPLAY") ? nil : Self.noDisplay
  }

  static let noDisplay = "neither WAYLAND_DISPLAY nor DISPLAY is set"

  /// The tool for this session with its executable, or the error that names what to install.
  func tool() throws -> (Tool, executable: String) {
    var candidates: [Tool] = []
    if set("WAYLAND_DISPLAY") { candidates.append(Self.wayland) }
    // Under Wayland, X11 programs still share the clipboard through Xwayland (DISPLAY is set then).
    if set("DISPLAY") { candidates += [Self.xclip, Self.xsel] }
    guard let first = candidates.first else {
      throw AppIntentError.failed(
        "cannot reach the clipboard: there is no graphical session (\(Self.noDisplay))",
        help: "run it in a desktop session; a scheduled run has no clipboard unless its environment sets DISPLAY")
    }
    for candidate in candidates {
      if let executable = find(candidate.paste[0]) { return (candidate, executable) }
    }
    let install =
      set("WAYLAND_DISPLAY")
      ? "install wl-clipboard ('apt-get install wl-clipboard')"
      : "install xclip ('apt-get install xclip') or xsel"
    throw AppIntentError.failed(
      "cannot reach the clipboard: '\(first.paste[0])' is not installed", help: install)
  }

  private func find(_ name: String) -> String? {
    try? Subprocess.locate(name, path: environment["PATH"] ?? "/usr/bin:/bin")
  }

  public func text() async throws -> String {
    let (tool, executable) = try tool()
    let result = try await run(executable, Array(tool.paste.dropFirst()), input: nil)
    guard result.termination == .exited(0) else {
      // Nothing copied is an empty clipboard, not an error (xclip: "target … not available";
      // wl-paste: "Nothing is copied", "No selection"; xsel exits 0 with nothing).
      let message = result.errorText.lowercased()
      if message.contains("not available") || message.contains("nothing is copied")
        || message.contains("no selection")
      {
        return ""
      }
      throw failure("read", tool.paste[0], result)
    }
    return String(decoding: result.output, as: UTF8.self)
  }

  public func copy(_ text: String) async throws {
    let (tool, executable) = try tool()
    let result = try await run(executable, Array(tool.copy.dropFirst()), input: Array(text.utf8))
    guard result.termination == .exited(0) else { throw failure("copy to", tool.copy[0], result) }
  }

  private func failure(_ verb: String, _ name: String, _ result: Subprocess.Collected) -> AppIntentError {
    let detail = result.errorText.split(separator: "\n").last.map { ": \($0)" } ?? ""
    return .failed(
      "cannot \(verb) the clipboard: '\(name)' exited with status \(result.termination.shellStatus)\(detail)")
  }

  /// The tool, to its end: a copying tool's output is not read, since the child it leaves serving the
  /// selection holds it (``Subprocess/collect(_:input:deadline:)``).
  private func run(_ executable: String, _ arguments: [String], input: [UInt8]?) async throws
    -> Subprocess.Collected
  {
    let options = Subprocess.Options(
      executable: executable, arguments: arguments, environment: environment,
      standardOutput: input == nil ? .pipe : .null)
    do {
      return try await Subprocess.collectOnThread(options, input: input)
    } catch {
      throw AppIntentError.failed("cannot reach the clipboard: \(error.message)")
    }
  }
}
