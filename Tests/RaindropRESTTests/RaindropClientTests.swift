import FlowHTTP
import Foundation
import RaindropModel
import RaindropREST
import RaindropStubServer
import Testing

private let base = RaindropClient.defaultBaseURL

private func client(
  _ transport: ScriptedTransport, clock: ManualBackendClock = ManualBackendClock(), policy: RetryPolicy = .default
) -> RaindropClient {
  RaindropClient(token: "tok-123", baseURL: base, transport: transport, clock: clock, policy: policy)
}

@Suite("RaindropClient decoding")
struct DecodingTests {
  @Test(
    "tolerant: unknown keys, important absent, creatorRef as int or object, dates with and without ms, collectionId alone"
  )
  func tolerantDecoding() async throws {
    let body = #"""
      {"result":true,"items":[
        {"_id":1,"link":"https://a.example","title":"A","type":"article","tags":["x"],"collection":{"$ref":"collections","$id":5,"oid":5},
         "created":"2025-07-02T05:21:12.185Z","lastUpdate":"2025-07-02T05:21:12Z","domain":"a.example","creatorRef":{"_id":2,"name":"n"},
         "sort":9,"surprise":{"nested":[1,2]},"media":[]},
        {"_id":2,"link":"https://b.example","collectionId":-1,"creatorRef":2,"important":true,"created":"2024-01-01T00:00:00Z","type":"podcast"},
        {"_id":3,"link":"https://c.example","collection":{"$id":-99},"removed":true,"important":false,"tags":null}
      ],"count":3,"collectionId":0}
      """#
    let transport = ScriptedTransport([json(body)])
    let page = try await client(transport).bookmarks(BookmarkListQuery())
    #expect(page.count == 3)
    let (a, b, c) = (page.items[0], page.items[1], page.items[2])
    #expect(a.collectionId == 5)
    #expect(a.important == false)
    #expect(a.type == .article)
    #expect(a.sort == 9)
    #expect(a.created == Date(timeIntervalSince1970: 1_751_433_672.185))
    #expect(a.lastUpdate == Date(timeIntervalSince1970: 1_751_433_672))
    #expect(b.collectionId == -1)
    #expect(b.important)
    #expect(b.title == "https://b.example")
    #expect(b.type == .link)
    #expect(b.domain == "b.example")
    #expect(c.collectionId == -99)
    #expect(c.removed)
    #expect(c.tags == [])
  }

  @Test("collections: roots with parent null, children deduplicated, system counts from /user/stats")
  func collections() async throws {
    let transport = ScriptedTransport([
      json(#"{"result":true,"items":[{"_id":0,"count":3},{"_id":-1,"count":1},{"_id":-99,"count":2}],"meta":{}}"#),
      json(
        #"{"result":true,"items":[{"_id":10,"title":"Root","count":2,"parent":null,"cover":[],"access":{"level":4}}]}"#),
      json(
        #"{"result":true,"items":[{"_id":10,"title":"Root","count":2,"parent":null},{"_id":11,"title":"Kid","count":0,"parent":{"$ref":"collections","$id":10}}]}"#
      ),
    ])
    let all = try await client(transport).collections()
    #expect(all.map(\.id) == [0, -1, -99, 10, 11])
    #expect(all.map(\.count) == [3, 1, 2, 2, 0])
    #expect(all[3].parentId == nil)
    #expect(all[4].parentId == 10)
    #expect(
      transport.requests.map(\.url.path) == [
        "/rest/v1/user/stats", "/rest/v1/collections", "/rest/v1/collections/childrens",
      ])
  }

  @Test("the user comes from the `user` key")
  func user() async throws {
    let user = try await client(ScriptedTransport([json(userBody)])).currentUser()
    #expect(user == RaindropUser(id: 7, name: "Ann", email: "a@b.c", pro: true))
  }
}

@Suite("RaindropClient requests")
struct RequestTests {
  @Test("bearer token, JSON body, only the diff, collection as {$id}, pleaseParse on create")
  func requestShapes() async throws {
    let item = #"{"result":true,"item":{"_id":4,"link":"https://x.example","collectionId":-1}}"#
    let transport = ScriptedTransport([json(item), json(item)])
    let api = client(transport)
    _ = try await api.createBookmark(NewBookmark(link: "https://x.example", tags: ["a"], collectionId: 12))
    _ = try await api.updateBookmark(id: 4, BookmarkChanges(tags: ["b"], important: false))
    let create = transport.requests[0]
    #expect(create.method == "POST")
    #expect(create.url.absoluteString == "https://api.raindrop.io/rest/v1/raindrop")
    #expect(create.headers["Authorization"] == "Bearer tok-123")
    #expect(create.headers["Content-Type"] == "application/json")
    let createBody = try #require(try JSONSerialization.jsonObject(with: create.body ?? Data()) as? [String: Any])
    #expect(createBody["link"] as? String == "https://x.example")
    #expect((createBody["collection"] as? [String: Any])?["$id"] as? Int == 12)
    #expect(createBody["pleaseParse"] is [String: Any])
    #expect(createBody["title"] == nil)
    let update = transport.requests[1]
    #expect(update.method == "PUT")
    #expect(update.url.path == "/rest/v1/raindrop/4")
    let updateBody = try #require(try JSONSerialization.jsonObject(with: update.body ?? Data()) as? [String: Any])
    #expect(Set(updateBody.keys) == ["tags", "important"])
  }

  @Test("search is fully percent-encoded: # is %23 and + is %2B")
  func queryEncoding() async throws {
    let transport = ScriptedTransport([json(#"{"result":true,"items":[],"count":0}"#)])
    _ = try await client(transport).bookmarks(
      BookmarkListQuery(collectionId: -1, search: "#c++ \"a b\" ❤️", sort: .relevance, page: 2, perPage: 80))
    let url = try #require(transport.requests.first?.url.absoluteString)
    #expect(url.hasPrefix("https://api.raindrop.io/rest/v1/raindrops/-1?"))
    #expect(url.contains("search=%23c%2B%2B%20%22a%20b%22%20%E2%9D%A4%EF%B8%8F"))
    #expect(url.contains("sort=score"))
    #expect(url.contains("page=2"))
    #expect(url.contains("perpage=50"))
  }

  @Test("bulk updates go 100 ids at a time with addTags/deleteTags; none means no request")
  func bulkChunks() async throws {
    let transport = ScriptedTransport(Array(repeating: json(#"{"result":true,"modified":100}"#), count: 3))
    let api = client(transport)
    #expect(try await api.updateBookmarks(ids: [], in: 0, BulkChange(addTags: ["a"])) == 0)
    #expect(transport.requests.isEmpty)
    let modified = try await api.updateBookmarks(
      ids: Array(1...250), in: 0, BulkChange(addTags: ["a"], removeTags: ["b"]))
    #expect(modified == 300)
    #expect(transport.requests.count == 3)
    let first = try #require(
      try JSONSerialization.jsonObject(with: transport.requests[0].body ?? Data()) as? [String: Any])
    #expect((first["ids"] as? [Int])?.count == 100)
    #expect(first["addTags"] as? [String] == ["a"])
    #expect(first["deleteTags"] as? [String] == ["b"])
    #expect(transport.requests.allSatisfy { $0.method == "PUT" && $0.url.path == "/rest/v1/raindrops/0" })
  }

  @Test("exists: result false is an empty answer, not an error")
  func existsNotFound() async throws {
    let transport = ScriptedTransport([
      json(#"{"result":false,"ids":[]}"#), json(#"{"result":true,"ids":[9,3],"duplicates":[],"id":9}"#),
    ])
    let api = client(transport)
    #expect(try await api.existingBookmarkIDs(link: "https://x") == [])
    #expect(try await api.existingBookmarkIDs(link: "https://x") == [3, 9])
  }
}

@Suite("RaindropClient errors")
struct ErrorTests {
  static let cases: [(Int, String, [String: String], RaindropError)] = [
    (
      401, #"{"result":false,"status":401,"errorMessage":"Unauthorized","auth":false}"#, [:],
      .notAuthenticated(reason: "Unauthorized")
    ),
    (404, #"{"result":false,"status":404,"errorMessage":"Not found"}"#, [:], .notFound(.bookmark(id: 5))),
    (
      404, "<pre>Cannot GET /rest/v1/raindrop/5</pre>", ["content-type": "text/html"],
      .unknownEndpoint(method: "GET", path: "/raindrop/5")
    ),
    (
      400, #"{"result":false,"error":"view","errorMessage":"Collection validation failed"}"#, [:],
      .invalidRequest(message: "Collection validation failed")
    ),
    (
      413, #"{"result":false,"status":413,"errorMessage":"ids array is larger than max 100 or empty"}"#, [:],
      .tooLarge(message: "ids array is larger than max 100 or empty")
    ),
    (200, #"{"result":false,"status":404,"errorMessage":"Not found"}"#, [:], .notFound(.bookmark(id: 5))),
  ]

  @Test("statuses become typed errors", arguments: 0..<cases.count)
  func mapping(index: Int) async throws {
    let (status, body, headers, expected) = Self.cases[index]
    let transport = ScriptedTransport([json(body, status: status, headers: headers)])
    do throws(RaindropError) {
      _ = try await client(transport).bookmark(id: 5)
      Issue.record(", status: statusexpected \(expected)")
    } catch {
      #expect(error == expected)
      #expect(!error.description.contains("tok-123"))
    }
    #expect(transport.requests.count == 1, "4xx is never retried")
  }

  @Test("the 401 message is the seed's, with help to log in")
  func loginMessage() {
    let error = RaindropError.notAuthenticated(reason: "Incorrect access_token")
    #expect(error.description == "Please log in to Raindrop.io first")
    #expect(error.help == "run 'flow auth login' or set RAINDROP_TOKEN; use '--backend local' to work offline")
  }

  @Test("5xx and network errors are retried with doubling backoff, then reported")
  func retriesWithBackoff() async throws {
    let clock = ManualBackendClock()
    let start = clock.now
    let transport = ScriptedTransport([
      json(#"{"result":false,"errorMessage":"busy"}"#, status: 503), .failure(.connectionLost),
      .failure(.timedOut(after: .seconds(30))),
      json("bad gateway", status: 502), json(#"{"result":false,"errorMessage":"boom"}"#, status: 500),
    ])
    do throws(RaindropError) {
      _ = try await client(transport, clock: clock).currentUser()
      Issue.record("expected a failure")
    } catch {
      #expect(error == .serverError(status: 500, message: "boom"))
    }
    #expect(transport.requests.count == 5)
    let waited: TimeInterval = 7.5  // 0.5 + 1 + 2 + 4
    #expect(clock.now.timeIntervalSince(start) == waited)
  }

  @Test("a create that fails is checked with /import/url/exists before it is sent again")
  func createChecksBeforeRetry() async throws {
    let clock = ManualBackendClock()
    let now = RaindropDate.format(clock.now)
    let transport = ScriptedTransport([
      json(#"{"result":false,"errorMessage":"boom"}"#, status: 500),
      json(#"{"result":true,"ids":[77],"duplicates":[{"_id":77,"link":"https://n.example"}],"id":77}"#),
      json(#"{"result":true,"item":{"_id":77,"link":"https://n.example","created":"\#(now)"}}"#),
    ])
    let made = try await client(transport, clock: clock).createBookmark(NewBookmark(link: "https://n.example"))
    #expect(made.id == 77)
    #expect(
      transport.requests.map { "\($0.method) \($0.url.path)" } == [
        "POST /rest/v1/raindrop", "POST /rest/v1/import/url/exists", "GET /rest/v1/raindrop/77",
      ])
  }

  @Test("an old bookmark with the same link does not count as the lost create")
  func createIgnoresOldSave() async throws {
    let clock = ManualBackendClock()
    let transport = ScriptedTransport([
      .failure(.connectionLost),
      json(#"{"result":true,"ids":[5],"id":5}"#),
      json(#"{"result":true,"item":{"_id":5,"link":"https://n.example","created":"2020-01-01T00:00:00Z"}}"#),
      json(#"{"result":true,"item":{"_id":6,"link":"https://n.example"}}"#),
    ])
    let made = try await client(transport, clock: clock).createBookmark(NewBookmark(link: "https://n.example"))
    #expect(made.id == 6)
    #expect(transport.requests.filter { $0.method == "POST" && $0.url.path.hasSuffix("/raindrop") }.count == 2)
  }
}

@Suite("Rate limiter")
struct RateLimiterTests {
  @Test(
    "waits for the reset when the window is used up, in either header spelling",
    arguments: ["x-ratelimit-remaining", "ratelimit-remaining"])
  func waitsForReset(remainingHeader: String) async throws {
    let clock = ManualBackendClock()
    let reset = Int(clock.now.timeIntervalSince1970) + 40
    let headers = ["x-ratelimit-limit": "120", remainingHeader: "0", "x-ratelimit-reset": String(reset)]
    let transport = ScriptedTransport([json(userBody, headers: headers), json(userBody)])
    let api = client(transport, clock: clock)
    _ = try await api.currentUser()
    #expect(clock.sleepCount == 0)
    _ = try await api.currentUser()
    #expect(clock.now.timeIntervalSince1970 == Double(reset) + 0.25)
    #expect(transport.requests.count == 2)
  }

  @Test("429: Retry-After, then the reset, then 60 s")
  func honours429() async throws {
    let clock = ManualBackendClock()
    let start = clock.now
    let reset = Int(start.timeIntervalSince1970) + 100
    let transport = ScriptedTransport([
      json("{}", status: 429, headers: ["retry-after": "5"]),
      json("{}", status: 429, headers: ["x-ratelimit-reset": String(reset)]),
      json("{}", status: 429),
      json(userBody),
    ])
    _ = try await client(transport, clock: clock).currentUser()
    #expect(transport.requests.count == 4)
    // 5 s, then up to the reset (+0.25 s margin), then 60 s more.
    let waited: TimeInterval = 160.25
    #expect(clock.now.timeIntervalSince(start) == waited)
  }

  @Test("a request lost without an answer counts against the window")
  func lostRequestsCount() async throws {
    let clock = ManualBackendClock()
    let reset = String(Int(clock.now.timeIntervalSince1970) + 60)
    func answer(_ remaining: Int) -> Result<HTTPResponse, HTTPTransportError> {
      json(
        userBody,
        headers: ["x-ratelimit-limit": "3", "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset": reset])
    }
    // One left after the first answer; the second request is lost after the server counted it, so its retry
    // must wait for the reset instead of meeting a 429.
    let transport = ScriptedTransport([answer(1), .failure(.connectionLost), answer(2)])
    let api = client(transport, clock: clock, policy: RetryPolicy(baseDelay: .zero))
    _ = try await api.currentUser()
    #expect(clock.now.timeIntervalSince1970 < Double(Int(reset) ?? 0))
    _ = try await api.currentUser()
    #expect(clock.now.timeIntervalSince1970 >= Double(Int(reset) ?? 0))
    #expect(transport.requests.count == 3)
  }

  @Test("no headers: no limiting")
  func noHeaders() async throws {
    let clock = ManualBackendClock()
    let transport = ScriptedTransport(Array(repeating: json(userBody), count: 200))
    let api = client(transport, clock: clock)
    for _ in 0..<200 { _ = try await api.currentUser() }
    #expect(clock.sleepCount == 0)
  }

  @Test("backoff doubles and is capped")
  func backoff() {
    let policy = RetryPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(5))
    #expect(
      (1...5).map { policy.backoff(beforeRetry: $0) } == [
        .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5),
      ])
  }
}
