// The official MCP TypeScript SDK's client (@modelcontextprotocol/client, the version in
// package-lock.json) against the example server, for scripts/interop-ts.sh, in one era:
//
// - modern: protocol revision 2026-07-28 (server/discover, input requests answered through
//   input_required results and retried requests);
// - legacy: the SDK's default 2025-11-25 connect (initialize, an Mcp-Session-Id session, input
//   requests answered as server-to-client requests on the session, logging/setLevel, ping,
//   resources/subscribe).
//
// One line per check ("ok   <check>" or "FAIL <check>: <why>"), then "N passed, N failed";
// exits 1 if any check failed.
//
// Usage: node ts_client.mjs <server-url> modern|legacy
//        node ts_client.mjs stdio modern|legacy <command> [args...]
// The second form spawns the server (`command args...`) for each client it connects, over the
// SDK's stdio transport (@modelcontextprotocol/client/stdio); the checks of an HTTP session
// (its Mcp-Session-Id, DELETE) are left out, the process being the session.

import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { STEP_TIMEOUT_MS, check, record, verdict } from './checks.mjs';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const stdio = process.argv[2] === 'stdio';
const era = process.argv[3];
const [command, ...commandArgs] = process.argv.slice(4);
if ((era !== 'modern' && era !== 'legacy') || (stdio && !command)) {
    console.error('usage: node ts_client.mjs <server-url> modern|legacy\n' +
        '       node ts_client.mjs stdio modern|legacy <command> [args...]');
    process.exit(2);
}
const url = stdio ? undefined : new URL(process.argv[2] ?? '');

/** A new transport to the server: a connection to its URL, or a process of its own. */
function transport() {
    if (stdio) return new StdioClientTransport({ command, args: commandArgs, stderr: 'inherit' });
    return new StreamableHTTPClientTransport(url);
}
/** The negotiation mode of every client in this run: the SDK's default is the legacy connect. */
const PINNED = era === 'modern' ? { pin: MODERN } : 'legacy';
const VERSION = era === 'modern' ? MODERN : LEGACY;

function firstText(result) {
    const blocks = result.messages ? result.messages.map(m => m.content) : result.content;
    return (blocks ?? []).find(b => b.type === 'text')?.text ?? '';
}

const textIs = expected => result => {
    const text = firstText(result);
    return text.includes(expected) ? null : `expected ${JSON.stringify(expected)} in ${JSON.stringify(text)}`;
};

/** null if `call` fails with a JSON-RPC error (of `code` if given), else why not. */
async function expectError(call, code) {
    try {
        const result = await call;
        return `no error: ${JSON.stringify(result)}`;
    } catch (e) {
        if (code === undefined || e?.code === code) return null;
        return `error code ${e?.code}, expected ${code}: ${e?.message}`;
    }
}

/** A client that answers every kind of input request, in the run's era unless `mode` says. */
function newClient(capabilities, mode = PINNED) {
    const client = new Client(
        { name: 'ts-interop-client', version: '1' },
        { capabilities, versionNegotiation: { mode } }
    );
    if (capabilities.elicitation) {
        client.setRequestHandler('elicitation/create', async request => {
            const properties = request.params.requestedSchema?.properties ?? {};
            const content = Object.fromEntries(
                Object.entries(properties).map(([key, p]) => [key, p.type === 'boolean' ? true : 'Ada'])
            );
            return { action: 'accept', content };
        });
    }
    if (capabilities.sampling) {
        client.setRequestHandler('sampling/createMessage', async () => ({
            role: 'assistant',
            content: { type: 'text', text: 'Paris' },
            model: 'ts-interop-model',
            stopReason: 'endTurn'
        }));
    }
    if (capabilities.roots) {
        client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///interop', name: 'interop' }] }));
    }
    return client;
}

async function connect(client) {
    await client.connect(transport(), { timeout: STEP_TIMEOUT_MS });
    return client;
}

const negotiated = c => {
    const version = c.getNegotiatedProtocolVersion();
    return version === VERSION ? null : `negotiated ${version}`;
};

