//! The driver: submit a job's shards, follow them, merge as results land, cancel once the job has decided,
//! submit a failed shard again a bounded number of times.
//!
//! Every step reads the job directory's files and Slurm's queue, and writes what it did to the `state` file:
//! nothing is kept in memory from one step to the next, so that [`Driver::follow`] can be started again on a job
//! whose submitting process is gone, and [`Driver::status`], [`Driver::merge`] and [`Driver::cancel`] work
//! at any time.
//!
//! One step of [`Driver::follow`], every `poll` seconds:
//! 1. ask `squeue` which of the job's tasks are still queued or running (before reading the results, so that
//!    a task that ends in between is seen with its result);
//! 2. read the results ([`collect`](crate::collect)); a damaged result of one of the job's shards is moved
//!    aside (`results/.shard-K.result.set-aside-TIME`) and its shard counts as failed;
//! 3. ask the job's kind for its progress ([`Merge::progress`]) and print it when it changes; if the job has
//!    decided (an SPRT), cancel its tasks and stop;
//! 4. a shard with no result and no task is failed: submit the failed shards again, as one array, while each
//!    has been submitted at most `1 + retries` times; give up on the others;
//! 5. stop when every shard has its result, or when nothing is left in the queue.
//!
//! Then it merges what landed ([`Driver::merge`]).

use crate::collect::Collected;
use crate::job::{compress, Event, JobDir, JobError};
use crate::slurm::{self, SlurmError};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// A kind's error: what went wrong while reading or merging its results.
pub type KindError = Box<dyn std::error::Error + Send + Sync>;

/// Where a job stands, as its kind sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// One line: shards, games, Elo and LLR so far, or trajectories done.
    pub line: String,
    /// What the job decided before every shard ran, if it did (an SPRT's verdict): the shards still queued
    /// are then cancelled.
    pub decided: Option<String>,
}

/// How a kind of job merges its results.
pub trait Merge {
    /// Its progress from the results landed so far.
    ///
    /// # Errors
    ///
    /// A result whose body the kind cannot read, or results that do not belong together.
    fn progress(&self, collected: &Collected) -> Result<Progress, KindError>;

    /// Writes the merged output of the results landed into `dir` (which exists) and returns the text to print:
    /// the table, with the shards missing named.
    ///
    /// # Errors
    ///
    /// As [`Merge::progress`], or a file that cannot be written.
    fn merge(&self, collected: &Collected, dir: &Path) -> Result<String, KindError>;
}

/// Why the driver stopped.
#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    /// The job directory.
    #[error(transparent)]
    Job(#[from] JobError),
    /// A Slurm command.
    #[error(transparent)]
    Slurm(#[from] SlurmError),
    /// Files in `results/` that are not whole results of this job; a merge refuses to go on.
    #[error("{} refused:\n{}", if refused.len() == 1 { "a result file is" } else { "result files are" },
        refused.iter().map(|r| format!("  {r}")).collect::<Vec<_>>().join("\n"))]
    Refused {
        /// Each file and why.
        refused: Vec<crate::collect::Refused>,
    },
    /// The kind could not read or merge its results.
    #[error("{0}")]
    Kind(KindError),
    /// The merged directory could not be made.
    #[error("{}: {source}", path.display())]
    Io {
        /// The directory.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// How a [`Driver::follow`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every shard has its result.
    Complete,
    /// The job decided; its remaining tasks were cancelled.
    Decided(String),
    /// The job was cancelled (by `tabula cluster cancel`, or another driver).
    Cancelled(String),
    /// These shards failed every time they ran.
    GaveUp(Vec<usize>),
}

/// A job and its kind.
pub struct Driver<'a> {
    /// The job.
    pub job: &'a JobDir,
    /// How its results merge.
    pub kind: &'a dyn Merge,
}

