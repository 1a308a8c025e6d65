//! Running a config: the start structure, the loop with its outputs, the [`Summary`], and the recall experiment.
//!
//! [`run`] writes into its output directory:
//!
//! - `frames.xyz`: extended XYZ frames every `run.output_interval` steps, and the first and last;
//! - `log.csv`: `step, time_s, energy_eV, recall_rate, states_computed` at every frame (or about 500 rows);
//! - `plot.svg`: energy and recall rate against time (if `run.plot`);
//! - `summary.txt`: the [`Summary`] as printed.
//!
//! [`compare_recall`] runs one trajectory twice, with recall and without, checks they are the same and times
//! both: the experiment of Mason, Hudson & Sutton (2005).
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::config::{example_config, Config};
//!
//! let text = example_config().replace("size = 10 ", "size = 4 ").replace("steps = 1_000_000", "steps = 2000");
//! let config = Config::from_toml(&text).unwrap();
//! let dir = std::env::temp_dir().join("tabula-kmc-run-doctest");
//! let summary = tabula_kmc::run(&config, &dir, false).unwrap();
//! assert_eq!(summary.steps, 2000);
//! assert!(dir.join("frames.xyz").exists() && dir.join("log.csv").exists() && dir.join("plot.svg").exists());
//! println!("{summary}");
//! ```

use crate::cache::CacheCounters;
use crate::config::{Config, ConfigError, Setup};
use crate::energy::nev_to_ev;
use crate::io::{self, Frame, XyzError};
use crate::kmc::{Energy, Simulation, SimulationError, TrialCounters};
use crate::plot::{self, PlotError, Sample};
use crate::Species;
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabula::zobrist::SplitMix64;

/// Everything that can stop a run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The config is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The start structure does not fit the model.
    #[error("the start structure does not fit: {0}")]
    Simulation(#[from] SimulationError),
    /// The start structure file is wrong.
    #[error("{path}: {error}")]
    Structure {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: XyzError,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The plot could not be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.to_path_buf(), source }
}

/// Salt that separates the random start's generator from the trajectory's (both seeded by `seed`).
const START_SALT: u64 = 0x7374_6172_7420_2020;

/// A random structure with the setup's counts: species then vacancies, shuffled by Fisher–Yates with
/// [`SplitMix64`] seeded by `seed ^ 0x7374617274202020`.
pub fn random_structure(setup: &Setup) -> Vec<Species> {
    let vacancy = setup.species.len() as Species;
    let mut occ: Vec<Species> = setup
        .counts
        .iter()
        .enumerate()
        .flat_map(|(s, &n)| std::iter::repeat(s as Species).take(n))
        .chain(std::iter::repeat(vacancy).take(setup.vacancies))
        .collect();
    let mut rng = SplitMix64::new(setup.seed ^ START_SALT);
    for i in (1..occ.len()).rev() {
        let j = ((rng.next() as u128 * (i as u128 + 1)) >> 64) as usize;
        occ.swap(i, j);
    }
    occ
}

