import CLinux
import FlowBasics
import FlowDiagnostics
import FlowIntents
import FoundationEssentials
import Glibc

/// The machine's own files, through the system calls: `statx` for what a File says, `opendir`/`readdir`
/// for listings (a folder's entries say whether they are files, folders or links, so a listing of
/// 100,000 files makes no `statx` until a step reads a size or a date), `glob` for patterns, and writes
/// through a temporary file.
public struct LocalFiles: Files, FileDetailsLoading {
  public let locations: FileLocations

  public init(locations: FileLocations) { self.locations = locations }

  // MARK: Looking

  public func item(at path: String) throws -> FileEntity {
    let absolute = locations.absolute(path)
    guard let entity = Self.entity(at: absolute, directory: AT_FDCWD, name: absolute) else {
      throw FileError.system(errno, locations.display(absolute), doing: "read")
    }
    return entity
  }

  public func matching(_ pattern: String) throws -> [FileEntity] {
    let absolute = locations.absolute(pattern)
    var found = glob_t()
    defer { globfree(&found) }
    let status = glob(absolute, 0, nil, &found)
    if status == GLOB_NOMATCH { return [] }
    guard status == 0 else {
      throw AppIntentError.failed("cannot search for '\(locations.display(absolute))': a folder could not be read")
    }
    // glob(3) has no bound of its own; what it found is not made into Files past the listing's.
    guard Int(found.gl_pathc) <= bounds.entries else {
      throw AppIntentError.failed(
        "'\(locations.display(absolute))' matches more than \(bounds.entries) files",
        help: "narrow the pattern: a folder further down, or fewer '*'")
    }
    var entities: [FileEntity] = []
    for index in 0..<Int(found.gl_pathc) {
      guard let pointer = found.gl_pathv[index] else { continue }
      let path = String(cString: pointer)
      // A file that went away between the listing and the look is simply not there.
      if let entity = Self.entity(at: path, directory: AT_FDCWD, name: path) { entities.append(entity) }
    }
    return entities
  }

  public func contents(of folder: String, recursive: Bool, hidden: Bool, pattern: String?) throws -> [FileEntity] {
    let root = locations.absolute(folder)
    let shown = locations.display(root)
    guard let top = Self.entity(at: root, directory: AT_FDCWD, name: root) else {
      throw FileError.system(errno, shown, doing: "read")
    }
    guard top.isFolder else {
      throw AppIntentError.failed("'\(shown)' is a file, not a folder", help: "use 'get-file' for one file")
    }
    var entities: [FileEntity] = []
    var walk = Walk(shown: shown)
    try list(root, walk: &walk, recursive: recursive, hidden: hidden, pattern: pattern, into: &entities)
    return entities
  }

  /// How far a listing may go: a recursive listing of `/` or `~` would otherwise read the whole disk into
  /// memory, and nothing stopped it but the end.
  public struct ListingBounds: Sendable {
    /// Entries read, in every folder together: the most items a value may hold (ValueLimits).
    public var entries = 1_000_000
    /// Folders inside folders below the one listed.
    public var depth = 64

    public init() {}
  }

  /// The bounds of ``contents(of:recursive:hidden:pattern:)`` and ``matching(_:)`` (a test makes them small).
  public var bounds = ListingBounds()

  /// What a listing has read so far, against ``ListingBounds``.
  private struct Walk {
    let shown: String
    var entries = 0
    var depth = 0

    func stopped(_ bound: String) -> AppIntentError {
      AppIntentError.failed(
        "listing '\(shown)' stopped: it went past \(bound)",
        help: "list a folder further down, or without 'recursive: true', or with a 'matching' pattern")
    }
  }

