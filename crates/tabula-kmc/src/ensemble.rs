//! Ensembles: a study file of configurations × temperatures × seeds, each trajectory run on its own (a shard of
//! a cluster job, or one after another), and the table of means with their errors and its plot.
//!
//! A study file (TOML):
//!
//! ```toml
//! configs = ["fe-cu-eam.toml"]          # KMC configs, paths from the study file's directory
//! temperatures = [1073.0, 773.0, 373.0] # K, each replacing kinetics.temperature (default: each config's own)
//! seeds = [2005, 2006, 2007, 2008, 2009] # each replacing the config's seed (default: its own)
//! steps = 10_000_000                    # optional: steps of every trajectory (default: each config's run.steps)
//! mode = "recall"                       # "run" (default): the config's run; "recall": the run with recall and
//!                                       # without, the same trajectory, and the speed-up (Mason et al.'s experiment)
//! ```
//!
//! Trajectory `k` is the `k`-th of configs × temperatures × seeds, the seed varying fastest. Its figures
//! ([`Figures`]: simulated time, recall rates, states computed, energies) are the same bits whenever it runs
//! again; its timings ([`Timing`]: wall and CPU times, the speed-up) are measurements. [`Ensemble`] groups the
//! trajectories by configuration and temperature: the mean of each quantity with its standard error (the sample
//! standard deviation over √n), the median, and a plot of the means against temperature with their error bars.
//!
//! A relative potential or structure path in a config is read from the current directory, as `tabula kmc run`
//! reads it: run a study from its directory.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::ensemble::{Ensemble, Study};
//!
//! let dir = std::env::temp_dir().join(format!("tabula-ensemble-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let config = tabula_kmc::example_config().replace("size = 10 ", "size = 4 ").replace("steps = 1_000_000", "steps = 2000");
//! std::fs::write(dir.join("small.toml"), config).unwrap();
//! std::fs::write(dir.join("study.toml"), "configs = [\"small.toml\"]\ntemperatures = [773, 373]\nseeds = [1, 2]\n").unwrap();
//! let study = Study::read(&dir.join("study.toml")).unwrap();
//! assert_eq!(study.trajectories().len(), 4);
//! let runs: Vec<_> = (0..4).map(|k| study.run(k).unwrap()).collect();
//! let ensemble = Ensemble::new(runs);
//! assert_eq!(ensemble.groups().len(), 2);
//! assert!(ensemble.table().contains("773"));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::config::{Config, ConfigError, Setup};
use crate::kmc::Simulation;
use crate::run::{compare_recall, start_structure, thread_cpu_time};
use plotters::prelude::*;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The kind's name in result files and job files.
pub const KIND: &str = "kmc";

/// What each trajectory of a study does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The config's run: its cache (or none), its steps.
    #[default]
    Run,
    /// The run with recall and again without, checked to be the same trajectory, and timed: the speed-up.
    Recall,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Run => "run",
            Mode::Recall => "recall",
        }
    }
}

/// A study file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StudyFile {
    configs: Vec<PathBuf>,
    #[serde(default)]
    temperatures: Vec<f64>,
    #[serde(default)]
    seeds: Vec<u64>,
    #[serde(default)]
    steps: Option<u64>,
    #[serde(default)]
    mode: Mode,
}

/// A study: its configs (read and checked), temperatures, seeds, steps and mode.
#[derive(Clone, Debug)]
pub struct Study {
    /// The configs, with their paths as the study names them.
    pub configs: Vec<(String, Config)>,
    /// The temperatures (empty: each config's own).
    pub temperatures: Vec<f64>,
    /// The seeds (empty: each config's own).
    pub seeds: Vec<u64>,
    /// The steps of every trajectory, if the study sets them.
    pub steps: Option<u64>,
    /// What each trajectory does.
    pub mode: Mode,
}

/// One trajectory of a study.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trajectory {
    /// Which config.
    pub config: usize,
    /// The temperature, if the study sets it.
    pub temperature: Option<f64>,
    /// The seed, if the study sets it.
    pub seed: Option<u64>,
}

