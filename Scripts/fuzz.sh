#!/usr/bin/env bash
# The fuzzing harness (CONTRIBUTING.md): libFuzzer on flow's parsers and the whole check of a file.
# Usage: Scripts/fuzz.sh TARGET|all [SECONDS]   (default 60 s per target; targets: flow-fuzz's list)
#        Scripts/fuzz.sh build                  (only build .build-fuzz/release/flow-fuzz)
# Builds flow-fuzz with -sanitize=fuzzer in its own scratch folder (.build-fuzz), never touching .build;
# makes each target's seed corpus from the project's YAML files; runs libFuzzer for SECONDS, keeping what
# it learns in .build-fuzz/corpus/TARGET. A crash, a hang (FUZZ_TIMEOUT seconds for one input, default 10)
# or a run past FUZZ_RSS_MB of memory (default 2048) is written to .build-fuzz/findings/TARGET/ and the
# script exits 1; it becomes a regression file in Tests/FuzzRegressions/TARGET/.
# Environment: FUZZ_JOBS (build jobs, default 1), FUZZ_NICE (default 19), FUZZ_ARGS (more libFuzzer options).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch="$root/.build-fuzz"
target="${1:?usage: Scripts/fuzz.sh TARGET|all|build [SECONDS]}"
seconds="${2:-60}"
binary="$scratch/release/flow-fuzz"

build() {
  mkdir -p "$scratch"
  # The default linker here, gold, stops with an internal error on libFuzzer's objects; lld, which
  # ships with Swift, links them. A toolset is how SwiftPM is told (-Xswiftc -use-ld does not reach
  # the link step).
  local lld
  lld="$(dirname "$(readlink -f "$(command -v swift)")")/ld.lld"
  printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" >"$scratch/toolset.json"
  swift build -c release -j "${FUZZ_JOBS:-1}" --scratch-path "$scratch" --product flow-fuzz \
    --toolset "$scratch/toolset.json" -Xswiftc -sanitize=fuzzer >&2
}

run() {
  # Not .build-fuzz/artifacts: SwiftPM empties that folder (its binary artifacts) at every build.
  local name="$1" corpus="$scratch/corpus/$1" seeds="$scratch/seeds/$1" artifacts="$scratch/findings/$1/"
  local log="$scratch/logs/$1.log"
  rm -rf "$seeds"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  "$binary" seeds "$name" "$seeds" "$root" >&2
  # Past findings seed the run too, fixed or not: the paths around a bug are worth going back to.
  for folder in "Tests/FuzzRegressions/$name" "Tests/FuzzRegressions/pending/$name"; do
    [ -d "$folder" ] && cp "$folder"/* "$seeds"/ 2>/dev/null || true
  done
  local status=0
  # The Swift runtime's backtracer would take the crash signal before libFuzzer, which then never
  # writes the input that caused it.
  # shellcheck disable=SC2086
  SWIFT_BACKTRACE=enable=no nice -n "${FUZZ_NICE:-19}" "$binary" "$name" -max_total_time="$seconds" \
    -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -artifact_prefix="$artifacts" \
    -print_final_stats=1 ${FUZZ_ARGS:-} "$corpus" "$seeds" >"$log" 2>&1 || status=$?
  local executions
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ "$status" -eq 0 ]; then
    echo "$name: ${executions:-?} executions in $seconds s, nothing found (log: $log)"
  else
    echo "$name: FOUND something after ${executions:-?} executions (status $status); input in $artifacts, log: $log"
    grep -E '^(==[0-9]+== ERROR|SUMMARY|Fatal error|.*Fatal error)' "$log" | head -5 || true
  fi
  return "$status"
}

build
case "$target" in
build) exit 0 ;;
all)
  failed=0
  for name in $("$binary" list); do run "$name" || failed=1; done
  exit "$failed"
  ;;
*) run "$target" ;;
esac
