//! The measured passes both benches run: reading a set of messages and writing a set of values,
//! timed on this thread's CPU clock ([`crate::clock`]). `pass_de` and `pass_ser` stay out of
//! line so that profilers can count just them (`--toggle-collect='*pass_de*'`).

use crate::clock::Instant;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::hint::black_box;
use std::time::Duration;

/// Messages read between two clock readings: their values are dropped with the clock stopped,
/// and the memory is reused by the next chunk, as a reader that handles one message at a time
/// reuses it (freeing is not measured, as in serde-rs/json-benchmark).
pub const CHUNK: usize = 256;

/// Deserializes every text into `out`.
#[inline(never)]
pub fn pass_de<T: DeserializeOwned>(texts: &[String], out: &mut Vec<T>) {
    for t in texts {
        if let Ok(v) = serde_json::from_str::<T>(black_box(t)) {
            out.push(v);
        }
    }
}

/// Serializes every value into a reused buffer; the bytes written.
#[inline(never)]
pub fn pass_ser<T: Serialize>(values: &[T], buffer: &mut Vec<u8>) -> usize {
    let mut n = 0;
    for v in values {
        buffer.clear();
        serde_json::to_writer(&mut *buffer, black_box(v)).unwrap();
        n += buffer.len();
    }
    n
}

/// The CPU time of reading every text as `T`, [`CHUNK`] messages at a time, values dropped off
/// the clock. Panics when a message is not read: a case that cannot read its workload is not
/// measured.
pub fn read_timed<T: DeserializeOwned>(texts: &[String]) -> Duration {
    let mut out: Vec<T> = Vec::with_capacity(CHUNK.min(texts.len()));
    let mut total = Duration::ZERO;
    for chunk in texts.chunks(CHUNK) {
        let start = Instant::now();
        pass_de(chunk, &mut out);
        total += start.elapsed();
        assert_eq!(out.len(), chunk.len(), "every message is read");
        out.clear();
    }
    total
}

/// The CPU time of writing every value once, into `buffer`.
pub fn write_timed<T: Serialize>(values: &[T], buffer: &mut Vec<u8>) -> Duration {
    let start = Instant::now();
    black_box(pass_ser(values, buffer));
    start.elapsed()
}
