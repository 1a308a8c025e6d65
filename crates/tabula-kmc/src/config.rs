//! The TOML config: [`Config`] as read, and [`Config::validate`] turning it into a [`Setup`] ready to run.
//!
//! Every error is a [`ConfigError`] that names the key (`kinetics.temperature`, `energy.Fe-Cu`, ...) and says
//! what is wrong with it. [`example_config`] returns a commented example covering every key.
//!
//! The `[energy]` table chooses the energy model: `model = "pair"` (the default) with pair energies per shell
//! (`Fe-Cu = [ε1, ε2]`), or `model = "eam"` with `potential = "FILE"`, a LAMMPS `eam`, `eam/alloy` or `eam/fs`
//! file (its style from the name, or `style = "eam/fs"`). A relative potential path is taken from the current
//! directory.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::config::{example_config, Config};
//!
//! let config = Config::from_toml(example_config()).unwrap();
//! let setup = config.validate().unwrap();
//! assert_eq!(setup.species, ["Fe", "Cu"]);
//! assert_eq!(setup.model.lattice().sites(), 2000);
//!
//! let bad = example_config().replace("temperature = 773.0", "temperature = -5.0");
//! let err = Config::from_toml(&bad).unwrap().validate().unwrap_err();
//! assert_eq!(err.key, "kinetics.temperature");
//! ```

use crate::cache::{Replacement, StateCache};
use crate::eam::LatticeEam;
use crate::energy::{ev_to_nev, PairEnergies};
use crate::kmc::{Energy, Model, Simulation, SimulationError};
use crate::lattice::{shells_within, Lattice, LatticeKind, MAX_SHELLS};
use crate::potential::{EamPotential, Style};
use crate::Species;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The name of the vacancy in the `[energy]` table.
pub const VACANCY_NAME: &str = "Vac";

/// The commented example config: dilute bcc Fe–1 at.% Cu with one vacancy, parameters cited in the file.
pub fn example_config() -> &'static str {
    include_str!("example.toml")
}

/// A config key and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("config key `{key}`: {problem}")]
pub struct ConfigError {
    /// The dotted key, e.g. `kinetics.temperature`.
    pub key: String,
    /// What is wrong, and what was expected.
    pub problem: String,
}

impl ConfigError {
    fn new(key: impl Into<String>, problem: impl Into<String>) -> Self {
        Self { key: key.into(), problem: problem.into() }
    }
}

/// `[lattice]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatticeConfig {
    /// `sc`, `bcc` or `fcc`.
    pub kind: LatticeKind,
    /// Conventional cells along each axis.
    pub size: usize,
    /// Lattice constant in Å, for output positions.
    pub constant: f64,
}

/// `[alloy]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlloyConfig {
    /// Chemical symbols; the first is the matrix.
    pub species: Vec<String>,
    /// Atomic fractions of the non-matrix species.
    #[serde(default)]
    pub composition: BTreeMap<String, f64>,
    /// Number of vacancies.
    #[serde(default = "one")]
    pub vacancies: usize,
    /// An extended XYZ file to start from, instead of a random structure.
    #[serde(default)]
    pub structure: Option<PathBuf>,
}

fn one() -> usize {
    1
}

/// `[kinetics]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KineticsConfig {
    /// Temperature in K.
    pub temperature: f64,
    /// Attempt frequency ν in 1/s.
    pub attempt_frequency: f64,
    /// `E_0` in eV per species of the jumping atom.
    pub e0: BTreeMap<String, f64>,
}

/// `[run]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Stop after this many steps.
    #[serde(default)]
    pub steps: Option<u64>,
    /// Stop after this much simulated time, in s.
    #[serde(default)]
    pub time: Option<f64>,
    /// Steps between output frames and log rows; 0 writes the first and last only.
    #[serde(default)]
    pub output_interval: u64,
    /// Whether to write `plot.svg`.
    #[serde(default = "yes")]
    pub plot: bool,
}

fn yes() -> bool {
    true
}

/// `[cache]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    /// Whether states are recalled.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Memory bound in MiB (a fraction of one is fine).
    #[serde(default = "default_mib")]
    pub mib: f64,
    /// Replacement policy.
    #[serde(default)]
    pub policy: Replacement,
    /// Whether an independent check key is compared, counting real collisions.
    #[serde(default)]
    pub verify: bool,
    /// Whether a state that is not recalled takes the energies of its trial states from a second table (as large
    /// again) instead of computing them; by default on for `model = "eam"`, off for pairs (whose ΔE costs less
    /// than the look-up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial_energies: Option<bool>,
}

