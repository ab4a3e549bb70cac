#!/usr/bin/env bash
# What sharing costs on top of checking (issue 9), measured against `flow validate` in the same run:
#   1. `flow export --sign` of the gallery's bulk-tag.yml and of a generated 2,000-step workflow, against
#      `flow validate` of the same file (the check export starts with; export then checks its result again);
#   2. `flow import --yes --replace` of the signed export (verify, check, card, write, provenance),
#      against `flow validate` of the exported file;
#   3. `flow export --html` against `flow export` of the same file;
#   4. `flow list` of 200 imported, signed workflows (each read back through its provenance record)
#      against `flow list` of the same 200 files copied in by hand (unsigned);
#   5. `flow import` of a shared file whose 2,000 steps each run one embedded 2,000-step workflow
#      (issue 16: 18 s when every step analysed the workflow again), against `flow validate` of it.
# Installs hyperfine (apt) when missing. Usage: Scripts/bench-sharing.sh [--dynamic]
# flow is measured as it ships: a release build with the static Swift standard library (as
# Scripts/bench-run.sh does); --dynamic measures the dynamically linked build instead.
source "$(dirname "$0")/bench-common.sh"
build_flow "${1:-}"

cd "$work"
cp "$root/workflows/bulk-tag.yml" gallery.yml
large_workflow large.yml
export HOME="$work/home" USER=bench COLUMNS=100 NO_COLOR=1
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -p "$HOME"
"$flow" keys generate >/dev/null 2>&1

mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["mean"])' "$@"; }
ratio() {
  python3 - "$@" <<'PY'
import sys
label, a, b, reference = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
print(f"{label:<30} {a*1000:8.1f} ms   {reference:<26} {b*1000:8.1f} ms   ratio {a/b:5.2f}x")
PY
}

echo "== flow export --sign against flow validate of the same file"
hyperfine -N --warmup 3 --runs 30 --export-json export.json \
  "$flow export gallery.yml --sign -o gallery.flow.yml" "$flow validate gallery.yml" >/dev/null 2>&1
ratio "export --sign bulk-tag.yml" "$(mean export.json 0)" "$(mean export.json 1)" "validate"
hyperfine -N --warmup 2 --runs 10 --export-json large.json \
  "$flow export large.yml --sign -o large.flow.yml" "$flow validate large.yml" >/dev/null 2>&1
ratio "export --sign 2,000 steps" "$(mean large.json 0)" "$(mean large.json 1)" "validate"

echo "== flow import --yes against flow validate of the shared file"
hyperfine -N --warmup 3 --runs 30 --export-json import.json \
  "$flow import gallery.flow.yml --yes --replace" "$flow validate gallery.flow.yml" >/dev/null 2>&1
ratio "import bulk-tag.flow.yml" "$(mean import.json 0)" "$(mean import.json 1)" "validate"
hyperfine -N --warmup 2 --runs 10 --export-json import-large.json \
  "$flow import large.flow.yml --yes --replace" "$flow validate large.flow.yml" >/dev/null 2>&1
ratio "import 2,000 steps" "$(mean import-large.json 0)" "$(mean import-large.json 1)" "validate"

echo "== flow import of 2,000 steps running one embedded 2,000-step workflow, against flow validate"
nested_workflow nested.flow.yml 2000 2000
hyperfine -N --warmup 1 --runs 5 --export-json nested.json \
  "$flow import nested.flow.yml --yes --replace" "$flow validate nested.flow.yml" >/dev/null 2>&1
ratio "import 2,000 x 2,000" "$(mean nested.json 0)" "$(mean nested.json 1)" "validate"

echo "== the share page against the file"
hyperfine -N --warmup 3 --runs 30 --export-json html.json \
  "$flow export gallery.yml --html -o gallery.html" "$flow export gallery.yml -o gallery.flow.yml" >/dev/null 2>&1
ratio "export --html bulk-tag.yml" "$(mean html.json 0)" "$(mean html.json 1)" "export"

echo "== flow list: 200 imported, signed workflows against the same files unsigned"
library="$HOME/.local/share/flow/workflows"
for i in $(seq 1 40); do
  for f in "$root"/workflows/*.yml; do
    name="$(basename "$f" .yml)-$i"
    "$flow" export "$f" --sign -o "$work/shared.flow.yml" 2>/dev/null
    "$flow" import "$work/shared.flow.yml" --as "$name" --yes >/dev/null 2>&1
  done
done
plain="$work/plain"
mkdir -p "$plain/flow/workflows"
for f in "$library"/*.yml; do cp "$f" "$plain/flow/workflows/"; done
hyperfine -N --warmup 2 --runs 10 --export-json list.json \
  "$flow list" "env XDG_DATA_HOME=$plain $flow list" >/dev/null 2>&1
ratio "list (200, signed)" "$(mean list.json 0)" "$(mean list.json 1)" "list (200, unsigned)"
