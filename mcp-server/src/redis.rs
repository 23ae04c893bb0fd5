//! One Redis shared by several instances of a server (feature `redis`): what the stores that
//! let a client reach any instance ([`crate::tasks`], [`crate::changes`], the legacy sessions)
//! are built on.
//!
//! - **Commands** go through one auto-reconnecting connection. Every command has a deadline
//!   ([`Settings::response_timeout`]): while Redis is down a request that needs it gets an
//!   [`Unavailable`] error at once, never a hang, and once Redis is back the next command
//!   reconnects; nothing is restarted.
//! - **Channels** ([`Redis::publish`], [`Redis::listen`]): each channel is subscribed once per
//!   instance and fanned out in process; the subscriptions are renewed after a reconnection.
//! - **Instances** ([`Redis::instance`], [`Redis::is_alive`]): each instance has a random id and
//!   renews a heartbeat key while it runs, so that the others can tell that it died (its tasks
//!   then end `failed`, never silently lost).
//! - **Keys** ([`Redis::key`]): `<prefix>:<kind>:<part>`, where a part that came from a client
//!   (an id, a principal) is escaped: it cannot add a separator or reach another kind's keys.
//!   Every key a store writes has a TTL.
//!
//! [`Redis::connect`] fails when Redis cannot be reached at start: a misconfigured instance
//! stops with a clear error instead of serving without its store.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, IntoConnectionInfo, ProtocolVersion, PushInfo, PushKind, Value};
use tokio::sync::broadcast;

/// How many messages of one channel an instance buffers for a listener that reads slower.
const CHANNEL_BUFFER: usize = 1024;

/// How the connection to Redis behaves.
#[derive(Debug, Clone)]
pub struct Settings {
    /// What every key and channel starts with, so that servers can share a Redis.
    pub prefix: String,
    /// How long a command may wait for its answer before it fails [`Unavailable`].
    pub response_timeout: Duration,
    /// How long a (re)connection may take.
    pub connection_timeout: Duration,
    /// How often an instance renews its heartbeat.
    pub heartbeat_every: Duration,
    /// How long an instance counts as alive after its last heartbeat.
    pub heartbeat_ttl: Duration,
}

impl Default for Settings {
    /// Prefix `mcp`, answers within 2 s, connections within 1 s, a heartbeat every second
    /// that lasts 5 s.
    fn default() -> Self {
        Settings {
            prefix: "mcp".to_owned(),
            response_timeout: Duration::from_secs(2),
            connection_timeout: Duration::from_secs(1),
            heartbeat_every: Duration::from_secs(1),
            heartbeat_ttl: Duration::from_secs(5),
        }
    }
}

/// The shared store could not be used: Redis is down, slow or refused the command. The
/// request that needed it fails with this error; it says nothing of any stored data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the shared store (Redis) is unavailable: {0}")]
pub struct Unavailable(pub String);

impl From<redis::RedisError> for Unavailable {
    fn from(e: redis::RedisError) -> Self {
        Unavailable(e.to_string())
    }
}

/// The listeners of each channel this instance subscribed to, by the channel's full name.
type Listeners = Arc<Mutex<HashMap<String, broadcast::Sender<Arc<[u8]>>>>>;

/// A Redis shared by the instances of a server: commands, channels and the instances'
/// heartbeats. Cheap to share (`Arc<Redis>`).
pub struct Redis {
    commands: ConnectionManager,
    subscriber: ConnectionManager,
    listeners: Listeners,
    /// Serialises the first subscription to each channel.
    subscribing: tokio::sync::Mutex<()>,
    instance: String,
    settings: Settings,
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis")
            .field("instance", &self.instance)
            .field("prefix", &self.settings.prefix)
            .finish_non_exhaustive()
    }
}

impl Redis {
    /// Connects to the Redis at `url` (`redis://HOST:PORT[/DB]`) with the default
    /// [`Settings`], and starts this instance's heartbeat.
    pub async fn connect(url: &str) -> Result<Arc<Redis>, Unavailable> {
        Redis::connect_with(url, Settings::default()).await
    }

