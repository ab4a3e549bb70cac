import FoundationEssentials
import Glibc
import Synchronization

/// What a run may do: everything its permission card shows, as data that the layers which act — files,
/// the Trash, commands, HTTP, the desktop, MCP servers — check each effect against where it happens
/// (issue 28). The card's analysis derives it (FlowPresentation's `Capabilities.contract`) and can only
/// say more than a run does; whatever it missed, the run refuses, failing the step with "… not on the
/// card" rather than acting.
///
/// Paths are kept as the steps write them (`~/Downloads/*.tmp`, `notes.md`) and resolved against the
/// run's home and working directory when checked. A path covers what is inside it, and a glob what it
/// matches and what is inside that: `delete-files: ${listing}` after `get-folder-contents: ~/Downloads`
/// is on the card as `~/Downloads`.
public struct CapabilitySet: Sendable, Hashable, Codable {
  /// What an effect may act on: anything, or what these name (paths, hosts, servers, commands).
  public enum Scope<Name: Hashable & Sendable & Codable & Comparable>: Sendable, Hashable, Codable {
    case any
    case only(Set<Name>)

    public static var nothing: Scope { .only([]) }

    public mutating func insert(_ name: Name) {
      if case .only(var names) = self {
        names.insert(name)
        self = .only(names)
      }
    }

    public var isNothing: Bool { self == .nothing }

    /// Whether `name` is named, compared as `same` says.
    func contains(where same: (Name) -> Bool) -> Bool {
      switch self {
      case .any: true
      case .only(let names): names.contains(where: same)
      }
    }

    /// What this names that `other` does not, in order; nil when nothing, `.any` when `other` is
    /// narrower than any.
    func excess(over other: Scope) -> Scope? {
      switch (self, other) {
      case (_, .any): nil
      case (.any, .only): .any
      case (.only(let a), .only(let b)): a.isSubset(of: b) ? nil : .only(a.subtracting(b))
      }
    }

    func isSubset(of other: Scope) -> Bool { excess(over: other) == nil }

