//! `tabula cluster`: a long job's shards as a Slurm job array, followed, merged, cancelled; and `tabula kmc
//! study`, an ensemble in one process or one trajectory at a time. The machinery is `tabula_cluster`'s; this
//! module gives it the kinds of job the command knows: `match` (`tabula_match::shard`), `kmc`
//! (`tabula_kmc::ensemble`) and `lines` (the lab's training data).

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tabula_cluster::collect::Collected;
use tabula_cluster::driver::{Driver, Ending, KindError, Merge, Progress};
use tabula_cluster::job::JobDir;
use tabula_cluster::shard::ShardArgs;

/// What `tabula cluster` does.
#[derive(clap::Subcommand)]
pub enum ClusterAction {
    /// Lay out a job directory from a job file, submit its shards as a Slurm job array (`sbatch --array`), and
    /// follow them: merge results as they land, show progress, cancel the rest once an SPRT decides, submit a
    /// failed shard again; then print the merged table.
    Submit {
        /// The job file (TOML: kind, shards, command, retries, `[slurm]`).
        job: PathBuf,
        /// The job directory (the job file's name without `.toml` by default).
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Lay out the directory and print the batch script and the `sbatch` command, without submitting.
        #[arg(long)]
        dry_run: bool,
        /// Submit, then return; `tabula cluster follow DIR` takes over.
        #[arg(long)]
        no_follow: bool,
    },
    /// Follow a submitted job (after its submitting process is gone): as `submit` does after submitting.
    Follow {
        /// The job directory.
        dir: PathBuf,
    },
    /// Where a job stands: results landed, tasks running and queued, failures, refused files, timings, progress.
    Status {
        /// The job directory.
        dir: PathBuf,
    },
    /// Merge the results landed into DIR/merged and print the table; names the shards missing, refuses a
    /// damaged or foreign result file by name.
    Merge {
        /// The job directory.
        dir: PathBuf,
    },
    /// Cancel the job's tasks (`scancel`); a driver following it stops.
    Cancel {
        /// The job directory.
        dir: PathBuf,
    },
}

/// The merge of a job's kind.
fn kind(name: &str) -> Result<Box<dyn Merge>> {
    match name {
        tabula_match::shard::KIND => Ok(Box::new(MatchKind)),
        tabula_kmc::ensemble::KIND => Ok(Box::new(KmcKind)),
        tabula_cluster::lines::KIND => Ok(Box::new(tabula_cluster::lines::Lines)),
        other => anyhow::bail!("unknown job kind `{other}` (match, kmc or lines)"),
    }
}

/// Runs `tabula cluster`.
pub fn run(action: ClusterAction) -> Result<()> {
    match action {
        ClusterAction::Submit { job, output, dry_run, no_follow } => {
            let dir = output.unwrap_or_else(|| job.with_extension(""));
            anyhow::ensure!(dir != job, "give the job directory with -o (the job file has no .toml to drop)");
            let job = JobDir::plan(&job, &dir, tabula_cluster::slurm::script)?;
            let kind = kind(&job.file.kind)?;
            let driver = Driver { job: &job, kind: &*kind };
            if dry_run {
                print!("{}", std::fs::read_to_string(job.script_path())?);
                let shards: Vec<usize> = (0..job.file.shards).collect();
                let args = tabula_cluster::slurm::sbatch_args(&job, &shards);
                println!("# submit with: sbatch {}", args.join(" "));
                println!("# the shards, one command a line: {}", job.shards_path().display());
                return Ok(());
            }
            match driver.submit()? {
                Some(array) => {
                    eprintln!("job {}: submitted array {array} ({} shards)", job.root.display(), job.file.shards)
                }
                None => eprintln!("job {}: every shard has its result", job.root.display()),
            }
            if no_follow {
                return Ok(());
            }
            follow(&driver)
        }
        ClusterAction::Follow { dir } => {
            let job = JobDir::open(&dir)?;
            let kind = kind(&job.file.kind)?;
            follow(&Driver { job: &job, kind: &*kind })
        }
        ClusterAction::Status { dir } => {
            let job = JobDir::open(&dir)?;
            let kind = kind(&job.file.kind)?;
            print!("{}", Driver { job: &job, kind: &*kind }.status()?);
            Ok(())
        }
        ClusterAction::Merge { dir } => {
            let job = JobDir::open(&dir)?;
            let kind = kind(&job.file.kind)?;
            let started = Instant::now();
            let table = Driver { job: &job, kind: &*kind }.merge()?;
            print!("{table}");
            eprintln!("merged into {} in {:.3} s", job.merged_dir().display(), started.elapsed().as_secs_f64());
            Ok(())
        }
        ClusterAction::Cancel { dir } => {
            let job = JobDir::open(&dir)?;
            let kind = kind(&job.file.kind)?;
            Driver { job: &job, kind: &*kind }.cancel("by tabula cluster cancel")?;
            eprintln!("job {}: cancelled", job.root.display());
            Ok(())
        }
    }
}