    /// Connects to the Redis at `url` with `settings`, and starts this instance's heartbeat.
    /// Fails when Redis cannot be reached now (or `url` is not a Redis URL).
    pub async fn connect_with(url: &str, settings: Settings) -> Result<Arc<Redis>, Unavailable> {
        let info = url.into_connection_info()?;
        let resp3 = info
            .redis_settings()
            .clone()
            .set_protocol(ProtocolVersion::RESP3);
        let client = redis::Client::open(info.set_redis_settings(resp3))?;
        let base = ConnectionManagerConfig::new()
            .set_response_timeout(Some(settings.response_timeout))
            .set_connection_timeout(Some(settings.connection_timeout))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        let listeners = Listeners::default();
        let fan_out = Arc::clone(&listeners);
        let subscriber_config =
            base.clone()
                .set_automatic_resubscription()
                .set_push_sender(move |push: PushInfo| {
                    deliver(&fan_out, push);
                    Ok::<(), redis::aio::SendError>(())
                });
        let commands = client.get_connection_manager_with_config(base).await?;
        let subscriber = client
            .get_connection_manager_with_config(subscriber_config)
            .await?;
        let redis = Arc::new(Redis {
            commands,
            subscriber,
            listeners,
            subscribing: tokio::sync::Mutex::new(()),
            instance: random_id()?,
            settings,
        });
        redis.beat().await?;
        keep_beating(Arc::downgrade(&redis));
        Ok(redis)
    }

    /// This instance's id: 64 random bits in hex, new at every start.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The connection's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// A connection for commands (cheap to clone; reconnects by itself).
    pub fn commands(&self) -> ConnectionManager {
        self.commands.clone()
    }

    /// The key `<prefix>:<kind>:<part>`, `part` escaped ([`escape`]); `kind` is the store's
    /// own constant.
    pub fn key(&self, kind: &str, part: &str) -> String {
        format!("{}:{kind}:{}", self.settings.prefix, escape(part))
    }

    /// The full name of channel `name` (one of a store's constants).
    fn channel(&self, name: &str) -> String {
        format!("{}:channel:{name}", self.settings.prefix)
    }

    /// Sends `payload` to every instance listening to channel `name` (this one included).
    pub async fn publish(&self, name: &str, payload: &[u8]) -> Result<(), Unavailable> {
        let mut commands = self.commands();
        let _: i64 = commands.publish(self.channel(name), payload).await?;
        Ok(())
    }

    /// Every later message of channel `name`, published by any instance. The channel is
    /// subscribed the first time it is listened to and stays subscribed (renewed after a
    /// reconnection); a listener that falls more than a buffer behind is told how many it
    /// missed (`RecvError::Lagged`).
    pub async fn listen(&self, name: &str) -> Result<broadcast::Receiver<Arc<[u8]>>, Unavailable> {
        let channel = self.channel(name);
        if let Some(sender) = lock(&self.listeners).get(&channel) {
            return Ok(sender.subscribe());
        }
        let _one_at_a_time = self.subscribing.lock().await;
        if let Some(sender) = lock(&self.listeners).get(&channel) {
            return Ok(sender.subscribe());
        }
        let (sender, receiver) = broadcast::channel(CHANNEL_BUFFER);
        lock(&self.listeners).insert(channel.clone(), sender);
        let mut subscriber = self.subscriber.clone();
        if let Err(e) = subscriber.subscribe(&channel).await {
            lock(&self.listeners).remove(&channel);
            return Err(e.into());
        }
        Ok(receiver)
    }

    /// Whether instance `id` renewed its heartbeat within [`Settings::heartbeat_ttl`].
    pub async fn is_alive(&self, id: &str) -> Result<bool, Unavailable> {
        let mut commands = self.commands();
        Ok(commands.exists(self.heartbeat_key(id)).await?)
    }

    /// The key of instance `id`'s heartbeat: it exists while the instance runs. A store that
    /// writes a record naming this instance may set it too ([`Redis::heartbeat_ttl_ms`]), so
    /// that a Redis that came back empty never shows a record without its owner's heartbeat.
    pub(crate) fn heartbeat_key(&self, id: &str) -> String {
        self.key("instance", id)
    }

    /// [`Settings::heartbeat_ttl`] in milliseconds.
    pub(crate) fn heartbeat_ttl_ms(&self) -> u64 {
        u64::try_from(self.settings.heartbeat_ttl.as_millis()).unwrap_or(u64::MAX)
    }

    /// Pings the connection of the channels: a connection whose reconnection gave up while
    /// Redis was down is only tried again when a command needs it, and the channels have no
    /// command of their own; once it reconnects, its subscriptions are renewed.
    async fn keep_listening(&self) {
        let mut subscriber = self.subscriber.clone();
        let _: Result<Value, _> = redis::cmd("PING").query_async(&mut subscriber).await;
    }

    /// Renews this instance's heartbeat.
    async fn beat(&self) -> Result<(), Unavailable> {
        let mut commands = self.commands();
        let () = commands
            .pset_ex(
                self.heartbeat_key(&self.instance),
                1u8,
                self.heartbeat_ttl_ms(),
            )
            .await?;
        Ok(())
    }
}

