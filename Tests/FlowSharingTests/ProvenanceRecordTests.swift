import FlowSharing
import Foundation
import Testing

/// Where a library workflow's record is: the quick look a run makes (a path as text) finds the file the
/// record is read from and written to.
struct ProvenanceRecordTests {
  @Test(arguments: ["note.yml", "note.yaml", "a.b.yml", ".hidden", "plain"])
  func theQuickLookFindsTheRecordsFile(name: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("provenance-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent(name)
    #expect(!ProvenanceRecord.exists(for: file.path))
    let record = ProvenanceRecord.url(for: file)
    try FileManager.default.createDirectory(at: record.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: record)
    #expect(ProvenanceRecord.exists(for: file.path))
    #expect(!ProvenanceRecord.exists(for: folder.appendingPathComponent("other.yml").path))
  }
}
