// raindrop-bench: counts requests at the Raindrop stand-in (issue 5, item 6). Run on demand, not in tests:
//
//   Scripts/bench-raindrop.sh              # both scenarios, virtual clock (a few seconds)
//   Scripts/bench-raindrop.sh --real-clock # the rate scenario on the real clock with a 2 s window (~40 s)
//
// Hidden mode for the two-process store test: `raindrop-bench write-store DIR COUNT NAME`.
// `raindrop-bench saves DIR COUNT` (Scripts/bench-saves.sh): COUNT saves into the local store in DIR, as
// `save-bookmark` makes them, timed without the process's start; prints the seconds.

import FlowHTTP
import Foundation
import RaindropLocal
import RaindropModel
import RaindropREST
import RaindropStubServer

/// Everything the benchmark can fail with; printed by the entry point.
struct BenchError: Error, CustomStringConvertible {
  var description: String
}

func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("raindrop-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A stand-in and a client on one clock.
func withStandIn<T>(
  rateLimit: RateWindow, clock: any BackendClock, policy: RetryPolicy = .default,
  _ body: (RaindropStubServer, RaindropClient) async throws -> T
) async throws -> T {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let store = try LocalBackend(directory: directory, clock: clock)
  let server = try RaindropStubServer(store: store, rateLimit: rateLimit, clock: clock)
  let url = try await server.start()
  let client = RaindropClient(token: "test-token", baseURL: url, clock: clock, policy: policy)
  do {
    let result = try await body(server, client)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// Tagging N bookmarks: `for-each` + `update-bookmark` (GET then PUT each, as the seed's intent does) against
/// `update-bookmarks` (the bulk endpoint, 100 ids a request). The clock is virtual, so the limiter's waits at
/// Raindrop's real 120 a minute show as time without being waited.
func taggingScenario(count: Int) async throws {
  print("## Tagging \(count) bookmarks (stand-in at 120 requests / 60 s, virtual clock)\n")
  print("| approach | requests | by endpoint | 429s | time at 120/min | wall time |")
  print("|---|---:|---|---:|---:|---:|")
  for bulk in [false, true] {
    let clock = ManualBackendClock()
    try await withStandIn(rateLimit: .raindrop, clock: clock) { server, client in
      for index in 0..<count {
        _ = try await server.store.createBookmark(NewBookmark(link: "https://bench.example/\(index)", parse: false))
      }
      await server.resetCounts()
      let started = Date()
      let virtualStart = clock.now
      let bookmarks = try await client.allBookmarks(BookmarkListQuery())
      if bulk {
        _ = try await client.updateBookmarks(ids: bookmarks.map(\.id), in: 0, BulkChange(addTags: ["benchmark"]))
      } else {
        for bookmark in bookmarks {
          let original = try await client.bookmark(id: bookmark.id)
          var modified = original
          modified.tags = TagEditor.edit(original.tags, adding: ["benchmark"])
          _ = try await client.updateBookmark(id: bookmark.id, BookmarkChanges(from: original, to: modified))
        }
      }
      let tagged = try await server.store.bookmarks(BookmarkListQuery(search: "#benchmark")).count
      guard tagged == count else { throw BenchError(description: "only \(tagged) of \(count) tagged") }
      let counts = await server.requestCounts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(
        separator: ", ")
      let virtual = clock.now.timeIntervalSince(virtualStart)
      print(
        "| \(bulk ? "update-bookmarks (bulk)" : "for-each + update-bookmark") | \(await server.totalRequests) | \(counts) "
          + "| \(await server.rateLimitedResponses) | \(format(virtual)) s | \(format(Date().timeIntervalSince(started))) s |"
      )
    }
  }
  print("")
}

/// N requests against a scaled-down window: how many 429s came back, and how close the client came to the
/// allowed rate. With fixed windows the least time N requests can take is (⌈N/limit⌉ − 1) windows (the last
/// window's requests go out at its start); the achieved fraction is that ideal over the time taken, first to
/// last request, on the server's clock.
func rateScenario(requests: Int, window: RateWindow, realClock: Bool, workers: Int) async throws {
  let clock: any BackendClock = realClock ? SystemBackendClock() : ManualBackendClock()
  try await withStandIn(rateLimit: window, clock: clock) { server, client in
    let started = Date()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for worker in 0..<workers {
        group.addTask {
          for _ in stride(from: worker, to: requests, by: workers) { _ = try await client.currentUser() }
        }
      }
      try await group.waitForAll()
    }
    guard let interval = await server.activeInterval else { throw BenchError(description: "no requests counted") }
    let elapsed = interval.last.timeIntervalSince(interval.first)
    let windows = (requests + window.limit - 1) / window.limit
    let ideal = Double(windows - 1) * Double(window.seconds)
    let fraction = elapsed > 0 ? ideal / elapsed : 1
    print(
      "| \(realClock ? "real" : "virtual") | \(workers) | \(window.limit) / \(window.seconds) s | \(await server.totalRequests) "
        + "| \(await server.rateLimitedResponses) | \(format(elapsed)) s | \(format(ideal)) s | \(format(fraction, digits: 3)) "
        + "| \(format(Date().timeIntervalSince(started))) s |"
    )
  }
}

func format(_ value: Double, digits: Int = 2) -> String {
  String(format: "%.\(digits)f", value)
}

/// The hidden two-process mode: COUNT bookmarks into the store in DIR, each tagged NAME.
func writeStore(directory: String, count: Int, name: String) async throws {
  let store = try LocalBackend(directory: URL(fileURLWithPath: directory))
  for index in 0..<count {
    _ = try await store.createBookmark(
      NewBookmark(link: "https://\(name).example/\(index)", tags: [name], parse: false))
  }
}

/// COUNT saves into a new local store in DIR, each a `save-bookmark` of a page with a title and two tags:
/// the seconds the saves took, not the process's start or the store's opening.
func timeSaves(directory: String, count: Int) async throws {
  let store = try LocalBackend(directory: URL(fileURLWithPath: directory))
  let started = ContinuousClock.now
  for index in 0..<count {
    _ = try await store.createBookmark(
      NewBookmark(
        link: "https://save.example/pages/\(index)", title: "Saved page \(index) about a café",
        tags: ["bench", "Café"], collectionId: SystemCollection.unsorted.rawValue))
  }
  let elapsed = ContinuousClock.now - started
  print(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

func run(_ arguments: [String]) async throws {
  if arguments.first == "saves" {
    guard arguments.count == 3, let count = Int(arguments[2]) else {
      throw BenchError(description: "usage: raindrop-bench saves DIR COUNT")
    }
    try await timeSaves(directory: arguments[1], count: count)
    return
  }
  if arguments.first == "write-store" {
    guard arguments.count == 4, let count = Int(arguments[2]) else {
      throw BenchError(description: "usage: raindrop-bench write-store DIR COUNT NAME")
    }
    try await writeStore(directory: arguments[1], count: count, name: arguments[3])
    return
  }
  let realClock = arguments.contains("--real-clock")
  if !realClock { try await taggingScenario(count: 1000) }
  print("## 500 requests against a scaled-down window\n")
  print("| clock | workers | window | requests | 429s | took | least possible | achieved fraction | wall time |")
  print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
  if realClock {
    try await rateScenario(requests: 500, window: RateWindow(limit: 25, seconds: 2), realClock: true, workers: 1)
    try await rateScenario(requests: 500, window: RateWindow(limit: 25, seconds: 2), realClock: true, workers: 4)
  } else {
    for workers in [1, 4] {
      try await rateScenario(
        requests: 500, window: RateWindow(limit: 20, seconds: 10), realClock: false, workers: workers)
      try await rateScenario(requests: 500, window: .raindrop, realClock: false, workers: workers)
    }
  }
}

// Linux URLSession honours http_proxy even for loopback.
setenv("no_proxy", "127.0.0.1,localhost", 1)
do {
  try await run(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("raindrop-bench: \(error)\n".utf8))
  exit(1)
}
