import FlowDiagnostics
import FlowModel
import FoundationEssentials
import Glibc

/// What ``FileTriggerWatcher`` knows, and what it does with each inotify record: the kernel watches on
/// its one descriptor, one per folder however many triggers name it, and per folder the files last seen,
/// so that what the kernel did not say (a folder's files before its watch existed, a queue that
/// overflowed) is found by a scan, and nothing is reported twice.
///
/// Every operation appends what it found to ``events`` and ``problems``, which the watcher takes and
/// reports outside its lock.
struct WatchedFolders: Sendable {
  /// A file as last seen: its inode, modification time and size. A scan that finds the same is a file
  /// that has not changed.
  struct Seen: Sendable, Equatable {
    var inode: UInt64
    var seconds: Int
    var nanoseconds: Int
    var size: Int64

    /// A file closed and gone before it could be looked at: it was reported, and its deletion will be.
    static let unknown = Seen(inode: 0, seconds: 0, nanoseconds: 0, size: -1)

    init(inode: UInt64, seconds: Int, nanoseconds: Int, size: Int64) {
      self.inode = inode
      self.seconds = seconds
      self.nanoseconds = nanoseconds
      self.size = size
    }

    init(_ status: stat) {
      self.init(
        inode: UInt64(status.st_ino), seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec),
        size: Int64(status.st_size))
    }

