import FlowIntents
import FlowTestSupport
import Foundation
import Testing

@testable import FlowBasics
@testable import FlowSystem

/// A home, a working directory and an `XDG_DATA_HOME` of their own, in a fresh temporary folder.
struct FileSandbox {
  let root: URL
  let home: String
  let work: String
  let dataHome: String
  let files: LocalFiles
  static let registry = IntentRegistry(catalogs: [BasicsCatalog.self])

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("flow-files-\(UUID().uuidString)")
    // Resolved, so that paths compare equal to what the system calls give back.
    let base = root.resolvingSymlinksInPath().path
    home = base + "/home"
    work = home + "/work"
    dataHome = home + "/.local/share"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    files = LocalFiles(locations: FileLocations(home: home, workingDirectory: work, dataHome: dataHome))
  }

  func write(_ text: String, _ path: String) throws {
    let full = files.locations.absolute(path)
    try FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: full, atomically: false, encoding: .utf8)
  }

  func read(_ path: String) -> String? {
    try? String(contentsOfFile: files.locations.absolute(path), encoding: .utf8)
  }

  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: files.locations.absolute(path)) }

  /// Every path under the home with its bytes, for before-and-after comparisons.
  func tree() -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: home)
    while let relative = enumerator?.nextObject() as? String {
      let full = home + "/" + relative
      result[relative] = FileManager.default.contents(atPath: full) ?? Data("folder".utf8)
    }
    return result
  }

  func context(_ answers: [ScriptedPrompter.Answer] = []) -> IntentContext {
    IntentContext(
      prompter: ScriptedPrompter(answers), clock: ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
    )
    .with(files as any Files, as: (any Files).self)
  }

  func run(_ id: String, _ values: [String: FlowValue], answers: [ScriptedPrompter.Answer] = []) async throws
    -> FlowValue
  {
    try await Self.registry.descriptor(for: id).run(values: values, context: context(answers)).value
  }

  /// The error a step gives, as a person reads it: message, then help.
  func failure(_ id: String, _ values: [String: FlowValue], answers: [ScriptedPrompter.Answer] = []) async -> String {
    do {
      let value = try await run(id, values, answers: answers)
      return "no error: \(value)"
    } catch {
      let (message, help) = AppIntentError.describe(error)
      return "\(id) \(values.keys.sorted().joined(separator: ",")): \(message)" + (help.map { "\n  help: \($0)" } ?? "")
    }
  }
}

extension FlowValue {
  /// A property of an entity value.
  subscript(property key: String) -> FlowValue? {
    if case .entity(let entity) = self { return entity.properties[key] }
    return nil
  }

  var items: [FlowValue] {
    if case .list(let items) = self { return items }
    return []
  }
}

struct FileIntentTests {
  static let ids: Set<String> = [
    "get-file", "get-folder-contents", "read-file", "save-file", "append-to-file", "copy-file", "move-file",
    "create-folder", "delete-files",
  ]

  /// Every file action has a case here that works and one that fails (the golden below).
  @Test func everyFileActionIsCoveredHere() throws {
    let source = try String(
      contentsOf: testDirectory().appendingPathComponent("FileIntentTests.swift"), encoding: .utf8)
    for id in Self.ids {
      #expect(source.contains("run(\"\(id)\""), "\(id) has no working case")
      #expect(source.contains("failure(\"\(id)\""), "\(id) has no failing case")
    }
  }

  @Test func getFileDescribesAFile() async throws {
    let box = try FileSandbox()
    try box.write("hello\n", "~/notes/Report Final.MD")
    let file = try await box.run("get-file", ["path": "~/notes/Report Final.MD"])
    #expect(file[property: "path"] == .text(box.home + "/notes/Report Final.MD"))
    #expect(file[property: "name"] == "Report Final.MD")
    #expect(file[property: "extension"] == "MD")
    #expect(file[property: "folder"] == .text(box.home + "/notes"))
    #expect(file[property: "size"] == 6)
    #expect(file[property: "kind"] == "file")
    #expect(file[property: "mime-type"] == "text/markdown")
    if case .date(let modified)? = file[property: "modified"] {
      #expect(abs(modified.timeIntervalSinceNow) < 600)
    } else {
      Issue.record("no modified date")
    }
    // The coercion table's entity rows: text is the path, a URL is file://.
    #expect(Coercion.text(of: file) == box.home + "/notes/Report Final.MD")
    let url = try Coercion.coerce(file, to: .url)
    #expect(url == .url(URL(fileURLWithPath: box.home + "/notes/Report Final.MD")))
    #expect(url.text.hasPrefix("file:///") && url.text.hasSuffix("Report%20Final.MD"))
  }

