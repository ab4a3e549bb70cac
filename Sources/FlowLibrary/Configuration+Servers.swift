import FlowDiagnostics
import FlowIntents
import FlowYAML
import FoundationEssentials

/// One MCP server configured in `config.yml` under `servers:` (Documentation/MCP.md): the name a workflow
/// writes before a tool (`time.get_current_time`) and what that name starts on this machine.
///
/// ```yaml
/// servers:
///   time:
///     command: uvx
///     args: [mcp-server-time, --local-timezone=UTC]
///     env: {TZ: UTC}
///   docs:
///     url: https://example.com/mcp
///     header-env: {Authorization: DOCS_TOKEN}
/// ```
///
/// Only this file says what a name starts: a shared workflow names servers and never commands.
public struct ServerConfiguration: Sendable, Hashable {
  public enum Transport: Sendable, Hashable {
    /// A program started as a child process, speaking on its stdin and stdout.
    case stdio(command: String, arguments: [String], environment: [String: String])
    /// Streamable HTTP at `url`; each header's value is read from the named environment variable at run time,
    /// so tokens never sit in config.yml.
    case http(url: String, headerEnvironment: [String: String])
  }

  public var name: String
  public var transport: Transport

  public init(name: String, transport: Transport) {
    self.name = name
    self.transport = transport
  }

  /// The command as one line, for the card and `flow servers list`: `uvx mcp-server-time`.
  public var commandLine: String {
    switch transport {
    case .stdio(let command, let arguments, _):
      ([command] + arguments).map(Self.shellQuoted).joined(separator: " ")
    case .http(let url, _): url
    }
  }

  /// The hosts a call to this server contacts: an HTTP server's host (what the card and `flow show` list
  /// among the hosts a workflow contacts); none for a local process, whose own effects are the tool's.
  public var contactedHosts: [String] {
    guard case .http(let url, _) = transport, let host = URL(string: url)?.host, !host.isEmpty else { return [] }
    return [host]
  }

  static func shellQuoted(_ word: String) -> String {
    let plain = { (byte: UInt8) in PlainText.isAlphanumeric(byte) || "-_./=:,@+%".utf8.contains(byte) }
    if !word.isEmpty, word.utf8.allSatisfy(plain) { return word }
    return "'" + word.replacingEvery("'", with: "'\\''") + "'"
  }

  /// Server names: what may stand before the dot of an action id. Lower-case letters, digits and dashes,
  /// starting with a letter, so that `NAME.TOOL` is never ambiguous and never a path.
  public static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.count <= 64 else { return false }
    return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
  }

  /// Names a server may not take: the catalogues flow ships.
  public static let reservedNames: Set<String> = ["raindrop", "flow"]
}

extension Configuration {
  /// `servers:`: a mapping from name to `command`/`args`/`env` or `url`/`header-env`.
  static func servers(_ node: YAMLNode) throws(Diagnostic) -> [ServerConfiguration] {
    guard let mapping = node.mapping else {
      throw Diagnostic(.error, .wrongKind, "expected a mapping of servers, found \(node.kindName)", at: node.span)
        .help("add servers with 'flow servers add NAME -- COMMAND'")
    }
    var servers: [ServerConfiguration] = []
    for entry in mapping.entries {
      let name = entry.key.value
      guard ServerConfiguration.isValidName(name) else {
        throw Diagnostic(.error, .invalidValue, "'\(name)' is not a server name", at: entry.key.span)
          .help("a server name is lower-case letters, digits and '-', starting with a letter")
      }
      guard let fields = entry.value.mapping else {
        throw Diagnostic(
          .error, .wrongKind, "expected 'command' or 'url' for server '\(name)', found \(entry.value.kindName)",
          at: entry.value.span)
      }
      for field in fields.entries where !serverKeys.contains(field.key.value) {
        throw unknownKey(
          field.key, "server setting", among: serverKeys,
          otherwise: "a server has 'command', 'args' and 'env', or 'url' and 'header-env'")
      }
      if let command = fields["command"] {
        servers.append(
          ServerConfiguration(
            name: name,
            transport: .stdio(
              command: try text(command.value, "command"),
              arguments: try fields["args"].map { entry throws(Diagnostic) in try texts(entry.value, "args") } ?? [],
              environment: try fields["env"].map { entry throws(Diagnostic) in try textMap(entry.value, "env") } ?? [:])
          ))
      } else if let url = fields["url"] {
        servers.append(
          ServerConfiguration(
            name: name,
            transport: .http(
              url: try text(url.value, "url"),
              headerEnvironment: try fields["header-env"].map { entry throws(Diagnostic) in
                try textMap(entry.value, "header-env")
              } ?? [:])))
      } else {
        throw Diagnostic(.error, .missingKey, "server '\(name)' needs 'command' or 'url'", at: entry.key.span)
      }
    }
    return servers
  }