/// The start structure of a setup: read from `alloy.structure`, else random.
///
/// # Errors
///
/// [`Error::Io`] or [`Error::Structure`] if the file cannot be read or does not fit.
pub fn start_structure(setup: &Setup) -> Result<Vec<Species>, Error> {
    match &setup.structure {
        None => Ok(random_structure(setup)),
        Some(path) => {
            let text = fs::read_to_string(path).map_err(io_error(path))?;
            io::read_xyz(&text, setup.model.lattice(), setup.lattice_constant, &setup.species)
                .map_err(|error| Error::Structure { path: path.clone(), error })
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// One line describing the system.
    pub system: String,
    /// Steps made.
    pub steps: u64,
    /// Simulated time in s.
    pub time: f64,
    /// Energy at the start, in eV.
    pub initial_energy: f64,
    /// Energy at the end, in eV.
    pub final_energy: f64,
    /// Whether recall was on, and the cache's bound and policy.
    pub cache: Option<String>,
    /// The cache's counters (zero without recall).
    pub counters: CacheCounters,
    /// Trial states considered and known (zero without a trial-energy table).
    pub trials: TrialCounters,
    /// States computed (not recalled), the start included.
    pub computed: u64,
    /// Wall-clock time of the loop (outputs included).
    pub wall: Duration,
    /// Files written.
    pub files: Vec<PathBuf>,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.counters;
        writeln!(f, "system          {}", self.system)?;
        writeln!(f, "steps           {}", self.steps)?;
        writeln!(f, "simulated time  {:.4e} s", self.time)?;
        writeln!(f, "energy          {:.4} -> {:.4} eV", self.initial_energy, self.final_energy)?;
        match &self.cache {
            Some(cache) => writeln!(
                f,
                "recall          on ({cache}): {} of {} lookups recalled ({:.2} %), {} collisions, {} stored, {} evicted",
                c.recalls,
                c.lookups,
                100.0 * c.recall_rate(),
                c.collisions,
                c.stores,
                c.evictions
            )?,
            None => writeln!(f, "recall          off")?,
        }
        if self.trials.considered > 0 {
            writeln!(
                f,
                "trial states    {} of {} energies known ({:.2} %)",
                self.trials.known,
                self.trials.considered,
                100.0 * self.trials.recall_rate()
            )?;
        }
        writeln!(f, "states computed {}", self.computed)?;
        let secs = self.wall.as_secs_f64();
        writeln!(f, "wall time       {:.3} s ({:.3} M steps/s)", secs, self.steps as f64 / secs.max(1e-9) / 1e6)?;
        let names: Vec<String> = self.files.iter().map(|p| p.display().to_string()).collect();
        write!(f, "files           {}", names.join(", "))
    }
}

fn describe(setup: &Setup) -> String {
    let l = setup.model.lattice();
    let counts: Vec<String> = setup.species.iter().zip(&setup.counts).map(|(s, n)| format!("{n} {s}")).collect();
    format!(
        "{} {n}x{n}x{n} ({} sites): {}, {} vacanc{}; {} K; {}",
        l.kind(),
        l.sites(),
        counts.join(", "),
        setup.vacancies,
        if setup.vacancies == 1 { "y" } else { "ies" },
        setup.model.temperature(),
        setup.energy,
        n = l.size()
    )
}

/// Validates `config`, runs it, and writes frames, log, plot and summary into `output_dir` (created if needed).
///
/// A relative `alloy.structure` path is taken from the current directory.
///
/// # Errors
///
/// [`Error::Config`] naming the bad key; [`Error::Io`], [`Error::Structure`], [`Error::Simulation`] or
/// [`Error::Plot`] if a file cannot be read or written or the start structure does not fit.
pub fn run(config: &Config, output_dir: &Path, progress: bool) -> Result<Summary, Error> {
    let setup = config.validate()?;
    let species = start_structure(&setup)?;
    let cache_label = setup.cache.map(|c| {
        let energies = if c.trial_energies { " + trial energies" } else { "" };
        format!("{} MiB{energies}, {}{}", c.mib, c.policy, if c.verify { ", verify" } else { "" })
    });
    let mut sim = match setup.cache {
        Some(cache) => cache.start(setup.model.clone(), species, setup.seed)?,
        None => Simulation::new(setup.model.clone(), species, setup.seed, None)?,
    };
    fs::create_dir_all(output_dir).map_err(io_error(output_dir))?;
    let xyz_path = output_dir.join("frames.xyz");
    let csv_path = output_dir.join("log.csv");
    let mut xyz = BufWriter::new(File::create(&xyz_path).map_err(io_error(&xyz_path))?);
    let mut csv = BufWriter::new(File::create(&csv_path).map_err(io_error(&csv_path))?);
    writeln!(csv, "{}", io::CSV_HEADER).map_err(io_error(&csv_path))?;

    let max_steps = setup.steps.unwrap_or(u64::MAX);
    let max_time = setup.time.unwrap_or(f64::INFINITY);
    let frame_every = setup.output_interval;
    let row_every = if frame_every > 0 { frame_every } else { setup.steps.map_or(10_000, |s| (s / 500).max(1)) };
    let bar = if !progress {
        ProgressBar::hidden()
    } else if let Some(steps) = setup.steps {
        ProgressBar::new(steps)
    } else {
        ProgressBar::new(1000)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} [{elapsed_precise} < {eta_precise}] {msg}")
            .expect("a valid template"),
    );

    let mut samples = Vec::new();
    let lattice = setup.model.lattice();
    let mut output = |sim: &Simulation, frame: bool, samples: &mut Vec<Sample>| -> Result<(), Error> {
        let energy = nev_to_ev(sim.energy());
        let rate = sim.counters().recall_rate();
        if frame {
            let f = Frame { step: sim.steps(), time: sim.time(), energy };
            io::write_xyz_frame(
                &mut xyz,
                lattice,
                setup.lattice_constant,
                &setup.species,
                sim.occupation().species(),
                &f,
            )
            .map_err(io_error(&xyz_path))?;
        }
        io::write_csv_row(&mut csv, sim.steps(), sim.time(), energy, rate, sim.computed())
            .map_err(io_error(&csv_path))?;
        samples.push(Sample { time: sim.time(), energy, recall_rate: rate });
        Ok(())
    };

    let initial_energy = nev_to_ev(sim.energy());
    let start = Instant::now();
    output(&sim, true, &mut samples)?;
    let mut last_row = 0;
    while sim.steps() < max_steps && sim.time() < max_time {
        sim.step();
        let step = sim.steps();
        if step % row_every == 0 {
            output(&sim, frame_every > 0 && step % frame_every == 0, &mut samples)?;
            last_row = step;
        }
        if step % 16_384 == 0 {
            match setup.steps {
                Some(_) => bar.set_position(step),
                None => bar.set_position((1000.0 * sim.time() / max_time) as u64),
            }
            bar.set_message(format!("recall {:.1} %", 100.0 * sim.counters().recall_rate()));
        }
    }
    if last_row != sim.steps() {
        output(&sim, true, &mut samples)?;
    }
    bar.finish_and_clear();
    xyz.flush().map_err(io_error(&xyz_path))?;
    csv.flush().map_err(io_error(&csv_path))?;
    let wall = start.elapsed();

    let mut files = vec![xyz_path, csv_path];
    if setup.plot {
        let plot_path = output_dir.join("plot.svg");
        let title = format!("{}, recall {}", describe(&setup), if setup.cache.is_some() { "on" } else { "off" });
        plot::plot_svg(&plot_path, &title, &samples)?;
        files.push(plot_path);
    }
    let summary_path = output_dir.join("summary.txt");
    files.push(summary_path.clone());
    let summary = Summary {
        system: describe(&setup),
        steps: sim.steps(),
        time: sim.time(),
        initial_energy,
        final_energy: nev_to_ev(sim.energy()),
        cache: cache_label,
        counters: sim.counters(),
        trials: sim.trial_counters(),
        computed: sim.computed(),
        wall,
        files,
    };
    fs::write(&summary_path, format!("{summary}\n")).map_err(io_error(&summary_path))?;
    Ok(summary)
}

