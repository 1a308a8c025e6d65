//! The experiment of Mason, Hudson & Sutton (2005): dilute bcc Fe–1 at.% Cu with one vacancy at 1073, 773 and
//! 373 K, the same trajectory with state recall on and off; prints recall rates, CPU times and speed-ups.
//!
//! ```text
//! cargo run --release -p tabula-kmc --example recall_experiment -- [--energy eam|pair] [--steps N] [--size N]
//!     [--mib M] [--repeats R] [--temperatures 1073,773,373] [--solution E] [--trial-energies on|off] [--shells S]
//! ```
//!
//! - `--energy eam` (the default): the Finnis–Sinclair Fe–Cu potential of Ackland et al.
//!   ([`tabula_kmc::analytic::ackland_fe_cu_with`], written to a temporary `eam/fs` file and read back as a config
//!   would), lattice constant 2.8665 Å, the cross term set by `--solution` (the unrelaxed heat of solution of Cu
//!   in eV, 0.9 by default). `--energy pair`: the example config's pair energies, padded with zero shells up to
//!   `--shells` (the same physics, the cost of a model with that many shells).
//! - `--steps` per run (10 000 000), `--size` cells along an edge (10: 2,000 sites, 20 Cu), `--mib` the bound of
//!   each table in MiB (0.25), `--repeats` (3): each on/off pair is run that many times and the medians are
//!   printed, the speed-up being the median of the per-repeat ratios of CPU times (Linux reports a thread's CPU
//!   time; elsewhere wall time).
//! - `--trial-energies`: whether a state not recalled takes its trial states' energies from a second table (on by
//!   default for EAM, off for pairs).

use std::time::Duration;
use tabula_kmc::{compare_recall, example_config, Config, RecallComparison};

/// The value after `--name`, if given.
fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(|v| v.replace('_', ""))
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let energy = flag(&args, "--energy").unwrap_or_else(|| "eam".into());
    let steps: u64 = flag(&args, "--steps").map_or(Ok(10_000_000), |s| s.parse())?;
    let repeats: usize = flag(&args, "--repeats").map_or(Ok(3), |s| s.parse())?;
    let temperatures: Vec<f64> = flag(&args, "--temperatures")
        .unwrap_or_else(|| "1073,773,373".into())
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let mut config = Config::from_toml(example_config())?;
    if let Some(size) = flag(&args, "--size") {
        config.lattice.size = size.parse()?;
    }
    if let Some(mib) = flag(&args, "--mib") {
        config.cache.mib = mib.parse()?;
    }
    if let Some(trial) = flag(&args, "--trial-energies") {
        config.cache.trial_energies = Some(trial == "on");
    }
    let description = match energy.as_str() {
        "eam" => {
            let solution: f64 = flag(&args, "--solution").map_or(Ok(0.9), |s| s.parse())?;
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
            let shells: usize = flag(&args, "--shells").map_or(Ok(2), |s| s.parse())?;
            for values in config.energy.values_mut().filter_map(|v| v.as_array_mut()) {
                values.resize(shells.max(values.len()), 0.0.into());
            }
            format!("pair energies, {} shells", shells.max(2))
        }
        other => return Err(format!("--energy eam or pair, not {other}").into()),
    };
    println!(
        "Mason, Hudson & Sutton (2005), Fe-1at.%Cu + 1 vacancy: recall 61.2 / 85.1 / 99.9 % at 1073 / 773 / 373 K;"
    );
    println!("speed-up 6.3x at 773 K, over 100x at 373 K.");
    println!(
        "This run: bcc {n}x{n}x{n}, {description}, {} MiB {} cache, {steps} steps per run, median of {repeats}",
        config.cache.mib,
        config.cache.policy,
        n = config.lattice.size
    );
    for temperature in temperatures {
        config.kinetics.temperature = temperature;
        let setup = config.validate()?;
        let rows: Vec<RecallComparison> =
            (0..repeats.max(1)).map(|_| compare_recall(&setup, steps)).collect::<Result<_, _>>()?;
        let seconds = |f: &dyn Fn(&RecallComparison) -> Option<Duration>| {
            rows.iter().map(|r| f(r).map(|d| d.as_secs_f64())).collect::<Option<Vec<f64>>>().map(median)
        };
        let median_of = |d: Option<f64>| d.map(Duration::from_secs_f64);
        let row = RecallComparison {
            wall_on: Duration::from_secs_f64(median(rows.iter().map(|r| r.wall_on.as_secs_f64()).collect())),
            wall_off: Duration::from_secs_f64(median(rows.iter().map(|r| r.wall_off.as_secs_f64()).collect())),
            cpu_on: median_of(seconds(&|r| r.cpu_on)),
            cpu_off: median_of(seconds(&|r| r.cpu_off)),
            ..rows[0].clone()
        };
        let ratios: Vec<String> = rows.iter().map(|r| format!("{:.2}", r.speedup())).collect();
        println!("{row}");
        println!(
            "        median speed-up {:.2}x (per repeat: {})",
            median(rows.iter().map(RecallComparison::speedup).collect()),
            ratios.join(", ")
        );
    }
    Ok(())
}
