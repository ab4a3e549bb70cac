#!/usr/bin/env bash
# run-shell's cost per command (issue 14): a workflow that runs `true` 1,000 times in a `repeat`, as
# `run-shell: true` (through /bin/sh -c, as a shell loop's `sh -c true` would) and as `command: [/bin/true]`
# (no shell), against a shell loop that runs /bin/true 1,000 times and one that runs `sh -c true`
# 1,000 times. Interleaved, RUNS rounds (15 by default), wall time (processes are started, so the
# kernel's time counts); prints the medians and the median of the rounds' ratios with its quartiles.
# Target: run-shell ≤ 1.3× the loop. The same `run-shell: true` fenced (`fence: {read: [~/]}`, a Landlock
# ruleset applied by each child) against it unfenced, in the same rounds: target ≤ 1.05×. Usage:
#   Scripts/bench-shell.sh [RUNS] [FLOW]
# FLOW defaults to the release build as it ships (Scripts/bench-common.sh's build_flow).
source "$(dirname "${BASH_SOURCE[0]}")/bench-common.sh"
runs=${1:-15}
if [ -n "${2:-}" ]; then flow=$2; else build_flow; fi

cd "$work"
export HOME="$work" XDG_STATE_HOME="$work/state"
printf 'flow: 1\nname: Script\nsteps:\n  - repeat: 1000\n    do:\n      - run-shell: "true"\n' > script.yml
printf 'flow: 1\nname: Command\nsteps:\n  - repeat: 1000\n    do:\n      - run-shell:\n          command: [/bin/true]\n' > command.yml
printf 'flow: 1\nname: Fenced\nsteps:\n  - repeat: 1000\n    do:\n      - run-shell:\n          script: "true"\n          fence: {read: [~/]}\n' > fenced.yml
"$flow" run script.yml >/dev/null
"$flow" run command.yml >/dev/null
"$flow" run fenced.yml >/dev/null

loop_true='i=0; while [ $i -lt 1000 ]; do /bin/true; i=$((i + 1)); done'
loop_sh='i=0; while [ $i -lt 1000 ]; do /bin/sh -c true; i=$((i + 1)); done'
for _ in $(seq "$runs"); do
  for name in loop-true loop-sh flow-command flow-script flow-fenced; do
    case $name in
      loop-true) cmd=(sh -c "$loop_true") ;;
      loop-sh) cmd=(sh -c "$loop_sh") ;;
      flow-command) cmd=("$flow" run command.yml) ;;
      flow-script) cmd=("$flow" run script.yml) ;;
      flow-fenced) cmd=("$flow" run fenced.yml) ;;
    esac
    start=$(date +%s%N)
    "${cmd[@]}" >/dev/null
    echo "$name $(( ($(date +%s%N) - start) / 1000 ))"
  done
done | python3 -c '
import statistics, sys
times = {}
for line in sys.stdin:
    name, micros = line.split()
    times.setdefault(name, []).append(int(micros) / 1e6)
m = {name: statistics.median(values) for name, values in times.items()}
for name in ["loop-true", "loop-sh", "flow-command", "flow-script", "flow-fenced"]:
    print(f"{name:<14} {m[name]:7.3f} s  ({m[name]:.3f} ms per command)")
# The ratio of each round (its runs are next to each other, so they share the load of the machine),
# then the median and quartiles of those: steadier on a busy machine than a ratio of medians.
def ratios(flow, loop):
    values = sorted(f / l for f, l in zip(times[flow], times[loop]))
    q = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return f"x{statistics.median(values):.2f} (median of {len(values)} rounds; quartiles x{q[0]:.2f}-x{q[2]:.2f})"
command, script = ratios("flow-command", "loop-true"), ratios("flow-script", "loop-sh")
print(f"command: [/bin/true] vs the /bin/true loop: {command}")
print(f"run-shell: true vs the sh -c true loop:     {script}")
fenced = ratios("flow-fenced", "flow-script")
print(f"fenced vs unfenced run-shell: true:          {fenced}")
'
