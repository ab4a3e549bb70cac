#!/usr/bin/env bash
# Start-up in instructions (issue 14's "starts no slower than before", issue 17's cold start): callgrind's
# count of `flow run hello.yml` (one `show` step, history on) and of `flow --version`, for this checkout
# and, with --against COMMIT, for COMMIT built the same way in a scratch worktree, side by side.
# Instructions, not time: callgrind counts the same on every run whatever else the machine does, so two
# builds compare on a busy machine. Each command runs three times before it is counted (history's
# database exists, as it does for anyone who has run flow before).
#
# Usage: Scripts/bench-startup.sh [--dynamic] [--against COMMIT] [--profile DIR]
#   --against COMMIT  also build COMMIT (a clean release build: it takes as long as one) and compare;
#   --profile DIR     keep callgrind's profiles in DIR (callgrind_annotate DIR/run.<label>.out) to see
#                     where the instructions go.
# Installs valgrind (apt) when missing.
source "$(dirname "$0")/bench-common.sh"
dynamic="" against="" profile=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dynamic) dynamic=--dynamic ;;
    --against) against="$2"; shift ;;
    --profile) profile="$(realpath "$2")"; mkdir -p "$profile"; shift ;;
    *) echo "usage: $0 [--dynamic] [--against COMMIT] [--profile DIR]" >&2; exit 64 ;;
  esac
  shift
done
command -v valgrind >/dev/null || apt-get install -y -q valgrind >/dev/null

build_flow "$dynamic"
declare -A binaries=([HEAD]="$flow")
labels=(HEAD)
if [ -n "$against" ]; then
  # Built from a copy of COMMIT's tree, so the working tree's build folder is not touched.
  mkdir -p "$work/reference"
  git archive "$against" | tar -x -C "$work/reference"
  (cd "$work/reference" && build_flow "$dynamic" && cp "$flow" "$work/flow-reference")
  binaries[$against]="$work/flow-reference"
  labels=("$against" HEAD)
fi

cd "$work"
printf 'flow: 1\nname: Hello\nsteps:\n  - show: hello\n' > hello.yml
count() {  # count LABEL NAME ARGV...: callgrind's instruction count of ARGV, run in a home of LABEL's own
  local label=$1 name=$2; shift 2
  local home="$work/home-$label"
  mkdir -p "$home"
  local out=/dev/null
  [ -n "$profile" ] && out="$profile/$name.$label.out"
  for _ in 1 2 3; do XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" \
    "$@" >/dev/null; done
  XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" \
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" 2>&1 >/dev/null |
    awk '/Collected/ { print $NF }'
}
printf '%-24s %16s %16s\n' "" "flow run (M)" "--version (M)"
for label in "${labels[@]}"; do
  # Valgrind gives up on the debug information of a Swift binary this size: it counts a copy without it.
  binary="$work/flow-$label-stripped"
  strip --strip-debug -o "$binary" "${binaries[$label]}"
  run=$(count "$label" run "$binary" run hello.yml)
  version=$(count "$label" version "$binary" --version)
  awk -v l="${label:0:24}" -v r="$run" -v v="$version" 'BEGIN { printf "%-24s %16.2f %16.2f\n", l, r / 1e6, v / 1e6 }'
done
