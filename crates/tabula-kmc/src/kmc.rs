//! The residence-time (BKL, n-fold way) loop, with optional recall of states already computed.
//!
//! A *state* is an occupation. Its *events* are the exchanges of each vacancy (in increasing site order) with
//! each first-shell neighbour (in the lattice's fixed order); an exchange with another vacancy gets rate 0.
//! An exchange of the vacancy with an atom of species `X` has barrier
//! `E_a = max(E_0(X) + ΔE/2, ΔE, 0)` and rate `ν · exp(−E_a / k_B T)`: the clamps keep the barrier above both
//! end states, and the forward/backward rate ratio stays `exp(−ΔE / k_B T)` (detailed balance).
//!
//! The energy is an [`Energy`]: pair energies per shell ([`PairEnergies`]) or an embedded-atom potential read on
//! the lattice ([`LatticeEam`]).
//!
//! **Computing a state** means, for each of its events, the ΔE of the exchange from the local environments of the
//! two sites and an `exp`. With pair energies that is `2 · Σ_shells z_shell` table look-ups per event (28 for bcc
//! with two shells); with an EAM potential it is also the density of every site around the vacancy and its
//! neighbours (about 90 sites of 26 neighbours each for bcc with three shells) and, per event, the embedding
//! energy of each of the about 45 atoms whose density the exchange changes. **Recalling a state** replaces all of
//! that by one probe of the [`StateCache`], whose slot then gives the rates. A state's rates are kept as running
//! sums in event order (the last is the total rate `R`), so that choosing an event is a count, not a walk. Each
//! step:
//!
//! 1. choose event `i` with probability `rate_i / R`: a uniform draw `u`, and `i` the number of running sums at
//!    most `u · R` (the first event whose running sum exceeds it; if rounding left none, the last event that
//!    added to the sum);
//! 2. advance time by `τ / R`, `τ` drawn from the unit exponential distribution (by the ziggurat method of
//!    `rand_distr`, which is exact and, unlike `−ln(u)`, needs a logarithm only in one draw in a hundred or so);
//! 3. exchange the vacancy and the atom (four XORs per key);
//! 4. recall the new state by its key, or compute it (and store it).
//!
//! Both branches of step 4 produce the same bits: energies are exact integers ([`crate::energy`]) and the rates
//! of a state are computed in a fixed order from its occupation alone, so a run with recall and one without
//! follow the same trajectory from the same seed. On a miss the new energy is the old one minus the ΔE of the
//! new state's event that undoes the move just made (computed anyway), so no event is computed twice.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::cache::{Replacement, StateCache};
//! use tabula_kmc::energy::{ev_to_nev, PairEnergies};
//! use tabula_kmc::kmc::{Model, Simulation};
//! use tabula_kmc::lattice::{Lattice, LatticeKind};
//!
//! let lattice = Lattice::new(LatticeKind::Bcc, 3, 2).unwrap();
//! let mut pairs = PairEnergies::new(3, 2); // A, B, vacancy
//! pairs.set(0, 0, 1, ev_to_nev(0.05));
//! let model = Model::new(lattice, pairs, vec![ev_to_nev(0.6), ev_to_nev(0.5)], 1e13, 600.0);
//! let mut species = vec![0u8; model.lattice().sites()];
//! species[0] = 2;
//! species[7] = 1;
//! let cache = StateCache::new(1.0, model.events_per_state(1), false, Replacement::Lru).unwrap();
//! let mut with = Simulation::new(model.clone(), species.clone(), 7, Some(cache)).unwrap();
//! let mut without = Simulation::new(model, species, 7, None).unwrap();
//! for _ in 0..1000 {
//!     assert_eq!(with.step(), without.step());
//! }
//! assert!(with.counters().recalls > 0);
//! ```

use crate::cache::{CacheCounters, Slot, StateCache};
use crate::eam::{LatticeEam, Scratch};
use crate::energy::{Nev, PairEnergies, BOLTZMANN_EV_PER_K, NEV_PER_EV};
use crate::keys::ZobristTable;
use crate::lattice::Lattice;
use crate::occupation::Occupation;
use crate::Species;
use rand_distr::{Distribution, Exp1};
use tabula::zobrist::{Key, SplitMix64};

/// The energy model: pair energies per shell, or an embedded-atom potential.
#[derive(Clone, Debug, PartialEq)]
pub enum Energy {
    /// Pair energies per neighbour shell.
    Pair(PairEnergies),
    /// An EAM / Finnis–Sinclair potential read on the lattice.
    Eam(LatticeEam),
}

