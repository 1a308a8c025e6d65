//! Files written aside, then renamed: a reader sees the whole file or none of it.
//!
//! [`write`](fn@write) writes `.NAME.tmp-PID` in the same directory, flushes it to disk, renames it to `NAME` and flushes
//! the directory. A process killed before the rename leaves only the hidden temporary file, which
//! [`collect`](crate::collect) does not read; on one file system a rename is atomic, so a result is never seen
//! half-written, also across the nodes of a shared file system that keeps POSIX rename semantics (NFS does).
//!
//! # Examples
//!
//! ```
//! let path = std::env::temp_dir().join(format!("tabula-atomic-doc-{}.txt", std::process::id()));
//! tabula_cluster::atomic::write(&path, b"whole\n").unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"whole\n");
//! # std::fs::remove_file(&path).unwrap();
//! ```

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file that could not be written, with its name.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub source: io::Error,
}

/// The hidden temporary name `path` is written under before it is renamed.
pub fn temporary(path: &Path) -> PathBuf {
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Writes `bytes` to `path` atomically: aside, flushed, renamed, the directory flushed.
///
/// # Errors
///
/// [`WriteError`] naming `path`; the temporary file is removed.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let error = |source| WriteError { path: path.to_path_buf(), source };
    let aside = temporary(path);
    let written = (|| {
        let mut file = File::create(&aside)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&aside, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&aside);
        return Err(error(e));
    }
    // The rename is durable once the directory is; a directory that cannot be opened (some systems) is no error.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_names_the_file_and_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("tabula-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("result");
        write(&path, b"one").unwrap();
        write(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let missing = dir.join("no-such-dir").join("result");
        let err = write(&missing, b"x").unwrap_err();
        assert!(err.to_string().starts_with(&format!("cannot write {}", missing.display())), "{err}");
        let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, ["result"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
