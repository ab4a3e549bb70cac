# Sourced by the benchmark scripts: what each of them needs before it measures anything.
#   - the repository's root as $root, and a scratch folder as $work (removed on exit);
#   - hyperfine, installed from Debian's packages when missing;
#   - build_flow [--dynamic]: flow as it ships, a release build with the static Swift standard library
#     at a fixed address, as the README builds and installs it (--dynamic: the dynamically linked
#     build), as $flow;
#   - large_workflow FILE: a 2,000-step workflow (250 blocks of an `if` holding a `for-each` holding six
#     actions with references and step keys), for what grows with the size of a file;
#   - nested_workflow FILE RUNS STEPS: a shared file whose RUNS steps each run one embedded workflow of
#     STEPS steps (issue 16's 2,000 x 2,000: what the analysis of nested workflows costs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v hyperfine >/dev/null; then
  apt-get update -q >/dev/null && apt-get install -y -q hyperfine >/dev/null
fi

build_flow() {
  local flags=(-c release --product flow)
  if [ "${1:-}" != "--dynamic" ]; then
    flags+=(--static-swift-stdlib -Xlinker -no-pie --disable-local-rpath --scratch-path .build-static)
  fi
  swift build "${flags[@]}" >/dev/null
  # Measured as the README installs it: a copy made by install(1). The file the linker wrote starts
  # slower (a one-step run took 9.1 ms from it against 7.9 ms from a copy in the same folder,
  # interleaved: its pages come into memory in smaller pieces).
  # The build itself, with its symbols, for the scripts that read them (order-symbols.sh).
  built="$(swift build "${flags[@]}" --show-bin-path)/flow"
  flow=$(mktemp "$work/flow.XXXXXX")
  install -s "$built" "$flow"
}

large_workflow() {
  python3 - "$1" <<'PY'
import sys
lines = ["flow: 1", "name: Large", "steps:", "  - list: [a, b, c]", "    as: letters"]
for i in range(250):
    lines += [
        f"  - if: ${{letters.count}} >= {i % 5}",
        "    then:",
        "      - for-each: ${letters}",
        f"        as: letter{i}",
        "        do:",
        f"          - text: \"{i}: ${{letter{i}}} of ${{letters}}\"",
        "            when: ${previous} is not empty",
        "          - split-text: ${previous}",
        "          - count: ${previous}",
        "          - calculate: \"${previous} * 2\"",
        "            retry: {attempts: 2, delay: 1s}",
        "          - get-url: https://example.com/${previous}",
        "            timeout: 5s",
        "          - show: ${previous}",
    ]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
}

nested_workflow() {
  python3 - "$@" <<'PY'
import sys
out, runs, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = ["flow: 1", "name: Many Runs", "steps:"]
lines += ["  - run-workflow: child.yml"] * runs
lines += ["workflows:", "  child.yml:", "    flow: 1", "    name: Child", "    steps:"]
for i in range(steps):
    if i % 2:
        lines += [f"      - text: \"step {i} of the child, with a few more words\"", f"        as: t{i}"]
    else:
        lines += [f"      - get-url: https://example.com/{i}"]
open(out, "w").write("\n".join(lines) + "\n")
PY
}