impl Energy {
    /// Number of species, the vacancy included.
    pub fn kinds(&self) -> usize {
        match self {
            Energy::Pair(p) => p.kinds(),
            Energy::Eam(e) => e.kinds(),
        }
    }

    /// Number of shells the energy reads.
    pub fn shells(&self) -> usize {
        match self {
            Energy::Pair(p) => p.shells(),
            Energy::Eam(e) => e.shells(),
        }
    }

    /// The total energy of an occupation in neV, recomputed from every pair (and every site's density).
    pub fn total_energy(&self, lattice: &Lattice, occ: &[Species]) -> Nev {
        match self {
            Energy::Pair(p) => p.total_energy(lattice, occ),
            Energy::Eam(e) => e.total_energy(lattice, occ),
        }
    }

    /// The ΔE in neV when the vacancy on `vacancy_site` exchanges with the atom on `atom_site` (a neighbour).
    pub fn exchange_delta(&self, lattice: &Lattice, occ: &[Species], vacancy_site: usize, atom_site: usize) -> Nev {
        match self {
            Energy::Pair(p) => p.exchange_delta(lattice, occ, vacancy_site, atom_site),
            Energy::Eam(e) => e.exchange_delta(lattice, occ, vacancy_site, atom_site),
        }
    }

    /// `"pair"` or `"eam"`.
    pub fn name(&self) -> &'static str {
        match self {
            Energy::Pair(_) => "pair",
            Energy::Eam(_) => "eam",
        }
    }
}

impl From<PairEnergies> for Energy {
    fn from(pairs: PairEnergies) -> Self {
        Energy::Pair(pairs)
    }
}

impl From<LatticeEam> for Energy {
    fn from(eam: LatticeEam) -> Self {
        Energy::Eam(eam)
    }
}

/// The physics of a run: lattice, energy, migration barriers, attempt frequency and temperature.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    lattice: Lattice,
    energy: Energy,
    e0: Vec<Nev>,
    attempt_frequency: f64,
    temperature: f64,
    /// `1 / (2 k_B T)` in 1/neV: the barrier is kept doubled so that `E_0 + ΔE/2` stays an integer.
    half_beta: f64,
}

impl Model {
    /// A model; `e0[x]` is the barrier term of atom species `x` (the vacancy is species `e0.len()`), `ν` in 1/s,
    /// `temperature` in K.
    ///
    /// # Panics
    ///
    /// If the energy's species count is not `e0.len() + 1`, or its shell count differs from the lattice's.
    pub fn new(
        lattice: Lattice,
        energy: impl Into<Energy>,
        e0: Vec<Nev>,
        attempt_frequency: f64,
        temperature: f64,
    ) -> Self {
        let energy = energy.into();
        assert_eq!(energy.kinds(), e0.len() + 1, "one E_0 per atom species");
        assert_eq!(energy.shells(), lattice.shells(), "energies for every listed shell");
        let half_beta = 1.0 / (2.0 * BOLTZMANN_EV_PER_K * temperature * NEV_PER_EV);
        Self { lattice, energy, e0, attempt_frequency, temperature, half_beta }
    }

    /// The lattice.
    pub fn lattice(&self) -> &Lattice {
        &self.lattice
    }

    /// The energy model.
    pub fn energy(&self) -> &Energy {
        &self.energy
    }

    /// Scratch space for [`Model::compute_state`] (empty for pair energies, which need none).
    pub fn scratch(&self) -> Scratch {
        match self.energy {
            Energy::Pair(_) => Scratch::default(),
            Energy::Eam(_) => Scratch::new(self.lattice.sites()),
        }
    }

    /// Temperature in K.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// The species number of the vacancy.
    pub fn vacancy(&self) -> Species {
        self.e0.len() as Species
    }

    /// Number of events of a state with `vacancies` vacancies.
    pub fn events_per_state(&self, vacancies: usize) -> usize {
        vacancies * self.lattice.coordination(0)
    }

    /// Barrier `max(E_0(species) + ΔE/2, ΔE, 0)` in neV, doubled.
    #[inline]
    pub fn doubled_barrier(&self, species: usize, de: Nev) -> Nev {
        (2 * self.e0[species] + de).max(2 * de).max(0)
    }

    /// Rate of an exchange of the vacancy with an atom of `species` that changes the energy by `de`.
    #[inline]
    pub fn rate(&self, species: usize, de: Nev) -> f64 {
        self.attempt_frequency * (-(self.doubled_barrier(species, de) as f64) * self.half_beta).exp()
    }

