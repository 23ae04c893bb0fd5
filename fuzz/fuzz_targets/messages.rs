//! `cargo fuzz run messages`: libFuzzer drives every dispatching deserializer (see
//! `fuzz/README.md`; seeds: the official examples, copied by `fuzz/run-libfuzzer.sh`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = mcp_fuzz::target::one_input(data);
});
