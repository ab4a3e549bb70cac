import FlowDiagnostics
import FoundationEssentials

/// Where flow keeps its files, by the XDG Base Directory specification: the one definition of every path
/// flow reads or writes outside a workflow's own folder.
///
/// | directory | default | holds |
/// | --- | --- | --- |
/// | ``config`` `$XDG_CONFIG_HOME/flow` | `~/.config/flow` | `config.yml`, the Raindrop.io token, `keys/` |
/// | ``data`` `$XDG_DATA_HOME/flow` | `~/.local/share/flow` | the local store, the workflow library (`workflows/`) |
/// | ``state`` `$XDG_STATE_HOME/flow` | `~/.local/state/flow` | `history.sqlite`, `locks/`, `scheduler.json` |
///
/// Built from an environment passed in: library modules never read the process environment.
public struct FlowPaths: Sendable, Hashable {
  /// `$XDG_CONFIG_HOME/flow`: what the person configures.
  public var config: URL
  /// `$XDG_DATA_HOME/flow`: what the person keeps (bookmarks, workflows).
  public var data: URL
  /// `$XDG_STATE_HOME/flow`: what flow keeps about its own runs, safe to lose.
  public var state: URL

  /// Reads `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `XDG_STATE_HOME` and `HOME` from `environment`.
  ///
  /// As the specification says, a variable that is unset, empty or relative is ignored and the default
  /// under `HOME` is used. Without an absolute `HOME`, the defaults go under `fallbackHome` (the command
  /// line passes the temporary directory, so that a bare environment never writes into `/`).
  public init(
    environment: [String: String],
    fallbackHome: @autoclosure () -> String = PathText.temporaryDirectory(
      environment: ProcessInfo.processInfo.environment)
  ) {
    func absolute(_ value: String?) -> String? {
      guard let value, value.hasPrefix("/") else { return nil }
      return value.hasSuffix("/") && value.count > 1 ? String(value.dropLast()) : value
    }
    let home = absolute(environment["HOME"]) ?? absolute(fallbackHome()) ?? "/"
    // Built from text with a directory hint: URL(fileURLWithPath:) would ask the file system each time.
    func directory(_ variable: String, default relative: String) -> URL {
      URL(filePath: (absolute(environment[variable]) ?? home + "/" + relative) + "/flow", directoryHint: .isDirectory)
    }
    config = directory("XDG_CONFIG_HOME", default: ".config")
    data = directory("XDG_DATA_HOME", default: ".local/share")
    state = directory("XDG_STATE_HOME", default: ".local/state")
  }

  private func file(_ directory: URL, _ name: String) -> URL {
    directory.appending(path: name, directoryHint: .notDirectory)
  }

  // MARK: - Config

  /// `config.yml`: the backend, history settings.
  public var configFile: URL { file(config, "config.yml") }
  /// The Raindrop.io token `flow auth login` saves (mode 0600).
  public var tokenFile: URL { file(config, Self.tokenFileName) }
  public static let tokenFileName = "raindrop-token"
  /// The path of a file in ``config``, as text: what a run reads on every start (the token, the keyring's
  /// marker) is named without building a URL, which costs ten times as much (Performance.md).
  public func configPath(_ name: String) -> String { config.fileSystemPath + "/" + name }
  /// Signing keys (`flow keys generate`).
  public var keys: URL { config.appending(path: "keys", directoryHint: .isDirectory) }
  /// `$XDG_CONFIG_HOME/systemd/user`, where `flow schedule install systemd` writes user units: systemd's
  /// folder, beside flow's own.
  public var systemdUserUnits: URL {
    config.deletingLastPathComponent().appending(path: "systemd/user", directoryHint: .isDirectory)
  }

  // MARK: - Data

  /// `$XDG_DATA_HOME/applications`, where desktop entries go (the launcher, the portal's app id): the
  /// desktop's folder, beside flow's own.
  public var applications: URL {
    data.deletingLastPathComponent().appending(path: "applications", directoryHint: .isDirectory)
  }

  /// The workflow library: names given to `flow run` are looked up here. Issues 8 and 9 moved it from
  /// the SPEC's `$XDG_CONFIG_HOME/flow/workflows`: workflows are the person's data, not configuration.
  public var workflows: URL { data.appending(path: "workflows", directoryHint: .isDirectory) }

  // MARK: - State

  /// Run history.
  public var history: URL { file(state, "history.sqlite") }
  /// One lock file per workflow, so that no workflow runs twice at once.
  public var locks: URL { state.appending(path: "locks", directoryHint: .isDirectory) }
  /// The scheduler's fire record: when it last handled each workflow's fire, for the catch-up after
  /// downtime.
  public var schedulerRecord: URL { file(state, "scheduler.json") }
  /// What the running scheduler has armed, for `flow schedule status`.
  public var schedulerStatus: URL { file(state, "scheduler-status.json") }
}
