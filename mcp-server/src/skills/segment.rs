//! A file or directory name as one segment of a `skill://` URI.

/// `name` with every byte but ASCII letters, digits and `-._~` percent-encoded (uppercase
/// hex), so that it is both a valid URI path segment and a valid authority (RFC 3986
/// reg-name) when it is the first segment.
pub fn encode(name: &str) -> String {
    percent_encoding::utf8_percent_encode(name, ENCODED).to_string()
}

/// Every byte but the unreserved ones of RFC 3986 (letters, digits, `-._~`).
const ENCODED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

#[cfg(test)]
mod tests {
    use super::encode;

    #[test]
    fn keeps_unreserved_and_encodes_the_rest() {
        assert_eq!(encode("pdf-processing_v1.2~x"), "pdf-processing_v1.2~x");
        assert_eq!(encode("a b/c%d"), "a%20b%2Fc%25d");
        assert_eq!(encode("é"), "%C3%A9");
        assert_eq!(encode("user@host:1"), "user%40host%3A1");
    }
}
