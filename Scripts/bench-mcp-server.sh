#!/usr/bin/env bash
# `flow mcp` (issue 15): how long an MCP client waits, in milliseconds, for
#   1. `tools/list` of a library of 200 workflows (each read, checked and analysed for its annotations);
#   2. `tools/call` of a one-step workflow (checked, locked, recorded in run history, run);
#   3. the handshake: from starting `flow mcp` to the answer to `initialize`;
#   4. 1 and 2 again over Streamable HTTP (`flow mcp --http 127.0.0.1:0`), POSTs on one keep-alive
#      connection with the session's headers, as a client makes them.
#   5. at scale (issue 30): `tools/call` of the one-step workflow in libraries of 20, 200 and 1,000
#      workflows, and `tools/list` again once the library is known (nothing changed, then one file
#      changed), against the Python SDK's FastMCP server (`MCPServer` in mcp 2.x, from .venv-tools)
#      offering 200 tools of the same shape, measured in the same run: the ratios are the targets
#      (a call at 200 workflows and a listing of 200 each at most 2x FastMCP; a call at 1,000 as at 20).
# A small Python driver speaks JSON-RPC over the server's pipes directly (no SDK in the measurement),
# and reports the median and minimum of many requests on one connection, as a client makes them.
# Usage: Scripts/bench-mcp-server.sh [--dynamic]
# flow is measured as it ships: a release build with the static Swift standard library.
source "$(dirname "$0")/bench-common.sh"
build_flow "${1:-}"

