#!/usr/bin/env bash
# What reading a secret from the keyring costs a run (issue 31): `flow run` of a one-step workflow that
# shows ${secret.bench-token} against the same workflow without it — the difference is what the secret
# adds (the goal: at most 5 ms) — and that difference against `secret-tool lookup` (libsecret) reading
# the same item, the reference (the goal: a ratio of at most 1.0). Runs are interleaved command by
# command, so a busy machine slows each alike. GNOME Keyring runs on a private session bus, unlocked, as
# the tests start it.
# flow is measured as it ships: a release build with the static Swift standard library; FLOW=path
# measures that binary instead. Usage: Scripts/bench-secrets.sh [RUNS]
source "$(dirname "$0")/bench-common.sh"
runs=${1:-200}
for tool in dbus-daemon gnome-keyring-daemon secret-tool gdbus; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: run Scripts/setup.sh" >&2; exit 1; }
done
if [ -n "${FLOW:-}" ]; then flow=$FLOW; else build_flow; fi

export HOME="$work/home" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"
export XDG_RUNTIME_DIR="$work/run"
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
cat > "$work/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$work</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
  </policy>
</busconfig>
EOF
mkfifo "$work/address"
dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=1 > "$work/address" 2>/dev/null &
bus=$!
keyring=
trap 'kill $keyring "$bus" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
read -r address < "$work/address"
export DBUS_SESSION_BUS_ADDRESS="$address"
# In the foreground, so that its pid is known and the clean-up ends it.
printf %s bench-password | gnome-keyring-daemon --foreground --unlock --components=secrets > /dev/null 2>&1 &
keyring=$!
gdbus wait --session --timeout 20 org.freedesktop.secrets

printf 'bench-value-%s' "$RANDOM$RANDOM" | "$flow" secrets set bench-token > /dev/null
cd "$work"
printf 'flow: 1\nname: Plain\nsteps:\n  - show: hello\n' > plain.yml
printf 'flow: 1\nname: Secret\nsecrets: [bench-token]\nsteps:\n  - show: hello ${secret.bench-token}\n' > secret.yml
"$flow" run secret.yml | grep -q 'hello ••••' || { echo "the run did not read the secret" >&2; exit 1; }

python3 - "$flow" "$runs" <<'PY'
import os, statistics, subprocess, sys, time
flow, runs = sys.argv[1], int(sys.argv[2])
commands = {
    "flow run (no secret)": [flow, "run", "--no-history", "plain.yml"],
    "flow run (one secret)": [flow, "run", "--no-history", "secret.yml"],
    "secret-tool lookup": ["secret-tool", "lookup", "service", "flow", "account", "bench-token"],
}
devnull = os.open(os.devnull, os.O_WRONLY)
samples = {name: [] for name in commands}
for i in range(runs + 10):
    for name, argv in commands.items():
        start = time.perf_counter()
        subprocess.run(argv, stdout=devnull, stderr=devnull, check=True)
        if i >= 10:
            samples[name].append((time.perf_counter() - start) * 1000)
median = {name: statistics.median(values) for name, values in samples.items()}
for name, value in median.items():
    print(f"{name:<28} median {value:7.2f} ms   ({runs} runs, interleaved)")
added = median["flow run (one secret)"] - median["flow run (no secret)"]
reference = median["secret-tool lookup"]
print(f"{'reading the secret adds':<28}        {added:7.2f} ms   (goal: at most 5 ms)")
print(f"{'against secret-tool lookup':<28}        {added / reference:7.2f}x  (goal: at most 1.0x)")
PY
