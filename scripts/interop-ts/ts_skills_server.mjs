// A skills server written with the official MCP TypeScript SDK's Skills extension
// (@modelcontextprotocol/server/ext/skills, SEP-2640; the version in package-lock.json), for
// scripts/interop-ts.sh part 7: the example client (examples/conformance-client) lists its
// skills and loads the ones MCP_CONFORMANCE_CONTEXT names, verifying every file.
//
// Modern era only (2026-07-28; createMcpHandler with `legacy: 'reject'`), Streamable HTTP. The
// skills are built in memory (FILES below) under the prefix `ts`:
//
//   skill://ts/docs-writer/SKILL.md   with templates/outline.md, templates/sections/usage.md and
//                                     assets/logo.bin (bytes that are not UTF-8: a blob)
//   skill://ts/greeting/SKILL.md      its SKILL.md alone
//
// Served by the SDK's catalog (SkillsExtension.load over memorySkillFiles): skills/list one
// skill per page (pageSize 1, so that a client has to follow nextCursor), skills/get,
// resources/read of every file, resources/directory/read (directoryRead), ttlMs and cacheScope.
//
// With --tamper, the same entries (the catalog's, digests and sizes of the files above) are
// served by a SkillSource of this script's own whose resources/read answers docs-writer's
// SKILL.md with one byte of its body changed: same size, same frontmatter, another digest. A
// client that verifies must refuse that skill and may still load greeting. No directory reads
// in that mode.
//
// Usage: node ts_skills_server.mjs [--tamper]  (binds 127.0.0.1 on a port the kernel picks and
// prints "listening on http://127.0.0.1:<port>/mcp" once it accepts connections; with
// --print-entries, prints the entries as JSON and exits)


import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { SkillsExtension, memorySkillFiles } from '@modelcontextprotocol/server/ext/skills';
import { listen } from './node_http.mjs';

const args = process.argv.slice(2);
const tamper = args.includes('--tamper');
const printEntries = args.includes('--print-entries');
if (args.some(a => a !== '--tamper' && a !== '--print-entries')) {
    console.error('usage: node ts_skills_server.mjs [--tamper] [--print-entries]');
    process.exit(2);
}

const PREFIX = 'ts';
const BASE = `skill://${PREFIX}/`;

/** The skills' files, by path under the catalog's root: `<skill>/<path in the skill>`. */
const FILES = {
    'docs-writer/SKILL.md': [
        '---',
        'name: docs-writer',
        'description: Writes a document from an outline. A fixture of the TypeScript SDK interop server.',
        'metadata:',
        '  origin: ts-interop',
        '---',
        '',
        '# Docs writer',
        '',
        'Start from [the outline](templates/outline.md); the usage section is in',
        'templates/sections/usage.md. Put assets/logo.bin at the top.',
        ''
    ].join('\n'),
    'docs-writer/templates/outline.md': '# Outline\n\n1. Purpose\n2. Usage\n3. Limits\n',
    'docs-writer/templates/sections/usage.md': '## Usage\n\nRun it, then read what it says.\n',
    // Not UTF-8 (a PNG signature, a NUL, 0xff): served as a base64 blob.
    'docs-writer/assets/logo.bin': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x01]),
    'greeting/SKILL.md': [
        '---',
        'name: greeting',
        'description: Greets the user by name.',
        '---',
        '',
        'Say "Hello, <name>!" and nothing else.',
        ''
    ].join('\n')
};

/** The file --tamper serves differently, and how: one byte of its body changed (same size). */
const TAMPERED = 'docs-writer/SKILL.md';
const tampered = FILES[TAMPERED].replace('# Docs writer', '# Docs Writer');

const catalog = await SkillsExtension.load(memorySkillFiles(FILES), {
    prefix: PREFIX,
    pageSize: 1,
    strict: true,
    cacheHint: { ttlMs: 60_000, cacheScope: 'public' }
});

if (printEntries) {
    console.log(JSON.stringify(catalog.entries, null, 2));
    process.exit(0);
}

/** --tamper: the catalog's entries, the files from FILES but TAMPERED changed. */
function tamperingSource() {
    const entries = catalog.entries;
    const pathOf = uri => (uri.startsWith(BASE) ? decodeURIComponent(uri.slice(BASE.length)) : undefined);
    return {
        async list({ cursor }) {
            const start = cursor === undefined ? 0 : Number(cursor);
            if (!Number.isSafeInteger(start) || start < 0 || start > entries.length) throw new Error(`bad cursor ${cursor}`);
            const skills = entries.slice(start, start + 1);
            return start + 1 < entries.length ? { skills, nextCursor: String(start + 1) } : { skills };
        },
        async get(uri) {
            return entries.find(skill => skill.uri === uri);
        },
        async read(uri) {
            const path = pathOf(uri);
            if (path === TAMPERED) {
                console.log(`tampered read ${uri}`);
                return { text: tampered, mimeType: 'text/markdown' };
            }
            const content = path === undefined ? undefined : FILES[path];
            if (content === undefined) return undefined;
            return typeof content === 'string' ? { text: content } : { bytes: content, mimeType: 'application/octet-stream' };
        }
    };
}

const skills = tamper
    ? new SkillsExtension({ source: tamperingSource(), cacheHint: { ttlMs: 60_000, cacheScope: 'public' } })
    : catalog;

function newServer() {
    const server = new McpServer({ name: 'ts-skills-server', version: '1' });
    skills.attach(server);
    return server;
}

const handler = createMcpHandler(() => newServer(), { legacy: 'reject' });

listen(handler);