/// Follows a job to its end and prints the merged table; fails if shards were given up on.
fn follow(driver: &Driver<'_>) -> Result<()> {
    let (ending, table) = driver.follow(&mut std::io::stderr())?;
    print!("{table}");
    match ending {
        Ending::Complete => Ok(()),
        Ending::Decided(text) => {
            eprintln!("decided: {text}; the remaining tasks were cancelled");
            Ok(())
        }
        Ending::Cancelled(why) => {
            eprintln!("cancelled {why}");
            Ok(())
        }
        Ending::GaveUp(shards) => anyhow::bail!(
            "shards {} ended without a result every time they ran (see {})",
            tabula_cluster::job::compress(&shards),
            driver.job.logs_dir().display()
        ),
    }
}

/// `missing shards: 3,5` when some are, for the end of a table.
fn missing_line(collected: &Collected) -> String {
    let missing = collected.missing();
    if missing.is_empty() {
        String::new()
    } else {
        format!("missing shards: {}\n", tabula_cluster::job::compress(&missing))
    }
}

/// Matches: `tabula match --shard` results, merged in game order (`tabula_match::shard`).
struct MatchKind;

impl MatchKind {
    fn merged(collected: &Collected) -> Result<Option<tabula_match::shard::Merged>, KindError> {
        let mut shards = Vec::new();
        for result in collected.in_order() {
            let shard = tabula_match::shard::MatchShard::parse(&result.body, &result.measured)
                .map_err(|e| format!("shard {}: {e}", result.shard))?;
            shards.push(shard);
        }
        if shards.is_empty() {
            return Ok(None);
        }
        Ok(Some(tabula_match::shard::merge(shards)?))
    }
}

impl Merge for MatchKind {
    fn progress(&self, collected: &Collected) -> Result<Progress, KindError> {
        let landed = format!("shards {}/{}", collected.results.len(), collected.count);
        let Some(merged) = MatchKind::merged(collected)? else {
            return Ok(Progress { line: landed, decided: None });
        };
        let summary = &merged.summary;
        let decided = match (summary.sprt, summary.decided_at) {
            (Some((_, llr, decision)), Some(n)) => Some(format!("{decision} after {n} games, LLR {llr:.2}")),
            _ => None,
        };
        Ok(Progress { line: format!("{landed}  {}", merged.live_line()), decided })
    }

    fn merge(&self, collected: &Collected, dir: &Path) -> Result<String, KindError> {
        let Some(merged) = MatchKind::merged(collected)? else {
            return Ok(format!("no results yet\n{}", missing_line(collected)));
        };
        // Shards not run because the SPRT decided before their games are not missing from the table.
        let table = match merged.summary.decided_at {
            Some(_) => format!("{merged}"),
            None => format!("{merged}{}", missing_line(collected)),
        };
        tabula_cluster::atomic::write(&dir.join("table.txt"), table.as_bytes())?;
        let records = dir.join(format!("games.{}", tabula_match::shard::record_extension(&merged.game)));
        tabula_cluster::atomic::write(&records, merged.records().as_bytes())?;
        Ok(table)
    }
}

