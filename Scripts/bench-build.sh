#!/usr/bin/env bash
# Clean build times: the README's release build (`swift build -c release`) and test build (`swift build
# --build-tests`), each from nothing in its own scratch folder, for the working tree and, given a git ref,
# for that ref too (a copy of its files). Then, for each release build, what the binary costs at start-up:
# its size, its protocol conformance records (the runtime scans them), the instructions of
# `flow --version` (callgrind, which counts the same on a busy machine) and its wall time (hyperfine).
#
#   Scripts/bench-build.sh [REF]       # e.g. Scripts/bench-build.sh main
#   JOBS=2 Scripts/bench-build.sh      # build jobs (default 1: the machine is shared)
#
# CPU time (user + sys) is the figure to compare: on a shared machine the wall time grows with everyone
# else's builds, the CPU time hardly. Dependencies are fetched before the clock starts. Takes a while:
# four clean builds with a ref, two without.
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
jobs=${JOBS:-1}

trees=("$root")
names=("working tree")
if [ $# -gt 0 ]; then
  mkdir -p "$work/ref"
  git archive "$1" | tar -x -C "$work/ref"
  trees+=("$work/ref")
  names+=("$1 ($(git rev-parse --short "$1"))")
fi

# One clean build: "wall cpu steps" (seconds, seconds, compile and link steps).
clean_build() {
  local tree=$1 scratch=$2
  shift 2
  rm -rf "$scratch"
  (cd "$tree" && swift package resolve --scratch-path "$scratch" >/dev/null)
  if ! (cd "$tree" && /usr/bin/time -f '%e %U %S' -o "$scratch.time" \
    swift build -j "$jobs" --scratch-path "$scratch" "$@" >"$scratch.log" 2>&1); then
    tail -20 "$scratch.log" >&2
    exit 1
  fi
  local steps
  steps=$(grep -o '^\[[0-9]*/[0-9]*\]' "$scratch.log" | tail -1 | tr -d '[]' | cut -d/ -f2)
  awk -v steps="${steps:-?}" '{ printf "%.0f %.0f %s", $1, $2 + $3, steps }' "$scratch.time"
}

minutes() { awk -v s="$1" 'BEGIN { printf "%d m %02d s", s / 60, s % 60 }'; }

echo "## Clean builds (-j $jobs; CPU time is the figure to compare on a shared machine)"
echo
echo "| tree | build | CPU (user+sys) | wall | steps |"
echo "|---|---|---:|---:|---:|"
binaries=()
for index in "${!trees[@]}"; do
  tree=${trees[$index]}
  for kind in release test; do
    scratch="$work/build-$index-$kind"
    if [ "$kind" = release ]; then
      read -r wall cpu steps < <(clean_build "$tree" "$scratch" -c release)
      binaries+=("$scratch/release/flow")
    else
      read -r wall cpu steps < <(clean_build "$tree" "$scratch" --build-tests)
      rm -rf "$scratch"  # a test build is a few GB
    fi
    echo "| ${names[$index]} | $kind | $(minutes "$cpu") | $(minutes "$wall") | $steps |"
  done
done

echo
echo "## The release binary"
echo
echo "| tree | size | conformance records | \`flow --version\` instructions | \`flow --version\` wall |"
echo "|---|---:|---:|---:|---:|"
for index in "${!binaries[@]}"; do
  binary=${binaries[$index]}
  size=$(stat -c %s "$binary")
  # Each record is a 4-byte relative pointer in the swift5_protocol_conformances section.
  hex=$(readelf -S -W "$binary" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == "swift5_protocol_conformances" { print $5 }')
  records=$((16#${hex:-0} / 4))
  # Callgrind cannot read every build's debug information (nor run every build: "?" then).
  instructions=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" --version 2>&1 \
    | awk '/Collected/ { print $NF }') || true
  wall=$(hyperfine -N --warmup 5 --runs 50 --export-json "$work/startup.json" "$binary --version" >/dev/null \
    && python3 -c 'import json, sys; print("%.1f ms" % (json.load(open(sys.argv[1]))["results"][0]["mean"] * 1000))' \
      "$work/startup.json")
  echo "| ${names[$index]} | $(awk -v b="$size" 'BEGIN { printf "%.1f MB", b / 1e6 }') | ${records:-?} |" \
    "${instructions:-?} | $wall |"
done