/** The connect of the run's era; in the modern run, 'auto' must find the modern era first. */
async function connectInEra(client) {
    if (era === 'modern') {
        const auto = await check(
            "connect with versionNegotiation 'auto' finds the modern era",
            () => connect(newClient({}, 'auto')),
            negotiated
        );
        await auto?.close();
        return check('server/discover negotiates 2026-07-28 (pinned)', () => connect(client), negotiated);
    }
    const connected = await check(
        'initialize negotiates 2025-11-25 (the default legacy connect)',
        () => connect(client),
        negotiated
    );
    if (connected && !stdio) {
        await check(
            'initialize opens a session (Mcp-Session-Id)',
            async () => client.transport?.sessionId,
            id => (typeof id === 'string' && id.length >= 16 ? null : `session id ${JSON.stringify(id)}`)
        );
    }
    if (connected) {
        await check('ping', () => client.ping(), r => (r && Object.keys(r).length === 0 ? null : JSON.stringify(r)));
    }
    return connected;
}

/** Log notifications: a modern request opts in with its _meta; a legacy session sets its level once. */
async function checkLogging(client) {
    const logs = [];
    client.setNotificationHandler('notifications/message', n => logs.push(n.params.data));
    const seen = () => (logs.length === 3 ? null : `log messages seen: ${JSON.stringify(logs)}`);
    const request = { name: 'test_tool_with_logging', arguments: {} };
    if (era === 'modern') {
        const _meta = { [LOG_LEVEL_META_KEY]: 'info' };
        const name = 'tools/call test_tool_with_logging (SSE, logLevel in _meta)';
        await check(name, () => client.callTool({ ...request, _meta }), seen);
        return;
    }
    await check('logging/setLevel info', () => client.setLoggingLevel('info'), r => (r ? null : 'no result'));
    await check("tools/call test_tool_with_logging (SSE, the session's log level)", () => client.callTool(request), seen);
}

/** Mcp-Param headers exist in the modern era only; a legacy call carries the argument alone. */
async function checkHeaders(call) {
    const how = era === 'modern' ? 'Mcp-Param-Region' : 'the argument, no header';
    const region = () => call('test_custom_header', { region: 'eu-west' });
    await check(`tools/call test_custom_header (${how})`, region, textIs('region=eu-west'));
    if (era === 'modern') {
        await check(
            'tools/call test_custom_header, a value sent Base64-encoded',
            () => call('test_custom_header', { region: ' Zürich ' }),
            textIs('region= Zürich ')
        );
    }
}

/** The tools that ask for input: input_required rounds (modern), server-to-client requests (legacy). */
async function checkAsking(call) {
    const how = era === 'modern' ? 'MRTR' : 'server-to-client requests';
    const tools = [
        ['test_input_required_result_elicitation', {}, 'Hello, Ada!'],
        ['test_input_required_result_sampling', {}, 'The LLM says: Paris'],
        ['test_input_required_result_list_roots', {}, 'file:///interop'],
        ['test_input_required_result_request_state', {}, 'state-ok'],
        ['test_input_required_result_multiple_inputs', {}, 'name=Ada; greeting=Paris; roots=file:///interop'],
        ['test_input_required_result_multi_round', {}, "Ada's favorite color is Ada."],
        ['test_sampling', { prompt: 'Capital of France?' }, 'LLM response: Paris'],
        ['test_elicitation', { message: 'Who?' }, 'User response: action=accept, content={"email":"Ada","username":"Ada"}']
    ];
    for (const [tool, args, expected] of tools) {
        await check(`tools/call ${tool} (${how})`, () => call(tool, args), textIs(expected));
    }
}

/** null once test_trigger_tool_change's announcement arrives as a notification, else why not. */
async function listChange(client, call) {
    const announced = new Promise(resolve =>
        client.setNotificationHandler('notifications/tools/list_changed', () => resolve(null))
    );
    const result = await call('test_trigger_tool_change', {});
    return textIs('Tool list change announced')(result) ?? (await announced);
}

/** The example server's resource that changes when test_update_watched_resource is called. */
const WATCHED = 'test://watched-resource';

/** null once the subscribed WATCHED resource's update arrives as a notification, else why not. */
async function resourceUpdate(client, call) {
    const updated = new Promise(resolve =>
        client.setNotificationHandler('notifications/resources/updated', n =>
            resolve(n.params.uri === WATCHED ? null : `updated ${n.params.uri}`)
        )
    );
    await client.subscribeResource({ uri: WATCHED });
    await call('test_update_watched_resource', {});
    return await updated;
}

