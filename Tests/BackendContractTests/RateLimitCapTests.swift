import Foundation
import RaindropModel
import RaindropREST
import RaindropStubServer
import Testing

/// A server's rate-limit headers are not trusted without bound (issue 16, item 8): a wait longer than
/// ``RaindropError/maximumRateLimitWait`` fails at once in the server's words, on the manual clock, which
/// must not move.
@Suite("Rate-limit waits are capped")
struct RateLimitCapTests {
  @Test(
    "a Retry-After beyond ten minutes fails at once, quoting the header",
    arguments: ["9223372036854775807", "999999999", "601", "99999999999999999999999"])
  func retryAfterTooLong(value: String) async throws {
    try await withBackend(.rest) { fixture in
      await fixture.server?.failNext(.rateLimitedSaying(["Retry-After": value]))
      let start = fixture.clock.now
      await expectError(.waitTooLong(said: "Retry-After: \(value)")) { () async throws(RaindropError) in
        try await fixture.backend.currentUser()
      }
      #expect(fixture.clock.now == start)
    }
  }

  @Test("a Retry-After of exactly ten minutes is waited out")
  func retryAfterAtTheCap() async throws {
    try await withBackend(.rest) { fixture in
      await fixture.server?.failNext(.rateLimitedSaying(["Retry-After": "600"]))
      let start = fixture.clock.now
      _ = try await fixture.backend.currentUser()
      #expect(fixture.clock.now.timeIntervalSince(start) >= 600)
    }
  }

  @Test("a 429 whose reset is years away fails at once")
  func resetTooFarOn429() async throws {
    try await withBackend(.rest) { fixture in
      await fixture.server?.failNext(.rateLimitedSaying(["x-ratelimit-reset": "99999999999"]))
      let start = fixture.clock.now
      await expectError(.waitTooLong(said: "x-ratelimit-reset: 99999999999")) { () async throws(RaindropError) in
        try await fixture.backend.currentUser()
      }
      #expect(fixture.clock.now == start)
    }
  }

  @Test("a used-up window whose reset is years away fails the next request rather than wait for it")
  func resetTooFarInTheLimiter() async throws {
    try await withBackend(.rest) { fixture in
      await fixture.server?.failNext(
        .answerSaying(["x-ratelimit-remaining": "0", "x-ratelimit-reset": "9223372036854775807"]))
      _ = try await fixture.backend.currentUser()
      let start = fixture.clock.now
      await expectError(.waitTooLong(said: "x-ratelimit-reset: 9223372036854775807")) {
        () async throws(RaindropError) in try await fixture.backend.currentUser()
      }
      #expect(fixture.clock.now == start)
    }
  }

  @Test("the message names the cap and the header")
  func message() {
    #expect(
      RaindropError.waitTooLong(said: "Retry-After: 999999999").description
        == "Raindrop.io asked flow to wait longer than 10 minutes (Retry-After: 999999999)")
  }

  @Test("the real clock's sleep survives any deadline and stays cancellable")
  func systemClockFarDeadline() async {
    let sleeper = Task { try await SystemBackendClock().sleep(until: Date(timeIntervalSince1970: 9.2e18)) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }
}
