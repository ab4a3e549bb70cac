import ArgumentParser
import FlowDiagnostics
import FlowSession

/// A wrong command line, told in the same `error:` form as every other problem: ArgumentParser's
/// errors become diagnostics, so that `DiagnosticRenderer` stays the only code that formats problems.
enum UsageProblems {
  /// The diagnostic for an error the command line parser (or a command) threw; nil when there is nothing
  /// to say (a command that already reported and threw its exit code).
  static func diagnostic(for error: any Error, arguments: [String]) -> Diagnostic? {
    if FlowCommand.exitCode(for: error) == .validationFailure, let unknown = unknownSubcommand(in: arguments) {
      return unknown
    }
    let message = FlowCommand.message(for: error)
    guard !message.isEmpty else { return nil }
    // "The value 'foo' is invalid for '--backend <local|raindrop>'. Please provide one of 'local' and
    // 'raindrop'.": the first sentence is the message, the rest is help.
    let sentences = message.components(separatedBy: ". ")
    var diagnostic = Diagnostic(.error, .usage, lowercasingFirst(withoutPeriod(sentences[0])), file: nil)
    if sentences.count > 1 {
      diagnostic = diagnostic.help(lowercasingFirst(withoutPeriod(sentences.dropFirst().joined(separator: ". "))))
    }
    // The rest of ArgumentParser's text: "Help:  <files>  The workflow files to check.", "Usage: flow
    // validate <files> ... [--json]" and "  See 'flow validate --help' for more information.".
    for line in FlowCommand.fullMessage(for: error, columns: 10_000).split(separator: "\n").dropFirst() {
      let text = line.trimmingWhitespace()
      if text.hasPrefix("Help:") {
        diagnostic = diagnostic.note(
          text.dropFirst("Help:".count).split(separator: "  ", omittingEmptySubsequences: true)
            .map { $0.trimmingWhitespace() }.joined(separator: ": "))
      } else if text.hasPrefix("Usage:") {
        diagnostic = diagnostic.help("usage: " + text.dropFirst("Usage:".count).trimmingWhitespace())
      } else if text.hasPrefix("See '"), text.hasSuffix(" for more information.") {
        diagnostic = diagnostic.help(lowercasingFirst(withoutPeriod(text)))
      }
    }
    return diagnostic
  }

  /// `flow rn x`: a word where a subcommand belongs that names none, with the closest one as a suggestion.
  ///
  /// The command tree is walked as ArgumentParser would, so subcommands added anywhere are known here
  /// without a list of their own.
  static func unknownSubcommand(in arguments: [String]) -> Diagnostic? {
    var command: any ParsableCommand.Type = FlowCommand.self
    var path = [FlowCommand._commandName]
    for word in arguments {
      // Options are ArgumentParser's to judge; a word after one may be its value.
      guard !word.hasPrefix("-") else { return nil }
      let configuration = command.configuration
      guard !configuration.subcommands.isEmpty else { return nil }
      if let next = configuration.subcommands.first(where: { names(of: $0).contains(word) }) {
        command = next
        path.append(word)
        continue
      }
      guard word != "help" else { return nil }
      let fallback = configuration.defaultSubcommand.map { ObjectIdentifier($0) }
      let candidates = configuration.subcommands.filter {
        $0.configuration.shouldDisplay && ObjectIdentifier($0) != fallback
      }.map { $0._commandName }
      let suggestion = Suggestion.closest(to: word, among: candidates)
      // Under a default subcommand (`flow runs WORKFLOW`) the word may be its argument; on a command
      // line that failed, one that nearly names a sibling (`flow runs shw ID`) is taken for a typo.
      if fallback != nil, suggestion == nil { return nil }
      let help = "\(path.joined(separator: " ")) --help"
      return Diagnostic(.error, .unknownCommand, "unknown command '\(word)'", file: nil)
        .help(suggestion.map { "did you mean '\($0)'?" })
        .help("see '\(help)' for more information")
    }
    return nil
  }

  private static func names(of command: any ParsableCommand.Type) -> [String] {
    [command._commandName] + command.configuration.aliases
  }

  private static func withoutPeriod(_ text: String) -> String { text.hasSuffix(".") ? String(text.dropLast()) : text }

  /// ArgumentParser's messages are sentences ("Missing expected argument"); flow's are lowercase.
  private static func lowercasingFirst(_ text: String) -> String {
    guard let first = text.first, let second = text.dropFirst().first, second.isLowercase else { return text }
    return first.lowercased() + text.dropFirst()
  }
}

extension DiagnosticCode {
  /// The command line is wrong: an unknown option, a missing argument, a value that does not parse.
  public static let usage: Self = "usage"
  /// A word where a subcommand belongs names none (`flow rn`).
  public static let unknownCommand: Self = "unknown-command"
}