  private static let serverKeys = ["command", "args", "env", "url", "header-env"]

  private static func text(_ node: YAMLNode, _ key: String) throws(Diagnostic) -> String {
    guard let scalar = node.scalar, !scalar.value.isEmpty else {
      throw Diagnostic(.error, .wrongKind, "expected text for '\(key)', found \(node.kindName)", at: node.span)
    }
    return scalar.value
  }

  private static func texts(_ node: YAMLNode, _ key: String) throws(Diagnostic) -> [String] {
    guard let sequence = node.sequence else {
      throw Diagnostic(.error, .wrongKind, "expected a list for '\(key)', found \(node.kindName)", at: node.span)
    }
    var items: [String] = []
    for item in sequence.items {
      guard let scalar = item.scalar else {
        throw Diagnostic(.error, .wrongKind, "expected text in '\(key)', found \(item.kindName)", at: item.span)
      }
      items.append(scalar.value)
    }
    return items
  }

  private static func textMap(_ node: YAMLNode, _ key: String) throws(Diagnostic) -> [String: String] {
    guard let mapping = node.mapping else {
      throw Diagnostic(.error, .wrongKind, "expected a mapping for '\(key)', found \(node.kindName)", at: node.span)
    }
    var values: [String: String] = [:]
    for entry in mapping.entries {
      guard let scalar = entry.value.scalar else {
        throw Diagnostic(
          .error, .wrongKind, "expected text for '\(entry.key.value)', found \(entry.value.kindName)",
          at: entry.value.span)
      }
      values[entry.key.value] = scalar.value
    }
    return values
  }

  /// `text` (config.yml as it is, or empty) with its `servers:` block replaced by `servers`, everything else
  /// — comments, other settings, their order — kept as written. A block with no servers is removed.
  public static func replacingServers(in text: String, with servers: [ServerConfiguration]) -> String {
    var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    var block: [String] = []
    if !servers.isEmpty {
      block.append("servers:")
      for server in servers {
        block.append("  \(server.name):")
        switch server.transport {
        case .stdio(let command, let arguments, let environment):
          block.append("    command: \(quoted(command))")
          if !arguments.isEmpty { block.append("    args: [\(arguments.map(quoted).joined(separator: ", "))]") }
          if !environment.isEmpty {
            block.append("    env:")
            for (key, value) in environment.sorted(by: { $0.key < $1.key }) {
              block.append("      \(quoted(key)): \(quoted(value))")
            }
          }
        case .http(let url, let headers):
          block.append("    url: \(quoted(url))")
          if !headers.isEmpty {
            block.append("    header-env:")
            for (key, value) in headers.sorted(by: { $0.key < $1.key }) {
              block.append("      \(quoted(key)): \(quoted(value))")
            }
          }
        }
      }
    }
    if let start = lines.firstIndex(where: { $0.hasPrefix("servers:") }) {
      var end = start + 1
      // The block runs while lines are indented, blank or comments; the next top-level key ends it.
      while end < lines.count, lines[end].isEmpty || lines[end].hasPrefix(" ") || lines[end].hasPrefix("#") {
        end += 1
      }
      // Blank lines and comments after the last server belong to what follows.
      while end > start + 1,
        lines[end - 1].trimmingWhitespace().isEmpty || lines[end - 1].hasPrefix("#")
      {
        end -= 1
      }
      lines.replaceSubrange(start..<end, with: block)
    } else {
      lines += block
    }
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  /// A YAML double-quoted scalar; JSON's escapes are YAML's.
  private static func quoted(_ text: String) -> String { JSON.encode(.text(text)) }
}
