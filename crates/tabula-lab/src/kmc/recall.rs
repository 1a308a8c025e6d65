//! `recall`: the experiment of Mason, Hudson & Sutton (2005): dilute bcc Fe–1 at.% Cu with one vacancy at 1073,
//! 773 and 373 K, the same trajectory with state recall on and off; prints recall rates, CPU times and
//! speed-ups.
//!
//! ```text
//! kmc recall [--energy eam|pair] [--steps N] [--size N] [--mib M] [--trajectories T] [--repeats R]
//!     [--temperatures 1073,773,373] [--solution E] [--trial-energies on|off] [--shells S]
//! ```
//!
//! - `--energy eam` (the default): the Finnis–Sinclair Fe–Cu potential of Ackland et al.
//!   (`tabula_kmc::analytic::ackland_fe_cu_with`, written to a temporary `eam/fs` file and read back as a config
//!   would), lattice constant 2.8665 Å, the cross term set by `--solution` (the unrelaxed heat of solution of Cu
//!   in eV, 0.9 by default). `--energy pair`: the example config's pair energies, padded with zero shells up to
//!   `--shells` (the same physics, the cost of a model with that many shells).
//! - `--steps` per run (10 000 000), `--size` cells along an edge (10: 2,000 sites, 20 Cu), `--mib` the bound of
//!   each table in MiB (0.25). `--trajectories` (5): trajectories from the seeds `seed`, `seed + 1`, … (each its
//!   own random start and random stream), each run with recall on and off `--repeats` times (1); the figures
//!   printed are the medians over trajectories, the speed-up being the median of the per-run ratios of CPU times
//!   (Linux reports a thread's CPU time; elsewhere wall time). At 373 K one trajectory's recall differs from
//!   another's by more than a tenth of a point, so one trajectory is not a measurement.
//! - `--trial-energies`: whether a state not recalled takes its trial states' energies from a second table (on by
//!   default for EAM, off for pairs).
//!
//! Numbers may be written with `_` between digits (`--steps 10_000_000`). Standard output gets the published
//! figures, a line on this run, a line per run and the medians per temperature.

use std::time::Duration;
use tabula_kmc::{compare_recall, example_config, Config, RecallComparison};

/// The experiment's model, size and runs.
#[derive(clap::Args)]
pub struct Args {
    /// The energy model: `eam` (Ackland et al.'s Fe–Cu potential) or `pair` (the example config's).
    #[arg(long, default_value = "eam", value_parser = plain::<String>)]
    energy: String,
    /// Steps per run.
    #[arg(long, default_value = "10000000", value_parser = plain::<u64>)]
    steps: u64,
    /// Cells along an edge (the example config's if absent).
    #[arg(long, value_parser = plain::<usize>)]
    size: Option<usize>,
    /// The bound of each table in MiB (the example config's if absent).
    #[arg(long, value_parser = plain::<f64>)]
    mib: Option<f64>,
    /// Trajectories, from the config's seed on.
    #[arg(long, default_value = "5", value_parser = plain::<u64>)]
    trajectories: u64,
    /// Runs with recall on and off of each trajectory.
    #[arg(long, default_value = "1", value_parser = plain::<usize>)]
    repeats: usize,
    /// Temperatures in K, separated by commas.
    #[arg(long, default_value = "1073,773,373", value_parser = plain::<String>)]
    temperatures: String,
    /// With `eam`: the unrelaxed heat of solution of Cu in Fe, in eV.
    #[arg(long, default_value = "0.9", value_parser = plain::<f64>)]
    solution: f64,
    /// `on` or `off`: whether a state not recalled takes its trial states' energies from a second table
    /// (the config's default if absent: on for EAM, off for pairs).
    #[arg(long, value_parser = plain::<String>)]
    trial_energies: Option<String>,
    /// With `pair`: the shells of pair energies, the config's padded with zeros.
    #[arg(long, default_value = "2", value_parser = plain::<usize>)]
    shells: usize,
}

/// A value with any `_` between its digits taken out, parsed.
fn plain<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.replace('_', "").parse().map_err(|e: T::Err| e.to_string())
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    }
}