/// A study that cannot be read or run, or figures that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum EnsembleError {
    /// The study file or a config it names.
    #[error("{}: {problem}", path.display())]
    Study {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// A config that does not validate with the study's settings.
    #[error("{name}: {source}")]
    Config {
        /// The config as the study names it.
        name: String,
        /// What is wrong.
        source: ConfigError,
    },
    /// The run itself.
    #[error(transparent)]
    Run(#[from] crate::run::Error),
    /// A trajectory the study does not have.
    #[error("the study has {count} trajectories; there is no trajectory {index}")]
    NoTrajectory {
        /// The number asked for.
        index: usize,
        /// How many there are.
        count: usize,
    },
    /// A trajectory's figures or timing that cannot be read.
    #[error("{0}")]
    Figures(String),
    /// The plot.
    #[error(transparent)]
    Plot(#[from] crate::plot::PlotError),
}

impl Study {
    /// Reads a study file and the configs it names.
    ///
    /// # Errors
    ///
    /// [`EnsembleError::Study`] naming the file and what is wrong.
    pub fn read(path: &Path) -> Result<Study, EnsembleError> {
        let problem = |path: &Path, problem: String| EnsembleError::Study { path: path.to_path_buf(), problem };
        let text = std::fs::read_to_string(path).map_err(|e| problem(path, e.to_string()))?;
        let file: StudyFile = toml::from_str(&text).map_err(|e| problem(path, e.to_string().trim().to_string()))?;
        if file.configs.is_empty() {
            return Err(problem(path, "`configs` lists no config".into()));
        }
        if file.temperatures.iter().any(|t| !(t.is_finite() && *t > 0.0)) {
            return Err(problem(path, "`temperatures` must be positive numbers of kelvins".into()));
        }
        let base = path.parent().unwrap_or(Path::new(""));
        let mut configs = Vec::new();
        for name in &file.configs {
            let config_path = base.join(name);
            let text = std::fs::read_to_string(&config_path).map_err(|e| problem(&config_path, e.to_string()))?;
            let config = Config::from_toml(&text).map_err(|e| problem(&config_path, e.to_string()))?;
            configs.push((name.display().to_string(), config));
        }
        let study =
            Study { configs, temperatures: file.temperatures, seeds: file.seeds, steps: file.steps, mode: file.mode };
        for t in study.trajectories() {
            study.setup(&t)?;
        }
        Ok(study)
    }

    /// Every trajectory, configs first, then temperatures, the seed varying fastest.
    pub fn trajectories(&self) -> Vec<Trajectory> {
        let temperatures: Vec<Option<f64>> = if self.temperatures.is_empty() {
            vec![None]
        } else {
            self.temperatures.iter().copied().map(Some).collect()
        };
        let seeds: Vec<Option<u64>> =
            if self.seeds.is_empty() { vec![None] } else { self.seeds.iter().copied().map(Some).collect() };
        let mut all = Vec::new();
        for config in 0..self.configs.len() {
            for &temperature in &temperatures {
                for &seed in &seeds {
                    all.push(Trajectory { config, temperature, seed });
                }
            }
        }
        all
    }

    /// The validated setup of a trajectory: its config with the study's temperature, seed and steps.
    ///
    /// # Errors
    ///
    /// [`EnsembleError::Config`] naming the config; a trajectory needs a step count (the study's or the
    /// config's).
    pub fn setup(&self, t: &Trajectory) -> Result<Setup, EnsembleError> {
        let (name, config) = &self.configs[t.config];
        let mut config = config.clone();
        if let Some(temperature) = t.temperature {
            config.kinetics.temperature = temperature;
        }
        if let Some(seed) = t.seed {
            config.seed = seed;
        }
        if let Some(steps) = self.steps {
            config.run.steps = Some(steps);
            config.run.time = None;
        }
        let error = |source| EnsembleError::Config { name: name.clone(), source };
        if config.run.steps.is_none() {
            return Err(error(ConfigError {
                key: "run.steps".into(),
                problem: "a trajectory of an ensemble needs a step count (here or the study's `steps`)".into(),
            }));
        }
        config.validate().map_err(error)
    }

    /// Runs trajectory `index`.
    ///
    /// # Errors
    ///
    /// [`EnsembleError`]: no such trajectory, a config that does not validate, a start structure that cannot
    /// be read.
    pub fn run(&self, index: usize) -> Result<(Figures, Timing), EnsembleError> {
        let all = self.trajectories();
        let t = all.get(index).ok_or(EnsembleError::NoTrajectory { index, count: all.len() })?;
        let setup = self.setup(t)?;
        let steps = setup.steps.expect("setup checks the steps");
        let mut figures = Figures {
            config: self.configs[t.config].0.clone(),
            temperature: setup.model.temperature(),
            seed: setup.seed,
            mode: self.mode,
            steps,
            time: 0.0,
            recall_rate: 0.0,
            trial_recall_rate: None,
            computed: 0,
            initial_energy: 0.0,
            final_energy: 0.0,
        };
        let timing = match self.mode {
            Mode::Recall => {
                let row = compare_recall(&setup, steps)?;
                let (initial, last) = row.energies;
                (figures.time, figures.recall_rate, figures.trial_recall_rate) =
                    (row.time, row.recall_rate, row.trial_recall_rate);
                (figures.computed, figures.initial_energy, figures.final_energy) = (row.computed, initial, last);
                let secs = |d: Option<std::time::Duration>| d.map(|d| d.as_secs_f64());
                Timing {
                    wall: row.wall_on.as_secs_f64(),
                    wall_off: Some(row.wall_off.as_secs_f64()),
                    cpu: secs(row.cpu_on),
                    cpu_off: secs(row.cpu_off),
                }
            }
            Mode::Run => {
                let species = start_structure(&setup)?;
                let mut sim = match setup.cache {
                    Some(cache) => {
                        cache.start(setup.model.clone(), species, setup.seed).map_err(crate::run::Error::from)?
                    }
                    None => Simulation::new(setup.model.clone(), species, setup.seed, None)
                        .map_err(crate::run::Error::from)?,
                };
                figures.initial_energy = crate::energy::nev_to_ev(sim.energy());
                let (cpu, start) = (thread_cpu_time(), Instant::now());
                sim.run(steps, |_| {});
                let wall = start.elapsed().as_secs_f64();
                let cpu = thread_cpu_time().zip(cpu).map(|(end, start)| (end - start).as_secs_f64());
                figures.time = sim.time();
                figures.recall_rate = sim.counters().recall_rate();
                figures.trial_recall_rate =
                    setup.cache.filter(|c| c.trial_energies).map(|_| sim.trial_counters().recall_rate());
                figures.computed = sim.computed();
                figures.final_energy = crate::energy::nev_to_ev(sim.energy());
                Timing { wall, wall_off: None, cpu, cpu_off: None }
            }
        };
        Ok((figures, timing))
    }
}

/// What a trajectory computed: the same bits whenever it runs again.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// The config, as the study names it.
    pub config: String,
    /// Temperature in K.
    pub temperature: f64,
    /// Seed.
    pub seed: u64,
    /// What it did.
    pub mode: Mode,
    /// Steps made.
    pub steps: u64,
    /// Simulated time reached, in s.
    pub time: f64,
    /// Share of steps whose state was recalled.
    pub recall_rate: f64,
    /// Share of trial states whose energy was known, with a trial-energy table.
    pub trial_recall_rate: Option<f64>,
    /// States computed (with recall).
    pub computed: u64,
    /// Energy at the start, in eV.
    pub initial_energy: f64,
    /// Energy at the end, in eV.
    pub final_energy: f64,
}

/// The first line of [`Figures`] as text.
pub const FORMAT: &str = "tabula-kmc-trajectory 1";

impl Figures {
    /// As text, a `key value` line each (floating-point values in Rust's shortest form that reads back
    /// exactly).
    pub fn to_text(&self) -> String {
        let trial = self.trial_recall_rate.map_or("-".to_string(), |r| r.to_string());
        format!(
            "{FORMAT}\nconfig {}\ntemperature {}\nseed {}\nmode {}\nsteps {}\ntime {}\nrecall_rate {}\ntrial_recall_rate \
             {trial}\ncomputed {}\ninitial_energy {}\nfinal_energy {}\n",
            self.config,
            self.temperature,
            self.seed,
            self.mode.name(),
            self.steps,
            self.time,
            self.recall_rate,
            self.computed,
            self.initial_energy,
            self.final_energy
        )
    }

    /// Reads [`Figures::to_text`]'s text.
    ///
    /// # Errors
    ///
    /// [`EnsembleError::Figures`] naming the line missing or malformed.
    pub fn parse(text: &str) -> Result<Figures, EnsembleError> {
        let mut lines = text.lines();
        if lines.next() != Some(FORMAT) {
            return Err(EnsembleError::Figures(format!("the figures do not start with `{FORMAT}`")));
        }
        let values: BTreeMap<&str, &str> = lines.filter_map(|l| l.split_once(' ')).collect();
        let get =
            |key: &str| values.get(key).copied().ok_or_else(|| EnsembleError::Figures(format!("no `{key}` line")));
        fn parse<T: std::str::FromStr>(key: &str, text: &str) -> Result<T, EnsembleError> {
            text.parse().map_err(|_| EnsembleError::Figures(format!("bad `{key}`: `{text}`")))
        }
        let mode = match get("mode")? {
            "run" => Mode::Run,
            "recall" => Mode::Recall,
            other => return Err(EnsembleError::Figures(format!("bad `mode`: `{other}`"))),
        };
        let trial = match get("trial_recall_rate")? {
            "-" => None,
            text => Some(parse("trial_recall_rate", text)?),
        };
        Ok(Figures {
            config: get("config")?.to_string(),
            temperature: parse("temperature", get("temperature")?)?,
            seed: parse("seed", get("seed")?)?,
            mode,
            steps: parse("steps", get("steps")?)?,
            time: parse("time", get("time")?)?,
            recall_rate: parse("recall_rate", get("recall_rate")?)?,
            trial_recall_rate: trial,
            computed: parse("computed", get("computed")?)?,
            initial_energy: parse("initial_energy", get("initial_energy")?)?,
            final_energy: parse("final_energy", get("final_energy")?)?,
        })
    }
}

/// What a trajectory's clocks said: wall and CPU seconds (with recall, and without in the recall mode).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Wall seconds of the run (with recall, in the recall mode).
    pub wall: f64,
    /// Wall seconds without recall (recall mode).
    pub wall_off: Option<f64>,
    /// CPU seconds of the run, where the system reports them.
    pub cpu: Option<f64>,
    /// CPU seconds without recall (recall mode).
    pub cpu_off: Option<f64>,
}

