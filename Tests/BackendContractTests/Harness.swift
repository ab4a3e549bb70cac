import FlowHTTP
import Foundation
import RaindropLocal
import RaindropModel
import RaindropREST
import RaindropStubServer
import Testing

/// Which implementation a contract test runs against.
enum BackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// `LocalBackend` called directly.
  case local
  /// `RaindropClient` over HTTP to `RaindropStubServer` on loopback.
  case rest

  var testDescription: String { rawValue }
}

/// A temporary directory that removes itself.
struct TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-raindrop-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Everything one test runs against.
struct Fixture: Sendable {
  let backend: any BookmarkBackend
  let clock: ManualBackendClock
  /// The store behind either backend, for seeding and checking behind the backend's back.
  let store: LocalBackend
  /// Only for `.rest`.
  let server: RaindropStubServer?
  let client: RaindropClient?
}

/// A policy for tests: more patience than the default, and short timeouts.
let testPolicy = RetryPolicy(maxAttempts: 5, requestTimeout: .seconds(10))

/// Runs `body` against a fresh backend of `kind`, on a manual clock so nothing really waits.
func withBackend(
  _ kind: BackendKind,
  rateLimit: RateWindow = .raindrop,
  policy: RetryPolicy = testPolicy,
  _ body: (Fixture) async throws -> Void
) async throws {
  // libcurl honours http_proxy even for loopback.
  setenv("no_proxy", "127.0.0.1,localhost", 1)
  setenv("NO_PROXY", "127.0.0.1,localhost", 1)
  let directory = try TemporaryDirectory()
  defer { directory.remove() }
  let clock = ManualBackendClock()
  let store = try LocalBackend(directory: directory.url, clock: clock)
  switch kind {
  case .local:
    try await body(Fixture(backend: store, clock: clock, store: store, server: nil, client: nil))
  case .rest:
    let server = try RaindropStubServer(store: store, rateLimit: rateLimit, clock: clock)
    let url = try await server.start()
    let client = RaindropClient(token: "test-token", baseURL: url, clock: clock, policy: policy)
    do {
      try await body(Fixture(backend: client, clock: clock, store: store, server: server, client: client))
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }
}

/// Expects `body` to throw exactly `expected`.
func expectError<T>(
  _ expected: RaindropError,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws(RaindropError) -> T
) async {
  do {
    _ = try await body()
    Issue.record("expected \(expected), got success", sourceLocation: sourceLocation)
  } catch {
    #expect(error == expected, sourceLocation: sourceLocation)
  }
}

extension Date {
  /// Midnight UTC of a day, for fixtures.
  static func utc(_ year: Int, _ month: Int, _ day: Int, hour: Int = 12) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))
      ?? Date(timeIntervalSince1970: 0)
  }
}

/// A small library with something for every search operator and sort value.
func seedLibrary(_ backend: any BookmarkBackend) async throws -> [String: Bookmark] {
  let reading = try await backend.createCollection(NewCollection(title: "Reading"))
  let specs: [NewBookmark] = [
    NewBookmark(
      link: "https://www.swift.org/documentation/", title: "Swift Documentation",
      excerpt: "The Swift programming language",
      tags: ["swift", "docs"], important: true, collectionId: reading.id, type: .article, created: .utc(2024, 1, 15)),
    NewBookmark(
      link: "https://github.com/apple/swift-argument-parser", title: "Argument Parser",
      tags: ["swift", "cli tools"], created: .utc(2024, 3, 2)),
    NewBookmark(
      link: "https://www.youtube.com/watch?v=abc", title: "Concurrency talk", note: "watch later",
      tags: ["video", "Swift"], type: .video, created: .utc(2023, 11, 20)),
    NewBookmark(
      link: "https://raindrop.io/help", title: "Raindrop help", excerpt: "How to use search",
      collectionId: reading.id, created: .utc(2024, 3, 20)),
    NewBookmark(
      link: "https://example.com/recipes/bread", title: "Bread recipe", tags: ["cooking"],
      important: true, type: .article, created: .utc(2022, 6, 1)),
    NewBookmark(link: "https://news.ycombinator.com", created: .utc(2024, 3, 5)),
  ]
  var byTitle: [String: Bookmark] = [:]
  for spec in specs {
    let made = try await backend.createBookmark(spec)
    byTitle[made.title] = made
  }
  return byTitle
}