/// Runs `recall`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Args {
        ref energy,
        steps,
        size,
        mib,
        trajectories,
        repeats,
        ref temperatures,
        solution,
        ref trial_energies,
        shells,
    } = *args;
    let temperatures: Vec<f64> = temperatures.split(',').map(str::parse).collect::<Result<_, _>>()?;
    let mut config = Config::from_toml(example_config())?;
    if let Some(size) = size {
        config.lattice.size = size;
    }
    if let Some(mib) = mib {
        config.cache.mib = mib;
    }
    if let Some(trial) = trial_energies {
        config.cache.trial_energies = Some(trial == "on");
    }
    let description = match energy.as_str() {
        "eam" => {
            let potential = tabula_kmc::analytic::ackland_fe_cu_with(solution);
            let path = std::env::temp_dir().join(format!("tabula-kmc-experiment-{}.eam.fs", std::process::id()));
            std::fs::write(&path, potential.to_file_text())?;
            config.lattice.constant = 2.8665;
            config.energy.clear();
            config.energy.insert("model".into(), "eam".into());
            config.energy.insert("potential".into(), path.display().to_string().into());
            format!("Ackland et al. Fe-Cu Finnis-Sinclair, Cu heat of solution {solution} eV")
        }
        "pair" => {
            for values in config.energy.values_mut().filter_map(|v| v.as_array_mut()) {
                values.resize(shells.max(values.len()), 0.0.into());
            }
            format!("pair energies, {} shells", shells.max(2))
        }
        other => anyhow::bail!("--energy eam or pair, not {other}"),
    };
    println!(
        "Mason, Hudson & Sutton (2005), Fe-1at.%Cu + 1 vacancy: recall 61.2 / 85.1 / 99.9 % at 1073 / 773 / 373 K;"
    );
    println!("speed-up 6.3x at 773 K, over 100x at 373 K.");
    println!(
        "This run: bcc {n}x{n}x{n}, {description}, {} MiB {} cache, {steps} steps per run, seeds {}..={}, {repeats} \
         run(s) of each",
        config.cache.mib,
        config.cache.policy,
        config.seed,
        config.seed + trajectories.max(1) - 1,
        n = config.lattice.size
    );
    let first_seed = config.seed;
    for temperature in temperatures {
        config.kinetics.temperature = temperature;
        let mut rows: Vec<RecallComparison> = Vec::new();
        for seed in first_seed..first_seed + trajectories.max(1) {
            config.seed = seed;
            let setup = config.validate()?;
            for _ in 0..repeats.max(1) {
                let row = compare_recall(&setup, steps)?;
                println!("  seed {seed}: {row}");
                rows.push(row);
            }
        }
        let median_u64 = |f: &dyn Fn(&RecallComparison) -> u64| median(rows.iter().map(|r| f(r) as f64).collect());
        let seconds = |f: &dyn Fn(&RecallComparison) -> Option<Duration>| {
            rows.iter().map(|r| f(r).map(|d| d.as_secs_f64())).collect::<Option<Vec<f64>>>().map(median)
        };
        let median_of = |d: Option<f64>| d.map(Duration::from_secs_f64);
        let row = RecallComparison {
            wall_on: Duration::from_secs_f64(median(rows.iter().map(|r| r.wall_on.as_secs_f64()).collect())),
            wall_off: Duration::from_secs_f64(median(rows.iter().map(|r| r.wall_off.as_secs_f64()).collect())),
            cpu_on: median_of(seconds(&|r| r.cpu_on)),
            cpu_off: median_of(seconds(&|r| r.cpu_off)),
            time: median(rows.iter().map(|r| r.time).collect()),
            recall_rate: median(rows.iter().map(|r| r.recall_rate).collect()),
            trial_recall_rate: rows.iter().map(|r| r.trial_recall_rate).collect::<Option<Vec<f64>>>().map(median),
            computed: median_u64(&|r| r.computed).round() as u64,
            collisions: rows.iter().map(|r| r.collisions).sum(),
            ..rows[0].clone()
        };
        let ratios: Vec<String> = rows.iter().map(|r| format!("{:.2}", r.speedup())).collect();
        let trials: Vec<String> =
            rows.iter().filter_map(|r| r.trial_recall_rate).map(|t| format!("{:.2}", 100.0 * t)).collect();
        println!("median {row}");
        println!(
            "        median speed-up {:.2}x (per run: {}); trial recall per run (%): {}",
            median(rows.iter().map(RecallComparison::speedup).collect()),
            ratios.join(", "),
            trials.join(", ")
        );
    }
    Ok(())
}
