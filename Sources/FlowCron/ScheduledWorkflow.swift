/// A workflow to install into another engine's schedule: what every unit emitter needs.
public struct ScheduledWorkflow: Sendable {
  /// The workflow's name, for descriptions.
  public var name: String
  /// The absolute path of the workflow file.
  public var path: String
  /// The file's text, for engines that carry the file themselves (a Kubernetes ConfigMap).
  public var contents: String
  public var schedule: Schedule
  /// The absolute path of the `flow` binary that runs it.
  public var executable: String
  /// The secrets it reads (`secrets:`): the units say how they reach an unattended run.
  public var secrets: [String]

  public init(
    name: String, path: String, contents: String, schedule: Schedule, executable: String, secrets: [String] = []
  ) {
    self.secrets = secrets
    self.name = name
    self.path = path
    self.contents = contents
    self.schedule = schedule
    self.executable = executable
  }

  /// The file's name without folder and extension: `favourites-digest`.
  public var fileStem: String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    for suffix in [".yml", ".yaml"] where file.hasSuffix(suffix) { return String(file.dropLast(suffix.count)) }
    return file
  }

  /// `flow-NAME` for unit and object names: lowercase letters, digits and single dashes from the file's
  /// name, which is unique within a folder (the workflow's display name need not be). At most `limit`
  /// characters; a longer name is cut and keeps a short hash of the whole, so two stay apart.
  public func unitName(limit: Int = 63) -> String {
    var slug = ""
    for scalar in fileStem.lowercased().unicodeScalars {
      if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
        slug.unicodeScalars.append(scalar)
      } else if !slug.isEmpty, !slug.hasSuffix("-") {
        slug += "-"
      }
    }
    while slug.hasSuffix("-") { slug.removeLast() }
    let name = "flow-" + (slug.isEmpty ? "workflow" : slug)
    guard name.count > limit else { return name }
    let hash = String(Self.fnv1a(path) % 1_679_616, radix: 36)  // four base-36 digits
    var cut = String(name.prefix(limit - 5))
    while cut.hasSuffix("-") { cut.removeLast() }
    return cut + "-" + hash
  }

  /// FNV-1a over the UTF-8 bytes: stable across runs and machines, unlike `hashValue`.
  static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
