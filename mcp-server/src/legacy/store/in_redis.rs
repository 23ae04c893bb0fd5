//! The legacy sessions' records in Redis, shared by the instances of a server.
//!
//! Keys (each with a TTL, each client-sent part escaped by [`Redis::key`]):
//!
//! - `legacy-session:<id>`: a hash of the session's `principal`, the client's `meta` of
//!   `initialize` (its capabilities and info, the version it speaks, as the modern `_meta`'s
//!   JSON), the `level` `logging/setLevel` set (JSON text) and `initialized`; it lasts
//!   [`Config::session_idle`] from the last request of the session, at any instance.
//! - `legacy-subscriptions:<id>`: the set of the URIs it follows, expiring with the record,
//!   at most [`MAX_SUBSCRIPTIONS`].
//! - `legacy-sessions:all` and `legacy-sessions-of:<principal>`: sorted sets of the live
//!   sessions scored by their expiry, what [`Config::max_sessions`] and
//!   [`Config::principal_share`] are checked against when a session opens, atomically (one
//!   script); each lasts as long as its latest session.
//!
//! Every step that reads and writes is one Lua script, so that two instances cannot both take
//! the last session of a principal, and a record is never written back after it expired (a
//! write to a missing key would make one without a TTL).

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use redis::{AsyncCommands, Script};
use tokio::sync::broadcast;

use super::{Note, Relay, StoreError, Touched};
use crate::Config;
use crate::legacy::sessions::MAX_SUBSCRIPTIONS;
use crate::redis::{Redis, Unavailable};
use crate::shares::{Exhausted, Pool};

/// The channel every instance hears the others' [`Note`]s on.
const NOTES: &str = "legacy-sessions";

impl From<Unavailable> for StoreError {
    fn from(e: Unavailable) -> Self {
        StoreError(e.0)
    }
}

impl From<redis::RedisError> for StoreError {
    fn from(e: redis::RedisError) -> Self {
        StoreError(Unavailable::from(e).0)
    }
}

/// Redis's clock, in milliseconds, as `now`.
const NOW: &str = "local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
";

/// KEYS: record, subscriptions, all, the principal's; ARGV: principal, meta, idle (ms),
/// total, per principal, id. `{0}` opened, `{1, n}` all taken, `{2, n}` the principal's
/// share taken, `{3}` the id is in use.
static OPEN: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
local all = redis.call('ZCARD', KEYS[3])
if all >= tonumber(ARGV[4]) then return {{1, all}} end
local held = redis.call('ZCARD', KEYS[4])
if held >= tonumber(ARGV[5]) then return {{2, held}} end
if redis.call('EXISTS', KEYS[1]) == 1 then return {{3, 0}} end
local idle = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'principal', ARGV[1], 'meta', ARGV[2])
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('DEL', KEYS[2])
redis.call('ZADD', KEYS[3], now + idle, ARGV[6])
redis.call('PEXPIRE', KEYS[3], idle)
redis.call('ZADD', KEYS[4], now + idle, ARGV[6])
redis.call('PEXPIRE', KEYS[4], idle)
return {{0, 0}}"
    ))
});

/// KEYS: record, subscriptions, all, the principal's; ARGV: principal, idle (ms), id, full.
/// `{'gone'}`, `{'other'}` (another principal's: left as it is), or `{'ok', level,
/// initialized[, meta]}` with every expiry renewed.
static TOUCH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "local p = redis.call('HGET', KEYS[1], 'principal')
if not p then return {{'gone'}} end
if p ~= ARGV[1] then return {{'other'}} end
{NOW}
local idle = tonumber(ARGV[2])
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('PEXPIRE', KEYS[2], idle)
redis.call('ZADD', KEYS[3], now + idle, ARGV[3])
redis.call('PEXPIRE', KEYS[3], idle)
redis.call('ZADD', KEYS[4], now + idle, ARGV[3])
redis.call('PEXPIRE', KEYS[4], idle)
local level = redis.call('HGET', KEYS[1], 'level') or ''
local initialized = redis.call('HGET', KEYS[1], 'initialized') or ''
if ARGV[4] == '1' then
  return {{'ok', level, initialized, redis.call('HGET', KEYS[1], 'meta') or ''}}
end
return {{'ok', level, initialized}}"
    ))
});

