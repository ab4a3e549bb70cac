#!/usr/bin/python3
"""Stand-ins for the services flow's triggers watch, for Tests/FlowSchedulerTests/MachineEventTests.swift.

Starts a private system bus and a private session bus (dbus-daemon), prints their addresses, then reads
commands on standard input, one a line, and answers each with one line: `ok [value]` once it is done, or
`error <why>`. The services are python-dbusmock's templates (upower, networkmanager, logind, systemd) and
its generic objects for UDisks2 and the GlobalShortcuts portal, each a process of its own so that a test
can stop one and start it again. Standard input closing stops everything.

Run with the system python3 (Debian's python3-dbusmock and python3-dbus); without them it prints
`missing <why>` and exits.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

try:
    import dbus
    import dbusmock
except ImportError as error:
    print(f"missing {error}", flush=True)
    sys.exit(0)

MOCK = "org.freedesktop.DBus.Mock"
PROPERTIES = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
UPOWER_DEVICE = "org.freedesktop.UPower.Device"
DISPLAY = "/org/freedesktop/UPower/devices/DisplayDevice"
LOGIND = "org.freedesktop.login1.Manager"
UDISKS = "/org/freedesktop/UDisks2"
SYSTEMD = "org.freedesktop.systemd1.Manager"
PORTAL = "/org/freedesktop/portal/desktop"
SHORTCUTS = "org.freedesktop.portal.GlobalShortcuts"

# The portal's Request pattern, played by the stand-in: the call returns a request object's path, and
# the answer follows as that object's Response signal, once the reply has gone.
ANSWER = (
    "from gi.repository import GLib\n"
    "request = '/org/freedesktop/portal/desktop/request/standin/' + args[{options}]['handle_token']\n"
    "GLib.idle_add(lambda self=self, request=request, args=args: self.EmitSignalDetailed('org.freedesktop.portal.Request', 'Response', 'ua{{sv}}',"
    " [dbus.UInt32({code}), {results}], {{'path': request}}) and False)\n"
    "ret = dbus.ObjectPath(request)\n"
)

# What each stand-in is: its bus name, main object, whether on the system bus, and how dbusmock starts it.
SERVICES = {
    "upower": ("org.freedesktop.UPower", "/org/freedesktop/UPower", True, ["-t", "upower"]),
    "networkmanager": ("org.freedesktop.NetworkManager", "/org/freedesktop", True, ["-t", "networkmanager"]),
    "logind": ("org.freedesktop.login1", "/org/freedesktop/login1", True, ["-t", "logind"]),
    "systemd": ("org.freedesktop.systemd1", "/org/freedesktop/systemd1", False, ["-t", "systemd", "--session"]),
    "portal": (
        "org.freedesktop.portal.Desktop", PORTAL, False,
        ["--session", "org.freedesktop.portal.Desktop", PORTAL, SHORTCUTS],
    ),
    # A portal without the GlobalShortcuts interface, as on most desktops today.
    "portal-without-shortcuts": (
        "org.freedesktop.portal.Desktop", PORTAL, False,
        ["--session", "org.freedesktop.portal.Desktop", PORTAL, "org.freedesktop.portal.Notification"],
    ),
    "notifications": (
        "org.freedesktop.Notifications", "/org/freedesktop/Notifications", False, ["-t", "notification_daemon"],
    ),
    "udisks": (
        "org.freedesktop.UDisks2", UDISKS, True,
        ["--system", "-m", "org.freedesktop.UDisks2", UDISKS, "org.freedesktop.UDisks2.Manager"],
    ),
}

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>{kind}</type>
  <listen>unix:dir={directory}</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
  </policy>
</busconfig>
"""