cd "$work"
export HOME="$work" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config"
library="$XDG_DATA_HOME/flow/workflows"
mkdir -p "$library"
generate() {
python3 - "$1" "$2" <<'PY'
import sys
library, count = sys.argv[1], int(sys.argv[2])
# Workflows of a few kinds, with inputs of several types, nested blocks and Raindrop steps, so that
# each tool has an input schema, an output schema and annotations to work out.
for i in range(count):
    kind = i % 4
    lines = ["flow: 1", f"name: Workflow {i}", f"description: Benchmark workflow number {i}.", "input:"]
    lines += ["  title:", "    type: text", "    prompt: Which title?", "  count:", "    type: integer", "    default: 3"]
    lines += ["  tags:", "    type: \"[text]\"", "    default: [a, b]", "steps:"]
    if kind == 0:
        lines += ["  - text: \"${input.title} ${input.count}\"", "  - split-text: ${previous}", "  - count: ${previous}"]
    elif kind == 1:
        lines += ["  - save-bookmark:", "      url: https://example.com/" + str(i), "      tags: ${input.tags}",
                  "    as: saved", "  - show: \"Saved ${saved.title}\""]
    elif kind == 2:
        lines += ["  - get-bookmarks:", "      search-text: ${input.title}", "  - for-each: ${previous}",
                  "    do:", "      - delete-bookmark: ${item}"]
    else:
        lines += ["  - repeat: ${input.count}", "    do:", "      - calculate: \"${index} * 2\"",
                  "  - get-url: https://example.org/feed", "  - dictionary:", "      title: ${input.title}",
                  "      count: ${input.count}"]
    open(f"{library}/workflow-{i:04d}.yml", "w").write("\n".join(lines) + "\n")
open(f"{library}/one-step.yml", "w").write("flow: 1\nname: One Step\nsteps:\n  - text: hello\n")
PY
}
generate "$library" 200
"$flow" validate "$library"/*.yml >/dev/null

python3 - "$flow" <<'PY'
import json, statistics, subprocess, sys, time

flow = sys.argv[1]

def start():
    began = time.perf_counter()
    server = subprocess.Popen([flow, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1)
    ask(server, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "bench", "version": "1"}}, 0)
    handshake = time.perf_counter() - began
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    return server, handshake

def ask(server, method, params, id):
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params}) + "\n")
    server.stdin.flush()
    answer = json.loads(server.stdout.readline())
    if "error" in answer or answer.get("result", {}).get("isError"):
        sys.exit(f"{method} failed: {answer}")
    return answer["result"]

def timed(server, method, params, runs):
    times = []
    for n in range(runs):
        began = time.perf_counter()
        result = ask(server, method, params, n + 1)
        times.append((time.perf_counter() - began) * 1000)
    return times, result

def report(name, times):
    print(f"{name:34s} median {statistics.median(times):8.2f} ms   min {min(times):8.2f} ms   ({len(times)} requests)")

handshakes = []
for _ in range(10):
    server, handshake = start()
    handshakes.append(handshake * 1000)
    server.stdin.close()
    server.wait()

server, _ = start()
times, result = timed(server, "tools/list", {}, 20)
tools = len(result["tools"])
assert tools == 201, f"listed {tools} tools"
report(f"tools/list ({tools} workflows)", times)
times, _ = timed(server, "tools/call", {"name": "one-step", "arguments": {}}, 100)
report("tools/call (one-step workflow)", times)
report("start and initialize", handshakes)
server.stdin.close()
server.wait()

# Streamable HTTP: the endpoint is the last word of the line flow mcp prints once it listens.
import http.client, re, signal, urllib.parse
server = subprocess.Popen([flow, "mcp", "--http", "127.0.0.1:0"], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
url = next(found.group(1) for line in server.stderr if (found := re.search(r"(http://\S+/mcp)$", line.strip())))
parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port)
headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

def post(message):
    connection.request("POST", parts.path, body=json.dumps(message), headers=headers)
    response = connection.getresponse()
    body = response.read()
    return response, json.loads(body) if body else None

response, _ = post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
headers |= {"Mcp-Session-Id": response.getheader("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25"}
post({"jsonrpc": "2.0", "method": "notifications/initialized"})

def timed_http(method, params, runs):
    times = []
    for n in range(runs):
        began = time.perf_counter()
        _, answer = post({"jsonrpc": "2.0", "id": n + 1, "method": method, "params": params})
        times.append((time.perf_counter() - began) * 1000)
        if "error" in answer or answer.get("result", {}).get("isError"):
            sys.exit(f"{method} over HTTP failed: {answer}")
    return times

report(f"HTTP tools/list ({tools} workflows)", timed_http("tools/list", {}, 20))
report("HTTP tools/call (one-step workflow)", timed_http("tools/call", {"name": "one-step", "arguments": {}}, 100))
server.send_signal(signal.SIGTERM)
server.wait()
PY

# 5. At scale, against FastMCP. Each library is a home of its own; the reference server offers 200 tools
# shaped like the workflows' (three typed arguments with defaults, a text result) and the one-step tool.
for count in 20 1000; do
  mkdir -p "$work/scale-$count/data/flow/workflows"
  generate "$work/scale-$count/data/flow/workflows" "$count"
done
cat >"$work/fastmcp_reference.py" <<'PY'
from mcp.server import MCPServer

app = MCPServer("reference")


def make(i):
    def tool(title: str, count: int = 3, tags: list[str] = ["a", "b"]) -> str:
        return f"{title} {count} {tags}"

    tool.__doc__ = f"Benchmark workflow number {i}."
    return tool


for i in range(200):
    app.tool(name=f"workflow-{i:04d}")(make(i))


@app.tool(name="one-step")
def one_step() -> str:
    """One step."""
    return "hello"


app.run()
PY
python="$root/.venv-tools/bin/python3"
[ -x "$python" ] || { echo "the MCP Python SDK is missing: run Scripts/setup.sh" >&2; exit 1; }
"$python" - "$flow" "$work" "$XDG_DATA_HOME/flow/workflows" <<'PY'
import json, os, statistics, subprocess, sys, time

flow, work, library200 = sys.argv[1], sys.argv[2], sys.argv[3]

def start(command, env=None):
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, bufsize=1, env=env)
    ask(server, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "bench", "version": "1"}}, 0)
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    return server

def ask(server, method, params, id):
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params}) + "\n")
    server.stdin.flush()
    while True:
        answer = json.loads(server.stdout.readline())
        if answer.get("id") == id:
            break
    if "error" in answer or answer.get("result", {}).get("isError"):
        sys.exit(f"{method} failed: {answer}")
    return answer["result"]

def listing(server, id):
    """Every tool, following nextCursor (flow gives 500 a page) as a client must."""
    tools, cursor = [], None
    while True:
        page = ask(server, "tools/list", {"cursor": cursor} if cursor else {}, id)
        tools += page["tools"]
        cursor = page.get("nextCursor")
        if cursor is None:
            return tools

def median(server, method, params, runs, before=None):
    times = []
    for n in range(runs):
        if before:
            before(n)
        began = time.perf_counter()
        listing(server, 1000 + n) if method == "tools/list" else ask(server, method, params, 1000 + n)
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)

def stop(server):
    server.stdin.close()
    server.wait()

call = {"name": "one-step", "arguments": {}}
figures = {}
reference = start([sys.executable, f"{work}/fastmcp_reference.py"])
assert len(ask(reference, "tools/list", {}, 1)["tools"]) == 201
figures["fastmcp list"] = median(reference, "tools/list", {}, 20)
figures["fastmcp call"] = median(reference, "tools/call", call, 100)
stop(reference)

def home(count):
    return f"{work}/scale-{count}" if count != 200 else os.environ["HOME"]

for count in (20, 200, 1000):
    environment = dict(os.environ, HOME=home(count), XDG_DATA_HOME=f"{home(count)}/data",
                       XDG_STATE_HOME=f"{home(count)}/state", XDG_CONFIG_HOME=f"{home(count)}/config")
    server = start([flow, "mcp"], environment)
    began = time.perf_counter()
    tools = len(listing(server, 1))
    assert tools == count + 1, f"listed {tools} tools"
    figures[f"first list {count}"] = (time.perf_counter() - began) * 1000
    figures[f"list {count}"] = median(server, "tools/list", {}, 20 if count <= 200 else 5)
    figures[f"call {count}"] = median(server, "tools/call", call, 100)
    if count == 200:
        # One workflow edited before each listing: that one file is checked again.
        edited = f"{environment['XDG_DATA_HOME']}/flow/workflows/workflow-0000.yml"
        text = open(edited).read()
        def touch(n):
            open(edited, "w").write(text + f"# edit {n}\n")
        figures["list 200, one changed"] = median(server, "tools/list", {}, 20, before=touch)
    stop(server)

def line(name, value, against=None, target=None):
    ratio = f"   {value / figures[against]:5.2f}x {against}" if against else ""
    goal = f"   (target <= {target})" if target else ""
    print(f"{name:46s} {value:8.2f} ms{ratio}{goal}")

print()
print("at scale, medians (FastMCP: the Python SDK's MCPServer with 201 tools, same run)")
line("FastMCP tools/list (201 tools)", figures["fastmcp list"])
line("FastMCP tools/call (one-step)", figures["fastmcp call"])
for count in (20, 200, 1000):
    line(f"flow mcp first tools/list ({count + 1} workflows)", figures[f"first list {count}"])
    line(f"flow mcp tools/list ({count + 1} workflows)", figures[f"list {count}"],
         "fastmcp list" if count == 200 else None, "2x" if count == 200 else None)
line("flow mcp tools/list (201, one file changed)", figures["list 200, one changed"], "fastmcp list")
for count in (20, 200, 1000):
    line(f"flow mcp tools/call ({count + 1} workflows)", figures[f"call {count}"],
         "fastmcp call", "2x" if count == 200 else None)
line("flow mcp tools/call (1,001 workflows)", figures["call 1000"], "call 20", "1x, the same")
PY
