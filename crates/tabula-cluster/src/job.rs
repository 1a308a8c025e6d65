//! The job file, and the job directory whose files hold all of a job's state.
//!
//! A job file (TOML) says what to run and how it merges:
//!
//! ```toml
//! name = "sprt-half-nodes"      # optional: the Slurm job name (the file's name by default)
//! kind = "match"                # how results merge: match, kmc or lines
//! shards = 40
//! command = "tabula match --game chess --engine 'tabula uci' --engine './half-nodes' --nodes 2000 --games 800 --sprt elo0=0 elo1=10 --pentanomial"
//! retries = 2                   # times a failed shard is submitted again (2 by default)
//! poll = 2.0                    # seconds between looks at the queue and the results (2 by default)
//! # workdir = "/path"           # where the command runs (the job file's directory by default)
//!
//! [slurm]                       # all optional: what the site asks for
//! partition = "debug"
//! account = "chess"
//! time = "01:00:00"             # each task's limit
//! cpus-per-task = 1
//! mem = "2G"
//! max-running = 16              # at most this many tasks at once (the array's %)
//! sbatch = ["--qos=normal"]     # any other sbatch option
//! setup = ["module load rust"]  # shell lines run before each shard
//! ```
//!
//! Shard `K` runs `command --shard K/N --result DIR/results/shard-K.result --job ID` in the work directory.
//! The job directory `DIR` holds:
//!
//! | file | what |
//! |---|---|
//! | `job.toml` | the job file, with its `workdir` written out |
//! | `shards.txt` | shard K's whole command on line K+1: run them anywhere (`sh`, GNU `parallel`) |
//! | `submit.sh` | the `sbatch --array` script: task K runs line K+1 |
//! | `results/` | one result file per shard ([`envelope`](crate::envelope)) |
//! | `logs/` | each task's output, `ARRAY_TASK.out` |
//! | `state` | what happened, a line each: planned, submitted, set aside, decided, cancelled, gave up |
//! | `merged/` | what the last merge wrote |
//!
//! `state` is appended to and never rewritten, so that `status`, `follow`, `merge` and `cancel` work from the
//! files alone, after the process that submitted the job is gone. The job's identity is a digest of the job
//! file and the directory's path: two directories never share one, and a result carries it.
//!
//! # Examples
//!
//! ```
//! use tabula_cluster::job::JobDir;
//! use tabula_cluster::slurm::script;
//!
//! let dir = std::env::temp_dir().join(format!("tabula-job-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let file = dir.join("count.toml");
//! std::fs::write(&file, "kind = \"lines\"\nshards = 2\ncommand = \"seq 3\"\n").unwrap();
//! let job = JobDir::plan(&file, &dir.join("count"), script).unwrap();
//! assert!(job.shard_command(1).contains("seq 3 --shard 1/2 --result "));
//! assert_eq!(JobDir::open(&dir.join("count")).unwrap().id, job.id);
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::collect::{collect, Collected};
use serde::Deserialize;
use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a job file says.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct JobFile {
    /// The Slurm job name (the job file's name without `.toml` by default).
    #[serde(default)]
    pub name: Option<String>,
    /// How the results merge.
    pub kind: String,
    /// How many shards.
    pub shards: usize,
    /// The command, to which each shard's options are appended (a shell line).
    pub command: String,
    /// Times a failed shard is submitted again.
    #[serde(default = "default_retries")]
    pub retries: u32,
    /// Seconds between looks at the queue and the results.
    #[serde(default = "default_poll")]
    pub poll: f64,
    /// Where the command runs (the job file's directory by default).
    #[serde(default)]
    pub workdir: Option<PathBuf>,
    /// What the site asks for.
    #[serde(default)]
    pub slurm: SlurmOptions,
}

fn default_retries() -> u32 {
    2
}

fn default_poll() -> f64 {
    2.0
}