/// KEYS: record, subscriptions, all, the principal's; ARGV: principal, id. 1 if ended.
static END: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "local p = redis.call('HGET', KEYS[1], 'principal')
if not p or p ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
return 1",
    )
});

/// KEYS: record; ARGV: field, value. Written only while the record lives (1), else 0.
static SET: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1",
    )
});

/// KEYS: record, subscriptions; ARGV: uri, most. 1 followed, 0 too many, -1 no session.
static SUBSCRIBE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return -1 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ttl)
return 1",
    )
});

/// The legacy sessions' records in one Redis (module docs).
pub struct Store {
    redis: Arc<Redis>,
    idle: Duration,
    max_sessions: usize,
    share_percent: usize,
    per_principal: usize,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("redis", &self.redis)
            .finish_non_exhaustive()
    }
}

/// `d` in milliseconds, at least 1.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

/// A string the scripts return, as Rust text.
fn text(v: Option<&String>) -> Option<String> {
    v.filter(|t| !t.is_empty()).cloned()
}

impl Store {
    /// The records of `redis`, bounded by `limits` (`session_idle`, `max_sessions`,
    /// `principal_share`).
    pub fn new(redis: Arc<Redis>, limits: &Config) -> Self {
        let pool = Pool::new(
            "legacy sessions",
            limits.max_sessions,
            limits.principal_share,
        );
        Store {
            redis,
            idle: limits.session_idle,
            max_sessions: limits.max_sessions,
            share_percent: limits.principal_share.min(100),
            per_principal: pool.per_principal(),
        }
    }

    /// This instance's id ([`Redis::instance`]).
    pub fn instance(&self) -> &str {
        self.redis.instance()
    }

    fn record(&self, id: &str) -> String {
        self.redis.key("legacy-session", id)
    }

    fn subscriptions(&self, id: &str) -> String {
        self.redis.key("legacy-subscriptions", id)
    }

    fn all(&self) -> String {
        self.redis.key("legacy-sessions", "all")
    }

    fn of(&self, principal: &str) -> String {
        self.redis.key("legacy-sessions-of", principal)
    }

    /// Opens session `id` of `principal` with the client's `meta` (JSON), within
    /// [`Config::max_sessions`] and the principal's share of them, counted over every instance.
    pub async fn open(
        &self,
        id: &str,
        principal: &str,
        meta: &str,
    ) -> Result<Result<(), Exhausted>, StoreError> {
        let mut commands = self.redis.commands();
        let (code, n): (i64, usize) = OPEN
            .key(self.record(id))
            .key(self.subscriptions(id))
            .key(self.all())
            .key(self.of(principal))
            .arg(principal)
            .arg(meta)
            .arg(millis(self.idle))
            .arg(self.max_sessions)
            .arg(self.per_principal)
            .arg(id)
            .invoke_async(&mut commands)
            .await?;
        match code {
            0 => Ok(Ok(())),
            1 => Ok(Err(Exhausted::Full {
                what: "legacy sessions",
                total: self.max_sessions,
            })),
            2 => Ok(Err(Exhausted::Share {
                what: "legacy sessions",
                held: n,
                percent: self.share_percent,
                total: self.max_sessions,
            })),
            _ => Err(StoreError("a new session id is in use".to_owned())),
        }
    }

    /// The record of session `id` for `principal`, its expiry (and its subscriptions') renewed
    /// if it is the principal's; with `full`, its `meta` too.
    pub async fn touch(
        &self,
        id: &str,
        principal: &str,
        full: bool,
    ) -> Result<Touched, StoreError> {
        let mut commands = self.redis.commands();
        let reply: Vec<String> = TOUCH
            .key(self.record(id))
            .key(self.subscriptions(id))
            .key(self.all())
            .key(self.of(principal))
            .arg(principal)
            .arg(millis(self.idle))
            .arg(id)
            .arg(if full { "1" } else { "0" })
            .invoke_async(&mut commands)
            .await?;
        Ok(match reply.first().map(String::as_str) {
            Some("ok") => Touched::Found {
                level: text(reply.get(1)),
                initialized: reply.get(2).is_some_and(|i| i == "1"),
                meta: text(reply.get(3)),
            },
            Some("other") => Touched::Other,
            _ => Touched::Gone,
        })
    }

