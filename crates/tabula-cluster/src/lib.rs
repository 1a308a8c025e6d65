//! Long batch jobs past one machine: split into deterministic shards, run anywhere, merged from files.
//!
//! A **job** (a match, a KMC ensemble, training data) is split into shards that do not depend on each other.
//! Each shard is an ordinary command given [`shard::ShardArgs`] (`--shard K/N --result FILE --job ID`); it
//! writes one [`envelope::ShardResult`] file, atomically ([`atomic::write`]), so that a shard killed half-way
//! leaves nothing behind that a merge could read. The same commands run under Slurm, GNU parallel or one after
//! another on a laptop.
//!
//! - [`shard`]: a shard's place in its job and the options every shardable command takes.
//! - [`envelope`]: the versioned result file, its digests and why a damaged one is refused.
//! - [`atomic`]: written aside, then renamed.
//! - [`collect`]: what a results directory holds: one result per shard, duplicates skipped, damaged or foreign
//!   files refused by name, missing shards named.
//! - [`lines`]: the merge of line-oriented data (training positions): one file, with counts.
//! - [`job`]: the job file and the job directory, whose files hold all the state.
//! - [`slurm`]: the `sbatch --array` script, `sbatch`, `squeue` and `scancel`.
//! - [`driver`]: submit, follow, merge as results land, cancel when the job has decided, resubmit failures.
//!
//! The crate knows nothing of any game: a job's kind says how its results merge, through [`driver::Merge`].
//!
//! # Examples
//!
//! ```
//! use tabula_cluster::collect::collect;
//! use tabula_cluster::envelope::ShardResult;
//! use tabula_cluster::shard::Shard;
//!
//! let dir = std::env::temp_dir().join(format!("tabula-cluster-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let shard = Shard { index: 1, count: 3 };
//! let result = ShardResult::new("job-1", "lines", shard, "x\n", "");
//! tabula_cluster::atomic::write(&dir.join("shard-0001.result"), result.to_text().as_bytes()).unwrap();
//! let collected = collect(&dir, "job-1", "lines", 3).unwrap();
//! assert_eq!(collected.missing(), [0, 2]);
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![deny(missing_docs)]

pub mod atomic;
pub mod collect;
pub mod driver;
pub mod envelope;
pub mod job;
pub mod lines;
pub mod shard;
pub mod slurm;

/// FNV-1a over 64 bits: the digest of result files and job identities. It detects damage (a truncated,
/// altered or mixed-up file), not tampering.
///
/// # Examples
///
/// ```
/// assert_eq!(tabula_cluster::fnv1a(b""), 0xcbf2_9ce4_8422_2325);
/// assert_ne!(tabula_cluster::fnv1a(b"a"), tabula_cluster::fnv1a(b"b"));
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Seconds since the Unix epoch, with milliseconds, for the times a result and the job's state record.
pub fn unix_now() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
