import FlowLibrary
import FoundationEssentials

/// The application the desktop knows the scheduler by, for the GlobalShortcuts portal: portals from 1.21
/// refuse a host application without an app id, and take one only with an installed `APP_ID.desktop`
/// (xdg-desktop-portal#1817). Written when a hotkey is armed, hidden from launchers.
public enum DesktopEntry {
  /// Reverse-DNS, as the portal and desktop files want it.
  public static let appID = "dev.flow.Flow"

  /// Writes `APP_ID.desktop` into `paths.applications` unless it is there; a failure is left to the
  /// portal to say (it refuses the session, which `flow schedule status` shows).
  public static func install(_ paths: FlowPaths, executable: String) {
    let file = paths.applications.appending(path: "\(appID).desktop")
    guard !FileManager.default.fileExists(atPath: file.path) else { return }
    let entry = DesktopEntryFile([
      ("Type", "Application"), ("Name", "flow"), ("Comment", "Runs workflows when their triggers fire"),
      ("Exec", DesktopEntryFile.exec([executable, "schedule"])), ("Icon", "system-run"), ("NoDisplay", "true"),
      ("Terminal", "false"),
    ])
    try? entry.write(to: file)
  }
}
