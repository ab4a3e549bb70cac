#!/usr/bin/env bash
# The idle cost of the scheduler, `flow schedule` (issue 8), measured in one run:
#   1. wake-ups while idle: 100 scheduled workflows whose fires are 10 minutes apart, none of them in the
#      window; the context switches (voluntary and involuntary) of every thread of the scheduler over
#      SECONDS (default 60), read from /proc/PID/task/*/status once a second, so that a thread that
#      comes and goes is seen too. The reference, measured the same way in the same run, is `sleep`,
#      a process that does nothing: the target is no more wake-ups than it has (0);
#   2. resident memory (VmRSS) of the idle scheduler with 100 workflows, against 1 workflow.
# flow is measured as it ships: a release build with the static Swift standard library.
# Usage: Scripts/bench-scheduler.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

flags=(-c release --product flow --static-swift-stdlib --scratch-path .build-static)
swift build "${flags[@]}" >/dev/null
flow="$(swift build "${flags[@]}" --show-bin-path)/flow"

# Every workflow fires at the same minutes, ten apart, chosen so that the next is at least four minutes
# away: the window holds no fire.
minute=$(( (10#$(date -u +%M) + 5) % 10 ))
library() {  # library DIR COUNT
  mkdir -p "$1/data/flow/workflows" "$1/state" "$1/config"
  for i in $(seq -w 1 "$2"); do
    cat > "$1/data/flow/workflows/digest-$i.yml" <<EOF
flow: 1
name: Digest $i
timezone: Europe/Berlin
schedule: "$minute-59/10 * * * *"
input:
  limit:
    type: number
    default: 10
steps:
  - text: "digest $i of \${input.limit}"
    as: title
  - show: \${title}
EOF
  done
}

# Starts the scheduler on a library of COUNT workflows; prints its pid once it has said what it loaded.
# (Run in a command substitution: the caller keeps the pid for the clean-up.)
start() {  # start NAME COUNT
  library "$work/$1" "$2"
  XDG_DATA_HOME="$work/$1/data" XDG_STATE_HOME="$work/$1/state" XDG_CONFIG_HOME="$work/$1/config" \
    HOME="$work/$1" "$flow" schedule > /dev/null 2> "$work/$1.log" &
  local pid=$!
  for _ in $(seq 200); do
    grep -q "flow schedule: $2 workflow" "$work/$1.log" 2>/dev/null && break
    sleep 0.1
  done
  grep -q "flow schedule: $2 workflow" "$work/$1.log" || { cat "$work/$1.log" >&2; exit 1; }
  echo "$pid"
}

# Samples the context switches of every thread of PID each second for SECONDS; prints a summary.
watch_switches() {  # watch_switches LABEL PID
  python3 - "$1" "$2" "$seconds" <<'PY'
import glob, os, sys, time
label, pid, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3])
def sample():
    counts = {}
    for path in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            fields = dict(line.split(":", 1) for line in open(path) if ":" in line)
            counts[path.split("/")[4]] = (int(fields["voluntary_ctxt_switches"]),
                                           int(fields["nonvoluntary_ctxt_switches"]))
        except (OSError, KeyError, ValueError):
            pass
    return counts
first = sample()
seen = dict(first)
born = set()
for _ in range(seconds):
    time.sleep(1)
    for tid, counts in sample().items():
        if tid not in first:
            born.add(tid)
        seen[tid] = counts
last = sample()
voluntary = sum(seen[t][0] - first.get(t, (0, 0))[0] for t in seen)
involuntary = sum(seen[t][1] - first.get(t, (0, 0))[1] for t in seen)
gone = [t for t in first if t not in last]
print(f"{label:<36} threads {len(first)} -> {len(last)} (born {len(born)}, gone {len(gone)})   "
      f"wake-ups over {seconds} s: {voluntary + involuntary} ({voluntary} voluntary, {involuntary} involuntary)")
PY
}

rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
# Anonymous memory (what the scheduler allocated) apart from file pages (the binary, mapped).
parts() { awk '/RssAnon|RssFile/ {printf "%s %d MiB  ", $1, $2 / 1024}' "/proc/$1/status"; }

echo "== idle wake-ups: fires at minute $minute, 10 minutes apart; none in the next ${seconds} s"
sleep $((seconds + 30)) &
reference=$!
pids+=("$reference")
hundred=$(start hundred 100)
pids+=("$hundred")
one=$(start one 1)
pids+=("$one")
sleep 2  # let start-up settle: the first load, Dispatch's threads going idle
# Each watcher writes a file of its own, printed in order once all have ended: three processes writing
# one stream at the same moment ran their lines together.
watch_switches "sleep (reference)" "$reference" > "$work/watch-1.txt" &
watchers=($!)
watch_switches "flow schedule, 1 workflow" "$one" > "$work/watch-2.txt" &
watchers+=($!)
watch_switches "flow schedule, 100 workflows" "$hundred" > "$work/watch-3.txt" &
watchers+=($!)
wait "${watchers[@]}"
cat "$work"/watch-[123].txt

echo "== resident memory of the idle scheduler"
r100=$(rss "$hundred")
r1=$(rss "$one")
echo "  100 workflows: $((r100 / 1024)) MiB ($r100 KiB: $(parts "$hundred"))"
echo "    1 workflow:  $((r1 / 1024)) MiB ($r1 KiB: $(parts "$one"))"
python3 -c "import sys; a, b = int(sys.argv[1]), int(sys.argv[2]); print(f'  ratio {a/b:.2f}x; {(a-b)/99:+.1f} KiB per workflow')" "$r100" "$r1"
grep -c "^scheduled 'Digest" "$work/hundred.log" | sed 's/^/  scheduled lines at start: /'
