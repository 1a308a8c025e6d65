//! Slurm, through its own commands: the `sbatch --array` script, `sbatch`, `squeue` and `scancel`.
//!
//! Nothing here schedules: Slurm does. The driver writes a script, submits it for the shards that need to run,
//! asks the queue which of its tasks are still there, and cancels them. The commands read `SLURM_CONF` from the
//! environment, as every Slurm command does.
//!
//! The script (`submit.sh` in the job directory; `tabula cluster submit --dry-run` prints it) is an ordinary
//! batch script: edit its `#SBATCH` lines for a site, or put the site's options in the job file's `[slurm]`
//! table. Task `K` runs line `K + 1` of `shards.txt`:
//!
//! ```text
//! #!/bin/sh
//! #SBATCH --job-name=sprt-half-nodes
//! #SBATCH --output=/jobs/sprt/logs/%A_%a.out
//! #SBATCH --cpus-per-task=1
//! set -eu
//! line=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" /jobs/sprt/shards.txt)
//! echo "shard $SLURM_ARRAY_TASK_ID on $(hostname) at $(date +%s.%N): $line"
//! exec sh -c "$line"
//! ```
//!
//! # Examples
//!
//! ```
//! use tabula_cluster::slurm::array_option;
//!
//! assert_eq!(array_option(&[0, 1, 2, 3, 7], None), "--array=0-3,7");
//! assert_eq!(array_option(&[0, 1, 2], Some(2)), "--array=0-2%2");
//! ```

use crate::job::{compress, shell_quote, JobDir};
use std::collections::BTreeMap;
use std::process::Command;

/// A Slurm command that failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{command}` failed: {message}")]
pub struct SlurmError {
    /// The command line.
    pub command: String,
    /// Its error output, or why it could not run.
    pub message: String,
}

/// Runs a Slurm command and returns its standard output.
fn run(program: &str, args: &[String]) -> Result<String, SlurmError> {
    let command = std::iter::once(program.to_string()).chain(args.iter().cloned()).collect::<Vec<_>>().join(" ");
    let output = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| SlurmError { command: command.clone(), message: e.to_string() })?;
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr).trim().to_string();
        let message = if message.is_empty() { output.status.to_string() } else { message };
        return Err(SlurmError { command, message });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// `--array=LIST` for `shards`, with `%max` when the job limits the tasks running at once.
pub fn array_option(shards: &[usize], max_running: Option<usize>) -> String {
    match max_running {
        Some(max) => format!("--array={}%{max}", compress(shards)),
        None => format!("--array={}", compress(shards)),
    }
}

/// The batch script of `job`: its `#SBATCH` options, its setup lines, then the shard of the task's number.
pub fn script(job: &JobDir) -> String {
    let slurm = &job.file.slurm;
    let mut lines = vec![
        "#!/bin/sh".to_string(),
        format!("# The shards of job {} as a Slurm job array: task K runs line K+1 of shards.txt.", job.id),
        "# `tabula cluster submit` gives --array; edit the #SBATCH lines for your site.".to_string(),
        format!("#SBATCH --job-name={}", job.name()),
        format!("#SBATCH --output={}", job.logs_dir().join("%A_%a.out").display()),
        format!("#SBATCH --cpus-per-task={}", slurm.cpus_per_task.unwrap_or(1)),
    ];
    let options =
        [("partition", &slurm.partition), ("account", &slurm.account), ("time", &slurm.time), ("mem", &slurm.mem)];
    for (name, value) in options {
        if let Some(value) = value {
            lines.push(format!("#SBATCH --{name}={value}"));
        }
    }
    lines.extend(slurm.sbatch.iter().map(|option| format!("#SBATCH {option}")));
    lines.push("set -eu".to_string());
    lines.extend(slurm.setup.iter().cloned());
    let shards = shell_quote(&job.shards_path().display().to_string());
    lines.push(format!("line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {shards})"));
    lines.push("echo \"shard $SLURM_ARRAY_TASK_ID on $(hostname) at $(date +%s.%N): $line\"".to_string());
    lines.push("exec sh -c \"$line\"".to_string());
    lines.join("\n") + "\n"
}

/// The `sbatch` arguments that submit `shards` of `job`.
pub fn sbatch_args(job: &JobDir, shards: &[usize]) -> Vec<String> {
    vec![
        "--parsable".to_string(),
        array_option(shards, job.file.slurm.max_running),
        job.script_path().display().to_string(),
    ]
}

/// Submits `shards` of `job` as one array; returns the array's job id.
///
/// # Errors
///
/// [`SlurmError`]: `sbatch` failed or its answer is not a job id.
pub fn submit(job: &JobDir, shards: &[usize]) -> Result<u64, SlurmError> {
    let args = sbatch_args(job, shards);
    let out = run("sbatch", &args)?;
    // `--parsable` prints `ID` or `ID;CLUSTER`.
    let id = out.trim().split(';').next().unwrap_or("");
    id.parse().map_err(|_| SlurmError {
        command: format!("sbatch {}", args.join(" ")),
        message: format!("answered `{}`", out.trim()),
    })
}

/// The tasks of `arrays` still in the queue (pending, running, completing...), by shard number, with their
/// state as `squeue` names it.
///
/// # Errors
///
/// [`SlurmError`] when `squeue` fails (an array the controller no longer knows is no error: it is done).
pub fn queued(arrays: &[u64]) -> Result<BTreeMap<usize, String>, SlurmError> {
    let mut tasks = BTreeMap::new();
    if arrays.is_empty() {
        return Ok(tasks);
    }
    let list = arrays.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let args = ["--noheader", "--array", "--jobs", &list, "--format=%i %T"].map(String::from);
    let out = match run("squeue", &args) {
        Ok(out) => out,
        Err(e) if e.message.contains("Invalid job id") => return Ok(tasks),
        Err(e) => return Err(e),
    };
    for line in out.lines() {
        let mut words = line.split_whitespace();
        let (Some(id), Some(state)) = (words.next(), words.next()) else { continue };
        // `ARRAY_TASK`; a pending range not yet split would be `ARRAY_[0-3]`, which --array rules out.
        if let Some(task) = id.split_once('_').and_then(|(_, task)| task.parse::<usize>().ok()) {
            tasks.insert(task, state.to_string());
        }
    }
    Ok(tasks)
}

/// Cancels every task of `arrays` still queued or running.
///
/// # Errors
///
/// [`SlurmError`] when `scancel` fails.
pub fn cancel(arrays: &[u64]) -> Result<(), SlurmError> {
    if arrays.is_empty() {
        return Ok(());
    }
    run("scancel", &arrays.iter().map(u64::to_string).collect::<Vec<_>>()).map(drop)
}

/// Cancels one task: `ARRAY_TASK`.
///
/// # Errors
///
/// [`SlurmError`] when `scancel` fails.
pub fn cancel_task(array: u64, task: usize) -> Result<(), SlurmError> {
    run("scancel", &[format!("{array}_{task}")]).map(drop)
}

/// Whether a Slurm cluster answers: `sinfo`'s partitions and node states, or why not.
///
/// # Errors
///
/// [`SlurmError`] when `sinfo` cannot run or the controller does not answer.
pub fn check() -> Result<String, SlurmError> {
    run("sinfo", &["--noheader".to_string(), "--format=%P %a %D %T".to_string()]).map(|s| s.trim().to_string())
}
