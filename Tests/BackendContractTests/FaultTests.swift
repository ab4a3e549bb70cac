import FlowHTTP
import Foundation
import RaindropLocal
import RaindropModel
import RaindropREST
import RaindropStubServer
import Testing

/// The REST client against a stand-in that misbehaves on purpose. The clock is manual: waits move it, nothing
/// sleeps (except the one slow-answer test, which needs a real timeout).
@Suite("REST client against a faulty stand-in")
struct FaultTests {
  @Test("the limiter keeps a burst under the window: no 429 at all")
  func limiterAvoids429() async throws {
    try await withBackend(.rest, rateLimit: RateWindow(limit: 5, seconds: 60)) { fixture in
      let server = try #require(fixture.server)
      let start = fixture.clock.now
      for _ in 0..<12 { _ = try await fixture.backend.currentUser() }
      #expect(await server.rateLimitedResponses == 0)
      #expect(await server.totalRequests == 12)
      // 12 requests at 5 a window: two full windows waited.
      #expect(fixture.clock.now.timeIntervalSince(start) >= 120)
      #expect(fixture.clock.now.timeIntervalSince(start) < 125)
    }
  }

  @Test("a 429 is honoured: Retry-After first")
  func honoursRetryAfter() async throws {
    try await withBackend(.rest) { fixture in
      let server = try #require(fixture.server)
      await server.failNext(.rateLimited(retryAfter: 7), times: 2)
      let start = fixture.clock.now
      _ = try await fixture.backend.currentUser()
      #expect(fixture.clock.now.timeIntervalSince(start) >= 14)
      #expect(await server.totalRequests == 3)
    }
  }

  @Test("a 429 without Retry-After waits for the reset")
  func honoursReset() async throws {
    try await withBackend(.rest) { fixture in
      let server = try #require(fixture.server)
      _ = try await fixture.backend.currentUser()  // opens a 60 s window
      await server.failNext(.rateLimited(retryAfter: nil))
      let start = fixture.clock.now
      _ = try await fixture.backend.currentUser()
      let waited = fixture.clock.now.timeIntervalSince(start)
      #expect(waited >= 59 && waited <= 61)
    }
  }

  @Test("too many 429s give up with a readable error")
  func givesUpOnEndless429() async throws {
    let policy = RetryPolicy(maxRateLimitWaits: 2)
    try await withBackend(.rest, policy: policy) { fixture in
      await fixture.server?.failNext(.rateLimited(retryAfter: 3), times: 10)
      await expectError(.rateLimited(retryAfterSeconds: 3)) { () async throws(RaindropError) in
        try await fixture.backend.currentUser()
      }
    }
  }

  @Test(
    "5xx, resets and broken JSON are retried for reads",
    arguments: [
      StubFault.serverError, .resetConnection, .malformedJSON, .serverErrorAfterHandling,
    ])
  func retriesReads(fault: StubFault) async throws {
    try await withBackend(.rest) { fixture in
      let made = try await fixture.backend.createBookmark(NewBookmark(link: "https://retry.example"))
      await fixture.server?.failNext(fault, times: 2)
      #expect(try await fixture.backend.bookmark(id: made.id) == made)
    }
  }

  @Test("5xx after the last attempt is a server error")
  func serverErrorAfterRetries() async throws {
    try await withBackend(.rest, policy: RetryPolicy(maxAttempts: 3)) { fixture in
      await fixture.server?.failNext(.serverError, times: 3)
      await expectError(.serverError(status: 500, message: "Injected server error")) { () async throws(RaindropError) in
        try await fixture.backend.currentUser()
      }
      #expect(await fixture.server?.totalRequests == 3)
    }
  }

  @Test(
    "a create whose answer is lost is not made twice",
    arguments: [
      StubFault.resetAfterHandling, .serverErrorAfterHandling, .malformedJSON, .resetConnection, .serverError,
    ])
  func createNotDuplicated(fault: StubFault) async throws {
    try await withBackend(.rest) { fixture in
      await fixture.server?.failNext(fault)
      let made = try await fixture.backend.createBookmark(NewBookmark(link: "https://once.example", tags: ["t"]))
      #expect(made.link == "https://once.example")
      let stored = try await fixture.store.bookmarks(BookmarkListQuery())
      #expect(stored.count == 1)
      #expect(stored.items.first?.id == made.id)
      let counts = try #require(await fixture.server?.requestCounts)
      #expect(counts["POST /import/url/exists"] == 1)
      #expect(counts["POST /raindrop"] == (fault.description.contains("after") || fault == .malformedJSON ? 1 : 2))
    }
  }