  private func list(
    _ path: String, walk: inout Walk, recursive: Bool, hidden: Bool, pattern: String?,
    into entities: inout [FileEntity]
  ) throws {
    // Ctrl-C (the run's cancellation) stops a long walk between folders.
    if Task.isCancelled { throw CancellationError() }
    guard let directory = opendir(path) else {
      let error = FileError.system(errno, locations.display(path), doing: "read the folder")
      // A folder further down that cannot be read is left out and said, not the end of the listing.
      guard walk.depth > 0, let context = IntentContext.current else { throw error }
      context.warn("\(error.message); what it holds is left out")
      return
    }
    defer { closedir(directory) }
    let descriptor = dirfd(directory)
    // The names, each ended by a NUL, in one buffer, with where each starts and its first eight bytes as
    // a number that sorts as they do: most names differ there, so sorting compares two integers, and a
    // String is made only for a name that is listed. The order is the bytes' (as `LC_ALL=C ls`), which
    // for UTF-8 is the order of the characters.
    var names: [CChar] = []
    var entries: [(key: UInt64, start: Int32, type: UInt8)] = []
    while let entry = readdir(directory) {
      walk.entries += 1
      guard walk.entries <= bounds.entries else { throw walk.stopped("\(bounds.entries) entries") }
      let type = entry.pointee.d_type
      withUnsafePointer(to: &entry.pointee.d_name) { tuple in
        tuple.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { start in
          // "." and ".." and, unless asked for, every hidden name are skipped.
          if start[0] == 0x2E && (!hidden || start[1] == 0 || start[1] == 0x2E && start[2] == 0) { return }
          let length = strlen(start)
          var key: UInt64 = 0
          for index in 0..<8 { key = key << 8 | UInt64(index < length ? start[index] : 0) }
          entries.append((key, Int32(names.count), type))
          start.withMemoryRebound(to: CChar.self, capacity: length + 1) {
            names.append(contentsOf: UnsafeBufferPointer(start: $0, count: length + 1))
          }
        }
      }
    }
    try names.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      entries.sort { (first, second) -> Bool in
        if first.key != second.key { return first.key < second.key }
        return strcmp(base + Int(first.start), base + Int(second.start)) < 0
      }
      let prefix = path == "/" ? "/" : path + "/"
      for (_, start, type) in entries {
        let name = base + Int(start)
        let wanted = pattern.map { fnmatch($0, name, 0) == 0 } ?? true
        // The entry's type says what it is without a stat. A link is what it points to (a stat that
        // follows it, whose size and dates the File keeps), and is never descended; a file system that
        // does not fill in the type (DT_UNKNOWN) gets a stat that does not follow.
        var isFolder = type == DT_DIR
        var isLink = type == DT_LNK
        var details: FileDetails?
        if type == DT_UNKNOWN {
          var status = statx()
          guard clinux_statx(descriptor, name, AT_SYMLINK_NOFOLLOW, Self.statMask, &status) == 0 else { continue }
          let format = UInt32(status.stx_mode) & Self.typeMask
          isFolder = format == Self.folderType
          isLink = format == Self.linkType
          if !isLink { details = Self.details(status) }
        }
        let descend = recursive && isFolder && !isLink
        guard wanted || descend else { continue }
        let text = String(cString: name)
        if wanted {
          if isLink {
            guard let entity = Self.entity(at: prefix + text, directory: descriptor, name: text) else { continue }
            entities.append(entity)
          } else {
            entities.append(
              FileEntity(folder: path, name: text, isFolder: isFolder, details: details, loader: LocalFiles.self))
          }
        }
        if descend {
          guard walk.depth < bounds.depth else {
            throw walk.stopped("\(bounds.depth) folders deep, at '\(locations.display(prefix + text))'")
          }
          walk.depth += 1
          defer { walk.depth -= 1 }
          try list(prefix + text, walk: &walk, recursive: true, hidden: hidden, pattern: pattern, into: &entities)
        }
      }
    }
  }

  static let statMask = UInt32(STATX_TYPE | STATX_SIZE | STATX_MTIME | STATX_BTIME)
  // S_IFMT, S_IFDIR and S_IFLNK as numbers: <linux/stat.h> (for statx) and Glibc both define them, which
  // Swift finds ambiguous.
  static let typeMask: UInt32 = 0o170000
  static let folderType: UInt32 = 0o040000
  static let linkType: UInt32 = 0o120000

  /// The File at `name` in `directory` (its absolute path `path`), following a link; a dangling link is
  /// the link itself. Nil with `errno` set when there is nothing.
  static func entity(at path: String, directory: Int32, name: String) -> FileEntity? {
    guard let status = status(directory, name) else { return nil }
    return FileEntity(
      path: path, isFolder: UInt32(status.stx_mode) & typeMask == folderType, details: details(status))
  }

  /// What `statx` says of `name` in `directory`, following a link, or of the link itself when it leads
  /// nowhere; nil with `errno` set when there is nothing.
  private static func status(_ directory: Int32, _ name: String) -> statx? {
    var status = statx()
    if clinux_statx(directory, name, 0, statMask, &status) != 0 {
      let saved = errno
      guard clinux_statx(directory, name, AT_SYMLINK_NOFOLLOW, statMask, &status) == 0 else {
        errno = saved
        return nil
      }
    }
    return status
  }

  /// A listed File's size and dates, read when a step first asks for one: a file that has gone by then
  /// has size 0 and no dates.
  public static func details(at path: String) -> FileDetails {
    status(AT_FDCWD, path).map(details) ?? FileDetails(size: 0, created: nil, modified: nil)
  }

  private static func details(_ status: statx) -> FileDetails {
    let created = status.stx_mask & UInt32(STATX_BTIME) != 0 ? date(status.stx_btime) : nil
    return FileDetails(size: Int(status.stx_size), created: created, modified: date(status.stx_mtime))
  }

  private static func date(_ time: statx_timestamp) -> Date {
    Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
  }

  // MARK: Reading

  public func read(_ path: String, limit: Int) throws -> [UInt8] {
    let absolute = locations.absolute(path)
    let shown = locations.display(absolute)
    // O_NONBLOCK: opening a named pipe would otherwise wait for a writer; the kind is checked on the open
    // descriptor, so nothing swapped in between a check and the open is read.
    let descriptor = open(absolute, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw FileError.system(errno, shown, doing: "read") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw FileError.system(errno, shown, doing: "read") }
    if let kind = Self.specialKind(status.st_mode) {
      throw AppIntentError.failed(
        "'\(shown)' is \(kind), not a regular file",
        help: kind == "a folder" ? "use 'get-folder-contents' to list it" : nil)
    }
    if let kind = ProcessSecrets.kind(of: descriptor) { throw Self.secret(shown, kind) }
    let size = Int(status.st_size)
    if size > limit { throw Self.tooLarge(shown, size: size, limit: limit) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size)
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw FileError.system(errno, shown, doing: "read")
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: buffer[0..<count])
      // The size stat gave is a hint: a file that grows while it is read is counted.
      if bytes.count > limit { throw Self.tooLarge(shown, size: nil, limit: limit) }
    }
  }

  /// `O_PATH` (Glibc's macro does not reach Swift): a descriptor that names a file without opening it,
  /// so that a device is examined without the effects opening one may have.
  static let pathOnly: Int32 = 0o10_000_000

  /// A file in /proc that holds a process's environment: never read around `env:`.
  static func secret(_ shown: String, _ kind: String) -> AppIntentError {
    .failed(
      "'\(shown)' is \(kind), which a workflow does not read",
      help: "list the variable under 'env:' and read it with '${env.NAME}' or 'get-env'")
  }

  static func tooLarge(_ shown: String, size: Int?, limit: Int) -> AppIntentError {
    let measured = size.map { " (\(ByteSize.text($0)))" } ?? ""
    return .failed(
      "'\(shown)' is too large to read\(measured): 'read-file' reads at most \(ByteSize.text(limit))",
      help: "read a part of it with 'run-shell' and 'head' or 'tail', or split it first")
  }

  static func specialKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "a folder"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a named pipe (FIFO)"
    case S_IFSOCK: "a socket"
    default: "an unknown kind of file"
    }
  }

  // MARK: Writing

  public func write(_ bytes: [UInt8], to path: String, ifExists: IfExists, createFolders: Bool) throws -> String {
    var target = locations.absolute(path)
    let folder = Self.parent(of: target)
    try ensureFolder(folder, create: createFolders)
    var existing = stat()
    if lstat(target, &existing) == 0 {
      // Writing through a link writes the file it points to, as an editor does; the link stays.
      if existing.st_mode & S_IFMT == S_IFLNK, let real = realpath(target, nil) {
        target = String(cString: real)
        free(real)
        if stat(target, &existing) != 0 { existing.st_mode = S_IFREG | 0o644 }
      }
      let shown = locations.display(target)
      if existing.st_mode & S_IFMT == S_IFDIR {
        throw AppIntentError.failed("'\(shown)' is a folder", help: "give a file name inside it")
      }
      switch ifExists {
      case .fail:
        throw Self.exists(shown)
      case .append:
        try append(bytes, to: target)
        return target
      case .replace:
        try AtomicWrite.write(bytes, to: target, mode: existing.st_mode & 0o7777, replacing: true, shown: shown)
        return target
      case .keepBoth:
        return try writeNumbered(bytes, from: target)
      }
    }
    do {
      try AtomicWrite.write(
        bytes, to: target, mode: AtomicWrite.newFileMode, replacing: false, shown: locations.display(target))
    } catch AtomicWrite.Exists.exists {
      // Made by someone else since the look above: decided as if it had been there.
      if ifExists == .keepBoth { return try writeNumbered(bytes, from: target) }
      throw Self.exists(locations.display(target))
    }
    return target
  }

  private func writeNumbered(_ bytes: [UInt8], from target: String) throws -> String {
    for number in 2...10_000 {
      let candidate = Self.numbered(target, number)
      do {
        try AtomicWrite.write(
          bytes, to: candidate, mode: AtomicWrite.newFileMode, replacing: false, shown: locations.display(candidate))
        return candidate
      } catch AtomicWrite.Exists.exists {
        continue
      }
    }
    throw AppIntentError.failed("cannot find a free name next to '\(locations.display(target))'")
  }

  /// Adds `bytes` at the end of the file (made when missing), in one `write` with `O_APPEND`, so two
  /// runs appending at once never interleave within a line. A write that stops part-way (a full disk, a
  /// file size limit) is taken back: the file is left as it was, not with half a line the next append
  /// would run on from.
  func append(_ bytes: [UInt8], to target: String) throws {
    let shown = locations.display(target)
    let descriptor = open(target, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o666)
    guard descriptor >= 0 else { throw FileError.system(errno, shown, doing: "write") }
    defer { close(descriptor) }
    // Where this run's bytes begin, once the first write says (with O_APPEND, the end of the file then).
    var start: off_t?
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { Glibc.write(descriptor, $0 + offset, bytes.count - offset) } ?? 0
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        let code = count < 0 ? errno : EIO
        if let start { _ = ftruncate(descriptor, start) }
        throw FileError.system(code, shown, doing: "write")
      }
      if start == nil { start = lseek(descriptor, 0, SEEK_CUR) - off_t(count) }
      offset += count
    }
  }

  public func endsWithNewline(_ path: String) -> Bool {
    let descriptor = open(locations.absolute(path), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return true }
    var last: UInt8 = 0
    guard pread(descriptor, &last, 1, status.st_size - 1) == 1 else { return true }
    return last == UInt8(ascii: "\n")
  }

  static func exists(_ shown: String, appending: Bool = true) -> AppIntentError {
    .failed(
      "'\(shown)' already exists",
      help: appending
        ? "say what to do with 'if-exists: replace', 'if-exists: append' or 'if-exists: keep-both'"
        : "say what to do with 'if-exists: replace' or 'if-exists: keep-both'")
  }

  /// Makes sure `folder` exists (making it and the ones above it when `create`).
  private func ensureFolder(_ folder: String, create: Bool) throws {
    var status = stat()
    if stat(folder, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw AppIntentError.failed("'\(locations.display(folder))' is a file, not a folder")
      }
      return
    }
    guard create else {
      throw AppIntentError.failed(
        "the folder '\(locations.display(folder))' does not exist", help: "add 'create-folders: true' to make it")
    }
    _ = try createFolder(folder, intermediate: true)
  }

  /// "report.txt" → "report 2.txt", "notes" → "notes 2": the numbering Finder and Shortcuts use.
  static func numbered(_ path: String, _ number: Int) -> String {
    let folder = parent(of: path)
    let name = String(path.dropFirst(folder == "/" ? 1 : folder.count + 1))
    let ext = FileKinds.extension(of: name)
    let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
    let numberedName = ext.isEmpty ? "\(stem) \(number)" : "\(stem) \(number).\(ext)"
    return (folder == "/" ? "" : folder) + "/" + numberedName
  }

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }

  static func name(of path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
  }

  public func createFolder(_ path: String, intermediate: Bool) throws -> String {
    let absolute = locations.absolute(path)
    var status = stat()
    if stat(absolute, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw AppIntentError.failed("'\(locations.display(absolute))' is a file, not a folder")
      }
      return absolute
    }
    if intermediate, absolute != "/" {
      _ = try createFolder(Self.parent(of: absolute), intermediate: true)
    }
    if mkdir(absolute, 0o777) != 0, errno != EEXIST {
      throw FileError.system(errno, locations.display(absolute), doing: "create the folder")
    }
    return absolute
  }

  // MARK: Copying and moving

  public func transfer(_ source: String, to destination: String, move: Bool, ifExists: IfExists) throws -> String {
    if ifExists == .append {
      throw AppIntentError.failed(
        "'if-exists: append' is for 'save-file'", help: "use 'replace', 'keep-both' or 'fail' here")
    }
    let from = locations.absolute(source)
    var status = stat()
    guard lstat(from, &status) == 0 else { throw FileError.system(errno, locations.display(from), doing: "read") }
    // The source as it opens (a link followed): a process's environment is not copied out of /proc.
    let opened = open(from, Self.pathOnly | O_CLOEXEC)
    if opened >= 0 {
      defer { close(opened) }
      var target = stat()
      let folder = fstat(opened, &target) == 0 && target.st_mode & S_IFMT == S_IFDIR
      if let kind = ProcessSecrets.kind(of: opened, folders: folder) {
        throw Self.secret(locations.display(from), kind)
      }
    }
    var target = locations.absolute(destination)
    var destinationStatus = stat()
    if stat(target, &destinationStatus) == 0, destinationStatus.st_mode & S_IFMT == S_IFDIR, target != from {
      target = (target == "/" ? "" : target) + "/" + Self.name(of: from)
    }
    if target == from {
      // Into the folder it is in: `keep-both` makes a numbered second one, as a file manager's paste
      // does (`report 2.pdf`); anything else would do nothing, which is not what was asked.
      guard ifExists == .keepBoth else {
        throw AppIntentError.failed(
          "'\(locations.display(target))' is already there",
          help: "give another name or folder in 'to', or 'if-exists: keep-both' to number it")
      }
      var taken = stat()
      target = (2...10_000).lazy.map { Self.numbered(target, $0) }.first { lstat($0, &taken) != 0 } ?? target
    }
    let shown = locations.display(target)
    if status.st_mode & S_IFMT == S_IFDIR, (target + "/").hasPrefix(from + "/") {
      throw AppIntentError.failed("cannot put the folder '\(locations.display(from))' inside itself")
    }
    try ensureFolder(Self.parent(of: target), create: false)
    var existing = stat()
    if lstat(target, &existing) == 0 {
      switch ifExists {
      case .fail: throw Self.exists(shown, appending: false)
      case .append:
        break  // refused above
      case .keepBoth:
        target = (2...10_000).lazy.map { Self.numbered(target, $0) }.first { lstat($0, &existing) != 0 } ?? target
      case .replace:
        if existing.st_mode & S_IFMT == S_IFDIR {
          throw AppIntentError.failed(
            "'\(shown)' is a folder, which is not replaced", help: "move it to the Trash first with 'delete-files'")
        }
      }
    }
    if move {
      if rename(from, target) == 0 { return target }
      guard errno == EXDEV else { throw FileError.system(errno, locations.display(from), doing: "move") }
    }
    // A copy (or a move to another volume) goes to a hidden name in the destination folder first, so the
    // destination never holds half a file.
    let temporary = Self.parent(of: target) + "/.flow-copy-\(getpid())-" + Self.name(of: target)
    do {
      try FileManager.default.copyItem(atPath: from, toPath: temporary)
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw AppIntentError.failed("cannot copy '\(locations.display(from))' to '\(shown)': \(Self.reason(error))")
    }
    guard rename(temporary, target) == 0 else {
      let code = errno
      try? FileManager.default.removeItem(atPath: temporary)
      throw FileError.system(code, shown, doing: "write")
    }
    if move {
      do {
        try FileManager.default.removeItem(atPath: from)
      } catch {
        throw AppIntentError.failed(
          "copied '\(locations.display(from))' to '\(shown)' but cannot remove the original: \(Self.reason(error))")
      }
    }
    return target
  }

  /// The system's words for why a file operation failed: FileManager's errors carry the `errno` they stopped on.
  static func reason(_ error: any Error) -> String {
    if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
      return String(cString: strerror(posix.code.rawValue))
    }
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    return String(describing: error)
  }

  // MARK: Deleting

  public func trash(_ path: String, at date: Date) throws -> String {
    try TrashCan(locations: locations).put(locations.absolute(path), at: date)
  }

  public func delete(_ path: String) throws {
    let absolute = locations.absolute(path)
    var status = stat()
    guard lstat(absolute, &status) == 0 else {
      throw FileError.system(errno, locations.display(absolute), doing: "delete")
    }
    if status.st_mode & S_IFMT == S_IFDIR {
      do {
        try FileManager.default.removeItem(atPath: absolute)
      } catch {
        throw AppIntentError.failed("cannot delete '\(locations.display(absolute))': \(Self.reason(error))")
      }
    } else if unlink(absolute) != 0 {
      throw FileError.system(errno, locations.display(absolute), doing: "delete")
    }
  }
}

