//! The command-line options of a server binary: where it is reached (`--listen <address:port>`
//! or `--stdio`), the hosts it answers to, `--modern-only`, every bound of [`Config`] and of
//! the task store ([`tasks::Settings`]), the protected-resource options ([`AuthOptions`]), the
//! store several instances share (`--store`, [`StoreOptions`]), the key that names principals
//! without token validation (`--principal-key`, [`PrincipalOptions`]),
//! and with the `seal` feature how `requestState` is sealed (`SealOptions`). One table ([`BOUNDS`]) holds each bound's option, what it bounds
//! and where it is kept; the usage text ([`usage`]) is written from it and from the defaults.
//!
//! ```
//! use mcp_server::options::{Options, Transport};
//!
//! let args = ["--listen", "127.0.0.1:8080", "--max-sessions", "8", "--allow-host", "mcp.example"];
//! let options = Options::parse(args.map(String::from)).unwrap();
//! assert!(matches!(options.transport, Transport::Listen(a) if a.port() == 8080));
//! assert_eq!(options.config.max_sessions, 8);
//! assert!(options.config.allowed_hosts.iter().any(|h| h == "mcp.example"));
//! assert!(mcp_server::options::usage().contains("--max-sessions <n>"));
//! ```

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use crate::{Config, tasks};

/// Where a server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// Streamable HTTP on this address.
    Listen(SocketAddr),
    /// Standard input and output.
    Stdio,
}

/// A server's command line, read.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--listen` or `--stdio`.
    pub transport: Transport,
    /// `--allow-host`, `--modern-only` and the transport's bounds.
    pub config: Config,
    /// The task store's bounds and the tasks' lifetime.
    pub tasks: tasks::Settings,
    /// How `requestState` is sealed.
    #[cfg(feature = "seal")]
    pub seal: SealOptions,
    /// The protected-resource options (`--auth-*`): off unless `--auth-issuer` is given.
    pub auth: AuthOptions,
    /// `--store`: the Redis several instances share (else each keeps its state in memory).
    pub store: StoreOptions,
    /// `--principal-key`: where [`Config::principal_key`] came from (already set there).
    pub principal: PrincipalOptions,
    /// The options the command line gave, in its order (each once).
    given: Vec<String>,
}

/// The value of the option being read, taken from the command line when asked for.
type Value<'a> = &'a mut dyn FnMut() -> Result<String, OptionsError>;

/// Why a command line was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// `-h` or `--help`: the caller prints the usage.
    #[error("help asked for")]
    Help,
    /// An option is unknown, lacks its value or has a wrong one.
    #[error("{0}")]
    Invalid(String),
}

/// Which transport an option takes effect on: given with the other one, it would be read and
/// then ignored, so [`Options::parse`] refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// `--listen` and `--stdio` alike.
    Both,
    /// Streamable HTTP only (`--listen`): connections, hosts, streams, tokens, the store.
    Listen,
    /// `--stdio` only.
    Stdio,
}

impl Applies {
    /// Whether an option that applies so takes effect on `transport`.
    pub fn to(self, transport: Transport) -> bool {
        matches!(
            (self, transport),
            (Applies::Both, _)
                | (Applies::Listen, Transport::Listen(_))
                | (Applies::Stdio, Transport::Stdio)
        )
    }
}

/// What a server must serve for a bound to mean anything: a server that does not serve it
/// (a [`Served`](crate::Served) without it) refuses to start when the bound is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// Only the transports.
    Transport,
    /// The tasks extension (a task store).
    Tasks,
    /// `subscriptions/listen` streams.
    Listen,
}

/// One bound's option: its flag, what it bounds, and where its value is kept.
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    /// The option, `--max-body-bytes`.
    pub flag: &'static str,
    /// What it bounds, for the usage text.
    pub what: &'static str,
    /// The transport it takes effect on.
    pub applies: Applies,
    /// What a server must serve for it to take effect.
    pub needs: Needs,
    /// Its value in these options (milliseconds for a duration).
    pub get: fn(&Options) -> u64,
    /// Sets it (a positive integer; milliseconds for a duration).
    pub set: fn(&mut Options, u64),
}

