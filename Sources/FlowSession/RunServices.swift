import FlowBasics
import FlowDiagnostics
import FlowHTTP
import FlowIntents
import FlowRuntime
import FlowSystem
import FoundationEssentials
import Glibc
import RaindropModel

/// The same choices as a plain value, for a run read without ArgumentParser (``RunRequest``): making
/// an `ActionOptions` makes its property wrappers, whose types cost start-up (Performance.md).
public struct ActionSettings: ActionChoices, Sendable, Equatable {
  public var yes = false
  public var noInput = false
  public var backend: BackendChoice?

  public init(yes: Bool = false, noInput: Bool = false, backend: BackendChoice? = nil) {
    self.yes = yes
    self.noInput = noInput
    self.backend = backend
  }
}

/// What a command that performs actions was told: `--yes`, `--no-input`, `--backend`.
public protocol ActionChoices {
  var yes: Bool { get }
  var noInput: Bool { get }
  var backend: BackendChoice? { get }
}

extension ActionChoices {
  /// The choices as a plain value, to hand on (`flow mcp`'s calls).
  public var settings: ActionSettings { ActionSettings(yes: yes, noInput: noInput, backend: backend) }

  /// Whether someone can answer: standard input and standard error are a terminal, `--no-input` is not
  /// given, and the output is not `--json` (`quiet`).
  public func isInteractive(_ context: SessionContext, quiet: Bool = false) -> Bool {
    !noInput && !quiet && context.console.isTerminal(.input) && context.console.isTerminal(.error)
  }

  /// The services intents use: HTTP, the URL launcher, the command runner (`run-shell`, with the run's
  /// environment and its text limit), and the bookmarks on the chosen backend, opened on first use, when
  /// `announce` is told which backend it is and why. A `readOnly` run (a dry run) opens the local store
  /// without writing anything to the disk.
  public func intentContext(
    _ context: SessionContext, prompter: any Prompter, readOnly: Bool = false, limits: ValueLimits = ValueLimits(),
    announce: @escaping @Sendable (BackendUse) -> Void
  ) throws(Diagnostic) -> IntentContext {
    let backends = Backends(context: context)
    let use = try backends.choose(flag: backend)
    return IntentContext(prompter: prompter, clock: context.clock)
      .with(context.transport, as: (any HTTPTransport).self)
      .with(
        XDGOpenLauncher(environment: context.environment) as any URLLauncher,
        as: (any URLLauncher).self
      )
      // The desktop: notifications on the session bus and the clipboard, both found from the environment.
      .with(
        DBusNotifications(environment: context.environment, uid: getuid()) as any NotificationService,
        as: (any NotificationService).self
      )
      .with(SystemClipboard(environment: context.environment) as any ClipboardService, as: (any ClipboardService).self)
      .with(LocalFiles(locations: context.fileLocations) as any Files, as: (any Files).self)
      .with(
        SpawnCommandRunner(environment: context.environment, outputLimit: limits.textBytes) {
          [console = context.console] in
          console.write("warning: \($0)\n", to: .error)
        } as any CommandRunner,
        as: (any CommandRunner).self
      )
      .with(backends.service(use.choice, readOnly: readOnly) { announce(use) })
  }
}

extension SessionContext {
  /// Where the file actions resolve `~` and relative paths, and where the home Trash is: `HOME` (the
  /// account's home when unset or relative), this context's working directory, and `XDG_DATA_HOME`.
  public var fileLocations: FileLocations {
    func absolute(_ path: String?) -> String? { path.flatMap { $0.hasPrefix("/") ? $0 : nil } }
    // The account is asked only when HOME gives no home: getpwuid reads nsswitch.conf and /etc/passwd and
    // tries nscd's socket, a dozen system calls that every run paid.
    let home =
      absolute(environment["HOME"])
      ?? absolute(getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } }) ?? "/"
    let trimmed = home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
    return FileLocations(home: trimmed, workingDirectory: workingDirectory, dataHome: environment["XDG_DATA_HOME"])
  }
}
