//! A small deterministic mutator for JSON messages: byte edits, splices between seeds, tokens
//! of the protocol, hostile numbers and strings, and 10,000-deep nesting at `_meta`, JSON
//! values and anywhere. Shared (by `#[path]`) by the smoke driver and the CI run.

/// SplitMix64: a seeded stream of numbers (the same seed, the same inputs, on every machine).
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Protocol words and hostile values, spliced in whole.
pub const TOKENS: &[&str] = &[
    "\"resultType\"",
    "\"complete\"",
    "\"input_required\"",
    "\"method\"",
    "\"jsonrpc\"",
    "\"2.0\"",
    "\"id\"",
    "null",
    "true",
    "false",
    "[]",
    "{}",
    "\"_meta\"",
    "\"inputRequests\"",
    "\"requestState\"",
    "\"inputResponses\"",
    "\"tools/call\"",
    "\"prompts/get\"",
    "\"resources/read\"",
    "\"elicitation/create\"",
    "\"sampling/createMessage\"",
    "\"roots/list\"",
    "\"notifications/progress\"",
    "\"server/discover\"",
    "\"type\"",
    "\"text\"",
    "\"image\"",
    "\"resource\"",
    "\"resource_link\"",
    "\"mode\"",
    "\"form\"",
    "\"url\"",
    "\"content\"",
    "\"structuredContent\"",
    "\"isError\"",
    "\"result\"",
    "\"error\"",
    "\"code\"",
    "\"params\"",
    "\"ttlMs\"",
    "\"cacheScope\"",
    "\"public\"",
    "1e999",
    "-1e999",
    "18446744073709551616",
    "-9223372036854775809",
    "-0",
    "0.5",
    "1.0",
    "-32602",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\"\\uDBFF\\uDFFF\"",
    "\"\u{10FFFF}\"",
    ",",
    ":",
    "\"",
    "\\",
    "{\"a\":",
    "[[[[",
    "\"io.modelcontextprotocol/protocolVersion\"",
    "\"io.modelcontextprotocol/clientCapabilities\"",
];

/// Where deep nesting goes: right after one of these keys, or anywhere.
const NEST_AT: &[&[u8]] = &[
    b"\"_meta\":",
    b"\"structuredContent\":",
    b"\"arguments\":",
    b"\"data\":",
    b"\"requestState\":",
    b"\"content\":",
];

/// 10,000 levels of arrays or objects around `null`.
pub fn deep(rng: &mut Rng) -> Vec<u8> {
    let n = 10_000;
    if rng.below(2) == 0 {
        let mut v = b"[".repeat(n);
        v.extend_from_slice(b"null");
        v.extend(b"]".repeat(n));
        v
    } else {
        let mut v = b"{\"a\":".repeat(n);
        v.extend_from_slice(b"null");
        v.extend(b"}".repeat(n));
        v
    }
}

/// One to four mutations of `seeds[i]` (another seed may give a splice).
pub fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seeds[rng.below(seeds.len())].clone();
    for _ in 0..=rng.below(4) {
        let len = data.len();
        let at = if len == 0 { 0 } else { rng.below(len + 1) };
        match rng.below(10) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = b"{}[]\",:0a\\-e."[rng.below(13)];
            }
            2 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                data.splice(at..at, t.bytes());
            }
            3 if len > 0 => {
                let end = (at + 1 + rng.below(32)).min(len);
                let at = at.min(end);
                data.drain(at..end);
            }
            4 if len > 0 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(64)).min(len);
                let chunk = data[start..end].to_vec();
                data.splice(at..at, chunk);
            }
            5 => {
                let other = &seeds[rng.below(seeds.len())];
                if !other.is_empty() {
                    let start = rng.below(other.len());
                    let end = (start + 1 + rng.below(256)).min(other.len());
                    let cut = (at + rng.below(64)).min(len);
                    data.splice(at..cut, other[start..end].iter().copied());
                }
            }
            6 => {
                // Deep nesting after a JSON-value or _meta key, else anywhere.
                let key = NEST_AT[rng.below(NEST_AT.len())];
                let pos = find(&data, key).map_or(at, |p| p + key.len());
                let nested = deep(rng);
                // Replace the value that follows when there is a simple one, else insert.
                data.splice(pos..pos, nested.iter().copied().chain(*b","));
            }
            7 => {
                // A repeated member, first in the object.
                if let Some(p) = find(&data, b"{") {
                    let t = TOKENS[rng.below(TOKENS.len())];
                    let entry = format!("{t}:{},", TOKENS[rng.below(TOKENS.len())]);
                    data.splice(p + 1..p + 1, entry.into_bytes());
                }
            }
            8 => {
                // A long string or a long array.
                let n = 1 + rng.below(4096);
                let filler: Vec<u8> = if rng.below(2) == 0 {
                    let mut s = vec![b'"'];
                    s.extend(std::iter::repeat_n(b'x', n));
                    s.push(b'"');
                    s
                } else {
                    let mut s = vec![b'['];
                    s.extend(b"0,".repeat(n));
                    s.push(b'0');
                    s.push(b']');
                    s
                };
                data.splice(at..at, filler);
            }
            _ => {
                // Truncate.
                data.truncate(at);
            }
        }
        if data.len() > 1 << 17 {
            data.truncate(1 << 17);
        }
    }
    data
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The official examples (`$MCP_SCHEMA_DIR/2026-07-28/examples/*/*.json`), sorted by path.
pub fn seeds(schema_dir: &std::path::Path) -> Vec<Vec<u8>> {
    let dir = schema_dir.join("2026-07-28").join("examples");
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}
