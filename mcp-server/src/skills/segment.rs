//! A file or directory name as one segment of a `skill://` URI.

/// `name` with every byte but ASCII letters, digits and `-._~` percent-encoded (uppercase
/// hex), so that it is both a valid URI path segment and a valid authority (RFC 3986
/// reg-name) when it is the first segment.
pub fn encode(name: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
    }
    out
}

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