    /// Computes every event of `occ`: its ΔE into `deltas` and its rate into `rates`; returns the total rate.
    /// `scratch` comes from [`Model::scratch`].
    pub fn compute_state(&self, occ: &Occupation, rates: &mut [f64], deltas: &mut [Nev], scratch: &mut Scratch) -> f64 {
        self.compute_deltas(occ, deltas, None, scratch);
        self.rates_from_deltas(occ, deltas, rates)
    }

    /// Computes the ΔE of every event of `occ` into `deltas`, except those marked in `known`, which are left as
    /// they are (0 for an exchange of two vacancies).
    pub fn compute_deltas(&self, occ: &Occupation, deltas: &mut [Nev], known: Option<&[bool]>, scratch: &mut Scratch) {
        let species = occ.species();
        let z = self.lattice.coordination(0);
        debug_assert_eq!(deltas.len(), occ.vacancies().len() * z);
        for (v, &vacancy_site) in occ.vacancies().iter().enumerate() {
            let events = v * z..(v + 1) * z;
            let known = known.map(|k| &k[events.clone()]);
            match &self.energy {
                Energy::Eam(eam) => eam.compute_events(
                    &self.lattice,
                    species,
                    (occ.key().0, occ.check().0),
                    vacancy_site as usize,
                    &mut deltas[events],
                    known,
                    scratch,
                ),
                Energy::Pair(pairs) => {
                    for (slot, &atom_site) in self.lattice.neighbours(vacancy_site as usize, 0).iter().enumerate() {
                        if known.is_some_and(|k| k[slot]) {
                            continue;
                        }
                        deltas[v * z + slot] = if species[atom_site as usize] == occ.vacancy() {
                            0
                        } else {
                            pairs.exchange_delta(&self.lattice, species, vacancy_site as usize, atom_site as usize)
                        };
                    }
                }
            }
        }
    }

    /// The rate of every event of `occ` from its ΔE in `deltas` into `rates` (0 for an exchange of two vacancies);
    /// returns the total rate, summed in event order.
    pub fn rates_from_deltas(&self, occ: &Occupation, deltas: &[Nev], rates: &mut [f64]) -> f64 {
        let species = occ.species();
        let z = self.lattice.coordination(0);
        let mut total = 0.0;
        for (v, &vacancy_site) in occ.vacancies().iter().enumerate() {
            for (slot, &atom_site) in self.lattice.neighbours(vacancy_site as usize, 0).iter().enumerate() {
                let i = v * z + slot;
                let atom = species[atom_site as usize];
                rates[i] = if atom == occ.vacancy() { 0.0 } else { self.rate(atom as usize, deltas[i]) };
                total += rates[i];
            }
        }
        total
    }

    /// The total energy of an occupation, recomputed from every pair (and every site's density).
    pub fn total_energy(&self, species: &[Species]) -> Nev {
        self.energy.total_energy(&self.lattice, species)
    }
}

/// The simulation cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimulationError {
    /// The occupation does not cover the lattice.
    #[error("the structure has {got} sites, the lattice {expected}")]
    Sites {
        /// Sites of the lattice.
        expected: usize,
        /// Sites given.
        got: usize,
    },
    /// A site holds a species number the model does not know.
    #[error("site {site} holds species {species}, but there are only {kinds} (the vacancy included)")]
    Species {
        /// The site.
        site: usize,
        /// Its species number.
        species: Species,
        /// Species known.
        kinds: usize,
    },
    /// No vacancy, or more than the first shell's coordination (a vacancy could then be walled in by vacancies).
    #[error("{vacancies} vacancies: between 1 and {max} are supported")]
    Vacancies {
        /// Vacancies given.
        vacancies: usize,
        /// The most supported.
        max: usize,
    },
    /// The trial-energy table holds rates: it must be built for 0 events per state.
    #[error("the trial-energy table must hold energies only (0 events per state), not {0}")]
    EnergyTableShape(usize),
    /// The cache was built for another number of events per state.
    #[error("the cache holds {cache} events per state, the model needs {model}")]
    CacheShape {
        /// Events per state the cache holds.
        cache: usize,
        /// Events per state the model needs.
        model: usize,
    },
}

/// One step: the event chosen and where the trajectory is after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepRecord {
    /// Index of the event in the state's event list.
    pub event: u32,
    /// The site the vacancy left.
    pub from: u32,
    /// The site the vacancy moved to.
    pub to: u32,
    /// Simulated time after the step, in s.
    pub time: f64,
    /// Energy after the step, in neV.
    pub energy: Nev,
}

