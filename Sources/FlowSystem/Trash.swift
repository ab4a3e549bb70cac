import FlowBasics
import FlowDiagnostics
import FlowIntents
import FoundationEssentials
import Glibc

/// The Trash of the freedesktop.org Trash specification 1.0, which desktops (GNOME Files, Dolphin) and
/// `trash-cli` share: `delete-files` puts files there so that they can be listed and restored.
///
/// A file on the home's volume goes to `$XDG_DATA_HOME/Trash`; a file on another volume goes to that
/// volume's `$topdir/.Trash/$UID` when an administrator made `$topdir/.Trash` (a real folder with the
/// sticky bit), otherwise to `$topdir/.Trash-$UID`, since moving it home would copy it across volumes.
/// Each trashed file gets `info/NAME.trashinfo` with its original path and the time, made first with
/// `O_EXCL` so that two programs trashing the same name at once cannot take the same slot; the optional
/// `directorysizes` cache is not written (readers must do without it).
struct TrashCan {
  let locations: FileLocations

  func put(_ path: String, at date: Date) throws -> String {
    let shown = locations.display(path)
    var status = stat()
    guard lstat(path, &status) == 0 else { throw FileError.system(errno, shown, doing: "move to the Trash") }
    if path == "/" || path == locations.home {
      throw AppIntentError.failed("'\(shown)' is not moved to the Trash")
    }
    let home = locations.dataHome + "/Trash"
    let (trash, topdir) = try self.trash(for: path, device: status.st_dev, home: home, shown: shown)
    try makePrivateFolder(trash + "/files", shown: shown)
    try makePrivateFolder(trash + "/info", shown: shown)
    // Home Trash entries name the absolute path; a volume's, the path below its top folder (the spec
    // allows both; relative ones survive the volume being mounted elsewhere).
    let recorded = topdir.map { String(path.dropFirst($0 == "/" ? 1 : $0.count + 1)) } ?? path
    let info = "[Trash Info]\nPath=\(Self.escape(recorded))\nDeletionDate=\(Self.deletionDate(date))\n"
    let name = LocalFiles.name(of: path)
    for number in 1...10_000 {
      let slot = number == 1 ? name : Self.numbered(name, number)
      let infoPath = trash + "/info/" + slot + ".trashinfo"
      let descriptor = open(infoPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0o600)
      if descriptor < 0 {
        if errno == EEXIST { continue }
        throw FileError.system(errno, locations.display(trash), doing: "write to the Trash")
      }
      do {
        defer { close(descriptor) }
        try AtomicWrite.writeAll(Array(info.utf8), to: descriptor, shown: locations.display(infoPath))
      } catch {
        unlink(infoPath)
        throw error
      }
      let filesPath = trash + "/files/" + slot
      var taken = stat()
      if lstat(filesPath, &taken) == 0 {
        // A file without its info (left by a crash): the slot is not free after all.
        unlink(infoPath)
        continue
      }
      guard rename(path, filesPath) == 0 else {
        let code = errno
        unlink(infoPath)
        throw FileError.system(code, shown, doing: "move to the Trash")
      }
      return filesPath
    }
    throw AppIntentError.failed("cannot find a free name in the Trash for '\(shown)'")
  }

  /// The Trash folder for a file on device `device`, and the volume's top folder when it is not the home
  /// Trash.
  private func trash(for path: String, device: dev_t, home: String, shown: String) throws -> (String, String?) {
    if device == deviceOfHomeTrash(home) { return (home, nil) }
    let topdir = mountPoint(of: path, device: device)
    let uid = locations.userID
    var shared = stat()
    let administered = topdir == "/" ? "/.Trash" : topdir + "/.Trash"
    if lstat(administered, &shared) == 0, shared.st_mode & S_IFMT == S_IFDIR, shared.st_mode & S_ISVTX != 0 {
      let own = administered + "/\(uid)"
      if (try? makePrivateFolder(own, shown: shown)) != nil { return (own, topdir) }
    }
    let own = (topdir == "/" ? "" : topdir) + "/.Trash-\(uid)"
    do {
      try makePrivateFolder(own, shown: shown)
    } catch {
      throw AppIntentError.failed(
        "cannot move '\(shown)' to the Trash: its volume (\(topdir)) has no Trash this user can write",
        help: "delete it for good with 'permanently: true'")
    }
    return (own, topdir)
  }

  /// The device of the home Trash: of the nearest folder that exists on the way to it.
  private func deviceOfHomeTrash(_ home: String) -> dev_t? {
    var path = home
    var status = stat()
    while stat(path, &status) != 0 {
      if path == "/" { return nil }
      path = LocalFiles.parent(of: path)
    }
    return status.st_dev
  }

  /// The top folder of the volume `path` is on: the last folder above it on the same device.
  private func mountPoint(of path: String, device: dev_t) -> String {
    var top = LocalFiles.parent(of: path)
    var status = stat()
    while top != "/" {
      let above = LocalFiles.parent(of: top)
      guard stat(above, &status) == 0, status.st_dev == device else { break }
      top = above
    }
    return top
  }

  /// A folder only its owner can enter, made when missing; a link in its place is refused.
  private func makePrivateFolder(_ path: String, shown: String) throws {
    var status = stat()
    if lstat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == locations.userID else {
        throw AppIntentError.failed("'\(locations.display(path))' is not a Trash folder of this user")
      }
      return
    }
    if path != "/" { try makePrivateFolder(LocalFiles.parent(of: path), shownIfParent: shown) }
    if mkdir(path, 0o700) != 0, errno != EEXIST {
      throw FileError.system(errno, locations.display(path), doing: "make the Trash folder")
    }
  }

  /// The folders above a Trash folder need only exist (`~/.local/share` is the user's, a volume's top
  /// folder is not).
  private func makePrivateFolder(_ path: String, shownIfParent shown: String) throws {
    var status = stat()
    if stat(path, &status) == 0 { return }
    try makePrivateFolder(LocalFiles.parent(of: path), shownIfParent: shown)
    if mkdir(path, 0o700) != 0, errno != EEXIST {
      throw FileError.system(errno, locations.display(path), doing: "make the Trash folder")
    }
  }

  /// "report.pdf" → "report.2.pdf": a free slot that keeps the extension, so a file manager still shows
  /// the right icon.
  static func numbered(_ name: String, _ number: Int) -> String {
    let ext = FileKinds.extension(of: name)
    return ext.isEmpty ? "\(name).\(number)" : "\(name.dropLast(ext.count + 1)).\(number).\(ext)"
  }

  /// The path as the specification writes it: URL-escaped (RFC 2396), slashes kept.
  static func escape(_ path: String) -> String {
    path.addingPercentEscapes(keeping: { PlainText.isAlphanumeric($0) || "-_.!~*'()/".utf8.contains($0) })
  }

  /// `YYYY-MM-DDThh:mm:ss` in local time, as the specification says.
  static func deletionDate(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone.current
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return PlainText.format(
      "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
      parts.minute ?? 0, parts.second ?? 0)
  }
}
