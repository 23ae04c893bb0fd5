// Serves a web-standard MCP handler (`{ fetch(Request): Promise<Response> }`, as the SDK's
// createMcpHandler returns) on node:http, on a free loopback port, and prints its URL (the
// line the interop scripts wait for): shared by ts_server.mjs and ts_skills_server.mjs.

import http from 'node:http';

/** node:http to the handler's web-standard face and back, streaming the response (SSE). */
async function serve(handler, req, res) {
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

/** Listens on 127.0.0.1 (a port the kernel picks) and prints `listening on <url>`. */
export function listen(handler) {
    const server = http.createServer((req, res) => {
        serve(handler, req, res).catch(e => {
            console.error(e);
            if (!res.headersSent) res.writeHead(500);
            res.end();
        });
    });
    server.listen(0, '127.0.0.1', () => {
        console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`);
    });
    return server;
}