/// The `[slurm]` table: `#SBATCH` options and setup lines.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SlurmOptions {
    /// `--partition`.
    pub partition: Option<String>,
    /// `--account`.
    pub account: Option<String>,
    /// `--time`, each task's limit.
    pub time: Option<String>,
    /// `--cpus-per-task` (1 by default).
    pub cpus_per_task: Option<u32>,
    /// `--mem`.
    pub mem: Option<String>,
    /// At most this many tasks at once (`--array=...%N`).
    pub max_running: Option<usize>,
    /// Other `sbatch` options, one an item.
    #[serde(default)]
    pub sbatch: Vec<String>,
    /// Shell lines run before each shard (`module load ...`).
    #[serde(default)]
    pub setup: Vec<String>,
}

/// A job file or directory that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A file that cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A job file that does not parse or says something impossible.
    #[error("{}: {problem}", path.display())]
    File {
        /// The job file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// A directory that holds another job.
    #[error("{} holds another job (its job.toml differs); give another directory", path.display())]
    Other {
        /// The directory.
        path: PathBuf,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> JobError + '_ {
    move |source| JobError::Io { path: path.to_path_buf(), source }
}

impl JobFile {
    /// Reads a job file's text.
    ///
    /// # Errors
    ///
    /// [`JobError::File`] naming `path` and the problem.
    pub fn parse(text: &str, path: &Path) -> Result<JobFile, JobError> {
        let problem = |problem: String| JobError::File { path: path.to_path_buf(), problem };
        let file: JobFile = toml::from_str(text).map_err(|e| problem(e.to_string().trim().to_string()))?;
        if file.shards == 0 {
            return Err(problem("`shards` must be at least 1".into()));
        }
        if file.command.trim().is_empty() || file.command.contains('\n') {
            return Err(problem("`command` must be one non-empty line".into()));
        }
        if file.kind.is_empty() || !file.kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(problem(format!("`kind` must be a word such as match, kmc or lines, not `{}`", file.kind)));
        }
        if !(file.poll.is_finite() && file.poll > 0.0) {
            return Err(problem("`poll` must be a positive number of seconds".into()));
        }
        Ok(file)
    }
}

/// Something that happened to a job, a line of its `state` file: `TIME WHAT ...`.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The directory was laid out: `planned job ID kind KIND shards N`.
    Planned {
        /// The job's identity.
        job: String,
    },
    /// An array was submitted: `submitted array ID shards 0-7`.
    Submitted {
        /// Unix seconds.
        at: f64,
        /// Slurm's array job id.
        array: u64,
        /// The shards it runs.
        shards: Vec<usize>,
    },
    /// A damaged result was moved aside so that the shard runs again: `set-aside shard K FILE: REASON`.
    SetAside {
        /// The shard.
        shard: usize,
        /// Its file and the reason.
        what: String,
    },
    /// The job decided before every shard ran (an SPRT): `decided TEXT`.
    Decided {
        /// What it decided.
        text: String,
    },
    /// The job's tasks were cancelled: `cancelled WHY`.
    Cancelled {
        /// Why.
        why: String,
    },
    /// Shards that failed every time they ran: `gave-up shards 3,5`.
    GaveUp {
        /// The shards.
        shards: Vec<usize>,
    },
}

/// `0-3,5,7-9`: shard numbers in order, runs written as ranges (the form `sbatch --array` takes).
pub fn compress(shards: &[usize]) -> String {
    let mut sorted = shards.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(if i == j { sorted[i].to_string() } else { format!("{}-{}", sorted[i], sorted[j]) });
        i = j + 1;
    }
    parts.join(",")
}

/// The shard numbers of [`compress`]'s form.
pub fn expand(text: &str) -> Option<Vec<usize>> {
    let mut shards = Vec::new();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => shards.extend(a.parse::<usize>().ok()?..=b.parse::<usize>().ok()?),
            None => shards.push(part.parse().ok()?),
        }
    }
    Some(shards)
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Planned { job } => write!(f, "planned job {job}"),
            Event::Submitted { array, shards, .. } => write!(f, "submitted array {array} shards {}", compress(shards)),
            Event::SetAside { shard, what } => write!(f, "set-aside shard {shard} {what}"),
            Event::Decided { text } => write!(f, "decided {text}"),
            Event::Cancelled { why } => write!(f, "cancelled {why}"),
            Event::GaveUp { shards } => write!(f, "gave-up shards {}", compress(shards)),
        }
    }
}

