#!/usr/bin/env bash
# The cost of run history (issue 8), as ratios measured in one run:
#   1. `flow run` of a one-step workflow with history against `--no-history` (target <= 1.10x);
#   2. a 10,000-step loop with history against `--no-history` (target <= 1.20x);
#   3. when valgrind is installed, the same two comparisons in instructions executed (callgrind), which
#      do not depend on how busy the machine is: on a shared 2-core machine wall-clock ratios of a 10 ms
#      process swing by 20 % from run to run.
# Both sides take the workflow's lock; only history differs. History lives in a fresh temporary
# XDG_STATE_HOME, which grows by one row per run as it would for a person (retention keeps 1,000).
# Installs hyperfine (apt) when missing. Usage: Scripts/bench-history.sh [--dynamic]
# flow is measured as it ships: a release build with the static Swift standard library.
source "$(dirname "$0")/bench-common.sh"
build_flow "${1:-}"

cd "$work"
export HOME="$work" XDG_STATE_HOME="$work/state"
printf 'flow: 1\nname: Hello\nsteps:\n  - show: hello\n' > hello.yml
printf 'flow: 1\nname: Loop\nsteps:\n  - repeat: 10000\n    do:\n      - set: fact\n        value: ${index}\n' > loop.yml

# Alternates the two commands in short rounds, so that a burst of load on a shared machine lands on
# both sides alike, and reports medians (and minimums) of all the rounds' times.
compare() {
  local name=$1 target=$2 rounds=$3 with=$4 without=$5
  for round in $(seq "$rounds"); do
    hyperfine -N --warmup 1 --runs 5 --export-json "round-$round.json" "$with" "$without" >/dev/null 2>&1
  done
  python3 - "$name" "$target" round-*.json <<'PY'
import json, statistics, sys
name, target, files = sys.argv[1], sys.argv[2], sys.argv[3:]
times = [[], []]
for file in files:
    for index, result in enumerate(json.load(open(file))["results"]):
        times[index] += result["times"]
(w, o) = times
print(name)
print(f"  with history    median {statistics.median(w)*1000:7.2f} ms   min {min(w)*1000:7.2f} ms   ({len(w)} runs)")
print(f"  --no-history    median {statistics.median(o)*1000:7.2f} ms   min {min(o)*1000:7.2f} ms")
print(f"  ratio           median {statistics.median(w)/statistics.median(o):5.3f}x      min {min(w)/min(o):5.3f}x   (target <= {target}x)")
PY
  rm -f round-*.json
}

echo "== one step"
compare "flow run hello.yml (one step)" 1.10 12 "$flow run hello.yml" "$flow run --no-history hello.yml"

echo "== 10,000-step loop"
compare "flow run loop.yml (10,001 steps)" 1.20 8 "$flow run loop.yml" "$flow run --no-history loop.yml"

if command -v valgrind >/dev/null; then
  echo "== instructions (callgrind)"
  # valgrind cannot read the static binary's DWARF; without it the counts are the same.
  cp "$flow" flow-nodebug && strip --strip-debug flow-nodebug
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null ./flow-nodebug run "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
  for workflow in hello.yml loop.yml; do
    with=$(count "$workflow"); without=$(count --no-history "$workflow")
    python3 -c 'import sys; w, o = map(int, sys.argv[2:]); print(f"  {sys.argv[1]:10} with {w:>12,}  without {o:>12,}  ratio {w/o:5.3f}x")' \
      "$workflow" "$with" "$without"
  done
fi

# A run only appends to the pending file; reading history moves it into the database.
pending=$(du -k "$XDG_STATE_HOME/flow/history.sqlite-pending" | cut -f1)
"$flow" runs >/dev/null
rows=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from runs").fetchone()[0])' "$XDG_STATE_HOME/flow/history.sqlite")
size=$(du -k "$XDG_STATE_HOME/flow/history.sqlite" | cut -f1)
echo "history after the runs: $rows runs, ${size} KiB (${pending} KiB pending before it was read)"
