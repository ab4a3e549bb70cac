import FlowModel
import FlowScheduler
import FlowSystem
import FlowTestSupport
import Foundation
import Testing

/// The D-Bus event sources against real parts: a private dbus-daemon for each bus, and python-dbusmock's
/// stand-ins for UPower, NetworkManager, logind, UDisks2 and the systemd user manager
/// (Tests/BusStandIns/bus_standin.py). Every wait is on an event, with a generous limit.
@Suite(
  .serialized,
  .enabled(
    if: BusStandIn.python != nil,
    "python3-dbusmock and python3-dbus are not installed: Scripts/setup.sh installs them"))
struct MachineEventTests {
  @Test func batteryChangesFireWithTheirValuesAndAnUpdateTimeAloneDoesNot() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus(#"start upower {"OnBattery": true}"#)
    try bus("upower-display 21")
    let watched = try WatchedSources([.upower], environment: bus.environment)
    watched.sources.arm()
    let armed = try watched.nextReport()
    #expect(armed.state == .armed(note: nil))
    #expect(armed.description == "UPower (org.freedesktop.UPower) is armed")
    // The first reading, which a threshold takes as where the battery starts.
    #expect(try watched.nextEvent() == .battery(percentage: 21, onBattery: true))

    try bus("upower-percentage 19")
    #expect(try watched.nextEvent() == .battery(percentage: 19, onBattery: true))
    // UPower's frequent signal that changes only the time of the reading fires nothing: the next event
    // is the next percentage.
    try bus("upower-update-time 1700000000")
    try bus("upower-percentage 18.5")
    #expect(try watched.nextEvent() == .battery(percentage: 18.5, onBattery: true))
    try bus("upower-on-battery false")
    #expect(try watched.nextEvent() == .power(onBattery: false))
    try bus("upower-percentage 19")
    #expect(try watched.nextEvent() == .battery(percentage: 19, onBattery: false))
  }

  @Test func joiningHomeNetAndTheInternetComingAndGoing() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start networkmanager")
    try bus("nm-setup HomeNet")
    let watched = try WatchedSources([.networkManager], environment: bus.environment)
    watched.sources.arm()
    #expect(try watched.nextReport().state == .armed(note: nil))

