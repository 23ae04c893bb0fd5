//! The bounds the server keeps whatever its clients do: how much one request may hold, how
//! long a connection may take to send it, how many connections, listen notifications and tasks
//! may wait at once. Each has a default fit for one machine and a command-line option;
//! RELIABILITY.md ("Bounds of the example server") says what happens at each limit.

use std::time::Duration;

/// The limits of one server. The task limits live in [`crate::tasks::store::Settings`] beside
/// the task TTL.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest request body, in bytes: a larger one is answered 413 without being read on.
    pub max_body: usize,
    /// Time to send a request's head (request line and headers), from the first byte wanted:
    /// a connection that is slower is closed. The same timer closes a keep-alive connection
    /// that sends no next request head within it (hyper's `header_read_timeout`), so this is
    /// also the idle keep-alive timeout.
    pub header_read: Duration,
    /// Time to send a whole request body once the head is in: a slower request is answered 408.
    pub body_read: Duration,
    /// Connections served at once; further ones wait in the listen backlog (they are not
    /// accepted) until one of these closes.
    pub max_connections: usize,
    /// Notifications queued for one `subscriptions/listen` stream whose client does not read:
    /// when they are all waiting, the stream is ended with an error that says what was missed.
    pub listen_queue: usize,
    /// Longest a graceful shutdown waits for open connections before it drops them.
    pub shutdown_grace: Duration,
    /// Legacy (2025-11-25) sessions live at once: an `initialize` beyond them is refused
    /// (429) until one ends or idles out.
    pub max_sessions: usize,
    /// A legacy session with no request for this long is dropped; its id is then unknown
    /// (404) and the client initializes again.
    pub session_idle: Duration,
    /// Server-to-client requests of one legacy session waiting for answers: one more is
    /// refused (the request that needed it ends with an error). (What its streams hold is
    /// bounded by `replay_events`.)
    pub session_queue: usize,
    /// How long a legacy client has to answer a server-to-client request (an elicitation, a
    /// sampling, a roots list): then the request that needed it ends with an error.
    pub input_timeout: Duration,
    /// Events kept per SSE stream of a legacy session for a client that resumes it
    /// (`Last-Event-ID`); a resume from before the oldest kept one is refused (400).
    pub replay_events: usize,
    /// How long a legacy session's stream stays resumable once it has ended.
    pub resume_window: Duration,
    /// Ended streams kept resumable per legacy session: beyond them the oldest goes first.
    pub resumable_streams: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body: 4 * 1024 * 1024,
            header_read: Duration::from_secs(10),
            body_read: Duration::from_secs(30),
            max_connections: 512,
            listen_queue: 256,
            shutdown_grace: Duration::from_secs(5),
            max_sessions: 1024,
            session_idle: Duration::from_secs(600),
            session_queue: 16,
            input_timeout: Duration::from_secs(60),
            replay_events: 64,
            resume_window: Duration::from_secs(60),
            resumable_streams: 16,
        }
    }
}

/// List changes buffered for the `subscriptions/listen` streams between two reads of each
/// stream's forwarding task; a task that falls further behind ends its stream with an error
/// saying how many it missed.
pub const CHANGE_BUFFER: usize = 1024;

/// The options that set [`Limits`] and the task limits, for the usage text.
pub const USAGE: &str = "Bounds (defaults in brackets; RELIABILITY.md says what happens at each):
  --max-body-bytes <n>        largest request body [4194304]
  --header-timeout-ms <ms>    to send a request head; also the idle keep-alive timeout [10000]
  --body-timeout-ms <ms>      to send a request body [30000]
  --max-connections <n>       connections served at once [512]
  --listen-queue <n>          notifications queued per unread listen stream [256]
  --max-tasks <n>             live tasks in all [10000]
  --max-tasks-per-principal <n>  live tasks of one principal [1000]
  --max-sessions <n>          legacy sessions live at once [1024]
  --session-idle-ms <ms>      a legacy session without requests is dropped after [600000]
  --session-queue <n>         server requests awaiting answers per legacy session [16]
  --input-timeout-ms <ms>     for a legacy client to answer a server request [60000]
  --replay-events <n>         events kept per legacy stream for a resume [64]
  --resume-window-ms <ms>     an ended legacy stream stays resumable for [60000]
  --resumable-streams <n>     ended streams kept resumable per legacy session [16]";

