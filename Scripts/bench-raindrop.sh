#!/usr/bin/env bash
# Raindrop benchmarks, run on demand (never in tests).
#
#   Scripts/bench-raindrop.sh              # requests at the Raindrop stand-in: tagging 1,000 bookmarks one by one
#                                          # against the bulk endpoint, and 500 requests against a scaled-down
#                                          # rate window (429s received, achieved fraction of the allowed rate)
#   Scripts/bench-raindrop.sh --real-clock # the rate scenario on the real clock with a 2 s window (~40 s)
#   Scripts/bench-raindrop.sh get-all [N...]
#       # `get-bookmarks` with `max-results: all` over a local store of N bookmarks (default 2,500, 10,000
#       # and 100,000), newest first and with a search that matches them all: CPU time (user + sys, the
#       # best of 3) of `flow run` as it ships, which should grow linearly (issue 17: 10,000 in <= 0.25 s,
#       # 100,000 in <= 2.5 s). FLOW=path and RAINDROP_BENCH=path measure other builds (an older
#       # commit's, say): the store is filled by that raindrop-bench, so it has that build's schema.
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
export no_proxy=127.0.0.1,localhost NO_PROXY=127.0.0.1,localhost

if [ "${1:-}" != get-all ]; then
  swift build --product raindrop-bench >&2
  "$(swift build --show-bin-path)/raindrop-bench" "$@"
  exit
fi
shift
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(2500 10000 100000)

if [ -n "${FLOW:-}" ]; then flow=$FLOW; else build_flow; fi
# The store is filled by raindrop-bench, in release so that 100,000 bookmarks take seconds.
if [ -n "${RAINDROP_BENCH:-}" ]; then
  bench=$RAINDROP_BENCH
else
  release=(-c release --static-swift-stdlib --scratch-path .build-static)
  # raindrop-bench links FoundationNetworking (through FlyingFox), whose static archive asks for -lcurl:
  # the development package's libcurl.so, which a machine with only flow's runtime needs lacks.
  pkg-config --exists libcurl 2>/dev/null || apt-get install -y -q libcurl4-openssl-dev >/dev/null
  swift build "${release[@]}" --product raindrop-bench >/dev/null
  bench="$(swift build "${release[@]}" --show-bin-path)/raindrop-bench"
fi

cat >"$work/newest.yml" <<'YAML'
flow: 1
name: Every bookmark
steps:
  - get-bookmarks:
      max-results: all
  - count: ${previous}
  - show: "${previous} bookmarks"
YAML
cat >"$work/search.yml" <<'YAML'
flow: 1
name: Every bookmark found
steps:
  - get-bookmarks:
      search-text: "#bench"
      max-results: all
  - count: ${previous}
  - show: "${previous} bookmarks"
YAML

# The best of three: user + sys seconds, and the line the run showed.
cpu() {
  local best="" line
  for _ in 1 2 3; do
    line=$(XDG_DATA_HOME="$1" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" \
      /usr/bin/time -f '%U %S' -o "$work/time" "$flow" run "$2" --backend local --no-history 2>"$work/stderr")
    local seconds
    seconds=$(awk '{ printf "%.2f", $1 + $2 }' "$work/time")
    if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$seconds; fi
  done
  echo "$best s | $line"
}

echo "## get-bookmarks, max-results: all (local store; CPU time, best of 3)"
echo
echo "| bookmarks | newest first | per bookmark | search #bench | per bookmark |"
echo "|---:|---:|---:|---:|---:|"
for count in "${counts[@]}"; do
  data="$work/data-$count"
  mkdir -p "$data/flow"
  "$bench" write-store "$data/flow" "$count" bench
  newest=$(cpu "$data" "$work/newest.yml")
  search=$(cpu "$data" "$work/search.yml")
  for result in "$newest" "$search"; do
    case "$result" in *"| $count bookmarks") ;; *) echo "error: expected $count bookmarks, got: $result" >&2; exit 1 ;; esac
  done
  per() { awk -v s="${1%% s*}" -v n="$count" 'BEGIN { printf "%.1f µs", s * 1e6 / n }'; }
  echo "| $count | ${newest%% |*} | $(per "$newest") | ${search%% |*} | $(per "$search") |"
done