/// Whether a bound is a duration: its option ends in `-ms`.
fn is_millis(bound: &Bound) -> bool {
    bound.flag.ends_with("-ms")
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// Declares [`BOUNDS`]: `flag, what, place.field, count|millis, Applies, Needs`.
macro_rules! bounds {
    ($($flag:literal, $what:literal, $place:ident.$field:ident, $kind:ident, $applies:ident, $needs:ident;)*) => {
        /// Every bound a server's command line sets, in the usage text's order.
        pub const BOUNDS: &[Bound] = &[$(Bound {
            flag: $flag,
            what: $what,
            applies: Applies::$applies,
            needs: Needs::$needs,
            get: |o| bounds!(@get $kind, o.$place.$field),
            set: |o, n| o.$place.$field = bounds!(@set $kind, n),
        }),*];
    };
    (@get count, $e:expr) => { count($e) };
    (@get millis, $e:expr) => { millis($e) };
    (@set count, $n:expr) => { to_usize($n) };
    (@set millis, $n:expr) => { Duration::from_millis($n) };
}

bounds! {
    "--max-body-bytes", "largest request body", config.max_body, count, Both, Transport;
    "--max-uri-bytes", "longest URI a resources/read may name", config.max_uri_bytes, count, Both, Transport;
    "--header-timeout-ms", "to send a request head; also the idle keep-alive timeout", config.header_read, millis, Listen, Transport;
    "--body-timeout-ms", "to send a request body", config.body_read, millis, Listen, Transport;
    "--max-connections", "connections served at once", config.max_connections, count, Listen, Transport;
    "--listen-queue", "notifications queued per unread listen stream", config.listen_queue, count, Both, Listen;
    "--shutdown-grace-ms", "a graceful shutdown waits for open connections", config.shutdown_grace, millis, Both, Transport;
    "--task-ttl-ms", "a task is kept after its creation", tasks.ttl, millis, Both, Tasks;
    "--max-tasks", "live tasks in all", tasks.max_total, count, Both, Tasks;
    "--max-tasks-per-principal", "live tasks of one principal", tasks.max_per_principal, count, Both, Tasks;
    "--max-sessions", "legacy sessions live at once", config.max_sessions, count, Listen, Transport;
    "--principal-share-percent", "of sessions, GET streams and waiting server requests one principal may hold", config.principal_share, count, Listen, Transport;
    "--max-initialize-bytes", "largest legacy initialize request", config.max_initialize, count, Both, Transport;
    "--max-get-streams", "legacy GET streams open at once", config.max_get_streams, count, Listen, Transport;
    "--get-stream-idle-ms", "a legacy GET stream without messages is ended after", config.get_stream_idle, millis, Listen, Transport;
    "--max-waiting", "server requests awaiting answers in all legacy sessions", config.max_waiting, count, Both, Transport;
    "--session-idle-ms", "a legacy session without requests is dropped after", config.session_idle, millis, Both, Transport;
    "--session-queue", "server requests awaiting answers per legacy session", config.session_queue, count, Both, Transport;
    "--input-timeout-ms", "for a legacy client to answer a server request", config.input_timeout, millis, Both, Transport;
    "--replay-events", "events kept per legacy stream for a resume", config.replay_events, count, Listen, Transport;
    "--replay-bytes", "bytes of events kept per legacy session for a resume", config.replay_bytes, count, Listen, Transport;
    "--resume-window-ms", "an ended legacy stream stays resumable for", config.resume_window, millis, Listen, Transport;
    "--resumable-streams", "ended streams kept resumable per legacy session", config.resumable_streams, count, Listen, Transport;
    "--max-in-flight", "requests handled at once on --stdio", config.max_in_flight, count, Stdio, Transport;
    "--response-gap-ms", "on --stdio, a response's wait after its notifications", config.response_gap, millis, Stdio, Transport;
}

/// The options that are not bounds, for the usage text.
const SWITCHES: &str = "  --listen <address:port>     serve Streamable HTTP at http://<address:port>/mcp
  --stdio                     serve standard input and output, one JSON-RPC message a line
  --allow-host <name>         also answer to this host name (Host, Origin) [localhost, 127.0.0.1, [::1]]
  --modern-only               refuse legacy 2025-11-25 sessions (initialize)";

/// The options' usage text: the switches, then each bound with its default.
pub fn usage() -> String {
    let defaults = Options::new(Transport::Stdio);
    let mut text = format!("Options:\n{SWITCHES}\n");
    #[cfg(feature = "seal")]
    text.push_str(seal::USAGE);
    text.push_str(auth::USAGE);
    text.push_str(store::USAGE);
    text.push_str(principal::USAGE);
    text.push_str("Bounds (defaults in brackets):\n");
    for bound in BOUNDS {
        let value = if is_millis(bound) { "<ms>" } else { "<n>" };
        let option = format!("{} {value}", bound.flag);
        let default = (bound.get)(&defaults);
        let _ = writeln!(text, "  {option:<27} {} [{default}]", bound.what);
    }
    text
}

impl Options {
    /// The defaults, reached through `transport`.
    pub fn new(transport: Transport) -> Self {
        Options {
            transport,
            config: Config::default(),
            tasks: tasks::Settings::default(),
            #[cfg(feature = "seal")]
            seal: SealOptions::default(),
            auth: AuthOptions::default(),
            store: StoreOptions::default(),
            principal: PrincipalOptions::default(),
            given: Vec::new(),
        }
    }

    /// The options the command line gave (`--max-tasks`, `--auth-issuer`, …), each once, in
    /// the order given: what a server that serves them must apply ([`Options::given_for`]).
    pub fn given(&self) -> &[String] {
        &self.given
    }

    /// The bounds given whose [`Needs`] is `needs`: a server that does not serve what they
    /// bound names the first when it refuses to start.
    pub fn given_for(&self, needs: Needs) -> impl Iterator<Item = &'static str> + '_ {
        BOUNDS
            .iter()
            .filter(move |b| b.needs == needs && self.given.iter().any(|g| g == b.flag))
            .map(|b| b.flag)
    }

    /// Reads a command line (without the program's name).
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, OptionsError> {
        let mut options = Options::new(Transport::Stdio);
        let (mut listen, mut stdio) = (None, false);
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let mut value = || {
                args.next()
                    .ok_or_else(|| OptionsError::Invalid(format!("{flag} needs a value")))
            };
            match flag.as_str() {
                "-h" | "--help" => return Err(OptionsError::Help),
                "--listen" => listen = Some(parse_address(&value()?)?),
                "--stdio" => stdio = true,
                "--allow-host" => options.config = options.config.allow_host(&value()?),
                "--modern-only" => options.config.modern_only = true,
                _ => options.apply(&flag, &mut value)?,
            }
            if !matches!(flag.as_str(), "--listen" | "--stdio") && !options.given.contains(&flag) {
                options.given.push(flag);
            }
        }
        options.transport = match (listen, stdio) {
            (Some(address), false) => Transport::Listen(address),
            (None, true) => Transport::Stdio,
            (Some(_), true) => return Err(invalid("--listen and --stdio exclude each other")),
            (None, false) => return Err(invalid("--listen or --stdio is required")),
        };
        options.auth.check()?;
        options.check_transport()?;
        PrincipalOptions::resolve(&mut options)?;
        Ok(options)
    }

    /// Every option given takes effect on the transport chosen: one that would be read and
    /// then ignored (`--max-connections` or `--auth-issuer` with `--stdio`) is refused.
    fn check_transport(&self) -> Result<(), OptionsError> {
        let misplaced = self
            .given
            .iter()
            .find(|flag| !applies(flag).to(self.transport));
        match misplaced {
            None => Ok(()),
            Some(flag) => {
                let only = match self.transport {
                    Transport::Listen(_) => "--stdio",
                    Transport::Stdio => "--listen",
                };
                Err(OptionsError::Invalid(format!(
                    "{flag} applies to {only} only: with this transport it would be ignored"
                )))
            }
        }
    }

    /// Applies `flag`, a bound (or with the `seal` feature a sealing option), taking its
    /// value from `value`.
    fn apply(&mut self, flag: &str, value: Value<'_>) -> Result<(), OptionsError> {
        if let Some(applied) = self.auth.apply(flag, value) {
            return applied;
        }
        if let Some(applied) = self.store.apply(flag, value) {
            return applied;
        }
        if let Some(applied) = self.principal.apply(flag, value) {
            return applied;
        }
        #[cfg(feature = "seal")]
        if let Some(applied) = self.seal.apply(flag, value) {
            return applied;
        }
        let bound = BOUNDS
            .iter()
            .find(|b| b.flag == flag)
            .ok_or_else(|| OptionsError::Invalid(format!("unknown argument {flag:?}")))?;
        let n = positive(flag, &value()?)?;
        (bound.set)(self, n);
        Ok(())
    }
}

