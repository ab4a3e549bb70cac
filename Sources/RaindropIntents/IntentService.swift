import FlowIntents
import RaindropModel

/// The seed's `IntentService`, injected instead of a singleton: every Raindrop intent and query reaches
/// the bookmarks through it, whichever backend the run chose (`local` or `raindrop`).
///
/// Like the seed it checks that the person is logged in before the first call — but once per run, not
/// per call, so that tagging a thousand bookmarks does not cost a thousand extra requests.
public final class IntentService: Sendable {
  public let backend: any BookmarkBackend
  private let checked = CheckedFlag()

  public init(backend: any BookmarkBackend) {
    self.backend = backend
  }

  /// Runs `body` against the backend, after making sure it accepts the credentials; backend errors
  /// become intent errors with the seed's wording.
  public func perform<T: Sendable>(_ body: (any BookmarkBackend) async throws(RaindropError) -> T) async throws -> T {
    do {
      if await !checked.isSet {
        _ = try await backend.currentUser()
        await checked.set()
      }
      return try await body(backend)
    } catch {
      throw Self.intentError(error)
    }
  }

  /// The seed's `IntentServiceError.notAuthenticated` and the other backend failures, as App Intents
  /// errors with their help lines.
  static func intentError(_ error: RaindropError) -> AppIntentError {
    // The cause decides the kind (and so the exit status); the message adds which bookmarks were changed.
    if case .incomplete(let progress, let cause) = error {
      var failure = intentError(cause)
      failure.message += "; \(progress.description)"
      return failure
    }
    return switch error {
    case .notAuthenticated:
      AppIntentError.insufficientAccount(
        IntentServiceError.notAuthenticated.localizedStringResource.key, help: error.help)
    case .notFound:
      AppIntentError(.entityNotFound, error.description, help: error.help)
    // Unreachable, refusing or broken backends end the run with the backend's exit status.
    case _ where error.isBackendUnavailable:
      AppIntentError.insufficientAccount(error.description, help: error.help)
    default:
      AppIntentError.failed(error.description, help: error.help)
    }
  }
}

/// The seed's error, kept with its message.
enum IntentServiceError: Error, CustomLocalizedStringResourceConvertible {
  case notAuthenticated

  var localizedStringResource: LocalizedStringResource {
    switch self {
    case .notAuthenticated: "Please log in to Raindrop.io first"
    }
  }
}

/// Whether the credentials were checked in this run.
private actor CheckedFlag {
  private(set) var isSet = false
  func set() { isSet = true }
}