impl Timing {
    /// Time without recall over time with it (CPU times where the system reports them, as
    /// [`RecallComparison::speedup`](crate::RecallComparison::speedup) does; wall times when a run was too short
    /// for its CPU time to register), in the recall mode.
    pub fn speedup(&self) -> Option<f64> {
        let ratio = |off: f64, on: f64| (on > 0.0 && off > 0.0).then(|| off / on);
        match (self.cpu, self.cpu_off) {
            (Some(on), Some(off)) if on > 0.0 => ratio(off, on),
            _ => self.wall_off.and_then(|off| ratio(off, self.wall)),
        }
    }

    /// As `key value` lines (`-` for a time not known).
    pub fn to_text(&self) -> String {
        let opt = |v: Option<f64>| v.map_or("-".to_string(), |v| v.to_string());
        format!(
            "wall {}\nwall_off {}\ncpu {}\ncpu_off {}\n",
            self.wall,
            opt(self.wall_off),
            opt(self.cpu),
            opt(self.cpu_off)
        )
    }

    /// Reads the `key value` lines of [`Timing::to_text`] among others.
    ///
    /// # Errors
    ///
    /// [`EnsembleError::Figures`] when `wall` is missing or a value is malformed.
    pub fn parse(text: &str) -> Result<Timing, EnsembleError> {
        let values: BTreeMap<&str, &str> = text.lines().filter_map(|l| l.split_once(' ')).collect();
        let opt = |key: &str| -> Result<Option<f64>, EnsembleError> {
            match values.get(key) {
                None | Some(&"-") => Ok(None),
                Some(v) => v.parse().map(Some).map_err(|_| EnsembleError::Figures(format!("bad `{key}`: `{v}`"))),
            }
        };
        let wall = opt("wall")?.ok_or_else(|| EnsembleError::Figures("no `wall` line".into()))?;
        Ok(Timing { wall, wall_off: opt("wall_off")?, cpu: opt("cpu")?, cpu_off: opt("cpu_off")? })
    }
}

