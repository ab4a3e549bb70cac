/// A size as a person reads it: "512 bytes", "4 MiB", "19.1 MiB".
public struct ByteCount: CustomStringConvertible, Sendable {
  public var bytes: Int

  public init(_ bytes: Int) { self.bytes = bytes }

  public var description: String {
    let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
    for (size, unit) in units where bytes >= size {
      let tenths = (bytes * 10 + size / 2) / size
      return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}
