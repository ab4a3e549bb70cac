/// The application id in the name of a systemd unit a launcher started an application in, as
/// systemd.io/DESKTOP_ENVIRONMENTS names them: `app[-<launcher>]-<app id>-<random>.scope`, or
/// `app[-<launcher>]-<app id>[@<random>].service`. The id is escaped as systemd escapes unit names (a `-`
/// in it is `\x2d`), so the dashes left split the launcher, the id and the random part.
public enum AppScopeName {
  /// The application id, or nil when `unit` is not an application's unit.
  public static func appID(_ unit: String) -> String? {
    guard unit.hasPrefix("app-") else { return nil }
    var rest = Substring(unit.dropFirst(4))
    if rest.hasSuffix(".scope") {
      rest = rest.dropLast(6)
      // The random part is required for a scope.
      guard let dash = rest.lastIndex(of: "-") else { return nil }
      rest = rest[..<dash]
    } else if rest.hasSuffix(".service") {
      rest = rest.dropLast(8)
      if let at = rest.firstIndex(of: "@") { rest = rest[..<at] }
    } else {
      return nil
    }
    // What is left is `<launcher>-<app id>` or `<app id>`.
    if let dash = rest.firstIndex(of: "-") { rest = rest[rest.index(after: dash)...] }
    let id = unescape(rest)
    return id.isEmpty ? nil : id
  }

  /// systemd's unit name escaping undone: `\xNN` is the byte NN.
  static func unescape(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.first {
      if byte == UInt8(ascii: "\\"), utf8.count >= 4, utf8.dropFirst().first == UInt8(ascii: "x"),
        let value = UInt8(String(decoding: utf8.dropFirst(2).prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(4)
      } else {
        bytes.append(byte)
        utf8 = utf8.dropFirst()
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
