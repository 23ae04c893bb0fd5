//! The three workloads, built deterministically (fixed seed) so that every project measures the
//! same bytes:
//!
//! - **W1**: one JSON-RPC response to `tools/list` with 500 tools (name, title, a ~200-character
//!   description, an `inputSchema` with 5 properties of mixed types, annotations),
//!   `resultType: "complete"`, `ttlMs`, `cacheScope`: about 0.5 MB of compact JSON.
//! - **W2**: 20,000 separate `tools/call` result responses: 90 % complete with 1–3 text content
//!   blocks, 10 % `input_required` with one elicitation request and a `requestState`. Even
//!   messages are written in the order of the official examples (`resultType` first, `type`
//!   first); odd messages have every object's keys sorted, as many JSON writers do, so that
//!   `resultType` comes after `content` and `type` after `text`.
//! - **W3**: 20,000 separate `tools/call` requests carrying the 2026-07-28 `_meta`
//!   (`io.modelcontextprotocol/protocolVersion`, `io.modelcontextprotocol/clientCapabilities`).
//!
//! The JSON is written by a small writer of its own (not by a type under test), compact.

use std::fmt::Write as _;

/// The seed of every workload.
pub const SEED: u64 = 0x004d_4350_2026_0728;

/// SplitMix64: small, fast and the same everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next_u64() as usize % items.len()]
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// A JSON value whose object members keep the order they were built in.
#[derive(Clone, Debug)]
pub enum J {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(&'static str, J)>),
    /// An object whose keys are not static (map members).
    Map(Vec<(String, J)>),
}

impl J {
    pub fn str(s: impl Into<String>) -> J {
        J::Str(s.into())
    }

    /// Writes compact JSON; `sorted` sorts the keys of every object (recursively).
    pub fn write(&self, out: &mut String, sorted: bool) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Int(v) => write!(out, "{v}").unwrap(),
            J::Float(v) => write!(out, "{v:?}").unwrap(),
            J::Str(s) => write_str(out, s),
            J::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out, sorted);
                }
                out.push(']');
            }
            J::Obj(members) => {
                let mut members: Vec<(&str, &J)> = members.iter().map(|(k, v)| (*k, v)).collect();
                write_object(out, &mut members, sorted);
            }
            J::Map(members) => {
                let mut members: Vec<(&str, &J)> =
                    members.iter().map(|(k, v)| (k.as_str(), v)).collect();
                write_object(out, &mut members, sorted);
            }
        }
    }

    pub fn to_json(&self, sorted: bool) -> String {
        let mut s = String::new();
        self.write(&mut s, sorted);
        s
    }
}

fn write_object(out: &mut String, members: &mut [(&str, &J)], sorted: bool) {
    if sorted {
        members.sort_by(|a, b| a.0.cmp(b.0));
    }
    out.push('{');
    for (i, (k, v)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(out, k);
        out.push(':');
        v.write(out, sorted);
    }
    out.push('}');
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
}

const WORDS: &[&str] = &[
    "the",
    "tool",
    "returns",
    "current",
    "weather",
    "for",
    "a",
    "given",
    "location",
    "and",
    "reads",
    "files",
    "from",
    "repository",
    "search",
    "query",
    "results",
    "with",
    "optional",
    "filters",
    "limit",
    "number",
    "of",
    "items",
    "user",
    "account",
    "project",
    "issue",
    "create",
    "update",
    "delete",
    "list",
    "all",
    "resources",
    "matching",
    "pattern",
    "in",
    "workspace",
    "database",
    "table",
    "rows",
    "columns",
    "schema",
    "index",
    "cache",
    "token",
    "request",
    "response",
    "server",
    "client",
    "message",
    "stream",
    "event",
    "timestamp",
    "region",
    "zone",
];

