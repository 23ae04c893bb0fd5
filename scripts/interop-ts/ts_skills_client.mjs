// The official MCP TypeScript SDK's Skills extension client (SkillsClient from
// @modelcontextprotocol/client/ext/skills, SEP-2640; the version in package-lock.json) against a
// skills server, for scripts/interop-ts.sh part 7.
//
// Modern era (2026-07-28, a pinned connect): the server declares
// extensions["io.modelcontextprotocol/skills"] with directoryRead; skills/list, every page
// (ttlMs, cacheScope), gives exactly the fixture's skills, every entry valid (the SDK refuses an
// invalid one); skills/get of one skill gives the listed entry; every file of that skill read
// with resources/read and verified by the SDK (listed, size, sha256 digest, and for SKILL.md the
// frontmatter against the entry's); the same SKILL.md against an entry whose digest is wrong must
// fail the SDK's verification (SkillVerificationError "digest"); resources/directory/read of the
// skill's root and of a subdirectory give the fixture's children (a directory's mimeType
// inode/directory); skills/get of an unknown skill fails with -32602.
//
// Legacy era (2025-11-25, initialize; the `ours` fixture only): the session does not advertise
// the extension, and resources/read of the skill's SKILL.md still answers the bytes its modern
// entry's digest covers.
//
// FIXTURE says which server's skills to expect: `ours` (the default: the example server,
// examples/conformance-server, and its default skills tree) or `ts` (ts_skills_server.mjs, a
// self-test of this script; modern only) or `ts-tampered` (ts_skills_server.mjs --tamper: the
// SDK's verification must refuse the tampered SKILL.md and accept the other skill's). With
// `probe` instead, it only says whether the server declares the extension ("declared <value>",
// exit 0, or "not declared", exit 3).
//
// One line per check ("ok   <check>" or "FAIL <check>: <why>"), then "N passed, N failed";
// exits 1 if any check failed.
//
// Usage: node ts_skills_client.mjs <server-url> [ours|ts|ts-tampered|probe]

import { createHash } from 'node:crypto';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DIRECTORY_MIME_TYPE, SKILLS_EXTENSION_ID, SkillVerificationError, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { STEP_TIMEOUT_MS, check, record, verdict } from './checks.mjs';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

/** What each fixture serves. `skill` is the one read in full; paths are relative to its root. */
const FIXTURES = {
    ours: {
        skills: ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md'],
        skill: 'skill://pdf-processing/SKILL.md',
        files: ['SKILL.md', 'references/FORMS.md', 'scripts/extract.py', 'templates/invoice.md', 'templates/regional/eu-invoice.md'],
        root: { 'SKILL.md': 'file', references: 'dir', scripts: 'dir', templates: 'dir' },
        subdirectory: ['templates', { 'invoice.md': 'file', regional: 'dir' }],
        legacy: true
    },
    ts: {
        skills: ['skill://ts/docs-writer/SKILL.md', 'skill://ts/greeting/SKILL.md'],
        skill: 'skill://ts/docs-writer/SKILL.md',
        files: ['SKILL.md', 'assets/logo.bin', 'templates/outline.md', 'templates/sections/usage.md'],
        root: { 'SKILL.md': 'file', assets: 'dir', templates: 'dir' },
        subdirectory: ['templates', { 'outline.md': 'file', sections: 'dir' }],
        legacy: false
    },
    // ts_skills_server.mjs --tamper: docs-writer's SKILL.md is served with another digest.
    'ts-tampered': {
        skills: ['skill://ts/docs-writer/SKILL.md', 'skill://ts/greeting/SKILL.md'],
        tampered: 'skill://ts/docs-writer/SKILL.md',
        intact: 'skill://ts/greeting/SKILL.md'
    }
};