impl Driver<'_> {
    /// Submits every shard that has no result yet, as one array; returns its id (`None` when every shard has
    /// its result).
    ///
    /// # Errors
    ///
    /// [`DriverError`]: the directory or `sbatch`.
    pub fn submit(&self) -> Result<Option<u64>, DriverError> {
        let pending = self.job.collect()?.missing();
        if pending.is_empty() {
            return Ok(None);
        }
        let array = slurm::submit(self.job, &pending)?;
        self.job.log(&Event::Submitted { at: crate::unix_now(), array, shards: pending })?;
        Ok(Some(array))
    }

    /// Follows the job until it is complete, decided, cancelled or out of tries (see the module's steps),
    /// writing progress lines to `out`, then merges what landed.
    ///
    /// # Errors
    ///
    /// [`DriverError`]: the directory, Slurm, or the kind.
    pub fn follow(&self, out: &mut dyn Write) -> Result<(Ending, String), DriverError> {
        let started = Instant::now();
        let mut shown = String::new();
        let ending = loop {
            if let Some(why) = self.cancelled()? {
                break Ending::Cancelled(why);
            }
            // Step 1.
            let arrays = self.job.arrays()?;
            let queued = slurm::queued(&arrays)?;
            // Step 2.
            let mut collected = self.job.collect()?;
            if self.set_aside(&collected)? {
                collected = self.job.collect()?;
            }
            // Step 3.
            let progress = self.kind.progress(&collected).map_err(DriverError::Kind)?;
            let running = queued.values().filter(|s| *s == "RUNNING").count();
            let line = format!("{}  (running {running}, queued {})", progress.line, queued.len() - running);
            if line != shown {
                let _ = writeln!(out, "[{:>6.1} s] {line}", started.elapsed().as_secs_f64());
                shown = line;
            }
            if let Some(text) = progress.decided {
                self.job.log(&Event::Decided { text: text.clone() })?;
                self.cancel(&format!("arrays {} (the job decided)", compress_ids(&arrays)))?;
                break Ending::Decided(text);
            }
            if collected.is_complete() {
                break Ending::Complete;
            }
            // Step 4.
            let attempts = self.job.attempts()?;
            let failed: Vec<usize> =
                collected.missing().into_iter().filter(|k| !queued.contains_key(k) && attempts[*k] > 0).collect();
            let (again, lost): (Vec<usize>, Vec<usize>) =
                failed.iter().partition(|&&k| attempts[k] <= self.job.file.retries);
            if !again.is_empty() {
                let array = slurm::submit(self.job, &again)?;
                let _ = writeln!(
                    out,
                    "shards {} ended without a result; submitted again as array {array}",
                    compress(&again)
                );
                self.job.log(&Event::Submitted { at: crate::unix_now(), array, shards: again })?;
                continue;
            }
            // Step 5.
            if queued.is_empty() {
                if lost.is_empty() {
                    // Shards never submitted: submit them (a job planned with --dry-run).
                    if self.submit()?.is_some() {
                        continue;
                    }
                    break Ending::Complete;
                }
                self.job.log(&Event::GaveUp { shards: lost.clone() })?;
                break Ending::GaveUp(lost);
            }
            std::thread::sleep(Duration::from_secs_f64(self.job.file.poll));
        };
        let table = self.merge()?;
        Ok((ending, table))
    }

    /// Moves aside damaged results of the job's own shards (`results/shard-K.result`), so that those shards
    /// run again; says whether it moved any.
    fn set_aside(&self, collected: &Collected) -> Result<bool, DriverError> {
        let mut moved = false;
        for refused in &collected.refused {
            let Some(shard) = (0..self.job.file.shards).find(|&k| self.job.result_path(k) == refused.path) else {
                continue;
            };
            let name = refused.path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let aside = refused.path.with_file_name(format!(".{name}.set-aside-{:.0}", crate::unix_now() * 1000.0));
            std::fs::rename(&refused.path, &aside)
                .map_err(|source| DriverError::Io { path: refused.path.clone(), source })?;
            self.job.log(&Event::SetAside { shard, what: refused.to_string() })?;
            moved = true;
        }
        Ok(moved)
    }

    /// Why the job was cancelled, if it was.
    fn cancelled(&self) -> Result<Option<String>, DriverError> {
        Ok(self.job.events()?.into_iter().find_map(|e| match e {
            Event::Cancelled { why } => Some(why),
            _ => None,
        }))
    }

    /// Cancels every task of the job and records why.
    ///
    /// # Errors
    ///
    /// [`DriverError`]: the directory, or `scancel`.
    pub fn cancel(&self, why: &str) -> Result<(), DriverError> {
        slurm::cancel(&self.job.arrays()?)?;
        self.job.log(&Event::Cancelled { why: why.to_string() })?;
        Ok(())
    }

    /// Merges the results landed into `merged/` and returns the kind's table, followed by the duplicates
    /// skipped and the shards missing. Merging again without new results writes the same files.
    ///
    /// # Errors
    ///
    /// [`DriverError::Refused`] naming each damaged or foreign file and why; [`DriverError::Kind`] when the
    /// kind cannot merge.
    pub fn merge(&self) -> Result<String, DriverError> {
        let collected = self.job.collect()?;
        if !collected.refused.is_empty() {
            return Err(DriverError::Refused { refused: collected.refused });
        }
        let dir = self.job.merged_dir();
        std::fs::create_dir_all(&dir).map_err(|source| DriverError::Io { path: dir.clone(), source })?;
        let mut table = self.kind.merge(&collected, &dir).map_err(DriverError::Kind)?;
        for duplicate in &collected.duplicates {
            let same = if duplicate.same_body { "the same body" } else { "a different body" };
            table.push_str(&format!(
                "skipped {}: another result of shard {} ({same})\n",
                duplicate.path.display(),
                duplicate.shard
            ));
        }
        Ok(table)
    }

    /// Where the job stands: results landed, tasks queued and running, shards failed, missing and refused,
    /// the kind's progress, and how long the shards waited for Slurm and ran.
    ///
    /// # Errors
    ///
    /// [`DriverError`]: the directory, Slurm or the kind.
    pub fn status(&self) -> Result<String, DriverError> {
        let events = self.job.events()?;
        let arrays = self.job.arrays()?;
        let queued = slurm::queued(&arrays)?;
        let collected = self.job.collect()?;
        let attempts = self.job.attempts()?;
        let mut text = format!(
            "job {} ({}), {} shards of kind {}\n",
            self.job.id,
            self.job.name(),
            self.job.file.shards,
            self.job.file.kind
        );
        let running: Vec<usize> = queued.iter().filter(|(_, s)| *s == "RUNNING").map(|(k, _)| *k).collect();
        let waiting: Vec<usize> = queued.keys().filter(|k| !running.contains(k)).copied().collect();
        let failed: Vec<usize> =
            collected.missing().into_iter().filter(|k| !queued.contains_key(k) && attempts[*k] > 0).collect();
        let never: Vec<usize> = collected.missing().into_iter().filter(|k| attempts[*k] == 0).collect();
        let list = |shards: &[usize]| if shards.is_empty() { "-".to_string() } else { compress(shards) };
        // After a decision or a cancel, the shards without a result were cancelled, not failed.
        let stopped = events.iter().any(|e| matches!(e, Event::Cancelled { .. }));
        text.push_str(&format!(
            "landed {}  running {}  queued {}  {} {}  not submitted {}\n",
            collected.results.len(),
            list(&running),
            list(&waiting),
            if stopped { "cancelled" } else { "ended without a result" },
            list(&failed),
            list(&never)
        ));
        text.push_str(&format!("arrays {}\n", if arrays.is_empty() { "-".to_string() } else { compress_ids(&arrays) }));
        for event in &events {
            match event {
                Event::Decided { .. } | Event::Cancelled { .. } | Event::GaveUp { .. } | Event::SetAside { .. } => {
                    text.push_str(&format!("{event}\n"))
                }
                _ => {}
            }
        }
        for refused in &collected.refused {
            text.push_str(&format!("refused {refused}\n"));
        }
        if let Some(timing) = timing(&events, &collected) {
            text.push_str(&timing);
        }
        let progress = self.kind.progress(&collected).map_err(DriverError::Kind)?;
        text.push_str(&progress.line);
        text.push('\n');
        Ok(text)
    }
}