fn default_mib() -> f64 {
    DEFAULT_MIB
}

/// The cache's memory bound by default, in MiB: a quarter, which keeps the cache and its trial-energy table in a
/// processor's second-level cache and recalls nearly as much as 4 MiB (see the README).
pub const DEFAULT_MIB: f64 = 0.25;

impl Default for CacheConfig {
    fn default() -> Self {
        Self { enabled: true, mib: default_mib(), policy: Replacement::Lru, verify: false, trial_energies: None }
    }
}

/// A config as read from TOML, not yet checked; [`Config::validate`] checks it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Seed of the trajectory and of the random start.
    pub seed: u64,
    /// `[lattice]`.
    pub lattice: LatticeConfig,
    /// `[alloy]`.
    pub alloy: AlloyConfig,
    /// `[energy]`: `model` (`"pair"` or `"eam"`); for pairs `"A-B" = [ε1, ε2, ...]` in eV, for EAM
    /// `potential = "FILE"` and optionally `style`.
    pub energy: BTreeMap<String, toml::Value>,
    /// `[kinetics]`.
    pub kinetics: KineticsConfig,
    /// `[run]`.
    pub run: RunConfig,
    /// `[cache]`.
    #[serde(default)]
    pub cache: CacheConfig,
}

/// Cache settings of a validated config.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CacheSetup {
    /// Memory bound in MiB, of each table.
    pub mib: f64,
    /// Whether check keys are compared.
    pub verify: bool,
    /// Replacement policy.
    pub policy: Replacement,
    /// Whether the energies of trial states are kept too ([`Simulation::with_trial_energies`]).
    pub trial_energies: bool,
}

impl CacheSetup {
    /// An empty cache for states with `events` events.
    ///
    /// # Panics
    ///
    /// If the bound holds no bucket, which [`Config::validate`] has ruled out.
    pub fn build(&self, events: usize) -> StateCache {
        StateCache::new(self.mib, events, self.verify, self.policy).expect("validated cache size")
    }

    /// A simulation of `model` from `species` with these caches.
    ///
    /// # Errors
    ///
    /// As [`Simulation::new`].
    pub fn start(&self, model: Model, species: Vec<Species>, seed: u64) -> Result<Simulation, SimulationError> {
        let vacancies = species.iter().filter(|&&s| s == model.vacancy()).count();
        let cache = self.build(model.events_per_state(vacancies));
        let sim = Simulation::new(model, species, seed, Some(cache))?;
        if self.trial_energies {
            sim.with_trial_energies(self.build(0))
        } else {
            Ok(sim)
        }
    }
}

/// A validated config: the model built, every value checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The physics.
    pub model: Model,
    /// The energy model in words: `pair energies, 2 shells` or `eam/fs FILE, cutoff 4.43 Å, 3 shells`.
    pub energy: String,
    /// Chemical symbols, by species number.
    pub species: Vec<String>,
    /// Atoms of each species in a random start (they sum to sites − vacancies).
    pub counts: Vec<usize>,
    /// Number of vacancies.
    pub vacancies: usize,
    /// Lattice constant in Å.
    pub lattice_constant: f64,
    /// Seed.
    pub seed: u64,
    /// Step limit.
    pub steps: Option<u64>,
    /// Simulated-time limit in s.
    pub time: Option<f64>,
    /// Steps between outputs (0: first and last only).
    pub output_interval: u64,
    /// Whether to plot.
    pub plot: bool,
    /// The cache, if recall is on.
    pub cache: Option<CacheSetup>,
    /// Start structure file, if any.
    pub structure: Option<PathBuf>,
}

fn positive(key: &str, value: f64) -> Result<f64, ConfigError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(ConfigError::new(key, format!("must be a positive number, got {value}")))
    }
}

