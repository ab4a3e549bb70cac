import Foundation
import Testing

@testable import FlowLibrary

/// The folders flow keeps its state in: made private with their parents, and a folder that cannot be
/// made is named in the system's words.
struct PrivateFilesTests {
  static func root() throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("directory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    return root
  }

  @Test func madeWithTheirParentsAndPrivate() throws {
    let root = try Self.root()
    let folder = root.appendingPathComponent("state/flow/locks")
    #expect(PrivateFiles.createDirectory(folder) == nil)
    #expect(PrivateFiles.createDirectory(folder) == nil)
    for path in ["state", "state/flow", "state/flow/locks"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)
      #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
      #expect(attributes[.posixPermissions] as? Int == 0o700, "\(path)")
    }
  }

  /// A file where a folder should be, itself or a parent, is named (Foundation said only
  /// "NSCocoaErrorDomain error 512").
  @Test func aFileInTheWayIsNamed() throws {
    let root = try Self.root()
    let file = root.appendingPathComponent("flow")
    try Data("not a folder".utf8).write(to: file)
    #expect(PrivateFiles.createDirectory(file) == "cannot create \(file.path): \(file.path) is a file, not a folder")
    let below = file.appendingPathComponent("locks/deeper")
    #expect(PrivateFiles.createDirectory(below) == "cannot create \(below.path): \(file.path) is a file, not a folder")
  }

  /// Written whole, 0600 from the start, replacing what was there; `replacing: false` never overwrites.
  @Test func filesAreWrittenPrivateAndWhole() throws {
    let root = try Self.root()
    let file = root.appendingPathComponent("new/folder/record.json")
    try PrivateFiles.write(Data("one".utf8), to: file)
    try PrivateFiles.write(Data("two".utf8), to: file)
    #expect(try String(contentsOf: file, encoding: .utf8) == "two")
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
    let folder = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("new").path)
    #expect(folder[.posixPermissions] as? Int == 0o700)
    #expect(throws: PrivateFiles.Failure.self) {
      try PrivateFiles.write(Data("three".utf8), to: file, replacing: false)
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == "two")
    // Nothing is left beside it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["record.json"])
  }
}
