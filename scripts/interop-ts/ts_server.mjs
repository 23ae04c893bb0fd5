// An MCP server written with the official MCP TypeScript SDK (@modelcontextprotocol/server, the
// version in package-lock.json), for scripts/interop-ts.sh: the example client
// (examples/conformance-client) is run against it. Modern-only (`legacy: 'reject'`), so that
// the example client is checked at protocol revision 2026-07-28.
//
// It offers what the example client exercises on its own: plain tools, tools with required
// arguments, a tool that fails (isError), a tool whose argument is mirrored into an
// Mcp-Param header (x-mcp-header), a tool that reports progress (an SSE response), tools that
// need input from the client through multi round-trip requests (elicitation, sampling,
// roots), a resource and prompts.
//
// Usage: node ts_server.mjs  (binds 127.0.0.1 on a port the kernel picks and prints
// "listening on http://127.0.0.1:<port>/mcp" once it accepts connections)

import http from 'node:http';

import { McpServer, acceptedContent, createMcpHandler, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import * as z from 'zod';

const text = t => ({ content: [{ type: 'text', text: t }] });

function newServer() {
    const server = new McpServer(
        { name: 'ts-interop-server', version: '1' },
        { instructions: "Interop fixture for mcp-codegen's client." }
    );
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
    const nameSchema = z.object({ name: z.string() });
    server.registerTool('greet', { description: "Asks the user's name (elicitation), then greets." }, async ctx => {
        const answer = acceptedContent(ctx.mcpReq.inputResponses, 'name', nameSchema);
        if (answer === undefined) {
            return inputRequired({
                inputRequests: { name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: nameSchema }) }
            });
        }
        return text(`Hello, ${answer.name}!`);
    });
    server.registerTool('capital', { description: "Asks the client's model (sampling)." }, async ctx => {
        const answer = inputResponse(ctx.mcpReq.inputResponses, 'answer');
        if (answer.kind !== 'sampling') {
            return inputRequired({
                inputRequests: {
                    answer: inputRequired.createMessage({
                        messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
                        maxTokens: 20
                    })
                }
            });
        }
        return text(`the model says: ${answer.result.content.text}`);
    });
    server.registerTool('count_roots', { description: "Asks for the client's roots." }, async ctx => {
        const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
        if (answer.kind !== 'roots') {
            return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
        }
        const roots = answer.roots;
        return text(`${roots.length} root(s): ${roots.map(r => r.uri).join(', ')}`);
    });
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

const handler = createMcpHandler(() => newServer(), { legacy: 'reject' });

/** node:http to the handler's web-standard face and back, streaming the response (SSE). */
async function serve(req, res) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && body !== undefined;
    const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: hasBody ? body : undefined
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (response.body) {
        for await (const chunk of response.body) res.write(chunk);
    }
    res.end();
}

const server = http.createServer((req, res) => {
    serve(req, res).catch(e => {
        console.error(e);
        if (!res.headersSent) res.writeHead(500);
        res.end();
    });
});
server.listen(0, '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`);
});
