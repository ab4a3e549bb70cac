import FlowHTTP
import Foundation
import RaindropLocal
import RaindropModel
import RaindropStubServer
import Testing

/// The stand-in's wire format, checked raw against reference §10.
@Suite("Stand-in server protocol")
struct StubServerTests {
  private func withServer(_ body: (URL, RaindropStubServer, CurlTransport) async throws -> Void) async throws {
    setenv("no_proxy", "127.0.0.1,localhost", 1)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualBackendClock()
    let server = try RaindropStubServer(store: try LocalBackend(directory: directory.url, clock: clock), clock: clock)
    let url = try await server.start()
    do {
      try await body(url, server, CurlTransport())
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  private func send(
    _ transport: CurlTransport, _ method: String, _ url: URL, token: String? = "test-token", json: String? = nil
  ) async throws -> (HTTPResponse, [String: Any]) {
    var headers: [String: String] = [:]
    if let token { headers["Authorization"] = "Bearer \(token)" }
    if json != nil { headers["Content-Type"] = "application/json" }
    let response = try await transport.send(
      HTTPRequest(method: method, url: url, headers: headers, body: json.map { Data($0.utf8) }))
    let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    return (response, object)
  }

  @Test("auth before routing: no header, a wrong token")
  func authentication() async throws {
    try await withServer { url, _, transport in
      let (missing, body) = try await send(transport, "GET", url.appendingPathComponent("no/such/route"), token: nil)
      #expect(missing.status == 401)
      #expect(body["errorMessage"] as? String == "Unauthorized")
      #expect(body["auth"] as? Bool == false)
      let (wrong, wrongBody) = try await send(transport, "GET", url.appendingPathComponent("user"), token: "bogus")
      #expect(wrong.status == 401)
      #expect(wrongBody["errorMessage"] as? String == "Incorrect access_token")
    }
  }

  @Test("rate-limit headers and Connection: close on every answer; unknown routes are HTML")
  func headersAndUnknownRoutes() async throws {
    try await withServer { url, _, transport in
      let (user, _) = try await send(transport, "GET", url.appendingPathComponent("user"))
      #expect(user[header: "x-ratelimit-limit"] == "120")
      #expect(user[header: "x-ratelimit-remaining"] == "119")
      #expect(user[header: "x-ratelimit-reset"] != nil)
      #expect(user[header: "connection"]?.lowercased() == "close")
      let (unknown, _) = try await send(transport, "GET", url.appendingPathComponent("nope"))
      #expect(unknown.status == 404)
      #expect(unknown[header: "content-type"]?.hasPrefix("text/html") == true)
      #expect(String(decoding: unknown.body, as: UTF8.self).contains("Cannot GET /rest/v1/nope"))
      #expect(unknown[header: "x-ratelimit-remaining"] == "118")
    }
  }

  @Test("a raindrop's shape: collection object and collectionId, important only when true, sort = id")
  func raindropShape() async throws {
    try await withServer { url, _, transport in
      let (created, body) = try await send(
        transport, "POST", url.appendingPathComponent("raindrop"), json: #"{"link":"https://www.example.com/a"}"#)
      #expect(created.status == 200)
      let item = try #require(body["item"] as? [String: Any])
      let id = try #require(item["_id"] as? Int)
      #expect(item["title"] as? String == "https://www.example.com/a")
      #expect(item["domain"] as? String == "example.com")
      #expect(item["type"] as? String == "link")
      #expect(item["sort"] as? Int == id)
      #expect(item["collectionId"] as? Int == -1)
      #expect((item["collection"] as? [String: Any])?["$id"] as? Int == -1)
      #expect(item["important"] == nil)
      #expect(item["creatorRef"] is [String: Any])
      // A collection that is not {"$id": N} is ignored: the item lands in Unsorted.
      let (_, loose) = try await send(
        transport, "POST", url.appendingPathComponent("raindrop"),
        json: #"{"link":"https://b.example","collection":5,"important":true}"#)
      let looseItem = try #require(loose["item"] as? [String: Any])
      #expect(looseItem["collectionId"] as? Int == -1)
      #expect(looseItem["important"] as? Bool == true)
      let (_, page) = try await send(transport, "GET", url.appendingPathComponent("raindrops/0"))
      #expect(page["count"] as? Int == 2)
      #expect(page["collectionId"] as? Int == 0)
    }
  }

  @Test("bulk: 413 for no ids or more than 100; `tags` appends; exists answers result:false when absent")
  func bulkAndExists() async throws {
    try await withServer { url, server, transport in
      let (empty, emptyBody) = try await send(
        transport, "PUT", url.appendingPathComponent("raindrops/0"), json: #"{"ids":[]}"#)
      #expect(empty.status == 413)
      #expect(emptyBody["errorMessage"] as? String == "ids array is larger than max 100 or empty")
      let tooMany = "{\"ids\":[\((1...101).map(String.init).joined(separator: ","))]}"
      #expect(
        try await send(transport, "PUT", url.appendingPathComponent("raindrops/0"), json: tooMany).0.status == 413)
      let made = try await server.store.createBookmark(NewBookmark(link: "https://x.example", tags: ["a"]))
      let (_, bulk) = try await send(
        transport, "PUT", url.appendingPathComponent("raindrops/0"), json: "{\"ids\":[\(made.id)],\"tags\":[\"b\"]}")
      #expect(bulk["modified"] as? Int == 1)
      #expect(try await server.store.bookmark(id: made.id).tags == ["a", "b"])
      let (_, missing) = try await send(
        transport, "POST", url.appendingPathComponent("import/url/exists"), json: #"{"urls":["https://nope.example"]}"#)
      #expect(missing["result"] as? Bool == false)
      #expect((missing["ids"] as? [Int]) == [])
      let (_, found) = try await send(
        transport, "POST", url.appendingPathComponent("import/url/exists"), json: #"{"urls":["https://x.example"]}"#)
      #expect(found["id"] as? Int == made.id)
      #expect((found["duplicates"] as? [[String: Any]])?.first?["_id"] as? Int == made.id)
    }
  }

  @Test("delete: the trashed item, then {result:true} for good; 404 JSON after")
  func deleteShapes() async throws {
    try await withServer { url, server, transport in
      let made = try await server.store.createBookmark(NewBookmark(link: "https://d.example"))
      let path = url.appendingPathComponent("raindrop/\(made.id)")
      let (_, first) = try await send(transport, "DELETE", path)
      #expect((first["item"] as? [String: Any])?["removed"] as? Bool == true)
      #expect((first["item"] as? [String: Any])?["collectionId"] as? Int == -99)
      let (_, second) = try await send(transport, "DELETE", path)
      #expect(second["result"] as? Bool == true)
      #expect(second["item"] == nil)
      let (gone, goneBody) = try await send(transport, "GET", path)
      #expect(gone.status == 404)
      #expect(goneBody["errorMessage"] as? String == "Not found")
    }
  }

  @Test("the window: 429 with Retry-After once used up, counted per endpoint")
  func window() async throws {
    setenv("no_proxy", "127.0.0.1,localhost", 1)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualBackendClock()
    let server = try RaindropStubServer(
      store: try LocalBackend(directory: directory.url, clock: clock), rateLimit: RateWindow(limit: 2, seconds: 30),
      clock: clock
    )
    let url = try await server.start()
    let transport = CurlTransport()
    _ = try await send(transport, "GET", url.appendingPathComponent("user"))
    _ = try await send(transport, "GET", url.appendingPathComponent("user"))
    let (limited, body) = try await send(transport, "GET", url.appendingPathComponent("user"))
    #expect(limited.status == 429)
    #expect(limited[header: "retry-after"] == "30")
    #expect(limited[header: "x-ratelimit-remaining"] == "0")
    #expect(body["status"] as? Int == 429)
    clock.advance(by: 30)
    #expect(try await send(transport, "GET", url.appendingPathComponent("user")).0.status == 200)
    #expect(await server.requestCounts == ["GET /user": 4])
    #expect(await server.rateLimitedResponses == 1)
    await server.stop()
  }
}
