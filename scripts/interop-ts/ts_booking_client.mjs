// The official MCP TypeScript SDK's client against the README Quickstart's server, for
// scripts/interop-ts.sh, in one era: it connects (modern: 2026-07-28 pinned; legacy: the SDK's
// 2025-11-25 connect), calls the tool `book` with {"class": "window"}, answers its question
// (an elicitation form: seat 4C; in the legacy era a server-to-client elicitation/create, in the
// modern one an input_required result and the retried call) and prints the answer's text.
// Exits 1 unless the answer is "Booked seat 4C.".
//
// Usage: node ts_booking_client.mjs <server-url> modern|legacy
//        node ts_booking_client.mjs stdio modern|legacy <command> [args...]

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const stdio = process.argv[2] === 'stdio';
const era = process.argv[3];
const [command, ...commandArgs] = process.argv.slice(4);
if ((era !== 'modern' && era !== 'legacy') || (stdio && !command)) {
    console.error('usage: node ts_booking_client.mjs <server-url>|stdio modern|legacy [command args...]');
    process.exit(2);
}
const transport = stdio
    ? new StdioClientTransport({ command, args: commandArgs, stderr: 'inherit' })
    : new StreamableHTTPClientTransport(new URL(process.argv[2]));
const mode = era === 'modern' ? { pin: '2026-07-28' } : 'legacy';
const client = new Client(
    { name: 'ts-booking-client', version: '1' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } }
);
client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { seat: '4C' } }));

const timeout = setTimeout(() => {
    console.log('FAIL no answer within 20 s');
    process.exit(1);
}, 20_000);
try {
    await client.connect(transport, { timeout: 20_000 });
    const result = await client.callTool({ name: 'book', arguments: { class: 'window' } });
    const text = result.content?.map(block => block.text).join('') ?? '';
    const version = client.getNegotiatedProtocolVersion();
    const ok = text === 'Booked seat 4C.';
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${era} (${version}${stdio ? ', stdio' : ''}): ${text}`);
    await client.close();
    clearTimeout(timeout);
    process.exit(ok ? 0 : 1);
} catch (e) {
    console.log(`FAIL ${era}${stdio ? ' (stdio)' : ''}: ${e}`);
    process.exit(1);
}