impl Event {
    /// Reads a `state` line (`TIME WHAT ...`); `None` for a line this reader does not know.
    pub fn parse(line: &str) -> Option<Event> {
        let (at, rest) = line.split_once(' ')?;
        let at: f64 = at.parse().ok()?;
        let (what, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        let words: Vec<&str> = rest.split_whitespace().collect();
        Some(match (what, words.as_slice()) {
            ("planned", ["job", job, ..]) => Event::Planned { job: job.to_string() },
            ("submitted", ["array", array, "shards", shards]) => {
                Event::Submitted { at, array: array.parse().ok()?, shards: expand(shards)? }
            }
            ("set-aside", ["shard", shard, ..]) => {
                let what = rest.splitn(3, ' ').nth(2).unwrap_or("").to_string();
                Event::SetAside { shard: shard.parse().ok()?, what }
            }
            ("decided", _) => Event::Decided { text: rest.to_string() },
            ("cancelled", _) => Event::Cancelled { why: rest.to_string() },
            ("gave-up", ["shards", shards]) => Event::GaveUp { shards: expand(shards)? },
            _ => return None,
        })
    }
}

/// A job directory.
#[derive(Clone, Debug)]
pub struct JobDir {
    /// The directory (absolute).
    pub root: PathBuf,
    /// The job file.
    pub file: JobFile,
    /// Where the command runs (absolute).
    pub workdir: PathBuf,
    /// The job's identity.
    pub id: String,
}

/// A word for the shell: as it is when it has no special character, else in single quotes.
pub fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

impl JobDir {
    /// Lays out the directory `root` for the job file `job_file`, its batch script written by `script` (for
    /// Slurm, [`slurm::script`](crate::slurm::script)), or opens it if it already holds that job (its results
    /// kept).
    ///
    /// # Errors
    ///
    /// [`JobError`]: the job file cannot be read or says something impossible, the directory cannot be
    /// written, or it holds another job.
    pub fn plan(job_file: &Path, root: &Path, script: fn(&JobDir) -> String) -> Result<JobDir, JobError> {
        let text = fs::read_to_string(job_file).map_err(io(job_file))?;
        let file = JobFile::parse(&text, job_file)?;
        let base = job_file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let workdir = base.join(file.workdir.clone().unwrap_or_default());
        let workdir = workdir.canonicalize().map_err(io(&workdir))?;
        fs::create_dir_all(root).map_err(io(root))?;
        let root = root.canonicalize().map_err(io(root))?;
        // The copy names its work directory, so that it means the same wherever it is read.
        let copy = if file.workdir.is_some() {
            text.clone()
        } else {
            format!("workdir = {}\n{text}", toml::Value::from(workdir.display().to_string()))
        };
        let copy_path = root.join("job.toml");
        if copy_path.exists() {
            let existing = fs::read_to_string(&copy_path).map_err(io(&copy_path))?;
            if existing != copy {
                return Err(JobError::Other { path: root });
            }
            return JobDir::open(&root);
        }
        let id = format!("{:016x}", crate::fnv1a(format!("{copy}\n{}", root.display()).as_bytes()));
        let job = JobDir { root, file: JobFile { workdir: Some(workdir.clone()), ..file }, workdir, id };
        for dir in [job.results_dir(), job.logs_dir()] {
            fs::create_dir_all(&dir).map_err(io(&dir))?;
        }
        let shards: String = (0..job.file.shards).map(|k| job.shard_command(k) + "\n").collect();
        crate::atomic::write(&job.shards_path(), shards.as_bytes())
            .map_err(|e| JobError::Io { path: e.path, source: e.source })?;
        crate::atomic::write(&job.script_path(), script(&job).as_bytes())
            .map_err(|e| JobError::Io { path: e.path, source: e.source })?;
        job.log(&Event::Planned { job: job.id.clone() })?;
        // Written last: a directory with its job.toml is a whole plan.
        crate::atomic::write(&copy_path, copy.as_bytes())
            .map_err(|e| JobError::Io { path: e.path, source: e.source })?;
        Ok(job)
    }

