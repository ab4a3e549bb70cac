#!/usr/bin/env bash
# MCP client speed (issue 15), ratios measured in one run, interleaved by hyperfine:
#   1. 100 `tools/call`s of one tool (the test server's `echo`) from one `flow run` (a `repeat: 100`),
#      against the official Python SDK's client making the same 100 calls to the same server; both start
#      the server once, so the ratio is the client's cost (goal: flow ≤ 1.0×);
#   2. `flow validate` of a workflow calling cached tools against the same workflow with built-ins only
#      (goal: ≤ 1.1×, printed as a ratio): the registry reads config.yml and the cache of the server the
#      workflow names (not the others'), describes only the tools it calls, never starts a server;
#   3. the start-up of a run that uses no server, in instructions (callgrind) and wall time: the MCP
#      client must add nothing to it (the servers are read only when an id is not built in).
# Measured 2026-11-25 (ec55f58, release, static, a shared 2-core machine): 100 calls 2.72 s against the
# SDK client's 3.29 s (flow 0.83x); validate of 400 steps 1.01x in wall and CPU time, 1.14x in instructions
# (62.4 M / 54.7 M; 1.20x before tool ids went straight to their server's catalogue), the tool workflow
# having more YAML per step; a run with servers configured 13.83 M instructions against 13.63 M with none
# (config.yml's servers block is read and parsed, never a cache).
# Needs Scripts/setup.sh's .venv-tools (the `mcp` SDK). Usage: Scripts/bench-mcp.sh [--dynamic]
source "$(dirname "$0")/bench-common.sh"
venv="$root/.venv-tools"
[ -x "$venv/bin/python3" ] && "$venv/bin/python3" -c 'import mcp' || { echo "run Scripts/setup.sh first"; exit 1; }
build_flow "${1:-}"
server="$root/Tests/MCPServers/test_server.py"

cd "$work"
export XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" XDG_DATA_HOME="$work/data"
"$flow" servers add test -- "$venv/bin/python3" "$server" >/dev/null

cat > calls.yml <<'YAML'
flow: 1
name: Hundred calls
steps:
  - repeat: 100
    do:
      - test.echo: hello
YAML
cat > client.py <<PY
import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

async def main():
    params = StdioServerParameters(command="$venv/bin/python3", args=["$server"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for _ in range(100):
                await session.call_tool("echo", {"text": "hello"})

anyio.run(main)
PY
echo "== 1. 100 tools/call of one tool, server start included (flow vs the Python SDK client)"
hyperfine -N --warmup 1 --runs 10 \
  -n flow "$flow run --no-history calls.yml" \
  -n python-sdk "$venv/bin/python3 client.py"

# The same steps once with a tool, once with a built-in of the same shape.
python3 - <<'PY'
steps = ["flow: 1", "name: Check", "steps:"]
builtin = list(steps)
for i in range(200):
    steps += [f"  - test.weather:", f"      city: City {i}", "      days: 2", f"    as: w{i}", f"  - show: ${{w{i}.celsius}}"]
    builtin += [f"  - text: City {i}", f"    as: w{i}", f"  - show: ${{w{i}.count}}"]
open("tools.yml", "w").write("\n".join(steps) + "\n")
open("builtin.yml", "w").write("\n".join(builtin) + "\n")
PY
echo "== 2. flow validate, 400 steps: cached tools vs built-ins only"
hyperfine -N --warmup 3 --runs 30 --export-json validate.json \
  -n tools "$flow validate tools.yml" -n built-ins "$flow validate builtin.yml"
# The ratio, in wall time and in CPU time (user + system), which a busy shared machine distorts less.
python3 - validate.json <<'PY'
import json, sys
runs = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
tools, builtin = runs["tools"], runs["built-ins"]
wall = tools["mean"] / builtin["mean"]
cpu = (tools["user"] + tools["system"]) / (builtin["user"] + builtin["system"])
print(f"ratio tools / built-ins: {wall:.2f}x wall ({tools['mean']*1000:.1f} ms / {builtin['mean']*1000:.1f} ms), "
      f"{cpu:.2f}x CPU (goal: within 1.1x)")
PY
# Instructions do not depend on how busy the machine is. This valgrind cannot read the DWARF of a Swift
# 6.3 release build ("Possibly corrupted debuginfo file"), so it counts a copy without it.
if command -v valgrind >/dev/null; then
  strip --strip-debug -o "$work/flow-nodebug" "$flow"
  for w in tools builtin; do
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.validate.$w" "$work/flow-nodebug" validate $w.yml \
      >/dev/null 2>"$work/vg.validate.$w"
  done
  python3 - "$work/vg.validate.tools" "$work/vg.validate.builtin" <<'PY'
import re, sys
count = lambda f: int(re.search(r"refs:\s*([\d,]+)", open(f).read()).group(1).replace(",", ""))
tools, builtin = count(sys.argv[1]), count(sys.argv[2])
print(f"ratio tools / built-ins: {tools / builtin:.2f}x instructions ({tools / 1e6:.1f} M / {builtin / 1e6:.1f} M)")
PY
fi

printf 'flow: 1\nname: Hello\nsteps:\n  - show: hello\n' > hello.yml
echo "== 3. a run that uses no server: wall time with servers configured vs none"
hyperfine -N --warmup 3 --runs 30 \
  -n "with servers configured" "$flow run --no-history hello.yml" \
  -n "no config" "env XDG_CONFIG_HOME=$work/empty XDG_STATE_HOME=$work/empty $flow run --no-history hello.yml"
if command -v valgrind >/dev/null; then
  for label in configured none; do
    [ "$label" = none ] && export XDG_CONFIG_HOME="$work/empty" XDG_STATE_HOME="$work/empty"
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$label" "$work/flow-nodebug" run --no-history hello.yml >/dev/null 2>"$work/vg.$label"
    echo "instructions ($label): $(grep -o 'refs: *[0-9,]*' "$work/vg.$label" | tr -dc '0-9')"
  done
fi