const url = new URL(process.argv[2] ?? '');
const fixtureName = process.argv[3] ?? 'ours';
const fixture = FIXTURES[fixtureName];
if (fixtureName === 'probe') {
    // Whether the server declares the extension at all (exit 0) or not (exit 3), one line.
    const client = await connect({ pin: MODERN });
    const capability = client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION_ID];
    console.log(capability === undefined ? 'not declared' : `declared ${JSON.stringify(capability)}`);
    await client.close();
    process.exit(capability === undefined ? 3 : 0);
}
if (fixture === undefined) {
    console.error('usage: node ts_skills_client.mjs <server-url> [ours|ts|ts-tampered|probe]');
    process.exit(2);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sorted = values => [...values].sort();
/** The skill's root directory: its SKILL.md's URI without the file name. */
const rootOf = skillUri => skillUri.replace(/\/SKILL\.md$/, '');
/** A path relative to `root`, or undefined if `uri` is not under it. */
const relative = (root, uri) => (uri.startsWith(`${root}/`) ? decodeURIComponent(uri.slice(root.length + 1)) : undefined);
const sha256 = bytes => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** null if `call` fails with a JSON-RPC error of `code`, else why not. */
async function expectError(call, code) {
    try {
        const result = await call();
        return `no error: ${JSON.stringify(result)}`;
    } catch (e) {
        if (e?.code === code) return null;
        return `${e?.constructor?.name} code ${e?.code}, expected ${code}: ${e?.message}`;
    }
}

async function connect(mode) {
    const client = new Client({ name: 'ts-skills-interop-client', version: '1' }, { capabilities: {}, versionNegotiation: { mode } });
    await client.connect(new StreamableHTTPClientTransport(url), { timeout: STEP_TIMEOUT_MS });
    return client;
}

const negotiated = version => client => {
    const got = client.getNegotiatedProtocolVersion();
    return got === version ? null : `negotiated ${got}`;
};

const cacheFields = result =>
    typeof result?.ttlMs === 'number' && (result?.cacheScope === 'public' || result?.cacheScope === 'private')
        ? null
        : `ttlMs ${result?.ttlMs}, cacheScope ${result?.cacheScope}`;

/** The children of a directory as { name: 'file' | 'dir' }, from their URIs and mimeTypes. */
function children(directory, resources) {
    const found = {};
    for (const r of resources) {
        const name = relative(directory, r.uri.replace(/\/$/, ''));
        found[name ?? r.uri] = r.mimeType === DIRECTORY_MIME_TYPE ? 'dir' : 'file';
    }
    return Object.fromEntries(Object.entries(found).sort());
}

const childrenAre = (directory, expected) => result => {
    const got = children(directory, result.resources);
    return same(got, expected) ? null : `children ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`;
};

/** The modern era: discovery, list, get, read and verify, directories, an unknown skill. */
async function modern() {
    const client = await check(`server/discover negotiates ${MODERN} (pinned)`, () => connect({ pin: MODERN }), negotiated(MODERN));
    if (!client) return undefined;
    const skills = new SkillsClient(client);
    await check(
        `the server declares ${SKILLS_EXTENSION_ID} with directoryRead`,
        async () => client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION_ID],
        capability => (skills.supported && skills.directoryRead ? null : `declared ${JSON.stringify(capability)}`)
    );
    const listing = await check('skills/list, every page: the fixture\'s skills, every entry valid, ttlMs and cacheScope', () => skills.list(), result => {
        const uris = sorted(result.skills.map(s => s.uri));
        if (!same(uris, sorted(fixture.skills))) return `skills ${JSON.stringify(uris)}`;
        return cacheFields(result);
    });
    const listed = listing?.skills.find(s => s.uri === fixture.skill);
    const got = await check(`skills/get ${fixture.skill}: the listed entry`, () => skills.get(fixture.skill), result => {
        if (listed !== undefined && !same(result.skill, listed)) return `entry ${JSON.stringify(result.skill)} differs from the listed ${JSON.stringify(listed)}`;
        return cacheFields(result);
    });
    const skill = got?.skill ?? listed;
    if (skill !== undefined) {
        const root = rootOf(skill.uri);
        const resources = Array.isArray(skill.resources) ? skill.resources : [];
        record(
            `${fixture.skill} lists the fixture's files with digests and sizes`,
            same(sorted(resources.map(r => relative(root, r.uri))), sorted(fixture.files)),
            `resources ${JSON.stringify(skill.resources)}`
        );
        for (const entry of resources) {
            const path = relative(root, entry.uri);
            await check(`resources/read ${path}, verified by the SDK (size, digest${path === 'SKILL.md' ? ', frontmatter' : ''})`, () => skills.read(skill, entry.uri), file => {
                if (!file.verified) return 'not verified';
                if (path === 'SKILL.md' && !same(file.frontmatter, skill.frontmatter)) return `frontmatter ${JSON.stringify(file.frontmatter)}`;
                return null;
            });
        }
        // The SDK's verification is live: the same bytes against an entry with another digest.
        const wrong = {
            ...skill,
            resources: resources.map(r => (r.uri === skill.uri ? { ...r, digest: `sha256:${'0'.repeat(64)}` } : r))
        };
        await check(
            'SKILL.md against an entry with a wrong digest: SkillVerificationError "digest"',
            async () => {
                try {
                    return { read: await skills.read(wrong) };
                } catch (e) {
                    return { error: e };
                }
            },
            ({ error }) => (error instanceof SkillVerificationError && error.reason === 'digest' ? null : `not refused for its digest: ${error ?? 'read it'}`)
        );
        await check(`resources/directory/read ${root}`, () => skills.readDirectory(root), childrenAre(root, fixture.root));
        const [sub, expected] = fixture.subdirectory;
        await check(`resources/directory/read ${root}/${sub}`, () => skills.readDirectory(`${root}/${sub}`), childrenAre(`${root}/${sub}`, expected));
    }
    const unknown = rootOf(fixture.skill).replace(/[^/]*$/, 'no-such-skill/SKILL.md');
    await check(`skills/get ${unknown}: -32602`, () => expectError(() => skills.get(unknown), -32602), why => why);
    await client.close();
    return skill;
}

