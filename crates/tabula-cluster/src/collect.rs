//! What a results directory holds: at most one result per shard of one job, and the files refused.
//!
//! [`collect`] reads every file of the directory whose name does not start with `.` (the hidden files are
//! [`atomic`](crate::atomic) writes under way, or left by a shard killed before its rename). Each file is read
//! whole and checked ([`ShardResult::parse_bytes`]); then
//! - a file that is damaged, of another job, of another kind or of another shard count is **refused**, with its
//!   name and the reason;
//! - a second result of a shard already read (names are read in order) is a **duplicate**, skipped: a shard run
//!   twice, or a result copied in again; it is noted whether its body is the same;
//! - a shard with no result is **missing**.
//!
//! Reading is all it does: collecting twice gives the same answer, and a merge built on it changes nothing the
//! second time.
//!
//! # Examples
//!
//! ```
//! use tabula_cluster::collect::collect;
//! use tabula_cluster::envelope::ShardResult;
//! use tabula_cluster::shard::Shard;
//!
//! let dir = std::env::temp_dir().join(format!("tabula-collect-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let write = |name: &str, job: &str, index: usize| {
//!     let result = ShardResult::new(job, "lines", Shard { index, count: 2 }, "x\n", "");
//!     std::fs::write(dir.join(name), result.to_text()).unwrap();
//! };
//! write("a.result", "job-1", 0);
//! write("b.result", "job-1", 0); // the same shard again
//! write("c.result", "job-2", 1); // another job's
//! let collected = collect(&dir, "job-1", "lines", 2).unwrap();
//! assert_eq!((collected.results.len(), collected.duplicates.len(), collected.missing()), (1, 1, vec![1]));
//! assert!(collected.refused[0].to_string().contains("c.result: belongs to job job-2, not job-1"));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::envelope::ShardResult;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// A file that is not one of the job's results, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The file.
    pub path: PathBuf,
    /// Why it is refused.
    pub reason: String,
}

/// `FILE: reason`.
impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

/// A second result of a shard, skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The file skipped.
    pub path: PathBuf,
    /// The shard it is a result of.
    pub shard: usize,
    /// Whether its body is the same bits as the result kept.
    pub same_body: bool,
}

/// The results of a job found in a directory.
#[derive(Clone, Debug, Default)]
pub struct Collected {
    /// The shards' results by shard number, with the file each was read from.
    pub results: BTreeMap<usize, (PathBuf, ShardResult)>,
    /// Further results of shards already read, skipped.
    pub duplicates: Vec<Duplicate>,
    /// Files that are not the job's results.
    pub refused: Vec<Refused>,
    /// How many shards the job has.
    pub count: usize,
}

impl Collected {
    /// The shards with no result, in order.
    pub fn missing(&self) -> Vec<usize> {
        (0..self.count).filter(|k| !self.results.contains_key(k)).collect()
    }

    /// Whether every shard has a result.
    pub fn is_complete(&self) -> bool {
        self.results.len() == self.count
    }

    /// The results in shard order.
    pub fn in_order(&self) -> impl Iterator<Item = &ShardResult> {
        self.results.values().map(|(_, result)| result)
    }

    /// The results of the shards `0..k` where `k` is the first missing shard: those a merge in order can count.
    pub fn prefix(&self) -> impl Iterator<Item = &ShardResult> {
        self.results.iter().enumerate().take_while(|(i, (k, _))| i == *k).map(|(_, (_, (_, result)))| result)
    }
}

/// Reads the results of job `job` (of kind `kind`, in `count` shards) from `dir`.
///
/// # Errors
///
/// The directory cannot be listed. A file that cannot be read is refused, not an error.
pub fn collect(dir: &Path, job: &str, kind: &str, count: usize) -> std::io::Result<Collected> {
    let mut names: Vec<PathBuf> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if !hidden && entry.file_type()?.is_file() {
            names.push(entry.path());
        }
    }
    names.sort();
    let mut collected = Collected { count, ..Collected::default() };
    for path in names {
        let reason = match std::fs::read(&path) {
            Err(e) => Err(format!("cannot read: {e}")),
            Ok(bytes) => match ShardResult::parse_bytes(&bytes) {
                Err(e) => Err(e.to_string()),
                Ok(result) if result.job != job => Err(format!("belongs to job {}, not {job}", result.job)),
                Ok(result) if result.kind != kind => Err(format!("is a {} result, not {kind}", result.kind)),
                Ok(result) if result.shard.count != count => {
                    Err(format!("is shard {} of a job of {} shards, not {count}", result.shard, result.shard.count))
                }
                Ok(result) => Ok(result),
            },
        };
        match reason {
            Err(reason) => collected.refused.push(Refused { path, reason }),
            Ok(result) => {
                let shard = result.shard.index;
                if let Some((_, kept)) = collected.results.get(&shard) {
                    let same_body = kept.body == result.body;
                    collected.duplicates.push(Duplicate { path, shard, same_body });
                } else {
                    collected.results.insert(shard, (path, result));
                }
            }
        }
    }
    Ok(collected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::Shard;

    #[test]
    fn damaged_files_are_refused_by_name_and_temporary_files_unread() {
        let dir = std::env::temp_dir().join(format!("tabula-collect-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let result = |index| ShardResult::new("j", "lines", Shard { index, count: 4 }, format!("{index}\n"), "");
        std::fs::write(dir.join("shard-0000.result"), result(0).to_text()).unwrap();
        let text = result(1).to_text();
        std::fs::write(dir.join("shard-0001.result"), &text[..text.len() - 1]).unwrap();
        let mut altered = text.clone().into_bytes();
        let body_at = altered.len() - 2; // the body, "1\n", ends the file (nothing measured)
        altered[body_at] = b'7';
        std::fs::write(dir.join("shard-0002.result"), altered).unwrap();
        std::fs::write(dir.join(".shard-0003.result.tmp-99"), result(3).to_text()).unwrap();
        let wrong_count = ShardResult::new("j", "lines", Shard { index: 3, count: 5 }, "", "");
        std::fs::write(dir.join("shard-0003.result"), wrong_count.to_text()).unwrap();
        let c = collect(&dir, "j", "lines", 4).unwrap();
        assert_eq!(c.results.keys().copied().collect::<Vec<_>>(), [0]);
        assert_eq!(c.missing(), [1, 2, 3]);
        let refused: Vec<String> = c.refused.iter().map(ToString::to_string).collect();
        assert!(
            refused[0].ends_with("shard-0001.result: truncated: the header promises 2 bytes after it, the file has 1")
        );
        assert!(refused[1].contains("shard-0002.result: the body's digest is"), "{}", refused[1]);
        assert!(refused[2].ends_with("shard-0003.result: is shard 3/5 of a job of 5 shards, not 4"));
        assert_eq!(c.prefix().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