impl Config {
    /// Reads a config from TOML text.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the key that is missing, unknown or of the wrong type, or the line of a syntax
    /// error.
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        let de = toml::Deserializer::parse(text).map_err(|e| syntax_error(text, &e))?;
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let message = inner.message().to_string();
            // serde names a missing field in the message and puts the path at its parent.
            let key = match message.strip_prefix("missing field `").and_then(|m| m.split('`').next()) {
                Some(field) if path == "." => field.to_string(),
                Some(field) => format!("{path}.{field}"),
                None => path,
            };
            ConfigError::new(key, message.trim().to_string())
        })
    }

    /// Checks every value and builds the model.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the first key found wrong.
    pub fn validate(&self) -> Result<Setup, ConfigError> {
        // Species.
        let species = &self.alloy.species;
        if species.is_empty() {
            return Err(ConfigError::new("alloy.species", "list at least one species (the matrix first)"));
        }
        if species.len() >= u8::MAX as usize {
            return Err(ConfigError::new("alloy.species", format!("at most {} species", u8::MAX - 1)));
        }
        for (i, name) in species.iter().enumerate() {
            if name.is_empty() || name.contains(char::is_whitespace) || name.contains('-') {
                return Err(ConfigError::new("alloy.species", format!("`{name}` is not a usable symbol")));
            }
            if name == VACANCY_NAME || name == "X" {
                return Err(ConfigError::new("alloy.species", format!("`{name}` is reserved for the vacancy")));
            }
            if species[..i].contains(name) {
                return Err(ConfigError::new("alloy.species", format!("`{name}` is listed twice")));
            }
        }
        let index = |name: &str| species.iter().position(|s| s == name);

        // Energy model, then the lattice it needs: the pair lists or the potential's cutoff set the shells.
        let lattice_constant = positive("lattice.constant", self.lattice.constant)?;
        let model = match self.energy.get("model") {
            None => "pair",
            Some(toml::Value::String(m)) if m == "pair" || m == "eam" => m.as_str(),
            Some(other) => return Err(ConfigError::new("energy.model", format!("\"pair\" or \"eam\", not {other}"))),
        };
        let lattice_for = |shells: usize| {
            Lattice::new(self.lattice.kind, self.lattice.size, shells)
                .map_err(|e| ConfigError::new("lattice.size", e.to_string()))
        };
        let (lattice, energy, energy_label) = if model == "pair" {
            let pairs = self.pair_energies(species)?;
            let label =
                format!("pair energies, {} shell{}", pairs.shells(), if pairs.shells() == 1 { "" } else { "s" });
            (lattice_for(pairs.shells())?, Energy::Pair(pairs), label)
        } else {
            let (potential, path) = self.potential()?;
            let shells = shells_within(self.lattice.kind, lattice_constant, potential.cutoff());
            if shells == 0 {
                return Err(ConfigError::new(
                    "energy.potential",
                    format!(
                        "its cutoff {} Å is shorter than the first-neighbour distance at lattice.constant",
                        potential.cutoff()
                    ),
                ));
            }
            let lattice = lattice_for(shells)?;
            let names: Vec<&str> = species.iter().map(String::as_str).collect();
            let eam = LatticeEam::new(&potential, &names, &lattice, lattice_constant)
                .map_err(|e| ConfigError::new("energy.potential", format!("{path}: {e}")))?;
            let label = format!("{} {path}, cutoff {:.4} Å, {shells} shells", potential.style(), potential.cutoff());
            (lattice, Energy::Eam(eam), label)
        };

        // Composition.
        let vacancies = self.alloy.vacancies;
        let z = lattice.coordination(0);
        if vacancies == 0 || vacancies > z || vacancies >= lattice.sites() {
            return Err(ConfigError::new("alloy.vacancies", format!("must be between 1 and {z}, got {vacancies}")));
        }
        let atoms = lattice.sites() - vacancies;
        let mut counts = vec![0; species.len()];
        for (name, &fraction) in &self.alloy.composition {
            let key = format!("alloy.composition.{name}");
            match index(name) {
                None => return Err(ConfigError::new(key, format!("`{name}` is not in alloy.species"))),
                Some(0) => {
                    return Err(ConfigError::new(key, "the matrix (first species) takes the rest; leave it out"))
                }
                Some(i) if (0.0..=1.0).contains(&fraction) => counts[i] = (fraction * atoms as f64).round() as usize,
                Some(_) => return Err(ConfigError::new(key, format!("a fraction in [0, 1], got {fraction}"))),
            }
        }
        let solutes: usize = counts.iter().sum();
        if solutes > atoms {
            return Err(ConfigError::new("alloy.composition", "the fractions add up to more than 1"));
        }
        counts[0] = atoms - solutes;

        // Kinetics.
        let temperature = positive("kinetics.temperature", self.kinetics.temperature)?;
        let nu = positive("kinetics.attempt_frequency", self.kinetics.attempt_frequency)?;
        let mut e0 = vec![0; species.len()];
        for name in self.kinetics.e0.keys() {
            if index(name).is_none() {
                return Err(ConfigError::new(format!("kinetics.e0.{name}"), "not in alloy.species"));
            }
        }
        for (i, name) in species.iter().enumerate() {
            let key = format!("kinetics.e0.{name}");
            match self.kinetics.e0.get(name) {
                None => return Err(ConfigError::new(key, "missing: every species needs a barrier E_0 (eV)")),
                Some(&ev) if ev.is_finite() && (0.0..=100.0).contains(&ev) => e0[i] = ev_to_nev(ev),
                Some(&ev) => return Err(ConfigError::new(key, format!("a barrier in [0, 100] eV, got {ev}"))),
            }
        }

        // Run and cache.
        if self.run.steps.is_none() && self.run.time.is_none() {
            return Err(ConfigError::new("run.steps", "give run.steps, run.time or both"));
        }
        if let Some(t) = self.run.time {
            positive("run.time", t)?;
        }
        let model = Model::new(lattice, energy, e0, nu, temperature);
        let cache = if self.cache.enabled {
            positive("cache.mib", self.cache.mib)?;
            let setup = CacheSetup {
                mib: self.cache.mib,
                verify: self.cache.verify,
                policy: self.cache.policy,
                trial_energies: self.cache.trial_energies.unwrap_or(matches!(model.energy(), Energy::Eam(_))),
            };
            StateCache::new(setup.mib, model.events_per_state(vacancies), setup.verify, setup.policy)
                .map_err(|e| ConfigError::new("cache.mib", e.to_string()))?;
            Some(setup)
        } else {
            None
        };
        Ok(Setup {
            model,
            energy: energy_label,
            species: species.clone(),
            counts,
            vacancies,
            lattice_constant,
            seed: self.seed,
            steps: self.run.steps,
            time: self.run.time,
            output_interval: self.run.output_interval,
            plot: self.run.plot,
            cache,
            structure: self.alloy.structure.clone(),
        })
    }
}