  @Test("deleting twice after a lost answer does not remove from Trash")
  func deleteNotRepeated() async throws {
    try await withBackend(.rest) { fixture in
      let made = try await fixture.backend.createBookmark(NewBookmark(link: "https://trash.example"))
      await fixture.server?.failNext(.resetAfterHandling)
      let outcome = try await fixture.backend.deleteBookmark(id: made.id)
      guard case .movedToTrash(let trashed) = outcome else {
        Issue.record("expected a move to Trash, got \(outcome)")
        return
      }
      #expect(trashed.removed)
      #expect(try await fixture.store.bookmark(id: made.id).removed)
    }
  }

  @Test("a slow answer times out and is retried")
  func slowAnswer() async throws {
    // The timeout is 3 s and the stand-in's slow answer 6 s late. The stand-in answers on the test
    // process's cooperative threads, which the suite's blocking process tests can hold for seconds at a
    // time: a retry may time out too, so there are attempts to spare (12 s in all for one answer) and the
    // count is a lower bound. What matters is that the slow answer was given up on and the request made
    // again.
    let policy = RetryPolicy(maxAttempts: 5, requestTimeout: .seconds(3))
    try await withBackend(.rest, policy: policy) { fixture in
      await fixture.server?.failNext(.slow(.seconds(6)))
      let start = Date()
      do {
        _ = try await fixture.backend.currentUser()
      } catch {
        Issue.record(
          "\(error) after \(Date().timeIntervalSince(start)) s, \(await fixture.server?.totalRequests ?? -1) requests, sleeps \(fixture.clock.sleepCount)"
        )
      }
      #expect(await (fixture.server?.totalRequests ?? 0) >= 2)
    }
  }

  @Test("401: the seed's 'Please log in' error, without the token")
  func unauthorized() async throws {
    try await withBackend(.rest) { fixture in
      await fixture.server?.failNext(.unauthorized)
      do throws(RaindropError) {
        _ = try await fixture.backend.currentUser()
        Issue.record("expected a 401")
      } catch {
        #expect(error == .notAuthenticated(reason: "Incorrect access_token"))
        #expect(error.description == "Please log in to Raindrop.io first")
        #expect(error.help?.contains("flow auth login") == true)
      }
      let url = try #require(fixture.client?.baseURL)
      let wrong = RaindropClient(token: "secret-wrong-token", baseURL: url, clock: fixture.clock)
      do throws(RaindropError) {
        _ = try await wrong.bookmarks(BookmarkListQuery())
        Issue.record("expected a 401")
      } catch {
        #expect(error == .notAuthenticated(reason: "Incorrect access_token"))
        #expect(!String(describing: error).contains("secret-wrong-token"))
      }
    }
  }

  @Test("an unknown route is Express's HTML 404")
  func unknownRoute() async throws {
    try await withBackend(.rest) { fixture in
      let url = try #require(fixture.client?.baseURL).deletingLastPathComponent().appendingPathComponent("v9")
      let client = RaindropClient(token: "test-token", baseURL: url, clock: fixture.clock)
      await expectError(.unknownEndpoint(method: "GET", path: "/user")) { () async throws(RaindropError) in
        try await client.currentUser()
      }
    }
  }

  /// The issue's fault test: 500 bookmarks saved and tagged one by one, then tagged in bulk, while a fifth of
  /// all requests fail in every way the stand-in knows. Nothing may be lost or duplicated.
  @Test("a 500-bookmark tagging job with 20% faults loses nothing and duplicates nothing")
  func taggingJobUnderFaults() async throws {
    let policy = RetryPolicy(maxAttempts: 12, maxRateLimitWaits: 12, requestTimeout: .seconds(10))
    try await withBackend(.rest, policy: policy) { fixture in
      let server = try #require(fixture.server)
      let backend = fixture.backend
      await server.injectRandomFaults(
        rate: 0.2,
        from: [
          .serverError, .serverErrorAfterHandling, .resetConnection, .resetAfterHandling, .malformedJSON,
          .rateLimited(retryAfter: 2),
        ],
        seed: 2026
      )
      let links = (0..<500).map { "https://job.example/item/\($0)" }
      // Four workers at once, so the limiter and retries also meet concurrency.
      let ids = try await withThrowingTaskGroup(of: [Int].self) { group in
        for worker in 0..<4 {
          group.addTask {
            var made: [Int] = []
            for index in stride(from: worker, to: links.count, by: 4) {
              let bookmark = try await backend.createBookmark(NewBookmark(link: links[index], parse: false))
              let current = try await backend.bookmark(id: bookmark.id)
              var tagged = current
              tagged.tags = TagEditor.edit(current.tags, adding: ["one-by-one"])
              _ = try await backend.updateBookmark(id: bookmark.id, BookmarkChanges(from: current, to: tagged))
              made.append(bookmark.id)
            }
            return made
          }
        }
        var all: [Int] = []
        for try await part in group { all += part }
        return all
      }
      let modified = try await backend.updateBookmarks(ids: ids, in: 0, BulkChange(addTags: ["bulk"]))
      await server.clearFaults()

      #expect(modified == 500)
      let stored = try await fixture.store.allBookmarks(BookmarkListQuery(), limit: nil)
      #expect(stored.count == 500, "no duplicate and nothing lost")
      #expect(Set(stored.map(\.link)) == Set(links))
      #expect(Set(ids).count == 500)
      let missing = stored.filter { $0.tags != ["one-by-one", "bulk"] }
      #expect(missing.isEmpty, "every bookmark carries both tags")
      let faults = await server.injectedFaults
      #expect(faults.values.reduce(0, +) > 200, "faults were injected: \(faults)")
      let limited = await server.rateLimitedResponses
      let total = await server.totalRequests
      #expect(limited == 0, "429s: \(limited), requests: \(total), faults \(faults)")
    }
  }
}

