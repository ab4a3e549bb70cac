/// What an intent does to the machine it runs on, beyond an app's data and the network: the files it
/// reads, writes or deletes, the commands it runs, the desktop it talks to. The permission card and
/// `flow show` list it, with the value a step writes out (a path, a glob, a script) or "any" when the
/// run computes it; shell commands and deletions are in red (issue 14).
///
/// ```swift
/// static let machineAccess = [MachineAccess(.readsFiles, parameter: "path")]
/// ```
public struct MachineAccess: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CaseIterable, Codable, CodingKeyRepresentable {
    case readsFiles = "reads-files"
    case writesFiles = "writes-files"
    /// Writes over a file that exists: what it held is gone (`if-exists: replace`).
    case replacesFiles = "replaces-files"
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
    /// Sends a value to the host the step contacts in a request's body or headers (`get-url`'s `json:`):
    /// data leaves the machine as surely as in a URL's query.
    case sendsData = "sends-data"

    /// Whether it leaves everything as it was.
    public var onlyReads: Bool {
      switch self {
      case .readsFiles, .readsClipboard, .readsDevice, .sendsData: true
      default: false
      }
    }

    /// Whether its parameter names files: a path or a glob.
    public var actsOnFiles: Bool {
      switch self {
      case .readsFiles, .writesFiles, .replacesFiles, .trashesFiles, .deletesFiles: true
      default: false
      }
    }

    /// Whether a person deciding to trust a file must not miss it: the card's red.
    public var isAlarming: Bool {
      switch self {
      case .replacesFiles, .trashesFiles, .deletesFiles, .runsCommands, .sendsData: true
      default: false
      }
    }
  }

  public var kind: Kind
  /// The parameter whose value names what is acted on — a path, a glob, a script, a command — or nil
  /// when there is nothing to name (notifications).
  public var parameter: String?
  /// For a script, the parameter naming the program that runs it (`run-shell`'s `shell`): a computed
  /// interpreter makes the command any command.
  public var interpreter: String?
  /// The other parameters that decide what a command does — its arguments, standard input,
  /// environment, working directory — which the card shows beside it.
  public var details: [String]

  public init(_ kind: Kind, parameter: String? = nil, interpreter: String? = nil, details: [String] = []) {
    self.kind = kind
    self.parameter = parameter
    self.interpreter = interpreter
    self.details = details
  }
}

extension MachineAccess.Kind {
  /// How flow says an effect, in one table so that the card, `flow show`'s margin, a refused step and the
  /// question a run asks when it needs more than its approved card all say it alike.
  public struct Words: Sendable {
    /// On the card, of what the steps name: "deletes files permanently".
    public var card: String
    /// On the card, of what the run computes: "may delete any file permanently".
    public var any: String
    /// In `flow show`'s margin: "deletes files".
    public var margin: String
    /// Before what it acts on, in a refusal: "deletes for good '~/a.txt': not on the card".
    public var acting: String
  }

  public var words: Words {
    switch self {
    case .readsFiles: Words(card: "reads files", any: "may read any file", margin: "reads files", acting: "reads")
    case .writesFiles: Words(card: "writes files", any: "may write any file", margin: "writes files", acting: "writes")
    case .replacesFiles:
      Words(
        card: "replaces files, losing what they held", any: "may replace any file, losing what it held",
        margin: "replaces files", acting: "replaces")
    case .trashesFiles:
      Words(
        card: "moves files to the Trash", any: "may move any file to the Trash", margin: "moves files to the Trash",
        acting: "moves to the Trash")
    case .deletesFiles:
      Words(
        card: "deletes files permanently", any: "may delete any file permanently", margin: "deletes files",
        acting: "deletes for good")
    case .runsCommands:
      Words(card: "runs commands", any: "may run any command", margin: "runs commands", acting: "runs")
    case .showsNotifications:
      Words(card: "shows notifications", any: "shows notifications", margin: "notifies", acting: "shows a notification")
    case .readsClipboard:
      Words(
        card: "reads the clipboard", any: "reads the clipboard", margin: "reads the clipboard",
        acting: "reads the clipboard")
    case .writesClipboard:
      Words(
        card: "writes the clipboard", any: "writes the clipboard", margin: "writes the clipboard",
        acting: "writes the clipboard")
    case .readsDevice:
      Words(
        card: "reads device details (host name, user, system)", any: "reads device details",
        margin: "reads device details", acting: "reads device details")
    case .sendsData: Words(card: "sends data", any: "sends data", margin: "sends data", acting: "sends data to")
    }
  }
}
