// A small OAuth 2.1 authorization server for scripts/interop-ts.sh (written for the test, on
// node:http and node:crypto only): the TypeScript SDK's client gets its tokens here to reach
// the example server started with its auth options. It approves every authorization at once
// (no user), and issues JWT access tokens signed RS256 with a key made at start, audience the
// `resource` the client asked for.
//
// Routes: the metadata (RFC 8414) at /.well-known/oauth-authorization-server, /register (RFC
// 7591, public clients), /authorize (PKCE S256 required; redirects with code, state, iss),
// /token (authorization_code with the PKCE verifier checked, and refresh_token), /jwks.
//
// Usage: node ts_auth_server.mjs   (prints "listening <issuer URL>" once it listens)
// Environment: AUTH_SCOPES (the scopes it lists, space separated; default "mcp:tools
// mcp:admin").

import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const SCOPES = (process.env.AUTH_SCOPES ?? 'mcp:tools mcp:admin').split(' ').filter(Boolean);
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KID = randomBytes(8).toString('hex');
const codes = new Map();
const refreshTokens = new Map();
const clients = new Map();
let issuer = '';

const b64url = (buf) => Buffer.from(buf).toString('base64url');

/** A JWT access token for `subject`, audience `resource`, with `scope`. */
function accessToken(subject, resource, scope, clientId) {
    const now = Math.floor(Date.now() / 1000);
    const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: KID }));
    const claims = b64url(JSON.stringify({
        iss: issuer, sub: subject, aud: resource, iat: now, exp: now + 600,
        scope, client_id: clientId, jti: randomBytes(8).toString('hex'),
    }));
    const signer = createSign('RSA-SHA256');
    signer.update(`${header}.${claims}`);
    return `${header}.${claims}.${b64url(signer.sign(privateKey))}`;
}

function json(res, status, body) {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
}

async function body(req) {
    let text = '';
    for await (const chunk of req) text += chunk;
    return text;
}

/** The tokens of a grant, with a refresh token. */
function tokens(res, grant) {
    const refresh = randomBytes(16).toString('hex');
    refreshTokens.set(refresh, grant);
    json(res, 200, {
        access_token: accessToken(grant.subject, grant.resource, grant.scope, grant.clientId),
        token_type: 'Bearer', expires_in: 600, refresh_token: refresh, scope: grant.scope,
    });
}

async function token(req, res) {
    const form = new URLSearchParams(await body(req));
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!grant || grant.challenge !== challenge || grant.clientId !== form.get('client_id')
            || grant.redirectUri !== form.get('redirect_uri')) {
            return json(res, 400, { error: 'invalid_grant' });
        }
        const resource = form.get('resource') ?? grant.resource;
        if (resource !== grant.resource) return json(res, 400, { error: 'invalid_target' });
        return tokens(res, grant);
    }
    if (grantType === 'refresh_token') {
        const grant = refreshTokens.get(form.get('refresh_token') ?? '');
        if (!grant) return json(res, 400, { error: 'invalid_grant' });
        return tokens(res, grant);
    }
    return json(res, 400, { error: 'unsupported_grant_type' });
}

function authorize(url, res) {
    const q = url.searchParams;
    const redirect = q.get('redirect_uri') ?? '';
    const client = clients.get(q.get('client_id') ?? '');
    if (!client || !client.redirect_uris.includes(redirect)) {
        return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect URI' });
    }
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !q.get('resource')) {
        return json(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 and resource required' });
    }
    const asked = (q.get('scope') ?? '').split(' ').filter((s) => SCOPES.includes(s));
    const code = randomBytes(16).toString('hex');
    codes.set(code, {
        subject: 'interop-user', clientId: q.get('client_id'), redirectUri: redirect,
        challenge: q.get('code_challenge'), resource: q.get('resource'), scope: asked.join(' '),
    });
    const back = new URL(redirect);
    back.searchParams.set('code', code);
    if (q.get('state')) back.searchParams.set('state', q.get('state'));
    back.searchParams.set('iss', issuer);
    res.writeHead(302, { location: back.toString() });
    res.end();
}

async function register(req, res) {
    let metadata;
    try {
        metadata = JSON.parse(await body(req));
    } catch {
        return json(res, 400, { error: 'invalid_client_metadata' });
    }
    const clientId = randomBytes(8).toString('hex');
    const client = {
        ...metadata, client_id: clientId, token_endpoint_auth_method: 'none',
        redirect_uris: metadata.redirect_uris ?? [],
    };
    clients.set(clientId, client);
    json(res, 201, client);
}

const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    try {
        if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
            return json(res, 200, {
                issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`,
                registration_endpoint: `${issuer}/register`, jwks_uri: `${issuer}/jwks`,
                response_types_supported: ['code'], grant_types_supported: ['authorization_code', 'refresh_token'],
                code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'],
                scopes_supported: SCOPES, authorization_response_iss_parameter_supported: true,
            });
        }
        if (req.method === 'GET' && url.pathname === '/jwks') {
            const jwk = publicKey.export({ format: 'jwk' });
            return json(res, 200, { keys: [{ ...jwk, kid: KID, alg: 'RS256', use: 'sig' }] });
        }
        if (req.method === 'GET' && url.pathname === '/authorize') return authorize(url, res);
        if (req.method === 'POST' && url.pathname === '/token') return await token(req, res);
        if (req.method === 'POST' && url.pathname === '/register') return await register(req, res);
        json(res, 404, { error: 'not_found' });
    } catch (e) {
        json(res, 500, { error: 'server_error', error_description: String(e?.message ?? e) });
    }
});

server.listen(0, '127.0.0.1', () => {
    issuer = `http://127.0.0.1:${server.address().port}`;
    console.log(`listening ${issuer}`);
});
