// An MCP server written with the official MCP TypeScript SDK (@modelcontextprotocol/server, the
// version in package-lock.json), for scripts/interop-ts.sh: the example client
// (examples/conformance-client) is run against it. It serves one era only, so that the client
// has to find that era itself:
//
// - modern: protocol revision 2026-07-28 only (createMcpHandler with `legacy: 'reject'`); the
//   tools that need input answer input_required (multi round-trip requests);
// - legacy: protocol revision 2025-11-25 only, the SDK's stateful transport
//   (WebStandardStreamableHTTPServerTransport, one McpServer per Mcp-Session-Id session); the
//   tools that need input send elicitation/create, sampling/createMessage and roots/list to the
//   client as server-to-client requests. It prints "session initialized: client <name>,
//   protocol version <version>" once a client has finished a session's handshake
//   (notifications/initialized).
//
// It offers what the example client exercises on its own: plain tools, tools with required
// arguments, a tool that fails (isError), a tool whose argument is mirrored into an
// Mcp-Param header (x-mcp-header, modern era), a tool that reports progress (an SSE response),
// tools that need input from the client (elicitation, sampling, roots), a resource and prompts.
//
// With `booking`, the server has one tool instead, the README Quickstart's `book`: it asks which
// seat (an elicitation form with one string member, `seat`), then answers "Booked seat <seat>.".
//
// Usage: node ts_server.mjs modern|legacy [booking]  (binds 127.0.0.1 on a port the kernel picks
// and prints "listening on http://127.0.0.1:<port>/mcp" once it accepts connections)

import { randomUUID } from 'node:crypto';