async function main() {
    const client = newClient({ elicitation: {}, sampling: {}, roots: {} });
    if (!(await connectInEra(client))) return;
    try {
        await check('the server names itself', async () => client.getServerVersion(), v =>
            v?.name ? null : `serverInfo ${JSON.stringify(v)}`
        );
        await check('tools/list', () => client.listTools(), r => (r.tools.length >= 20 ? null : `${r.tools.length} tools`));
        const call = (name, args, options) => client.callTool({ name, arguments: args }, options);
        await check('tools/call test_simple_text', () => call('test_simple_text', {}), textIs('simple text response'));
        await check(
            'tools/call test_multiple_content_types',
            () => call('test_multiple_content_types', {}),
            r => {
                const types = r.content.map(b => b.type).join(',');
                return types === 'text,image,resource' ? null : `content types ${types}`;
            }
        );
        await check('tools/call test_error_handling (isError)', () => call('test_error_handling', {}), r =>
            r.isError === true ? null : 'isError not set'
        );
        await check('tools/call add_numbers', () => call('add_numbers', { a: 2, b: 3 }), textIs('is 5'));
        await check(
            'tools/call add_numbers with invalid arguments is a tool error (isError), not a protocol error',
            () => call('add_numbers', { a: 'two', b: 3 }),
            r => (r.isError === true ? null : `isError ${r.isError}: ${JSON.stringify(r)}`)
        );
        await checkHeaders(call);
        const progress = [];
        await check(
            'tools/call test_tool_with_progress (SSE, progress)',
            () => call('test_tool_with_progress', {}, { onprogress: p => progress.push(p.progress) }),
            () => (JSON.stringify(progress) === '[0,50,100]' ? null : `progress seen: ${JSON.stringify(progress)}`)
        );
        await checkLogging(client);
        await checkAsking(call);
        await check(
            'tools/call of an unknown tool is a protocol error (-32602)',
            () => expectError(call('no_such_tool', {}), -32602),
            why => why
        );
        await check('prompts/list', () => client.listPrompts(), r => (r.prompts.length === 5 ? null : `${r.prompts.length}`));
        await check(
            'prompts/get test_prompt_with_arguments',
            () => client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 'y' } }),
            textIs("arg1='x', arg2='y'")
        );
        await check(
            `prompts/get test_input_required_result_prompt (${era === 'modern' ? 'MRTR' : 'elicitation/create'})`,
            () => client.getPrompt({ name: 'test_input_required_result_prompt' }),
            textIs('Use this context: Ada')
        );
        await check('resources/read test://static-text', () => client.readResource({ uri: 'test://static-text' }), r =>
            r.contents[0]?.text?.includes('static text resource') ? null : JSON.stringify(r)
        );
        if (era === 'legacy') {
            await check(
                'resources/subscribe test://static-text',
                () => client.subscribeResource({ uri: 'test://static-text' }),
                r => (r ? null : 'no result')
            );
            const stream = stdio
                ? 'notifications/tools/list_changed on stdout'
                : "notifications/tools/list_changed on the session's GET stream";
            await check(stream, () => listChange(client, call), why => why);
            const update = `notifications/resources/updated for a subscribed ${WATCHED}`;
            await check(update, () => resourceUpdate(client, call), why => why);
        }
        await check(
            'completion/complete',
            () =>
                client.complete({
                    ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
                    argument: { name: 'arg1', value: 'pa' }
                }),
            r => (JSON.stringify(r.completion.values) === '["paris","park","party"]' ? null : JSON.stringify(r.completion))
        );
        if (era === 'legacy' && !stdio) {
            await check('DELETE ends the session', () => client.transport.terminateSession(), () =>
                client.transport.sessionId === undefined ? null : 'the transport kept its session id'
            );
        }
    } finally {
        await client.close();
    }

    // A client without sampling: the server refuses with -32021.
    const bare = await connect(newClient({}));
    try {
        await check(
            'tools/call test_missing_capability without sampling is -32021',
            () => expectError(bare.callTool({ name: 'test_missing_capability', arguments: {} }), -32021),
            why => why
        );
    } finally {
        await bare.close();
    }
}

try {
    await main();
} catch (e) {
    record('the client ran to the end', false, `${e?.constructor?.name}: ${e?.message}`);
}
verdict();