class StandIns:
    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="flow-bus-", dir="/tmp")
        self.buses = {}
        self.addresses = {}
        for kind in ("system", "session"):
            config = os.path.join(self.directory, kind + ".conf")
            with open(config, "w") as file:
                file.write(BUS_CONFIG.format(kind=kind, directory=self.directory))
            daemon = subprocess.Popen(
                ["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.buses[kind] = daemon
            self.addresses[kind] = daemon.stdout.readline().strip()
        os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = self.addresses["system"]
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = self.addresses["session"]
        self.connections = {
            True: dbus.bus.BusConnection(self.addresses["system"]),
            False: dbus.bus.BusConnection(self.addresses["session"]),
        }
        self.mocks = {}
        self.paths = {}

    def close(self):
        for process in list(self.mocks.values()) + list(self.buses.values()):
            process.terminate()
        for process in list(self.mocks.values()) + list(self.buses.values()):
            process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)

    # Helpers

    def object(self, service, path):
        name, _, system, _ = SERVICES[service]
        return self.connections[system].get_object(name, path)

    def mock(self, service, path=None):
        return dbus.Interface(self.object(service, path or SERVICES[service][1]), MOCK)

    # Commands

    def start(self, service, parameters=None):
        name, path, system, arguments = SERVICES[service]
        argv = [sys.executable, "-m", "dbusmock"] + arguments
        if parameters:
            argv += ["-p", parameters]
        self.mocks[service] = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
        # Answers once the template is loaded: dbusmock loads it before it serves a call.
        dbusmock.DBusTestCase.wait_for_bus_object(name, path, system_bus=system)
        return str(self.mocks[service].pid)

    def stop(self, service):
        process = self.mocks.pop(service)
        process.terminate()
        process.wait()

    def upower_display(self, percentage):
        self.mock("upower").SetupDisplayDevice(
            dbus.UInt32(2), dbus.UInt32(2), dbus.Double(float(percentage)), dbus.Double(40.0), dbus.Double(80.0),
            dbus.Double(2.5), dbus.Int64(3600), dbus.Int64(0), True, "battery", dbus.UInt32(1))

    def upower_percentage(self, percentage):
        display = dbus.Interface(self.object("upower", DISPLAY), PROPERTIES)
        display.Set(UPOWER_DEVICE, "Percentage", dbus.Double(float(percentage)))

    def upower_update_time(self, seconds):
        # What UPower sends on every reading: a change of UpdateTime alone.
        self.mock("upower", DISPLAY).EmitSignal(
            PROPERTIES, "PropertiesChanged", "sa{sv}as",
            [UPOWER_DEVICE, dbus.Dictionary({"UpdateTime": dbus.UInt64(int(seconds))}, signature="sv"),
             dbus.Array([], signature="s")])

    def upower_on_battery(self, value):
        main = dbus.Interface(self.object("upower", "/org/freedesktop/UPower"), PROPERTIES)
        main.Set("org.freedesktop.UPower", "OnBattery", dbus.Boolean(value == "true"))

    def nm_setup(self, ssid):
        nm = self.mock("networkmanager")
        device = nm.AddWiFiDevice("wlan0", "wlan0", dbus.UInt32(100))
        point = nm.AddAccessPoint(device, "ap0", ssid, "00:11:22:33:44:55", dbus.UInt32(2), dbus.UInt32(2412),
                                  dbus.UInt32(54000), dbus.Byte(80), dbus.UInt32(0))
        connection = nm.AddWiFiConnection(device, "home", ssid, "")
        self.paths.update(device=device, point=point, connection=connection)

    def nm_join(self):
        nm = self.mock("networkmanager")
        self.paths["active"] = nm.AddActiveConnection(
            [self.paths["device"]], self.paths["connection"], self.paths["point"], "0", dbus.UInt32(2))
        return self.paths["active"]

    def nm_leave(self):
        self.mock("networkmanager").RemoveActiveConnection(self.paths["device"], self.paths["active"])

    def nm_state(self, state):
        self.mock("networkmanager").SetGlobalConnectionState(dbus.UInt32(int(state)))

    def logind_setup(self, session, uid):
        logind = self.mock("logind")
        logind.AddSession(session, "seat0", dbus.UInt32(int(uid)), "flow", True)
        logind.AddProperty(LOGIND, "InhibitDelayMaxSec", dbus.UInt64(5_000_000))

    def lock(self, session):
        self.object("logind", f"/org/freedesktop/login1/session/{session}").Lock(
            dbus_interface="org.freedesktop.login1.Session")

    def unlock(self, session):
        self.object("logind", f"/org/freedesktop/login1/session/{session}").Unlock(
            dbus_interface="org.freedesktop.login1.Session")

    def sleep(self, value):
        self.mock("logind").EmitSignal(LOGIND, "PrepareForSleep", "b", [dbus.Boolean(value == "true")])

    def inhibitors(self, count):
        # logind's stand-in says nothing when an inhibitor is closed: its list is looked at until it has
        # `count` entries, for at most a minute.
        manager = dbus.Interface(self.object("logind", "/org/freedesktop/login1"), LOGIND)
        deadline = time.monotonic() + 60
        while True:
            current = manager.ListInhibitors()
            if len(current) == int(count):
                return ";".join(f"{what} {who} {mode}" for what, who, _, mode, _, _ in current)
            if time.monotonic() > deadline:
                raise RuntimeError(f"{len(current)} inhibitors, not {count}")
            time.sleep(0.02)

    def udisks_add(self, name, label, uuid):
        udisks = self.mock("udisks")
        drive = f"{UDISKS}/drives/{name}"
        block = f"{UDISKS}/block_devices/{name}"
        drive_properties = {"Removable": True, "MediaRemovable": True, "ConnectionBus": "usb"}
        udisks.AddObject(drive, "org.freedesktop.UDisks2.Drive", drive_properties, [])
        block_properties = {
            "IdLabel": label, "IdUUID": uuid, "Drive": dbus.ObjectPath(drive), "HintSystem": False,
            "Device": dbus.ByteArray(f"/dev/{name}\0".encode()),
        }
        udisks.AddObject(block, "org.freedesktop.UDisks2.Block", block_properties, [])
        filesystem = dbus.Dictionary({"MountPoints": dbus.Array([], signature="ay")}, signature="sv")
        self.mock("udisks", block).AddProperties("org.freedesktop.UDisks2.Filesystem", filesystem)
        for path, interfaces in ((drive, {"org.freedesktop.UDisks2.Drive": drive_properties}),
                                 (block, {"org.freedesktop.UDisks2.Block": block_properties,
                                          "org.freedesktop.UDisks2.Filesystem": filesystem})):
            udisks.EmitSignal(OBJECT_MANAGER, "InterfacesAdded", "oa{sa{sv}}",
                              [dbus.ObjectPath(path), dbus.Dictionary(interfaces, signature="sa{sv}")])

    def udisks_mount(self, name, mount_point=None):
        points = [dbus.ByteArray((mount_point + "\0").encode())] if mount_point else []
        block = dbus.Interface(self.object("udisks", f"{UDISKS}/block_devices/{name}"), PROPERTIES)
        block.Set("org.freedesktop.UDisks2.Filesystem", "MountPoints", dbus.Array(points, signature="ay"))

    def udisks_unmount(self, name):
        self.udisks_mount(name)

    def portal_setup(self, bind_response):
        portal = self.mock("portal")
        portal.AddProperty(SHORTCUTS, "version", dbus.UInt32(1))
        portal.AddMethod("org.freedesktop.host.portal.Registry", "Register", "sa{sv}", "", "")
        session = "{'session_handle': '/org/freedesktop/portal/desktop/session/standin/' + args[0]['session_handle_token']}"
        portal.AddMethod(SHORTCUTS, "CreateSession", "a{sv}", "o", ANSWER.format(options=0, code=0, results=session))
        portal.AddMethod(SHORTCUTS, "BindShortcuts", "oa(sa{sv})sa{sv}", "o",
                         ANSWER.format(options=3, code=int(bind_response), results="{}"))

    def notifications(self):
        """The summaries of the notifications shown so far, in order, joined by ';'."""
        calls = self.mock("notifications").GetMethodCalls("Notify")
        return ";".join(str(arguments[3]) for _, arguments in calls)

    def portal_calls(self, method):
        calls = self.mock("portal").GetMethodCalls(method)
        return ";".join(" ".join(describe(argument) for argument in arguments) for _, arguments in calls)

    def portal_press(self, shortcut):
        session = "/org/freedesktop/portal/desktop/session/standin/flow1"
        self.mock("portal").EmitSignal(SHORTCUTS, "Activated", "osta{sv}",
                                       [dbus.ObjectPath(session), shortcut, dbus.UInt64(0), dbus.Dictionary({}, signature="sv")])

    def unit(self, member, unit):
        # systemd's object path escaping: every byte but a letter or digit as _xx.
        escaped = "".join(c if c.isascii() and c.isalnum() else "_%02x" % ord(c) for c in unit)
        path = "/org/freedesktop/systemd1/unit/" + escaped
        self.mock("systemd").EmitSignal(SYSTEMD, member, "so", [unit, dbus.ObjectPath(path)])

    def unit_new(self, unit):
        self.unit("UnitNew", unit)

    def unit_removed(self, unit):
        self.unit("UnitRemoved", unit)


def describe(value):
    """A D-Bus value as short text: what a test compares."""
    if isinstance(value, dbus.Dictionary):
        return "{" + ",".join(f"{key}={describe(item)}" for key, item in sorted(value.items())) + "}"
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return "[" + ",".join(describe(item) for item in value) + "]"
    return str(value)


def main():
    # The test process may start this with signals blocked, which its children would inherit: then
    # stopping a stand-in (SIGTERM) would not stop it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    # SIGTERM ends it as the end of its standard input does, stopping its buses and stand-ins on the way
    # out: a child the test process started meanwhile may hold that input open, so EOF alone may never come.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    stand_ins = StandIns()
    print("system " + stand_ins.addresses["system"], flush=True)
    print("session " + stand_ins.addresses["session"], flush=True)
    print("ready", flush=True)
    try:
        for line in sys.stdin:
            words = line.split(" ", 2) if line.startswith("start ") else line.split()
            if not words:
                continue
            command = getattr(stand_ins, words[0].replace("-", "_"), None)
            try:
                if command is None:
                    raise RuntimeError(f"no command '{words[0]}'")
                value = command(*[word.strip() for word in words[1:]])
                print("ok" + ("" if value is None else " " + str(value)), flush=True)
            except Exception as error:  # pylint: disable=broad-except
                print("error " + " ".join(str(error).split()), flush=True)
    finally:
        stand_ins.close()


if __name__ == "__main__":
    main()
