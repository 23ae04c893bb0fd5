//! [`Changes`] shared by several instances through a Redis channel (feature `redis`).

use std::sync::Arc;

use tokio::sync::{broadcast, mpsc};

use super::{Change, Changes, Event};
use crate::redis::{Redis, Unavailable};

/// The channel every instance's changes go through.
const CHANNEL: &str = "changes";

impl Changes {
    /// The changes of every instance that shares `redis`, `buffer` of them kept for a feed
    /// (and for Redis to take): [`Changes::new`], then [`Changes::share`]d. Fails when the
    /// channel cannot be subscribed (Redis unreachable).
    pub async fn shared(redis: Arc<Redis>, buffer: usize) -> Result<Changes, Unavailable> {
        let changes = Changes::new(buffer);
        changes.share(redis).await?;
        Ok(changes)
    }

    /// From now on, these changes are those of every instance that shares `redis`: a change
    /// sent here is published, and every instance's feeds read the channel, so each hears
    /// each change once. The handlers that hold these changes keep sending to them (a server
    /// given `--store` after its handlers were made shares them this way). Fails when the
    /// channel cannot be subscribed (Redis unreachable), or when they are shared already.
    pub async fn share(&self, redis: Arc<Redis>) -> Result<(), Unavailable> {
        if self.publisher.get().is_some() {
            return Err(Unavailable("these changes are shared already".into()));
        }
        let heard = redis.listen(CHANNEL).await?;
        let (publisher, queue) = mpsc::channel(self.buffer);
        if self.publisher.set(publisher).is_err() {
            return Err(Unavailable("these changes are shared already".into()));
        }
        tokio::spawn(forward(heard, self.sender.downgrade()));
        tokio::spawn(publish(redis, queue, self.sender.downgrade()));
        Ok(())
    }
}

/// Hands what the channel brings to this instance's feeds, until the changes are dropped.
async fn forward(mut heard: broadcast::Receiver<Arc<[u8]>>, feeds: broadcast::WeakSender<Event>) {
    loop {
        let event = match heard.recv().await {
            Ok(payload) => match decode(&payload) {
                Some(change) => Ok(change),
                None => continue, // not a change this version knows
            },
            Err(broadcast::error::RecvError::Lagged(missed)) => Err(missed),
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(feeds) = feeds.upgrade() else { return };
        let _ = feeds.send(event);
    }
}

/// Publishes the changes sent here, in order; one Redis cannot take is told to this
/// instance's own feeds instead.
async fn publish(
    redis: Arc<Redis>,
    mut queue: mpsc::Receiver<Change>,
    feeds: broadcast::WeakSender<Event>,
) {
    while let Some(change) = queue.recv().await {
        if redis.publish(CHANNEL, &encode(&change)).await.is_err()
            && let Some(feeds) = feeds.upgrade()
        {
            let _ = feeds.send(Ok(change));
        }
    }
}

/// A change as the channel carries it.
fn encode(change: &Change) -> Vec<u8> {
    match change {
        Change::Tools => b"tools".to_vec(),
        Change::Prompts => b"prompts".to_vec(),
        Change::Resources => b"resources".to_vec(),
        Change::Resource(uri) => [b"resource ", uri.as_bytes()].concat(),
    }
}

/// The change a channel message carries, if it is one.
fn decode(payload: &[u8]) -> Option<Change> {
    match payload {
        b"tools" => Some(Change::Tools),
        b"prompts" => Some(Change::Prompts),
        b"resources" => Some(Change::Resources),
        _ => {
            let uri = payload.strip_prefix(b"resource ")?;
            std::str::from_utf8(uri)
                .ok()
                .map(|u| Change::Resource(u.into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::changes::Next;
    use crate::redis::test_server::RedisServer;

    async fn next(feed: &mut crate::changes::Feed) -> Next {
        tokio::time::timeout(Duration::from_secs(5), feed.next())
            .await
            .expect("a change within 5 s")
    }

    #[test]
    fn every_change_reads_back_as_itself() {
        let uri: Arc<str> = "file:///a b".into();
        for change in [
            Change::Tools,
            Change::Prompts,
            Change::Resources,
            Change::Resource(uri),
        ] {
            assert_eq!(decode(&encode(&change)), Some(change));
        }
        assert_eq!(decode(b"unknown"), None);
    }

    #[tokio::test]
    async fn a_change_sent_at_one_instance_is_heard_once_by_every_instance() {
        let server = RedisServer::start();
        let one = Changes::shared(Redis::connect(&server.url()).await.unwrap(), 16)
            .await
            .unwrap();
        let two = Changes::shared(Redis::connect(&server.url()).await.unwrap(), 16)
            .await
            .unwrap();
        let (mut at_one, mut at_two) = (one.subscribe(), two.subscribe());
        let resource = Change::Resource("file:///x".into());
        for (sender, change) in [(&one, Change::Tools), (&two, resource)] {
            sender.send(change.clone());
            for feed in [&mut at_one, &mut at_two] {
                assert_eq!(next(feed).await, Next::Change(change.clone()));
            }
        }
        one.stop();
        assert_eq!(next(&mut at_one).await, Next::Stopped);
        let nothing_more = tokio::time::timeout(Duration::from_millis(200), at_two.next()).await;
        assert!(
            nothing_more.is_err(),
            "a change heard twice: {nothing_more:?}"
        );
    }

    #[tokio::test]
    async fn with_redis_down_the_sending_instance_still_hears_its_change() {
        let mut server = RedisServer::start();
        let changes = Changes::shared(Redis::connect(&server.url()).await.unwrap(), 16)
            .await
            .unwrap();
        let mut feed = changes.subscribe();
        server.stop();
        changes.send(Change::Prompts);
        assert_eq!(next(&mut feed).await, Next::Change(Change::Prompts));
    }

    #[tokio::test]
    async fn changes_shared_after_they_were_handed_out_reach_every_instance_once() {
        let server = RedisServer::start();
        // A handler holds these before the server learns of the store.
        let held = Arc::new(Changes::new(16));
        let handler = Arc::clone(&held);
        let mut here = held.subscribe();
        held.share(Redis::connect(&server.url()).await.unwrap())
            .await
            .unwrap();
        let other = Changes::shared(Redis::connect(&server.url()).await.unwrap(), 16)
            .await
            .unwrap();
        let mut there = other.subscribe();
        handler.send(Change::Tools);
        assert_eq!(next(&mut there).await, Next::Change(Change::Tools));
        assert_eq!(next(&mut here).await, Next::Change(Change::Tools));
        let twice = tokio::time::timeout(Duration::from_millis(200), here.next()).await;
        assert!(twice.is_err(), "a change heard twice: {twice:?}");
        // Shared once: a second store is refused, the first kept.
        let again = held
            .share(Redis::connect(&server.url()).await.unwrap())
            .await;
        assert!(again.is_err());
        other.send(Change::Prompts);
        assert_eq!(next(&mut here).await, Next::Change(Change::Prompts));
    }
}