/// Where the option `flag` takes effect: a bound's own [`Bound::applies`]; the hosts, the
/// protected resource (`--auth-*`: stdio carries no token), the key that names a credential's
/// principal (stdio has one principal) and the shared store on HTTP only; the rest
/// (`--modern-only`, sealing) on both.
pub fn applies(flag: &str) -> Applies {
    if let Some(bound) = BOUNDS.iter().find(|b| b.flag == flag) {
        return bound.applies;
    }
    let listen_only = ["--allow-host", "--store", "--principal-key"];
    if listen_only.contains(&flag) || flag.starts_with("--auth-") {
        Applies::Listen
    } else {
        Applies::Both
    }
}

fn invalid(message: &str) -> OptionsError {
    OptionsError::Invalid(message.to_owned())
}

fn parse_address(v: &str) -> Result<SocketAddr, OptionsError> {
    v.parse()
        .map_err(|e| OptionsError::Invalid(format!("--listen {v}: {e}")))
}

/// `v` as a positive integer, or the error that names `flag`.
fn positive(flag: &str, v: &str) -> Result<u64, OptionsError> {
    v.parse::<u64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| OptionsError::Invalid(format!("{flag} {v}: not a positive integer")))
}

pub use auth::AuthOptions;
pub use principal::PrincipalOptions;
pub use store::StoreOptions;

