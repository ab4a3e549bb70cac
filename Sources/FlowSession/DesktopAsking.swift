import FlowBasics
import FlowIntents
import FlowRuntime
import FlowSystem
import FoundationEssentials
import Glibc

/// Whether a run nobody attends at a terminal can ask the person at their desktop (SPEC §11), found
/// from the environment alone: a display (`WAYLAND_DISPLAY` or `DISPLAY`) and a session bus, then a
/// dialog tool on the `PATH` (``DesktopDialogs/order(desktop:)``) — without one, a notification's
/// buttons still answer confirmations and small choices. The run, its unattended check and the
/// scheduler's arming all ask here, so they agree.
public enum DesktopAsking {
  /// What the desktop of `environment` can answer.
  public static func answers(environment: [String: String]) -> UnattendedCheck.Desktop {
    guard DesktopDialogs.missingSession(environment: environment, uid: getuid()) == nil else { return .nobody }
    return DesktopDialogs.find(environment: environment, title: "") == nil ? .choices : .everything
  }

  /// The prompter of a run asking at this desktop, its dialogs titled with the workflow's name; nil
  /// without a desktop session.
  public static func prompter(environment: [String: String], title: String) -> DesktopPrompter? {
    guard DesktopDialogs.missingSession(environment: environment, uid: getuid()) == nil else { return nil }
    let dialogs = DesktopDialogs.find(environment: environment, title: title)
    return DesktopPrompter(
      dialogs: dialogs,
      notifications: dialogs == nil ? DBusNotifications(environment: environment, uid: getuid()) : nil,
      installHelp: DesktopDialogs.installHelp(desktop: environment["XDG_CURRENT_DESKTOP"]))
  }

  /// Said under what a run refuses to ask when the session could ask but has no dialog tool (``answers``
  /// is ``UnattendedCheck/Desktop/choices``).
  public static func missingToolNote(environment: [String: String]) -> String {
    "this desktop session has no dialog tool to ask in: "
      + DesktopDialogs.installHelp(desktop: environment["XDG_CURRENT_DESKTOP"])
  }
}

extension ActionChoices {
  /// Whether this run asks at the desktop: it has no terminal (neither standard input nor standard
  /// error is one), `--no-input` and `--json` (`quiet`) are not given, and there is a desktop session.
  /// The display is looked at first: a run without one (a server, cron, a benchmark) pays two lookups.
  public func asksOnDesktop(_ context: SessionContext, quiet: Bool = false) -> Bool {
    let environment = context.environment
    guard !noInput, !quiet, !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || !(environment["DISPLAY"] ?? "").isEmpty
    else { return false }
    return !context.console.isTerminal(.input) && !context.console.isTerminal(.error)
      && DesktopDialogs.missingSession(environment: environment, uid: getuid()) == nil
  }
}
