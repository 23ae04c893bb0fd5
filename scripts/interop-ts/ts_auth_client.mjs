// The official MCP TypeScript SDK's client, with its OAuth support (an OAuthClientProvider),
// against the example server started with its auth options and ts_auth_server.mjs as the
// authorization server, for scripts/interop-ts.sh, in one era. The provider is headless: its
// redirectToAuthorization fetches the authorization URL and keeps the redirect, which
// transport.finishAuth then reads (what a browser and a redirect handler do).
//
// Checks: the server's 401 and its challenge, the protected resource metadata, a refused
// token answered 401 with nothing said about why, the SDK's flow (discovery, registration,
// PKCE, the token) then a connect in the era asked, tools listed and called with the token, a
// tool that needs a scope the token lacks answered 403 insufficient_scope and, after the SDK's
// step-up (the flow again, for the union of scopes), called.
//
// One line per check ("ok   <check>" or "FAIL <check>: <why>"), then "N passed, N failed";
// exits 1 if any check failed.
//
// Usage: node ts_auth_client.mjs <server-url> modern|legacy <issuer> <tool needing admin>

import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { STEP_TIMEOUT_MS, check, record, verdict } from './checks.mjs';

const [serverArg, era, issuer, adminTool] = process.argv.slice(2);
if (!serverArg || (era !== 'modern' && era !== 'legacy') || !issuer || !adminTool) {
    console.error('usage: node ts_auth_client.mjs <server-url> modern|legacy <issuer> <admin tool>');
    process.exit(2);
}
const url = new URL(serverArg);
const MODE = era === 'modern' ? { pin: '2026-07-28' } : 'legacy';

/** An OAuthClientProvider without a user: everything in memory, the redirect fetched. */
class HeadlessProvider {
    constructor() {
        this.info = undefined;
        this.saved = undefined;
        this.verifier = '';
        this.callback = undefined;
        this.authorizations = 0;
    }
    get redirectUrl() { return 'http://127.0.0.1:9/callback'; }
    get clientMetadata() {
        return {
            client_name: 'ts-interop-client', redirect_uris: [this.redirectUrl],
            grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
            token_endpoint_auth_method: 'none',
        };
    }
    clientInformation() { return this.info; }
    saveClientInformation(info) { this.info = info; }
    tokens() { return this.saved; }
    saveTokens(tokens) { this.saved = tokens; }
    saveCodeVerifier(v) { this.verifier = v; }
    codeVerifier() { return this.verifier; }
    saveDiscoveryState(state) { this.discovery = state; }
    discoveryState() { return this.discovery; }
    async redirectToAuthorization(authorizationUrl) {
        this.authorizations += 1;
        this.scope = authorizationUrl.searchParams.get('scope') ?? '';
        const resp = await fetch(authorizationUrl, { redirect: 'manual' });
        const location = resp.headers.get('location');
        if (!location) throw new Error(`the authorization endpoint answered ${resp.status}: ${await resp.text()}`);
        this.callback = new URL(location);
    }
}

const provider = new HeadlessProvider();
const newTransport = () => new StreamableHTTPClientTransport(url, { authProvider: provider });

/** Runs `step`; when the SDK stops for the user agent, finishes the flow on `transport` and
 *  runs `step(true)` (a connect then needs a new transport; a call goes on with the client's). */
async function withAuth(transport, step) {
    try {
        return await step(false);
    } catch (e) {
        if (!(e instanceof UnauthorizedError) || !provider.callback) throw e;
        const callback = provider.callback;
        provider.callback = undefined;
        await transport.finishAuth(callback.searchParams);
        return step(true);
    }
}

let current;
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const probe = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

const unauthenticated = await check('401 without a token, with resource_metadata', () =>
    fetch(url, { method: 'POST', headers, body: probe }), (r) =>
    r.status === 401 && /resource_metadata="[^"]+"/.test(r.headers.get('www-authenticate') ?? '')
        ? null : `HTTP ${r.status}, WWW-Authenticate ${r.headers.get('www-authenticate')}`);
const metadataUrl = unauthenticated?.headers.get('www-authenticate')?.match(/resource_metadata="([^"]+)"/)?.[1];
await check('protected resource metadata names the server and the issuer', async () =>
    (await fetch(metadataUrl)).json(), (m) =>
    m.resource === url.href && m.authorization_servers?.includes(issuer)
        ? null : JSON.stringify(m));
await check('a refused token: 401 invalid_token, no reason given', async () => {
    const r = await fetch(url, { method: 'POST', headers: { ...headers, authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' }, body: probe });
    return { status: r.status, challenge: r.headers.get('www-authenticate') ?? '', body: await r.text() };
}, (r) => r.status === 401 && r.challenge.includes('error="invalid_token"') && !/alg|none|signature|expired/i.test(r.body)
    ? null : JSON.stringify(r));

const client = new Client({ name: 'ts-auth-interop', version: '1.0.0' }, { versionNegotiation: { mode: MODE } });
current = newTransport();
await check(`the SDK's flow, then connect (${era})`, () =>
    withAuth(current, (retry) => client.connect(retry ? (current = newTransport()) : current, { timeout: STEP_TIMEOUT_MS })), () =>
    provider.authorizations === 1 && provider.saved?.access_token
        ? null : `${provider.authorizations} authorization(s)`);
const version = client.getNegotiatedProtocolVersion?.() ?? client.getServerVersion?.()?.protocolVersion;
record(`negotiated the ${era} era`, era === 'modern' ? version === '2026-07-28' : version !== '2026-07-28', `version ${version}`);
await check('tools/list with the token', () => client.listTools(), (r) =>
    r.tools?.some((t) => t.name === 'test_simple_text') ? null : JSON.stringify(r).slice(0, 200));
await check('tools/call with the token', () => client.callTool({ name: 'test_simple_text', arguments: {} }), (r) =>
    r.content?.[0]?.text ? null : JSON.stringify(r).slice(0, 200));

await check(`${adminTool} without its scope: 403 insufficient_scope`, async () => {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: adminTool, arguments: {} } });
    const r = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${provider.saved?.access_token}` }, body: call });
    return { status: r.status, challenge: r.headers.get('www-authenticate') ?? '' };
}, (r) => r.status === 403 && r.challenge.includes('insufficient_scope') && r.challenge.includes('mcp:admin')
    ? null : JSON.stringify(r));
await check(`${adminTool} after the SDK's step-up`, () =>
    withAuth(current, () => client.callTool({ name: adminTool, arguments: {} })), (r) =>
    provider.authorizations === 2 && provider.scope.split(' ').includes('mcp:admin') && !r.isError
        ? null : `${provider.authorizations} authorization(s), scope ${provider.scope}, ${JSON.stringify(r).slice(0, 200)}`);

await client.close().catch(() => {});
verdict();
