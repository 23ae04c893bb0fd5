//! Opening a file the walk found without following a symbolic link, and checking that what
//! is opened is the file the walk saw: a link, a FIFO or another file swapped in between the
//! walk and the read (at the file's own name or at a directory above it) is refused, never read.
//!
//! On unix the file is opened with `O_NOFOLLOW` (a link at its name fails to open) and
//! `O_NONBLOCK` (a FIFO swapped in does not block the load), then its device and inode are
//! compared with those the walk saw. Elsewhere the name is checked not to be a link just before
//! it is opened, and the opened file to be a regular file.

use std::fs::{File, Metadata};
use std::io;
use std::path::Path;

/// What the walk saw of a regular file, to recognise it when it is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Seen {
    /// Its device and inode (unix); nothing elsewhere.
    #[cfg(unix)]
    identity: (u64, u64),
}

impl Seen {
    /// What `meta` (the walk's metadata of the entry, links not followed) says of the file.
    pub(super) fn of(meta: &Metadata) -> Seen {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Seen {
                identity: (meta.dev(), meta.ino()),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            Seen {}
        }
    }

    /// Whether `meta`, of an opened file, is a regular file and the one seen.
    fn is(&self, meta: &Metadata) -> bool {
        meta.is_file() && *self == Seen::of(meta)
    }
}

/// Why a walked file was not opened.
#[derive(Debug)]
pub(super) enum OpenError {
    /// Its name is now a symbolic link, or it is not the regular file the walk saw.
    Swapped,
    /// It could not be opened or inspected.
    Io(io::Error),
}

/// The file at `path`, opened for reading without following a link, if it is the one `seen`.
pub(super) fn open_seen(path: &Path, seen: &Seen) -> Result<File, OpenError> {
    let file = open_no_follow(path)?;
    let meta = file.metadata().map_err(OpenError::Io)?;
    if seen.is(&meta) {
        Ok(file)
    } else {
        Err(OpenError::Swapped)
    }
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> Result<File, OpenError> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            // What `open` says of a link at the last name under `O_NOFOLLOW`.
            Some(libc::ELOOP) => OpenError::Swapped,
            _ => OpenError::Io(e),
        })
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> Result<File, OpenError> {
    let meta = std::fs::symlink_metadata(path).map_err(OpenError::Io)?;
    if meta.file_type().is_symlink() {
        return Err(OpenError::Swapped);
    }
    File::open(path).map_err(OpenError::Io)
}
