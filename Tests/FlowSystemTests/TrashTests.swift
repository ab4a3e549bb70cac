import FlowBasics
import FlowIntents
import FlowTestSupport
import Foundation
import Testing

@testable import FlowSystem

/// `delete-files` against Debian's trash-cli, a reference implementation of the freedesktop.org Trash
/// specification: what flow trashes, `trash-list` lists and `trash-restore` puts back.
struct TrashTests {
  static let list = ReferenceTool("trash-list", install: "apt-get install trash-cli (Scripts/setup.sh does)")
  static let put = ReferenceTool("trash-put", install: "apt-get install trash-cli (Scripts/setup.sh does)")
  static let restore = ReferenceTool("trash-restore", install: "apt-get install trash-cli (Scripts/setup.sh does)")

  static func environment(_ box: FileSandbox) -> [String: String] {
    ["HOME": box.home, "XDG_DATA_HOME": box.dataHome, "TZ": "UTC"]
  }

  /// The paths `trash-list` shows, sorted, without their dates: those under the sandbox's home, or all
  /// (it also lists every volume's Trash, which other tests may be using at the same time).
  static func listed(_ box: FileSandbox, everywhere: Bool = false) throws -> [String]? {
    guard let result = try list.run([], environment: environment(box)) else { return nil }
    #expect(result.status == 0, "\(result.error)")
    return result.output.split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 2)[2]) }
      .filter { everywhere || $0.hasPrefix(box.home + "/") }.sorted()
  }

  @Test func trashListShowsWhatFlowTrashedWithCollidingNames() async throws {
    let box = try FileSandbox()
    let names = ["~/a/report.pdf", "~/b/report.pdf", "~/c/report.pdf", "~/odd name%20ü #1.txt"]
    for name in names { try box.write(name, name) }
    // trash-cli takes a slot first, so that flow has to find the next free one.
    try box.write("theirs", "~/d/report.pdf")
    _ = try Self.put.run([box.home + "/d/report.pdf"], environment: Self.environment(box))
    for name in names {
      _ = try await box.run("delete-files", ["files": .text(name)], answers: [.confirmation(true)])
      #expect(!box.exists(name))
    }
    let expected = (names + ["~/d/report.pdf"]).map { box.files.locations.absolute($0) }.sorted()
    #expect(try Self.listed(box) == expected)
    let slots = try FileManager.default.contentsOfDirectory(atPath: box.dataHome + "/Trash/files").sorted()
    #expect(slots == ["odd name%20ü #1.txt", "report.2.pdf", "report.3.pdf", "report.4.pdf", "report.pdf"])
    // The info file as the specification writes it.
    let info = try String(contentsOfFile: box.dataHome + "/Trash/info/odd name%20ü #1.txt.trashinfo", encoding: .utf8)
    #expect(info.hasPrefix("[Trash Info]\nPath=\(box.home)/odd%20name%2520%C3%BC%20%231.txt\nDeletionDate="))
  }

  @Test func trashRestorePutsAFileBack() async throws {
    let box = try FileSandbox()
    try box.write("keep me", "~/docs/letter.txt")
    let list = try await box.run("get-file", ["path": "~/docs/*.txt"])
    _ = try await box.run("delete-files", ["files": list], answers: [.confirmation(true)])
    #expect(!box.exists("~/docs/letter.txt"))
    let result = try Self.restore.run(
      [box.home + "/docs"], input: "0\n", environment: Self.environment(box), in: URL(fileURLWithPath: box.home))
    #expect(result?.status == 0, "\(result?.error ?? "")")
    #expect(box.read("~/docs/letter.txt") == "keep me")
    #expect(try Self.listed(box) == [])
  }

  @Test func aFolderGoesToTheTrashWhole() async throws {
    let box = try FileSandbox()
    try box.write("x", "~/old/inner/file.txt")
    _ = try await box.run("delete-files", ["files": "~/old"], answers: [.confirmation(true)])
    #expect(!box.exists("~/old"))
    #expect(box.read("~/.local/share/Trash/files/old/inner/file.txt") == "x")
    #expect(try Self.listed(box) == [box.home + "/old"])
  }

  /// A file on another volume goes to that volume's `.Trash-$UID`, not across volumes to the home: here
  /// /dev/shm, a tmpfs of its own wherever the tests have run (the test says so when it is not).
  @Test func aFileOnAnotherVolumeGoesToThatVolumesTrash() async throws {
    let box = try FileSandbox()
    var shm = stat()
    var home = stat()
    guard stat("/dev/shm", &shm) == 0, stat(box.home, &home) == 0, shm.st_dev != home.st_dev else {
      Issue.record("/dev/shm is not a volume of its own here: the other-volume Trash is not checked")
      return
    }
    let folder = "/dev/shm/flow-trash-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "x".write(toFile: folder + "/away.txt", atomically: false, encoding: .utf8)
    _ = try await box.run("delete-files", ["files": .text(folder + "/away.txt")], answers: [.confirmation(true)])
    let trash = "/dev/shm/.Trash-\(getuid())"
    let slot = String(folder.dropFirst("/dev/shm/".count))
    defer {
      try? FileManager.default.removeItem(atPath: trash + "/files/away.txt")
      try? FileManager.default.removeItem(atPath: trash + "/info/away.txt.trashinfo")
    }
    #expect(!FileManager.default.fileExists(atPath: folder + "/away.txt"))
    let info = try String(contentsOfFile: trash + "/info/away.txt.trashinfo", encoding: .utf8)
    #expect(info.hasPrefix("[Trash Info]\nPath=\(slot)/away.txt\nDeletionDate="))
    #expect(try Self.listed(box, everywhere: true)?.contains(folder + "/away.txt") == true)
  }
}
