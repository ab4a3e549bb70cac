import ArgumentParser
import FlowDiagnostics
import FlowIntents

/// `flow actions [ACTION]`: the catalogue, or one action's parameters, output, summary and an example.
struct ActionsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "actions",
    abstract: "List the actions workflow steps can use, or show one in full.",
    discussion: """
      Without an action, lists every action by catalogue. With one (such as 'get-url' or
      'raindrop.save-bookmark'; the catalogue may be left out when the name is unique), shows its
      parameters with their types, defaults, ranges and choices, its output, its parameter summary and
      an example step.
      """
  )

  @Argument(help: "An action id, such as 'get-url'.")
  var action: String?

  @Flag(help: "Print JSON on standard output.")
  var json = false

  @Flag(help: "Print the Markdown reference of every action (Documentation/Actions.md).")
  var markdown = false

  func run() async throws {
    let context = CLIContext.current
    do {
      context.print(try Self.output(action: action, json: json, markdown: markdown, registry: Catalogs.registry))
    } catch let error as IntentLookupError {
      context.report(Diagnostics([error.diagnostic()]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
  }

  /// What the command prints for these arguments; an unknown action throws ``IntentLookupError``.
  static func output(action: String?, json: Bool, markdown: Bool, registry: IntentRegistry) throws -> String {
    if markdown { return ActionsReference.markdown(registry).trimmingSuffix() }
    guard let action else {
      return (json ? ActionsReference.listJSON(registry) : ActionsReference.list(registry)).trimmingSuffix()
    }
    let descriptor = try registry.descriptor(for: action)
    return (json ? ActionsReference.detailJSON(descriptor) : ActionsReference.detail(descriptor)).trimmingSuffix()
  }
}

extension String {
  /// Without the final line break: `CLIContext.print` adds one.
  fileprivate func trimmingSuffix() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}
