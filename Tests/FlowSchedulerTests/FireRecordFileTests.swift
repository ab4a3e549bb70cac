import FlowCron
import Foundation
import Testing

@testable import FlowScheduler

/// The scheduler's fire record on disk: read back as written, written whole, and an unreadable one is
/// an empty one.
struct FireRecordFileTests {
  static func file() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)/flow/scheduler.json")
  }

  @Test func readsBackWhatItWrote() throws {
    let record = FireRecordFile(file: Self.file())
    #expect(record.load().isEmpty)
    let fires = [
      "/home/ada/flows/a.yml": Date(timeIntervalSince1970: 1_795_000_000.25),
      "/home/ada/flows/b c.yml": Date(timeIntervalSince1970: 1_795_003_600),
    ]
    try record.save(fires)
    #expect(record.load() == fires)
    let text = try String(contentsOf: record.file, encoding: .utf8)
    #expect(text.contains("\"lastFire\" : \"2026-11-18T11:06:40.250Z\""))
    // Written beside itself and renamed: nothing else is left in the folder.
    let folder = record.file.deletingLastPathComponent()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["scheduler.json"])
    let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
    #expect(mode == 0o700)
  }

  @Test func anUnreadableRecordIsAnEmptyOne() throws {
    let record = FireRecordFile(file: Self.file())
    try FileManager.default.createDirectory(
      at: record.file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try "{\"version\": 1, \"workflows\": {\"/a.yml\": {\"lastFire\": 12}}".write(
      to: record.file, atomically: true, encoding: .utf8)
    #expect(record.load().isEmpty)
  }

  /// Times written by hand, without fractions of a second, read too.
  @Test func wholeSecondsRead() throws {
    let record = FireRecordFile(file: Self.file())
    try FileManager.default.createDirectory(
      at: record.file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try "{\"version\": 1, \"workflows\": {\"/a.yml\": {\"lastFire\": \"2026-11-18T11:06:40Z\"}}}".write(
      to: record.file, atomically: true, encoding: .utf8)
    #expect(record.load() == ["/a.yml": Date(timeIntervalSince1970: 1_795_000_000)])
  }
}
