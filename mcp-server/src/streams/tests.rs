//! The streams alone: an event id names its stream, a resume replays that stream only and goes
//! on with it, and the replay buffer, the resume window and the count of ended streams kept
//! each hold (the window with tokio's paused time).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use super::{RECONNECT_AFTER, ResumeError, Sent, Streams};
use crate::Config;

fn limits(replay: usize, window_ms: u64, streams: usize) -> Config {
    Config {
        replay_events: replay,
        resume_window: Duration::from_millis(window_ms),
        resumable_streams: streams,
        ..Config::default()
    }
}

fn drain(rx: &mut mpsc::Receiver<Sent>) -> Vec<Sent> {
    let mut seen = Vec::new();
    while let Ok(sent) = rx.try_recv() {
        seen.push(sent);
    }
    seen
}

fn data(sent: &[Sent]) -> Vec<&str> {
    sent.iter().map(|s| &*s.data).collect()
}

#[test]
fn a_resume_replays_only_its_own_stream_after_the_id_then_goes_on() {
    let streams = Streams::new(Arc::new(limits(8, 60_000, 8)));
    let (a, mut first) = streams.open();
    let (b, _other) = streams.open();
    streams.send(a, "a1".into());
    streams.send(b, "b1".into());
    streams.end_connection(a);
    streams.send(a, "a2".into());
    let sent = drain(&mut first);
    assert_eq!(data(&sent), ["a1", ""]);
    assert_eq!(sent[1].retry, Some(RECONNECT_AFTER));
    assert!(first.is_closed(), "the connection ended");
    let (resumed, mut again) = streams.resume(&sent[1].id).unwrap();
    assert_eq!(resumed, a);
    streams.send(a, "a3".into());
    streams.finish(a);
    let replayed = drain(&mut again);
    assert_eq!(data(&replayed), ["a2", "a3"], "b's event is not replayed");
    assert_eq!(replayed[0].id, format!("{a}-3"));
    // After the stream finished, a resume replays what is left and ends.
    let (_, mut late) = streams.resume(&format!("{a}-3")).unwrap();
    assert_eq!(data(&drain(&mut late)), ["a3"]);
    assert!(late.is_closed());
}

#[test]
fn ids_that_name_no_stream_are_refused() {
    let streams = Streams::new(Arc::new(limits(8, 60_000, 8)));
    let (a, _rx) = streams.open();
    streams.send(a, "a1".into());
    assert!(matches!(streams.resume("x"), Err(ResumeError::Unreadable)));
    assert!(matches!(streams.resume("9-1"), Err(ResumeError::Gone(9))));
    // An id past the stream's last event was never sent.
    assert!(matches!(
        streams.resume(&format!("{a}-7")),
        Err(ResumeError::Gone(_))
    ));
}

#[test]
fn the_replay_buffer_is_bounded_and_a_gap_is_refused() {
    let streams = Streams::new(Arc::new(limits(2, 60_000, 8)));
    let (a, _rx) = streams.open();
    for i in 1..=5 {
        streams.send(a, format!("a{i}"));
    }
    let error = streams.resume(&format!("{a}-1")).unwrap_err();
    assert_eq!(
        error,
        ResumeError::Dropped {
            stream: a,
            first_kept: 4
        }
    );
    let (_, mut rx) = streams.resume(&format!("{a}-3")).unwrap();
    assert_eq!(data(&drain(&mut rx)), ["a4", "a5"]);
}

#[test]
fn a_connection_that_does_not_read_is_let_go_and_the_stream_kept() {
    let streams = Streams::new(Arc::new(limits(2, 60_000, 8)));
    let (a, mut rx) = streams.open();
    for i in 1..=6 {
        streams.send(a, format!("a{i}"));
    }
    // The channel held 4; the 5th found it full and the connection was dropped.
    assert_eq!(data(&drain(&mut rx)), ["a1", "a2", "a3", "a4"]);
    assert!(rx.is_closed());
    let (_, mut again) = streams.resume(&format!("{a}-4")).unwrap();
    assert_eq!(data(&drain(&mut again)), ["a5", "a6"]);
}

#[tokio::test(start_paused = true)]
async fn a_finished_stream_is_resumable_for_the_window_only() {
    let streams = Streams::new(Arc::new(limits(8, 1_000, 8)));
    let (a, _rx) = streams.open();
    streams.send(a, "a1".into());
    streams.finish(a);
    tokio::time::advance(Duration::from_millis(999)).await;
    assert!(streams.resume(&format!("{a}-1")).is_ok());
    tokio::time::advance(Duration::from_millis(1)).await;
    assert_eq!(
        streams.resume(&format!("{a}-1")).unwrap_err(),
        ResumeError::Gone(a)
    );
    assert_eq!(streams.kept(), 0);
}

#[tokio::test(start_paused = true)]
async fn finished_streams_beyond_the_count_go_oldest_first() {
    let streams = Streams::new(Arc::new(limits(8, 60_000, 2)));
    let mut numbers = Vec::new();
    for _ in 0..3 {
        let (n, _rx) = streams.open();
        streams.send(n, "x".into());
        streams.finish(n);
        numbers.push(n);
        tokio::time::advance(Duration::from_millis(1)).await;
    }
    let (live, _rx) = streams.open();
    assert_eq!(streams.kept(), 3, "two finished and the live one");
    assert!(matches!(
        streams.resume(&format!("{}-1", numbers[0])),
        Err(ResumeError::Gone(_))
    ));
    assert!(streams.resume(&format!("{}-1", numbers[2])).is_ok());
    assert!(streams.resume(&format!("{live}-0")).is_ok());
}

#[test]
fn what_a_session_keeps_for_resumption_is_bounded_in_bytes() {
    let limits = Config {
        replay_bytes: 10_000,
        ..limits(64, 60_000, 16)
    };
    let streams = Streams::new(Arc::new(limits));
    // Sixteen answers of 3,000 bytes on ended streams, then as many on a live one.
    for _ in 0..16 {
        let (n, _rx) = streams.open();
        streams.send(n, "x".repeat(3_000));
        streams.finish(n);
    }
    assert!(streams.kept_bytes() <= 10_000, "{}", streams.kept_bytes());
    let (live, mut rx) = streams.open();
    for _ in 0..16 {
        streams.send(live, "y".repeat(3_000));
    }
    assert!(streams.kept_bytes() <= 10_000, "{}", streams.kept_bytes());
    assert_eq!(streams.kept(), 1, "the ended streams went first");
    // Every event still reached the connection; a resume from one dropped is refused.
    assert_eq!(drain(&mut rx).len(), 16);
    assert!(matches!(
        streams.resume(&format!("{live}-1")),
        Err(ResumeError::Dropped { .. })
    ));
    // One event larger than the budget is sent but not kept.
    streams.send(live, "z".repeat(20_000));
    assert!(streams.kept_bytes() <= 10_000);
    assert_eq!(drain(&mut rx).len(), 1);
}
