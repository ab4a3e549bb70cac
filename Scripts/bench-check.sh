#!/usr/bin/env bash
# What checking before the run costs (issue 10), against references measured in the same run:
#   1. a tree of workflows that run each other (20 files, each run 5 times: 100 run-workflow steps)
#      against the same steps written in one file: each file is read and checked once, so the
#      ratio stays near 1 however often a file is run;
#   2. the unattended pre-check (no terminal): `flow run` of a 2,000-step workflow without a terminal,
#      against `flow validate` of the same file, which reads and checks it the same way;
#   3. YAML to a checked workflow at 20,000 steps: `flow validate` of a generated file against a bare libyaml
#      parse of the same file (a small C program, every event read and freed, built here with the system's
#      libyaml): issue 30 asks for at most 5x; with BASELINE, that flow's validate too, in the same run;
#   4. with BASELINE=/path/to/another/flow, `flow run` of a one-step workflow and of a 10,000-step loop
#      with this build against that one (start-up and per-step overhead).
# Installs hyperfine (apt) when missing. Usage: [BASELINE=…/flow] Scripts/bench-check.sh [--dynamic]
source "$(dirname "$0")/bench-common.sh"
build_flow "${1:-}"

cd "$work"
export HOME="$work" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" NO_COLOR=1
steps() { # steps N: N small steps that the checker has to type
  for i in $(seq 1 "$1"); do
    printf '  - text: "item %s of ${workflow.name}"\n    as: t%s\n  - split-text: ${t%s}\n' "$i" "$i" "$i"
  done
}
mkdir -p tree
{ echo "flow: 1"; echo "steps:"; } > flat.yml
{ echo "flow: 1"; echo "steps:"; } > tree/root.yml
for c in $(seq 1 20); do
  { echo "flow: 1"; echo "steps:"; steps 25; } > "tree/child$c.yml"
  steps 25 | sed "s/as: t\([0-9]*\)$/as: c${c}t\1/; s/{t\([0-9]*\)}/{c${c}t\1}/" >> flat.yml
  for _ in 1 2 3 4 5; do echo "  - run-workflow: child$c.yml" >> tree/root.yml; done
done
{ echo "flow: 1"; echo "steps:"; steps 1000; } > big.yml
printf 'flow: 1\nsteps:\n  - show: hello\n' > hello.yml
printf 'flow: 1\nsteps:\n  - repeat: 10000\n    do:\n      - set: fact\n        value: ${index}\n' > loop.yml

mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["mean"])' "$@"; }

echo "== a tree of 20 workflows run 100 times, against the same steps in one file"
"$flow" validate tree/root.yml flat.yml >/dev/null
hyperfine -N --warmup 2 --runs 20 --export-json tree.json "$flow validate tree/root.yml" "$flow validate flat.yml" >/dev/null
python3 - "$(mean tree.json 0)" "$(mean tree.json 1)" <<'PY'
import sys
t, f = map(float, sys.argv[1:])
print(f"tree       {t*1000:7.1f} ms")
print(f"one file   {f*1000:7.1f} ms   tree/one file = {t/f:5.2f}x (each file once: near 1)")
PY

echo "== the unattended pre-check: run (no terminal) against validate, 2,000 steps"
hyperfine -N --warmup 2 --runs 20 --export-json unattended.json "$flow run big.yml" "$flow validate big.yml" >/dev/null
python3 - "$(mean unattended.json 0)" "$(mean unattended.json 1)" <<'PY'
import sys
r, v = map(float, sys.argv[1:])
print(f"run        {r*1000:7.1f} ms")
print(f"validate   {v*1000:7.1f} ms   run/validate = {r/v:5.2f}x (the run also performs 2,000 steps)")
PY

echo "== YAML to a checked workflow, 20,000 steps, against a bare libyaml parse of the same file"
{ echo "flow: 1"; echo "name: Twenty Thousand"; echo "steps:"; steps 10000; } > steps20k.yml
cat > libyaml-parse.c <<'C'
#include <stdio.h>
#include <yaml.h>
/* A bare parse: every event of the file read and freed, nothing built. */
int main(int argc, char **argv) {
  FILE *file = fopen(argv[1], "rb");
  if (!file) return 2;
  yaml_parser_t parser;
  yaml_event_t event;
  long events = 0;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_file(&parser, file);
  for (;;) {
    if (!yaml_parser_parse(&parser, &event)) return 1;
    events++;
    int done = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    if (done) break;
  }
  yaml_parser_delete(&parser);
  fclose(file);
  printf("%ld\n", events);
  return 0;
}
C
cc -O2 -o libyaml-parse libyaml-parse.c -lyaml
"$flow" validate steps20k.yml >/dev/null
# With BASELINE, its validate is measured in the same run, between the two.
commands=("$flow validate steps20k.yml" "./libyaml-parse steps20k.yml")
[ -n "${BASELINE:-}" ] && commands+=("$BASELINE validate steps20k.yml")
hyperfine -N --warmup 2 --runs 15 --export-json yaml.json "${commands[@]}" >/dev/null
python3 - yaml.json "$(wc -c < steps20k.yml)" <<'PY'
import json, sys
# CPU time (user + system) as well as wall time: on a machine shared with other work, the wall time
# of the longer run is stretched more, and CPU time is the figure to compare.
results = json.load(open(sys.argv[1]))["results"]
flow, bare = results[0], results[1]
size = int(sys.argv[2])
v, p = flow["mean"], bare["mean"]
vc, pc = flow["user"] + flow["system"], bare["user"] + bare["system"]
print(f"validate   {v*1000:7.1f} ms wall, {vc*1000:7.1f} ms CPU   ({size/1e6:.2f} MB, 20,000 steps)")
print(f"libyaml    {p*1000:7.1f} ms wall, {pc*1000:7.1f} ms CPU")
print(f"validate/libyaml = {v/p:5.2f}x wall, {vc/pc:5.2f}x CPU (issue 30: at most 5x)")
if len(results) > 2:
    base = results[2]
    b, bc = base["mean"], base["user"] + base["system"]
    print(f"baseline   {b*1000:7.1f} ms wall, {bc*1000:7.1f} ms CPU: {b/p:5.2f}x wall, {bc/pc:5.2f}x CPU of libyaml")
PY

if [ -n "${BASELINE:-}" ]; then
  echo "== this build against $BASELINE"
  hyperfine -N --warmup 3 --runs 40 --export-json start.json "$flow run hello.yml" "$BASELINE run hello.yml" >/dev/null
  hyperfine -N --warmup 1 --runs 10 --export-json loop.json "$flow run loop.yml" "$BASELINE run loop.yml" >/dev/null
  python3 - "$(mean start.json 0)" "$(mean start.json 1)" "$(mean loop.json 0)" "$(mean loop.json 1)" <<'PY'
import sys
s, sb, l, lb = map(float, sys.argv[1:])
print(f"one step   {s*1000:7.1f} ms   baseline {sb*1000:7.1f} ms   ratio {s/sb:5.2f}x")
print(f"10,000     {l*1000:7.1f} ms   baseline {lb*1000:7.1f} ms   ratio {l/lb:5.2f}x")
PY
fi
