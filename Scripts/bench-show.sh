#!/usr/bin/env bash
# What drawing costs on top of checking (issue 9), measured against `flow validate` in the same run:
#   1. `flow show` of the gallery's largest workflow, and of a generated 2,000-step workflow with nested
#      blocks, against `flow validate` of the same file (the check `flow show` starts with);
#   2. `flow list` of a 200-workflow library against `flow validate` of the same 200 files;
#   3. `flow schema` against `flow actions --json`, which describes the same catalogue.
# Installs hyperfine (apt) when missing. Usage: Scripts/bench-show.sh [--dynamic]
# flow is measured as it ships: a release build with the static Swift standard library (as
# Scripts/bench-run.sh does); --dynamic measures the dynamically linked build instead.
source "$(dirname "$0")/bench-common.sh"
build_flow "${1:-}"

cd "$work"
cp "$root/workflows/triage-unsorted.yml" gallery.yml
large_workflow large.yml
# The library is $XDG_DATA_HOME/flow/workflows (FlowPaths); HOME too is the scratch folder, so that
# nothing here reads or writes the person's own files.
mkdir -p data/flow/workflows
for i in $(seq 1 40); do
  for f in "$root"/workflows/*.yml; do cp "$f" "data/flow/workflows/$(basename "$f" .yml)-$i.yml"; done
done
export HOME="$work" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"
export COLUMNS=100 NO_COLOR=1

mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["mean"])' "$@"; }
ratio() {
  python3 - "$@" <<'PY'
import sys
label, a, b, reference = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
print(f"{label:<28} {a*1000:8.1f} ms   {reference:<24} {b*1000:8.1f} ms   ratio {a/b:5.2f}x")
PY
}

echo "== flow show against flow validate of the same file"
hyperfine -N --warmup 3 --runs 30 --export-json gallery.json \
  "$flow show gallery.yml" "$flow validate gallery.yml" >/dev/null
ratio "show triage-unsorted.yml" "$(mean gallery.json 0)" "$(mean gallery.json 1)" "validate"
hyperfine -N --warmup 2 --runs 10 --export-json large.json \
  "$flow show large.yml" "$flow validate large.yml" >/dev/null
ratio "show 2,000 steps" "$(mean large.json 0)" "$(mean large.json 1)" "validate"

echo "== flow list of 200 workflows against flow validate of the 200 files"
# A list that found no library would be fast and wrong: count its rows first.
listed=$("$flow" list | tail -n +2 | wc -l)
[ "$listed" -eq 200 ] || { echo "error: flow list shows $listed workflows, not 200" >&2; exit 1; }
hyperfine -N --warmup 2 --runs 10 --export-json list.json \
  "$flow list" "$flow validate $(echo data/flow/workflows/*.yml)" >/dev/null
ratio "list (200 workflows)" "$(mean list.json 0)" "$(mean list.json 1)" "validate (200 files)"

echo "== flow schema against flow actions --json"
hyperfine -N --warmup 3 --runs 30 --export-json schema.json "$flow schema" "$flow actions --json" >/dev/null
ratio "schema" "$(mean schema.json 0)" "$(mean schema.json 1)" "actions --json"