fn compress_ids(ids: &[u64]) -> String {
    ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// The times of the results landed: from the submission of a shard's last array to its start (Slurm's share),
/// and from its start to its end (the shard's own), as medians and maxima.
pub fn timing(events: &[Event], collected: &Collected) -> Option<String> {
    let mut waits = Vec::new();
    let mut runs = Vec::new();
    for result in collected.in_order() {
        let value = |key| result.measured_value(key).and_then(|v| v.parse::<f64>().ok());
        let (Some(started), Some(finished)) = (value("started"), value("finished")) else { continue };
        let submitted = events.iter().rev().find_map(|e| match e {
            Event::Submitted { at, shards, .. } if shards.contains(&result.shard.index) && *at <= started + 1.0 => {
                Some(*at)
            }
            _ => None,
        });
        if let Some(submitted) = submitted {
            waits.push(started - submitted);
        }
        runs.push(finished - started);
    }
    if runs.is_empty() {
        return None;
    }
    let describe = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        let median = values[values.len() / 2];
        format!("median {median:.2} s, max {:.2} s over {}", values[values.len() - 1], values.len())
    };
    let mut text = String::new();
    if !waits.is_empty() {
        text.push_str(&format!("submit to start: {}\n", describe(&mut waits)));
    }
    text.push_str(&format!("shard run time: {}\n", describe(&mut runs)));
    Some(text)
}