impl Config {
    /// The pair energies of `[energy]` with `model = "pair"`: every list the same length, one per shell.
    fn pair_energies(&self, species: &[String]) -> Result<PairEnergies, ConfigError> {
        let kinds = species.len() + 1;
        let vacancy = species.len();
        let mut lists = Vec::new();
        for (key, value) in &self.energy {
            let full_key = format!("energy.{key}");
            match key.as_str() {
                "model" => continue,
                "potential" | "style" => {
                    return Err(ConfigError::new(full_key, "only read with model = \"eam\""));
                }
                _ => {}
            }
            let values: Option<Vec<f64>> = value.as_array().and_then(|list| {
                list.iter().map(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64))).collect()
            });
            let values = values.ok_or_else(|| {
                ConfigError::new(&full_key, format!("expected a list of pair energies in eV, got {value}"))
            })?;
            lists.push((full_key, key.as_str(), values));
        }
        let shells = lists.iter().map(|l| l.2.len()).max().unwrap_or(0);
        if shells == 0 || shells > MAX_SHELLS {
            return Err(ConfigError::new("energy", format!("give 1 to {MAX_SHELLS} shell energies per pair")));
        }
        let lookup = |name: &str| {
            if name == VACANCY_NAME {
                Some(vacancy)
            } else {
                species.iter().position(|s| s == name)
            }
        };
        let mut pairs = PairEnergies::new(kinds, shells);
        let mut given = vec![false; kinds * kinds];
        for (full_key, key, values) in lists {
            let Some((a, b)) = key.split_once('-').and_then(|(a, b)| Some((lookup(a)?, lookup(b)?))) else {
                return Err(ConfigError::new(
                    full_key,
                    format!("expected `A-B` with A and B among {species:?} or `{VACANCY_NAME}`"),
                ));
            };
            if values.len() != shells {
                return Err(ConfigError::new(
                    full_key,
                    format!("give {shells} values, one per shell, like the others"),
                ));
            }
            if given[a * kinds + b] {
                return Err(ConfigError::new(full_key, "this pair is given twice"));
            }
            given[a * kinds + b] = true;
            given[b * kinds + a] = true;
            for (shell, &ev) in values.iter().enumerate() {
                if !ev.is_finite() || ev.abs() > 100.0 {
                    return Err(ConfigError::new(full_key, format!("{ev} eV is not a plausible pair energy")));
                }
                pairs.set(shell, a, b, ev_to_nev(ev));
            }
        }
        for a in 0..species.len() {
            for b in a..species.len() {
                if !given[a * kinds + b] {
                    let key = format!("energy.{}-{}", species[a], species[b]);
                    return Err(ConfigError::new(key, "missing: every pair of atom species needs energies"));
                }
            }
        }
        Ok(pairs)
    }

    /// The potential file of `[energy]` with `model = "eam"`, read, and its path as given.
    fn potential(&self) -> Result<(EamPotential, String), ConfigError> {
        for key in self.energy.keys() {
            if !["model", "potential", "style"].contains(&key.as_str()) {
                return Err(ConfigError::new(
                    format!("energy.{key}"),
                    "pair energies are not read with model = \"eam\"; the potential file gives the energy",
                ));
            }
        }
        let path = match self.energy.get("potential") {
            Some(toml::Value::String(p)) => p.clone(),
            Some(other) => {
                return Err(ConfigError::new("energy.potential", format!("expected a file name, got {other}")))
            }
            None => {
                return Err(ConfigError::new("energy.potential", "missing: model = \"eam\" needs a potential file"))
            }
        };
        let style = match self.energy.get("style") {
            None => None,
            Some(toml::Value::String(s)) => Some(s.parse::<Style>().map_err(|e| ConfigError::new("energy.style", e))?),
            Some(other) => return Err(ConfigError::new("energy.style", format!("expected a string, got {other}"))),
        };
        let potential = EamPotential::read(Path::new(&path), style)
            .map_err(|e| ConfigError::new("energy.potential", e.to_string()))?;
        Ok((potential, path))
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&toml::to_string(self).map_err(|_| fmt::Error)?)
    }
}

