"""Drives `flow mcp` with the official MCP Python SDK's client (`mcp` on PyPI), for MCPServerProcessTests.

Usage: client.py FLOW SCENARIO [--over-http] [FLOW-MCP-OPTION...]

Starts `FLOW mcp [OPTION...]` as a client starts a server (stdio), plays one scenario, and prints what the
client saw as one JSON object on standard output; the server's standard error goes to `stderr` in it. The
environment (HOME, XDG_*) is the server's, so the Swift test chooses the library and run history. Nothing
here sleeps: each step waits for what the server sends.

With --over-http the same scenario goes over Streamable HTTP: `FLOW mcp --http 127.0.0.1:0` is started,
the endpoint is read from the line it prints on standard error, and, once the session has ended (the
client's DELETE), the server is stopped with SIGTERM; its exit status is `exitStatus` in the report.
"""

import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading

try:
    import anyio
    from mcp import ClientSession, StdioServerParameters, types
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client
except ImportError as error:  # the test fails with this message rather than skipping
    sys.exit(f"the MCP Python SDK is not installed ({error}): run Scripts/setup.sh")

FLOW, SCENARIO, OPTIONS = sys.argv[1], sys.argv[2], sys.argv[3:]
OVER_HTTP = "--over-http" in OPTIONS
OPTIONS = [option for option in OPTIONS if option != "--over-http"]


def outcome(result):
    """A CallToolResult as the test compares it."""
    return {
        "isError": bool(result.is_error),
        "texts": [block.text for block in result.content if block.type == "text"],
        "structuredContent": result.structured_content,
    }


async def list_all(session, report):
    """Every tool, following nextCursor as a client must."""
    tools, pages, cursor = [], 0, None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        pages += 1
        tools += [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in page.tools]
        cursor = page.next_cursor
        if cursor is None:
            break
    report["pages"] = pages
    return tools


async def play(session, report):
    init = await session.initialize()
    report["protocolVersion"] = init.protocol_version
    report["serverInfo"] = {"name": init.server_info.name, "version": init.server_info.version}
    report["capabilities"] = init.capabilities.model_dump(mode="json", by_alias=True, exclude_none=True)

    if SCENARIO == "list":
        report["tools"] = await list_all(session, report)

    elif SCENARIO == "call":
        await list_all(session, report)  # the client checks structured content against the listed schema
        report["typed"] = outcome(await session.call_tool("greet", {"who": "Ada", "times": 3, "tags": ["a", "b"]}))
        report["defaults"] = outcome(await session.call_tool("greet", {"who": "Grace"}))
        report["wrongType"] = outcome(await session.call_tool("greet", {"who": "Ada", "times": "lots"}))
        report["invalid"] = outcome(await session.call_tool("broken", {}))
        try:
            await session.call_tool("gret", {})
        except Exception as error:  # a JSON-RPC error, not a tool result
            report["unknownTool"] = str(error)

    elif SCENARIO in ("confirm", "decline"):
        report["typed"] = outcome(await session.call_tool("tidy", {}))
        report["elicitations"] = ELICITATIONS

    elif SCENARIO == "no-elicitation":
        report["tidy"] = outcome(await session.call_tool("tidy", {}))
        report["auto"] = outcome(await session.call_tool("tidy-auto", {}))
        report["missingInput"] = outcome(await session.call_tool("greet", {}))

    elif SCENARIO == "cancel":
        # The call is abandoned as soon as the run asks (the callback below cancels it): the client
        # sends notifications/cancelled, and the server, cancelling the run, withdraws its question.
        async with anyio.create_task_group() as group:
            CANCEL["scope"] = group.cancel_scope
            await session.call_tool("hold", {})
            report["answered"] = True  # never reached
        with anyio.fail_after(20):  # a safety net for a broken server, not a wait for timing
            await WITHDRAWN.wait()
        report["withdrawn"] = True
        report["elicitations"] = ELICITATIONS
        # The connection still serves after a cancellation.
        report["afterwards"] = outcome(await session.call_tool("greet", {"who": "Ada", "times": 1}))

    elif SCENARIO == "servers":
        # Workflows that call tools of MCP servers flow is configured with (`flow servers add`).
        report["tools"] = await list_all(session, report)
        report["forecast"] = outcome(await session.call_tool("forecast", {"city": "Lisbon"}))
        report["firstServer"] = await server_of(session, "server-pid", {})
        report["secondServer"] = await server_of(session, "server-pid", {})

    elif SCENARIO == "server-actions":
        # The same tools offered as actions (`flow mcp --actions`), by their ids.
        report["echo"] = outcome(await session.call_tool("test.echo", {"text": "hello"}))
        report["firstServer"] = await server_of(session, "probe.pid", {})

    else:
        sys.exit(f"unknown scenario {SCENARIO}")


