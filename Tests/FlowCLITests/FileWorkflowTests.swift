import FlowCLI
import FlowIntents
import FlowTestSupport
import Foundation
import Testing

/// The file actions through `flow run`: a dry run reads and never writes; a real run does it all.
struct FileWorkflowTests {
  static let workflow = """
    flow: 1
    name: Every file action
    steps:
      - get-folder-contents:
          folder: ~/data
          recursive: true
      - get-file: ~/data/*.tmp
        as: old
      - read-file: ~/data/a.txt
      - save-file:
          content: hello
          path: ~/out/new.txt
          create-folders: true
      - save-file:
          content: again
          path: ~/data/a.txt
          if-exists: replace
      - append-to-file:
          text: line
          path: ~/data/log.md
      - copy-file:
          file: ~/data/a.txt
          to: ~/data/copy.txt
      - move-file:
          file: ~/data/b.txt
          to: ~/data/moved.txt
      - create-folder: ~/new-folder
      - delete-files: ${old}
      - delete-files:
          files: ~/data/c.txt
          permanently: true
      - show: "${old.count} old files"

    """

  /// A home with the files the workflow works on.
  static func home() throws -> URL {
    let home = try temporaryDirectory()
    let data = home.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    for name in ["a.txt", "b.txt", "c.txt", "one.tmp", "two.tmp", "log.md"] {
      try "\(name)\n".write(to: data.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }
    try workflow.write(to: home.appendingPathComponent("files.yml"), atomically: false, encoding: .utf8)
    return home
  }

  /// Every path under `root` with its bytes and permissions.
  static func tree(_ root: URL) -> [String: String] {
    var result: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    while let relative = enumerator?.nextObject() as? String {
      let full = root.path + "/" + relative
      let attributes = try? FileManager.default.attributesOfItem(atPath: full)
      let bytes = FileManager.default.contents(atPath: full).map { $0.base64EncodedString() } ?? "folder"
      result[relative] = "\(attributes?[.posixPermissions] ?? 0) \(bytes)"
    }
    return result
  }

  @Test func aDryRunReadsButNeverWrites() async throws {
    let home = try Self.home()
    let before = Self.tree(home)
    let result = await Machine.run(
      ["run", "files.yml", "--dry-run"], in: home, environment: ["HOME": home.path, "NO_COLOR": "1"])
    #expect(result.status == 0, "\(result.error)")
    #expect(Self.tree(home) == before)
    #expect(result.output.contains("2 old files"))
    #expect(result.output.contains("dry run: step 10 'delete-files'"))
  }

  @Test func aRealRunDoesEverything() async throws {
    let home = try Self.home()
    let result = await Machine.run(
      ["run", "files.yml", "--yes"], in: home, environment: ["HOME": home.path, "NO_COLOR": "1"])
    #expect(result.status == 0, "\(result.error)")
    let data = home.appendingPathComponent("data").path
    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
    #expect(read(home.path + "/out/new.txt") == "hello")
    #expect(read(data + "/a.txt") == "again")
    #expect(read(data + "/copy.txt") == "again")
    #expect(read(data + "/moved.txt") == "b.txt\n")
    #expect(read(data + "/log.md") == "log.md\nline\n")
    #expect(FileManager.default.fileExists(atPath: home.path + "/new-folder"))
    #expect(!FileManager.default.fileExists(atPath: data + "/one.tmp"))
    #expect(!FileManager.default.fileExists(atPath: data + "/c.txt"))
    let trashed = try FileManager.default.contentsOfDirectory(atPath: home.path + "/.local/share/Trash/files")
    #expect(trashed.sorted() == ["one.tmp", "two.tmp"])
    #expect(result.output.contains("2 old files"))
  }

  @Test func deleteFilesNeedsAnAnswerInAnUnattendedRun() async throws {
    let home = try Self.home()
    let result = await Machine.run(["run", "files.yml"], in: home, environment: ["HOME": home.path, "NO_COLOR": "1"])
    #expect(result.status != 0)
    #expect(result.error.contains("delete-files"))
    // The check before step 1 refuses: nothing was written.
    #expect(!FileManager.default.fileExists(atPath: home.path + "/out"))
  }

  /// `confirmations: auto` answers delete-files' question when it moves files to the Trash, where they can
  /// be restored, but deleting for good needs the person or `--yes`, also inside a `confirm:` block.
  @Test func deletingForGoodNeedsYesEvenWithConfirmationsAuto() async throws {
    let home = try temporaryDirectory()
    func file(_ name: String) -> String { home.appendingPathComponent(name).path }
    let yaml = """
      flow: 1
      name: Auto
      confirmations: auto
      steps:
        - delete-files: ~/trashed.txt
        - if: true
          confirm: Clean up?
          then:
            - delete-files:
                files: ~/gone.txt
                permanently: true

      """
    try yaml.write(toFile: file("auto.yml"), atomically: false, encoding: .utf8)
    for name in ["trashed.txt", "gone.txt"] { try "x".write(toFile: file(name), atomically: false, encoding: .utf8) }
    let environment = ["HOME": home.path, "NO_COLOR": "1"]
    let refused = await Machine.run(["run", "auto.yml"], in: home, environment: environment)
    // Refused before step 1 (the one confirmation policy: auto never confirms deleting for good), so
    // nothing at all happened.
    #expect(refused.status == 4)
    #expect(refused.error.contains("--yes"), "\(refused.error)")
    #expect(refused.error.contains("a person's confirmation"), "\(refused.error)")
    #expect(FileManager.default.fileExists(atPath: file("trashed.txt")))
    #expect(FileManager.default.fileExists(atPath: file("gone.txt")))
    let done = await Machine.run(["run", "auto.yml", "--yes"], in: home, environment: environment)
    #expect(done.status == 0, "\(done.error)")
    #expect(!FileManager.default.fileExists(atPath: file("gone.txt")))
  }

  /// A recursive listing that meets a folder it may not read says so, as the step's warning, and lists
  /// the rest: one closed folder is not the end of a tidy-up (issue 28). Run as another user when the
  /// tests run as root, whom no permission stops.
  @Test func aRecursiveListingSaysWhatItCouldNotReadAndGoesOn() throws {
    let home = try temporaryDirectory()
    let manager = FileManager.default
    for folder in ["data/open", "data/shut"] {
      try manager.createDirectory(atPath: home.path + "/" + folder, withIntermediateDirectories: true)
    }
    for file in ["data/a.txt", "data/open/b.txt", "data/shut/c.txt"] {
      try "x".write(toFile: home.path + "/" + file, atomically: false, encoding: .utf8)
    }
    let yaml = "flow: 1\nsteps:\n  - get-folder-contents: {folder: ~/data, recursive: true}\n  - show: ${previous}\n"
    try yaml.write(toFile: home.path + "/list.yml", atomically: false, encoding: .utf8)
    // Another user writes flow's state in the home and reads the rest; the closed folder is closed to all.
    for path in [home.path, home.path + "/data", home.path + "/data/open"] {
      try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: path)
    }
    try manager.setAttributes([.posixPermissions: 0], ofItemAtPath: home.path + "/data/shut")
    defer { try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home.path + "/data/shut") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    let asNobody = getuid() == 0 ? ["--reuid=65534", "--regid=65534", "--clear-groups"] : ["--"]
    process.arguments = asNobody + [Machine.executable.path, "run", "list.yml"]
    process.environment = ["HOME": home.path, "NO_COLOR": "1"]
    process.currentDirectoryURL = home
    let output = Pipe(), error = Pipe()
    (process.standardInput, process.standardOutput, process.standardError) = (nil, output, error)
    try process.run()
    let shown = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(said)")
    #expect(
      shown.split(separator: "\n").map { $0.split(separator: "/").last ?? "" } == ["a.txt", "open", "b.txt", "shut"])
    #expect(
      said.contains(
        "step 1 'get-folder-contents': permission denied: cannot read the folder '~/data/shut'; what it holds is left out"
      ), "\(said)")
  }

  /// A step's `confirm:` adds its words to the action's own question, in one question: the person still
  /// reads which files go, and whether for good (issue 28). An action with no question of its own is
  /// asked the step's words alone.
  @Test func aStepsConfirmAddsToTheActionsOwnQuestion() async throws {
    let home = try temporaryDirectory()
    for name in ["a.txt", "b.txt"] {
      try "x".write(toFile: home.path + "/" + name, atomically: false, encoding: .utf8)
    }
    let yaml = """
      flow: 1
      steps:
        - delete-files: {files: ~/a.txt, permanently: true}
          confirm: Tidy up?
        - read-file: ~/b.txt
          confirm: Read it?

      """
    try yaml.write(toFile: home.path + "/tidy.yml", atomically: false, encoding: .utf8)
    let result = await Machine.run(
      ["run", "tidy.yml"], in: home, environment: ["HOME": home.path, "NO_COLOR": "1"], terminal: true,
      lines: ["y", "y"])
    #expect(result.status == 0, "\(result.error)")
    #expect(
      (result.output + result.error).replacingOccurrences(of: home.path, with: "~")
        == "x\nTidy up? Delete '~/a.txt' for good? [y/N] y\nRead it? [y/N] y\n")
    #expect(!FileManager.default.fileExists(atPath: home.path + "/a.txt"))
  }

  /// `if-exists: append` is for writing text: on move-file and copy-file `flow validate` refuses it at its
  /// column, and `flow actions` does not offer it (issue 30).
  @Test func appendIsNoChoiceForMovingOrCopying() async throws {
    let home = try temporaryDirectory()
    let yaml = "flow: 1\nsteps:\n  - move-file: {file: ~/a.txt, to: ~/b.txt, if-exists: append}\n"
    try yaml.write(toFile: home.path + "/move.yml", atomically: false, encoding: .utf8)
    let environment = ["HOME": home.path, "NO_COLOR": "1"]
    let result = await Machine.run(["validate", "move.yml"], in: home, environment: environment)
    #expect(result.status == 2)
    #expect(result.error.contains("move.yml:3:56: error:"), "\(result.error)")
    #expect(result.error.contains("'append'"), "\(result.error)")
    let actions = await Machine.run(["actions", "move-file"], in: home, environment: environment)
    #expect(actions.output.contains("keep-both"), "\(actions.output)")
    #expect(!actions.output.contains("append"), "\(actions.output)")
  }
}
