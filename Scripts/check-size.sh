#!/usr/bin/env bash
# The size of `flow` as the README installs it (`install -s`: the release build, stripped of its symbol
# table and debug information) against its budget of 65 MB (issue 30), whether it links
# swift-corelibs-foundation (libFoundation.a, libCoreFoundation.a: the engine's modules import
# FoundationEssentials instead, Performance.md), and what fills it: the largest symbols of the unstripped
# build, among them ICU's data (Performance.md says what taking it out would take). `.ci/run` runs it.
# Exits 1 over budget or when corelibs Foundation is linked.
# Usage: Scripts/check-size.sh [BINARY]   (default: .build/release/flow, built as the README builds it)
set -euo pipefail
cd "$(dirname "$0")/.."
budget=65000000

binary=${1:-}
if [ -z "$binary" ]; then
  swift build -c release --product flow --static-swift-stdlib -Xlinker -no-pie --disable-local-rpath >/dev/null
  binary=.build/release/flow
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The README's install.
install -D -s "$binary" "$work/bin/flow"

built=$(stat -c %s "$binary")
installed=$(stat -c %s "$work/bin/flow")
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
echo "flow as built:     $(mb "$built")"
echo "flow as installed: $(mb "$installed") (install -s), $(awk -v i="$installed" -v b="$budget" 'BEGIN { printf "%.2f", i / b }')x the budget of $(mb "$budget")"
echo "largest symbols of the build:"
nm --size-sort -S -C "$binary" 2>/dev/null | tail -5 | tac | while read -r _ size _ name; do
  printf '  %9s  %s\n' "$(mb "$((16#$size))")" "${name:0:90}"
done
# swift-corelibs-foundation's Swift symbols (module `10Foundation` in a mangled name: `$s10Foundation…`, and
# its extensions, `$sSy10FoundationE…`) and CoreFoundation's C ones (`__CF…`, `CF…`), in the unstripped build;
# not the Unicode tables `__CFUniChar…`, which FoundationEssentials carries a copy of for CharacterSet.
corelibs_symbols() {
  nm --defined-only "$binary" 2>/dev/null |
    awk '($3 ~ /^\$s/ && $3 ~ /10Foundation/) || (($3 ~ /^_?_CF/ || $3 ~ /^CF[A-Z]/) && $3 !~ /^__CFUniChar/) { print $3 }'
}
corelibs=$(corelibs_symbols | wc -l)
echo "swift-corelibs-foundation symbols: $corelibs"
status=0
if [ "$corelibs" -gt 0 ]; then
  echo "error: flow links swift-corelibs-foundation ($corelibs symbols), e.g.:" >&2
  corelibs_symbols | awk 'NR <= 5 { print "  " $0 }' >&2
  status=1
fi
if [ "$installed" -gt "$budget" ]; then
  echo "error: the installed flow is $(mb "$installed"), over its budget of $(mb "$budget")" >&2
  status=1
fi
exit "$status"
