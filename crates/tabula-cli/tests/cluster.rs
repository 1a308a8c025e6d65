//! Jobs in shards, merged, and run as Slurm job arrays on a real cluster.
//!
//! `cargo test cluster` runs all of these; `cargo test slurm` the ones that need Slurm. Those use the cluster
//! that `SLURM_CONF` names when it is set (a site's own) and otherwise start a one-node cluster on this machine
//! with `.ci/slurm start` (Debian's packages, as root; `.ci/run` installs them). Where Slurm cannot start they
//! skip with a note. They run one at a time, the cluster being shared. Job directories go under Cargo's
//! temporary directory for tests (`target/tmp`), which a site's nodes see when the workspace is on a shared file
//! system.
//!
//! The `cluster_local_*` tests need no scheduler: they run the shards' commands one after another, as a laptop
//! or GNU parallel would.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");

/// The Slurm tests take turns on the cluster.
static TURN: Mutex<()> = Mutex::new(());

/// Writes a note to standard error past the test harness's capture, so that a skip shows in a plain `cargo test`.
fn note(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "note: {text}");
}

/// The `SLURM_CONF` of the cluster to use, or `None` (with a note) where Slurm cannot start.
fn slurm(test: &str) -> Option<&'static str> {
    static CONF: OnceLock<Option<String>> = OnceLock::new();
    let conf = CONF.get_or_init(|| {
        if let Ok(conf) = std::env::var("SLURM_CONF") {
            let answer = Command::new("sinfo").arg("--noheader").env("SLURM_CONF", &conf).output();
            assert!(
                answer.as_ref().is_ok_and(|o| o.status.success()),
                "SLURM_CONF={conf} is set but `sinfo` does not answer: {answer:?}"
            );
            return Some(conf);
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/slurm");
        match Command::new(&script).arg("start").stdin(Stdio::null()).output() {
            Ok(out) if out.status.success() => {
                let conf = String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or("").trim().to_string();
                note(&format!("a one-node Slurm cluster runs on this machine ({conf}; `.ci/slurm stop` stops it)"));
                Some(conf)
            }
            Ok(out) => {
                note(&format!("Slurm cannot start here: {}", String::from_utf8_lossy(&out.stderr).trim()));
                None
            }
            Err(e) => {
                note(&format!("cannot run {}: {e}", script.display()));
                None
            }
        }
    });
    if conf.is_none() {
        note(&format!("no Slurm cluster; skipping {test} (`.ci/run` installs and starts one, as root)"));
    }
    conf.as_deref()
}

/// For a Slurm test: its turn on the cluster (held while the guard lives), the cluster's `SLURM_CONF` and a
/// fresh directory `name`; `None` (with a note naming `test`) where Slurm cannot start.
fn slurm_test(test: &str, name: &str) -> Option<(MutexGuard<'static, ()>, &'static str, PathBuf)> {
    let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let conf = slurm(test)?;
    Some((turn, conf, scratch(name)))
}

/// A fresh directory for a test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cluster-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `tabula` in `dir`, with the cluster's `SLURM_CONF` if given.
fn tabula(dir: &Path, conf: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(TABULA);
    command.args(args).current_dir(dir).stdin(Stdio::null());
    if let Some(conf) = conf {
        command.env("SLURM_CONF", conf);
    }
    command.output().unwrap()
}

/// Runs `tabula` and returns its standard output, failing the test on an error.
fn ok(dir: &Path, conf: Option<&str>, args: &[&str]) -> String {
    let out = tabula(dir, conf, args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "tabula {args:?}: {}\n{text}", String::from_utf8_lossy(&out.stderr));
    text
}

/// The first `n` openings of the chess crate's book, as an opening file in `dir`.
fn openings(dir: &Path, n: usize) {
    let book = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tabula-chess/tests/data/openings.epd"))
        .unwrap();
    let lines: Vec<&str> = book.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).take(n).collect();
    assert_eq!(lines.len(), n);
    std::fs::write(dir.join("openings.epd"), lines.join("\n") + "\n").unwrap();
}

