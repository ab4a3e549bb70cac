#!/usr/bin/env bash
# Installs everything the README's build, run and test commands need on Debian or Ubuntu (Swift 6 itself
# aside): the system packages, and the Python tools the tests compare flow with, in a virtual environment
# in the checkout (.venv-tools/), where the tests look for them first (FlowTestSupport.ReferenceTool).
# The README's set-up command and .ci/run's first step, so the two cannot drift. Safe to run again: it
# installs only what is missing. Uses sudo only when not root (a root container often has no sudo).
#
# Usage: Scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages, each checked by what the build or the tests use from it.
missing=()
command -v pkg-config >/dev/null || missing+=(pkg-config)
# libyaml (the YAML parser), SQLite (the local store and run history) and libsodium (Ed25519 signatures
# of shared workflows), found through pkg-config.
pkg-config --exists yaml-0.1 2>/dev/null || missing+=(libyaml-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libsodium 2>/dev/null || missing+=(libsodium-dev)
# libcurl is loaded at run time (dlopen) for HTTP: get-url and the Raindrop REST client.
/sbin/ldconfig -p 2>/dev/null | grep -q 'libcurl\(-gnutls\)\?\.so\.4' || missing+=(libcurl4)
# The man page test reads `flow manual` with man (man-db) and groff.
command -v man >/dev/null || missing+=(man-db)
command -v groff >/dev/null || missing+=(groff-base)
# The scheduling tests compare flow with systemd's calendar and unit checker.
command -v systemd-analyze >/dev/null || missing+=(systemd)
# The desktop actions are tested against real parts: dunst (notifications) on a private D-Bus session bus
# (dbus-daemon) under Xvfb (xvfb-run), and the clipboard through xclip.
command -v dbus-daemon >/dev/null || missing+=(dbus-daemon)
command -v xvfb-run >/dev/null || missing+=(xvfb)
command -v dunst >/dev/null || missing+=(dunst)
command -v xclip >/dev/null || missing+=(xclip)
# The triggers' D-Bus sources are tested against python-dbusmock's stand-ins for UPower, NetworkManager,
# logind, UDisks2 and the systemd user manager (Tests/BusStandIns), run by the system python3.
/usr/bin/python3 -c 'import dbus, dbusmock' 2>/dev/null || missing+=(python3-dbusmock python3-dbus)
# The share page is tested in Debian's Chromium (Playwright's own browser download needs the internet).
command -v chromium >/dev/null || missing+=(chromium)
command -v trash-list >/dev/null || missing+=(trash-cli)  # delete-files' Trash, checked against trash-cli
# The file trigger's latency benchmark measures flow's watcher against inotifywait, its reference.
command -v inotifywait >/dev/null || missing+=(inotify-tools)
# Without a terminal (issue 31): questions in desktop dialogs, tested with zenity and yad under Xvfb and
# answered by xdotool; launcher entries checked by desktop-file-validate; secrets in GNOME Keyring's Secret
# Service on a private bus, looked up with secret-tool as the reference.
command -v zenity >/dev/null || missing+=(zenity)
command -v yad >/dev/null || missing+=(yad)
command -v xdotool >/dev/null || missing+=(xdotool)
command -v desktop-file-validate >/dev/null || missing+=(desktop-file-utils)
command -v gnome-keyring-daemon >/dev/null || missing+=(gnome-keyring)
command -v secret-tool >/dev/null || missing+=(libsecret-tools)
command -v gdbus >/dev/null || missing+=(libglib2.0-bin)
# Python runs the reference tools below, in a virtual environment (Debian's Python refuses pip outside one,
# PEP 668); python3-venv brings ensurepip, which `python3 -m venv` needs.
command -v python3 >/dev/null || missing+=(python3)
python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "setup: error: installing packages needs root, and sudo is not installed" >&2
    exit 1
  fi
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

# The reference tools, from PyPI: croniter (cron's next fires), kubernetes-validate (the CronJob flow
# writes), check-jsonschema (the editor schema `flow schema` writes) and Playwright (drives Chromium for
# the share page); the MCP SDK and servers below.
venv=.venv-tools
if [ ! -x "$venv/bin/python3" ]; then
  echo "setup: creating $venv (the Python reference tools the tests use)"
  python3 -m venv "$venv"
fi
tools=()
"$venv/bin/python3" -c 'import croniter' 2>/dev/null || tools+=(croniter)
[ -x "$venv/bin/kubernetes-validate" ] || tools+=(kubernetes-validate)
[ -x "$venv/bin/check-jsonschema" ] || tools+=(check-jsonschema)
"$venv/bin/python3" -c 'import playwright' 2>/dev/null || tools+=(playwright)
# MCP (issue 15): the official Python SDK (the test server in Tests/MCPServers, the client that drives `flow mcp` in the tests, and the benchmark's client)
# and two published servers that run offline.
"$venv/bin/python3" -c 'import mcp' 2>/dev/null || tools+=(mcp)
[ -x "$venv/bin/mcp-server-time" ] || tools+=(mcp-server-time)
[ -x "$venv/bin/mcp-server-git" ] || tools+=(mcp-server-git)
if [ ${#tools[@]} -gt 0 ]; then
  echo "setup: installing into $venv: ${tools[*]}"
  "$venv/bin/python3" -m pip install -q --disable-pip-version-check "${tools[@]}"
fi
echo "setup: ready"