import {
    McpServer,
    WebStandardStreamableHTTPServerTransport,
    acceptedContent,
    createMcpHandler,
    inputRequired,
    inputResponse
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { listen } from './node_http.mjs';

const era = process.argv[2];
const booking = process.argv[3] === 'booking';
if ((era !== 'modern' && era !== 'legacy') || (process.argv[3] !== undefined && !booking)) {
    console.error('usage: node ts_server.mjs modern|legacy [booking]');
    process.exit(2);
}

const text = t => ({ content: [{ type: 'text', text: t }] });
const nameSchema = z.object({ name: z.string() });
const question = { messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 20 };
const greeting = name => text(`Hello, ${name}!`);
const modelSays = said => text(`the model says: ${said}`);
const rootCount = roots => text(`${roots.length} root(s): ${roots.map(r => r.uri).join(', ')}`);

/** The tools that need the client's input, modern style: input_required, then the retried call. */
const modernAsking = {
    greet: async ctx => {
        const answer = acceptedContent(ctx.mcpReq.inputResponses, 'name', nameSchema);
        if (answer !== undefined) return greeting(answer.name);
        const name = inputRequired.elicit({ message: 'What is your name?', requestedSchema: nameSchema });
        return inputRequired({ inputRequests: { name } });
    },
    capital: async ctx => {
        const answer = inputResponse(ctx.mcpReq.inputResponses, 'answer');
        if (answer.kind === 'sampling') return modelSays(answer.result.content.text);
        return inputRequired({ inputRequests: { answer: inputRequired.createMessage(question) } });
    },
    count_roots: async ctx => {
        const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
        if (answer.kind === 'roots') return rootCount(answer.roots);
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    }
};

/** The same tools, legacy style: requests sent to the client on the session while the call waits. */
const legacyAsking = server => ({
    greet: async ctx => {
        const requestedSchema = z.toJSONSchema(nameSchema);
        const answer = await ctx.mcpReq.elicitInput({ message: 'What is your name?', requestedSchema });
        return answer.action === 'accept' ? greeting(answer.content.name) : text(`elicitation ${answer.action}`);
    },
    capital: async ctx => modelSays((await ctx.mcpReq.requestSampling(question)).content.text),
    count_roots: async () => rootCount((await server.server.listRoots()).roots)
});

const seatSchema = z.object({ seat: z.string() });
const booked = seat => text(`Booked seat ${seat}.`);

/** The Quickstart's tool: which seat, then booked; in the run's era's way of asking. */
const book = {
    modern: async (_args, ctx) => {
        const answer = acceptedContent(ctx.mcpReq.inputResponses, 'seat', seatSchema);
        if (answer !== undefined) return booked(answer.seat);
        const seat = inputRequired.elicit({ message: 'Which seat?', requestedSchema: seatSchema });
        return inputRequired({ inputRequests: { seat } });
    },
    legacy: async (_args, ctx) => {
        const requestedSchema = z.toJSONSchema(seatSchema);
        const answer = await ctx.mcpReq.elicitInput({ message: 'Which seat?', requestedSchema });
        return answer.action === 'accept' ? booked(answer.content.seat) : text(`elicitation ${answer.action}`);
    }
};

function newServer() {
    const server = new McpServer(
        { name: 'ts-interop-server', version: '1' },
        { instructions: "Interop fixture for mcp-codegen's client." }
    );
    if (booking) {
        const inputSchema = z.object({ class: z.string() });
        server.registerTool('book', { description: 'Books a seat, asking which first', inputSchema }, book[era]);
        return server;
    }
    server.registerTool(
        'echo',
        { description: 'Returns the text it was given.', inputSchema: z.object({ text: z.string() }) },
        async ({ text: t }) => text(`echo: ${t}`)
    );
    server.registerTool(
        'add',
        { description: 'Adds two integers.', inputSchema: z.object({ a: z.number().int(), b: z.number().int() }) },
        async ({ a, b }) => text(`sum: ${a + b}`)
    );
    server.registerTool('fail', { description: 'Always fails: the SDK answers a result with isError.' }, async () => {
        throw new Error('this tool always fails');
    });
    server.registerTool(
        'deploy',
        {
            description: 'Its region argument travels in the Mcp-Param-Region header too (x-mcp-header).',
            inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) })
        },
        async ({ region }) => text(`deploying to ${region}`)
    );
    server.registerTool('count_with_progress', { description: 'Reports progress three times, then answers.' }, async ctx => {
        const progressToken = ctx.mcpReq._meta?.progressToken;
        for (let step = 1; step <= 3; step++) {
            if (progressToken !== undefined) {
                await ctx.mcpReq.notify({
                    method: 'notifications/progress',
                    params: { progressToken, progress: step, total: 3, message: `step ${step} of 3` }
                });
            }
        }
        return text('counted to 3');
    });
    const asking = era === 'modern' ? modernAsking : legacyAsking(server);
    server.registerTool('greet', { description: "Asks the user's name (elicitation), then greets." }, asking.greet);
    server.registerTool('capital', { description: "Asks the client's model (sampling)." }, asking.capital);
    server.registerTool('count_roots', { description: "Asks for the client's roots." }, asking.count_roots);
    server.registerResource('static', 'interop://static', { mimeType: 'text/plain' }, async uri => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'static text from the TypeScript server' }]
    }));
    server.registerPrompt(
        'review',
        { description: 'A prompt with one required argument.', argsSchema: z.object({ code: z.string() }) },
        ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please review this code: ${code}` } }] })
    );
    server.registerPrompt('hello', { description: 'A prompt without arguments.' }, () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }]
    }));
    return server;
}

/** The legacy era's sessions: each initialize gets its own transport and server. */
const sessions = new Map();

/** A legacy request to the transport of its session; a request without one opens a new session. */
async function legacyFetch(request) {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
        const known = sessions.get(id);
        if (known !== undefined) return known.handleRequest(request);
        // A session this server does not know (2025-11-25 basic/transports: 404).
        const error = { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } };
        return Response.json(error, { status: 404 });
    }
    // No session: a fresh transport, which answers initialize with a new session and anything
    // else with the SDK's own 400.
    const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: sessionId => sessions.set(sessionId, transport),
        onsessionclosed: sessionId => sessions.delete(sessionId)
    });
    const server = newServer();
    server.server.oninitialized = () => {
        const peer = server.server;
        const version = peer.getNegotiatedProtocolVersion();
        console.log(`session initialized: client ${peer.getClientVersion()?.name}, protocol version ${version}`);
    };
    await server.connect(transport);
    return transport.handleRequest(request);
}

const handler = era === 'modern' ? createMcpHandler(() => newServer(), { legacy: 'reject' }) : { fetch: legacyFetch };

listen(handler);
