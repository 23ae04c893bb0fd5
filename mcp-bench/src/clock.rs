//! The benches' clock: this thread's CPU time. Unlike the wall clock it does not run while
//! another process has the core (builds share this two-core machine with the benchmarks).

use std::time::Duration;

/// A reading of this thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`).
#[derive(Clone, Copy, Debug)]
pub struct Instant(Duration);

impl Instant {
    /// The thread's CPU time now.
    pub fn now() -> Instant {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec to write to; the clock id is a constant.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
        Instant(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }

    /// The thread's CPU time since `self`.
    pub fn elapsed(self) -> Duration {
        Instant::now().0.saturating_sub(self.0)
    }
}