/// KMC ensembles: `tabula kmc study --shard` results, one trajectory each (`tabula_kmc::ensemble`).
struct KmcKind;

fn trajectories(
    collected: &Collected,
) -> Result<Vec<(tabula_kmc::ensemble::Figures, tabula_kmc::ensemble::Timing)>, KindError> {
    let mut runs = Vec::new();
    for result in collected.in_order() {
        let shard = result.shard;
        let figures = tabula_kmc::ensemble::Figures::parse(&result.body).map_err(|e| format!("shard {shard}: {e}"))?;
        let timing =
            tabula_kmc::ensemble::Timing::parse(&result.measured).map_err(|e| format!("shard {shard}: {e}"))?;
        runs.push((figures, timing));
    }
    Ok(runs)
}

impl Merge for KmcKind {
    fn progress(&self, collected: &Collected) -> Result<Progress, KindError> {
        let runs = trajectories(collected)?;
        let mut line = format!("trajectories {}/{}", runs.len(), collected.count);
        if let Some((f, _)) = runs.last() {
            line.push_str(&format!(
                "  last: {} K seed {}, states recalled {:.2} %",
                f.temperature,
                f.seed,
                100.0 * f.recall_rate
            ));
        }
        Ok(Progress { line, decided: None })
    }

    fn merge(&self, collected: &Collected, dir: &Path) -> Result<String, KindError> {
        let ensemble = tabula_kmc::ensemble::Ensemble::new(trajectories(collected)?);
        Ok(write_ensemble(&ensemble, dir)? + &missing_line(collected))
    }
}

/// Writes an ensemble's `table.txt`, `trajectories.txt` and `ensemble.svg` into `dir`; returns the table.
fn write_ensemble(ensemble: &tabula_kmc::ensemble::Ensemble, dir: &Path) -> Result<String, KindError> {
    let table = ensemble.table();
    tabula_cluster::atomic::write(&dir.join("table.txt"), table.as_bytes())?;
    tabula_cluster::atomic::write(&dir.join("trajectories.txt"), ensemble.trajectories().as_bytes())?;
    // Drawn aside and renamed, as the other files are written.
    let plot = dir.join("ensemble.svg");
    let aside = tabula_cluster::atomic::temporary(&plot);
    ensemble.plot(&aside, "KMC ensemble: means and standard errors")?;
    std::fs::rename(&aside, &plot)?;
    Ok(table)
}

/// `tabula kmc study`: every trajectory of the study in this process, or with `--shard` the one trajectory of
/// the shard, written as its result file.
pub fn kmc_study(study: &Path, output: &Path, shard: &ShardArgs) -> Result<()> {
    let stopwatch = tabula_cluster::envelope::Stopwatch::start();
    let loaded = tabula_kmc::ensemble::Study::read(study)?;
    let count = loaded.trajectories().len();
    if let Some(target) = shard.target() {
        anyhow::ensure!(
            target.shard.count == count,
            "{} has {count} trajectories, one a shard: give --shard K/{count}, not {}",
            study.display(),
            target.shard
        );
        let (figures, timing) = loaded.run(target.shard.index)?;
        target.write(tabula_kmc::ensemble::KIND, figures.to_text(), &timing.to_text(), &stopwatch)?;
        eprintln!("trajectory {}: result {}", target.shard, target.result.display());
        return Ok(());
    }
    let mut runs = Vec::new();
    for k in 0..count {
        let run = loaded.run(k)?;
        eprintln!("trajectory {}/{count}: {} K seed {}", k + 1, run.0.temperature, run.0.seed);
        runs.push(run);
    }
    std::fs::create_dir_all(output).with_context(|| format!("cannot create {}", output.display()))?;
    let table = write_ensemble(&tabula_kmc::ensemble::Ensemble::new(runs), output).map_err(|e| anyhow::anyhow!(e))?;
    print!("{table}");
    Ok(())
}