    /// Ends session `id` of `principal`: its keys are deleted; false if there is no such
    /// session of that principal.
    pub async fn end(&self, id: &str, principal: &str) -> Result<bool, StoreError> {
        let mut commands = self.redis.commands();
        let ended: i64 = END
            .key(self.record(id))
            .key(self.subscriptions(id))
            .key(self.all())
            .key(self.of(principal))
            .arg(principal)
            .arg(id)
            .invoke_async(&mut commands)
            .await?;
        Ok(ended == 1)
    }

    async fn set(&self, id: &str, field: &str, value: &str) -> Result<bool, StoreError> {
        let mut commands = self.redis.commands();
        let set: i64 = SET
            .key(self.record(id))
            .arg(field)
            .arg(value)
            .invoke_async(&mut commands)
            .await?;
        Ok(set == 1)
    }

    /// Records the level `text` (JSON) `logging/setLevel` set; false if the session is gone.
    pub async fn set_level(&self, id: &str, text: &str) -> Result<bool, StoreError> {
        self.set(id, "level", text).await
    }

    /// Records the client's `notifications/initialized`; false if the session is gone.
    pub async fn set_initialized(&self, id: &str) -> Result<bool, StoreError> {
        self.set(id, "initialized", "1").await
    }

    /// Whether the client of session `id` sent `notifications/initialized`.
    pub async fn is_initialized(&self, id: &str) -> Result<bool, StoreError> {
        let mut commands = self.redis.commands();
        let set: Option<String> = commands.hget(self.record(id), "initialized").await?;
        Ok(set.as_deref() == Some("1"))
    }

    /// Follows `uri` (at most [`MAX_SUBSCRIPTIONS`]); false if not followed.
    pub async fn subscribe(&self, id: &str, uri: &str) -> Result<bool, StoreError> {
        let mut commands = self.redis.commands();
        let followed: i64 = SUBSCRIBE
            .key(self.record(id))
            .key(self.subscriptions(id))
            .arg(uri)
            .arg(MAX_SUBSCRIPTIONS)
            .invoke_async(&mut commands)
            .await?;
        Ok(followed == 1)
    }

    /// Stops following `uri`.
    pub async fn unsubscribe(&self, id: &str, uri: &str) -> Result<(), StoreError> {
        let mut commands = self.redis.commands();
        let _: i64 = commands.srem(self.subscriptions(id), uri).await?;
        Ok(())
    }

    /// Whether session `id` follows `uri`.
    pub async fn is_subscribed(&self, id: &str, uri: &str) -> Result<bool, StoreError> {
        let mut commands = self.redis.commands();
        Ok(commands.sismember(self.subscriptions(id), uri).await?)
    }

    /// Which of sessions `ids` still live (one round trip).
    pub async fn alive(&self, ids: &[String]) -> Result<Vec<bool>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for id in ids {
            pipe.exists(self.record(id));
        }
        let mut commands = self.redis.commands();
        Ok(pipe.query_async(&mut commands).await?)
    }

    /// Tells every instance (this one included) `note`.
    pub async fn publish(&self, note: &Note) -> Result<(), StoreError> {
        let payload = serde_json::to_vec(note).map_err(|e| StoreError(e.to_string()))?;
        Ok(self.redis.publish(NOTES, &payload).await?)
    }

    /// The notes of every instance, from now on.
    pub async fn notes(&self) -> Result<broadcast::Receiver<Arc<[u8]>>, StoreError> {
        Ok(self.redis.listen(NOTES).await?)
    }

    /// The channel of instance `instance`'s relays.
    fn relays_of(instance: &str) -> String {
        format!("legacy-relay-{}", crate::redis::escape(instance))
    }

    /// Sends instance `to` `relay`.
    pub async fn relay(&self, to: &str, relay: &Relay) -> Result<(), StoreError> {
        let payload = serde_json::to_vec(relay).map_err(|e| StoreError(e.to_string()))?;
        Ok(self.redis.publish(&Self::relays_of(to), &payload).await?)
    }

    /// The relays sent to this instance, from now on.
    pub async fn relays(&self) -> Result<broadcast::Receiver<Arc<[u8]>>, StoreError> {
        Ok(self.redis.listen(&Self::relays_of(self.instance())).await?)
    }

    /// The keys of session `id` (for the tests of their TTLs).
    #[cfg(test)]
    pub fn keys_of(&self, id: &str, principal: &str) -> Vec<String> {
        vec![
            self.record(id),
            self.subscriptions(id),
            self.all(),
            self.of(principal),
        ]
    }
}
