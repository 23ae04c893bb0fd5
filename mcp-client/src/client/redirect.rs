//! The redirects a [`Client`](crate::Client) follows: only within the origin (scheme, host,
//! port) of the URL it asked, at most [`MAX_REDIRECTS`] in a row. A redirect to another
//! origin is an error before anything is sent there, so that what the client sends its server
//! (the `Authorization` token, the headers of [`Config::with_header`](crate::Config::with_header),
//! the `Mcp-Session-Id`, a request's body) never reaches a host the server names.

use reqwest::redirect::{Action, Attempt, Policy};

/// The most redirects one request follows (all within its origin).
pub const MAX_REDIRECTS: usize = 5;

/// The client's redirect policy (see the module's documentation).
pub(crate) fn same_origin() -> Policy {
    Policy::custom(decide)
}

/// Follows `attempt` when it stays within the origin of the first URL asked and the chain is
/// not too long; an error otherwise.
fn decide(attempt: Attempt<'_>) -> Action {
    let Some(first) = attempt.previous().first() else {
        return attempt.stop();
    };
    let (from, to) = (first.origin(), attempt.url().origin());
    if from != to {
        let refused = Refused::OtherOrigin {
            from: from.ascii_serialization(),
            to: attempt.url().to_string(),
        };
        return attempt.error(refused);
    }
    if attempt.previous().len() > MAX_REDIRECTS {
        return attempt.error(Refused::TooMany);
    }
    attempt.follow()
}

/// Why a redirect was not followed.
#[derive(Debug)]
enum Refused {
    /// It points to another origin.
    OtherOrigin {
        /// The origin of the URL asked.
        from: String,
        /// Where the redirect points.
        to: String,
    },
    /// The chain is longer than [`MAX_REDIRECTS`].
    TooMany,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::OtherOrigin { from, to } => write!(
                f,
                "the server at {from} redirected to {to}, another origin: not followed (the \
                 client's headers, token and body go to its server's origin only)"
            ),
            Refused::TooMany => write!(f, "more than {MAX_REDIRECTS} redirects: not followed"),
        }
    }
}

impl std::error::Error for Refused {}
