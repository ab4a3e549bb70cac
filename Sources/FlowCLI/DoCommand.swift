import ArgumentParser
import FlowDiagnostics
import FlowHTTP
import FlowIntents
import FlowRuntime
import Foundation
import RaindropModel

/// `flow do PHRASE…`: the app shortcuts of the catalogues (the seed's AppShortcutsProvider) as
/// zero-setup commands. `flow do save to raindrop https://swift.org` saves a bookmark.
struct DoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "do",
    abstract: "Run an action by one of its phrases, such as 'save to raindrop URL'.",
    discussion: """
      The words after the phrase fill the action's main parameter; what is still missing is asked
      for at a terminal. Run 'flow do' alone to list the phrases.
      """
  )

  @Argument(parsing: .captureForPassthrough, help: "A phrase, then the value for the action.")
  var words: [String] = []

  @OptionGroup var options: ActionOptions

  func run() async throws {
    let context = CLIContext.current
    let phrases = Catalogs.phrases
    guard !words.isEmpty else {
      for entry in phrases {
        context.print("\(entry.phrase.padding(toLength: 40, withPad: " ", startingAt: 0)) \(entry.shortTitle)")
      }
      return
    }
    let typed = words.joined(separator: " ")
    guard let match = Self.match(typed, in: phrases) else {
      let help = Suggestion.closest(to: typed.lowercased(), among: phrases.map(\.phrase)).map {
        "did you mean '\($0)'?"
      }
      context.report(
        Diagnostics([
          Diagnostic(.error, .unknownPhrase, "no action answers to '\(typed)'", file: nil)
            .help(help ?? "run 'flow do' to list the phrases")
        ]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let descriptor = try Catalogs.registry.descriptor(for: match.intentID)
    var values: [String: FlowValue] = [:]
    if !match.rest.isEmpty, let primary = descriptor.primaryParameter {
      values[primary.key] = .text(match.rest)
    }

    let console = context.console
    let services: IntentContext
    let session: RunSession
    do {
      session = try RunSession(
        context, action: descriptor.id, runID: context.environment["FLOW_RUN_ID"] ?? UUID().uuidString.lowercased())
    } catch {
      context.report(Diagnostics([error]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    // Recorded as a one-step run: the action is step 1.
    session.beginAction()
    do {
      services = try options.intentContext(context, prompter: options.prompter(context)) { reason in
        console.write(reason + "\n", to: .error)
      }
    } catch {
      session.finish(.invalid, diagnostics: Diagnostics([error]))
      context.report(Diagnostics([error]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let (observer, step) = (session.observer(SilentObserver()), StepInfo(position: "1", label: descriptor.id))
    observer.record(.started(step))
    do {
      let output = try await descriptor.run(values: values, context: services)
      observer.record(
        .finished(
          StepRecord(step: "1", action: descriptor.id, status: .ran, output: output.value.typeName, value: output.value)
        ))
      session.finish(.success, diagnostics: Diagnostics())
      if let dialog = output.dialog { context.print(dialog) }
      switch output.value {
      case .nothing: break
      case .list(let items): for item in items { context.print(Self.line(for: item)) }
      default: context.print(Self.line(for: output.value))
      }
    } catch {
      let (message, help) = AppIntentError.describe(error)
      let diagnostics = Diagnostics([
        Diagnostic(.error, .stepFailed, "\(descriptor.id): \(message)", file: nil).help(help)
      ])
      let status = ExitStatus(RunError.classify(error))
      session.finish(status, diagnostics: diagnostics)
      context.report(diagnostics)
      throw ExitCode(status.rawValue)
    }
  }

  /// A value on one line: an entity as its title and subtitle.
  static func line(for value: FlowValue) -> String {
    if case .entity(let entity) = value {
      return entity.subtitle.map { "\(entity.title) — \($0)" } ?? entity.title
    }
    return value.text
  }

  /// The longest phrase the typed words start with, and the rest of the words.
  static func match(_ typed: String, in phrases: [(phrase: String, shortTitle: String, intentID: String)])
    -> (intentID: String, rest: String)?
  {
    let words = typed.split(separator: " ").map(String.init)
    var best: (intentID: String, rest: String, length: Int)?
    for entry in phrases {
      let phraseWords = entry.phrase.split(separator: " ").map(String.init)
      guard phraseWords.count <= words.count,
        zip(phraseWords, words).allSatisfy({ $0 == $1.lowercased() }),
        phraseWords.count > (best?.length ?? 0)
      else { continue }
      best = (entry.intentID, words.dropFirst(phraseWords.count).joined(separator: " "), phraseWords.count)
    }
    return best.map { ($0.intentID, $0.rest) }
  }
}

extension DiagnosticCode {
  /// `flow do` was given words that start no phrase.
  public static let unknownPhrase: Self = "unknown-phrase"
}
