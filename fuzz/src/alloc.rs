//! A global allocator that counts, per thread: the peak of live bytes while one input is read,
//! so that a run can tell an allocation out of proportion to the input (other threads, such
//! as parallel tests, do not count).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts live and peak bytes of each thread; install it with `#[global_allocator]`.
pub struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grow(n: usize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get().wrapping_add(n as isize);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn shrink(n: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().wrapping_sub(n as isize)));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grow(new_size - layout.size());
            } else {
                shrink(layout.size() - new_size);
            }
        }
        p
    }
}

/// Starts a measurement on this thread: the peak is reset to what is live now.
pub fn start() -> isize {
    let live = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(live));
    live
}

/// The most bytes this thread had allocated at once since `start` returned `base`, beyond
/// `base`.
pub fn peak_since(base: isize) -> usize {
    usize::try_from(PEAK.with(Cell::get).wrapping_sub(base)).unwrap_or(0)
}

/// The bound a reader's peak allocation must stay within for an input of `len` bytes: a fixed
/// allowance plus a multiple of the input (RELIABILITY.md has the largest ratio seen).
pub fn bound(len: usize) -> usize {
    (256 << 10) + 256 * len
}