    try bus("nm-join")
    #expect(try watched.nextEvent() == .wifi(joined: true, ssid: "HomeNet"))
    try bus("nm-state 20")
    #expect(try watched.nextEvent() == .network(connected: false))
    try bus("nm-state 70")
    #expect(try watched.nextEvent() == .network(connected: true))
    try bus("nm-leave")
    #expect(try watched.nextEvent() == .wifi(joined: false, ssid: "HomeNet"))
  }

  @Test func lockUnlockAndSleepWithTheDelayInhibitorTakenAndReleased() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start logind")
    try bus("logind-setup c7 \(getuid())")
    var environment = bus.environment
    environment["XDG_SESSION_ID"] = "c7"
    let watched = try WatchedSources([.logind], environment: environment)
    watched.sources.holdSleep()
    watched.sources.arm()
    #expect(try watched.nextReport().state == .armed(note: nil))
    #expect(watched.sources.sleepDelayLimit == .seconds(5))
    // The descriptor logind handed over (SCM_RIGHTS) is what holds sleep back: logind's list shows it.
    #expect(watched.sources.isHoldingSleep)
    #expect(try bus("inhibitors 1") == "sleep flow delay")

    try bus("lock c7")
    #expect(try watched.nextEvent() == .session(.lock))
    try bus("unlock c7")
    #expect(try watched.nextEvent() == .session(.unlock))

    try bus("sleep true")
    #expect(try watched.nextEvent() == .session(.beforeSleep))
    watched.sources.releaseSleep()
    #expect(!watched.sources.isHoldingSleep)
    try bus("inhibitors 0")

    try bus("sleep false")
    #expect(try watched.nextEvent() == .session(.afterResume))
    // Taken again after resume, ready for the next sleep.
    try watched.pump(until: { watched.sources.isHoldingSleep }, "the inhibitor taken again")
    #expect(try bus("inhibitors 1") == "sleep flow delay")
  }

  @Test func aDriveLabelledBACKUPIsMountedAfterItAppears() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start udisks")
    let watched = try WatchedSources([.udisks], environment: bus.environment)
    watched.sources.arm()
    #expect(try watched.nextReport().state == .armed(note: nil))

    // Plugged in: the device appears unmounted, which fires nothing; mounting it does.
    try bus("udisks-add sdb1 BACKUP 2C4B-1F0E")
    try bus("udisks-mount sdb1 /media/flow/BACKUP")
    #expect(
      try watched.nextEvent()
        == .drive(mounted: true, label: "BACKUP", uuid: "2C4B-1F0E", mountPoint: "/media/flow/BACKUP"))
    try bus("udisks-unmount sdb1")
    #expect(
      try watched.nextEvent()
        == .drive(mounted: false, label: "BACKUP", uuid: "2C4B-1F0E", mountPoint: "/media/flow/BACKUP"))
  }

  @Test func applicationsOpenAndCloseByTheirScopes() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start systemd")
    let watched = try WatchedSources([.apps], environment: bus.environment)
    watched.sources.arm()
    let armed = try watched.nextReport()
    #expect(armed.state == .armed(note: nil))
    #expect(armed.description == "the systemd user manager (org.freedesktop.systemd1) is armed")

    try bus("unit-new session-2.scope")
    try bus("unit-new app-gnome-org.mozilla.firefox-4242.scope")
    #expect(try watched.nextEvent() == .app(opened: true, id: "org.mozilla.firefox"))
    // systemd says a unit is new again when it loads it again: once is enough.
    try bus("unit-new app-gnome-org.mozilla.firefox-4242.scope")
    try bus(#"unit-new app-flatpak-org.gnome.Text\x2dEditor-77.scope"#)
    #expect(try watched.nextEvent() == .app(opened: true, id: "org.gnome.Text-Editor"))
    try bus("unit-removed app-gnome-org.mozilla.firefox-4242.scope")
    #expect(try watched.nextEvent() == .app(opened: false, id: "org.mozilla.firefox"))
  }

  @Test func anAbsentServiceIsSaidOnceByNameAndArmedWhenItAppears() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start networkmanager")
    let watched = try WatchedSources([.upower, .networkManager], environment: bus.environment)
    watched.sources.arm()
    let first = [try watched.nextReport(), try watched.nextReport()].sorted { $0.source < $1.source }
    #expect(first.map(\.state) == [.armed(note: nil), .absent])
    #expect(
      first[1].description
        == "UPower (org.freedesktop.UPower) is not on the system bus; its triggers are armed when it appears")

    // Other traffic says nothing more about UPower.
    try bus("nm-state 20")
    #expect(try watched.nextEvent() == .network(connected: false))
    try bus(#"start upower {"OnBattery": true}"#)
    let appeared = try watched.nextReport()
    #expect(appeared == MachineSourceReport(source: .upower, state: .appeared))
    #expect(appeared.description == "UPower (org.freedesktop.UPower) is on the system bus now, armed")
    #expect(try watched.nextEvent().isBatteryReading, "the first reading comes first")
    try bus("upower-on-battery false")
    #expect(try watched.nextEvent() == .power(onBattery: false))
  }

  @Test func aServiceThatRestartsIsReadAgainAndSubscribedAgain() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus(#"start upower {"OnBattery": false}"#)
    let watched = try WatchedSources([.upower], environment: bus.environment)
    watched.sources.arm()
    #expect(try watched.nextReport().state == .armed(note: nil))
    #expect(try watched.nextEvent().isBatteryReading, "the first reading comes first")

    try bus("stop upower")
    let gone = try watched.nextReport()
    #expect(gone.state == .gone)
    #expect(
      gone.description
        == "UPower (org.freedesktop.UPower) left the system bus; its triggers are armed again when it returns")
    // It went on battery while UPower was away: read afresh on its return, that fires.
    try bus(#"start upower {"OnBattery": true}"#)
    #expect(try watched.nextReport().state == .appeared)
    #expect(try watched.nextEvent() == .power(onBattery: true))
    try bus("upower-percentage 64")
    #expect(try watched.nextEvent() == .battery(percentage: 64, onBattery: true))
  }

  @Test func aShortcutIsBoundThroughThePortalAndPressingItFires() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start portal")
    try bus("portal-setup 0")
    let shortcut = HotkeyShortcut(
      id: "open-downloads", description: "Open Downloads", trigger: "CTRL+ALT+d")
    let watched = try WatchedSources(
      [.hotkeys], environment: bus.environment, appID: "io.github.flow", shortcuts: [shortcut])
    watched.sources.arm()
    #expect(try watched.nextReport().state == .armed(note: nil))
    #expect(try bus("portal-calls Register") == "io.github.flow {}")
    #expect(
      try bus("portal-calls BindShortcuts")
        == "/org/freedesktop/portal/desktop/session/standin/flow1 [[open-downloads,{description=Open Downloads,preferred_trigger=CTRL+ALT+d}]]  {handle_token=flow2}"
    )

    try bus("portal-press open-downloads")
    #expect(try watched.nextEvent() == .hotkey(id: "open-downloads"))
  }

  @Test func aDesktopWithoutTheShortcutsPortalIsSaidByName() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start portal-without-shortcuts")
    let watched = try WatchedSources(
      [.hotkeys], environment: bus.environment, appID: "io.github.flow",
      shortcuts: [HotkeyShortcut(id: "x", description: "X", trigger: nil)])
    watched.sources.arm()
    #expect(
      try watched.nextReport().description
        == "the desktop portal (org.freedesktop.portal.Desktop) cannot be watched: no GlobalShortcuts portal on this desktop; use a launcher entry or 'flow do'"
    )
  }

  @Test func aPortalThatRefusesTheShortcutsIsSaid() throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start portal")
    try bus("portal-setup 2")
    let watched = try WatchedSources(
      [.hotkeys], environment: bus.environment, appID: nil,
      shortcuts: [HotkeyShortcut(id: "x", description: "X", trigger: nil)])
    watched.sources.arm()
    #expect(try watched.nextReport().state == .unavailable("the desktop refused the shortcuts (response 2)"))
    #expect(try bus("portal-calls Register") == "")
  }

  @Test func chordsAreWrittenAsThePortalReadsThem() throws {
    #expect(try Chord.parse("Ctrl+Alt+D").get().portalTrigger == "CTRL+ALT+d")
    #expect(try Chord.parse("Super+Shift+Return").get().portalTrigger == "SHIFT+LOGO+Return")
  }

  @Test func noSystemBusIsSaidForEachSourceAndEndsNothing() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flow-nobus-\(getpid())")
    let address = "unix:path=\(directory.path)/none"
    let watched = try WatchedSources([.upower, .logind], environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
    watched.sources.holdSleep()
    watched.sources.arm()
    let reports = [try watched.nextReport(), try watched.nextReport()].map(\.description)
    let why = "there is no system bus (nothing answers at \(directory.path)/none (No such file or directory))"
    #expect(
      reports == [
        "UPower (org.freedesktop.UPower) cannot be watched: \(why)",
        "logind (org.freedesktop.login1) cannot be watched: \(why)",
      ])
    #expect(!watched.sources.isHoldingSleep)
    #expect(watched.sources.sleepDelayLimit == nil)
  }

  @Test(arguments: [
    ("app-gnome-org.mozilla.firefox-4242.scope", "org.mozilla.firefox"),
    ("app-firefox-4242.scope", "firefox"),
    (#"app-gnome-firefox\x2desr-9.scope"#, "firefox-esr"),
    ("app-flatpak-org.gnome.Maps-77.scope", "org.gnome.Maps"),
    ("app-gnome-org.gnome.Terminal@3f2a.service", "org.gnome.Terminal"),
    ("app-org.kde.konsole@1.service", "org.kde.konsole"),
  ])
  func applicationIDsAreReadFromUnitNames(unit: String, id: String) {
    #expect(AppScopeName.appID(unit) == id)
  }

  @Test func unitsThatAreNotApplicationsHaveNoID() {
    for unit in ["session-2.scope", "app.slice", "app-gnome.scope", "app-.scope", "apps-x-1.scope", "app-x-1.socket"] {
      #expect(AppScopeName.appID(unit) == nil, "\(unit)")
    }
  }

  @Test func matchRulesQuoteWhatTheyName() {
    let rule = DBusMatchRule(sender: "org.freedesktop.UPower", member: "PropertiesChanged", arg0: "it's")
    #expect(rule.text == #"type='signal',sender='org.freedesktop.UPower',member='PropertiesChanged',arg0='it'\''s'"#)
  }
}

extension MachineEvent {
  /// A reading of the battery, whatever its value: the first one a source says at arm.
  var isBatteryReading: Bool {
    if case .battery = self { true } else { false }
  }
}
