//! The bytes of one file in a `resources/read` result.

use std::fmt;

use base64::Engine as _;
use serde_json::Value;

/// Why a `resources/read` result does not give the bytes of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentError {
    /// The result has no `contents` array.
    NoContents {
        /// The URI that was read.
        uri: String,
    },
    /// No content item has this URI.
    Absent {
        /// The URI that was read.
        uri: String,
    },
    /// Several content items have this URI: which one is the file is not known.
    Ambiguous {
        /// The URI that was read.
        uri: String,
        /// How many items have it.
        count: usize,
    },
    /// The item has neither a string `text` nor a string `blob`, or has both.
    NoData {
        /// The URI that was read.
        uri: String,
    },
    /// The item's `blob` is not standard base64.
    Base64 {
        /// The URI that was read.
        uri: String,
        /// The decoder's message.
        reason: String,
    },
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContentError::NoContents { uri } => {
                write!(
                    f,
                    "resources/read of {uri}: the result has no `contents` array"
                )
            }
            ContentError::Absent { uri } => {
                write!(f, "resources/read of {uri}: no content item has this uri")
            }
            ContentError::Ambiguous { uri, count } => write!(
                f,
                "resources/read of {uri}: {count} content items have this uri, not one"
            ),
            ContentError::NoData { uri } => write!(
                f,
                "resources/read of {uri}: the content item has neither a string `text` nor a \
                 string `blob`, or has both"
            ),
            ContentError::Base64 { uri, reason } => write!(
                f,
                "resources/read of {uri}: the content item's `blob` is not base64: {reason}"
            ),
        }
    }
}

impl std::error::Error for ContentError {}

/// The bytes of the content item with `uri` in a `resources/read` result (its `contents`
/// array): a `text` item's UTF-8 bytes, a `blob` item's base64 decoded. Exactly one item must
/// have that URI.
///
/// The bytes are not verified: hand them to
/// [`HeldEntry::verify`](super::HeldEntry::verify) before using them.
pub fn content_bytes(read_result: &Value, uri: &str) -> Result<Vec<u8>, ContentError> {
    let contents = read_result
        .get("contents")
        .and_then(Value::as_array)
        .ok_or_else(|| ContentError::NoContents { uri: uri.into() })?;
    let mut matching = contents
        .iter()
        .filter(|item| item.get("uri").and_then(Value::as_str) == Some(uri));
    let item = matching
        .next()
        .ok_or_else(|| ContentError::Absent { uri: uri.into() })?;
    let others = matching.count();
    if others > 0 {
        return Err(ContentError::Ambiguous {
            uri: uri.into(),
            count: others + 1,
        });
    }
    let text = item.get("text").and_then(Value::as_str);
    let blob = item.get("blob").and_then(Value::as_str);
    match (text, blob) {
        (Some(text), None) => Ok(text.as_bytes().to_vec()),
        (None, Some(blob)) => base64::engine::general_purpose::STANDARD
            .decode(blob)
            .map_err(|e| ContentError::Base64 {
                uri: uri.into(),
                reason: e.to_string(),
            }),
        _ => Err(ContentError::NoData { uri: uri.into() }),
    }
}
