import Foundation
import Testing

@testable import FlowLibrary

/// The text paths the run path uses instead of `URL.path` (FileSystemPath.swift), held to what
/// Foundation gives, so that a new Foundation that changes either shows here.
struct FileSystemPathTests {
  static let names = [
    "plain.yml", "with space.yml", "per%cent.yml", "hash#.yml", "ques?tion.yml", "semi;colon.yml", "é ü.yml",
    "%2F.yml", "a%00b", ".hidden", "folder/", "two/levels.yml",
  ]

  @Test func fileSystemPathIsPath() {
    let paths = FlowPaths(environment: ["HOME": "/home/ada"])
    var urls = [paths.config, paths.data, paths.state, paths.configFile, paths.history, paths.locks, paths.workflows]
    urls.append(URL(filePath: "/"))
    urls.append(URL(fileURLWithPath: "/tmp/x/"))
    for name in Self.names {
      urls.append(paths.workflows.appending(path: name, directoryHint: .notDirectory))
      urls.append(paths.locks.appending(path: name, directoryHint: .isDirectory))
      urls.append(URL(fileURLWithPath: "/tmp/" + name))
    }
    for url in urls {
      #expect(url.fileSystemPath == url.path, "\(url)")
    }
  }

  @Test(arguments: ["/", "/home/ada", "/home/ada/"])
  func absolutePathsAreWhatFileURLsGive(directory: String) {
    let given =
      Self.names + ["", ".", "..", "./x.yml", "../x.yml", "a//b.yml", "a/./b/../c.yml", "/abs.yml", "/abs/", "//"]
    for path in given {
      let joined = path.hasPrefix("/") ? path : (directory.hasSuffix("/") ? directory : directory + "/") + path
      #expect(FileSystemPath.absolute(path, in: directory) == URL(fileURLWithPath: joined).path, "\(path)")
    }
  }

  @Test func resolvedPathsFollowLinks() throws {
    let root = try #require(FileSystemPath.resolved(FileManager.default.temporaryDirectory.path))
    let folder = root + "/paths-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: folder + "/real/f.yml", contents: Data())
    try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "real")
    #expect(FileSystemPath.resolved(folder + "/link/f.yml") == folder + "/real/f.yml")
    #expect(FileSystemPath.resolved(folder + "/real/./f.yml") == folder + "/real/f.yml")
    #expect(FileSystemPath.resolved(folder + "/link/../real/f.yml") == folder + "/real/f.yml")
    #expect(FileSystemPath.resolved(folder + "/real/missing.yml") == nil)
  }

  /// A path an event brings reads as Foundation's `standardizingPath` reads it where no folder is a
  /// link: `~` expanded, made absolute, `.`, `..` and doubled slashes taken out.
  @Test func standardizedPathsReadAsFoundationReadsThem() {
    let (directory, home) = ("/work/here", "/home/ada")
    for path in [
      "a.pdf", "./a.pdf", "../a.pdf", "a//b/../c.pdf", "/abs/./x/", "~", "~/Downloads/a.pdf", "~/../b", "/..",
      "x/~/y", "../../../../a",
    ] {
      let expanded = path == "~" || path.hasPrefix("~/") ? home + path.dropFirst() : path
      let absolute = expanded.hasPrefix("/") ? expanded : directory + "/" + expanded
      #expect(
        FileSystemPath.standardized(path, in: directory, home: home) == (absolute as NSString).standardizingPath,
        "\(path)")
    }
  }
}
