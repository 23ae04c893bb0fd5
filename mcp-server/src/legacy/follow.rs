//! A legacy session told of the server's [`Changes`](crate::changes::Changes): the list
//! changes, and the updates of the resources it subscribed to, as the legacy notifications
//! ([`LegacySchema::change_notification`]), on its `GET` stream or, over stdio, its output.
//! A session that fell behind is not silently skipped over: its `GET` stream ends (the client
//! opens another), and on stdio the loss is logged.

use std::time::Duration;

use tokio::sync::watch;

use super::sessions::Session;
use crate::LegacySchema;
use crate::changes::{Change, Feed, Next};
use crate::stdio::Outgoing;

/// The notification that tells `session` of `change`, if it is told of it: every list change,
/// and the updates of the resources it follows.
pub fn notification<S: LegacySchema>(session: &Session<S>, change: &Change) -> Option<String> {
    match change {
        Change::Resource(uri) if !session.is_subscribed(uri) => None,
        change => S::change_notification(change),
    }
}

/// Sends `session`'s `GET` stream `number` what `feed` tells, until a later `GET` takes over
/// (`current` names another stream), the session ends, the server stops, changes were
/// missed, the stream carried nothing for `idle`, or (a shared session) the store cannot say
/// what it follows; the caller then finishes the stream.
pub async fn get_stream<S: LegacySchema>(
    session: &Session<S>,
    number: u64,
    current: watch::Receiver<u64>,
    mut feed: Feed,
    idle: Duration,
) {
    let replaced = taken_over(current, number);
    tokio::pin!(replaced);
    let quiet = tokio::time::sleep(idle);
    tokio::pin!(quiet);
    loop {
        let next = tokio::select! {
            () = &mut replaced => break,
            () = &mut quiet => break,
            next = feed.next() => next,
        };
        let Next::Change(change) = next else { break };
        // A shared session's subscriptions are read from the store (made at any instance);
        // while it cannot tell, the stream ends rather than skip an update (the client opens
        // another).
        let told = match &change {
            Change::Resource(uri) => match session.follows(uri).await {
                Ok(follows) => follows.then(|| S::change_notification(&change)).flatten(),
                Err(_) => break,
            },
            change => S::change_notification(change),
        };
        if let Some(text) = told {
            session.streams.send(number, text);
            quiet.as_mut().reset(tokio::time::Instant::now() + idle);
        }
    }
}

/// Writes to `out` what `feed` tells `session` until the output closes or the server stops.
pub async fn stdio<S: LegacySchema>(session: &Session<S>, mut feed: Feed, out: Outgoing) {
    loop {
        let change = match feed.next().await {
            Next::Change(change) => change,
            Next::Missed(n) => {
                eprintln!("mcp-server: {n} change notifications missed (stdio output too slow)");
                continue;
            }
            Next::Stopped => return,
        };
        if let Some(text) = notification(session, &change)
            && out.send(text).await.is_err()
        {
            return;
        }
    }
}

/// Resolves once `current` names a stream other than `number`, or its session is gone.
pub async fn taken_over(mut current: watch::Receiver<u64>, number: u64) {
    while *current.borrow_and_update() == number {
        if current.changed().await.is_err() {
            return;
        }
    }
}
