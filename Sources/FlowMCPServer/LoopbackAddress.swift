import FlowMCP
import FoundationEssentials
import Glibc

/// Where `flow mcp --http` listens: a loopback address and a port, and nothing else. The server has
/// no authentication, so anything that another machine could reach is refused (Documentation/MCP.md).
public struct LoopbackAddress: Sendable, Equatable, CustomStringConvertible {
  /// `127.0.0.1` (any of 127.0.0.0/8) or `::1`.
  public var host: String
  public var isIPv6: Bool
  /// 0 asks the system for a free port.
  public var port: UInt16

  /// Why an `--http` value is not an address flow listens on.
  public struct Problem: Error, Sendable, Equatable {
    public var message: String
    public var help: String?
  }

  static let loopbackHelp =
    "flow mcp has no authentication, so it listens only on a loopback address: 127.0.0.1 (or any 127.x.y.z), [::1] or localhost"

  /// Reads `HOST:PORT`, `[::1]:PORT`, `:PORT` or `PORT` (the last two on 127.0.0.1). Host names other
  /// than `localhost` are refused rather than looked up: what a name resolves to can change.
  public init(parsing text: String) throws(Problem) {
    let hostText: String
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
        throw Problem(message: "'\(text)' is not HOST:PORT", help: "write an IPv6 address as [::1]:PORT")
      }
      hostText = String(text[text.index(after: text.startIndex)..<close])
      portText = text[text.index(close, offsetBy: 2)...]
    } else if let colon = text.lastIndex(of: ":") {
      hostText = String(text[..<colon])
      portText = text[text.index(after: colon)...]
      guard !hostText.contains(":") else {
        throw Problem(message: "'\(text)' is not HOST:PORT", help: "write an IPv6 address as [::1]:PORT")
      }
    } else {
      hostText = ""
      portText = Substring(text)
    }
    guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
      let port = UInt16(portText)
    else {
      throw Problem(
        message: "'\(text)' does not end in a port number (0 to 65535)",
        help: "write HOST:PORT, :PORT or PORT, such as 127.0.0.1:8765; port 0 picks a free one")
    }
    self.port = port
    switch hostText.lowercased() {
    case "", "localhost":
      host = "127.0.0.1"
      isIPv6 = false
    case let literal:
      var v4 = in_addr()
      var v6 = in6_addr()
      if inet_pton(AF_INET, literal, &v4) == 1 {
        // s_addr is in network order: its first byte in memory is the address's first octet.
        guard withUnsafeBytes(of: &v4, { $0[0] }) == 127 else {
          throw Problem(message: "'\(hostText)' is not a loopback address", help: Self.loopbackHelp)
        }
        host = literal
        isIPv6 = false
      } else if inet_pton(AF_INET6, literal, &v6) == 1 {
        let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
        guard withUnsafeBytes(of: &v6, { Array($0) }) == loopback else {
          throw Problem(message: "'\(hostText)' is not a loopback address", help: Self.loopbackHelp)
        }
        host = "::1"
        isIPv6 = true
      } else {
        throw Problem(message: "'\(hostText)' is not a loopback address", help: Self.loopbackHelp)
      }
    }
  }

  /// The host as a URL has it (`[::1]` for IPv6).
  public var urlHost: String { isIPv6 ? "[\(host)]" : host }

  public var description: String { "\(urlHost):\(port)" }

  /// Whether a `Host` header or an `Origin`'s host names this machine's loopback: `localhost`, an
  /// address in 127.0.0.0/8 or `[::1]`, with any port.
  public static func isLoopbackHost(_ authority: String) -> Bool {
    var host = authority.lowercased()
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { return false }
      let rest = host[host.index(after: close)...]
      guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return false }
      host = String(host[host.index(after: host.startIndex)..<close])
      var v6 = in6_addr()
      guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
      return withUnsafeBytes(of: &v6, { Array($0) }) == Array(repeating: 0, count: 15) + [1]
    }
    if let colon = host.lastIndex(of: ":") {
      guard host[host.index(after: colon)...].allSatisfy(\.isNumber) else { return false }
      host = String(host[..<colon])
    }
    if host == "localhost" { return true }
    var v4 = in_addr()
    guard inet_pton(AF_INET, host, &v4) == 1 else { return false }
    return withUnsafeBytes(of: &v4, { $0[0] }) == 127
  }
}