/** The legacy era: no extension on the session, yet the skill's files are resources. */
async function legacy(skill) {
    const client = await check(`initialize negotiates ${LEGACY} (the legacy connect)`, () => connect('legacy'), negotiated(LEGACY));
    if (!client) return;
    await check(
        `a ${LEGACY} session does not advertise ${SKILLS_EXTENSION_ID}`,
        async () => client.getServerCapabilities(),
        capabilities => (capabilities?.extensions?.[SKILLS_EXTENSION_ID] === undefined && !new SkillsClient(client).supported ? null : `capabilities ${JSON.stringify(capabilities)}`)
    );
    const digest = Array.isArray(skill?.resources) ? skill.resources.find(r => r.uri === fixture.skill)?.digest : undefined;
    await check(`resources/read ${fixture.skill} in ${LEGACY}: the bytes of its modern entry's digest`, () => client.readResource({ uri: fixture.skill }), result => {
        const content = result.contents.find(c => c.uri === fixture.skill) ?? result.contents[0];
        if (content === undefined) return 'no contents';
        const bytes = 'text' in content ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob, 'base64');
        if (digest === undefined) return 'no modern entry to compare with';
        return sha256(bytes) === digest ? null : `digest ${sha256(bytes)}, the entry lists ${digest}`;
    });
    await client.close();
}

/** ts_skills_server.mjs --tamper: the SDK refuses one skill's SKILL.md for its digest, loads the other. */
async function tampered() {
    const client = await check(`server/discover negotiates ${MODERN} (pinned)`, () => connect({ pin: MODERN }), negotiated(MODERN));
    if (!client) return;
    const skills = new SkillsClient(client);
    const listing = await check('skills/list, every page', () => skills.list(), result => {
        const uris = sorted(result.skills.map(s => s.uri));
        return same(uris, sorted(fixture.skills)) ? null : `skills ${JSON.stringify(uris)}`;
    });
    const entry = uri => listing?.skills.find(s => s.uri === uri) ?? { uri, frontmatter: {}, resources: [] };
    await check(
        `${fixture.tampered}: SkillVerificationError "digest"`,
        async () => {
            try {
                return { read: await skills.read(entry(fixture.tampered)) };
            } catch (e) {
                return { error: e };
            }
        },
        ({ error }) => (error instanceof SkillVerificationError && error.reason === 'digest' ? null : `not refused for its digest: ${error ?? 'read it'}`)
    );
    await check(`${fixture.intact}: verified`, () => skills.read(entry(fixture.intact)), file => (file.verified ? null : 'not verified'));
    await client.close();
}

console.log(`-- fixture ${fixtureName}, modern era`);
if (fixture.tampered !== undefined) {
    await tampered();
    verdict();
}
const skill = await modern();
if (fixture.legacy) {
    console.log('-- legacy era');
    await legacy(skill);
}
verdict();
