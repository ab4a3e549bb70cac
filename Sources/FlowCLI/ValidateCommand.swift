import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowRuntime
import FlowSession
import FlowSharing
import FlowSystem
import FoundationEssentials

/// `flow validate FILE...`: checks workflow files without running anything.
struct ValidateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    // Said only when `validate` is parsed as the root (``parsedDirectly(_:)``), as `run` is.
    _superCommandName: "flow",
    abstract: "Check workflow files without running them.",
    discussion: """
      Reports every problem found in every file, and in every workflow they run with 'run-workflow', \
      in the form 'file:line:column: error: message'. A workflow is found as 'flow run' finds it: a \
      path, or a name in the library or ./workflows. --lint-secrets also reports literals that look like \
      credentials, as 'flow export' refuses them. Exits with status 0 when all are valid and 2 when \
      any is not.
      """
  )

  @Argument(help: "The workflows to check: paths, or names as 'flow run' finds them.", completion: Completions.workflow)
  var files: [String]

  @Flag(help: "Print the result as JSON on standard output.")
  var json = false

  @Flag(help: "Also refuse literals that look like credentials, as 'flow export' does.")
  var lintSecrets = false

  @Option(
    name: .customLong("allow-secret"),
    help: ArgumentHelp(
      "With --lint-secrets, let the value at PATH through (the path a finding prints), repeatable.", valueName: "PATH"))
  var allowSecret: [String] = []

  /// `flow validate …` read without the tree of every command, as `flow run` is (``RunCommand/parsedDirectly(_:)``):
  /// ArgumentParser reflects over each command it builds, and each new cast scans the binary's protocol
  /// conformances, which was most of what checking a one-step file cost. The usual `flow validate FILE…`
  /// (paths alone) is read here; anything else is parsed as a command of its own; nil for what that cannot
  /// parse (`--help`, a mistake), which the whole tree then parses and reports as before.
  static func parsedDirectly(_ arguments: [String]) -> ValidateCommand? {
    guard arguments.first == "validate" else { return nil }
    let files = Array(arguments.dropFirst())
    if !files.isEmpty, files.allSatisfy({ !$0.hasPrefix("-") }) {
      var command = ValidateCommand()
      command.files = files
      command.json = false
      command.lintSecrets = false
      command.allowSecret = []
      return command
    }
    return (try? parseAsRoot(files)) as? ValidateCommand
  }

  func run() async throws {
    // Checking holds nothing to finish: Ctrl-C and SIGTERM end it at once, however big the files.
    try Interrupts.endingAtOnce { try checkFiles() }
  }

  private func checkFiles() throws {
    let context = SessionContext.current
    var all = Diagnostics()
    var results: [FileResult] = []
    let locator = WorkflowLocator(context: context)
    // One check for all the files: a workflow that several of them run is read, and printed, once.
    let check = WorkflowCheck(registry: Catalogs.registry, files: locator)
    var printed: Set<Diagnostic> = []
    // config.yml's MCP servers, for what a run would need of them (a broken config.yml is reported by the
    // check of any step that names a server).
    let servers = (try? Configuration.load(context.paths.configFile).servers) ?? []
    // What 'flow do' answers to now, read only when a file has phrases.
    var phrases: PhraseBook?
    for path in files {
      let (workflow, checked) = locator.check(path, with: check)
      var diagnostics = checked
      if let workflow {
        diagnostics.append(contentsOf: Presentation.signatureProblems(of: workflow, check: check, in: context))
        if !workflow.phrases.isEmpty {
          if phrases == nil { phrases = PhraseBook(library: locator) }
          diagnostics.append(
            contentsOf: phrases?.clashes(
              of: workflow, replacing: URL(fileURLWithPath: locator.resolvedPath(workflow.file.path))) ?? Diagnostics())
        }
        diagnostics.append(
          contentsOf: ServerStarter.unsetHeaderWarnings(
            in: workflow, servers: servers, environment: context.environment))
        diagnostics.append(
          contentsOf: UnattendedCheck.desktopWarnings(
            in: workflow, unreachable: RunRequest.unreachableDesktop(context.environment),
            registry: Catalogs.registry))
      }
      if lintSecrets, let workflow {
        let children = Sharing.tree(of: workflow, check: check)
        let findings = Sharing.secrets(in: workflow, children: children, allowed: Set(allowSecret))
        diagnostics.append(contentsOf: SecretScanner.diagnostics(findings))
      }
      all.append(contentsOf: diagnostics.filter { printed.insert($0).inserted })
      results.append(FileResult(path: path, valid: !diagnostics.hasErrors, diagnostics: diagnostics.sorted()))
    }
    if json {
      try context.printJSON(Report(valid: !all.hasErrors, files: results))
    } else {
      for result in results where result.valid { context.print("\(result.path): valid") }
      context.report(all)
    }
    // The real process ends with this command: what the check holds (every step of every file read) is
    // left to the exit, as compilers leave their trees, rather than freed one object at a time, which was
    // a thirtieth of checking a 20,000-step file (Performance.md). In-process tests free it.
    if context.handlesInterrupts { _ = Unmanaged.passRetained(check) }
    if all.hasErrors { throw ExitCode(ExitStatus.invalid.rawValue) }
  }

  private struct Report: Encodable {
    var valid: Bool
    var files: [FileResult]
  }

  private struct FileResult: Encodable {
    var path: String
    var valid: Bool
    var diagnostics: [Diagnostic]
  }
}
