import ArgumentParser
import FlowDiagnostics
import FlowModel
import FlowScheduler

/// `flow schedule explain 'CRON'`: a cron expression in words, checked as in a workflow.
struct ScheduleExplainCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain",
    abstract: "Say a cron expression in words.",
    discussion: """
      Prints, for example, 'at 09:00, Monday through Friday' for '0 9 * * 1-5'. A bad expression is
      reported at the field that is wrong, as 'flow validate' reports it in a workflow.
      """
  )

  @Argument(help: "The cron expression: five fields or a macro such as @daily. Quote it.")
  var expression: String

  func run() async throws {
    let context = CLIContext.current
    // The argument is shown as a one-line file, so a diagnostic points into it like into a workflow.
    let file = SourceFile(path: "<expression>", text: expression)
    let whole = SourceSpan(
      file: file, start: SourceLocation(line: 1, column: 1),
      end: SourceLocation(line: 1, column: expression.unicodeScalars.count + 1))
    let locator = ScalarLocator(whole: whole, firstColumn: expression.contains("\n") ? nil : 1)
    let (cron, diagnostics) = CronExpression.parse(expression, locate: locator.span)
    guard let cron else {
      context.report(Diagnostics(diagnostics))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    context.print(cron.words)
  }
}
