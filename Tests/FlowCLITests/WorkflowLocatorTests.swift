import FlowLibrary
import Foundation
import Testing

@testable import FlowCLI
@testable import FlowSession

/// The paths a workflow is known by: realpath(3) where a file is, held to what Foundation gave before
/// (WorkflowLocator.swift): run history and the lock key workflows by `resolvedPath`.
struct WorkflowLocatorTests {
  /// A folder with `real/f.yml`, `link` to `real`, `other/sublink` to `real/sub` and `abs.yml`, an
  /// absolute link to `real/f.yml`.
  static func folder() throws -> String {
    let root = try #require(FileSystemPath.resolved(FileManager.default.temporaryDirectory.path))
    let folder = root + "/locator-\(UUID().uuidString)"
    let files = FileManager.default
    try files.createDirectory(atPath: folder + "/real/sub", withIntermediateDirectories: true)
    try files.createDirectory(atPath: folder + "/other", withIntermediateDirectories: true)
    _ = files.createFile(atPath: folder + "/real/f.yml", contents: Data())
    _ = files.createFile(atPath: folder + "/real/sub/g.yml", contents: Data())
    try files.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "real")
    try files.createSymbolicLink(atPath: folder + "/other/sublink", withDestinationPath: "../real/sub")
    try files.createSymbolicLink(atPath: folder + "/abs.yml", withDestinationPath: folder + "/real/f.yml")
    return folder
  }

  static func locator(in folder: String) -> WorkflowLocator {
    WorkflowLocator(context: SessionContext(console: BufferConsole(), environment: [:], workingDirectory: folder))
  }

  @Test func resolvedPathsAreFoundationsForFilesThatExist() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let locator = Self.locator(in: folder)
    let given = [
      "real/f.yml", "link/f.yml", "./real/f.yml", "real//f.yml", "link/../real/f.yml", "abs.yml",
      "other/sublink/g.yml", folder + "/link/f.yml", "real/sub/../f.yml",
    ]
    for path in given {
      let foundation = URL(fileURLWithPath: path.hasPrefix("/") ? path : folder + "/" + path).standardized
        .resolvingSymlinksInPath().path
      #expect(locator.resolvedPath(path) == foundation, "\(path)")
    }
  }

  /// Where the two differ: a `..` after a link. Foundation removed it as text and named a path that is not
  /// there; realpath(3) finds the file. What is not there is Foundation's.
  @Test func resolvedPathsFindFilesThroughLinks() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let locator = Self.locator(in: folder)
    #expect(locator.resolvedPath("other/sublink/../f.yml") == folder + "/real/f.yml")
    #expect(locator.resolvedPath("link/missing.yml") == folder + "/link/missing.yml")
    #expect(locator.resolvedPath("nowhere/../x.yml") == folder + "/x.yml")
  }

  /// Two names for one file are one workflow to the check (a loop through a link is a loop).
  @Test func canonicalPathsNameTheFileItself() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let locator = Self.locator(in: folder)
    for path in ["real/f.yml", "link/f.yml", "abs.yml", "other/sublink/../f.yml"] {
      #expect(locator.canonicalPath(path) == folder + "/real/f.yml", "\(path)")
    }
    #expect(locator.canonicalPath("real/./missing.yml") == folder + "/real/missing.yml")
  }
}
