import FlowDiagnostics
import FoundationEssentials

/// How a link's domain is derived and how two links are found to be "the same".
public enum LinkNormalizer {
  /// The host without a leading `www.`, lower-cased: `https://www.Google.com/` → `google.com` (reference §3.3).
  public static func domain(of link: String) -> String {
    guard let host = URLComponents(string: link)?.host?.lowercased(), !host.isEmpty else { return "" }
    return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
  }

  /// The form links are compared in by the exists check: no scheme, no `www.`, lower-case host, no fragment,
  /// no trailing slash. Raindrop's duplicate finder ignores the same things (reference §3.7).
  public static func comparable(_ link: String) -> String {
    let trimmed = link.trimmingWhitespaceAndNewlines()
    guard var components = URLComponents(string: trimmed), let host = components.host, !host.isEmpty else {
      return trimmed.lowercased()
    }
    components.fragment = nil
    let lowered = host.lowercased()
    let bareHost = lowered.hasPrefix("www.") ? String(lowered.dropFirst(4)) : lowered
    var path = components.percentEncodedPath
    while path.hasSuffix("/") { path.removeLast() }
    let port = components.port.map { ":\($0)" } ?? ""
    let query = components.percentEncodedQuery.map { "?\($0)" } ?? ""
    return bareHost + port + path + query
  }
}
