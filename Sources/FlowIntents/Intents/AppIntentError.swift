import FlowDiagnostics

/// The errors the framework raises, App Intents' standard cases among them, each with a message a person
/// reads and, where something would fix it, a help line.
///
/// A struct over a kind (Hummingbird's pattern) so that cases can be added without breaking callers; the
/// runtime switches on ``kind`` to choose an exit status (``Kind/userCancelled`` → cancelled,
/// ``Kind/needsValue`` → input needed, ``Kind/insufficientAccount`` → backend unauthorised).
public struct AppIntentError: Error, Sendable, Hashable, CustomLocalizedStringResourceConvertible,
  CustomStringConvertible
{
  /// What went wrong, for callers that react differently to each.
  public enum Kind: Sendable, Hashable {
    /// A required value is missing and nobody could be asked.
    case needsValue
    /// A choice had to be made and nobody could be asked.
    case needsChoice
    /// A confirmation was needed and nobody could give it.
    case confirmationRequired
    /// The person declined a confirmation or cancelled a prompt.
    case userCancelled
    /// No entity matched an id or a text.
    case entityNotFound
    /// The service needs an account or a sign-in first.
    case insufficientAccount
    /// A value did not convert to the parameter's type.
    case invalidValue
    /// A number outside the parameter's range.
    case outOfRange
    /// A step names a parameter the intent does not have.
    case unknownParameter
    /// The run does not provide a service the intent declares with `@Dependency`.
    case missingDependency
    /// The step would do something its workflow's permission card does not show (``CapabilitySet``).
    case notOnTheCard
    /// Anything else the intent reports.
    case failed
  }

  public var kind: Kind
  public var message: String
  public var help: String?
  /// Who was asking, when it concerns a parameter or a prompt.
  public var origin: PromptOrigin?
  /// The candidates, for disambiguation and not-found errors.
  public var candidates: [String]
  /// Lines of evidence shown under the message, as the diagnostic's notes: the end of a command's
  /// standard error (`run-shell`).
  public var notes: [String]
  /// The exit status of the command whose failure this is (`run-shell`), for `${run.error.status}`.
  public var exitStatus: Int?
  /// The last lines of that command's standard error, for `${run.error.stderr}`.
  public var standardError: String?

  public init(
    _ kind: Kind, _ message: String, help: String? = nil, origin: PromptOrigin? = nil, candidates: [String] = [],
    notes: [String] = []
  ) {
    self.kind = kind
    self.message = message
    self.help = help
    self.origin = origin
    self.candidates = candidates
    self.notes = notes
  }

  public var localizedStringResource: LocalizedStringResource { LocalizedStringResource(message) }
  public var description: String { message }

  // MARK: - The standard cases

  public static func needsValue(_ origin: PromptOrigin, dialog: String) -> AppIntentError {
    let subject = origin.parameterKey.map { "'\($0)' needs a value" } ?? "an answer is needed"
    return AppIntentError(.needsValue, "\(subject): \(dialog)", origin: origin)
  }

  public static func needsChoice(_ origin: PromptOrigin, dialog: String, options: [String]) -> AppIntentError {
    let subject = origin.parameterKey.map { "'\($0)' needs a choice" } ?? "a choice is needed"
    return AppIntentError(
      .needsChoice, "\(subject): \(dialog)", help: "choose one of \(List.or(options.map { "'\($0)'" }))",
      origin: origin, candidates: options)
  }

  public static func confirmationRequired(_ origin: PromptOrigin, dialog: String) -> AppIntentError {
    AppIntentError(.confirmationRequired, "confirmation needed: \(dialog)", origin: origin)
  }

  public static let userCancelled = AppIntentError(.userCancelled, "cancelled")

  /// No `typeName` matches `text`; the closest known names make the help line.
  public static func entityNotFound(_ typeName: String, matching text: String, among names: [String] = [])
    -> AppIntentError
  {
    AppIntentError(
      .entityNotFound, "no \(typeName) matches '\(text)'", help: Suggestion.help(for: text, among: names),
      candidates: names)
  }

  public static func insufficientAccount(_ message: String = "this needs an account", help: String? = nil)
    -> AppIntentError
  {
    AppIntentError(.insufficientAccount, message, help: help)
  }

  /// Something the intent reports in its own words.
  public static func failed(_ message: String, help: String? = nil, notes: [String] = []) -> AppIntentError {
    AppIntentError(.failed, message, help: help, notes: notes)
  }

  /// The message and help line of any error: ``CustomLocalizedStringResourceConvertible`` errors speak
  /// for themselves, coercion errors too, and anything else is described as Swift prints it.
  public static func describe(_ error: any Error) -> (message: String, help: String?) {
    switch error {
    case let error as AppIntentError: (error.message, error.help)
    case let error as CoercionError: (error.message, error.help)
    case let error as any CustomLocalizedStringResourceConvertible: (error.localizedStringResource.key, nil)
    case is CancellationError: ("cancelled", nil)
    default: (String(describing: error), nil)
    }
  }
}
