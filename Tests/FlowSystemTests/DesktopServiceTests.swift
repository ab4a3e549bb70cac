import FlowBasics
import FlowIntents
import FlowTestSupport
import Foundation
import Testing

@testable import FlowSystem

@Suite(.serialized)
struct DesktopServiceTests {
  @Test func notifyReachesDunstAndABecomesTheChosenButton() async throws {
    guard let desktop = try PrivateDesktop.start() else { return }
    defer { desktop.stop() }
    let notifications = DBusNotifications(environment: desktop.environment, uid: getuid())

    let shown = try await notifications.show(
      NotificationRequest(title: "Digest ready", body: "3 new <favourites> & more", urgency: 2))
    guard case .shown = shown else {
      Issue.record("expected the notification to be shown, got \(shown)")
      return
    }
    _ = try desktop.run("dunstctl", ["close-all"])
    let history = try desktop.run("dunstctl", ["history"])
    #expect(history.contains(#""data" : "Digest ready""#))
    // dunst reads markup in bodies: what flow sends is escaped so that it shows as written.
    #expect(history.contains(#""data" : "3 new &lt;favourites&gt; &amp; more""#))
    #expect(history.contains(#""data" : "flow""#))

    let chosen = try await notifications.show(
      NotificationRequest(title: "Press a button", buttons: ["Later", "Snooze"], timeout: .seconds(20)))
    #expect(chosen == .chosen("Snooze"))
  }

  /// A title or body from outside cannot draw what it likes: controls are shown, bidirectional overrides
  /// neutralised, the title kept to one bounded line, the body's markup escaped where it is read.
  @Test func titlesAndBodiesAreShownAsWritten() throws {
    let request = NotificationRequest(
      title: "Done\u{1B}[2J\n\u{202E}gnp.exe <b>" + String(repeating: "x", count: 500),
      body: "line\u{7}\n<a href='https://evil.example'>click</a>\u{2066}")
    let (title, body) = DBusNotifications.shown(request, markup: true)
    #expect(title.hasPrefix("Done\u{241B}[2J \u{FFFD}gnp.exe <b>xxx"))
    #expect(title.count == DBusNotifications.titleLimit)
    #expect(title.hasSuffix("…"))
    #expect(body == "line\u{2407}\n&lt;a href='https://evil.example'&gt;click&lt;/a&gt;\u{FFFD}")
    #expect(DBusNotifications.shown(request, markup: false).body.hasPrefix("line\u{2407}\n<a href"))
  }

  @Test func aBusWithoutANotificationServiceIsNamed() async throws {
    guard let desktop = try PrivateDesktop.start(services: false) else { return }
    defer { desktop.stop() }
    let notifications = DBusNotifications(environment: desktop.environment, uid: getuid())
    let error = await #expect(throws: AppIntentError.self) {
      try await notifications.show(NotificationRequest(title: "Nobody listens"))
    }
    #expect(
      error?.message
        == "cannot show a notification: no notification service (org.freedesktop.Notifications) on the session bus")
  }

  @Test func noBusIsNamedWithWhereItWasLookedFor() async throws {
    let directory = try temporaryDirectory()
    let notifications = DBusNotifications(environment: ["XDG_RUNTIME_DIR": directory.path], uid: getuid())
    #expect(
      notifications.missingBus()
        == "DBUS_SESSION_BUS_ADDRESS is not set, and there is no \(directory.path)/bus (XDG_RUNTIME_DIR is '\(directory.path)')"
    )
    let error = await #expect(throws: AppIntentError.self) {
      try await notifications.show(NotificationRequest(title: "Nobody"))
    }
    #expect(error?.message.hasPrefix("cannot show a notification: no D-Bus session bus (") == true)
    // An address that names a socket nobody listens on is as clear.
    let stale = DBusNotifications(
      environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/gone"], uid: getuid())
    let staleError = await #expect(throws: AppIntentError.self) {
      try await stale.show(NotificationRequest(title: "Nobody"))
    }
    #expect(
      staleError?.message
        == "cannot show a notification: no D-Bus session bus (nothing answers at \(directory.path)/gone (No such file or directory))"
    )
  }

  @Test func theClipboardRoundTripsThroughXclip() async throws {
    guard let desktop = try PrivateDesktop.start(services: false) else { return }
    defer { desktop.stop() }
    let clipboard = SystemClipboard(environment: desktop.environment)
    #expect(try await clipboard.text() == "")
    try await clipboard.copy("héllo\nclip")
    #expect(try desktop.run("xclip", ["-selection", "clipboard", "-o"]) == "héllo\nclip")
    #expect(try await clipboard.text() == "héllo\nclip")
    // xclip stays behind to serve what it copied, holding on to every descriptor it inherits, and
    // Foundation's Process learns of an exit from a socket its child holds: Python's subprocess starts
    // xclip with none of them (close_fds), so the run returns as soon as the copy is made.
    _ = try desktop.run(
      "python3",
      [
        "-c",
        "import subprocess; subprocess.run(['xclip', '-selection', 'clipboard', '-i'], input=b'from xclip', stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)",
      ])
    #expect(try await clipboard.text() == "from xclip")
  }

  @Test func noDisplayOrNoToolNamesWhatToInstall() async throws {
    let none = SystemClipboard(environment: ["PATH": "/usr/bin:/bin"])
    #expect(none.missingDisplay() == "neither WAYLAND_DISPLAY nor DISPLAY is set")
    let error = await #expect(throws: AppIntentError.self) { try await none.text() }
    #expect(
      error?.message
        == "cannot reach the clipboard: there is no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set)")
    let wayland = SystemClipboard(environment: ["WAYLAND_DISPLAY": "wayland-0", "PATH": "/nonexistent"])
    let waylandError = await #expect(throws: AppIntentError.self) { try await wayland.copy("x") }
    #expect(waylandError?.message == "cannot reach the clipboard: 'wl-paste' is not installed")
    #expect(waylandError?.help == "install wl-clipboard ('apt-get install wl-clipboard')")
    let x11 = SystemClipboard(environment: ["DISPLAY": ":9", "PATH": "/nonexistent"])
    let x11Error = await #expect(throws: AppIntentError.self) { try await x11.text() }
    #expect(x11Error?.help == "install xclip ('apt-get install xclip') or xsel")
  }
}

/// A new empty folder with a short path: bus sockets live in it, and a Unix socket's path has at most
/// 107 bytes.
private func temporaryDirectory() throws -> URL {
  let url = URL(fileURLWithPath: "/tmp/flow-desktop-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
