import Foundation
import RaindropLocal
import RaindropModel
import Testing

/// `raindrop-bench`, built beside the test bundle by `swift build --build-tests`.
private let writer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
  "raindrop-bench")

@Suite("LocalBackend across processes")
struct TwoProcessTests {
  @Test(
    "two processes writing one store at once: nothing lost, nothing corrupt",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: writer.path), "needs raindrop-bench (swift build --build-tests)")
  )
  func twoProcesses() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flow-two-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let processes = try ["left", "right"].map { name in
      let process = Process()
      process.executableURL = writer
      process.arguments = ["write-store", directory.path, "500", name]
      try process.run()
      return process
    }
    for process in processes {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
          process.waitUntilExit()
          done.resume()
        }
      }
      #expect(process.terminationStatus == 0)
    }
    let store = try LocalBackend(directory: directory)
    #expect(try await store.bookmarks(BookmarkListQuery(search: "#left")).count == 500)
    #expect(try await store.bookmarks(BookmarkListQuery(search: "#right")).count == 500)
    #expect(Set(try await store.allBookmarks(BookmarkListQuery()).map(\.id)).count == 1000)
  }
}
