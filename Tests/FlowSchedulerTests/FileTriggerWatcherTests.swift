import Foundation
import Testing

@testable import FlowScheduler

/// The `file` trigger's watcher against the real kernel: inotify in a temporary folder, read through
/// the scheduler's clock. Each test waits for the events it expects (``FileTriggerHarness/events(_:)``)
/// and then reads whatever else is waiting, so an event too many is seen too: the kernel queues events
/// as the system calls happen, so after the calls nothing more can come.
struct FileTriggerWatcherTests {
  @Test func aFileIsCreatedWhenItsWriterClosesIt() throws {
    let files = try FileTriggerHarness()
    files.watcher.arm([FileWatch(id: 1, folder: files.root)])
    files.write("a.txt", "hello")
    let events = files.events(1)
    #expect(events == [FileEvent(watch: 1, path: files.path("a.txt"), kind: .created)])
    #expect(files.problems.isEmpty)
  }

  @Test func aDownloadRenamedFromItsTemporaryNameFiresOnceForTheFinalName() throws {
    let files = try FileTriggerHarness()
    files.watcher.arm([FileWatch(id: 1, folder: files.root, events: [.created, .changed, .deleted])])
    files.write(".x.part", "half")
    files.write(".x.part", "whole")
    files.rename(".x.part", "x.pdf")
    files.write("y.pdf.crdownload", "whole")
    files.rename("y.pdf.crdownload", "y.pdf")
    #expect(files.said(files.events(2)) == ["created x.pdf", "created y.pdf"])
  }

  @Test func aFileWrittenInPiecesIsCreatedAtItsFirstCloseAndChangedAtTheNext() throws {
    let files = try FileTriggerHarness()
    files.watcher.arm([FileWatch(id: 1, folder: files.root, events: [.created, .changed])])
    let first = files.open("report.csv")
    files.put(first, "a,b\n")
    files.watcher.drain()
    #expect(files.events.isEmpty, "nothing while the file is being written")
    files.put(first, "1,2\n")
    close(first)
    #expect(files.said(files.events(1)) == ["created report.csv"])
    let second = files.open("report.csv", append: true)
    files.put(second, "3,4\n")
    files.watcher.drain()
    #expect(files.events.count == 1)
    close(second)
    #expect(files.said(files.events(2)) == ["created report.csv", "changed report.csv"])
  }

  /// An editor's atomic save writes a temporary file and renames it onto the name: the file changed.
  @Test func aRenameOntoAFileSeenIsAChange() throws {
    let files = try FileTriggerHarness()
    files.write("notes.md", "one")
    files.watcher.arm([FileWatch(id: 1, folder: files.root, events: [.created, .changed])])
    files.write("notes.md.tmp", "two")
    files.rename("notes.md.tmp", "notes.md")
    #expect(files.said(files.events(1)) == ["changed notes.md"])
  }

  @Test func aFileIsNotAFolder() throws {
    let files = try FileTriggerHarness()
    files.write("plain")
    files.watcher.arm([FileWatch(id: 3, folder: files.path("plain"))])
    #expect(files.problems == [WatchProblem(folder: files.path("plain"), watches: [3], reason: .notAFolder)])
  }

