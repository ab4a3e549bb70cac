"""Raw HTTP against `flow mcp --http`, for MCPHTTPServerTests: what the MCP SDK's client never sends.

Usage: http_checks.py FLOW

Starts `FLOW mcp --http 127.0.0.1:0`, reads the endpoint from the line it prints on standard error, sends
each check below with the standard library's http.client (or a raw socket, for bytes that are not HTTP),
then starts a call that asks a question, and stops the server with SIGTERM while the question waits. Prints
one JSON object: each check's status (and the headers and body that matter), then the server's exit status
and standard error. Nothing here sleeps: each step waits for the server's answer.
"""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.parse

FLOW = sys.argv[1]

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "http_checks", "version": "1"},
    },
}
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def start():
    server = subprocess.Popen(
        [FLOW, "mcp", "--http", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=dict(os.environ),
    )
    lines = []
    for line in server.stderr:
        lines.append(line)
        found = re.search(r"(http://\S+/mcp)$", line.strip())
        if found:
            drain = threading.Thread(target=lambda: lines.extend(server.stderr))
            drain.start()
            return server, found.group(1), lines, drain
    server.wait()
    sys.exit(f"flow mcp --http printed no endpoint (status {server.returncode}):\n{''.join(lines)}")


def exchange(url, method="POST", body=None, headers=None, path=None):
    """One request on a connection of its own; (status, headers, body as text)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    data = None if body is None else (body if isinstance(body, (bytes, str)) else json.dumps(body))
    connection.request(method, path or parts.path, body=data, headers=HEADERS | (headers or {}))
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, {name.lower(): value for name, value in response.getheaders()}, text


def raw(url, data):
    """Bytes that are not (good) HTTP, on a socket; the status line of the answer."""
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port)) as connection:
        connection.sendall(data)
        answer = b""
        while b"\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n")[0].decode()


def main():
    server, url, lines, drain = start()
    report = {"url": url}

    def check(name, *arguments, **keywords):
        status, headers, body = exchange(url, *arguments, **keywords)
        report[name] = {"status": status, "body": body}
        return status, headers, body

    check("foreignOrigin", body=INITIALIZE, headers={"Origin": "https://evil.example"})
    check("foreignHost", body=INITIALIZE, headers={"Host": "evil.example:80"})
    check("nullOrigin", body=INITIALIZE, headers={"Origin": "null"})
    status, headers, body = check("initialize", body=INITIALIZE, headers={"Origin": "http://localhost:6274"})
    report["initialize"]["contentType"] = headers.get("content-type")
    session = headers.get("mcp-session-id", "")
    report["sessionIdLength"] = len(session)
    with_session = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}

    check("initialized", body={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=with_session)
    status, headers, body = check("list", body={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=with_session)
    report["list"]["contentType"] = headers.get("content-type")
    report["list"]["body"] = [tool["name"] for tool in json.loads(body)["result"]["tools"]]
    check("missingSession", body={"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
    check("unknownSession", body={"jsonrpc": "2.0", "id": 4, "method": "tools/list"}, headers={"Mcp-Session-Id": "0" * 32})
    check("badVersion", body={"jsonrpc": "2.0", "id": 5, "method": "ping"},
          headers={"Mcp-Session-Id": session, "MCP-Protocol-Version": "1999-01-01"})
    status, headers, body = check("get", method="GET", headers=with_session)
    report["get"]["allow"] = headers.get("allow")
    check("otherPath", body=INITIALIZE, path="/other")
    check("notJSON", body="{not json", headers=with_session)
    check("wrongContentType", body=INITIALIZE, headers={"Content-Type": "text/plain"})
    report["tooLarge"] = raw(
        url, f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nMcp-Session-Id: {session}\r\n"
        f"Content-Length: {5 << 20}\r\n\r\n".encode())
    report["malformed"] = raw(url, b"GARBAGE\r\n\r\n")
    report["badLength"] = raw(url, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n")

    # A second session, ended by DELETE: the same id is unknown afterwards.
    status, headers, body = check("initializeAgain", body=INITIALIZE)
    other = {"Mcp-Session-Id": headers.get("mcp-session-id", "")}
    check("delete", method="DELETE", headers=other)
    check("afterDelete", body={"jsonrpc": "2.0", "id": 6, "method": "ping"}, headers=other)

    # A call that asks: its answer is an event stream whose first event is the question. The server is
    # stopped (SIGTERM) while the question waits: the run is cancelled and recorded so, and it exits 3.
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "hold", "arguments": {}}}
    connection.request("POST", parts.path, body=json.dumps(call), headers=HEADERS | with_session)
    response = connection.getresponse()
    report["asking"] = {"status": response.status, "contentType": response.getheader("content-type")}
    event = b""
    while b"\n\n" not in event:
        event += response.read1(4096)
    data = next(line for line in event.decode().splitlines() if line.startswith("data: "))
    question = json.loads(data[len("data: "):])
    report["asking"]["method"] = question.get("method")
    report["asking"]["message"] = question.get("params", {}).get("message")
    server.send_signal(signal.SIGTERM)
    report["exitStatus"] = server.wait()
    connection.close()
    drain.join()
    report["stderr"] = "".join(lines)
    print(json.dumps(report, indent=2))


main()
