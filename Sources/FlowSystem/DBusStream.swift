/// Bytes as the bus sends them, read message by message the way ``DBusConnection`` reads them, without a
/// bus: for what looks at the wire from outside this module (the fuzzing harness, `flow-fuzz dbus`).
public enum DBusStream {
  /// One message as read: its kind, the header fields flow looks at, and its body's values.
  public struct Summary: Sendable, Hashable {
    public var kind: String
    public var member: String?
    public var interface: String?
    public var errorName: String?
    public var replySerial: UInt32?
    public var body: [String]
  }

  /// The whole messages at the start of `bytes`, in order, and why reading stopped before the end
  /// (nil when the bytes ended with a message or with part of one still to come).
  public static func read(_ bytes: [UInt8]) -> (messages: [Summary], problem: String?) {
    var buffer = bytes
    var messages: [Summary] = []
    do {
      while let message = try DBusMessage.next(from: &buffer) {
        messages.append(
          Summary(
            kind: "\(message.kind)", member: message.member, interface: message.interface,
            errorName: message.errorName, replySerial: message.replySerial,
            body: message.body.map { "\($0.signature) \($0.string ?? "")" }))
      }
      return (messages, nil)
    } catch {
      return (messages, "\(error)")
    }
  }
}
