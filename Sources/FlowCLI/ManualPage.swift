import FlowDiagnostics
import FlowSession
import FoundationEssentials

/// `flow.1`, the man page, written from the same data as `--help`: ArgumentParser's description of the
/// command tree (`--experimental-dump-help`, the input of its own `generate-manual` plugin). Subcommands
/// and options that any part of flow adds appear without an edit here; the sections that are not about
/// one command (exit status, environment) come from ``ExitStatus`` and the list below.
///
/// Written in the classic man(7) macros, which every man and groff reads.
enum ManualPage {
  /// The page for the tool whose `--experimental-dump-help` JSON is `dump`.
  static func render(dump: String, date: String) throws -> String {
    let tool = try JSONDecoder().decode(Tool.self, from: Data(dump.utf8)).command
    var out =
      ".TH \(tool.commandName.uppercased()) 1 \(quoted(date)) \(quoted("flow \(FlowCommand.configuration.version)"))"
    out += " \"User Commands\"\n"
    out += ".SH NAME\n\(escape(tool.commandName)) \\- \(escape(tool.abstract ?? ""))\n"
    out += ".SH SYNOPSIS\n.B \(escape(tool.commandName))\n.I command\n[\\fIoptions\\fR]\n"
    out += ".SH DESCRIPTION\n\(paragraphs(Self.description))"
    out += ".SH COMMANDS\n"
    for command in tool.visibleSubcommands { out += section(command, path: [tool.commandName]) }
    out += ".SH OPTIONS\n"
    for argument in tool.arguments ?? [] where argument.shouldDisplay { out += item(argument) }
    out += ".SH EXIT STATUS\n"
    for status in ExitStatus.allCases { out += ".TP\n.B \(status.rawValue)\n\(escape(status.meaning))\n" }
    out += ".SH ENVIRONMENT\n"
    for (name, meaning) in environment { out += ".TP\n.B \(name)\n\(escape(meaning))\n" }
    out += ".SH SEE ALSO\nThe documentation in the Documentation folder of flow's source: the workflow format,\n"
    out += "running workflows, the actions, diagnostics, exit codes and the JSON shapes.\n"
    return out
  }

  /// What `flow` is, before the commands.
  static let description = """
    flow runs workflows: YAML files that chain actions, like Apple Shortcuts. Each step's output flows on \
    to the next. A workflow is checked in full before its first step runs; 'flow validate' checks \
    without running.
    Results go to standard output; progress, questions and diagnostics to standard error. Without a \
    terminal, or with --no-input, nothing is asked: a missing answer ends the run with exit status 4.
    """

  /// The variables flow reads.
  static let environment: [(String, String)] = [
    ("RAINDROP_TOKEN", "A Raindrop.io token; when set (or saved by 'flow auth login') runs use Raindrop.io."),
    ("RAINDROP_API_URL", "Another server speaking Raindrop.io's REST API, ending in /rest/v1."),
    ("XDG_CONFIG_HOME", "config.yml and the saved token are in flow/ here (default ~/.config)."),
    ("XDG_DATA_HOME", "The workflow library and the local bookmark store are in flow/ here (default ~/.local/share)."),
    (
      "XDG_STATE_HOME",
      "Run history, the workflows' locks and the scheduler's fire record are in flow/ here (default ~/.local/state)."
    ),
    ("NO_COLOR", "When set to anything but the empty string, nothing is coloured."),
    ("TERM", "When dumb, nothing is coloured."),
  ]

  // MARK: - Parts

  private static func section(_ command: Command, path: [String]) -> String {
    let path = path + [command.commandName]
    let name = path.joined(separator: " ")
    var out = ".SS \(quoted(name))\n"
    // The synopsis left-aligned and unhyphenated, so options stay whole and evenly spaced.
    // `\:` after each `|` lets a long list of choices (`--status <running|succeeded|…>`) break there.
    let usage = escape(synopsis(command)).replacingEvery("|", with: "|\\:")
    out += ".ad l\n.nh\n\\fB\(escape(name))\\fR \(usage)\n.hy\n.ad\n.PP\n"
    if let abstract = command.abstract { out += escape(abstract) + "\n" }
    if let discussion = command.discussion, !discussion.isEmpty { out += ".PP\n" + paragraphs(discussion) }
    let arguments = (command.arguments ?? []).filter { $0.shouldDisplay && !$0.isBuiltIn }
    if !arguments.isEmpty {
      out += ".RS\n"
      for argument in arguments { out += item(argument) }
      out += ".RE\n"
    }
    for subcommand in command.visibleSubcommands { out += section(subcommand, path: path) }
    return out
  }

