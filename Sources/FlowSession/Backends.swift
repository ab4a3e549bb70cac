import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FoundationEssentials
import RaindropIntents
import RaindropLocal
import RaindropModel
import RaindropREST

/// Chooses and opens the bookmark backend of a run (SPEC §7): `--backend`, else `backend:` in
/// `$XDG_CONFIG_HOME/flow/config.yml`, else `raindrop` when a token is configured and `local` otherwise.
/// The places are ``FlowPaths``'.
public struct Backends {
  public let context: SessionContext

  public init(context: SessionContext) { self.context = context }

  // MARK: - The token

  /// Where the token came from, for `flow auth status`; the token itself is never shown.
  public enum TokenSource: Equatable, Sendable {
    case environment
    case file
    case keyring
  }

  /// The token's name among the secrets (`flow secrets list` shows it).
  public static let tokenSecret = "raindrop-token"

  /// The file that says `flow auth login` put the token in the keyring: a run learns that a token is
  /// configured without asking the keyring, which it asks only when a Raindrop action needs the token.
  public var keyringMarker: URL { context.paths.config.appending(path: Self.keyringMarkerName) }
  static let keyringMarkerName = "raindrop-token.in-keyring"

  /// Whether `flow auth login` put the token in the keyring.
  public var tokenInKeyring: Bool {
    if case .success = RegularFile.read(context.paths.configPath(Self.keyringMarkerName), limit: 4096) { return true }
    return false
  }

  /// The token from the keyring, when `flow auth login` put it there; throws why it cannot be read.
  public func keyringToken() throws(Diagnostic) -> String? {
    guard tokenInKeyring else { return nil }
    var store = SecretStore(context: context)
    store.kind = .keyring
    return try store.read([Self.tokenSecret]).values[Self.tokenSecret]
  }

  /// `RAINDROP_TOKEN`, else the token saved by `flow auth login`.
  public func token() -> (token: String, source: TokenSource)? {
    if let token = context.environment["RAINDROP_TOKEN"]?.trimmingWhitespaceAndNewlines(),
      !token.isEmpty
    {
      return (token, .environment)
    }
    // RegularFile, not FileManager: a run asks three times, and FileManager's read cost 50,000
    // instructions each when the file is missing (the local store needs none).
    guard case .success(let bytes) = RegularFile.read(context.paths.configPath(FlowPaths.tokenFileName), limit: 1 << 20)
    else {
      return nil
    }
    let token = String(decoding: bytes, as: UTF8.self).trimmingWhitespaceAndNewlines()
    return token.isEmpty ? nil : (token, .file)
  }

  // MARK: - Choosing

  /// The backend for this run and why, or a diagnostic when the choice is invalid.
  public func choose(flag: BackendChoice?) throws(Diagnostic) -> BackendUse {
    let (choice, reason) = BackendChoice.resolve(
      flag: flag, configured: try configured(), tokenConfigured: token() != nil || tokenInKeyring)
    return BackendUse(choice: choice, reason: reason)
  }

  /// `backend:` from the config file, if it says.
  private func configured() throws(Diagnostic) -> BackendChoice? {
    guard let entry = try Configuration.load(context.paths.configFile).backend else { return nil }
    guard let choice = BackendChoice(rawValue: entry.value) else {
      throw Diagnostic(.error, .unknownValue, "unknown backend '\(entry.value)'", at: entry.span)
        .help("expected 'local' or 'raindrop'")
    }
    return choice
  }

  /// The service the Raindrop intents use, over the chosen backend, opened on first use; `announce`
  /// is called then. `readOnly` opens the local store as a dry run needs it: nothing written, not even
  /// a new empty file.
  public func service(_ choice: BackendChoice, readOnly: Bool = false, announce: @escaping @Sendable () -> Void)
    -> IntentService
  {
    let (dataDirectory, token, environment, transport) = (
      context.paths.data, token(), context.environment, context.transport
    )
    let context = self.context
    let backend = LazyBackend(name: choice.rawValue, announce: announce) {
      () throws(RaindropError) -> any BookmarkBackend in
      switch choice {
      case .local:
        return try LocalBackend(directory: dataDirectory, access: readOnly ? .readOnly : .readWrite)
      case .raindrop:
        if let (token, _) = token {
          return RaindropClient(token: token, baseURL: Self.apiURL(environment), transport: transport)
        }
        // Asked only now, when a step needs Raindrop.io: a run that never does never touches the bus.
        let stored: String?
        do throws(Diagnostic) {
          stored = try Backends(context: context).keyringToken()
        } catch {
          throw .notAuthenticated(reason: "the token is in the keyring, and \(error.message)")
        }
        guard let stored else { throw .notAuthenticated(reason: "no token is configured") }
        return RaindropClient(token: stored, baseURL: Self.apiURL(environment), transport: transport)
      }
    }
    return IntentService(backend: backend)
  }

  /// A client for `token` at the API (`RAINDROP_API_URL`, or Raindrop.io's).
  public func client(token: String, policy: RetryPolicy = .default) -> RaindropClient {
    RaindropClient(
      token: token, baseURL: Self.apiURL(context.environment), transport: context.transport, policy: policy)
  }

  /// `RAINDROP_API_URL` when it is a URL, else Raindrop.io's own.
  private static func apiURL(_ environment: [String: String]) -> URL {
    if let custom = environment["RAINDROP_API_URL"], let url = URL(string: custom), url.scheme != nil { return url }
    return RaindropClient.defaultBaseURL
  }
}

/// Which backend a run opened and why: the line it prints on standard error, and `--json`'s `backend` and
/// `backendReason`.
public struct BackendUse: Sendable, Hashable {
  public var choice: BackendChoice
  public var reason: BackendChoice.Reason

  public init(choice: BackendChoice, reason: BackendChoice.Reason) {
    self.choice = choice
    self.reason = reason
  }

  /// "backend: local (no Raindrop.io token configured)".
  public var line: String { BackendChoice.describe(choice, reason) }
}

extension DiagnosticCode {
  /// The backend cannot be opened, reached, or refuses the credentials (exit 5).
  public static let backendUnavailable: Self = "backend-unavailable"
}