  @Test func relativePathsStartInTheWorkingDirectory() async throws {
    let box = try FileSandbox()
    try box.write("x", "~/work/a.txt")
    let file = try await box.run("get-file", ["path": "./sub/../a.txt"])
    #expect(file[property: "path"] == .text(box.work + "/a.txt"))
    let folder = try await box.run("get-file", ["path": "~"])
    #expect(folder[property: "kind"] == "folder")
    #expect(folder[property: "mime-type"] == "inode/directory")
  }

  @Test func getFileWithAPatternListsEveryMatchSorted() async throws {
    let box = try FileSandbox()
    for name in ["b.tmp", "a.tmp", "c.txt", ".hidden.tmp"] { try box.write("x", "~/Downloads/\(name)") }
    let matches = try await box.run("get-file", ["path": "~/Downloads/*.tmp"])
    #expect(matches.items.map { $0[property: "name"] } == ["a.tmp", "b.tmp"])
    #expect(try await box.run("get-file", ["path": "~/Downloads/*.none"]) == .list([]))
  }

  @Test func folderContentsLeaveOutHiddenNamesAndRecurseOnlyWhenAsked() async throws {
    let box = try FileSandbox()
    for path in ["top.txt", ".secret", "sub/inner.txt", "sub/deeper/deep.log", ".git/config"] {
      try box.write("x", "~/folder/\(path)")
    }
    try FileManager.default.createSymbolicLink(
      atPath: box.home + "/folder/link", withDestinationPath: box.home + "/folder/sub")
    func names(_ value: FlowValue) -> [String] {
      value.items.compactMap { $0[property: "path"]?.text.replacingOccurrences(of: box.home + "/folder/", with: "") }
    }
    #expect(names(try await box.run("get-folder-contents", ["folder": "~/folder"])) == ["link", "sub", "top.txt"])
    #expect(
      names(try await box.run("get-folder-contents", ["folder": "~/folder", "recursive": true]))
        == ["link", "sub", "sub/deeper", "sub/deeper/deep.log", "sub/inner.txt", "top.txt"])
    #expect(
      names(try await box.run("get-folder-contents", ["folder": "~/folder", "recursive": true, "matching": "*.txt"]))
        == ["sub/inner.txt", "top.txt"])
    #expect(
      names(try await box.run("get-folder-contents", ["folder": "~/folder", "include-hidden": true]))
        == [".git", ".secret", "link", "sub", "top.txt"])
  }

  /// Names are sorted byte by byte (Files.md, "Paths"), including names that share their first eight
  /// bytes, which the listing sorts by a number made of those bytes before it compares the rest.
  @Test func aListingIsSortedByteByByte() async throws {
    let box = try FileSandbox()
    let names = ["b", "B", "a10", "a9", "é", "z", "prefix12-b", "prefix12", "prefix12-a", "prefix1", "prefix12-ab"]
    for name in names { try box.write("x", "~/folder/\(name)") }
    let listed = try await box.run("get-folder-contents", ["folder": "~/folder"]).items
    #expect(
      listed.map { $0[property: "name"]?.text ?? "" }
        == ["B", "a10", "a9", "b", "prefix1", "prefix12", "prefix12-a", "prefix12-ab", "prefix12-b", "z", "é"])
    // A listed File is its folder and name: its path, title and id are the two joined.
    let file = try #require(listed.first)
    #expect(file[property: "path"] == .text(box.home + "/folder/B"))
    #expect(file[property: "folder"] == .text(box.home + "/folder"))
    guard case .entity(let entity) = file else {
      Issue.record("not an entity: \(file)")
      return
    }
    #expect(entity.title == box.home + "/folder/B")
    #expect(entity.id == .text(box.home + "/folder/B"))
  }

  /// A listing reads only the folders: a File's size and dates are read the first time a step reads one
  /// of them, and kept from then on (Files.md, "The File").
  @Test func aListedFileReadsItsDetailsWhenFirstUsedAndKeepsThem() async throws {
    let box = try FileSandbox()
    try box.write("abc", "~/folder/a.txt")
    try box.write("abc", "~/folder/b.txt")
    let listed = try await box.run("get-folder-contents", ["folder": "~/folder"]).items
    try box.write("abcdef", "~/folder/a.txt")
    #expect(listed[0][property: "size"] == 6)
    let modified = listed[0][property: "modified"]
    try box.write("abcdefghij", "~/folder/a.txt")
    #expect(listed[0][property: "size"] == 6)
    #expect(listed[0][property: "modified"] == modified)
    // Gone before anything asked: size 0 and no dates, rather than a step that fails.
    try FileManager.default.removeItem(atPath: box.home + "/folder/b.txt")
    #expect(listed[1][property: "size"] == 0)
    #expect(listed[1][property: "modified"] == FlowValue.nothing)
    #expect(listed[1][property: "name"] == "b.txt")
    // `get-file` looks the file up, and reads its details then.
    let got = try await box.run("get-file", ["path": "~/folder/a.txt"])
    try box.write("a", "~/folder/a.txt")
    #expect(got[property: "size"] == 10)
  }

  @Test func linksInAListingAreWhatTheyPointToAndAreNotEntered() async throws {
    let box = try FileSandbox()
    try box.write("12345", "~/folder/target.txt")
    try box.write("x", "~/folder/sub/inner.txt")
    for (link, destination) in [("to-file", "target.txt"), ("to-folder", "sub"), ("dangling", "nowhere")] {
      try FileManager.default.createSymbolicLink(atPath: box.home + "/folder/" + link, withDestinationPath: destination)
    }
    let listed = try await box.run("get-folder-contents", ["folder": "~/folder", "recursive": true]).items
    var kinds: [String: String] = [:]
    for file in listed { kinds[file[property: "name"]?.text ?? ""] = file[property: "kind"]?.text }
    #expect(
      kinds == [
        "dangling": "file", "inner.txt": "file", "sub": "folder", "target.txt": "file",
        "to-file": "file", "to-folder": "folder",
      ])
    #expect(listed.first { $0[property: "name"] == "to-file" }?[property: "size"] == 5)
    #expect(listed.first { $0[property: "name"] == "to-folder" }?[property: "mime-type"] == "inode/directory")
  }

  @Test func readFileGivesTextOrJSON() async throws {
    let box = try FileSandbox()
    try box.write("{\"b\": 1, \"a\": [true]}", "data.json")
    #expect(try await box.run("read-file", ["file": "data.json"]) == "{\"b\": 1, \"a\": [true]}")
    #expect(try await box.run("read-file", ["file": "data.json", "as": "json"]) == .dictionary(["b": 1, "a": [true]]))
    // A File from get-file reads the same.
    let file = try await box.run("get-file", ["path": "data.json"])
    #expect(try await box.run("read-file", ["file": file]) == "{\"b\": 1, \"a\": [true]}")
  }

  @Test func saveFileWritesAndDecidesWhatAnExistingFileBecomes() async throws {
    let box = try FileSandbox()
    let saved = try await box.run("save-file", ["content": "one", "path": "~/out/notes.txt", "create-folders": true])
    #expect(saved[property: "path"] == .text(box.home + "/out/notes.txt"))
    #expect(box.read("~/out/notes.txt") == "one")
    // Writing over a file loses what it held: it asks first (issue 28).
    _ = try await box.run(
      "save-file", ["content": "two", "path": "~/out/notes.txt", "if-exists": "replace"], answers: [.confirmation(true)]
    )
    #expect(box.read("~/out/notes.txt") == "two")
    _ = try await box.run("save-file", ["content": "+", "path": "~/out/notes.txt", "if-exists": "append"])
    #expect(box.read("~/out/notes.txt") == "two+")
    let second = try await box.run("save-file", ["content": "3", "path": "~/out/notes.txt", "if-exists": "keep-both"])
    let third = try await box.run("save-file", ["content": "4", "path": "~/out/notes.txt", "if-exists": "keep-both"])
    #expect(second[property: "name"] == "notes 2.txt")
    #expect(third[property: "name"] == "notes 3.txt")
    #expect(box.read("~/out/notes 3.txt") == "4")
    _ = try await box.run("save-file", ["content": .dictionary(["a": [1, 2]]), "path": "~/out/data.json"])
    #expect(box.read("~/out/data.json") == "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n")
    // No temporary file is left behind.
    let names = try FileManager.default.contentsOfDirectory(atPath: box.home + "/out").sorted()
    #expect(names == ["data.json", "notes 2.txt", "notes 3.txt", "notes.txt"])
  }

  @Test func replacingKeepsTheFilesPermissions() async throws {
    let box = try FileSandbox()
    try box.write("old", "~/script.sh")
    try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: box.home + "/script.sh")
    _ = try await box.run(
      "save-file", ["content": "new", "path": "~/script.sh", "if-exists": "replace"], answers: [.confirmation(true)])
    let attributes = try FileManager.default.attributesOfItem(atPath: box.home + "/script.sh")
    #expect(attributes[.posixPermissions] as? Int == 0o750)
    #expect(box.read("~/script.sh") == "new")
  }

  @Test func appendToFilePutsTheTextOnALineOfItsOwn() async throws {
    let box = try FileSandbox()
    _ = try await box.run("append-to-file", ["text": "first", "path": "~/log.md"])
    _ = try await box.run("append-to-file", ["text": "second", "path": "~/log.md"])
    #expect(box.read("~/log.md") == "first\nsecond\n")
    try box.write("no newline", "~/other.md")
    _ = try await box.run("append-to-file", ["text": "next", "path": "~/other.md"])
    #expect(box.read("~/other.md") == "no newline\nnext\n")
  }

  @Test func copyAndMoveIntoFoldersOrToNewNames() async throws {
    let box = try FileSandbox()
    try box.write("a", "~/a.txt")
    try FileManager.default.createDirectory(atPath: box.home + "/archive", withIntermediateDirectories: true)
    let copy = try await box.run("copy-file", ["file": "~/a.txt", "to": "~/archive"])
    #expect(copy[property: "path"] == .text(box.home + "/archive/a.txt"))
    #expect(box.read("~/archive/a.txt") == "a" && box.read("~/a.txt") == "a")
    let numbered = try await box.run("copy-file", ["file": "~/a.txt", "to": "~/archive", "if-exists": "keep-both"])
    #expect(numbered[property: "name"] == "a 2.txt")
    let renamed = try await box.run("move-file", ["file": "~/a.txt", "to": "b.txt"])
    #expect(renamed[property: "path"] == .text(box.work + "/b.txt"))
    #expect(!box.exists("~/a.txt") && box.read("~/work/b.txt") == "a")
    try box.write("tree", "~/folder/inside.txt")
    _ = try await box.run("copy-file", ["file": "~/folder", "to": "~/folder-copy"])
    #expect(box.read("~/folder-copy/inside.txt") == "tree")
    _ = try await box.run(
      "move-file", ["file": "~/work/b.txt", "to": "~/archive/a.txt", "if-exists": "replace"],
      answers: [.confirmation(true)])
    #expect(box.read("~/archive/a.txt") == "a" && !box.exists("~/work/b.txt"))
  }

  @Test func createFolderMakesTheFoldersOnTheWay() async throws {
    let box = try FileSandbox()
    let folder = try await box.run("create-folder", ["path": "~/a/b/c"])
    #expect(folder[property: "kind"] == "folder")
    _ = try await box.run("create-folder", ["path": "~/a/b/c"])
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: box.home + "/a/b/c", isDirectory: &isFolder) && isFolder.boolValue)
  }

  @Test func deleteFilesAsksFirstAndDeclinedDeletesNothing() async throws {
    let box = try FileSandbox()
    try box.write("x", "~/keep.txt")
    let error = await box.failure("delete-files", ["files": "~/keep.txt"], answers: [.confirmation(false)])
    #expect(error.hasSuffix("cancelled"))
    #expect(box.exists("~/keep.txt"))
    _ = try await box.run("delete-files", ["files": "~/keep.txt", "permanently": true], answers: [.confirmation(true)])
    #expect(!box.exists("~/keep.txt"))
    #expect(!box.exists("~/.local/share/Trash/files/keep.txt"))
  }

  /// Each failure a person can meet, as they read it.
  @Test func errorsGolden() async throws {
    let box = try FileSandbox()
    try box.write("x", "~/exists.txt")
    try box.write("x", "~/folder/inside.txt")
    mkfifo(box.home + "/pipe", 0o600)
    // A file that says it is larger than the limit is refused without reading it (it is sparse).
    let big = open(box.home + "/big.log", O_CREAT | O_WRONLY, 0o600)
    ftruncate(big, off_t(ReadFileIntent.readLimit + 1))
    close(big)
    try box.write("{not json", "~/broken.json")
    var report: [String] = []
    report.append(await box.failure("get-file", ["path": "~/missing.txt"]))
    report.append(await box.failure("get-folder-contents", ["folder": "~/exists.txt"]))
    report.append(await box.failure("get-folder-contents", ["folder": "~/nowhere"]))
    report.append(await box.failure("read-file", ["file": "~/missing.txt"]))
    report.append(await box.failure("read-file", ["file": "~/folder"]))
    report.append(await box.failure("read-file", ["file": "~/pipe"]))
    report.append(await box.failure("read-file", ["file": "~/big.log"]))
    report.append(await box.failure("read-file", ["file": "~/broken.json", "as": "json"]))
    report.append(await box.failure("save-file", ["content": "y", "path": "~/exists.txt"]))
    report.append(await box.failure("save-file", ["content": "y", "path": "~/folder"]))
    report.append(await box.failure("save-file", ["content": "y", "path": "~/new/file.txt"]))
    report.append(await box.failure("copy-file", ["file": "~/exists.txt", "to": "~"]))
    report.append(await box.failure("copy-file", ["file": "~/exists.txt", "to": "~/folder/inside.txt"]))
    report.append(await box.failure("move-file", ["file": "~/folder", "to": "~/folder/sub"]))
    report.append(await box.failure("move-file", ["file": "~/exists.txt", "to": "~/x.txt", "if-exists": "append"]))
    report.append(await box.failure("create-folder", ["path": "~/exists.txt/sub"]))
    report.append(await box.failure("delete-files", ["files": "~/missing.txt"]))
    report.append(await box.failure("append-to-file", ["text": "x", "path": "~/folder"]))
    // Permission denied, as the system reports it (the tests may run as root, which no mode stops).
    report.append(FileErrorProbe.permissionDenied(box))
    assertGolden(report.joined(separator: "\n") + "\n", named: "file-errors.txt")
    #expect(box.read("~/exists.txt") == "x")
  }
}

