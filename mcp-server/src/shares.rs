//! Pools that principals share fairly: at most `total` entries in all, and at most
//! [`Config::principal_share`](crate::Config::principal_share) percent of them held by one
//! principal (the anonymous principal is one), so that no client can lock the others out of
//! legacy sessions, `GET` streams or waiting server requests. An entry is a [`Share`]: it
//! counts until it is dropped, however long after its use that is (a session counts until its
//! memory is freed).
//!
//! ```
//! use mcp_server::shares::Pool;
//!
//! let sessions = Pool::new("legacy sessions", 4, 50);
//! let a = sessions.take("alice").unwrap();
//! let _b = sessions.take("alice").unwrap();
//! let refused = sessions.take("alice").unwrap_err();
//! assert_eq!(refused.to_string(), "this principal holds 2 legacy sessions, its share (50% of 4)");
//! let _c = sessions.take("bob").unwrap();
//! drop(a);
//! assert_eq!(sessions.held_by("alice"), 1);
//! ```

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// One shared pool: its counts in all and by principal.
#[derive(Debug)]
pub struct Pool {
    what: &'static str,
    total: usize,
    share_percent: usize,
    per_principal: usize,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    all: usize,
    by_principal: HashMap<String, usize>,
}

/// An entry of a [`Pool`], held by one principal until dropped.
#[derive(Debug)]
pub struct Share {
    pool: Arc<Pool>,
    principal: String,
}

/// Why a [`Pool`] gave no entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Exhausted {
    /// Every entry is held.
    #[error("all {total} {what} are in use")]
    Full {
        /// What the pool holds.
        what: &'static str,
        /// Its size.
        total: usize,
    },
    /// The principal holds its share.
    #[error("this principal holds {held} {what}, its share ({percent}% of {total})")]
    Share {
        /// What the pool holds.
        what: &'static str,
        /// How many the principal holds.
        held: usize,
        /// The share, in percent of the pool.
        percent: usize,
        /// The pool's size.
        total: usize,
    },
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Pool {
    /// A pool of `total` entries of `what`, of which one principal holds at most
    /// `share_percent` percent (at least one entry, at most all).
    pub fn new(what: &'static str, total: usize, share_percent: usize) -> Arc<Pool> {
        let share_percent = share_percent.min(100);
        let per_principal =
            (total.saturating_mul(share_percent).div_ceil(100)).clamp(1, total.max(1));
        Arc::new(Pool {
            what,
            total,
            share_percent,
            per_principal,
            counts: Mutex::default(),
        })
    }

    /// One entry for `principal`, or why there is none.
    pub fn take(self: &Arc<Self>, principal: &str) -> Result<Share, Exhausted> {
        let mut counts = lock(&self.counts);
        if counts.all >= self.total {
            return Err(Exhausted::Full {
                what: self.what,
                total: self.total,
            });
        }
        let held = counts.by_principal.get(principal).copied().unwrap_or(0);
        if held >= self.per_principal {
            return Err(Exhausted::Share {
                what: self.what,
                held,
                percent: self.share_percent,
                total: self.total,
            });
        }
        counts.all += 1;
        *counts.by_principal.entry(principal.to_owned()).or_default() += 1;
        Ok(Share {
            pool: Arc::clone(self),
            principal: principal.to_owned(),
        })
    }

    /// Entries held now, by all principals.
    pub fn in_use(&self) -> usize {
        lock(&self.counts).all
    }

    /// Entries `principal` holds now.
    pub fn held_by(&self, principal: &str) -> usize {
        lock(&self.counts)
            .by_principal
            .get(principal)
            .copied()
            .unwrap_or(0)
    }

    /// The most entries one principal may hold.
    pub fn per_principal(&self) -> usize {
        self.per_principal
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut counts = lock(&self.pool.counts);
        counts.all = counts.all.saturating_sub(1);
        if let Some(held) = counts.by_principal.get_mut(&self.principal) {
            *held -= 1;
            if *held == 0 {
                counts.by_principal.remove(&self.principal);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_principal_gets_its_share_and_the_others_the_rest() {
        let pool = Pool::new("streams", 8, 25);
        assert_eq!(pool.per_principal(), 2);
        let mine: Vec<Share> = (0..2).map(|_| pool.take("anonymous").unwrap()).collect();
        assert!(matches!(
            pool.take("anonymous"),
            Err(Exhausted::Share { held: 2, .. })
        ));
        let others: Vec<Share> = (0..6)
            .map(|n| pool.take(&format!("p{}", n / 2)).unwrap())
            .collect();
        assert!(matches!(
            pool.take("late"),
            Err(Exhausted::Full { total: 8, .. })
        ));
        drop(mine);
        assert_eq!(pool.held_by("anonymous"), 0);
        assert_eq!(pool.in_use(), 6);
        assert!(pool.take("late").is_ok());
        drop(others);
    }

    #[test]
    fn a_share_is_at_least_one_entry_and_at_most_the_pool() {
        assert_eq!(Pool::new("x", 3, 1).per_principal(), 1);
        assert_eq!(Pool::new("x", 3, 250).per_principal(), 3);
        let empty = Pool::new("x", 0, 25);
        assert!(matches!(empty.take("p"), Err(Exhausted::Full { .. })));
    }
}