/// The mean, its standard error (`None` for one value) and the median of some values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Statistic {
    /// The mean.
    pub mean: f64,
    /// The standard error of the mean: the sample standard deviation over √n.
    pub error: Option<f64>,
    /// The median.
    pub median: f64,
}

impl Statistic {
    /// Of `values` (at least one).
    pub fn of(values: &[f64]) -> Statistic {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let error = (values.len() > 1).then(|| {
            let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
            (variance / n).sqrt()
        });
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 { sorted[mid] } else { 0.5 * (sorted[mid - 1] + sorted[mid]) };
        Statistic { mean, error, median }
    }

    /// `mean ± error [median]` scaled, with `digits` decimals (negative: that many in scientific notation).
    fn show(&self, scale: f64, digits: i32) -> String {
        let number = |v: f64| {
            let d = digits.unsigned_abs() as usize;
            if digits < 0 {
                format!("{:.d$e}", v * scale)
            } else {
                format!("{:.d$}", v * scale)
            }
        };
        let error = self.error.map_or("–".to_string(), number);
        format!("{} ± {error} [{}]", number(self.mean), number(self.median))
    }
}

/// The trajectories of one config at one temperature.
#[derive(Clone, Debug)]
pub struct Group {
    /// The config.
    pub config: String,
    /// The temperature in K.
    pub temperature: f64,
    /// Its trajectories, in the order given.
    pub runs: Vec<(Figures, Timing)>,
}

