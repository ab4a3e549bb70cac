import Foundation
import Testing

@testable import FlowLibrary

/// The folders flow keeps its state in: made private with their parents, and a folder that cannot be
/// made is named in the system's words.
struct DirectoryTests {
  static func root() throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("directory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    return root
  }

  @Test func madeWithTheirParentsAndPrivate() throws {
    let root = try Self.root()
    let folder = root.appendingPathComponent("state/flow/locks")
    #expect(Directory.create(folder) == nil)
    #expect(Directory.create(folder) == nil)
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
    #expect(Directory.create(file) == "cannot create \(file.path): \(file.path) is a file, not a folder")
    let below = file.appendingPathComponent("locks/deeper")
    #expect(Directory.create(below) == "cannot create \(below.path): \(file.path) is a file, not a folder")
  }
}
