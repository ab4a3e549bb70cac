import ArgumentParser
import FlowDiagnostics
import FlowPresentation
import FlowSession
import FoundationEssentials

/// `flow schema [-o FILE]`: the JSON Schema of workflow files, for editors.
struct SchemaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract: "Print the JSON Schema of workflow files, for editors to complete and check them.",
    discussion: """
      Generated from the workflow format and the action catalogue (JSON Schema draft 2020-12), for \
      yaml-language-server in VS Code, Neovim and Helix. Point a workflow at it with the modeline \
      '# yaml-language-server: $schema=flow.schema.json' (a path relative to the file, or a URL). \
      See Documentation/Editors.md.
      """
  )

  @Option(name: .shortAndLong, help: ArgumentHelp("Write the schema to FILE instead.", valueName: "FILE"))
  var output: String?

  func run() async throws {
    let context = SessionContext.current
    let schema = WorkflowSchema.json(Catalogs.registry)
    guard let output else {
      context.console.write(schema, to: .output)
      return
    }
    do {
      try Data(schema.utf8).write(to: context.url(for: output), options: .atomic)
    } catch {
      context.report(
        Diagnostics([
          Diagnostic(.error, .cannotWrite, "cannot write the schema: \(error.reason)", file: output)
        ]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
  }
}

extension DiagnosticCode {
  /// A file flow was asked to write cannot be written.
  public static let cannotWrite: Self = "cannot-write"
}
