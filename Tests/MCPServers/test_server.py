"""The MCP server flow's client tests run: written with the official Python SDK (`mcp` on PyPI), so the
protocol is spoken by code nobody on this project wrote. One tool per behaviour the client must handle.

Run: .venv-tools/bin/python3 Tests/MCPServers/test_server.py  (stdio)
     .venv-tools/bin/python3 Tests/MCPServers/test_server.py --http [--token SECRET]  (Streamable HTTP)

With --http it serves Streamable HTTP on a free loopback port and prints its URL as the first line of
stdout (so tests never race for a port); with --token every request needs `Authorization: Bearer SECRET`
and gets 401 without it.
"""

import os
import sys

from mcp.server import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.types import ToolAnnotations
from pydantic import BaseModel

app = MCPServer("flow-test-server")


class Weather(BaseModel):
    city: str
    celsius: float
    sunny: bool


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
def weather(city: str, days: int = 1) -> Weather:
    """Today's weather in a city (made up, the same every time)."""
    return Weather(city=city, celsius=21.5 + days, sunny=True)


@app.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def echo(text: str) -> str:
    """Returns its text."""
    return text


@app.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def delete_note(title: str) -> str:
    """Deletes a note (pretends to)."""
    return f"deleted {title}"


@app.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def fail(reason: str) -> str:
    """Always fails with the reason."""
    raise ValueError(reason)


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
async def count(to: int, ctx: Context) -> int:
    """Counts up, reporting progress."""
    for step in range(1, to + 1):
        await ctx.report_progress(step, to, f"step {step}")
    return to


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
async def ask_name(ctx: Context) -> str:
    """Asks the person for a name (elicitation)."""

    class Answer(BaseModel):
        name: str

    result = await ctx.elicit(message="What is your name?", schema=Answer)
    if result.action == "accept":
        return f"hello {result.data.name}"
    return f"no answer ({result.action})"


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
async def slow(seconds: float) -> str:
    """Waits, to be cancelled."""
    import anyio

    await anyio.sleep(seconds)
    return "done"


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
def crash() -> str:
    """Writes to stderr and exits the whole server."""
    print("about to crash: simulated failure", file=sys.stderr, flush=True)
    os._exit(3)


def serve_http(token: str | None) -> None:
    import socket

    import anyio
    import uvicorn

    starlette_app = app.streamable_http_app()

    async def guarded(scope, receive, send):
        if scope["type"] == "http" and token is not None:
            headers = dict(scope["headers"])
            if headers.get(b"authorization") != f"Bearer {token}".encode():
                body = b"missing or wrong bearer token"
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": body})
                return
        await starlette_app(scope, receive, send)

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    # Listening before the URL is printed: a client that connects at once is queued, not refused.
    listener.listen(64)
    print(f"http://127.0.0.1:{listener.getsockname()[1]}/mcp", flush=True)
    config = uvicorn.Config(guarded, log_level="warning", lifespan="on")
    # The lifespan of the MCP app (its session manager) runs through the wrapper.
    anyio.run(uvicorn.Server(config).serve, [listener])


if __name__ == "__main__":
    if "--http" in sys.argv:
        serve_http(sys.argv[sys.argv.index("--token") + 1] if "--token" in sys.argv else None)
    else:
        app.run()