/// Sizes as `ls -lh` and file managers say them.
enum ByteSize {
  static func text(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) bytes" }
    let units = ["KB", "MB", "GB", "TB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    let rounded = (value * 10).rounded() / 10
    let number = rounded == rounded.rounded() ? String(Int(rounded)) : PlainText.format("%.1f", rounded)
    return "\(number) \(units[unit])"
  }
}

/// Writing a whole file so that no reader ever sees half of it: to a temporary file in the same folder,
/// flushed, then renamed over the destination (or linked to it, when it must not be replaced).
enum AtomicWrite {
  enum Exists: Error { case exists }

  /// A new file's permissions: 0666 less the umask, as `open(…, O_CREAT, 0666)` would give it (a
  /// temporary file starts at 0600). The umask is read from /proc, since `umask()` can only be read by
  /// setting it, which would race with other threads.
  static let newFileMode: mode_t = {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
    let mask = line.flatMap { mode_t($0.dropFirst(6).trimmingWhitespace(), radix: 8) } ?? 0o022
    return 0o666 & ~mask
  }()

  static func write(_ bytes: [UInt8], to target: String, mode: mode_t, replacing: Bool, shown: String) throws {
    let folder = LocalFiles.parent(of: target)
    var template =
      Array((folder == "/" ? "" : folder).utf8CString.dropLast()) + Array("/.flow-write-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else { throw FileError.system(errno, shown, doing: "write") }
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var published = false
    defer {
      if !published { unlink(temporary) }
    }
    do {
      defer { close(descriptor) }
      try writeAll(bytes, to: descriptor, shown: shown)
      guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
        throw FileError.system(errno, shown, doing: "write")
      }
    }
    if replacing {
      guard rename(temporary, target) == 0 else { throw FileError.system(errno, shown, doing: "write") }
      published = true
    } else {
      // link(2) refuses an existing name, which rename(2) would replace.
      guard link(temporary, target) == 0 else {
        if errno == EEXIST { throw Exists.exists }
        throw FileError.system(errno, shown, doing: "write")
      }
    }
  }

  static func writeAll(_ bytes: [UInt8], to descriptor: Int32, shown: String) throws {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { Glibc.write(descriptor, $0 + offset, bytes.count - offset) } ?? 0
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileError.system(errno, shown, doing: "write")
      }
      offset += count
    }
  }
}

/// The file actions' errors, with the path as messages show it (`~/notes.txt`).
enum FileError {
  /// The error `errno` says, about the path `shown`.
  static func system(_ code: Int32, _ shown: String, doing: String) -> AppIntentError {
    switch code {
    case ENOENT, ENOTDIR: .failed("no file or folder at '\(shown)'")
    case EACCES, EPERM:
      .failed("permission denied: cannot \(doing) '\(shown)'", help: "check its permissions with 'ls -ld'")
    case EROFS: .failed("cannot \(doing) '\(shown)': the file system is read-only")
    case ENOSPC: .failed("cannot \(doing) '\(shown)': no space left on the device")
    case EFBIG: .failed("cannot \(doing) '\(shown)': the file would be larger than this system allows")
    case ELOOP: .failed("cannot \(doing) '\(shown)': too many symbolic links")
    default: .failed("cannot \(doing) '\(shown)': \(String(cString: strerror(code)))")
    }
  }
}