mod auth;
mod principal;
mod store;

#[cfg(feature = "seal")]
pub use seal::SealOptions;

#[cfg(feature = "seal")]
mod seal {
    use std::path::PathBuf;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use mcp_runtime::seal::{Mode, Sealer};

    use super::{OptionsError, Value, invalid, positive};

    /// The sealing options, for the usage text.
    pub(super) const USAGE: &str = "  --seal-keys <file>          the key ring that seals requestState (else $MCP_SEAL_KEYS, else a key of its own)
  --seal-mode aead|hmac       encrypt and sign requestState, or only sign it [aead]
  --seal-ttl-s <s>            a sealed requestState expires after [300]
";

    /// How `requestState` is sealed: the key ring's file, the mode and the lifetime.
    /// It also records whether a sealer was made from it, which
    /// [`served::run`](crate::served::run) checks: build one with [`SealOptions::default`] and
    /// set its fields.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct SealOptions {
        /// `--seal-keys`: the key ring's file (else [`SealOptions::KEYS_VAR`]).
        pub keys_file: Option<PathBuf>,
        /// `--seal-mode`: [`Mode::Aead`] by default.
        pub mode: Mode,
        /// `--seal-ttl-s`: [`Sealer::DEFAULT_TTL`] by default.
        pub ttl: Duration,
        pub(super) made: Made,
    }

    /// Whether a sealer was made from these options (or a clone of them): not part of their
    /// value, so two options that say the same are equal whatever was made of them.
    #[derive(Debug, Clone, Default)]
    pub(super) struct Made(Arc<AtomicBool>);

    impl PartialEq for Made {
        fn eq(&self, _: &Made) -> bool {
            true
        }
    }

    impl Eq for Made {}

    impl Default for SealOptions {
        fn default() -> Self {
            SealOptions {
                keys_file: None,
                mode: Mode::Aead,
                ttl: Sealer::DEFAULT_TTL,
                made: Made::default(),
            }
        }
    }

    impl SealOptions {
        /// The environment variable that holds a key ring when `--seal-keys` is not given.
        pub const KEYS_VAR: &'static str = "MCP_SEAL_KEYS";

        /// The sealer these options describe: its key ring from the file, else from
        /// [`SealOptions::KEYS_VAR`], else one fresh random key ([`Sealer::from_ring`]).
        pub fn sealer(&self) -> Result<Sealer, String> {
            self.made.0.store(true, Ordering::Relaxed);
            let sealer =
                Sealer::from_ring(self.keys_file.as_deref(), Self::KEYS_VAR).map_err(|e| {
                    match &self.keys_file {
                        Some(_) => format!("--seal-keys {e}"),
                        None => e.to_string(),
                    }
                })?;
            Ok(sealer.with_mode(self.mode).with_ttl(self.ttl))
        }

        /// Whether [`SealOptions::sealer`] was called on these options or a clone of them:
        /// sealing options given to a server that makes no sealer would be ignored.
        pub fn sealer_made(&self) -> bool {
            self.made.0.load(Ordering::Relaxed)
        }

        /// Whether the key ring comes from [`SealOptions::KEYS_VAR`] (set, no `--seal-keys`).
        pub fn keys_from_environment(&self) -> bool {
            self.keys_file.is_none() && std::env::var_os(Self::KEYS_VAR).is_some()
        }

        fn set_mode(&mut self, mode: Mode) -> Result<(), OptionsError> {
            self.mode = mode;
            Ok(())
        }

        /// Applies `flag` if it is a sealing option.
        pub(super) fn apply(
            &mut self,
            flag: &str,
            value: Value<'_>,
        ) -> Option<Result<(), OptionsError>> {
            let applied = match flag {
                "--seal-keys" => value().map(|file| self.keys_file = Some(file.into())),
                "--seal-mode" => match value().as_deref() {
                    Ok("aead") => self.set_mode(Mode::Aead),
                    Ok("hmac") => self.set_mode(Mode::Hmac),
                    _ => Err(invalid("--seal-mode needs aead or hmac")),
                },
                "--seal-ttl-s" => value()
                    .and_then(|v| positive(flag, &v))
                    .map(|s| self.ttl = Duration::from_secs(s)),
                _ => return None,
            };
            Some(applied)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options of `args` (the tests of `options::auth` use it too).
    pub(super) fn parse(args: &[&str]) -> Result<Options, OptionsError> {
        Options::parse(args.iter().map(|a| (*a).to_owned()))
    }

    /// The transport option of a command line where `bound` applies.
    fn transport_for(bound: &Bound) -> [&'static str; 2] {
        match bound.applies {
            Applies::Listen => ["--listen", "127.0.0.1:0"],
            Applies::Both | Applies::Stdio => ["--stdio", "--stdio"],
        }
    }

    #[test]
    fn every_bound_sets_its_place_and_reads_back_what_it_set() {
        for (i, bound) in BOUNDS.iter().enumerate() {
            let value = (1000 + i).to_string();
            let [transport, address] = transport_for(bound);
            let options = parse(&[transport, address, bound.flag, &value]).unwrap();
            assert_eq!((bound.get)(&options), 1000 + i as u64, "{}", bound.flag);
            assert!(options.given().iter().any(|g| g == bound.flag));
        }
        let options = parse(&["--stdio", "--session-idle-ms", "40", "--max-tasks", "3"]).unwrap();
        assert_eq!(options.config.session_idle, Duration::from_millis(40));
        assert_eq!(options.tasks.max_total, 3);
    }

    #[test]
    fn an_option_that_would_be_ignored_on_the_transport_is_refused() {
        let on_stdio = |flag: &str, value: &str| parse(&["--stdio", flag, value]).unwrap_err();
        for (flag, value) in [
            ("--max-connections", "5"),
            ("--header-timeout-ms", "5"),
            ("--max-get-streams", "5"),
            ("--replay-events", "5"),
            ("--allow-host", "mcp.example"),
            ("--store", "redis://127.0.0.1:1"),
        ] {
            let refused = on_stdio(flag, value).to_string();
            let said = format!("{flag} applies to --listen only");
            // `--store` without the `redis` feature is refused for that first.
            assert!(refused.starts_with(&said) || flag == "--store", "{refused}");
        }
        let auth = parse(&[
            "--stdio",
            "--auth-issuer",
            "https://a.example",
            "--auth-jwks",
            "k",
        ]);
        let auth = auth.unwrap_err().to_string();
        assert!(
            auth.starts_with("--auth-issuer applies to --listen only"),
            "{auth}"
        );
        let listen = |flag: &str| parse(&["--listen", "127.0.0.1:0", flag, "2"]).unwrap_err();
        for flag in ["--max-in-flight", "--response-gap-ms"] {
            let said =
                format!("{flag} applies to --stdio only: with this transport it would be ignored");
            assert_eq!(listen(flag), OptionsError::Invalid(said));
        }
        // What applies to both is read on both.
        for transport in [&["--stdio", "--stdio"], &["--listen", "127.0.0.1:0"]] {
            let line = [
                transport[0],
                transport[1],
                "--modern-only",
                "--max-body-bytes",
                "9",
            ];
            let options = parse(&line).unwrap();
            assert_eq!(options.given(), ["--modern-only", "--max-body-bytes"]);
        }
    }

    #[test]
    fn the_bounds_of_what_a_server_serves_are_found_by_what_they_need() {
        let options = parse(&["--stdio", "--max-tasks", "3", "--listen-queue", "4"]).unwrap();
        assert_eq!(
            options.given_for(Needs::Tasks).collect::<Vec<_>>(),
            ["--max-tasks"]
        );
        assert_eq!(
            options.given_for(Needs::Listen).collect::<Vec<_>>(),
            ["--listen-queue"]
        );
        let none = parse(&["--stdio", "--max-body-bytes", "3"]).unwrap();
        assert_eq!(none.given_for(Needs::Tasks).count(), 0);
    }

    #[test]
    fn a_bound_that_is_not_a_positive_integer_is_refused_naming_it() {
        for bad in ["0", "x", "-1"] {
            let refused =
                parse(&["--listen", "127.0.0.1:0", "--max-connections", bad]).unwrap_err();
            assert_eq!(
                refused,
                OptionsError::Invalid(format!("--max-connections {bad}: not a positive integer"))
            );
        }
        let missing = parse(&["--stdio", "--max-tasks"]).unwrap_err();
        assert_eq!(missing, invalid("--max-tasks needs a value"));
        let unknown = parse(&["--stdio", "--max-everything", "1"]).unwrap_err();
        assert_eq!(unknown, invalid("unknown argument \"--max-everything\""));
    }

    #[test]
    fn exactly_one_transport_is_required() {
        let listen = parse(&["--listen", "127.0.0.1:0"]).unwrap();
        assert!(matches!(listen.transport, Transport::Listen(_)));
        assert!(parse(&["--stdio"]).is_ok());
        assert!(parse(&[]).is_err());
        assert!(parse(&["--stdio", "--listen", "127.0.0.1:0"]).is_err());
        assert!(parse(&["--listen", "nowhere"]).is_err());
        assert_eq!(
            parse(&["--stdio", "--help"]).unwrap_err(),
            OptionsError::Help
        );
    }

    #[test]
    fn the_usage_lists_every_bound_with_its_default() {
        let text = usage();
        let defaults = Options::new(Transport::Stdio);
        for bound in BOUNDS {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(bound.flag))
                .unwrap_or_else(|| panic!("{} missing", bound.flag));
            assert!(
                line.ends_with(&format!("[{}]", (bound.get)(&defaults))),
                "{line}"
            );
        }
        assert!(text.contains("--max-body-bytes <n>"));
        assert!(text.contains("--session-idle-ms <ms>"));
    }

    #[cfg(feature = "seal")]
    #[test]
    fn the_sealing_options_are_read_and_checked() {
        use mcp_runtime::seal::Mode;
        let options = parse(&["--stdio", "--seal-mode", "hmac", "--seal-ttl-s", "7"]).unwrap();
        assert_eq!(options.seal.mode, Mode::Hmac);
        assert_eq!(options.seal.ttl, Duration::from_secs(7));
        assert_eq!(Options::new(Transport::Stdio).seal.mode, Mode::Aead);
        assert!(parse(&["--stdio", "--seal-mode", "rot13"]).is_err());
        assert!(parse(&["--stdio", "--seal-ttl-s", "0"]).is_err());
        let missing = SealOptions {
            keys_file: Some("/nonexistent/keys".into()),
            ..SealOptions::default()
        };
        assert!(missing.sealer().unwrap_err().starts_with("--seal-keys"));
    }
}