/// A TOML syntax error, keyed by the line it is on (and the key on that line, if one is there).
fn syntax_error(text: &str, error: &toml::de::Error) -> ConfigError {
    let Some(span) = error.span() else {
        return ConfigError::new("(document)", error.message().trim().to_string());
    };
    let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
    let source = text.lines().nth(line - 1).unwrap_or("");
    let key = match source.split_once('=') {
        Some((k, _)) if !k.trim().is_empty() => format!("{} (line {line})", k.trim()),
        _ => format!("line {line}"),
    };
    ConfigError::new(key, error.message().trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of the configuration `text` with `from` (which it holds) replaced by `to`: in reading it, or
    /// else in validating it.
    fn error_in(text: &str, from: &str, to: &str) -> ConfigError {
        assert!(text.contains(from), "`{from}` is in the configuration");
        match Config::from_toml(&text.replace(from, to)) {
            Err(e) => e,
            Ok(config) => config.validate().expect_err("the edit makes the config invalid"),
        }
    }

    /// The error of the example configuration with `from` replaced by `to`.
    fn error_of(from: &str, to: &str) -> ConfigError {
        error_in(example_config(), from, to)
    }

    #[test]
    fn example_is_valid_and_round_trips() {
        let config = Config::from_toml(example_config()).unwrap();
        let setup = config.validate().unwrap();
        assert_eq!(setup.counts, vec![1979, 20]);
        assert_eq!(setup.model.energy().shells(), 2);
        assert_eq!(Config::from_toml(&config.to_string()).unwrap(), config);
    }

    #[test]
    fn errors_name_the_key() {
        let cases = [
            ("temperature = 773.0", "temperature = -1.0", "kinetics.temperature"),
            ("temperature = 773.0", "tempreature = 773.0", "kinetics.tempreature"),
            ("temperature = 773.0", "temperature = \"hot\"", "kinetics.temperature"),
            ("kind = \"bcc\"", "kind = \"hcp\"", "lattice.kind"),
            ("size = 10  ", "size = 1  ", "lattice.size"),
            ("constant = 2.87", "constant = 0.0", "lattice.constant"),
            ("Cu = 0.01", "Zn = 0.01", "alloy.composition.Zn"),
            ("Cu = 0.55", "Zn = 0.55", "kinetics.e0.Zn"),
            ("Fe-Cu = [-0.649, -0.3245]", "Fe-Cu = [-0.649]", "energy.Fe-Cu"),
            ("Fe-Cu = [-0.649, -0.3245]", "", "energy.Fe-Cu"),
            ("Fe-Cu = [-0.649, -0.3245]", "Fe-Zn = [-0.649, -0.3245]", "energy.Fe-Zn"),
            ("vacancies = 1 ", "vacancies = 0 ", "alloy.vacancies"),
            ("steps = 1_000_000", "", "run.steps"),
            ("mib = 0.25 ", "mib = 0 ", "cache.mib"),
            ("mib = 0.25 ", "mib = 1e-9 ", "cache.mib"),
            ("policy = \"lru\"", "policy = \"random\"", "cache.policy"),
            ("seed = 2005", "", "seed"),
        ];
        for (from, to, key) in cases {
            let err = error_of(from, to);
            assert_eq!(err.key, key, "{from} → {to}: {err}");
            assert!(!err.problem.is_empty());
        }
    }

    /// The example with its commented EAM block in place of the pair energies, the potential written to `dir`.
    fn eam_example(dir: &Path) -> String {
        let text = example_config();
        let pairs_start = text.find("[energy]\nmodel = \"pair\"").unwrap();
        let eam_start = text.find("# The EAM model instead").unwrap();
        let block_start = text.find("# [energy]\n").unwrap();
        let block_end = text[block_start..].find("\n\n").unwrap() + block_start;
        let block: Vec<&str> = text[block_start..block_end].lines().map(|l| l.trim_start_matches("# ")).collect();
        let potential = dir.join("FeCu.eam.fs");
        std::fs::write(&potential, crate::analytic::ackland_fe_cu().to_file_text()).unwrap();
        let block = block.join("\n").replace("\"FeCu.eam.fs\"", &format!("{:?}", potential.display().to_string()));
        format!("{}{block}\n{}", &text[..pairs_start], &text[block_end..])
            .replace("constant = 2.87", "constant = 2.8665")
            .replace("size = 10 ", "size = 5 ")
            .replace(&text[eam_start..block_start], "")
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-kmc-config-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_examples_eam_block_validates() {
        let dir = temp_dir("eam");
        let config = Config::from_toml(&eam_example(&dir)).unwrap();
        let setup = config.validate().unwrap();
        assert!(matches!(setup.model.energy(), Energy::Eam(_)));
        assert_eq!(setup.model.lattice().shells(), 3);
        assert!(setup.energy.starts_with("eam/fs") && setup.energy.ends_with("3 shells"), "{}", setup.energy);
        assert!(setup.cache.unwrap().trial_energies);
        assert_eq!(Config::from_toml(&config.to_string()).unwrap(), config);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn eam_errors_name_the_key() {
        let dir = temp_dir("eam-errors");
        let text = eam_example(&dir);
        let broken = dir.join("broken.eam.fs");
        let good = std::fs::read_to_string(dir.join("FeCu.eam.fs")).unwrap();
        std::fs::write(&broken, good.replacen("5000 ", "5000x ", 1)).unwrap();
        let path = dir.join("FeCu.eam.fs").display().to_string();
        let cases = [
            ("model = \"eam\"", "model = \"lj\"", "energy.model"),
            ("model = \"eam\"", "model = \"eam\"\nFe-Fe = [0.1]", "energy.Fe-Fe"),
            ("model = \"eam\"", "model = \"pair\"", "energy.potential"),
            ("style = \"eam/fs\"", "style = \"lj/cut\"", "energy.style"),
            ("style = \"eam/fs\"", "style = \"eam/alloy\"", "energy.potential"),
            (&path, "missing.eam.fs", "energy.potential"),
            (&path, &broken.display().to_string(), "energy.potential"),
            ("species = [\"Fe\", \"Cu\"]", "species = [\"Fe\", \"Ni\"]", "energy.potential"),
            ("constant = 2.8665", "constant = 9.0", "energy.potential"),
        ];
        for (from, to, key) in cases {
            let err = error_in(&text, from, to);
            assert_eq!(err.key, key, "{from} → {to}: {err}");
        }
        // A malformed file's error names its line and field.
        let err =
            Config::from_toml(&text.replace(&path, &broken.display().to_string())).unwrap().validate().unwrap_err();
        assert!(err.problem.contains("line 5, Nrho"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let err = error_of("constant = 2.87", "constant = = 2.87");
        assert!(err.key.contains("constant") && err.key.contains("line"), "{err}");
    }
}
