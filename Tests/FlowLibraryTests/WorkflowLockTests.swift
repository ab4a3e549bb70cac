import Foundation
import Testing

@testable import FlowLibrary

/// The per-workflow lock, in one process: `flock` locks belong to open files, so two acquisitions in
/// one process exclude each other as two processes would (the real-process test is in FlowCLITests).
struct WorkflowLockTests {
  static func directory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("locks-\(UUID().uuidString)")
  }

  static let me = LinuxProcesses().current()

  @Test func aSecondAcquisitionIsRefusedUntilTheFirstEnds() throws {
    let directory = Self.directory()
    let holder = WorkflowLock.Holder(runID: "run-a", started: Date(timeIntervalSince1970: 0), process: Self.me)
    var first = try WorkflowLock.acquire(path: "/w/save.yml", in: directory, holder: holder, wait: false)
    #expect(first != nil)
    #expect(try WorkflowLock.acquire(path: "/w/save.yml", in: directory, holder: holder, wait: false) == nil)
    // Another workflow is not held up.
    #expect(try WorkflowLock.acquire(path: "/w/other.yml", in: directory, holder: holder, wait: false) != nil)
    #expect(WorkflowLock.holder(of: "/w/save.yml", in: directory)?.runID == "run-a")
    #expect(WorkflowLock.isHeld("/w/save.yml", in: directory))
    first = nil
    #expect(!WorkflowLock.isHeld("/w/save.yml", in: directory))
    #expect(try WorkflowLock.acquire(path: "/w/save.yml", in: directory, holder: holder, wait: false) != nil)
  }

  /// A holder record left by a process that died says nothing: the kernel released its lock.
  @Test func aDeadHoldersRecordIsNotAHolder() throws {
    let directory = Self.directory()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var dead = Self.me
    dead.startTime += 1
    let record = WorkflowLock.Holder(runID: "gone run", started: Date(), process: dead).line
    try record.write(to: WorkflowLock.file(for: "/w/save.yml", in: directory), atomically: true, encoding: .utf8)
    #expect(WorkflowLock.Holder(line: record)?.runID == "gone run")
    #expect(WorkflowLock.holder(of: "/w/save.yml", in: directory) == nil)
    let holder = WorkflowLock.Holder(runID: "new", started: Date(), process: Self.me)
    #expect(try WorkflowLock.acquire(path: "/w/save.yml", in: directory, holder: holder, wait: false) != nil)
  }

  /// The record is written over the last one without truncating the file: a shorter holder after a longer
  /// one is read as written, and a released lock names nobody, though the file keeps the old bytes.
  @Test func theFirstLineIsTheRecord() throws {
    let directory = Self.directory()
    let file = WorkflowLock.file(for: "/w/save.yml", in: directory)
    let long = WorkflowLock.Holder(runID: "a rather long run id", started: Date(), process: Self.me)
    var lock = try WorkflowLock.acquire(path: "/w/save.yml", in: directory, holder: long, wait: false)
    #expect(lock != nil)
    lock = nil
    let short = WorkflowLock.Holder(runID: "b", started: Date(), process: Self.me)
    lock = try WorkflowLock.acquire(path: "/w/save.yml", in: directory, holder: short, wait: false)
    #expect(lock != nil)
    #expect(try Data(contentsOf: file).count == long.line.utf8.count)
    #expect(WorkflowLock.holder(of: "/w/save.yml", in: directory)?.runID == "b")
    lock = nil
    #expect(WorkflowLock.holder(of: "/w/save.yml", in: directory) == nil)
    #expect(try Data(contentsOf: file).first == UInt8(ascii: "\n"))
  }

  @Test func lockFilesAreNamedByFileAndPath() {
    let directory = URL(fileURLWithPath: "/state/locks")
    let one = WorkflowLock.file(for: "/home/ada/flows/save-and-tag.yml", in: directory)
    let two = WorkflowLock.file(for: "/home/ada/other/save-and-tag.yml", in: directory)
    #expect(one.lastPathComponent.hasPrefix("save-and-tag-"))
    #expect(one.lastPathComponent.hasSuffix(".lock"))
    #expect(one != two)
    // Only ASCII letters, digits and -_. survive in the name; the hash keeps it unique.
    #expect(WorkflowLock.file(for: "/w/ünï code!.yml", in: directory).lastPathComponent.hasPrefix("_n__code_-"))
  }
}

extension WorkflowLockTests {
  /// The name's stem is cut as text; it must stay what `deletingPathExtension` gave, or a lock taken by
  /// one flow would not be seen by another.
  @Test(arguments: [
    ("/a/b.yml", "b"), ("/a/.hidden", ".hidden"), ("/a/b.tar.gz", "b.tar"), ("/a/b.", "b."), ("/a/b", "b"),
    ("/a/.b.yml", ".b"), ("/a/b..yml", "b."), ("/a/..", ".."), ("/a/x.y/z", "z"),
  ])
  func lockFileStemsAreFoundations(path: String, stem: String) {
    #expect(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent == stem)
    let name = WorkflowLock.file(for: path, in: URL(fileURLWithPath: "/state/locks")).lastPathComponent
    #expect(name.hasPrefix(stem + "-") && name.count == stem.count + 18, "\(name)")
  }
}