async def server_of(session, tool, arguments):
    """Calls a tool that answers with the pid of the MCP server flow started for the call, and says
    whether that server has ended once the call is answered (within 20 s: flow closes its stdin, then
    signals it), with the connection to flow still open."""
    result = outcome(await session.call_tool(tool, arguments))
    pid = (result["structuredContent"] or {}).get("result")
    if not isinstance(pid, int):
        return {"result": result}
    try:
        descriptor = os.pidfd_open(pid)
    except ProcessLookupError:
        return {"result": result, "pid": pid, "ended": True}
    try:
        readable, _, _ = select.select([descriptor], [], [], 20)  # a safety net, not a wait for timing
    finally:
        os.close(descriptor)
    return {"result": result, "pid": pid, "ended": bool(readable)}


ELICITATIONS = []
CANCEL = {}
WITHDRAWN = None  # an anyio.Event, made once the event loop runs


async def elicit(context, params):
    ELICITATIONS.append({"message": params.message, "requestedSchema": params.requested_schema})
    if SCENARIO == "confirm":
        return types.ElicitResult(action="accept", content={"confirm": True})
    if SCENARIO == "decline":
        return types.ElicitResult(action="decline")
    if SCENARIO == "cancel":
        CANCEL["scope"].cancel()
        try:
            await anyio.Event().wait()  # until the server withdraws the question
        finally:
            WITHDRAWN.set()
    return types.ElicitResult(action="cancel")


async def main():
    global WITHDRAWN
    WITHDRAWN = anyio.Event()
    report = {}
    callback = None if SCENARIO == "no-elicitation" else elicit
    if OVER_HTTP:
        await over_http(report, callback)
    else:
        with tempfile.TemporaryFile(mode="w+") as errors:
            server = StdioServerParameters(command=FLOW, args=["mcp", *OPTIONS], env=dict(os.environ))
            async with stdio_client(server, errlog=errors) as (read, write):
                async with ClientSession(read, write, elicitation_callback=callback) as session:
                    await play(session, report)
            errors.seek(0)
            report["stderr"] = errors.read()
    print(json.dumps(report, indent=2))


async def over_http(report, callback):
    server = subprocess.Popen(
        [FLOW, "mcp", "--http", "127.0.0.1:0", *OPTIONS],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=dict(os.environ),
    )
    lines = []
    url = None
    for line in server.stderr:  # the serving line comes once the socket listens
        lines.append(line)
        found = re.search(r"(http://\S+/mcp)$", line.strip())
        if found:
            url = found.group(1)
            break
    if url is None:
        server.wait()
        sys.exit(f"flow mcp --http printed no endpoint (status {server.returncode}):\n{''.join(lines)}")
    drain = threading.Thread(target=lambda: lines.extend(server.stderr))
    drain.start()
    try:
        report["url"] = url
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write, elicitation_callback=callback) as session:
                await play(session, report)
    finally:
        server.send_signal(signal.SIGTERM)
        report["exitStatus"] = server.wait()
        drain.join()
        report["stderr"] = "".join(lines)


anyio.run(main)
