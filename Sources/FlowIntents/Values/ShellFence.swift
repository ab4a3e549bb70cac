import FlowModel

/// What a `run-shell` step declares it may touch (its `fence:`), which flow enforces with Landlock:
/// `none`, or `{read: [paths], write: [paths], network: true|false}`. Documentation/Shell.md.
///
/// A value type of the vocabulary, so that the checker converts the literal at validate (a diagnostic at
/// its place), the intent reads it at run time, and the card reads the same declaration.
public enum ShellFence: IntentValueConvertible, Hashable {
  /// `fence: none`: the step may do anything the account can.
  case unfenced
  case limited(Limits)

  /// What a fenced step may do; everything else is refused by the kernel.
  public struct Limits: Sendable, Hashable {
    /// Paths it may read beneath, as written (`~` unexpanded); the system's own folders are always readable.
    public var read: [String]
    /// Paths it may write, create and delete beneath (and read).
    public var write: [String]
    /// Whether it may make TCP connections (and listen).
    public var network: Bool

    public init(read: [String] = [], write: [String] = [], network: Bool = false) {
      self.read = read
      self.write = write
      self.network = network
    }

    /// What a step of a shared file gets when it declares no fence: it may read what the account can,
    /// write nothing, and connect nowhere.
    public static let readOnly = Limits(read: ["/"], write: [], network: false)

    /// The limits in words, the same on the card and in a fenced step's failure: "may read ~/notes and
    /// the system's folders, write only in ~/backup, and make no network connection".
    public var words: String {
      let reads: String
      if read.contains("/") {
        reads = "may read any file"
      } else if read.isEmpty {
        reads = "may read only the system's folders"
      } else {
        reads = "may read " + read.joined(separator: ", ") + " and the system's folders"
      }
      let writes = write.isEmpty ? "write nothing" : "write only in " + write.joined(separator: ", ")
      let connects = network ? "connect to any host" : "make no network connection"
      return "\(reads), \(writes), and \(connects)"
    }
  }

  /// The word that lifts the fence.
  public static let unfencedWord = "none"
  /// The keys of a fence's mapping, in the order the docs give them.
  public static let keys = ["read", "write", "network"]

  public static var valueType: ValueType { .any }

  public init(flowValue: FlowValue) throws(CoercionError) {
    switch flowValue {
    case .text(Self.unfencedWord):
      self = .unfenced
    case .dictionary(let entries):
      var limits = Limits()
      for (key, value) in entries {
        switch key {
        case "read": limits.read = try Self.paths(value, key: key)
        case "write": limits.write = try Self.paths(value, key: key)
        case "network":
          guard case .boolean(let allowed) = value else {
            throw CoercionError(
              message: "'network' in a fence is true or false, not \(Self.describe(value))",
              help: "write 'network: true' to let the step make TCP connections")
          }
          limits.network = allowed
        default:
          throw CoercionError(
            message: "a fence has no '\(key)'", help: "a fence takes 'read', 'write' and 'network'")
        }
      }
      self = .limited(limits)
    default:
      throw CoercionError(
        message: "a fence is 'none' or a mapping of 'read', 'write' and 'network', not \(Self.describe(flowValue))",
        help: "write 'fence: {read: [~/notes], write: [~/backup], network: false}', or 'fence: none'")
    }
  }

  public var flowValue: FlowValue {
    switch self {
    case .unfenced: .text(Self.unfencedWord)
    case .limited(let limits):
      .dictionary([
        "read": .list(limits.read.map(FlowValue.text)), "write": .list(limits.write.map(FlowValue.text)),
        "network": .boolean(limits.network),
      ])
    }
  }

  /// A path or a list of them, each absolute or under `~`: a fence relative to wherever flow happens to
  /// run would mean something else in every folder.
  private static func paths(_ value: FlowValue, key: String) throws(CoercionError) -> [String] {
    let items: [FlowValue] =
      if case .list(let items) = value { items } else { [value] }
    var paths: [String] = []
    for item in items {
      if item == .nothing {
        throw CoercionError(
          message: "'\(key)' in a fence holds paths, not null (a ~ on its own is YAML's null)",
          help: "write '~/' or \"~\" for the home folder")
      }
      guard case .text(let path) = item else {
        throw CoercionError(message: "'\(key)' in a fence holds paths, not \(describe(item))")
      }
      guard path.hasPrefix("/") || path == "~" || path.hasPrefix("~/") else {
        throw CoercionError(
          message: "'\(key)' in a fence needs absolute paths or paths under ~, not '\(path)'",
          help: "write '~/\(path)' or the full path")
      }
      paths.append(path)
    }
    return paths
  }

  private static func describe(_ value: FlowValue) -> String {
    switch value {
    case .text(let text): "'\(text)'"
    case .list: "a list"
    case .dictionary: "a mapping"
    case .boolean(let flag): "\(flag)"
    case .number(let number): "\(number)"
    default: "that value"
    }
  }
}
