#!/usr/bin/env bash
# `flow mcp` (issue 15): how long an MCP client waits, in milliseconds, for
#   1. `tools/list` of a library of 200 workflows (each read, checked and analysed for its annotations);
#   2. `tools/call` of a one-step workflow (checked, locked, recorded in run history, run);
#   3. the handshake: from starting `flow mcp` to the answer to `initialize`;
#   4. 1 and 2 again over Streamable HTTP (`flow mcp --http 127.0.0.1:0`), POSTs on one keep-alive
#      connection with the session's headers, as a client makes them.
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
python3 - "$library" <<'PY'
import sys
library = sys.argv[1]
# 200 workflows of a few kinds, with inputs of several types, nested blocks and Raindrop steps, so that
# each tool has an input schema, an output schema and annotations to work out.
for i in range(200):
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
    open(f"{library}/workflow-{i:03d}.yml", "w").write("\n".join(lines) + "\n")
open(f"{library}/one-step.yml", "w").write("flow: 1\nname: One Step\nsteps:\n  - text: hello\n")
PY
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
