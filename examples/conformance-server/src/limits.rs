//! The command-line options of the bounds the server keeps whatever its clients do: those of
//! the transport (`mcp_server::Config`: how much one request may hold, how long a connection
//! may take to send it, how many connections, sessions and listen notifications) and the task
//! limits (`tasks::store::Settings`). RELIABILITY.md ("Bounds of the example server") says
//! what happens at each limit.

use std::time::Duration;

use mcp_server::Config;

/// List changes buffered for the `subscriptions/listen` streams between two reads of each
/// stream's forwarding task; a task that falls further behind ends its stream with an error
/// saying how many it missed.
pub const CHANGE_BUFFER: usize = 1024;

/// The options that set [`Config`]'s bounds and the task limits, for the usage text.
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
  --resumable-streams <n>     ended streams kept resumable per legacy session [16]
  --max-in-flight <n>         requests handled at once on --stdio [64]
  --response-gap-ms <ms>      on --stdio, a response's wait after its notifications [5]";

/// Applies option `flag` (taking its value from `args`) to `limits` or `tasks`. `None` if
/// `flag` is not one of [`USAGE`]'s (and then nothing is taken from `args`); else whether its
/// value was a positive integer.
pub fn apply(
    flag: &str,
    args: &mut dyn Iterator<Item = String>,
    limits: &mut Config,
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
        "--max-in-flight" => Box::new(|n| limits.max_in_flight = to_usize(n)),
        "--response-gap-ms" => Box::new(|n| limits.response_gap = millis(n)),
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
        let mut limits = Config::default();
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
        assert_eq!(run("--max-in-flight", "2"), Some(Ok(())));
        assert_eq!(run("--response-gap-ms", "3"), Some(Ok(())));
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
        assert_eq!(limits.max_in_flight, 2);
        assert_eq!(limits.response_gap, Duration::from_millis(3));
    }
}