/// Words up to about `len` characters.
fn sentence(rng: &mut Rng, len: usize) -> String {
    let mut s = String::with_capacity(len + 12);
    while s.len() < len {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    s.push('.');
    s
}

fn ident(rng: &mut Rng) -> String {
    format!("{}_{}", rng.pick(WORDS), rng.pick(WORDS))
}

/// One `inputSchema` property of a mixed type.
fn property(rng: &mut Rng, kind: u64) -> J {
    let description = J::Str(sentence(rng, 40));
    match kind % 5 {
        0 => J::Obj(vec![
            ("type", J::str("string")),
            ("description", description),
        ]),
        1 => J::Obj(vec![
            ("type", J::str("integer")),
            ("description", description),
            ("minimum", J::Int(0)),
            ("maximum", J::Int(rng.range(10, 10_000) as i64)),
        ]),
        2 => J::Obj(vec![
            ("type", J::str("number")),
            ("description", description),
            ("default", J::Float(rng.range(0, 1000) as f64 / 8.0)),
        ]),
        3 => J::Obj(vec![
            ("type", J::str("boolean")),
            ("description", description),
            ("default", J::Bool(rng.chance(50))),
        ]),
        _ => J::Obj(vec![
            ("type", J::str("array")),
            ("description", description),
            (
                "items",
                J::Obj(vec![
                    ("type", J::str("string")),
                    (
                        "enum",
                        J::Arr(vec![J::str("low"), J::str("medium"), J::str("high")]),
                    ),
                ]),
            ),
        ]),
    }
}

fn tool(rng: &mut Rng, i: usize) -> J {
    let name = format!("{}_{i}", ident(rng));
    let mut properties = Vec::new();
    let mut required = Vec::new();
    for k in 0..5u64 {
        let key = format!("{}_{k}", rng.pick(WORDS));
        if k < 2 {
            required.push(J::Str(key.clone()));
        }
        properties.push((key, property(rng, k + i as u64)));
    }
    J::Obj(vec![
        ("name", J::Str(name)),
        ("title", J::Str(sentence(rng, 24))),
        ("description", J::Str(sentence(rng, 200))),
        (
            "inputSchema",
            J::Obj(vec![
                ("type", J::str("object")),
                ("properties", J::Map(properties)),
                ("required", J::Arr(required)),
            ]),
        ),
        (
            "annotations",
            J::Obj(vec![
                ("title", J::Str(sentence(rng, 16))),
                ("readOnlyHint", J::Bool(rng.chance(50))),
                ("destructiveHint", J::Bool(rng.chance(20))),
                ("idempotentHint", J::Bool(rng.chance(50))),
                ("openWorldHint", J::Bool(rng.chance(30))),
            ]),
        ),
    ])
}

/// W1: one `tools/list` response with 500 tools.
pub fn w1() -> String {
    let mut rng = Rng::new(SEED ^ 1);
    let tools: Vec<J> = (0..500).map(|i| tool(&mut rng, i)).collect();
    J::Obj(vec![
        ("jsonrpc", J::str("2.0")),
        ("id", J::Int(1)),
        (
            "result",
            J::Obj(vec![
                ("resultType", J::str("complete")),
                ("tools", J::Arr(tools)),
                ("ttlMs", J::Int(300_000)),
                ("cacheScope", J::str("public")),
            ]),
        ),
    ])
    .to_json(false)
}

/// What a W2 message is, for the correctness check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `resultType: "complete"` with this many text blocks.
    Complete { blocks: usize },
    /// `resultType: "input_required"` with one elicitation and a `requestState`.
    InputRequired,
}

