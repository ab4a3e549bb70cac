/// What an intent does to the machine it runs on, beyond an app's data and the network: the files it
/// reads, writes or deletes, the commands it runs, the desktop it talks to. The permission card and
/// `flow show` list it, with the value a step writes out (a path, a glob, a script) or "any" when the
/// run computes it; shell commands and deletions are in red (issue 14).
///
/// ```swift
/// static let machineAccess = [MachineAccess(.readsFiles, parameter: "path")]
/// ```
public struct MachineAccess: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CaseIterable, Encodable {
    case readsFiles = "reads-files"
    case writesFiles = "writes-files"
    /// Moves files to the freedesktop.org Trash, from where they can be restored.
    case trashesFiles = "trashes-files"
    /// Deletes files for good.
    case deletesFiles = "deletes-files"
    /// Runs a program or a shell script: it may do anything the person running flow may.
    case runsCommands = "runs-commands"
    case showsNotifications = "shows-notifications"
    case readsClipboard = "reads-clipboard"
    case writesClipboard = "writes-clipboard"
    /// The host name, the user, the operating system.
    case readsDevice = "reads-device-details"

    /// Whether it leaves everything as it was.
    public var onlyReads: Bool {
      switch self {
      case .readsFiles, .readsClipboard, .readsDevice: true
      default: false
      }
    }

    /// Whether a person deciding to trust a file must not miss it: the card's red.
    public var isAlarming: Bool {
      switch self {
      case .trashesFiles, .deletesFiles, .runsCommands: true
      default: false
      }
    }
  }

  public var kind: Kind
  /// The parameter whose value names what is acted on — a path, a glob, a script, a command — or nil
  /// when there is nothing to name (notifications).
  public var parameter: String?

  public init(_ kind: Kind, parameter: String? = nil) {
    self.kind = kind
    self.parameter = parameter
  }
}
