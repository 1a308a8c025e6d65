//! The TOML config: [`Config`] as read, and [`Config::validate`] turning it into a [`Setup`] ready to run.
//!
//! Every error is a [`ConfigError`] that names the key (`kinetics.temperature`, `energy.Fe-Cu`, ...) and says
//! what is wrong with it. [`example_config`] returns a commented example covering every key.
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
use crate::energy::{ev_to_nev, PairEnergies};
use crate::kmc::Model;
use crate::lattice::{Lattice, LatticeKind, MAX_SHELLS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

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
    /// Memory bound in MiB.
    #[serde(default = "default_mib")]
    pub mib: usize,
    /// Replacement policy.
    #[serde(default)]
    pub policy: Replacement,
    /// Whether an independent check key is compared, counting real collisions.
    #[serde(default)]
    pub verify: bool,
}

fn default_mib() -> usize {
    4
}

impl Default for CacheConfig {
    fn default() -> Self {
        Self { enabled: true, mib: default_mib(), policy: Replacement::Lru, verify: false }
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
    /// `[energy]`: `"A-B" = [ε1, ε2, ...]` in eV.
    pub energy: BTreeMap<String, Vec<f64>>,
    /// `[kinetics]`.
    pub kinetics: KineticsConfig,
    /// `[run]`.
    pub run: RunConfig,
    /// `[cache]`.
    #[serde(default)]
    pub cache: CacheConfig,
}

/// Cache settings of a validated config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheSetup {
    /// Memory bound in MiB.
    pub mib: usize,
    /// Whether check keys are compared.
    pub verify: bool,
    /// Replacement policy.
    pub policy: Replacement,
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
}

/// A validated config: the model built, every value checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The physics.
    pub model: Model,
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
        let kinds = species.len() + 1;
        let vacancy = species.len();

        // Energy table: its list length sets the number of shells.
        let shells = self.energy.values().map(Vec::len).max().unwrap_or(0);
        if shells == 0 || shells > MAX_SHELLS {
            return Err(ConfigError::new("energy", format!("give 1 to {MAX_SHELLS} shell energies per pair")));
        }
        let mut pairs = PairEnergies::new(kinds, shells);
        let mut given = vec![false; kinds * kinds];
        for (key, values) in &self.energy {
            let full_key = format!("energy.{key}");
            let lookup = |name: &str| if name == VACANCY_NAME { Some(vacancy) } else { index(name) };
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

        // Lattice.
        let lattice = Lattice::new(self.lattice.kind, self.lattice.size, shells)
            .map_err(|e| ConfigError::new("lattice.size", e.to_string()))?;
        let lattice_constant = positive("lattice.constant", self.lattice.constant)?;

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
        let model = Model::new(lattice, pairs, e0, nu, temperature);
        let cache = if self.cache.enabled {
            let setup = CacheSetup { mib: self.cache.mib, verify: self.cache.verify, policy: self.cache.policy };
            StateCache::new(setup.mib, model.events_per_state(vacancies), setup.verify, setup.policy)
                .map_err(|e| ConfigError::new("cache.mib", e.to_string()))?;
            Some(setup)
        } else {
            None
        };
        Ok(Setup {
            model,
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

    fn error_of(from: &str, to: &str) -> ConfigError {
        let text = example_config().replace(from, to);
        assert_ne!(text, example_config(), "`{from}` is in the example");
        match Config::from_toml(&text) {
            Err(e) => e,
            Ok(config) => config.validate().expect_err("the edit makes the config invalid"),
        }
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
            ("mib = 4 ", "mib = 0 ", "cache.mib"),
            ("policy = \"lru\"", "policy = \"random\"", "cache.policy"),
            ("seed = 2005", "", "seed"),
        ];
        for (from, to, key) in cases {
            let err = error_of(from, to);
            assert_eq!(err.key, key, "{from} → {to}: {err}");
            assert!(!err.problem.is_empty());
        }
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let err = error_of("constant = 2.87", "constant = = 2.87");
        assert!(err.key.contains("constant") && err.key.contains("line"), "{err}");
    }
}