/// One temperature of the recall experiment: the same trajectory with recall on and off.
#[derive(Clone, Debug, PartialEq)]
pub struct RecallComparison {
    /// Temperature in K.
    pub temperature: f64,
    /// Steps of each run.
    pub steps: u64,
    /// Simulated time reached, in s.
    pub time: f64,
    /// Share of steps whose state was recalled.
    pub recall_rate: f64,
    /// Share of trial states whose energy was known, with a trial-energy table.
    pub trial_recall_rate: Option<f64>,
    /// States computed with recall on (distinct states met, less any evicted and met again).
    pub computed: u64,
    /// Real collisions found (verify mode only).
    pub collisions: u64,
    /// Energy at the start and at the end of the trajectory, in eV.
    pub energies: (f64, f64),
    /// Wall time with recall.
    pub wall_on: Duration,
    /// Wall time without recall.
    pub wall_off: Duration,
    /// CPU time of the running thread with recall, where the system reports it (Linux).
    pub cpu_on: Option<Duration>,
    /// CPU time without recall, where the system reports it.
    pub cpu_off: Option<Duration>,
}

impl RecallComparison {
    /// Time off / time on: CPU time where known (steadier on a loaded machine), else wall time.
    pub fn speedup(&self) -> f64 {
        match (self.cpu_on, self.cpu_off) {
            (Some(on), Some(off)) => off.as_secs_f64() / on.as_secs_f64(),
            _ => self.wall_off.as_secs_f64() / self.wall_on.as_secs_f64(),
        }
    }
}

/// CPU time the calling thread has run, from Linux's `/proc/thread-self/schedstat` (nanoseconds on a CPU);
/// `None` elsewhere.
pub fn thread_cpu_time() -> Option<Duration> {
    let text = fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(text.split_whitespace().next()?.parse().ok()?))
}

impl fmt::Display for RecallComparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64());
        let trial = self.trial_recall_rate.map_or("     –".to_string(), |r| format!("{:>6.2}", 100.0 * r));
        write!(
            f,
            "{:>5.0} K  recall {:>6.2} %  trial {trial} %  wall on/off {:>7.3}/{:>7.3} s  cpu on/off {:>7.3}/{:>7.3} s  \
             speed-up {:>6.2}x  states {:>9}  steps {}  t {:.3e} s",
            self.temperature,
            100.0 * self.recall_rate,
            self.wall_on.as_secs_f64(),
            self.wall_off.as_secs_f64(),
            secs(self.cpu_on),
            secs(self.cpu_off),
            self.speedup(),
            self.computed,
            self.steps,
            self.time
        )
    }
}

