#!/usr/bin/env bash
# Per-step cost of the working tree against another revision (default: main), measured in the same run:
# start-up, 1,000,000 trivial steps (`set` in a `repeat`), the same with --json (every step recorded, with
# its pass id), 100,000 action steps, and 20,000 appends to one list (linear, not quadratic). Both release
# builds run alternately, RUNS times each, and the script prints the median user CPU time of each and the ratio; user time, not wall time, because the
# development machines are shared and wall time follows the neighbours. Usage:
#   Scripts/bench-steps.sh [REV] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-main}
runs=${2:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The reference is built from a copy of REV's tree, so the working tree's build folder is not touched.
mkdir -p "$work/reference"
git archive "$rev" | tar -x -C "$work/reference"
(cd "$work/reference" && swift build -c release --product flow >/dev/null 2>&1)
swift build -c release --product flow >/dev/null
reference="$work/reference/.build/release/flow"
current="$(swift build -c release --product flow --show-bin-path)/flow"

cd "$work"
printf 'flow: 1\nname: Hello\nsteps:\n  - show: hello\n' > hello.yml
printf 'flow: 1\nname: Loop\nsteps:\n  - repeat: 1000000\n    do:\n      - set: fact\n        value: ${index}\n' > million.yml
printf 'flow: 1\nname: Actions\nsteps:\n  - repeat: 100000\n    do:\n      - number: ${index}\n' > actions.yml
printf 'flow: 1\nname: Grow\nsteps:\n  - repeat: 20000\n    do:\n      - append: items\n        value: ${index}\n' > grow.yml

# The median user CPU of `flow run ARGS…` (repeated TIMES in a row, for what is too short to time once)
# over the runs, the two builds alternating.
measure() {
  local label=$1 times=$2
  shift 2
  for _ in $(seq "$runs"); do
    for build in reference current; do
      /usr/bin/time -f "$build %U" sh -c 'n=$1; shift; while [ "$n" -gt 0 ]; do "$@" >/dev/null; n=$((n - 1)); done' \
        sh "$times" "${!build}" run "$@" 2>&1 | tail -1
    done
  done | python3 -c '
import statistics, sys
times = {}
for line in sys.stdin:
    build, seconds = line.split()
    times.setdefault(build, []).append(float(seconds))
ref, cur = statistics.median(times["reference"]), statistics.median(times["current"])
print(f"{sys.argv[1]:<30} {ref:8.3f} s {cur:8.3f} s   x{cur / ref:.2f}")
' "$label"
}

echo "median user CPU                $rev    working tree   ratio"
measure "start-up (100 one-step runs)" 100 hello.yml
measure "1,000,000 set steps" 1 million.yml
measure "1,000,000 set steps --json" 1 million.yml --json
measure "100,000 action steps" 1 actions.yml
measure "20,000 appends to one list" 1 grow.yml
