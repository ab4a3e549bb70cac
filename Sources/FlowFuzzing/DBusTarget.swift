import FlowSystem

/// Bytes as the session bus sends them (notifications' replies and signals), read message by message
/// as the D-Bus connection reads them (``DBusStream``).
enum DBusTarget {
  static func run(_ bytes: [UInt8]) {
    let (messages, problem) = DBusStream.read(bytes)
    _ = (messages.count, problem)
  }
}
