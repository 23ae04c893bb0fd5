"""An MCP server written with the official Python SDK (mcp on PyPI), for scripts/interop-python.sh:
the example client (examples/conformance-client) is run against it. It runs on either line of
the SDK, whichever the interpreter's venv holds:

- mcp 2 (scripts/interop/requirements.txt): MCPServer, both eras on one endpoint; the tools
  that need input declare it (Resolve), and the SDK asks through input_required results;
- mcp 1 (scripts/interop/requirements-legacy.txt): FastMCP, legacy-only (the initialize
  handshake up to 2025-11-25); the tools that need input send elicitation/create,
  sampling/createMessage and roots/list to the client as server-to-client requests. It
  answers nothing before a session's initialize (400, missing session id).

It offers what the example client exercises on its own: plain tools, tools with required
arguments, a tool that fails (isError), a tool whose argument is mirrored into an Mcp-Param
header (x-mcp-header), a tool that reports progress (an SSE response), tools that need input
from the client (elicitation, sampling, roots), a resource and prompts.

Usage: python_server.py  (binds 127.0.0.1 on a port the kernel picks and prints
"listening on http://127.0.0.1:<port>/mcp" once it accepts connections)
"""

import asyncio
import socket
import sys
from typing import Annotated

import uvicorn
from pydantic import BaseModel, Field

try:
    from mcp.server.mcpserver import Context, MCPServer
    from mcp_types import SamplingMessage, TextContent

    LEGACY_ONLY = False
except ImportError:  # mcp 1: no MCPServer, no mcp_types
    from mcp.server.fastmcp import Context
    from mcp.server.fastmcp import FastMCP as MCPServer
    from mcp.types import SamplingMessage, TextContent

    LEGACY_ONLY = True

server = MCPServer("python-interop-server", instructions="Interop fixture for mcp-codegen's client.")


@server.tool()
def echo(text: str) -> str:
    """Returns the text it was given."""
    return f"echo: {text}"


@server.tool()
def add(a: int, b: int) -> str:
    """Adds two integers."""
    return f"sum: {a + b}"


@server.tool()
def fail() -> str:
    """Always fails: the SDK reports the exception as a result with isError."""
    raise ValueError("this tool always fails")


@server.tool()
def deploy(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    """Its region argument travels in the Mcp-Param-Region header too (x-mcp-header)."""
    return f"deploying to {region}"


@server.tool()
async def count_with_progress(ctx: Context) -> str:
    """Reports progress three times, then answers."""
    for step in range(3):
        await ctx.report_progress(step + 1, 3, f"step {step + 1} of 3")
    return "counted to 3"


class Name(BaseModel):
    name: str


QUESTION = SamplingMessage(role="user", content=TextContent(type="text", text="Capital of France?"))


def greeting(name: Name) -> str:
    return f"Hello, {name.name}!"


def model_says(content: object) -> str:
    return f"the model says: {getattr(content, 'text', None)}"


def root_count(roots: list) -> str:
    return f"{len(roots)} root(s): " + ", ".join(str(r.uri) for r in roots)


if LEGACY_ONLY:

    @server.tool()
    async def greet(ctx: Context) -> str:
        """Asks the user's name (elicitation/create on the session), then greets."""
        answer = await ctx.elicit("What is your name?", Name)
        return greeting(answer.data) if answer.action == "accept" else f"elicitation {answer.action}"

    @server.tool()
    async def capital(ctx: Context) -> str:
        """Asks the client's model (sampling/createMessage on the session)."""
        return model_says((await ctx.session.create_message([QUESTION], max_tokens=20)).content)

    @server.tool()
    async def count_roots(ctx: Context) -> str:
        """Asks for the client's roots (roots/list on the session)."""
        return root_count((await ctx.session.list_roots()).roots)

else:
    from mcp.server.mcpserver import Elicit, ListRoots, Resolve, Sample
    from mcp_types import CreateMessageResult, ListRootsResult

    def ask_name() -> Elicit[Name]:
        return Elicit("What is your name?", Name)

    def ask_llm() -> Sample:
        return Sample([QUESTION], max_tokens=20)

    def ask_roots() -> ListRoots:
        return ListRoots()

    @server.tool()
    def greet(name: Annotated[Name, Resolve(ask_name)]) -> str:
        """Asks the user's name (elicitation, a multi round-trip request), then greets."""
        return greeting(name)

    @server.tool()
    def capital(answer: Annotated[CreateMessageResult, Resolve(ask_llm)]) -> str:
        """Asks the client's model (sampling, a multi round-trip request)."""
        return model_says(answer.content)

    @server.tool()
    def count_roots(roots: Annotated[ListRootsResult, Resolve(ask_roots)]) -> str:
        """Asks for the client's roots (a multi round-trip request)."""
        return root_count(roots.roots)


@server.resource("interop://static", mime_type="text/plain")
def static_text() -> str:
    """A static text resource."""
    return "static text from the Python server"


@server.prompt()
def review(code: str) -> str:
    """A prompt with one required argument."""
    return f"Please review this code: {code}"


@server.prompt()
def hello() -> str:
    """A prompt without arguments."""
    return "Say hello."


async def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # mcp 1 binds its host through the server's settings (127.0.0.1 by default).
    app = server.streamable_http_app() if LEGACY_ONLY else server.streamable_http_app(host="127.0.0.1")
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uv = uvicorn.Server(config)
    serving = asyncio.create_task(uv.serve(sockets=[sock]))
    while not uv.started:
        if serving.done():
            serving.result()
            sys.exit("the server stopped at start")
        await asyncio.sleep(0.05)
    print(f"listening on http://127.0.0.1:{port}/mcp", flush=True)
    await serving


if __name__ == "__main__":
    asyncio.run(main())