    /// Opens a job directory laid out by [`JobDir::plan`].
    ///
    /// # Errors
    ///
    /// [`JobError`]: its `job.toml` or `state` is missing or unreadable.
    pub fn open(root: &Path) -> Result<JobDir, JobError> {
        let root = root.canonicalize().map_err(io(root))?;
        let copy_path = root.join("job.toml");
        let text = fs::read_to_string(&copy_path).map_err(io(&copy_path))?;
        let file = JobFile::parse(&text, &copy_path)?;
        let workdir = file.workdir.clone().unwrap_or_else(|| root.clone());
        let state = root.join("state");
        let id = fs::read_to_string(&state)
            .map_err(io(&state))?
            .lines()
            .find_map(|l| match Event::parse(l) {
                Some(Event::Planned { job }) => Some(job),
                _ => None,
            })
            .ok_or_else(|| JobError::File { path: state.clone(), problem: "no `planned` line".into() })?;
        Ok(JobDir { root, file, workdir, id })
    }

    /// The job's name: the job file's `name`, else the directory's name.
    pub fn name(&self) -> String {
        self.file.name.clone().unwrap_or_else(|| {
            self.root.file_name().map_or_else(|| "tabula".to_string(), |n| n.to_string_lossy().into_owned())
        })
    }

    /// `results/`.
    pub fn results_dir(&self) -> PathBuf {
        self.root.join("results")
    }

    /// `logs/`.
    pub fn logs_dir(&self) -> PathBuf {
        self.root.join("logs")
    }

    /// `merged/`.
    pub fn merged_dir(&self) -> PathBuf {
        self.root.join("merged")
    }

    /// `shards.txt`.
    pub fn shards_path(&self) -> PathBuf {
        self.root.join("shards.txt")
    }

    /// `submit.sh`.
    pub fn script_path(&self) -> PathBuf {
        self.root.join("submit.sh")
    }

    /// `state`.
    pub fn state_path(&self) -> PathBuf {
        self.root.join("state")
    }

    /// Shard `k`'s result file.
    pub fn result_path(&self, k: usize) -> PathBuf {
        self.results_dir().join(format!("shard-{k:04}.result"))
    }

    /// Shard `k`'s whole command: into the work directory, then the job's command with the shard's options.
    pub fn shard_command(&self, k: usize) -> String {
        format!(
            "cd {} && {} --shard {k}/{} --result {} --job {}",
            shell_quote(&self.workdir.display().to_string()),
            self.file.command.trim(),
            self.file.shards,
            shell_quote(&self.result_path(k).display().to_string()),
            self.id
        )
    }

    /// Appends `event` to `state`, with the time.
    ///
    /// # Errors
    ///
    /// [`JobError::Io`] naming the file.
    pub fn log(&self, event: &Event) -> Result<(), JobError> {
        let path = self.state_path();
        let mut file = fs::OpenOptions::new().create(true).append(true).open(&path).map_err(io(&path))?;
        // One write of one whole line, so that two writers' lines do not interleave.
        file.write_all(format!("{:.3} {event}\n", crate::unix_now()).as_bytes()).map_err(io(&path))
    }

    /// What `state` says, in order (lines this reader does not know are left out).
    ///
    /// # Errors
    ///
    /// [`JobError::Io`] naming the file.
    pub fn events(&self) -> Result<Vec<Event>, JobError> {
        let path = self.state_path();
        Ok(fs::read_to_string(&path).map_err(io(&path))?.lines().filter_map(Event::parse).collect())
    }

    /// The results landed so far.
    ///
    /// # Errors
    ///
    /// [`JobError::Io`] if `results/` cannot be listed.
    pub fn collect(&self) -> Result<Collected, JobError> {
        let dir = self.results_dir();
        collect(&dir, &self.id, &self.file.kind, self.file.shards).map_err(io(&dir))
    }