/// W2: 20,000 `tools/call` result responses, and what each one is.
pub fn w2() -> (Vec<String>, Vec<Expect>) {
    let mut rng = Rng::new(SEED ^ 2);
    let mut texts = Vec::with_capacity(20_000);
    let mut expect = Vec::with_capacity(20_000);
    for i in 0..20_000usize {
        let sorted = i % 2 == 1;
        let (result, e) = if rng.chance(10) {
            let mut schema_props = vec![(
                "name".to_owned(),
                J::Obj(vec![
                    ("type", J::str("string")),
                    ("description", J::Str(sentence(&mut rng, 30))),
                ]),
            )];
            if rng.chance(50) {
                schema_props.push((
                    "confirm".to_owned(),
                    J::Obj(vec![
                        ("type", J::str("boolean")),
                        ("default", J::Bool(false)),
                    ]),
                ));
            }
            let state: String = (0..rng.range(40, 120))
                .map(|_| {
                    let c = rng.range(0, 63) as u8;
                    match c {
                        0..=25 => (b'A' + c) as char,
                        26..=51 => (b'a' + c - 26) as char,
                        52..=61 => (b'0' + c - 52) as char,
                        62 => '-',
                        _ => '_',
                    }
                })
                .collect();
            let request = J::Obj(vec![
                ("method", J::str("elicitation/create")),
                (
                    "params",
                    J::Obj(vec![
                        ("mode", J::str("form")),
                        ("message", J::Str(sentence(&mut rng, 50))),
                        (
                            "requestedSchema",
                            J::Obj(vec![
                                ("type", J::str("object")),
                                ("properties", J::Map(schema_props)),
                                ("required", J::Arr(vec![J::str("name")])),
                            ]),
                        ),
                    ]),
                ),
            ]);
            (
                J::Obj(vec![
                    ("resultType", J::str("input_required")),
                    (
                        "inputRequests",
                        J::Map(vec![(format!("elicit_{i}"), request)]),
                    ),
                    ("requestState", J::Str(state)),
                ]),
                Expect::InputRequired,
            )
        } else {
            let blocks = rng.range(1, 3) as usize;
            let content: Vec<J> = (0..blocks)
                .map(|_| {
                    let len = rng.range(20, 400) as usize;
                    let mut text = sentence(&mut rng, len);
                    if rng.chance(30) {
                        text.push_str("\nSee \"details\" below.");
                    }
                    J::Obj(vec![("type", J::str("text")), ("text", J::Str(text))])
                })
                .collect();
            let mut members = vec![
                ("resultType", J::str("complete")),
                ("content", J::Arr(content)),
            ];
            if rng.chance(25) {
                members.push(("isError", J::Bool(false)));
            }
            (J::Obj(members), Expect::Complete { blocks })
        };
        let message = J::Obj(vec![
            ("jsonrpc", J::str("2.0")),
            ("id", J::Int(i as i64 + 1)),
            ("result", result),
        ]);
        texts.push(message.to_json(sorted));
        expect.push(e);
    }
    (texts, expect)
}

/// W3: 20,000 `tools/call` requests with the 2026-07-28 `_meta`.
pub fn w3() -> Vec<String> {
    let mut rng = Rng::new(SEED ^ 3);
    (0..20_000usize)
        .map(|i| {
            let mut capabilities = Vec::new();
            if rng.chance(70) {
                capabilities.push((
                    "elicitation",
                    J::Obj(vec![("form", J::Obj(vec![])), ("url", J::Obj(vec![]))]),
                ));
            }
            if rng.chance(50) {
                capabilities.push(("roots", J::Obj(vec![])));
            }
            if rng.chance(40) {
                capabilities.push(("sampling", J::Obj(vec![])));
            }
            let mut arguments = Vec::new();
            for k in 0..rng.range(1, 4) {
                let key = format!("{}_{k}", rng.pick(WORDS));
                let value = match rng.range(0, 3) {
                    0 => J::Str(sentence(&mut rng, 20)),
                    1 => J::Int(rng.range(0, 100_000) as i64),
                    2 => J::Bool(rng.chance(50)),
                    _ => J::Arr(vec![J::str(rng.pick(WORDS)), J::str(rng.pick(WORDS))]),
                };
                arguments.push((key, value));
            }
            J::Obj(vec![
                ("jsonrpc", J::str("2.0")),
                ("id", J::Int(i as i64 + 1)),
                ("method", J::str("tools/call")),
                (
                    "params",
                    J::Obj(vec![
                        (
                            "_meta",
                            J::Obj(vec![
                                (
                                    "io.modelcontextprotocol/protocolVersion",
                                    J::str("2026-07-28"),
                                ),
                                (
                                    "io.modelcontextprotocol/clientCapabilities",
                                    J::Obj(capabilities),
                                ),
                            ]),
                        ),
                        ("name", J::Str(format!("{}_{}", ident(&mut rng), i % 500))),
                        ("arguments", J::Map(arguments)),
                    ]),
                ),
            ])
            .to_json(false)
        })
        .collect()
}

/// The total length of a set of messages.
pub fn total_len(texts: &[String]) -> usize {
    texts.iter().map(String::len).sum()
}
