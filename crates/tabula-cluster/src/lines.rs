//! The merge of line-oriented data, the training positions the lab's commands make: one file, with counts.
//!
//! A `lines` shard's body is its lines, in the order the shard wrote them. The merge writes `data.txt`, the
//! bodies one after another in shard order, and `counts.txt`, the lines of each shard and in all. With every
//! shard there, `data.txt` is the file one process would have written had it made the shards' items in order.
//!
//! # Examples
//!
//! ```
//! use tabula_cluster::collect::Collected;
//! use tabula_cluster::envelope::ShardResult;
//! use tabula_cluster::lines::merge;
//! use tabula_cluster::shard::Shard;
//!
//! let mut collected = Collected { count: 3, ..Collected::default() };
//! for (index, body) in [(0, "a\nb\n"), (2, "c\n")] {
//!     let result = ShardResult::new("j", "lines", Shard { index, count: 3 }, body, "");
//!     collected.results.insert(index, (format!("{index}").into(), result));
//! }
//! let (data, counts) = merge(&collected);
//! assert_eq!(data, "a\nb\nc\n");
//! assert!(counts.ends_with("lines 3 from 2 of 3 shards; missing: 1\n"));
//! ```

use crate::collect::Collected;
use crate::driver::{KindError, Merge, Progress};
use std::path::Path;

/// The kind's name in job files and result files.
pub const KIND: &str = "lines";

/// The merged data and the counts: `shard K lines N` a line, then the total and the shards missing.
pub fn merge(collected: &Collected) -> (String, String) {
    let mut data = String::new();
    let mut counts = String::new();
    let mut total = 0;
    for result in collected.in_order() {
        let lines = result.body.lines().count();
        total += lines;
        counts.push_str(&format!("shard {} lines {lines}\n", result.shard.index));
        data.push_str(&result.body);
    }
    let missing = collected.missing();
    counts.push_str(&format!("lines {total} from {} of {} shards", collected.results.len(), collected.count));
    if !missing.is_empty() {
        counts.push_str(&format!("; missing: {}", crate::job::compress(&missing)));
    }
    counts.push('\n');
    (data, counts)
}

/// The `lines` kind for the driver.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lines;

impl Merge for Lines {
    fn progress(&self, collected: &Collected) -> Result<Progress, KindError> {
        let lines: usize = collected.in_order().map(|r| r.body.lines().count()).sum();
        Ok(Progress {
            line: format!("shards {}/{}  lines {lines}", collected.results.len(), collected.count),
            decided: None,
        })
    }

    fn merge(&self, collected: &Collected, dir: &Path) -> Result<String, KindError> {
        let (data, counts) = merge(collected);
        crate::atomic::write(&dir.join("data.txt"), data.as_bytes())?;
        crate::atomic::write(&dir.join("counts.txt"), counts.as_bytes())?;
        Ok(counts)
    }
}