  @Test func aPatternFiltersOnTheName() throws {
    let files = try FileTriggerHarness()
    files.watcher.arm([
      FileWatch(id: 1, folder: files.root, pattern: "*.pdf"), FileWatch(id: 2, folder: files.root + "/"),
    ])
    files.write("notes.txt")
    files.write("SCAN.PDF")
    files.write("paper.pdf")
    let events = files.events(4)
    #expect(
      events.map { "\($0.watch) \($0.path.dropFirst(files.root.count + 1))" } == [
        "2 notes.txt", "2 SCAN.PDF", "1 paper.pdf", "2 paper.pdf",
      ])
  }

  @Test func hiddenAndTemporaryNamesNeverFire() throws {
    let files = try FileTriggerHarness()
    files.watcher.arm([FileWatch(id: 1, folder: files.root, events: [.created, .changed, .deleted])])
    for name in [".hidden", "notes.txt~", "video.mp4.part", "setup.iso.crdownload", "cache.tmp", ".~lock.a.odt#"] {
      files.write(name)
      unlink(files.path(name))
    }
    files.write("last.txt")
    #expect(files.said(files.events(1)) == ["created last.txt"])
    for name in [".x", "a~", "a.part", "a.crdownload", "a.tmp"] { #expect(FileTriggerWatcher.ignores(name)) }
    for name in ["a.pdf", "partial", "a.tmp.pdf", "~a"] { #expect(!FileTriggerWatcher.ignores(name)) }
  }

  /// A subfolder made and written into at once: the file may land before the subfolder's watch
  /// exists, or after it and before its listing, or after both; whichever, it is reported once.
  @Test func aRecursiveWatchFollowsNewSubfoldersAndReportsTheirFilesOnce() throws {
    let files = try FileTriggerHarness()
    files.watcher.arm([
      FileWatch(id: 1, folder: files.root, recursive: true), FileWatch(id: 2, folder: files.root),
    ])
    files.makeFolder("sub")
    files.write("sub/x.txt")
    files.makeFolder("sub/deep")
    files.makeFolder("sub/deep/er")
    files.write("sub/deep/er/y.txt")
    files.makeFolder(".git")
    files.write(".git/index")
    files.write("top.txt")
    var events = files.events(3)
    #expect(
      files.said(events.filter { $0.watch == 1 }) == [
        "created sub/x.txt", "created sub/deep/er/y.txt", "created top.txt",
      ])
    #expect(files.said(events.filter { $0.watch == 2 }) == ["created top.txt"])
    files.write("sub/deep/later.txt")
    events = files.events(5)
    #expect(files.said(Array(events.dropFirst(4))) == ["created sub/deep/later.txt"])
    #expect(events.count == 5)
  }

  @Test func aSubfolderThatExistedWhenArmedIsWatched() throws {
    let files = try FileTriggerHarness()
    files.makeFolder("a")
    files.makeFolder("a/b")
    files.write("a/b/old.txt")
    files.watcher.arm([FileWatch(id: 1, folder: files.root, recursive: true, events: [.created, .deleted])])
    files.write("a/b/new.txt")
    #expect(files.said(files.events(1)) == ["created a/b/new.txt"])
    let away = files.root + "-away"
    _ = Glibc.rename(files.path("a"), away)
    defer { try? FileManager.default.removeItem(atPath: away) }
    let events = files.events(3)
    #expect(files.said(Array(events.dropFirst())) == ["deleted a/b/new.txt", "deleted a/b/old.txt"])
    #expect(files.watcher.watchedFolders.folders == [files.root])
  }

  @Test func deletedAndMovedAwayFilesAreDeleted() throws {
    let files = try FileTriggerHarness()
    files.write("kept.txt")
    files.watcher.arm([FileWatch(id: 1, folder: files.root, events: [.created, .deleted])])
    files.write("a.txt")
    unlink(files.path("a.txt"))
    unlink(files.path("kept.txt"))
    files.makeFolder("elsewhere")
    files.write("b.txt")
    files.rename("b.txt", "elsewhere/b.txt")
    #expect(
      files.said(files.events(5)) == [
        "created a.txt", "deleted a.txt", "deleted kept.txt", "created b.txt", "deleted b.txt",
      ])
  }

  /// Ten thousand files written as fast as the machine can: each reported once, in the order they were
  /// written, and nothing more.
  @Test func aBurstOfTenThousandFilesIsReportedInOrderOnce() throws {
    let files = try FileTriggerHarness()
    files.watcher.arm([FileWatch(id: 1, folder: files.root, events: [.created, .changed])])
    let names = (0..<10_000).map { String(format: "scan-%05d.pdf", $0) }
    for name in names { files.write(name) }
    let events = files.events(names.count)
    #expect(events.count == names.count)
    #expect(events.map { String($0.path.dropFirst(files.root.count + 1)) } == names)
    #expect(Set(events).count == names.count)
    #expect(events.allSatisfy { $0.kind == .created })
  }

  /// `IN_Q_OVERFLOW`, handed to the watcher as the kernel would write it before the events still
  /// queued: the rescan finds what was written meanwhile and what went, not what was reported already,
  /// and the queued events that follow it say nothing again.
  @Test func anOverflowRescansAndReportsWhatWasMissedOnce() throws {
    let files = try FileTriggerHarness()
    files.makeFolder("sub")
    files.write("sub/known.txt")
    files.watcher.arm([FileWatch(id: 1, folder: files.root, recursive: true, events: [.created, .changed, .deleted])])
    files.write("a.txt")
    files.write("e.txt")
    #expect(files.said(files.events(2)) == ["created a.txt", "created e.txt"])
    files.write("b.txt")
    files.write("c.txt")
    files.write("sub/known.txt", "more", append: true)
    unlink(files.path("e.txt"))
    files.makeFolder("new")
    files.write("new/d.txt")
    files.watcher.receive(InotifyRecord(descriptor: -1, mask: UInt32(IN_Q_OVERFLOW)).bytes)
    let rescan = files.said(files.events)
    #expect(rescan.prefix(2) == ["created a.txt", "created e.txt"])
    #expect(
      rescan.dropFirst(2).sorted() == [
        "changed sub/known.txt", "created b.txt", "created c.txt", "created new/d.txt", "deleted e.txt",
      ])
    let b = try #require(rescan.firstIndex(of: "created b.txt"))
    let c = try #require(rescan.firstIndex(of: "created c.txt"))
    #expect(b < c, "in the order they were written")
    // The kernel's own events for the same files, still queued, add nothing.
    files.watcher.drain()
    #expect(files.said(files.events) == rescan)
    files.write("new/after.txt")
    #expect(files.said(files.events(rescan.count + 1)).last == "created new/after.txt")
    #expect(files.events.count == rescan.count + 1)
  }

  /// A real overflow: more files than the kernel queues events for, written before the watcher reads
  /// any. The events queued and the rescan after them report every file, each once.
  @Test func aRealOverflowLosesNothing() throws {
    let limit = try #require(
      Int(
        (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
          .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
    try #require(limit <= 100_000, "max_queued_events is \(limit): too many files to overflow it")
    let files = try FileTriggerHarness()
    files.watcher.arm([FileWatch(id: 1, folder: files.root)])
    let names = (0..<(limit + 500)).map { "f\($0)" }
    for name in names { files.write(name) }
    let events = files.events(names.count)
    #expect(events.count == names.count)
    #expect(Set(events.map(\.path)) == Set(names.map(files.path)))
  }

  /// A folder that does not exist is said once, however often it is armed, and armed when it appears:
  /// its files then are created.
  @Test func aMissingFolderIsSaidOnceAndArmedWhenItAppears() throws {
    let files = try FileTriggerHarness()
    let inbox = files.path("home/Inbox")
    files.watcher.arm([FileWatch(id: 7, folder: inbox)])
    files.watcher.arm([FileWatch(id: 7, folder: inbox)])
    #expect(files.problems == [WatchProblem(folder: inbox, watches: [7], reason: .missing)])
    #expect(files.problems.first?.description == "\(inbox) does not exist; the trigger is armed when it does")
    #expect(files.watcher.watchedFolders.pending == [inbox])
    files.makeFolder("stage")
    files.write("stage/early.txt")
    files.makeFolder("home")
    files.rename("stage", "home/Inbox")
    files.write("home/Inbox/late.txt")
    #expect(files.said(files.events(2)) == ["created home/Inbox/early.txt", "created home/Inbox/late.txt"])
    #expect(files.watcher.watchedFolders == ([inbox], []))
    #expect(files.problems.count == 1)
  }

  @Test func aWatchedFolderDeletedOrMovedAwayIsSaidAndArmedAgainByTheNextArm() throws {
    let files = try FileTriggerHarness()
    files.makeFolder("deleted")
    files.makeFolder("moved")
    let deleted = files.path("deleted")
    let moved = files.path("moved")
    files.watcher.arm([FileWatch(id: 1, folder: deleted), FileWatch(id: 2, folder: moved, recursive: true)])
    rmdir(deleted)
    files.rename("moved", "moved-away")
    let problems = files.problems(2)
    #expect(
      problems == [
        WatchProblem(folder: deleted, watches: [1], reason: .gone),
        WatchProblem(folder: moved, watches: [2], reason: .gone),
      ])
    #expect(files.watcher.watchedFolders.folders.isEmpty)
    files.write("moved-away/not-watched.txt")
    files.makeFolder("deleted")
    files.watcher.arm([FileWatch(id: 1, folder: deleted), FileWatch(id: 2, folder: moved, recursive: true)])
    #expect(files.problems.count == 3)
    #expect(files.problems.last == WatchProblem(folder: moved, watches: [2], reason: .missing))
    files.write("deleted/back.txt")
    #expect(files.said(files.events(1)) == ["created deleted/back.txt"])
  }

  @Test func armingAgainKeepsWhatIsWatched() throws {
    let files = try FileTriggerHarness()
    files.watcher.arm([FileWatch(id: 1, folder: files.root)])
    files.write("a.txt")
    files.events(1)
    files.watcher.arm([FileWatch(id: 1, folder: files.root), FileWatch(id: 2, folder: files.root, events: [.changed])])
    files.write("a.txt", "again")
    files.write("b.txt")
    #expect(
      files.events(3).map { "\($0.watch) \($0.kind.rawValue) \($0.path.dropFirst(files.root.count + 1))" } == [
        "1 created a.txt", "2 changed a.txt", "1 created b.txt",
      ])
    files.watcher.arm([])
    #expect(files.watcher.watchedFolders == ([], []))
  }

  @Test func aRecordSurvivesTheBytesItIsWrittenAs() {
    let records = [
      InotifyRecord(descriptor: 3, mask: UInt32(IN_CLOSE_WRITE), name: "a.pdf"),
      InotifyRecord(descriptor: 3, mask: UInt32(IN_MOVED_TO), cookie: 9, name: String(repeating: "n", count: 16)),
      InotifyRecord(descriptor: -1, mask: UInt32(IN_Q_OVERFLOW)),
    ]
    #expect(InotifyRecord.parse(records.flatMap(\.bytes)) == records)
    #expect(InotifyRecord.parse(Array(records[0].bytes.dropLast())) == [])
  }

  @Test func theWatchLimitIsSaidWithItsValue() {
    let problem = WatchProblem(folder: "/home/ada/Inbox", watches: [1], reason: .watchLimit(8192))
    #expect(
      problem.description
        == "cannot watch /home/ada/Inbox: the inotify watch limit is reached: fs.inotify.max_user_watches = 8192 "
        + "(raise it with sysctl)")
    #expect(WatchedFolders.watchLimit() != nil)
  }
}
