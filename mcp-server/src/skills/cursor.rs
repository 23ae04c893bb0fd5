//! Pages of a sorted list, and the opaque cursors between them.

/// A page of a list, and the cursor of the next page when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// This page's items, in list order.
    pub items: Vec<T>,
    /// The cursor to pass for the next page; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// A cursor this catalog did not give for this list (garbled, from another list, or naming
/// an item the list does not hold). A server answers it with invalid params (-32602).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid cursor: not one this server gave for this list")]
pub struct BadCursor;

/// The tag that starts every cursor of a list kind, so that a cursor of one list is refused
/// by another.
#[derive(Debug, Clone, Copy)]
pub(crate) enum List {
    /// The skill entries.
    Entries,
    /// The children of a directory.
    Directory,
}

impl List {
    fn tag(self) -> &'static str {
        match self {
            List::Entries => "se1.",
            List::Directory => "sd1.",
        }
    }
}

/// The cursor that resumes after the item whose key is `key`: the list's tag and the key in
/// lowercase hex.
fn encode(list: List, key: &str) -> String {
    format!(
        "{}{}",
        list.tag(),
        base16ct::lower::encode_string(key.as_bytes())
    )
}

/// The key a cursor of `list` resumes after.
fn decode(list: List, cursor: &str) -> Result<String, BadCursor> {
    let hex = cursor.strip_prefix(list.tag()).ok_or(BadCursor)?;
    let bytes = base16ct::lower::decode_vec(hex).map_err(|_| BadCursor)?;
    String::from_utf8(bytes).map_err(|_| BadCursor)
}

/// The page of `items` (sorted by `key`, keys unique) that follows `cursor` (from the start
/// without one), at most `page_size` items (0 is taken as 1).
pub(crate) fn page<'a, T, U>(
    items: &'a [T],
    key: impl Fn(&T) -> &str,
    map: impl Fn(&'a T) -> U,
    list: List,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<Page<U>, BadCursor> {
    let start = match cursor {
        None => 0,
        Some(cursor) => {
            let after = decode(list, cursor)?;
            let at = items
                .binary_search_by(|item| key(item).cmp(after.as_str()))
                .map_err(|_| BadCursor)?;
            at + 1
        }
    };
    let end = start.saturating_add(page_size.max(1)).min(items.len());
    let slice = items.get(start..end).unwrap_or_default();
    let next_cursor = match slice.last() {
        Some(last) if end < items.len() => Some(encode(list, key(last))),
        _ => None,
    };
    Ok(Page {
        items: slice.iter().map(map).collect(),
        next_cursor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(items: &[&str], size: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut cursor = None;
        loop {
            let p = page(
                items,
                |s| s,
                |s| s.to_string(),
                List::Entries,
                cursor.as_deref(),
                size,
            )
            .expect("a page");
            out.extend(p.items);
            match p.next_cursor {
                Some(next) => cursor = Some(next),
                None => return out,
            }
        }
    }

    #[test]
    fn pages_cover_the_list_once() {
        let items = ["a", "b", "c", "d", "é/x"];
        for size in [0, 1, 2, 3, 5, 9] {
            assert_eq!(all(&items, size), items, "page size {size}");
        }
        assert_eq!(all(&[], 3), Vec::<String>::new());
    }

    #[test]
    fn cursors_round_trip_and_refuse_others() {
        assert_eq!(
            decode(List::Entries, &encode(List::Entries, "skill://é")),
            Ok("skill://é".into())
        );
        assert_eq!(
            decode(List::Directory, &encode(List::Entries, "a")),
            Err(BadCursor)
        );
        for bad in ["", "se1.6", "se1.zz", "se1.ff", "se1.6G", "garbage"] {
            assert_eq!(decode(List::Entries, bad), Err(BadCursor), "{bad}");
        }
        let unknown = encode(List::Entries, "zzz");
        let result = page(&["a", "b"], |s| s, |s| *s, List::Entries, Some(&unknown), 1);
        assert_eq!(result, Err(BadCursor));
    }
}