/// Permission denied from a real system call where the tests can get one: a file in a read-only
/// bind mount is out of reach of a test, so the refusal comes from writing into a folder of sysfs,
/// which even root may not create files in: `/sys`.
enum FileErrorProbe {
  static func permissionDenied(_ box: FileSandbox) -> String {
    let files = LocalFiles(locations: FileLocations(home: box.home, workingDirectory: "/sys", dataHome: box.dataHome))
    do {
      _ = try files.write(Array("x".utf8), to: "new-file", ifExists: .fail, createFolders: false)
      return "no error"
    } catch {
      let (message, help) = AppIntentError.describe(error)
      return "save-file into /sys: \(message)" + (help.map { "\n  help: \($0)" } ?? "")
    }
  }
}

/// A listing that would read the whole disk (`/`, `~`, recursively) stops at its bounds with an error that
/// says which, and at Ctrl-C (issue 28).
struct ListingBoundsTests {
  @Test func aListingStopsAtItsBounds() async throws {
    let box = try FileSandbox()
    var files = box.files
    files.bounds.entries = 50
    files.bounds.depth = 4
    try box.write("x", "~/deep/1/2/3/4/5/6/file.txt")
    for index in 0..<60 { try box.write("x", "~/wide/\(index).txt") }
    func message(_ work: () throws -> [FileEntity]) -> String? {
      do {
        _ = try work()
        return nil
      } catch {
        return AppIntentError.describe(error).message
      }
    }
    #expect(
      message { try files.contents(of: "~/deep", recursive: true, hidden: false, pattern: nil) }
        == "listing '~/deep' stopped: it went past 4 folders deep, at '~/deep/1/2/3/4/5'")
    #expect(
      message { try files.contents(of: "~/wide", recursive: false, hidden: false, pattern: nil) }
        == "listing '~/wide' stopped: it went past 50 entries")
    #expect(message { try files.matching("~/wide/*.txt") } == "'~/wide/*.txt' matches more than 50 files")
    #expect(try files.contents(of: "~/deep", recursive: false, hidden: false, pattern: nil).map(\.name) == ["1"])
    // Cancelled from inside, before the listing starts: what Ctrl-C does to the run's task.
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try files.contents(of: "~/deep", recursive: true, hidden: false, pattern: nil)
    }
    await #expect(throws: CancellationError.self) { _ = try await cancelled.value }
  }
}
