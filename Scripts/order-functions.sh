#!/usr/bin/env bash
# Writes Sources/flow/Linking/order.txt: the functions a start of flow runs, in the order the linker lays
# them out (Architecture.md, start-up).
#
# Every Swift target is compiled with one section per function, and `flow` is linked with
# `--section-ordering-file` (gold, the toolchain's linker here): the code a one-step run executes then sits
# together at the start of the text instead of spread over its 26 MB, and the kernel maps it in a few
# dozen page faults (16 pages each) rather than two hundred. The list comes from callgrind running the
# commands below on the release build; a function missing from it (new code) is laid out as before, so
# the list going stale costs speed, never correctness. Rerun this after large changes to the run path.
# Usage: Scripts/order-functions.sh
source "$(dirname "$0")/bench-common.sh"
command -v valgrind >/dev/null || apt-get install -y -q valgrind >/dev/null
build_flow
# Valgrind gives up on the debug information of a Swift binary this size: it runs a copy without it.
strip --strip-debug -o "$work/flow" "$flow"

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
profile() { valgrind --tool=callgrind --demangle=no --compress-strings=no --callgrind-out-file="$work/cg.$1" "${@:2}" >/dev/null 2>&1; }
./flow run hello.yml >/dev/null # history created, as on every later run
profile 1 ./flow run hello.yml
profile 2 ./flow --version
profile 3 ./flow run steps.yml
profile 4 ./flow run --no-history --json steps.yml
# Each of flow's functions once (callgrind also names the dynamic linker's and libc's), sorted so that the
# file changes only where the run path does: their order among themselves matters little, together they
# fill a few dozen pages. Only a function in a section of its own (`.text.NAME`) can be placed, which is
# every Swift function and most of the runtime's; C++ static initialisers (ICU's, the C++ library's, the
# Swift runtime's) all run before `main` and are all in `.text.startup`.
nm --defined-only "$flow" | awk '{ print $3 }' | sort -u > symbols
{
echo .text.startup
cat cg.1 cg.2 cg.3 cg.4 | sed -n 's/^c\?fn=\(([0-9]*) \)\?//p' | LC_ALL=C sort -u \
  | awk 'NR == FNR { known[$0] = 1; next } known[$0] { print ".text." $0 }' symbols -
} > "$root/Sources/flow/Linking/order.txt"
echo "$(wc -l < "$root/Sources/flow/Linking/order.txt") functions in Sources/flow/Linking/order.txt"
