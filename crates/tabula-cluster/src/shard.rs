//! A shard's place in its job, and the options every shardable command takes.
//!
//! Shard `K/N` of a job of `n` items (opening pairs, games, input lines) takes the items
//! `n·K/N .. n·(K+1)/N`: contiguous, in order, every item in exactly one shard, the shards' sizes within one of
//! each other. A KMC ensemble's shards are its trajectories, one each.
//!
//! # Examples
//!
//! ```
//! use tabula_cluster::shard::Shard;
//!
//! let shards: Vec<_> = (0..3).map(|index| Shard { index, count: 3 }.range(10)).collect();
//! assert_eq!(shards, [0..3, 3..6, 6..10]);
//! assert!("3/3".parse::<Shard>().is_err());
//! assert_eq!("2/3".parse::<Shard>().unwrap().to_string(), "2/3");
//! ```

use std::fmt;
use std::ops::Range;
use std::path::PathBuf;
use std::str::FromStr;

/// Shard `index` of `count`, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: usize,
    /// How many shards the job has.
    pub count: usize,
}

impl Shard {
    /// The items of `total` that this shard takes.
    pub fn range(&self, total: usize) -> Range<usize> {
        let at = |k: usize| (total as u128 * k as u128 / self.count.max(1) as u128) as usize;
        at(self.index)..at(self.index + 1)
    }
}

/// A shard that does not parse: not `K/N` with `K < N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad shard `{0}` (expected K/N with 0 <= K < N, such as `3/8`)")]
pub struct ShardError(pub String);

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let error = || ShardError(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(error)?;
        let index: usize = index.trim().parse().map_err(|_| error())?;
        let count: usize = count.trim().parse().map_err(|_| error())?;
        if index >= count {
            return Err(error());
        }
        Ok(Shard { index, count })
    }
}

/// `K/N`.
impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The options a shardable command takes: which shard to run, the result file to write, and the job it belongs
/// to. `tabula cluster` appends them to a job's command, one shard a line.
#[derive(Clone, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct ShardArgs {
    /// Run shard K of N (from 0) of the job, and write its result file instead of the usual output.
    #[arg(long, value_name = "K/N", requires = "result")]
    pub shard: Option<Shard>,
    /// The shard's result file (written aside, then renamed).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub result: Option<PathBuf>,
    /// The job's identity, recorded in the result so that a merge refuses another job's results.
    #[arg(long = "job", value_name = "ID", requires = "shard", default_value = "-")]
    pub job: String,
}

/// A shard to run: the parsed [`ShardArgs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardTarget {
    /// Which shard.
    pub shard: Shard,
    /// Where its result goes.
    pub result: PathBuf,
    /// The job's identity.
    pub job: String,
}

impl ShardArgs {
    /// The shard to run, if the command was given one.
    pub fn target(&self) -> Option<ShardTarget> {
        let (shard, result) = (self.shard?, self.result.clone()?);
        Some(ShardTarget { shard, result, job: self.job.clone() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_in_exactly_one_shard() {
        for total in [0, 1, 7, 64, 1001] {
            for count in [1, 2, 3, 8, 50] {
                let mut next = 0;
                for index in 0..count {
                    let range = Shard { index, count }.range(total);
                    assert_eq!(range.start, next);
                    assert!(range.len() <= total / count + 1);
                    next = range.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn bad_shards_are_named() {
        for bad in ["3", "a/2", "2/2", "1/0", "-1/3"] {
            assert_eq!(bad.parse::<Shard>().unwrap_err().to_string(), ShardError(bad.into()).to_string());
        }
        assert_eq!(" 1 / 4 ".trim().parse::<Shard>().unwrap(), Shard { index: 1, count: 4 });
    }
}