/// Counts of trial states — the states one event away, whose energies give the rates — and how many of them had
/// a known energy when a state's events were needed: all of a recalled state's, the ones the trial-energy table
/// held for a computed state's. This is the recall rate of Mason, Hudson & Sutton, who looked up the energies of
/// "the states considered".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrialCounters {
    /// Trial states considered (exchanges of a vacancy with an atom, per step).
    pub considered: u64,
    /// Of those, the ones whose energy was known.
    pub known: u64,
}

impl TrialCounters {
    /// Share of trial states whose energy was known (0 when none were considered).
    pub fn recall_rate(&self) -> f64 {
        crate::cache::share(self.known, self.considered)
    }
}

/// A kinetic Monte Carlo trajectory, with or without a recall cache.
///
/// With a *trial-energy table* ([`Simulation::with_trial_energies`]) a state that is not recalled is computed
/// with the energies of its trial states that the table holds: such an event's ΔE is the difference of two
/// known energies, and only the others are computed (and their energies stored). Energies are exact integers,
/// so this too leaves the trajectory unchanged.
#[derive(Clone, Debug)]
pub struct Simulation {
    model: Model,
    table: ZobristTable,
    occ: Occupation,
    rng: Stream,
    cache: Option<StateCache>,
    /// Where the current state's rates are: its slot in the cache, or (without a cache) `sums`.
    current: Option<Slot>,
    energies: Option<StateCache>,
    rates: Vec<f64>,
    /// The computed state's rates as running sums in event order.
    sums: Vec<f64>,
    deltas: Vec<Nev>,
    /// Per event, whether `deltas` came from the trial-energy table.
    known: Vec<bool>,
    /// Per event, the trial state's keys (primary, check).
    trial_keys: Vec<(u64, u64)>,
    trials: TrialCounters,
    scratch: Scratch,
    energy: Nev,
    time: f64,
    steps: u64,
    computed: u64,
}

/// The trajectory's random stream, SplitMix64, as a `rand_core` generator so that `rand_distr` can draw from it.
#[derive(Clone, Debug)]
struct Stream(SplitMix64);

impl rand_core::TryRng for Stream {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.0.next() >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        rand_core::utils::fill_bytes_via_next_word(dst, || self.try_next_u64())
    }
}

