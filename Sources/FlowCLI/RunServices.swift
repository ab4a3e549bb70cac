import ArgumentParser
import FlowBasics
import FlowDiagnostics
import FlowHTTP
import FlowIntents
import FlowRuntime
import FlowSession
import FlowSystem
import FoundationEssentials
import RaindropModel

/// The options every command that performs actions takes (`flow run`, `flow do`).
struct ActionOptions: ParsableArguments, ActionChoices {
  @Flag(help: "Confirm every confirmation without asking.")
  var yes = false

  @Flag(help: "Never ask; fail where an answer is needed.")
  var noInput = false

  @Option(
    help: ArgumentHelp(
      "The bookmark backend: 'local' (the embedded store) or 'raindrop' (the API).", valueName: "local|raindrop"))
  var backend: BackendChoice?
}

extension ActionChoices {
  /// Who answers questions (SPEC §5, §11): the terminal when standard input and standard error both
  /// are one and `--no-input` is not given; else the desktop's dialogs, titled `title`, when the run
  /// has no terminal but a desktop session; otherwise nobody. Confirmations are answered yes with
  /// `--yes`, with `confirmAll` (dry runs), and when nobody is there if `confirmUnattended`
  /// (`confirmations: auto`).
  func prompter(
    _ context: SessionContext, inputNames: Set<String> = [], quiet: Bool = false, confirmAll: Bool = false,
    confirmUnattended: Bool = false, title: String = "flow"
  ) -> any Prompter {
    let interactive = isInteractive(context, quiet: quiet)
    var prompter: any Prompter = UnattendedPrompter(inputNames: inputNames)
    var somebodyAnswers = interactive
    if interactive {
      prompter = TerminalPrompter(console: context.console)
    } else if asksOnDesktop(context, quiet: quiet),
      let desktop = DesktopAsking.prompter(environment: context.environment, title: title)
    {
      prompter = desktop
      somebodyAnswers = true
    }
    return ConfirmationPolicy.prompter(
      prompter, yes: yes || confirmAll, auto: confirmUnattended, somebodyAnswers: somebodyAnswers)
  }
}

extension BackendChoice: ExpressibleByArgument {}
