#!/usr/bin/env bash
# The cost of triggers (issue 29), in one run, each against a reference measured the same way:
#   1. latency: a file closed in a watched folder -> the workflow's first step running, over RUNS files
#      (default 200) written one at a time, p50 and p99. The workflow's first step writes the file's name
#      into a FIFO the driver reads. The reference is `inotifywait -m` piped into a shell loop that starts
#      /bin/true and then writes the name into the same kind of FIFO.
#   2. idle: 50 armed automations (file triggers on 50 folders) for SECONDS (default 60): the
#      scheduler's wake-ups (context switches of every thread, as bench-scheduler.sh counts them) against
#      `sleep`, which has none, and its anonymous memory (RssAnon).
# flow is measured as it ships: a release build with the static Swift standard library. Start-up of a
# plain run is Scripts/bench-startup.sh (--against the commit before).
# Usage: Scripts/bench-automations.sh [RUNS] [SECONDS]
source "$(dirname "$0")/bench-common.sh"
runs=${1:-200}
seconds=${2:-60}
command -v inotifywait >/dev/null || { echo "inotifywait is missing: Scripts/setup.sh installs inotify-tools" >&2; exit 1; }
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT

build_flow
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_STATE_HOME="$work/home/state" XDG_CONFIG_HOME="$work/home/config"
library="$XDG_DATA_HOME/flow/workflows"
mkdir -p "$library" "$work/watched" "$work/reference" "$HOME"

# Waits for a line in a log: the scheduler says when it has armed.
await() {  # await FILE TEXT
  for _ in $(seq 300); do grep -q "$2" "$1" 2>/dev/null && return; sleep 0.1; done
  cat "$1" >&2
  exit 1
}

# Writes RUNS files into DIR one at a time, each after the last one's name came back through FIFO;
# prints p50 and p99 in milliseconds and keeps the samples in OUT.
measure() {  # measure LABEL DIR FIFO OUT
  python3 - "$@" "$runs" <<'PY'
import os, sys, time
label, folder, fifo, out, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
reader = os.fdopen(os.open(fifo, os.O_RDWR), "r")
samples = []
for i in range(runs + 10):
    name = f"file-{i:04}.txt"
    start = time.monotonic_ns()
    with open(os.path.join(folder, name), "w") as f:
        f.write("x")
    line = reader.readline().strip()
    elapsed = (time.monotonic_ns() - start) / 1e6
    assert line == name, (line, name)
    if i >= 10:  # the first ones warm the page cache
        samples.append(elapsed)
samples.sort()
p50, p99 = samples[len(samples) // 2], samples[int(len(samples) * 0.99) - 1]
open(out, "w").write(f"{p50} {p99}\n")
print(f"{label:<44} p50 {p50:6.2f} ms   p99 {p99:6.2f} ms   ({runs} files)")
PY
}

echo "== a file closed -> the first step running"
mkfifo "$work/reference.fifo" "$work/flow.fifo" "$work/events"
# inotifywait into a FIFO rather than a pipe, so that its own pid is known and the clean-up ends it.
inotifywait -m -q -e close_write -e moved_to --format %f "$work/reference" > "$work/events" &
pids+=($!)
while read -r name; do
  /bin/true
  echo "$name" > "$work/reference.fifo"
done < "$work/events" &
pids+=($!)
sleep 1  # inotifywait says nothing once it watches; give it the second it needs
measure "inotifywait -m | sh loop starting /bin/true" "$work/reference" "$work/reference.fifo" "$work/reference.txt"

cat > "$library/latency.yml" <<EOF
flow: 1
name: Latency
on:
  - file: $work/watched
steps:
  - append-to-file:
      text: \${trigger.file.name}
      path: $work/flow.fifo
EOF
"$flow" schedule > /dev/null 2> "$work/scheduler.log" &
pids+=($!)
await "$work/scheduler.log" "armed 'Latency'"
measure "flow schedule, file trigger -> step 1" "$work/watched" "$work/flow.fifo" "$work/flow.txt"
python3 - "$work/reference.txt" "$work/flow.txt" <<'PY'
import sys
reference = [float(x) for x in open(sys.argv[1]).read().split()]
flow = [float(x) for x in open(sys.argv[2]).read().split()]
print(f"  ratio against the reference: p50 {flow[0] / reference[0]:.2f}x   p99 {flow[1] / reference[1]:.2f}x"
      f"   (target: p99 <= 50 ms and <= 1.2x)")
PY
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true

echo "== idle: 50 armed automations for ${seconds} s"
rm -f "$library/latency.yml"
for i in $(seq -w 1 50); do
  mkdir -p "$work/folders/$i"
  printf 'flow: 1\nname: Watch %s\non:\n  - file: %s\nsteps:\n  - show: ${trigger.file.name}\n' \
    "$i" "$work/folders/$i" > "$library/watch-$i.yml"
done
"$flow" schedule > /dev/null 2> "$work/idle.log" &
scheduler=$!
pids+=("$scheduler")
sleep $((seconds + 5)) &
reference=$!
pids+=("$reference")
await "$work/idle.log" "armed 'Watch 50'"
sleep 2  # start-up settles
python3 - "$seconds" "$reference" "$scheduler" <<'PY'
import glob, sys, time
seconds, pids = int(sys.argv[1]), sys.argv[2:]
def switches(pid):
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/status"):
        fields = dict(line.split(":", 1) for line in open(path) if ":" in line)
        total += int(fields["voluntary_ctxt_switches"]) + int(fields["nonvoluntary_ctxt_switches"])
    return total
first = [switches(pid) for pid in pids]
time.sleep(seconds)
last = [switches(pid) for pid in pids]
for label, a, b in zip(["sleep (reference)", "flow schedule, 50 automations"], first, last):
    print(f"  {label:<32} wake-ups over {seconds} s: {b - a}")
PY
awk '/RssAnon/ {printf "  flow schedule, 50 automations: anonymous memory %.2f MiB (target <= 2 MiB)\n", $2 / 1024}' \
  "/proc/$scheduler/status"
