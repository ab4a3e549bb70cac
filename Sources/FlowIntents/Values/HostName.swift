import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A host as the card names it: the address the system would connect to, written one way. The resolver
/// reads `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` all as 127.0.0.1 (inet_aton's forms), and an
/// IPv6 address has many spellings; a card that showed them as written would let a file name the
/// loopback host, or one host twice, under a name that does not say so.
public enum HostName {
  /// `127.0.0.1` for every IPv4 spelling the resolver accepts, `[::1]` for IPv6 in its shortest form,
  /// and a name in lower case without a trailing dot.
  public static func canonical(_ host: String) -> String {
    var name = host.lowercased()
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name.contains(":") {
      var address = in6_addr()
      guard inet_pton(AF_INET6, name, &address) == 1 else { return host }
      var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
      guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return host }
      return "[" + String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "]"
    }
    if name.hasSuffix(".") { name.removeLast() }
    // Only characters of a numeric form: inet_aton also accepts anything after a space.
    if !name.isEmpty, name.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == "x" }) {
      var address = in_addr()
      if inet_aton(name, &address) != 0 {
        let value = UInt32(bigEndian: address.s_addr)
        return [24, 16, 8, 0].map { String((value >> $0) & 0xFF) }.joined(separator: ".")
      }
    }
    return name
  }
}