/// Renews the heartbeat of `redis` until it is dropped; a failed renewal (Redis down) is tried
/// again at the next beat.
fn keep_beating(redis: Weak<Redis>) {
    let Some(every) = redis.upgrade().map(|r| r.settings.heartbeat_every) else {
        return;
    };
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let Some(redis) = redis.upgrade() else { break };
            let _ = redis.beat().await;
            redis.keep_listening().await;
        }
    });
}

/// Hands a pushed message to the listeners of its channel (other pushes are ignored).
fn deliver(listeners: &Listeners, push: PushInfo) {
    if push.kind != PushKind::Message {
        return;
    }
    let [Value::BulkString(channel), Value::BulkString(payload)] = push.data.as_slice() else {
        return;
    };
    let Ok(channel) = std::str::from_utf8(channel) else {
        return;
    };
    if let Some(sender) = lock(listeners).get(channel) {
        let _ = sender.send(Arc::from(payload.as_slice()));
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// `part` as a key part: kept as it is when it is 1 to 64 lowercase hex digits (the ids the
/// server makes), else `~` and the hex of its bytes, so that no text a client sends becomes a
/// separator, a wildcard, or another part's key.
pub fn escape(part: &str) -> String {
    let plain = (1..=64).contains(&part.len())
        && part.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if plain {
        return part.to_owned();
    }
    let mut escaped = String::with_capacity(1 + 2 * part.len());
    escaped.push('~');
    for byte in part.bytes() {
        escaped.push_str(&format!("{byte:02x}"));
    }
    escaped
}

/// 64 random bits in hex.
fn random_id() -> Result<String, Unavailable> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| Unavailable(format!("no random instance id: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
pub(crate) mod test_server;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_ids_stay_as_they_are_and_anything_else_is_escaped() {
        assert_eq!(escape("0123abcd"), "0123abcd");
        assert_eq!(escape("a:b"), "~613a62");
        assert_eq!(escape("*"), "~2a");
        assert_eq!(escape(""), "~");
        assert_eq!(escape("ABC"), "~414243");
        assert_eq!(escape(&"a".repeat(65)), format!("~{}", "61".repeat(65)));
    }

    /// `rediss://` speaks TLS (the `redis-tls` feature's rustls and its crypto provider): to a
    /// Redis that speaks none, the handshake fails and the connection is refused with an error,
    /// neither sent in clear nor a panic for want of a provider.
    #[cfg(feature = "redis-tls")]
    #[tokio::test]
    async fn a_rediss_url_speaks_tls() {
        let server = test_server::RedisServer::start();
        let plain = server.url();
        let tls = plain.replacen("redis://", "rediss://", 1);
        let settings = Settings {
            connection_timeout: Duration::from_secs(2),
            ..Settings::default()
        };
        let refused = Redis::connect_with(&tls, settings).await;
        assert!(refused.is_err(), "a TLS connection to a plain Redis");
        assert!(Redis::connect(&plain).await.is_ok());
    }

    #[tokio::test]
    async fn a_message_reaches_every_instance_listening_to_its_channel() {
        let server = test_server::RedisServer::start();
        let one = Redis::connect(&server.url()).await.unwrap();
        let two = Redis::connect(&server.url()).await.unwrap();
        let mut heard_by_one = one.listen("news").await.unwrap();
        let mut heard_by_two = two.listen("news").await.unwrap();
        one.publish("news", b"hello").await.unwrap();
        assert_eq!(&*heard_by_one.recv().await.unwrap(), b"hello");
        assert_eq!(&*heard_by_two.recv().await.unwrap(), b"hello");
        assert!(two.is_alive(one.instance()).await.unwrap());
        assert!(!two.is_alive("0123456789abcdef").await.unwrap());
    }

    #[tokio::test]
    async fn an_unreachable_redis_is_an_error_at_start() {
        let port = test_server::free_port();
        let url = format!("redis://127.0.0.1:{port}");
        let error = Redis::connect(&url).await.unwrap_err();
        assert!(error.to_string().contains("unavailable"), "{error}");
    }

    #[tokio::test]
    async fn commands_fail_while_redis_is_down_and_work_again_when_it_is_back() {
        let mut server = test_server::RedisServer::start();
        let redis = Redis::connect(&server.url()).await.unwrap();
        let mut heard = redis.listen("news").await.unwrap();
        server.stop();
        let started = std::time::Instant::now();
        assert!(redis.publish("news", b"lost").await.is_err());
        assert!(started.elapsed() < Duration::from_secs(5));
        server.restart();
        let mut delivered = false;
        for _ in 0..50 {
            if redis.publish("news", b"back").await.is_ok() {
                let got = tokio::time::timeout(Duration::from_millis(200), heard.recv()).await;
                if let Ok(Ok(message)) = got {
                    assert_eq!(&*message, b"back");
                    delivered = true;
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(delivered, "no message after Redis came back");
    }
}
