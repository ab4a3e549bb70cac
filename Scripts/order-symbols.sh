#!/usr/bin/env bash
# Writes Sources/flow/Linking/order.txt: the functions a start of flow runs and the data it touches, which
# the linker lays out together (Documentation/Performance.md).
#
# `flow` is linked by lld with `--symbol-ordering-file` (Package.swift): the sections holding these
# symbols come first in their output sections, so the code a one-step run executes and the variables,
# caches and metadata it reads and writes sit on a few dozen pages instead of spread over 24 MB of text
# and 38 MB of data, and the kernel maps them in that many page faults. lld moves a whole section: one
# function of a Swift target (each is compiled with a section per function, as the toolchain's libraries
# are), or the .data or .bss of one object file where there is no finer section. Functions come from
# callgrind, data from valgrind's lackey (every load and store), both running the commands below on the
# release build. A symbol missing from the list (new code) is laid out as before, so the list going stale
# costs speed, never correctness. Rerun this after large changes to the run path.
# Usage: Scripts/order-symbols.sh
source "$(dirname "$0")/bench-common.sh"
command -v valgrind >/dev/null || apt-get install -y -q valgrind >/dev/null
build_flow
# Valgrind gives up on the debug information of a Swift binary this size: it runs a copy without it.
# ($flow is the installed copy, without symbols: the list is read from the build's.)
strip --strip-debug -o "$work/flow" "$built"

cd "$work"
export HOME="$work/home" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"
mkdir -p "$HOME"
printf 'flow: 1\nname: Hello\nsteps:\n  - show: hello\n' > hello.yml
cat > steps.yml <<'YAML'
flow: 1
name: Steps
input:
  name:
    type: text
    default: world
steps:
  - text: "Hello, ${input.name}"
    as: greeting
  - if: ${input.name} == "world"
    then:
      - number: 3
  - repeat: 2
    do:
      - set: count
        value: ${index}
  - show: "${greeting}: ${count}"
YAML
./flow run hello.yml >/dev/null # history created, as on every later run
runs=("--version" "run hello.yml" "run steps.yml" "run --no-history --json steps.yml")
for index in "${!runs[@]}"; do
  # shellcheck disable=SC2086 # each entry is a command line
  valgrind --tool=callgrind --demangle=no --compress-strings=no --callgrind-out-file="cg.$index" \
    ./flow ${runs[$index]} >/dev/null 2>&1
  # shellcheck disable=SC2086
  valgrind --tool=lackey --trace-mem=yes --log-file="mem.$index" ./flow ${runs[$index]} >/dev/null 2>&1
done
# Functions: each name callgrind saw that flow defines (it also names the dynamic linker's and libc's),
# sorted, so that the file changes only where the run path does; their order among themselves matters
# little, together they fill a few dozen pages. Data: every defined object symbol holding an address a
# run loaded or stored, in the order the runs first touched them, which keeps what a short run touches on
# the fewest pages (272 page faults for a one-step run, against 286 sorted).
nm --defined-only "$built" | awk '{ print $3 }' | sort -u > symbols
nm --defined-only --print-size --numeric-sort "$built" | awk 'NF == 4 && $3 ~ /^[bBdDrRvV]$/' > objects
{
  cat cg.* | sed -n 's/^c\?fn=\(([0-9]*) \)\?//p' | LC_ALL=C sort -u \
    | awk 'NR == FNR { known[$0] = 1; next } known[$0]' symbols -
  python3 - objects mem.0 mem.1 mem.2 mem.3 <<'PY'
import bisect, re, sys
starts, ends, names = [], [], []
for line in open(sys.argv[1]):
    address, size, _, name = line.split(maxsplit=3)
    starts.append(int(address, 16)); ends.append(int(address, 16) + int(size, 16)); names.append(name.strip())
seen = set()
access = re.compile(r"^ [LSM] ([0-9a-f]+),")
for path in sys.argv[2:]:
    for line in open(path):
        match = access.match(line)
        if not match:
            continue
        address = int(match.group(1), 16)
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0 and address < ends[index] and index not in seen:
            seen.add(index)
            print(names[index])
PY
} > "$work/order.txt"
# A list that came out nearly empty is a measurement that failed, not a start that runs nothing.
count=$(wc -l < "$work/order.txt")
if [ "$count" -lt 1000 ]; then
  echo "error: only $count symbols found; Sources/flow/Linking/order.txt left as it was" >&2
  exit 1
fi
mv "$work/order.txt" "$root/Sources/flow/Linking/order.txt"
echo "$count symbols in Sources/flow/Linking/order.txt"
# SwiftPM does not see the list change (the linker reads it): the next build of either kind links again.
rm -f "$root/.build/release/flow" "$root/.build-static/release/flow"