    /// The file at `path`, following a link; nil if there is none.
    static func of(_ path: String) -> Seen? {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      return Seen(status)
    }
  }

  /// A file of a folder as the watcher knows it.
  struct Entry: Sendable {
    var seen: Seen
    /// Recorded by a scan rather than by the kernel's event. The event of a file written just before a
    /// scan may come after it: if the file is still as the scan saw it, the scan has said it already.
    var fromScan: Bool
  }

  /// One kernel watch.
  struct Folder: Sendable {
    var path: String
    /// The mask the kernel has for it now.
    var mask: UInt32
    /// The recursive folder it is a subfolder of, and its own subfolders by name.
    var parent: Int32?
    var children: [String: Int32] = [:]
    /// The watches that name this folder.
    var direct: Set<Int> = []
    /// Every watch its files are reported to: ``direct`` and the recursive watches of the folders above.
    var watching: Set<Int> = []
    /// The watches that go on into its subfolders.
    var recursive: Set<Int> = []
    /// A watched folder that does not exist yet lies somewhere below: a new subfolder may be it.
    var awaiting = false
    /// Its files have been listed once, so ``files`` is what is there.
    var scanned = false
    var files: [String: Entry] = [:]

    init(path: String, mask: UInt32) {
      self.path = path
      self.mask = mask
    }

    /// What it must be watched for, given what it is watched for.
    var wantedMask: UInt32 {
      var mask = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
      if !watching.isEmpty { mask |= UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) }
      // New subfolders, only where wanted: IN_CREATE comes for every new file too, and would double the
      // events of a burst in a folder that is not recursive.
      if !recursive.isEmpty || awaiting { mask |= UInt32(IN_CREATE | IN_MOVED_TO) }
      return mask
    }

    func path(of name: String) -> String { path == "/" ? "/" + name : path + "/" + name }
  }

  /// What a folder holds: its files (regular files, and links to them) whose names may fire, and its
  /// subfolders that are not hidden.
  struct Listing {
    var files: [(name: String, seen: Seen)] = []
    var folders: [String] = []
  }

  enum Added {
    case watched(Int32)
    case missing
    /// Said as a problem already.
    case failed
  }

  let descriptor: Int32
  private(set) var watches: [Int: FileWatch] = [:]
  private(set) var folders: [Int32: Folder] = [:]
  private var byPath: [String: Int32] = [:]
  /// The watched folders that do not exist yet (said once as missing, and awaited).
  private(set) var pending: Set<String> = []
  /// Whether the watch limit has been said during the current operation (once is enough).
  private var limitSaid = false

  var events: [FileEvent] = []
  var problems: [WatchProblem] = []

  init(descriptor: Int32) { self.descriptor = descriptor }

  /// A trigger's folder as it is kept: without a trailing `/`.
  static func normalized(_ folder: String) -> String {
    var folder = folder
    while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
    return folder
  }

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "/" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  // MARK: - Arming

  /// Watches `list` from now on instead of what was watched. Folders still wanted keep their kernel
  /// watch and what was seen in them; a folder newly watched is listed and its files recorded, not
  /// reported: they were there before the trigger.
  mutating func arm(_ list: [FileWatch]) {
    limitSaid = false
    watches = Dictionary(list.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    for descriptor in folders.keys {
      folders[descriptor]?.direct = []
      folders[descriptor]?.watching = []
      folders[descriptor]?.recursive = []
      folders[descriptor]?.awaiting = false
      // Linked again by the recursive watches that still reach them.
      folders[descriptor]?.parent = nil
      folders[descriptor]?.children = [:]
    }
    let missingBefore = pending
    pending = []
    for path in Set(watches.values.map { Self.normalized($0.folder) }).sorted() {
      guard case .missing = attachRoot(path, report: false) else { continue }
      pending.insert(path)
      if !missingBefore.contains(path) {
        problems.append(WatchProblem(folder: path, watches: ids(naming: path), reason: .missing))
      }
    }
    awaitPending()
    settle()
  }

  private func ids(naming path: String) -> [Int] {
    watches.values.filter { Self.normalized($0.folder) == path }.map(\.id).sorted()
  }

  /// Watches the folder that the watches naming `path` name, and, for the recursive ones, every
  /// subfolder.
  private mutating func attachRoot(_ path: String, report: Bool) -> Added {
    let naming = watches.values.filter { Self.normalized($0.folder) == path }
    let ids = Set(naming.map(\.id))
    let recursive = Set(naming.filter(\.recursive).map(\.id))
    let added = watch(path, for: ids, recursive: !recursive.isEmpty)
    guard case .watched(let descriptor) = added else { return added }
    folders[descriptor]?.direct.formUnion(ids)
    folders[descriptor]?.watching.formUnion(ids)
    folders[descriptor]?.recursive.formUnion(recursive)
    attach(descriptor, report: report)
    return added
  }

  /// Watches `name` in `parent` for the recursive watches `ids`, and its subfolders.
  private mutating func attachChild(_ name: String, of parent: Int32, ids: Set<Int>, report: Bool) {
    guard let parentPath = folders[parent]?.path(of: name) else { return }
    guard case .watched(let descriptor) = watch(parentPath, for: ids, recursive: true) else { return }
    // Already watched for all of them: a folder reached twice (a bind mount's loop, an event after a scan).
    if let folder = folders[descriptor], folder.scanned, folder.recursive.isSuperset(of: ids) { return }
    folders[descriptor]?.parent = parent
    folders[parent]?.children[name] = descriptor
    folders[descriptor]?.watching.formUnion(ids)
    folders[descriptor]?.recursive.formUnion(ids)
    attach(descriptor, report: report)
  }

  /// Lists a folder just watched: records its files the first time (reporting them as created if
  /// `report`), and goes on into its subfolders for its recursive watches. The watch comes before the
  /// listing, so a file that lands in between is both listed and an event, never neither.
  private mutating func attach(_ descriptor: Int32, report: Bool) {
    guard let folder = folders[descriptor], let listing = Self.list(folder.path) else { return }
    if !folder.scanned { record(listing, in: descriptor, report: report) }
    guard !folder.recursive.isEmpty else { return }
    for name in listing.folders { attachChild(name, of: descriptor, ids: folder.recursive, report: report) }
  }

  /// A kernel watch on `path` with at least the mask `ids` need, made or found. A problem other than the
  /// folder's absence is said here. The mask is added to what the kernel has (`IN_MASK_ADD`), since the
  /// folder may be watched for something else too; ``settle()`` narrows it.
  private mutating func watch(_ path: String, for ids: Set<Int>, recursive: Bool) -> Added {
    var needed = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
    if recursive { needed |= UInt32(IN_CREATE) }
    return add(path, mask: needed, ids: ids)
  }

  private mutating func add(_ path: String, mask: UInt32, ids: Set<Int>) -> Added {
    if let known = byPath[path], let folder = folders[known], folder.mask & mask == mask { return .watched(known) }
    let descriptor = inotify_add_watch(self.descriptor, path, mask | UInt32(IN_ONLYDIR | IN_MASK_ADD))
    guard descriptor >= 0 else { return failure(errno, path: path, ids: ids) }
    if let known = byPath[path], known != descriptor {
      // The path is another folder now: the one watched there went while the events saying so were lost.
      remove(known, reportDeleted: true, unwatch: true)
    }
    if let known = folders[descriptor] {
      if known.path == path || Self.sameFolder(known.path, path) {
        // The folder, or another path to it (a link): one watch, reported under the first path.
        folders[descriptor]?.mask |= mask
        return .watched(descriptor)
      }
      // The folder moved here while the events saying so were lost: forget it where it was, and know it
      // afresh here.
      remove(descriptor, reportDeleted: true, unwatch: false)
      folders[descriptor] = Folder(path: path, mask: known.mask | mask)
    } else {
      folders[descriptor] = Folder(path: path, mask: mask)
    }
    byPath[path] = descriptor
    return .watched(descriptor)
  }

  private static func sameFolder(_ first: String, _ second: String) -> Bool {
    var one = stat()
    var two = stat()
    return stat(first, &one) == 0 && stat(second, &two) == 0 && one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }

  private mutating func failure(_ error: Int32, path: String, ids: Set<Int>) -> Added {
    let ids = ids.sorted()
    switch error {
    case ENOENT: return .missing
    case ENOTDIR: problems.append(WatchProblem(folder: path, watches: ids, reason: .notAFolder))
    case ENOSPC:
      if !limitSaid {
        limitSaid = true
        problems.append(WatchProblem(folder: path, watches: ids, reason: .watchLimit(Self.watchLimit())))
      }
    default:
      problems.append(WatchProblem(folder: path, watches: ids, reason: .failed(String(cString: strerror(error)))))
    }
    return .failed
  }

  /// `fs.inotify.max_user_watches`.
  static func watchLimit() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8) else {
      return nil
    }
    return Int(text.trimmingWhitespaceAndNewlines())
  }

  /// For each watched folder that does not exist yet, watches the nearest folder above it that does, for
  /// new subfolders: one of them may be it, or lead to it.
  private mutating func awaitPending() {
    for path in pending.sorted() {
      var above = Self.parent(of: path)
      while true {
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
        switch add(above, mask: mask, ids: Set(ids(naming: path))) {
        case .watched(let descriptor): folders[descriptor]?.awaiting = true
        case .missing where above != "/":
          above = Self.parent(of: above)
          continue
        // Cannot wait for it (said if it is the watch limit): the next arm tries again.
        case .missing, .failed: break
        }
        break
      }
    }
  }

  /// Tries the folders that did not exist again (a folder appeared where one is awaited): those there
  /// now are armed, their files reported as created, and the others awaited from nearer.
  private mutating func retryPending() {
    for descriptor in folders.keys { folders[descriptor]?.awaiting = false }
    for path in pending.sorted() {
      if case .missing = attachRoot(path, report: true) { continue }
      pending.remove(path)
    }
    awaitPending()
    settle()
  }

  /// Drops the kernel watches nothing wants any more, and narrows the others to what is wanted.
  private mutating func settle() {
    for (descriptor, folder) in folders where folder.watching.isEmpty && !folder.awaiting {
      remove(descriptor, reportDeleted: false, unwatch: true, descend: false)
    }
    for (descriptor, folder) in folders where folder.wantedMask != folder.mask {
      if inotify_add_watch(self.descriptor, folder.path, folder.wantedMask | UInt32(IN_ONLYDIR)) >= 0 {
        folders[descriptor]?.mask = folder.wantedMask
      }
    }
  }

  /// Forgets a folder, and (if `descend`) its subfolders, reporting their files as deleted if
  /// `reportDeleted`; a folder a trigger names is said to be gone. `unwatch` removes the kernel watch
  /// (which the kernel has removed itself when the folder was deleted); subfolders' watches are always
  /// removed, since they may still exist elsewhere.
  private mutating func remove(_ descriptor: Int32, reportDeleted: Bool, unwatch: Bool, descend: Bool = true) {
    guard let folder = folders[descriptor] else { return }
    if descend {
      for child in folder.children.values.sorted() { remove(child, reportDeleted: reportDeleted, unwatch: true) }
    }
    if reportDeleted {
      for name in folder.files.keys.sorted() { emit(.deleted, name, in: descriptor) }
    }
    if !folder.direct.isEmpty {
      problems.append(WatchProblem(folder: folder.path, watches: folder.direct.sorted(), reason: .gone))
    }
    folders[descriptor] = nil
    if byPath[folder.path] == descriptor { byPath[folder.path] = nil }
    if let parent = folder.parent, let name = folders[parent]?.children.first(where: { $0.value == descriptor })?.key {
      folders[parent]?.children[name] = nil
    }
    for child in folder.children.values { folders[child]?.parent = nil }
    if unwatch { inotify_rm_watch(self.descriptor, descriptor) }
    if folder.awaiting {
      // What was awaited here is awaited from nearer the root.
      awaitPending()
    }
  }

  // MARK: - Scanning

  /// A folder's files and subfolders, or nil if it cannot be read (it is gone).
  static func list(_ path: String) -> Listing? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    let descriptor = dirfd(directory)
    var listing = Listing()
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name == "." || name == ".." { continue }
      var status = stat()
      guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      var type = status.st_mode & S_IFMT
      if type == S_IFDIR {
        if !name.hasPrefix(".") { listing.folders.append(name) }
        continue
      }
      // A link counts as the file it points to, and is never descended.
      if type == S_IFLNK {
        guard fstatat(descriptor, name, &status, 0) == 0 else { continue }
        type = status.st_mode & S_IFMT
      }
      if type == S_IFREG && !FileTriggerWatcher.ignores(name) { listing.files.append((name, Seen(status))) }
    }
    listing.folders.sort()
    return listing
  }

  /// Compares `listing` with what was seen in the folder and records it: a file new or different is
  /// reported (if `report`) as created or changed, a file no longer there as deleted. The reports go in
  /// the order the files were last modified.
  private mutating func record(_ listing: Listing, in descriptor: Int32, report: Bool) {
    guard var folder = folders[descriptor] else { return }
    var changes: [(kind: Trigger.FileEvent, name: String, seen: Seen)] = []
    var gone = folder.files
    for (name, seen) in listing.files {
      let previous = gone.removeValue(forKey: name)
      folder.files[name] = Entry(seen: seen, fromScan: true)
      if let previous, previous.seen == seen { continue }
      changes.append((previous == nil ? .created : .changed, name, seen))
    }
    for name in gone.keys { folder.files[name] = nil }
    folder.scanned = true
    folders[descriptor] = folder
    guard report else { return }
    for name in gone.keys.sorted() { emit(.deleted, name, in: descriptor) }
    changes.sort { ($0.seen.seconds, $0.seen.nanoseconds, $0.name) < ($1.seen.seconds, $1.seen.nanoseconds, $1.name) }
    for change in changes { emit(change.kind, change.name, in: descriptor) }
  }

  /// After the kernel's queue overflowed (events were dropped): every watched folder is listed again and
  /// compared with what was seen, subfolders that appeared are watched and those that went are
  /// forgotten, and the folders not there before are tried again.
  private mutating func rescan() {
    let order = folders.filter { !$0.value.watching.isEmpty }.sorted { $0.value.path < $1.value.path }.map(\.key)
    for descriptor in order {
      guard let folder = folders[descriptor] else { continue }  // gone with a folder above it
      guard let listing = Self.list(folder.path) else {
        remove(descriptor, reportDeleted: folder.direct.isEmpty, unwatch: true)
        continue
      }
      record(listing, in: descriptor, report: true)
      guard !folder.recursive.isEmpty else { continue }
      for (name, child) in folder.children.sorted(by: { $0.key < $1.key }) where !listing.folders.contains(name) {
        remove(child, reportDeleted: true, unwatch: true)
      }
      for name in listing.folders where folders[descriptor]?.children[name] == nil {
        attachChild(name, of: descriptor, ids: folder.recursive, report: true)
      }
    }
    if !pending.isEmpty { retryPending() }
  }

  // MARK: - Events

  /// Acts on the records of one read, in order.
  mutating func handle(_ records: [InotifyRecord]) {
    limitSaid = false
    for record in records { handle(record) }
  }

  private mutating func handle(_ record: InotifyRecord) {
    let mask = record.mask
    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
      rescan()
      return
    }
    guard let folder = folders[record.descriptor] else { return }  // a watch removed since
    if mask & UInt32(IN_DELETE_SELF | IN_UNMOUNT | IN_IGNORED) != 0 {
      // Whatever was still seen in a subfolder deleted is deleted too (`rm -r` says each file first).
      remove(record.descriptor, reportDeleted: folder.direct.isEmpty, unwatch: false)
      return
    }
    if mask & UInt32(IN_MOVE_SELF) != 0 {
      // A subfolder that moved is dealt with by its parent's IN_MOVED_FROM.
      if !folder.direct.isEmpty || folder.parent == nil {
        remove(record.descriptor, reportDeleted: false, unwatch: true)
      }
      return
    }
    let name = record.name
    if mask & UInt32(IN_ISDIR) != 0 {
      if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
        if !folder.recursive.isEmpty && !name.hasPrefix(".") {
          // Watched, then listed: its files may have landed before the watch.
          attachChild(name, of: record.descriptor, ids: folder.recursive, report: true)
        }
        if folder.awaiting { retryPending() }
      } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0, let child = folder.children[name] {
        remove(child, reportDeleted: true, unwatch: mask & UInt32(IN_MOVED_FROM) != 0)
      }
      return
    }
    guard !folder.watching.isEmpty, !FileTriggerWatcher.ignores(name) else { return }
    if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
      completed(name, in: record.descriptor)
    } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
      if folders[record.descriptor]?.files.removeValue(forKey: name) != nil {
        emit(.deleted, name, in: record.descriptor)
      }
    }
  }

  /// A file closed after writing, or moved in: created if it is new, changed if it was there, nothing if
  /// a scan has just found it as it is.
  private mutating func completed(_ name: String, in descriptor: Int32) {
    guard let folder = folders[descriptor] else { return }
    let seen = Seen.of(folder.path(of: name)) ?? .unknown
    let previous = folder.files[name]
    folders[descriptor]?.files[name] = Entry(seen: seen, fromScan: false)
    if let previous, previous.fromScan, previous.seen == seen, seen != .unknown { return }
    emit(previous == nil ? .created : .changed, name, in: descriptor)
  }

  /// Reports what happened to `name` to every watch of the folder whose pattern and kinds it matches.
  private mutating func emit(_ kind: Trigger.FileEvent, _ name: String, in descriptor: Int32) {
    guard let folder = folders[descriptor] else { return }
    for id in folder.watching.sorted() {
      guard let watch = watches[id], watch.events.contains(kind) else { continue }
      if let pattern = watch.pattern, fnmatch(pattern, name, 0) != 0 { continue }
      events.append(FileEvent(watch: id, path: folder.path(of: name), kind: kind))
    }
  }

  /// What the operations since the last call found.
  mutating func take() -> (events: [FileEvent], problems: [WatchProblem]) {
    defer {
      events = []
      problems = []
    }
    return (events, problems)
  }
}