    /// `"any"`, or the names in order: what a provenance record keeps.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let word = try? container.decode(String.self), word == "any" {
        self = .any
      } else {
        self = .only(Set(try container.decode([Name].self)))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .any: try container.encode("any")
      case .only(let names): try container.encode(names.sorted())
      }
    }
  }

  /// A command a step may run, as it writes it.
  public struct Command: Sendable, Hashable, Codable, Comparable {
    /// The program: `command:`'s first word, or the interpreter of a `script:`.
    public var program: String
    /// The words after it (`command:`), which a run may follow with the step's input as arguments.
    public var arguments: [String]
    /// The script the interpreter runs, for `script:`.
    public var script: String?

    public init(program: String, arguments: [String] = [], script: String? = nil) {
      self.program = program
      self.arguments = arguments
      self.script = script
    }

    public static func < (a: Command, b: Command) -> Bool {
      (a.program, a.arguments.joined(separator: " "), a.script ?? "")
        < (b.program, b.arguments.joined(separator: " "), b.script ?? "")
    }
  }

  /// Anything at all: a workflow chosen at run time, which nothing before the run can look into.
  public var everything = false
  /// What each file effect may act on, by kind: reads, writes, replaces, trashes and deletes.
  public var files: [MachineAccess.Kind: Scope<String>] = [:]
  /// The commands it may run: `.any` when a step computes one.
  public var commands: Scope<Command> = .nothing
  /// The hosts it may contact (a `mailto:` URL's recipients as `mailto:…`).
  public var hosts: Scope<String> = .nothing
  /// URLs written out in full: a request to exactly one of these sends nothing the run computed.
  public var urls: Set<String> = []
  /// The hosts it may send data to: in a URL the run computes, a body or headers.
  public var sends: Scope<String> = .nothing
  /// Clipboard, notifications, device details.
  public var desktop: Set<MachineAccess.Kind> = []
  /// The MCP servers whose tools its steps call.
  public var servers: Scope<String> = .nothing
  /// The secrets it reads from the keyring (`secrets:`), by name.
  public var secrets: Set<String> = []

  public init() {}

  /// Everything: what a run that the card cannot describe is held to.
  public static var unlimited: CapabilitySet {
    var set = CapabilitySet()
    set.everything = true
    return set
  }

  // MARK: - Checking

  /// The error a refused effect fails its step with: what was refused, and "not on the card".
  public static func refusal(_ effect: String) -> AppIntentError {
    AppIntentError(
      .notOnTheCard, "\(effect): not on the card",
      help:
        "a run does only what its permission card shows ('flow show' lists it); this is a gap in flow's analysis, please report it"
    )
  }

  /// Whether `kind` may act on the absolute `path`; `resolve` makes a written path absolute.
  public func allows(_ kind: MachineAccess.Kind, path: String, resolve: (String) -> String) -> Bool {
    if everything { return true }
    // A stronger effect on the same file covers a weaker one: deleting for good covers the Trash,
    // replacing covers writing.
    let covering: [MachineAccess.Kind] =
      switch kind {
      case .trashesFiles: [.trashesFiles, .deletesFiles]
      case .writesFiles: [.writesFiles, .replacesFiles]
      default: [kind]
      }
    return covering.contains { covering in
      files[covering]?.contains { Self.covers(resolve($0), path) } ?? false
    }
  }

  /// Whether the absolute `pattern` (a path or a glob) names `path` or a folder it is in.
  static func covers(_ pattern: String, _ path: String) -> Bool {
    var candidate = Substring(path)
    let literal = !pattern.contains(where: { "*?[".contains($0) })
    while !candidate.isEmpty {
      if literal ? candidate == pattern : fnmatch(pattern, String(candidate), FNM_PATHNAME) == 0 { return true }
      guard let slash = candidate.lastIndex(of: "/") else { break }
      candidate = candidate[..<slash]
    }
    return pattern == "/"
  }

  /// Whether a command may run: `program` and `arguments` as the run starts it, and the script it hands
  /// the program. `expand` expands `~` as the step does.
  public func allows(
    program: String, arguments: [String], script: String?, expand: (String) -> String
  ) -> Bool {
    if everything { return true }
    guard case .only(let commands) = commands else { return true }
    return commands.contains { command in
      guard expand(command.program) == program else { return false }
      if let written = command.script { return written == script }
      let words = command.arguments.map(expand)
      return script == nil && arguments.count >= words.count && Array(arguments.prefix(words.count)) == words
    }
  }

  /// Whether a request may go to `url`, and whether it may carry data (a body, headers).
  public func allows(url: URL, carriesData: Bool) -> Bool {
    if everything || hosts == .any { return true }
    guard let host = NetworkAccess.destination(of: url) else { return false }
    guard hosts.contains(where: { $0 == host }) else { return false }
    if carriesData || !urls.contains(url.absoluteString) { return sends.contains { $0 == host } }
    return true
  }

  /// Whether the desktop may be used so: clipboard, notifications, device details.
  public func allows(_ kind: MachineAccess.Kind) -> Bool { everything || desktop.contains(kind) }

  /// Whether a tool of the MCP server `name` may be called.
  public func allowsServer(_ name: String) -> Bool { everything || servers.contains { $0 == name } }

  // MARK: - Comparing

  /// What this set allows that `other` does not, in words, for the question a run asks when its
  /// workflow now needs more than the card approved at import: "deletes files for good: ~/x".
  public func excess(over other: CapabilitySet) -> [String] {
    if other.everything { return [] }
    if everything { return ["anything at all: it runs a workflow chosen at run time"] }
    func extra(_ mine: Scope<String>, _ theirs: Scope<String>) -> [String]? {
      switch mine.excess(over: theirs) {
      case nil: nil
      case .any?: ["any"]
      case .only(let names)?: names.sorted()
      }
    }
    var words: [String] = []
    for kind in MachineAccess.Kind.allCases {
      guard let scope = files[kind], let names = extra(scope, other.files[kind] ?? .nothing) else { continue }
      words.append("\(kind.words.acting) \(names.joined(separator: ", "))")
    }
    switch commands.excess(over: other.commands) {
    case nil: break
    case .any?: words.append("runs any command")
    case .only(let extra)?:
      for command in extra.sorted() {
        words.append(
          "runs \(([command.program] + command.arguments).joined(separator: " "))"
            + (command.script.map { " with the script \($0)" } ?? ""))
      }
    }
    if let names = extra(hosts, other.hosts) { words.append("contacts \(names.joined(separator: ", "))") }
    if let names = extra(sends, other.sends) { words.append("sends data to \(names.joined(separator: ", "))") }
    for kind in desktop.subtracting(other.desktop).sorted(by: { $0.rawValue < $1.rawValue }) {
      words.append(kind.words.card)
    }
    if let names = extra(servers, other.servers) { words.append("calls tools of \(names.joined(separator: ", "))") }
    for name in secrets.subtracting(other.secrets).sorted() { words.append("reads your secret \(name)") }
    return words
  }

  /// Whether a run held to this set can do nothing `other` does not allow: what an imported workflow's
  /// approved card is compared with before it runs again.
  public func isSubset(of other: CapabilitySet) -> Bool {
    if other.everything { return true }
    if everything { return false }
    for (kind, scope) in files where !scope.isSubset(of: other.files[kind] ?? .nothing) { return false }
    // A URL written out in full here is within `other` when it is there too, or may be anything there.
    let urlsFit = urls.allSatisfy { url in
      other.urls.contains(url)
        || URL(string: url).flatMap(NetworkAccess.destination).map { host in other.sends.contains { $0 == host } }
          ?? false
    }
    return commands.isSubset(of: other.commands) && urlsFit && hosts.isSubset(of: other.hosts)
      && sends.isSubset(of: other.sends)
      && desktop.isSubset(of: other.desktop) && servers.isSubset(of: other.servers)
      && secrets.isSubset(of: other.secrets)
  }

  // MARK: - Records

  enum CodingKeys: String, CodingKey {
    case everything, files, commands, hosts, urls, sends, desktop, servers, secrets
  }

  /// A record written before secrets were on the card reads as one whose workflow reads none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    everything = try container.decode(Bool.self, forKey: .everything)
    files = try container.decode([MachineAccess.Kind: Scope<String>].self, forKey: .files)
    commands = try container.decode(Scope<Command>.self, forKey: .commands)
    hosts = try container.decode(Scope<String>.self, forKey: .hosts)
    urls = try container.decode(Set<String>.self, forKey: .urls)
    sends = try container.decode(Scope<String>.self, forKey: .sends)
    desktop = try container.decode(Set<MachineAccess.Kind>.self, forKey: .desktop)
    servers = try container.decode(Scope<String>.self, forKey: .servers)
    secrets = try container.decodeIfPresent(Set<String>.self, forKey: .secrets) ?? []
  }

  /// Without `secrets` when it reads none, so that such a record is as it was before secrets existed.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(everything, forKey: .everything)
    try container.encode(files, forKey: .files)
    try container.encode(commands, forKey: .commands)
    try container.encode(hosts, forKey: .hosts)
    try container.encode(urls, forKey: .urls)
    try container.encode(sends, forKey: .sends)
    try container.encode(desktop, forKey: .desktop)
    try container.encode(servers, forKey: .servers)
    if !secrets.isEmpty { try container.encode(secrets.sorted(), forKey: .secrets) }
  }
}

/// What a run is held to, worked out the first time an effect is checked against it: a run that does
/// nothing outside itself (a `show` step) never pays for the card's analysis (a tenth of a one-step
/// run's start).
public final class CardContract: Sendable {
  private let make: @Sendable () -> CapabilitySet
  private let made = Mutex<CapabilitySet?>(nil)

  public init(_ make: @escaping @Sendable () -> CapabilitySet) { self.make = make }

  public convenience init(_ set: CapabilitySet) { self.init { set } }

  public var set: CapabilitySet {
    made.withLock { made in
      if let made { return made }
      let set = make()
      made = set
      return set
    }
  }
}