  /// `<workflow> [--input NAME=VALUE ...] [--yes]`, as ArgumentParser's usage line writes it.
  private static func synopsis(_ command: Command) -> String {
    if !command.visibleSubcommands.isEmpty {
      return command.visibleSubcommands.map(\.commandName).joined(separator: "|")
    }
    return (command.arguments ?? []).filter { $0.shouldDisplay && !$0.isBuiltIn }.map { argument in
      var text = argument.usage
      if argument.isRepeating { text += " ..." }
      return argument.isOptional ? "[\(text)]" : text
    }.joined(separator: " ")
  }

  private static func item(_ argument: Argument) -> String {
    var out = ".TP\n"
    switch argument.kind {
    case .positional:
      out += ".I \(escape(argument.valueName ?? "value"))\n"
    case .flag:
      out += ".B \(escape(argument.spelledNames))\n"
    case .option:
      out += "\\fB\(escape(argument.spelledNames))\\fR \\fI\(escape(argument.valueName ?? "value"))\\fR\n"
    }
    var text = argument.abstract ?? ""
    if let value = argument.defaultValue, argument.kind == .option { text += " (default: \(value))" }
    out += escape(text) + "\n"
    if let discussion = argument.discussion, !discussion.isEmpty { out += escape(discussion) + "\n" }
    return out
  }

  /// Lines of text as paragraphs; indented lines (examples) stay as they are written.
  private static func paragraphs(_ text: String) -> String {
    var out = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty {
        out += ".PP\n"
      } else if line.hasPrefix(" ") {
        out += ".nf\n\(escape(String(line)))\n.fi\n"
      } else {
        out += escape(String(line)) + "\n"
      }
    }
    return out
  }

  /// Text as roff reads it: backslashes and hyphens escaped, and no line that starts like a request.
  static func escape(_ text: String) -> String {
    var escaped = text.replacingEvery("\\", with: "\\e").replacingEvery("-", with: "\\-")
    if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
    return escaped
  }

  private static func quoted(_ text: String) -> String {
    "\"" + escape(text).replacingEvery("\"", with: "\\(dq") + "\""
  }

  // MARK: - The dump's shape (ArgumentParser's ToolInfoV0, the fields used here)

  private struct Tool: Decodable {
    var command: Command
  }

  private struct Command: Decodable {
    var commandName: String
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool?
    var subcommands: [Command]?
    var arguments: [Argument]?

    /// Subcommands a person sees in `--help`, without ArgumentParser's own `help`.
    var visibleSubcommands: [Command] {
      (subcommands ?? []).filter { $0.shouldDisplay != false && $0.commandName != "help" }
    }
  }

  private struct Argument: Decodable {
    enum Kind: String, Decodable {
      case positional, option, flag
    }

    struct Name: Decodable {
      var kind: String
      var name: String

      var spelled: String { kind == "short" || kind == "longWithSingleDash" ? "-\(name)" : "--\(name)" }
    }

    var kind: Kind
    var shouldDisplay: Bool
    var isOptional: Bool
    var isRepeating: Bool
    var names: [Name]?
    var preferredName: Name?
    var valueName: String?
    var defaultValue: String?
    var abstract: String?
    var discussion: String?

    /// `-h, --help`.
    var spelledNames: String { (names ?? []).map(\.spelled).joined(separator: ", ") }

    /// `--version` and `--help`, which ArgumentParser gives every subcommand; said once, for `flow`.
    var isBuiltIn: Bool { ["version", "help"].contains(preferredName?.name ?? "") }

    var usage: String {
      switch kind {
      case .positional: "<\(valueName ?? "value")>"
      case .flag: preferredName?.spelled ?? ""
      case .option: "\(preferredName?.spelled ?? "") <\(valueName ?? "value")>"
      }
    }
  }
}
