import ArgumentParser
import FlowCron
import FlowDiagnostics
import FlowModel
import FlowScheduler
import FlowSession

/// `flow schedule explain 'CRON'`: a cron expression in words, checked as in a workflow.
struct ScheduleExplainCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain",
    abstract: "Say a cron expression in words.",
    discussion: """
      Prints, for example, 'at 09:00, Monday through Friday' for '0 9 * * 1-5'. A bad expression is \
      reported at the field that is wrong, as 'flow validate' reports it in a workflow.
      """
  )

  @Argument(
    help: ArgumentHelp("The cron expression: five fields or a macro such as @daily. Quote it.", valueName: "expression")
  )
  var words: [String]

  func run() async throws {
    let context = SessionContext.current
    // Unquoted, the fields arrive as separate words ('0 9 1 * MON' works either way); a '*' the shell
    // matched against file names arrives as those names, which the help below explains.
    let expression = words.joined(separator: " ")
    // The argument is shown as a one-line file, so a diagnostic points into it like into a workflow.
    let file = SourceFile(path: "<expression>", text: expression)
    let whole = SourceSpan(
      file: file, start: SourceLocation(line: 1, column: 1),
      end: SourceLocation(line: 1, column: expression.unicodeScalars.count + 1))
    let locator = ScalarLocator(whole: whole, firstColumn: expression.contains("\n") ? nil : 1)
    let (cron, diagnostics) = CronExpression.parse(expression, locate: locator.span)
    guard let cron else {
      var diagnostics = diagnostics
      if words.count > 1, !diagnostics.isEmpty {
        diagnostics[0] = diagnostics[0].help(
          "quote the expression, as in flow schedule explain '0 9 * * 1-5': unquoted, the shell turns '*' into file names"
        )
      }
      context.report(Diagnostics(diagnostics))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    context.print(cron.words)
  }
}