/// Applies option `flag` (taking its value from `args`) to `limits` or `tasks`. `None` if
/// `flag` is not one of [`USAGE`]'s (and then nothing is taken from `args`); else whether its
/// value was a positive integer.
pub fn apply(
    flag: &str,
    args: &mut dyn Iterator<Item = String>,
    limits: &mut Limits,
    tasks: &mut crate::tasks::store::Settings,
) -> Option<Result<(), String>> {
    let millis = Duration::from_millis;
    let set: Box<dyn FnOnce(u64) + '_> = match flag {
        "--max-body-bytes" => Box::new(|n| limits.max_body = to_usize(n)),
        "--header-timeout-ms" => Box::new(|n| limits.header_read = millis(n)),
        "--body-timeout-ms" => Box::new(|n| limits.body_read = millis(n)),
        "--max-connections" => Box::new(|n| limits.max_connections = to_usize(n)),
        "--listen-queue" => Box::new(|n| limits.listen_queue = to_usize(n)),
        "--max-tasks" => Box::new(|n| tasks.max_total = to_usize(n)),
        "--max-tasks-per-principal" => Box::new(|n| tasks.max_per_principal = to_usize(n)),
        "--max-sessions" => Box::new(|n| limits.max_sessions = to_usize(n)),
        "--session-idle-ms" => Box::new(|n| limits.session_idle = millis(n)),
        "--session-queue" => Box::new(|n| limits.session_queue = to_usize(n)),
        "--input-timeout-ms" => Box::new(|n| limits.input_timeout = millis(n)),
        "--replay-events" => Box::new(|n| limits.replay_events = to_usize(n)),
        "--resume-window-ms" => Box::new(|n| limits.resume_window = millis(n)),
        "--resumable-streams" => Box::new(|n| limits.resumable_streams = to_usize(n)),
        _ => return None,
    };
    Some(positive(flag, args.next()).map(set))
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// `value` as a positive integer, or the error that names `flag`.
fn positive(flag: &str, value: Option<String>) -> Result<u64, String> {
    let v = value.ok_or_else(|| format!("{flag} needs a number"))?;
    v.parse::<u64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("{flag} {v}: not a positive integer"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::store::Settings;

    #[test]
    fn options_set_their_limit_and_refuse_what_is_not_a_positive_integer() {
        let mut limits = Limits::default();
        let mut tasks = Settings::default();
        let mut run = |flag: &str, v: &str| {
            let mut value = std::iter::once(v.to_owned());
            apply(flag, &mut value, &mut limits, &mut tasks)
        };
        assert_eq!(run("--max-body-bytes", "1000"), Some(Ok(())));
        assert_eq!(run("--header-timeout-ms", "250"), Some(Ok(())));
        assert_eq!(run("--max-tasks-per-principal", "3"), Some(Ok(())));
        assert_eq!(run("--max-sessions", "2"), Some(Ok(())));
        assert_eq!(run("--session-idle-ms", "40"), Some(Ok(())));
        assert_eq!(run("--session-queue", "1"), Some(Ok(())));
        assert_eq!(run("--input-timeout-ms", "30"), Some(Ok(())));
        assert_eq!(run("--replay-events", "5"), Some(Ok(())));
        assert_eq!(run("--resume-window-ms", "70"), Some(Ok(())));
        assert_eq!(run("--resumable-streams", "4"), Some(Ok(())));
        assert!(matches!(run("--max-connections", "0"), Some(Err(e)) if e.contains("positive")));
        assert!(matches!(run("--listen-queue", "x"), Some(Err(_))));
        assert_eq!(run("--listen", "127.0.0.1:0"), None);
        let missing = apply(
            "--max-tasks",
            &mut std::iter::empty(),
            &mut limits,
            &mut tasks,
        );
        assert_eq!(missing, Some(Err("--max-tasks needs a number".to_owned())));
        assert_eq!(limits.max_body, 1000);
        assert_eq!(limits.header_read, Duration::from_millis(250));
        assert_eq!(tasks.max_per_principal, 3);
        assert_eq!(limits.max_sessions, 2);
        assert_eq!(limits.session_idle, Duration::from_millis(40));
        assert_eq!(limits.session_queue, 1);
        assert_eq!(limits.input_timeout, Duration::from_millis(30));
        assert_eq!(limits.replay_events, 5);
        assert_eq!(limits.resume_window, Duration::from_millis(70));
        assert_eq!(limits.resumable_streams, 4);
    }
}