/// A uniform draw in `[0, 1)` from 53 random bits.
#[inline]
fn uniform(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

impl Simulation {
    /// A simulation of `model` from `species` per site; `seed` starts the trajectory's [`SplitMix64`].
    ///
    /// # Errors
    ///
    /// [`SimulationError`] if the structure does not fit the model or the cache does not fit the events.
    pub fn new(
        model: Model,
        species: Vec<Species>,
        seed: u64,
        cache: Option<StateCache>,
    ) -> Result<Self, SimulationError> {
        let sites = model.lattice.sites();
        if species.len() != sites {
            return Err(SimulationError::Sites { expected: sites, got: species.len() });
        }
        let kinds = model.energy.kinds();
        if let Some(site) = species.iter().position(|&s| s as usize >= kinds) {
            return Err(SimulationError::Species { site, species: species[site], kinds });
        }
        let table = ZobristTable::new(sites, kinds);
        let occ = Occupation::new(species, model.vacancy(), &table);
        let vacancies = occ.vacancies().len();
        let max = model.lattice.coordination(0);
        if vacancies == 0 || vacancies > max {
            return Err(SimulationError::Vacancies { vacancies, max });
        }
        let events = model.events_per_state(vacancies);
        if let Some(c) = &cache {
            if c.events() != events {
                return Err(SimulationError::CacheShape { cache: c.events(), model: events });
            }
        }
        let energy = model.total_energy(occ.species());
        let scratch = model.scratch();
        let mut sim = Simulation {
            model,
            table,
            occ,
            rng: Stream(SplitMix64::new(seed)),
            cache,
            current: None,
            energies: None,
            rates: vec![0.0; events],
            sums: vec![0.0; events],
            deltas: vec![0; events],
            known: vec![false; events],
            trial_keys: vec![(0, 0); events],
            trials: TrialCounters::default(),
            scratch,
            energy,
            time: 0.0,
            steps: 0,
            computed: 0,
        };
        sim.model.compute_state(&sim.occ, &mut sim.rates, &mut sim.deltas, &mut sim.scratch);
        sim.keep_computed();
        Ok(sim)
    }

    /// Adds a trial-energy table: a [`StateCache`] of 0 events per state, holding the energies of the states met
    /// and of their trial states.
    ///
    /// # Errors
    ///
    /// [`SimulationError::EnergyTableShape`] if the table holds rates.
    pub fn with_trial_energies(mut self, mut energies: StateCache) -> Result<Self, SimulationError> {
        if energies.events() != 0 {
            return Err(SimulationError::EnergyTableShape(energies.events()));
        }
        self.trial_keys_of_state();
        energies.store(self.occ.key().0, self.occ.check().0, self.energy, &[]);
        for (i, &(key, check)) in self.trial_keys.iter().enumerate() {
            if key != 0 || check != 0 {
                energies.store(key, check, self.energy + self.deltas[i], &[]);
            }
        }
        self.energies = Some(energies);
        Ok(self)
    }

    /// The keys of the current state's trial states into `trial_keys` (zeros for exchanges of two vacancies).
    fn trial_keys_of_state(&mut self) {
        let (key, check) = (self.occ.key().0, self.occ.check().0);
        let vacancy = self.occ.vacancy() as usize;
        let species = self.occ.species();
        let z = self.model.lattice.coordination(0);
        for (v, &vacancy_site) in self.occ.vacancies().iter().enumerate() {
            let vs = vacancy_site as usize;
            for (slot, &atom_site) in self.model.lattice.neighbours(vs, 0).iter().enumerate() {
                let (a, x) = (atom_site as usize, species[atom_site as usize] as usize);
                self.trial_keys[v * z + slot] = if x == vacancy {
                    (0, 0)
                } else {
                    let (primary, second) = self.table.exchange(vs, a, x);
                    (key ^ primary.0, check ^ second.0)
                };
            }
        }
    }

    /// The current state's rates as running sums in event order, the last being the total rate.
    #[inline]
    pub fn rate_sums(&self) -> &[f64] {
        match (self.current, &self.cache) {
            (Some(slot), Some(cache)) => cache.rates(slot),
            _ => &self.sums,
        }
    }

    /// Makes one residence-time step.
    ///
    /// # Panics
    ///
    /// If no event has a positive rate (every barrier so high that `exp` underflows).
    #[inline]
    pub fn step(&mut self) -> StepRecord {
        // Step 1. Choose an event in proportion to its rate.
        let u = uniform(self.rng.0.next());
        let sums = self.rate_sums();
        let total = sums[sums.len() - 1];
        // Two comparisons (NaN fails both), where `is_finite` would classify the float on every step.
        assert!(total > 0.0 && total < f64::INFINITY, "no event has a positive rate");
        let target = u * total;
        // The sums never decrease: the first one above `target` comes after all those at most `target`.
        let mut event = sums.iter().map(|&s| usize::from(s <= target)).sum::<usize>();
        if event == sums.len() {
            // `target` rounded up to the total: the last event that added to the sum.
            event = (0..sums.len()).rposition(|i| sums[i] > if i == 0 { 0.0 } else { sums[i - 1] }).expect("a rate");
        }

        // Step 2. Advance the clock by an exponential residence time.
        let residence: f64 = Exp1.sample(&mut self.rng);
        self.time += residence / total;

        // Step 3. Exchange the vacancy and the atom.
        let z = self.model.lattice.coordination(0);
        let (v, slot) = if event < z { (0, event) } else { (event / z, event % z) };
        let from = self.occ.vacancies()[v] as usize;
        let to = self.model.lattice.neighbours(from, 0)[slot] as usize;
        let before = (self.occ.key().0, self.occ.check().0);
        self.occ.exchange(&self.table, from, to);
        let atom = self.occ.species()[from];
        self.scratch.exchanged(from, to, atom, before, (self.occ.key().0, self.occ.check().0));
        self.steps += 1;

        // Step 4. Recall the new state, or compute it.
        self.resolve(from, to);
        StepRecord { event: event as u32, from: from as u32, to: to as u32, time: self.time, energy: self.energy }
    }

    /// Trial states of the current state: its exchanges of a vacancy with an atom.
    fn trial_states(&self) -> u64 {
        let z = self.model.lattice.coordination(0);
        let vacancies = self.occ.vacancies();
        if vacancies.len() == 1 {
            return z as u64;
        }
        let species = self.occ.species();
        let atoms = |&v: &u32| {
            let around = self.model.lattice.neighbours(v as usize, 0);
            around.iter().filter(|&&j| species[j as usize] != self.occ.vacancy()).count()
        };
        vacancies.iter().map(atoms).sum::<usize>() as u64
    }

    /// Keeps the state just computed (`rates`, `energy`): its running sums, and its slot in the cache if any.
    fn keep_computed(&mut self) {
        let mut sum = 0.0;
        for (s, &r) in self.sums.iter_mut().zip(&self.rates) {
            sum += r;
            *s = sum;
        }
        self.computed += 1;
        let (key, check) = (self.occ.key().0, self.occ.check().0);
        self.current = self.cache.as_mut().map(|cache| cache.store(key, check, self.energy, &self.sums));
    }

    /// Fills the rates and energy of the state just entered, the vacancy having moved `from` → `to`.
    #[inline]
    fn resolve(&mut self, from: usize, to: usize) {
        if let Some(cache) = &mut self.cache {
            self.current = cache.probe(self.occ.key().0, self.occ.check().0);
            if let Some(slot) = self.current {
                self.energy = cache.energy(slot);
                if self.energies.is_some() {
                    // Every trial state of a recalled state had its energy known when the state was computed.
                    let trials = self.trial_states();
                    self.trials.considered += trials;
                    self.trials.known += trials;
                }
                return;
            }
        }
        // The new state's event that moves the vacancy on `to` back to `from` undoes the step: its ΔE is −ΔE.
        let z = self.model.lattice.coordination(0);
        let v = self.occ.vacancies().binary_search(&(to as u32)).expect("the vacancy moved to `to`");
        let slot = self.model.lattice.neighbours(to, 0).iter().position(|&j| j as usize == from).expect("neighbours");
        let undo = v * z + slot;
        let (key, check) = (self.occ.key().0, self.occ.check().0);

        // Energies the trial-energy table holds: the state's own, and its trial states' (kept in `deltas` for now).
        let mut energy = None;
        if self.energies.is_some() {
            self.trial_keys_of_state();
            let table = self.energies.as_mut().expect("checked");
            energy = table.lookup(key, check).map(|hit| hit.energy);
            for (i, &(trial_key, trial_check)) in self.trial_keys.iter().enumerate() {
                self.known[i] = false;
                if trial_key == 0 && trial_check == 0 {
                    continue;
                }
                self.trials.considered += 1;
                if let Some(hit) = table.lookup(trial_key, trial_check) {
                    self.deltas[i] = hit.energy;
                    self.known[i] = true;
                    self.trials.known += 1;
                }
            }
            // Without the state's own energy, the undo event's ΔE gives it.
            if energy.is_none() {
                self.known[undo] = false;
            }
        }
        let known = self.energies.as_ref().map(|_| self.known.as_slice());
        self.model.compute_deltas(&self.occ, &mut self.deltas, known, &mut self.scratch);
        self.energy = energy.unwrap_or(self.energy - self.deltas[undo]);
        if let Some(table) = &mut self.energies {
            if energy.is_none() {
                table.store(key, check, self.energy, &[]);
            }
            for (i, &(trial_key, trial_check)) in self.trial_keys.iter().enumerate() {
                if self.known[i] {
                    self.deltas[i] -= self.energy;
                } else if trial_key != 0 || trial_check != 0 {
                    table.store(trial_key, trial_check, self.energy + self.deltas[i], &[]);
                }
            }
        }
        self.model.rates_from_deltas(&self.occ, &self.deltas, &mut self.rates);
        self.keep_computed();
    }

    /// Runs `steps` steps, calling `visit` after each.
    pub fn run(&mut self, steps: u64, mut visit: impl FnMut(&StepRecord)) {
        for _ in 0..steps {
            let record = self.step();
            visit(&record);
        }
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The current occupation.
    pub fn occupation(&self) -> &Occupation {
        &self.occ
    }

    /// The current state's primary key.
    pub fn key(&self) -> Key {
        self.occ.key()
    }

    /// The Zobrist keys in use.
    pub fn keys(&self) -> &ZobristTable {
        &self.table
    }

    /// Energy of the current state, in neV.
    pub fn energy(&self) -> Nev {
        self.energy
    }

    /// Simulated time, in s.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Steps made.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// States computed (not recalled), the starting state included.
    pub fn computed(&self) -> u64 {
        self.computed
    }

    /// The current state's total rate.
    pub fn total_rate(&self) -> f64 {
        let sums = self.rate_sums();
        sums[sums.len() - 1]
    }

    /// The cache's counters (all zero without a cache).
    pub fn counters(&self) -> CacheCounters {
        self.cache.as_ref().map(StateCache::counters).unwrap_or_default()
    }

    /// The recall cache, if any.
    pub fn cache(&self) -> Option<&StateCache> {
        self.cache.as_ref()
    }

    /// The trial-energy table's counters (all zero without one).
    pub fn energy_counters(&self) -> CacheCounters {
        self.energies.as_ref().map(StateCache::counters).unwrap_or_default()
    }

    /// Trial states considered and known (all zero without a trial-energy table).
    pub fn trial_counters(&self) -> TrialCounters {
        self.trials
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::Replacement;
    use crate::energy::ev_to_nev;
    use crate::lattice::LatticeKind;

    /// A three-species (A, B, C) alloy with `vacancies` vacancies and pair energies in every pair and shell.
    fn alloy(kind: LatticeKind, size: usize, vacancies: usize, seed: u64) -> (Model, Vec<Species>) {
        let lattice = Lattice::new(kind, size, 2).unwrap();
        let mut rng = SplitMix64::new(seed);
        let mut pairs = PairEnergies::new(4, 2);
        for shell in 0..2 {
            for a in 0..4 {
                for b in a..4 {
                    pairs.set(shell, a, b, ev_to_nev(-0.3 + 0.6 * uniform(rng.next())) / (shell as i64 + 1));
                }
            }
        }
        let model = Model::new(lattice, pairs, vec![ev_to_nev(0.6), ev_to_nev(0.5), ev_to_nev(0.7)], 1e13, 900.0);
        let sites = model.lattice().sites();
        let mut species: Vec<Species> =
            (0..sites).map(|i| if i < vacancies { 3 } else { (rng.next() % 3) as Species }).collect();
        for i in (1..sites).rev() {
            species.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        (model, species)
    }

    #[test]
    fn incremental_key_and_energy_match_full_recomputation() {
        for (kind, vacancies) in [(LatticeKind::Sc, 1), (LatticeKind::Bcc, 2), (LatticeKind::Fcc, 3)] {
            let (model, species) = alloy(kind, 4, vacancies, 11);
            let mut sim = Simulation::new(model, species, 3, None).unwrap();
            for step in 0..2000 {
                sim.step();
                if step % 97 == 0 {
                    assert_eq!((sim.key(), sim.occ.check()), sim.occ.full_keys(&sim.table), "{kind} step {step}");
                    assert_eq!(sim.energy(), sim.model.total_energy(sim.occ.species()), "{kind} step {step}");
                }
            }
        }
    }

    /// Every event's ΔE in `sim` is the difference of the whole energies after and before it (0 for an exchange
    /// that leaves the state as it is).
    fn assert_deltas_exact(sim: &Simulation) {
        let z = sim.model.lattice().coordination(0);
        let before = sim.model.total_energy(sim.occ.species());
        for (v, &vac) in sim.occ.vacancies().iter().enumerate() {
            for (slot, &atom) in sim.model.lattice().neighbours(vac as usize, 0).iter().enumerate() {
                let mut after = sim.occ.species().to_vec();
                after.swap(vac as usize, atom as usize);
                let de = sim.model.total_energy(&after) - before;
                assert_eq!(sim.deltas[v * z + slot], if after == sim.occ.species() { 0 } else { de });
            }
        }
    }

    #[test]
    fn every_event_delta_matches_full_recomputation() {
        for kind in LatticeKind::ALL {
            let (model, species) = alloy(kind, 3, 2, 5);
            let mut sim = Simulation::new(model, species, 9, None).unwrap();
            for _ in 0..50 {
                sim.step();
                assert_deltas_exact(&sim);
            }
        }
    }

    #[test]
    fn eam_event_deltas_match_full_recomputation_along_a_trajectory() {
        // The scratch keeps site densities from state to state: every state's ΔE must still be exact, computed
        // whole or with its trial states' energies taken from the table.
        for trial_energies in [false, true] {
            let (model, species) = eam_alloy(4, 2, 3);
            let mut sim = Simulation::new(model, species, 12, None).unwrap();
            if trial_energies {
                sim = sim.with_trial_energies(StateCache::new(1.0, 0, false, Replacement::Lru).unwrap()).unwrap();
            }
            for _ in 0..200 {
                sim.step();
                assert_eq!(sim.energy(), sim.model.total_energy(sim.occ.species()));
                assert_deltas_exact(&sim);
            }
        }
    }

    /// A dilute bcc Fe–Cu alloy with the Finnis–Sinclair potential of the recall experiment.
    fn eam_alloy(size: usize, vacancies: usize, seed: u64) -> (Model, Vec<Species>) {
        let potential = crate::analytic::ackland_fe_cu();
        let lattice = Lattice::new(LatticeKind::Bcc, size, 3).unwrap();
        let eam = LatticeEam::new(&potential, &["Fe", "Cu"], &lattice, 2.8665).unwrap();
        let model = Model::new(lattice, eam, vec![ev_to_nev(0.65), ev_to_nev(0.55)], 6e12, 600.0);
        let mut rng = SplitMix64::new(seed);
        let sites = model.lattice().sites();
        let species = (0..sites)
            .map(|i| {
                if i < vacancies {
                    2
                } else if rng.next() % 10 == 0 {
                    1
                } else {
                    0
                }
            })
            .collect();
        (model, species)
    }

    #[test]
    fn recall_gives_bit_identical_trajectories() {
        // A tiny cache (evictions), a large one, verify mode, both policies, with and without a trial-energy table,
        // pair and EAM energies: the same trajectory every time.
        let cases = [
            (alloy(LatticeKind::Bcc, 3, 1, 21), 20_000),
            (alloy(LatticeKind::Fcc, 3, 2, 21), 20_000),
            (eam_alloy(4, 1, 3), 4_000),
            (eam_alloy(4, 2, 4), 2_000),
        ];
        for ((model, species), steps) in cases {
            let vacancies = species.iter().filter(|&&s| s == model.vacancy()).count();
            let events = model.events_per_state(vacancies);
            let mut reference = Simulation::new(model.clone(), species.clone(), 77, None).unwrap();
            let expected: Vec<StepRecord> = (0..steps).map(|_| reference.step()).collect();
            let variants = [
                (Some(1.0), false, Replacement::Lru, None),
                (Some(64.0), true, Replacement::Oldest, None),
                (Some(0.01), true, Replacement::Lru, Some(0.01)),
                (None, false, Replacement::Lru, Some(2.0)),
            ];
            for (mib, verify, policy, energy_mib) in variants {
                let cache = mib.map(|mib| StateCache::new(mib, events, verify, policy).unwrap());
                let mut sim = Simulation::new(model.clone(), species.clone(), 77, cache).unwrap();
                if let Some(mib) = energy_mib {
                    let table = StateCache::new(mib, 0, verify, policy).unwrap();
                    sim = sim.with_trial_energies(table).unwrap();
                }
                for (i, want) in expected.iter().enumerate() {
                    let got = sim.step();
                    assert_eq!(got.event, want.event, "step {i}");
                    assert_eq!(got.time.to_bits(), want.time.to_bits(), "step {i}");
                    assert_eq!(got.energy, want.energy, "step {i}");
                }
                assert_eq!(sim.energy(), model.total_energy(sim.occupation().species()));
                let c = sim.counters();
                if mib.is_some() {
                    assert_eq!(c.lookups, steps as u64);
                    assert_eq!(c.recalls + sim.computed(), steps as u64 + 1);
                    assert!(c.recalls > 0);
                }
                assert_eq!(c.collisions + sim.energy_counters().collisions, 0);
                if energy_mib.is_some() {
                    let t = sim.trial_counters();
                    assert!(t.known > 0 && t.known < t.considered, "{t:?}");
                    // Energy-only recall still computes every state whose rates it does not hold.
                    if mib.is_none() {
                        assert_eq!(sim.computed(), steps as u64 + 1);
                    }
                }
            }
        }
    }

    #[test]
    fn trial_energies_need_an_energy_only_table() {
        let (model, species) = alloy(LatticeKind::Bcc, 3, 1, 2);
        let sim = Simulation::new(model, species, 1, None).unwrap();
        let table = StateCache::new(1.0, 8, false, Replacement::Lru).unwrap();
        assert_eq!(sim.with_trial_energies(table).unwrap_err(), SimulationError::EnergyTableShape(8));
    }

    #[test]
    fn bad_structures_are_refused() {
        let (model, mut species) = alloy(LatticeKind::Sc, 3, 1, 1);
        assert!(matches!(
            Simulation::new(model.clone(), species[1..].to_vec(), 1, None),
            Err(SimulationError::Sites { .. })
        ));
        species.iter_mut().filter(|s| **s == 3).for_each(|s| *s = 0);
        assert!(matches!(
            Simulation::new(model.clone(), species.clone(), 1, None),
            Err(SimulationError::Vacancies { vacancies: 0, .. })
        ));
        species[0] = 9;
        assert!(matches!(Simulation::new(model, species, 1, None), Err(SimulationError::Species { site: 0, .. })));
    }
}
