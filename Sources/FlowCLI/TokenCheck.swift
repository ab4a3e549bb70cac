import FlowSession
import RaindropModel
import RaindropREST

/// What Raindrop.io says of a token, asked with `GET /user`: a refusal (401) is a verdict on the token;
/// anything else that goes wrong (no connection, a server error) only means it could not be checked.
enum TokenCheck {
  case accepted(RaindropUser)
  /// Refused, with the server's reason ("Incorrect access_token").
  case refused(String)
  case unchecked(RaindropError)

  static func check(_ token: String, with backends: Backends) async -> TokenCheck {
    // One try and no waiting out a rate limit: a person is waiting, and can run the command again.
    let client = backends.client(token: token, policy: RetryPolicy(maxAttempts: 1, maxRateLimitWaits: 0))
    do {
      return .accepted(try await client.currentUser())
    } catch {
      if case .notAuthenticated(let reason) = error { return .refused(reason) }
      return .unchecked(error)
    }
  }
}