/// Runs `steps` steps of `setup` from its start structure with recall on (the setup's cache, or 0.25 MiB LRU if it
/// has none) and off, checks that the two trajectories are the same, and times both (no output written).
///
/// # Errors
///
/// As [`start_structure`] and [`Simulation::new`].
///
/// # Panics
///
/// If the two runs part ways, which would be a bug.
pub fn compare_recall(setup: &Setup, steps: u64) -> Result<RecallComparison, Error> {
    let species = start_structure(setup)?;
    let cache_setup = setup.cache.unwrap_or(crate::config::CacheSetup {
        mib: crate::config::DEFAULT_MIB,
        verify: false,
        policy: crate::cache::Replacement::Lru,
        trial_energies: matches!(setup.model.energy(), Energy::Eam(_)),
    });
    // A checksum of every step's event, time and energy, so that "the same trajectory" is checked, not assumed.
    let trace = |sim: &mut Simulation| {
        let cpu = thread_cpu_time();
        let start = Instant::now();
        let mut sum = 0u64;
        sim.run(steps, |r| {
            sum = sum.rotate_left(7) ^ u64::from(r.event) ^ r.time.to_bits() ^ r.energy as u64;
        });
        let wall = start.elapsed();
        (wall, thread_cpu_time().zip(cpu).map(|(end, start)| end - start), sum)
    };
    let mut off = Simulation::new(setup.model.clone(), species.clone(), setup.seed, None)?;
    let initial = nev_to_ev(off.energy());
    let (wall_off, cpu_off, sum_off) = trace(&mut off);
    let mut on = cache_setup.start(setup.model.clone(), species, setup.seed)?;
    let (wall_on, cpu_on, sum_on) = trace(&mut on);
    assert_eq!(sum_on, sum_off, "recall changed the trajectory");
    assert_eq!((on.energy(), on.time().to_bits(), on.key()), (off.energy(), off.time().to_bits(), off.key()));
    let c = on.counters();
    Ok(RecallComparison {
        temperature: setup.model.temperature(),
        steps,
        time: on.time(),
        recall_rate: c.recall_rate(),
        trial_recall_rate: cache_setup.trial_energies.then(|| on.trial_counters().recall_rate()),
        computed: on.computed(),
        collisions: c.collisions,
        energies: (initial, nev_to_ev(on.energy())),
        wall_on,
        wall_off,
        cpu_on,
        cpu_off,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::example_config;

    fn small(edits: &[(&str, &str)]) -> Config {
        let mut text = example_config().replace("size = 10 ", "size = 4 ").replace("steps = 1_000_000", "steps = 3000");
        for (from, to) in edits {
            assert!(text.contains(from), "`{from}` is in the example");
            text = text.replace(from, to);
        }
        Config::from_toml(&text).unwrap()
    }

    #[test]
    fn a_written_frame_restarts_the_same_structure_and_trajectory() {
        let dir = std::env::temp_dir().join(format!("tabula-kmc-restart-{}", std::process::id()));
        let config = small(&[("output_interval = 10_000", "output_interval = 1000"), ("plot = true", "plot = false")]);
        let first = run(&config, &dir, false).unwrap();
        assert_eq!(first.steps, 3000);
        let frames = fs::read_to_string(dir.join("frames.xyz")).unwrap();
        assert_eq!(frames.matches("Properties=species:S:1:pos:R:3").count(), 4); // steps 0, 1000, 2000, 3000
        assert_eq!(fs::read_to_string(dir.join("log.csv")).unwrap().lines().count(), 5);

        // Restarting from the first frame (step 0) is starting from the random structure again.
        let start = dir.join("start.xyz");
        let sites = config.validate().unwrap().model.lattice().sites();
        let first_frame: Vec<&str> = frames.lines().take(sites + 2).collect();
        fs::write(&start, first_frame.join("\n")).unwrap();
        let mut again = config.clone();
        again.alloy.structure = Some(start);
        let setup = again.validate().unwrap();
        assert_eq!(start_structure(&setup).unwrap(), random_structure(&config.validate().unwrap()));
        let second = run(&again, &dir.join("again"), false).unwrap();
        assert_eq!((second.final_energy, second.time), (first.final_energy, first.time));
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn time_limit_and_recall_off() {
        let dir = std::env::temp_dir().join(format!("tabula-kmc-time-{}", std::process::id()));
        let config = small(&[("steps = 3000", "time = 1e-7"), ("enabled = true", "enabled = false")]);
        assert_eq!(config.run.steps, None);
        let summary = run(&config, &dir, false).unwrap();
        assert!(summary.time >= 1e-7 && summary.steps > 0);
        assert_eq!(summary.counters, CacheCounters::default());
        assert_eq!(summary.computed, summary.steps + 1);
        assert!(summary.to_string().contains("recall          off"));
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn compare_recall_reports_the_same_trajectory() {
        let setup = small(&[]).validate().unwrap();
        let row = compare_recall(&setup, 5000).unwrap();
        assert_eq!(row.steps, 5000);
        assert!(row.recall_rate > 0.0 && row.recall_rate < 1.0);
        assert!(row.computed > 1 && row.computed <= 5001);
    }
}
