"""A client written with the official Python SDK (mcp on PyPI), for scripts/interop-python.sh: it
runs against the example server (examples/conformance-server) and checks what comes back, in one
era:

- modern: mode="auto", which finds 2026-07-28 through server/discover (input requests answered
  through input_required results and retried requests, subscriptions/listen);
- legacy: mode="legacy", the 2025-11-25 initialize handshake (an Mcp-Session-Id session, input
  requests answered as server-to-client requests, logging/setLevel, ping, resources/subscribe,
  list changes on the session's GET stream).

Usage: python_client.py <url> modern|legacy

Prints one line per check ("ok" or "FAIL" with the reason) and exits 1 if any failed.
"""

import asyncio
import sys
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

CHECKS: list[tuple[str, bool, str]] = []
STEP_TIMEOUT = 20


def record(name: str, ok: bool, detail: str = "") -> None:
    CHECKS.append((name, ok, detail))
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


async def check(name: str, run: Callable[[], Awaitable[Any]], expect: Callable[[Any], str | None]) -> Any:
    """Runs one step with a bounded wait; `expect` returns why the answer is wrong, or None."""
    try:
        value = await asyncio.wait_for(run(), STEP_TIMEOUT)
    except Exception as e:  # any failure of the step is a failed check, reported with its type
        record(name, False, f"{type(e).__name__}: {e}")
        return None
    why = expect(value)
    record(name, why is None, why or "")
    return value


def first_text(result: types.CallToolResult | types.GetPromptResult) -> str:
    if isinstance(result, types.GetPromptResult):
        blocks = [m.content for m in result.messages]
    else:
        blocks = result.content
    return next((b.text for b in blocks if isinstance(b, types.TextContent)), "")


def text_is(expected: str) -> Callable[[Any], str | None]:
    def expect(result: Any) -> str | None:
        text = first_text(result)
        return None if expected in text else f"expected {expected!r} in {text!r}"

    return expect


def content_types(*kinds: str) -> Callable[[types.CallToolResult], str | None]:
    def expect(result: types.CallToolResult) -> str | None:
        got = tuple(b.type for b in result.content)
        return None if got == kinds else f"content types {got}, expected {kinds}"

    return expect


async def on_elicit(ctx: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
    schema = getattr(params, "requested_schema", None) or {}
    content: dict[str, Any] = {}
    for key, prop in (schema.get("properties") or {}).items():
        content[key] = True if prop.get("type") == "boolean" else "Ada"
    return types.ElicitResult(action="accept", content=content)


async def on_sample(ctx: ClientRequestContext, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text="Paris"),
        model="python-interop-model",
        stop_reason="endTurn",
    )


async def on_roots(ctx: ClientRequestContext) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root(uri="file:///interop", name="interop")])


VERSIONS = {"modern": "2026-07-28", "legacy": "2025-11-25"}
"""The revision each era's run must negotiate."""
MODES = {"modern": "auto", "legacy": "legacy"}
"""The SDK's connect mode for each era."""

WATCHED = "test://watched-resource"
"""The example server's resource that changes when test_update_watched_resource is called."""

SKILL_FILES = [
    "skill://acme/billing/refunds/SKILL.md",
    "skill://acme/billing/refunds/examples/email.md",
    "skill://git-workflow/SKILL.md",
    "skill://pdf-processing/SKILL.md",
    "skill://pdf-processing/references/FORMS.md",
    "skill://pdf-processing/scripts/extract.py",
    "skill://pdf-processing/templates/invoice.md",
    "skill://pdf-processing/templates/regional/eu-invoice.md",
]
"""The files of the example server's skills folder, ordinary resources in both eras."""

RESOURCES = ["test://static-text", "test://static-binary", WATCHED, *SKILL_FILES]
"""The example server's resources, in the order it lists them: its fixtures, then its skill files."""


