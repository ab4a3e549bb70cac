import FoundationEssentials
import Glibc

/// One `struct inotify_event` as the kernel writes it to an inotify descriptor: the watch descriptor, the
/// mask, the cookie that pairs a rename's two halves, and the name inside the watched folder (empty for
/// an event on the folder itself, and for `IN_Q_OVERFLOW`, whose watch descriptor is -1).
///
/// Parsing is a function over bytes so that tests can hand ``FileTriggerWatcher`` records the kernel
/// could send but will not on demand, `IN_Q_OVERFLOW` above all (``bytes`` writes the same layout).
struct InotifyRecord: Sendable, Hashable {
  var descriptor: Int32
  var mask: UInt32
  var cookie: UInt32 = 0
  var name: String = ""

  /// The fixed part: wd, mask, cookie and len, each 4 bytes.
  static let headerSize = MemoryLayout<inotify_event>.size

  /// The records in what one `read(2)` returned; a record cut short (which the kernel never writes) ends it.
  static func parse(_ buffer: UnsafeRawBufferPointer) -> [InotifyRecord] {
    var records: [InotifyRecord] = []
    var offset = 0
    while offset + headerSize <= buffer.count {
      let event = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
      let end = offset + headerSize + Int(event.len)
      guard end <= buffer.count else { break }
      // The name is NUL-terminated and padded with NULs to the record's length.
      let name = buffer[(offset + headerSize)..<end].prefix { $0 != 0 }
      records.append(
        InotifyRecord(
          descriptor: event.wd, mask: event.mask, cookie: event.cookie, name: String(decoding: name, as: UTF8.self)))
      offset = end
    }
    return records
  }

  static func parse(_ bytes: [UInt8]) -> [InotifyRecord] {
    bytes.withUnsafeBytes { parse($0) }
  }

  /// The record in the kernel's layout, its name padded with NULs to a multiple of 16 bytes as the kernel
  /// pads it.
  var bytes: [UInt8] {
    var length = 0
    if !name.isEmpty { length = (name.utf8.count + 1 + 15) / 16 * 16 }
    var event = inotify_event()
    event.wd = descriptor
    event.mask = mask
    event.cookie = cookie
    event.len = UInt32(length)
    var result = withUnsafeBytes(of: &event) { Array($0.prefix(Self.headerSize)) }
    result += Array(name.utf8)
    result += [UInt8](repeating: 0, count: length - name.utf8.count)
    return result
  }
}