/// A bulk update that fails part-way says which bookmarks it changed and which it did not (issue 16, item 11).
@Suite("REST client: a bulk update that fails part-way")
struct PartialBulkUpdateTests {
  static let bulk = "PUT /raindrops/{collectionId}"

  func seed(_ fixture: Fixture, count: Int) async throws -> [Int] {
    var ids: [Int] = []
    for index in 0..<count {
      ids.append(
        try await fixture.store.createBookmark(NewBookmark(link: "https://part.example/\(index)", parse: false)).id)
    }
    return ids
  }

  @Test("the first PUT answered unreadably five times: its 100 were changed, the other 150 were not")
  func unreadableFirstBatch() async throws {
    try await withBackend(.rest) { fixture in
      let ids = try await seed(fixture, count: 250)
      await fixture.server?.failNext(.malformedJSON, times: 5, on: Self.bulk)
      await expectError(
        .incomplete(
          BulkProgress(changed: Array(ids[..<100]), uncertain: [], unchanged: Array(ids[100...])),
          cause: .malformedResponse("PUT raindrops/0: not valid JSON"))
      ) { () async throws(RaindropError) in
        try await fixture.backend.updateBookmarks(ids: ids, in: 0, BulkChange(addTags: ["t"]))
      }
      let tagged = try await fixture.store.allBookmarks(BookmarkListQuery(search: "#t"))
      #expect(Set(tagged.map(\.id)) == Set(ids[..<100]))
    }
  }

  @Test("a refusal of the third batch: two changed, one refused, nothing uncertain")
  func refusedThirdBatch() async throws {
    try await withBackend(.rest) { fixture in
      let ids = try await seed(fixture, count: 250)
      await fixture.server?.failNext(.badRequest, on: Self.bulk, skipping: 2)
      do throws(RaindropError) {
        _ = try await fixture.backend.updateBookmarks(ids: ids, in: 0, BulkChange(addTags: ["t"]))
        Issue.record("no error")
      } catch {
        #expect(
          error
            == .incomplete(
              BulkProgress(changed: Array(ids[..<200]), uncertain: [], unchanged: Array(ids[200...])),
              cause: .invalidRequest(message: "Injected bad request")))
        let first = ids[0]
        #expect(
          error.description
            == "Raindrop.io refused the request: Injected bad request; 200 of 250 bookmarks were changed (ids \(first)–\(first + 199)) and 50 were not (ids \(first + 200)–\(first + 249))"
        )
      }
    }
  }

  @Test("a lost answer on the second batch: that batch may have been changed")
  func lostSecondBatch() async throws {
    try await withBackend(.rest, policy: RetryPolicy(maxAttempts: 2)) { fixture in
      let ids = try await seed(fixture, count: 150)
      await fixture.server?.failNext(.resetAfterHandling, times: 2, on: Self.bulk, skipping: 1)
      do throws(RaindropError) {
        _ = try await fixture.backend.updateBookmarks(ids: ids, in: 0, BulkChange(addTags: ["t"]))
        Issue.record("no error")
      } catch {
        guard case .incomplete(let progress, cause: .network) = error else {
          Issue.record("\(error)")
          return
        }
        #expect(progress == BulkProgress(changed: Array(ids[..<100]), uncertain: Array(ids[100...]), unchanged: []))
        #expect(error.description.contains("50 may have been (the answer was lost) (ids"))
      }
    }
  }

  @Test("a first batch refused outright is the plain error: nothing was changed")
  func nothingChanged() async throws {
    try await withBackend(.rest) { fixture in
      let ids = try await seed(fixture, count: 150)
      await fixture.server?.failNext(.badRequest, on: Self.bulk)
      await expectError(.invalidRequest(message: "Injected bad request")) { () async throws(RaindropError) in
        try await fixture.backend.updateBookmarks(ids: ids, in: 0, BulkChange(addTags: ["t"]))
      }
    }
  }

  @Test("ids are listed as runs") func listing() {
    #expect(
      BulkProgress(changed: [1, 2, 3, 7, 9, 10], uncertain: [], unchanged: [4]).description
        == "6 of 7 bookmarks were changed (ids 1–3, 7, 9, 10) and 1 was not (id 4)")
  }
}