impl Group {
    fn statistic(&self, f: impl Fn(&Figures, &Timing) -> Option<f64>) -> Option<Statistic> {
        let values: Vec<f64> = self.runs.iter().filter_map(|(fig, t)| f(fig, t)).collect();
        (!values.is_empty()).then(|| Statistic::of(&values))
    }
}

/// An ensemble: trajectories grouped by config and temperature, in the order they first come.
#[derive(Clone, Debug)]
pub struct Ensemble {
    groups: Vec<Group>,
}

/// The quantities of the table: a title, the value of a trajectory, the scale shown and the digits (negative:
/// that many in scientific notation).
type Column = (&'static str, fn(&Figures, &Timing) -> Option<f64>, f64, i32);

const COLUMNS: [Column; 6] = [
    ("trial recall (%)", |f, _| f.trial_recall_rate, 100.0, 2),
    ("states recalled (%)", |f, _| Some(f.recall_rate), 100.0, 2),
    ("speed-up", |_, t| t.speedup(), 1.0, 2),
    ("states computed", |f, _| Some(f.computed as f64), 1.0, 0),
    ("simulated time (s)", |f, _| Some(f.time), 1.0, -3),
    ("final energy (eV)", |f, _| Some(f.final_energy), 1.0, 4),
];

impl Ensemble {
    /// Groups `runs` by config and temperature.
    pub fn new(runs: impl IntoIterator<Item = (Figures, Timing)>) -> Ensemble {
        let mut groups: Vec<Group> = Vec::new();
        for (figures, timing) in runs {
            match groups.iter_mut().find(|g| g.config == figures.config && g.temperature == figures.temperature) {
                Some(group) => group.runs.push((figures, timing)),
                None => groups.push(Group {
                    config: figures.config.clone(),
                    temperature: figures.temperature,
                    runs: vec![(figures, timing)],
                }),
            }
        }
        Ensemble { groups }
    }

    /// The groups.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The table: a row per config and temperature, each quantity as `mean ± standard error [median]`; then a
    /// line per trajectory.
    pub fn table(&self) -> String {
        let columns: Vec<&Column> =
            COLUMNS.iter().filter(|c| self.groups.iter().any(|g| g.statistic(c.1).is_some())).collect();
        let mut rows = vec![["config", "T (K)", "n"]
            .iter()
            .map(|s| s.to_string())
            .chain(columns.iter().map(|c| c.0.to_string()))
            .collect::<Vec<_>>()];
        for g in &self.groups {
            let mut row = vec![g.config.clone(), format!("{}", g.temperature), g.runs.len().to_string()];
            row.extend(columns.iter().map(|c| g.statistic(c.1).map_or("–".to_string(), |s| s.show(c.2, c.3))));
            rows.push(row);
        }
        let widths: Vec<usize> =
            (0..rows[0].len()).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
        let mut text = String::new();
        for row in &rows {
            let cells: Vec<String> = row.iter().zip(&widths).map(|(c, w)| format!("{c:>w$}")).collect();
            text.push_str(cells.join("  ").trim_end());
            text.push('\n');
        }
        text.push_str("(mean ± standard error [median] over the trajectories of each row)\n");
        text
    }

    /// A line per trajectory: config, temperature, seed and its figures.
    pub fn trajectories(&self) -> String {
        let mut text = String::new();
        for g in &self.groups {
            for (f, t) in &g.runs {
                let trial = f.trial_recall_rate.map_or("–".to_string(), |r| format!("{:.2} %", 100.0 * r));
                let speedup = t.speedup().map_or("–".to_string(), |s| format!("{s:.2}x"));
                text.push_str(&format!(
                    "{} {} K seed {}: trial recall {trial}, states recalled {:.2} %, speed-up {speedup}, states \
                     computed {}, time {:.4e} s, energy {:.4} -> {:.4} eV, wall {:.3} s\n",
                    g.config,
                    g.temperature,
                    f.seed,
                    100.0 * f.recall_rate,
                    f.computed,
                    f.time,
                    f.initial_energy,
                    f.final_energy,
                    t.wall
                ));
            }
        }
        text
    }

    /// Draws the means against temperature, one line per config with the standard errors as bars: the recall
    /// rate (of trial states where there is a table of them) on top, the speed-up (recall mode) or the final
    /// energy below.
    ///
    /// # Errors
    ///
    /// [`EnsembleError::Plot`] when drawing or writing fails.
    pub fn plot(&self, path: &Path, title: &str) -> Result<(), EnsembleError> {
        let err = |e: &dyn fmt::Display| crate::plot::PlotError(e.to_string());
        let recall: Column =
            if self.groups.iter().any(|g| g.statistic(COLUMNS[0].1).is_some()) { COLUMNS[0] } else { COLUMNS[1] };
        let lower: Column =
            if self.groups.iter().any(|g| g.statistic(COLUMNS[2].1).is_some()) { COLUMNS[2] } else { COLUMNS[5] };
        let root = SVGBackend::new(path, (900, 700)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let root = root.titled(title, ("sans-serif", 20)).map_err(|e| err(&e))?;
        let (top, bottom) = root.split_vertically(350);
        let temperatures: Vec<f64> = self.groups.iter().map(|g| g.temperature).collect();
        let t_range = crate::plot::range(temperatures.iter().copied());
        let configs: Vec<&str> = {
            let mut c: Vec<&str> = self.groups.iter().map(|g| g.config.as_str()).collect();
            c.dedup();
            c
        };
        for (area, column) in [(&top, recall), (&bottom, lower)] {
            let points: Vec<(usize, f64, Statistic)> = self
                .groups
                .iter()
                .filter_map(|g| {
                    let config = configs.iter().position(|c| *c == g.config).unwrap_or(0);
                    g.statistic(column.1).map(|s| (config, g.temperature, s))
                })
                .collect();
            let values = points.iter().flat_map(|(_, _, s)| {
                let e = s.error.unwrap_or(0.0);
                [(s.mean - e) * column.2, (s.mean + e) * column.2]
            });
            let mut chart = ChartBuilder::on(area)
                .margin(10)
                .x_label_area_size(35)
                .y_label_area_size(80)
                .build_cartesian_2d(t_range.clone(), crate::plot::range(values))
                .map_err(|e| err(&e))?;
            chart.configure_mesh().x_desc("temperature (K)").y_desc(column.0).draw().map_err(|e| err(&e))?;
            for (c, name) in configs.iter().enumerate() {
                let colour = Palette99::pick(c).to_rgba();
                let mut mine: Vec<(f64, Statistic)> = points.iter().filter(|p| p.0 == c).map(|p| (p.1, p.2)).collect();
                mine.sort_by(|a, b| a.0.total_cmp(&b.0));
                chart
                    .draw_series(LineSeries::new(mine.iter().map(|(t, s)| (*t, s.mean * column.2)), colour))
                    .map_err(|e| err(&e))?
                    .label(*name)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
                chart
                    .draw_series(mine.iter().map(|(t, s)| {
                        let e = s.error.unwrap_or(0.0) * column.2;
                        let m = s.mean * column.2;
                        ErrorBar::new_vertical(*t, m - e, m, m + e, colour.filled(), 8)
                    }))
                    .map_err(|e| err(&e))?;
            }
            chart.configure_series_labels().border_style(BLACK).draw().map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(temperature: f64, seed: u64, recall_rate: f64) -> Figures {
        Figures {
            config: "a.toml".into(),
            temperature,
            seed,
            mode: Mode::Recall,
            steps: 10,
            time: 1.25e-9 * seed as f64,
            recall_rate,
            trial_recall_rate: Some(recall_rate + 0.1),
            computed: 7,
            initial_energy: -1.0 / 3.0,
            final_energy: -0.1,
        }
    }

    #[test]
    fn figures_and_timing_read_back_exactly() {
        let f = figures(773.0, 3, 0.123_456_789_012_345_67);
        assert_eq!(Figures::parse(&f.to_text()).unwrap(), f);
        let t = Timing { wall: 1.5, wall_off: Some(3.0), cpu: None, cpu_off: None };
        assert_eq!(Timing::parse(&t.to_text()).unwrap(), t);
        assert_eq!(t.speedup(), Some(2.0));
        assert!(Figures::parse("x").is_err());
        assert!(Figures::parse(&f.to_text().replace("seed 3", "seed x")).unwrap_err().to_string().contains("`seed`"));
    }

    #[test]
    fn statistics_and_the_table() {
        let s = Statistic::of(&[1.0, 2.0, 3.0, 10.0]);
        assert_eq!((s.mean, s.median), (4.0, 2.5));
        assert!((s.error.unwrap() - (50.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
        assert_eq!(Statistic::of(&[5.0]).error, None);
        let t = Timing { wall: 1.0, wall_off: Some(2.0), cpu: None, cpu_off: None };
        let ensemble =
            Ensemble::new([(figures(773.0, 1, 0.5), t), (figures(373.0, 1, 0.9), t), (figures(773.0, 2, 0.7), t)]);
        assert_eq!(ensemble.groups().len(), 2);
        let table = ensemble.table();
        let row = table.lines().find(|l| l.contains(" 773 ")).unwrap();
        assert!(row.contains("60.00 ± 10.00 [60.00]"), "{table}");
        assert!(table.lines().nth(2).unwrap().contains("90.00 ± – [90.00]"), "{table}");
        let path = std::env::temp_dir().join(format!("tabula-ensemble-plot-{}.svg", std::process::id()));
        ensemble.plot(&path, "test").unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains("<svg"));
        std::fs::remove_file(&path).unwrap();
    }
}
