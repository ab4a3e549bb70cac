import ArgumentParser
import FlowCLI
import Testing

/// `--help` of every command reads as paragraphs at any width. ArgumentParser wraps a command's
/// discussion and every help text to the terminal itself, so a line break written into the source
/// (a discussion hard-wrapped at 110 columns) came out as a short line in the middle of a sentence,
/// re-wrapped around it: "…every workflow they run with\n'run-workflow',\nin the form…".
struct HelpTextTests {
  /// Every command of the tree, with its path: `flow schedule install`.
  static let commands: [(path: String, type: any ParsableCommand.Type)] = {
    var found: [(String, any ParsableCommand.Type)] = []
    func visit(_ command: any ParsableCommand.Type, path: String) {
      found.append((path, command))
      for subcommand in command.configuration.subcommands {
        visit(subcommand, path: path + " " + (subcommand.configuration.commandName ?? "?"))
      }
    }
    visit(FlowCommand.self, path: "flow")
    return found
  }()

  /// A line of a paragraph that ends before the terminal's edge although the next line's first word
  /// would have fitted on it, in the middle of a sentence: a break ArgumentParser did not make.
  static func earlyBreaks(in help: String, width: Int) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
    var found: [String] = []
    for (line, next) in zip(lines, lines.dropFirst()) {
      let body = next.dropFirst(indent(next))
      guard !line.trimmingCharacters(in: .whitespaces).isEmpty, !body.isEmpty, indent(line) == indent(next),
        // A new entry of a list or a table: `- item`, `  name     its help`.
        !body.hasPrefix("- "), !body.contains("  "),
        let last = line.last, !".:!?".contains(last)
      else { continue }
      let word = body.prefix { $0 != " " }
      // ArgumentParser keeps a line within `width - 1` columns.
      if line.count + 1 + word.count < width { found.append("\(line)⏎\n\(next)") }
    }
    return found
  }

  @Test(arguments: [60, 80, 100, 120, 200])
  func noHelpLineBreaksMidSentence(width: Int) {
    #expect(Self.commands.count > 30)
    for (path, command) in Self.commands {
      let help = FlowCommand.helpMessage(for: command, columns: width)
      let breaks = Self.earlyBreaks(in: help, width: width)
      #expect(breaks.isEmpty, "\(path) --help at \(width) columns:\n\(breaks.joined(separator: "\n\n"))")
    }
  }

  /// The check finds the break it is for.
  @Test func theCheckFindsAHardWrappedLine() {
    let help =
      "Reports every problem found in every file, and in every workflow they run with\n'run-workflow',\nin the form 'file:line:column: error: message'.\n"
    #expect(Self.earlyBreaks(in: help, width: 80).count == 1)
  }
}