async def run(url: str, era: str) -> None:
    progress: list[float] = []
    logs: list[Any] = []
    tool_changes = asyncio.Event()
    updated: list[str] = []
    resource_updated = asyncio.Event()

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params.data)

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            tool_changes.set()
        if isinstance(message, types.ResourceUpdatedNotification):
            updated.append(str(message.params.uri))
            resource_updated.set()

    client = Client(
        url,
        mode=MODES[era],
        elicitation_callback=on_elicit,
        sampling_callback=on_sample,
        list_roots_callback=on_roots,
        logging_callback=on_log,
        message_handler=on_message,
        log_level="info",
        read_timeout_seconds=STEP_TIMEOUT,
        client_info=types.Implementation(name="python-interop-client", version="1"),
    )
    async with asyncio.timeout(STEP_TIMEOUT):
        await client.__aenter__()
    try:
        handshake = "server/discover" if era == "modern" else "initialize"
        record(
            f"{handshake} negotiates {VERSIONS[era]}",
            client.protocol_version == VERSIONS[era],
            f"negotiated {client.protocol_version!r}",
        )
        if era == "legacy":
            await check("ping", client.send_ping, lambda r: None if r is not None else "no result")
            await check("logging/setLevel info", lambda: client.set_logging_level("info"), lambda r: None)
        tools = await check("tools/list", client.list_tools, lambda r: None if len(r.tools) >= 20 else f"{len(r.tools)} tools")
        if tools is not None:
            names = [t.name for t in tools.tools]
            again = await client.list_tools(cache_mode="refresh")
            record("tools/list is in the same order twice", [t.name for t in again.tools] == names)
        call = client.call_tool
        await check("tools/call test_simple_text", lambda: call("test_simple_text", {}), text_is("simple text response"))
        await check("tools/call test_image_content", lambda: call("test_image_content", {}), content_types("image"))
        await check("tools/call test_audio_content", lambda: call("test_audio_content", {}), content_types("audio"))
        await check("tools/call test_embedded_resource", lambda: call("test_embedded_resource", {}), content_types("resource"))
        await check(
            "tools/call test_multiple_content_types",
            lambda: call("test_multiple_content_types", {}),
            content_types("text", "image", "resource"),
        )
        await check(
            "tools/call test_error_handling (isError)",
            lambda: call("test_error_handling", {}),
            lambda r: None if r.is_error else "isError not set",
        )
        await check("tools/call add_numbers", lambda: call("add_numbers", {"a": 2, "b": 3}), text_is("is 5"))
        header = "Mcp-Param-Region" if era == "modern" else "the argument, no header"
        await check(
            f"tools/call test_custom_header ({header})",
            lambda: call("test_custom_header", {"region": "eu-west"}),
            text_is("region=eu-west"),
        )
        if era == "modern":
            await check(
                "tools/call test_custom_header, a value sent Base64-encoded",
                lambda: call("test_custom_header", {"region": " Zürich "}),
                text_is("region= Zürich "),
            )
        await check(
            "tools/call test_tool_with_progress (SSE, progress)",
            lambda: call("test_tool_with_progress", {}, progress_callback=on_progress),
            lambda r: None if progress == [0.0, 50.0, 100.0] else f"progress seen: {progress}",
        )
        await check(
            "tools/call test_tool_with_logging (SSE, " + ("logLevel)" if era == "modern" else "the session's log level)"),
            lambda: call("test_tool_with_logging", {}),
            lambda r: None if len(logs) == 3 else f"log messages seen: {logs}",
        )
        how = "MRTR" if era == "modern" else "server-to-client requests"
        asking = [
            ("test_input_required_result_elicitation", "Hello, Ada!"),
            ("test_input_required_result_sampling", "The LLM says: Paris"),
            ("test_input_required_result_list_roots", "file:///interop"),
            ("test_input_required_result_request_state", "state-ok"),
            ("test_input_required_result_multiple_inputs", "name=Ada; greeting=Paris; roots=file:///interop"),
            ("test_input_required_result_multi_round", "Ada's favorite color is Ada."),
            ("test_input_required_result_capabilities", "Received user_name, capital_question, client_roots"),
        ]
        for tool, expected in asking:
            await check(f"tools/call {tool} ({how})", lambda tool=tool: call(tool, {}), text_is(expected))
        await check(
            f"tools/call test_sampling ({how})",
            lambda: call("test_sampling", {"prompt": "Capital of France?"}),
            text_is("LLM response: Paris"),
        )
        await check(
            f"tools/call test_elicitation ({how})",
            lambda: call("test_elicitation", {"message": "Who are you?"}),
            text_is('User response: action=accept, content={"email":"Ada","username":"Ada"}'),
        )
        await check("tools/call of an unknown tool is an error", lambda: expect_error(call("no_such_tool", {})), lambda r: r)

        prompts = await check("prompts/list", client.list_prompts, lambda r: None if len(r.prompts) == 5 else f"{len(r.prompts)}")
        await check("prompts/get test_simple_prompt", lambda: client.get_prompt("test_simple_prompt"), text_is("simple prompt"))
        await check(
            "prompts/get test_prompt_with_arguments",
            lambda: client.get_prompt("test_prompt_with_arguments", {"arg1": "x", "arg2": "y"}),
            text_is("arg1='x', arg2='y'"),
        )
        await check(
            f"prompts/get test_input_required_result_prompt ({how})",
            lambda: client.get_prompt("test_input_required_result_prompt"),
            text_is("Use this context: Ada"),
        )
        del prompts

        await check(
            "resources/list",
            client.list_resources,
            lambda r: None if [str(x.uri) for x in r.resources] == RESOURCES else f"{r}",
        )
        await check(
            "resources/templates/list",
            client.list_resource_templates,
            lambda r: None if r.resource_templates[0].uri_template == "test://template/{id}/data" else f"{r}",
        )
        await check(
            "resources/read test://static-text",
            lambda: client.read_resource("test://static-text"),
            lambda r: None if "static text resource" in r.contents[0].text else f"{r}",
        )
        await check(
            "resources/read test://template/7/data",
            lambda: client.read_resource("test://template/7/data"),
            lambda r: None if '"id":"7"' in r.contents[0].text.replace(" ", "") else f"{r}",
        )
        await check(
            "completion/complete",
            lambda: client.complete(
                types.PromptReference(type="ref/prompt", name="test_prompt_with_arguments"),
                {"name": "arg1", "value": "pa"},
            ),
            lambda r: None if r.completion.values == ["paris", "park", "party"] else f"{r.completion}",
        )

        if era == "modern":

            async def listen_for_change() -> str:
                async with client.listen(tools_list_changed=True) as sub:
                    await call("test_trigger_tool_change", {})
                    async for event in sub:
                        return type(event).__name__
                return "the stream ended without an event"

            await check(
                "subscriptions/listen sees a tool list change",
                listen_for_change,
                lambda r: None if "Tool" in r else f"got {r}",
            )
        else:
            await check(
                "resources/subscribe test://static-text",
                lambda: client.subscribe_resource("test://static-text"),
                lambda r: None,
            )

            async def change_announced() -> None:
                await call("test_trigger_tool_change", {})
                await tool_changes.wait()

            await check("notifications/tools/list_changed on the session's GET stream", change_announced, lambda r: None)

            async def update_announced() -> list[str]:
                await client.subscribe_resource(WATCHED)
                await call("test_update_watched_resource", {})
                await resource_updated.wait()
                return updated

            await check(
                f"notifications/resources/updated for a subscribed {WATCHED}",
                update_announced,
                lambda r: None if r == [WATCHED] else f"got {r}",
            )
    finally:
        await client.__aexit__(None, None, None)

    # A client without sampling: the server refuses with -32021 (MissingRequiredClientCapability).
    bare = Client(url, mode=MODES[era], read_timeout_seconds=STEP_TIMEOUT)
    async with bare:
        await check(
            "tools/call test_missing_capability without sampling is -32021",
            lambda: expect_error(bare.call_tool("test_missing_capability", {}), -32021),
            lambda r: r,
        )


async def expect_error(call: Awaitable[Any], code: int | None = None) -> str | None:
    """None if `call` fails with an MCP error (of `code` if given), else why not."""
    try:
        result = await call
    except MCPError as e:
        return None if code is None or e.code == code else f"error {e.code}: {e}"
    return f"no error: {result}"


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[2] not in VERSIONS:
        print(__doc__, file=sys.stderr)
        return 2
    # The legacy run uses the methods 2026-07-28 removed (ping, logging/setLevel,
    # resources/subscribe) on purpose: the SDK's warning about each says nothing new.
    warnings.simplefilter("ignore", MCPDeprecationWarning)
    try:
        asyncio.run(run(sys.argv[1], sys.argv[2]))
    except Exception as e:  # a failure outside a check (connecting, closing) fails the run
        record("session", False, f"{type(e).__name__}: {e}")
    failed = [c for c in CHECKS if not c[1]]
    print(f"{len(CHECKS) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
