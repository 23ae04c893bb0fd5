"""An MCP server written with the official Python SDK (mcp on PyPI), for scripts/interop-python.sh:
the example client (examples/conformance-client) is run against it.

It offers what the example client exercises on its own: plain tools, tools with required
arguments, a tool that fails (isError), a tool whose argument is mirrored into an Mcp-Param header (x-mcp-header), a tool that
reports progress (an SSE response), tools that need input from the client through multi
round-trip requests (elicitation, sampling, roots), a resource and prompts.

Usage: python_server.py  (binds 127.0.0.1 on a port the kernel picks and prints
"listening on http://127.0.0.1:<port>/mcp" once it accepts connections)
"""

import asyncio
import socket
import sys
from typing import Annotated

import uvicorn
from mcp.server.mcpserver import Context, Elicit, ListRoots, MCPServer, Resolve, Sample
from mcp_types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent
from pydantic import BaseModel, Field

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


def ask_name() -> Elicit[Name]:
    return Elicit("What is your name?", Name)


@server.tool()
def greet(name: Annotated[Name, Resolve(ask_name)]) -> str:
    """Asks the user's name (elicitation, a multi round-trip request), then greets."""
    return f"Hello, {name.name}!"


def ask_llm() -> Sample:
    question = SamplingMessage(role="user", content=TextContent(type="text", text="Capital of France?"))
    return Sample([question], max_tokens=20)


@server.tool()
def capital(answer: Annotated[CreateMessageResult, Resolve(ask_llm)]) -> str:
    """Asks the client's model (sampling, a multi round-trip request)."""
    content = answer.content
    text = getattr(content, "text", None)
    return f"the model says: {text}"


def ask_roots() -> ListRoots:
    return ListRoots()


@server.tool()
def count_roots(roots: Annotated[ListRootsResult, Resolve(ask_roots)]) -> str:
    """Asks for the client's roots (a multi round-trip request)."""
    return f"{len(roots.roots)} root(s): " + ", ".join(str(r.uri) for r in roots.roots)


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
    app = server.streamable_http_app(host="127.0.0.1")
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