    /// How many times each shard was submitted.
    ///
    /// # Errors
    ///
    /// As [`JobDir::events`].
    pub fn attempts(&self) -> Result<Vec<u32>, JobError> {
        let mut attempts = vec![0; self.file.shards];
        for event in self.events()? {
            if let Event::Submitted { shards, .. } = event {
                for k in shards {
                    if let Some(count) = attempts.get_mut(k) {
                        *count += 1;
                    }
                }
            }
        }
        Ok(attempts)
    }

    /// The arrays submitted, in order.
    ///
    /// # Errors
    ///
    /// As [`JobDir::events`].
    pub fn arrays(&self) -> Result<Vec<u64>, JobError> {
        Ok(self
            .events()?
            .into_iter()
            .filter_map(|e| match e {
                Event::Submitted { array, .. } => Some(array),
                _ => None,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_lists_round_trip() {
        assert_eq!(compress(&[7, 0, 1, 2, 3, 5, 8, 9]), "0-3,5,7-9");
        assert_eq!(expand("0-3,5,7-9").unwrap(), [0, 1, 2, 3, 5, 7, 8, 9]);
        assert_eq!(compress(&[]), "");
        assert_eq!(expand("").unwrap(), Vec::<usize>::new());
        assert!(expand("a-3").is_none());
    }

    #[test]
    fn events_round_trip() {
        for event in [
            Event::Planned { job: "5e1f".into() },
            Event::Submitted { at: 12.5, array: 42, shards: vec![0, 1, 2, 6] },
            Event::SetAside { shard: 3, what: "results/shard-0003.result: truncated".into() },
            Event::Decided { text: "H1 accepted after 212 games".into() },
            Event::Cancelled { why: "arrays 42 (the job decided)".into() },
            Event::GaveUp { shards: vec![3, 5] },
        ] {
            let line = format!("12.500 {event}");
            assert_eq!(Event::parse(&line), Some(event), "{line}");
        }
        assert_eq!(Event::parse("12.5 something new"), None);
    }

    #[test]
    fn bad_job_files_are_named() {
        let path = Path::new("j.toml");
        let err = |text: &str| JobFile::parse(text, path).unwrap_err().to_string();
        assert!(err("kind = \"match\"\nshards = 0\ncommand = \"x\"").contains("`shards` must be at least 1"));
        assert!(err("kind = \"a b\"\nshards = 1\ncommand = \"x\"").contains("`kind` must be a word"));
        assert!(err("kind = \"m\"\nshards = 1\ncommand = \"x\"\ncolour = 1").starts_with("j.toml: "));
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("/a/b-c"), "/a/b-c");
    }

    /// A batch script that only names its job.
    fn script(job: &JobDir) -> String {
        format!("# {}\n", job.id)
    }

    #[test]
    fn a_directory_holds_one_job() {
        let dir = std::env::temp_dir().join(format!("tabula-job-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.toml"), dir.join("b.toml"));
        fs::write(&a, "kind = \"lines\"\nshards = 3\ncommand = \"echo a\"\n").unwrap();
        fs::write(&b, "kind = \"lines\"\nshards = 3\ncommand = \"echo b\"\n").unwrap();
        let first = JobDir::plan(&a, &dir.join("out"), script).unwrap();
        // Planning the same job again keeps it (and its identity); another job is refused.
        assert_eq!(JobDir::plan(&a, &dir.join("out"), script).unwrap().id, first.id);
        assert!(matches!(JobDir::plan(&b, &dir.join("out"), script), Err(JobError::Other { .. })));
        // The same job file in another directory is another job.
        assert_ne!(JobDir::plan(&a, &dir.join("out2"), script).unwrap().id, first.id);
        let lines = fs::read_to_string(first.shards_path()).unwrap();
        assert_eq!(lines.lines().count(), 3);
        assert!(lines.lines().nth(2).unwrap().ends_with(&format!("shard-0002.result --job {}", first.id)));
        fs::remove_dir_all(&dir).unwrap();
    }
}