/// The match's table without what depends on how it was run: the `starts` column (a pair of engines per shard),
/// the time report (clocks), and the merge's lines on the games it counted (how many shards had landed when it
/// ran).
fn comparable(table: &str) -> String {
    let mut lines = Vec::new();
    let mut in_times = false;
    for line in table.lines() {
        if line.starts_with("time a move") {
            in_times = true;
            continue;
        }
        if in_times && (line.starts_with("elo ") || line.starts_with("no games")) {
            in_times = false;
        }
        if in_times || line.starts_with("games counted") || line.contains(" landed after the SPRT decided") {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        // An engine's row ends with its forfeits and starts.
        if words.len() == 8 && words[7].parse::<u32>().is_ok() || line.starts_with("engine ") {
            lines.push(words[..words.len() - 1].join(" "));
        } else {
            lines.push(line.to_string());
        }
    }
    lines.join("\n")
}

/// Records without their clock readings (each move's time in the chess comments).
fn without_clocks(records: &str) -> String {
    let mut text = String::new();
    for word in records.split_inclusive(|c: char| c.is_whitespace() || c == '}') {
        let bare = word.trim_end_matches(|c: char| c.is_whitespace() || c == '}');
        if bare.ends_with('s') && bare[..bare.len() - 1].parse::<f64>().is_ok() {
            text.push_str(&word[bare.len()..]);
        } else {
            text.push_str(word);
        }
    }
    text
}

/// A job file.
fn job_file(dir: &Path, name: &str, kind: &str, shards: usize, command: &str, extra: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!("kind = \"{kind}\"\nshards = {shards}\ncommand = {command:?}\npoll = 0.5\n{extra}");
    std::fs::write(&path, text).unwrap();
    path
}

fn match_command(extra: &str) -> String {
    format!("{TABULA} match --game chess --engine '{TABULA} uci' --engine '{TABULA} uci' --name a --name b --openings openings.epd {extra}")
}

/// Runs a match `command` in one process in `dir`, its records into `one.pgn`; returns its table.
fn one_process(dir: &Path, command: &str) -> String {
    let out = Command::new("sh").args(["-c", &format!("{command} -o one.pgn")]).current_dir(dir).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{command}: {}\n{text}", String::from_utf8_lossy(&out.stderr));
    text
}

/// A small KMC study (pair energies, a 4×4×4 cell) of `temperatures` × `seeds`, `steps` a trajectory.
fn study(dir: &Path, temperatures: &str, seeds: &str, steps: u64, mode: &str) {
    let config = tabula_kmc_example().replace("size = 10 ", "size = 4 ");
    std::fs::write(dir.join("small.toml"), config).unwrap();
    let text = format!(
        "configs = [\"small.toml\"]\ntemperatures = [{temperatures}]\nseeds = [{seeds}]\nsteps = {steps}\nmode = \"{mode}\"\n"
    );
    std::fs::write(dir.join("study.toml"), text).unwrap();
}

fn tabula_kmc_example() -> String {
    let out = Command::new(TABULA).args(["kmc", "example"]).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// Trajectory lines without their timings (the speed-up and the wall time).
fn figures_only(trajectories: &str) -> String {
    trajectories
        .lines()
        .map(|l| {
            let cut = |l: &str, key: &str| match l.find(key) {
                Some(at) => {
                    let end = l[at..].find(',').map_or(l.len(), |e| at + e);
                    format!("{}{}", &l[..at], &l[end..])
                }
                None => l.to_string(),
            };
            cut(&cut(l, "speed-up"), "wall")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A table (cells apart by two spaces or more) without the column titled `title`.
fn without_column(table: &str, title: &str) -> Vec<Vec<String>> {
    let rows: Vec<Vec<String>> = table
        .lines()
        .map(|l| l.split("  ").map(str::trim).filter(|c| !c.is_empty()).map(str::to_string).collect())
        .collect();
    let column = rows[0].iter().position(|c| c == title).unwrap_or_else(|| panic!("no column {title}: {table}"));
    rows.into_iter()
        .map(|mut r| {
            if r.len() > column {
                r.remove(column);
            }
            r
        })
        .collect()
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

/// `squeue`'s tasks of the job in `dir` (from its state file's arrays; none before the job is laid out).
fn queued(conf: &str, dir: &Path) -> Vec<String> {
    let Ok(state) = std::fs::read_to_string(dir.join("state")) else { return Vec::new() };
    let arrays: Vec<&str> =
        state.lines().filter_map(|l| l.split(" submitted array ").nth(1)).filter_map(|r| r.split(' ').next()).collect();
    if arrays.is_empty() {
        return Vec::new();
    }
    let out = Command::new("squeue")
        .args(["--noheader", "--array", "--jobs", &arrays.join(","), "--format=%i %T"])
        .env("SLURM_CONF", conf)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn cluster_local_shards_run_anywhere_and_merge_as_one_process() {
    let dir = scratch("local");
    openings(&dir, 3);
    let one = one_process(&dir, &match_command("--nodes 200"));
    let job = job_file(&dir, "local", "match", 4, &match_command("--nodes 200"), "");
    let plan = ok(&dir, None, &["cluster", "submit", job.to_str().unwrap(), "--dry-run"]);
    assert!(plan.contains("#SBATCH --output=") && plan.contains("sbatch --parsable --array=0-3 "), "{plan}");
    let jobdir = dir.join("local");
    // Every shard's command, one after another, as `sh shards.txt` would run them; the fourth has no pair.
    for line in read(jobdir.join("shards.txt")).lines() {
        let status = Command::new("sh").args(["-c", line]).stderr(Stdio::null()).status().unwrap();
        assert!(status.success(), "{line}");
    }
    let merged = ok(&dir, None, &["cluster", "merge", "local"]);
    assert_eq!(comparable(&merged), comparable(&one), "{merged}\n{one}");
    assert_eq!(without_clocks(&read(jobdir.join("merged/games.pgn"))), without_clocks(&read(dir.join("one.pgn"))));

    // Merging twice changes nothing.
    let files = |d: &Path| ["table.txt", "games.pgn"].map(|f| read(d.join("merged").join(f)));
    let first = files(&jobdir);
    ok(&dir, None, &["cluster", "merge", "local"]);
    assert_eq!(files(&jobdir), first);

    // A truncated and an altered result are refused with their names and reasons, and nothing is merged.
    let result = jobdir.join("results/shard-0002.result");
    let whole = read(&result);
    let refused = |damaged: &str, reason: &str| {
        std::fs::write(&result, damaged).unwrap();
        let out = tabula(&dir, None, &["cluster", "merge", "local"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(&format!("shard-0002.result: {reason}")), "{err}");
        assert_eq!(files(&jobdir), first);
    };
    refused(&whole[..whole.len() / 2], "truncated");
    refused(&whole.replacen("1-0", "0-1", 1), "the body's digest is");
    std::fs::write(&result, &whole).unwrap();

    // A second job of its own directory: a result of the first copied into it is refused by name, never mixed.
    let other = job_file(&dir, "other", "match", 4, &match_command("--nodes 200"), "");
    ok(&dir, None, &["cluster", "submit", other.to_str().unwrap(), "--dry-run"]);
    let stray = dir.join("other/results/shard-0000.result");
    std::fs::copy(jobdir.join("results/shard-0000.result"), &stray).unwrap();
    let out = tabula(&dir, None, &["cluster", "merge", "other"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("shard-0000.result: belongs to job "), "{err}");
    std::fs::remove_file(&stray).unwrap();
    let partial = ok(&dir, None, &["cluster", "merge", "other"]);
    assert!(partial.contains("no results yet") && partial.contains("missing shards: 0-3"), "{partial}");

    // A duplicate (a shard's result again under another name) is skipped, and said so.
    std::fs::copy(jobdir.join("results/shard-0001.result"), jobdir.join("results/shard-0001-again.result")).unwrap();
    let again = ok(&dir, None, &["cluster", "merge", "local"]);
    assert!(again.contains("another result of shard 1 (the same body)"), "{again}");
    assert_eq!(files(&jobdir), first);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cluster_slurm_match_in_eight_shards_equals_one_process() {
    let Some((_turn, conf, dir)) = slurm_test("the eight-shard match", "match") else { return };
    openings(&dir, 8);
    let one = one_process(&dir, &match_command("--nodes 300"));
    let job = job_file(&dir, "eight", "match", 8, &match_command("--nodes 300"), "");
    let merged = ok(&dir, Some(conf), &["cluster", "submit", job.to_str().unwrap()]);
    assert!(merged.contains("games counted 16 of 16"), "{merged}");
    assert_eq!(comparable(&merged), comparable(&one), "{merged}\n{one}");
    let records = read(dir.join("eight/merged/games.pgn"));
    assert_eq!(records.matches("[Event ").count(), 16);
    assert_eq!(without_clocks(&records), without_clocks(&read(dir.join("one.pgn"))));
    assert_eq!(read(dir.join("eight/state")).matches(" submitted array ").count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cluster_slurm_sprt_stops_early_and_cancels_the_rest() {
    let Some((_turn, conf, dir)) = slurm_test("the SPRT job", "sprt") else { return };
    openings(&dir, 8);
    // A known handicap: the second engine searches 150 nodes where the first searches 1,500 (a wrapper rewrites
    // its `go`).
    let weak = dir.join("weak.sh");
    std::fs::write(&weak, format!("#!/bin/sh\nsed -u 's/ nodes 1500$/ nodes 150/' | exec {TABULA} uci\n")).unwrap();
    std::fs::set_permissions(&weak, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let args = "--nodes 1500 --games 160 --sprt elo0=0 elo1=50 --pentanomial";
    let base = format!(
        "{TABULA} match --game chess --engine '{TABULA} uci' --engine {} --name full --name weak --openings \
         openings.epd {args}",
        weak.display()
    );
    let one = one_process(&dir, &base);
    let verdict = one.lines().find(|l| l.starts_with("SPRT ")).unwrap_or_else(|| panic!("{one}")).to_string();
    assert!(verdict.ends_with("H1 accepted"), "{one}");
    let job = job_file(&dir, "sprt", "match", 40, &base, "");
    let merged = ok(&dir, Some(conf), &["cluster", "submit", job.to_str().unwrap()]);
    assert_eq!(comparable(&merged), comparable(&one), "{merged}\n{one}");
    let state = read(dir.join("sprt/state"));
    assert!(state.contains(" decided H1 accepted after ") && state.contains(" cancelled arrays "), "{state}");
    let landed = std::fs::read_dir(dir.join("sprt/results")).unwrap().count();
    assert!(landed < 40, "the SPRT decided after {landed} of 40 shards");
    let status = ok(&dir, Some(conf), &["cluster", "status", "sprt"]);
    assert!(status.contains("  cancelled ") && status.contains("\ndecided H1 accepted after "), "{status}");
    // Nothing of the job is left in the queue.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !queued(conf, &dir.join("sprt")).is_empty() {
        assert!(Instant::now() < deadline, "tasks left: {:?}", queued(conf, &dir.join("sprt")));
        std::thread::sleep(Duration::from_millis(500));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cluster_slurm_kmc_ensemble_of_two_temperatures_and_three_seeds() {
    let Some((_turn, conf, dir)) = slurm_test("the KMC ensemble", "kmc") else { return };
    study(&dir, "773, 373", "1, 2, 3", 20_000, "recall");
    let one = ok(&dir, None, &["kmc", "study", "study.toml", "-o", "one"]);
    let job = job_file(&dir, "ensemble", "kmc", 6, &format!("{TABULA} kmc study study.toml"), "");
    let merged = ok(&dir, Some(conf), &["cluster", "submit", job.to_str().unwrap()]);
    let table_rows = |t: &str| t.lines().filter(|l| l.contains("small.toml")).count();
    assert_eq!((table_rows(&merged), table_rows(&one)), (2, 2), "{merged}");
    let out = dir.join("ensemble/merged");
    assert_eq!(
        figures_only(&read(out.join("trajectories.txt"))),
        figures_only(&read(dir.join("one/trajectories.txt")))
    );
    // The table's columns other than the speed-up are the same.
    assert_eq!(without_column(&read(out.join("table.txt")), "speed-up"), without_column(&one, "speed-up"));
    let svg = read(out.join("ensemble.svg"));
    assert!(svg.contains("temperature (K)") && svg.contains("small.toml") && svg.contains("speed-up"), "the plot");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cluster_slurm_killed_shard_is_resubmitted_and_gives_the_same_bits() {
    let Some((_turn, conf, dir)) = slurm_test("the killed shard", "killed") else { return };
    study(&dir, "773", "1, 2, 3, 4", 10_000_000, "run");
    let job = job_file(&dir, "killed", "kmc", 4, &format!("{TABULA} kmc study study.toml"), "");
    let driver = Command::new(TABULA)
        .args(["cluster", "submit", job.to_str().unwrap()])
        .current_dir(&dir)
        .env("SLURM_CONF", conf)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for shard 1 to run, let it work a moment, then kill its task.
    let jobdir = dir.join("killed");
    let deadline = Instant::now() + Duration::from_secs(120);
    let task = loop {
        let tasks = queued(conf, &jobdir);
        if let Some(task) = tasks.iter().find(|t| t.contains("_1 RUNNING")) {
            break task.split(' ').next().unwrap().to_string();
        }
        assert!(Instant::now() < deadline, "shard 1 never ran: {tasks:?}");
        std::thread::sleep(Duration::from_millis(200));
    };
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new("scancel").arg(&task).env("SLURM_CONF", conf).status().unwrap();
    assert!(status.success());
    let out = driver.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("shards 1 ended without a result; submitted again as array "), "{err}");
    let state = read(jobdir.join("state"));
    assert_eq!(state.matches(" submitted array ").count(), 2, "{state}");
    // No partial result: four whole results, nothing else visible; and shard 1 gives the bits a run of its own
    // gives.
    let visible: Vec<_> = std::fs::read_dir(jobdir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(visible.len(), 4, "{visible:?}");
    let local = dir.join("local.result");
    ok(
        &dir,
        None,
        &["kmc", "study", "study.toml", "--shard", "1/4", "--result", local.to_str().unwrap(), "--job", "x"],
    );
    let body = |path: &Path| {
        let text = read(path);
        let result = tabula_cluster_body(&text);
        result.to_string()
    };
    assert_eq!(body(&jobdir.join("results/shard-0001.result")), body(&local));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The body of a result file (after the header's empty line, before the measured part).
fn tabula_cluster_body(text: &str) -> &str {
    let length: usize =
        text.lines().find_map(|l| l.strip_prefix("body ")).unwrap().split(' ').next().unwrap().parse().unwrap();
    let start = text.find("\n\n").unwrap() + 2;
    &text[start..start + length]
}

#[test]
fn cluster_slurm_damaged_result_is_refused_by_name_and_run_again() {
    let Some((_turn, conf, dir)) = slurm_test("the damaged result", "damaged") else { return };
    study(&dir, "773", "1, 2", 5_000, "run");
    let job = job_file(&dir, "damaged", "kmc", 2, &format!("{TABULA} kmc study study.toml"), "");
    let first = ok(&dir, Some(conf), &["cluster", "submit", job.to_str().unwrap()]);
    let result = dir.join("damaged/results/shard-0001.result");
    let whole = read(&result);
    // Cut short: refused with its name and the reason.
    std::fs::write(&result, &whole[..whole.len() - 10]).unwrap();
    let out = tabula(&dir, Some(conf), &["cluster", "merge", "damaged"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("shard-0001.result: truncated"), "{err}");
    // Altered: the same.
    std::fs::write(&result, whole.replacen("seed 2", "seed 3", 1)).unwrap();
    let out = tabula(&dir, Some(conf), &["cluster", "merge", "damaged"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("shard-0001.result: the body's digest is"), "{err}");
    let status = ok(&dir, Some(conf), &["cluster", "status", "damaged"]);
    assert!(status.contains("refused") && status.contains("shard-0001.result"), "{status}");
    // Following the job sets the damaged file aside and runs its shard again: the same table.
    let again = ok(&dir, Some(conf), &["cluster", "follow", "damaged"]);
    assert_eq!(figures_only(&again), figures_only(&first));
    assert!(read(dir.join("damaged/state")).contains(" set-aside shard 1 "));
    assert_eq!(tabula_cluster_body(&read(&result)), tabula_cluster_body(&whole));
    std::fs::remove_dir_all(&dir).unwrap();
}
