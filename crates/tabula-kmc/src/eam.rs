//! Embedded-atom energies on a lattice: `E = Σ_i F_{σ_i}(ρ_i) + ½ Σ_{i≠j} φ_{σ_i σ_j}(r_ij)`, a vacancy being an
//! empty site, from a potential file ([`crate::potential`]).
//!
//! On a lattice every distance is a shell distance, so the potential is read once per shell: [`LatticeEam`]
//! holds, per shell and species pair, the pair energy and the density contributed, and per species the embedding
//! function. Like the pair model ([`crate::energy`]) it keeps energies exact:
//!
//! - pair energies are rounded to integer neV per shell and species pair;
//! - densities are fixed-point integers ([`DENSITY_SCALE`] units per density unit), so a site's density is an
//!   exact sum whatever the order or path;
//! - a site's embedding energy is `F(ρ)` at that exact density, rounded to the nearest neV.
//!
//! A state's energy is then a function of its occupation alone, the local ΔE of an exchange equals the difference
//! of two full sums *exactly*, and a recalled state has the same bits as a recomputed one. The rounding moves an
//! energy by at most 0.5 neV per pair and per atom; ASE agrees to the interpolation's precision
//! (`tests/ase_oracle.rs`).
//!
//! **The ΔE of an exchange** of the vacancy on `v` with the atom `X` on `a` is local: the pair terms of `X`
//! around `a` and around `v`, `X`'s embedding energy on `a` and on `v`, and the embedding energy of every atom
//! within the cutoff of `v` or `a`, whose density gains or loses `X`'s contribution — about 45 embedding
//! evaluations for bcc with three shells. [`LatticeEam::compute_events`] does this for all the events of a vacancy at
//! once, computing the density and embedding energy of each site of the region around it once, and keeps them from
//! state to state for the sites that nothing moved near ([`Scratch`]).
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::analytic::ackland_fe_cu;
//! use tabula_kmc::eam::LatticeEam;
//! use tabula_kmc::energy::nev_to_ev;
//! use tabula_kmc::lattice::{shells_within, Lattice, LatticeKind};
//!
//! let potential = ackland_fe_cu();
//! let a = 2.8665;
//! let lattice = Lattice::new(LatticeKind::Bcc, 4, shells_within(LatticeKind::Bcc, a, potential.cutoff())).unwrap();
//! let eam = LatticeEam::new(&potential, &["Fe", "Cu"], &lattice, a).unwrap();
//! let mut occ = vec![0u8; lattice.sites()]; // Fe = 0, Cu = 1, vacancy = 2
//! let perfect = eam.total_energy(&lattice, &occ);
//! assert!((nev_to_ev(perfect) / 128.0 + 4.316).abs() < 1e-4); // the cohesive energy of Ackland's Fe
//! occ[0] = 2;
//! occ[1] = 1; // a Cu atom next to the vacancy
//! let before = eam.total_energy(&lattice, &occ);
//! let mut after = occ.clone();
//! let neighbour = lattice.neighbours(0, 0)[3] as usize;
//! after.swap(0, neighbour);
//! assert_eq!(eam.exchange_delta(&lattice, &occ, 0, neighbour), eam.total_energy(&lattice, &after) - before);
//! ```

use crate::energy::{ev_to_nev, Nev};
use crate::lattice::{shells_within, Lattice};
use crate::potential::{EamPotential, Table};
use crate::Species;
use std::sync::atomic::{AtomicU64, Ordering};

/// Fixed-point density units per unit of density (2⁴⁰: a resolution of 10⁻¹²).
pub const DENSITY_SCALE: f64 = (1u64 << 40) as f64;

/// The largest density, in density units, that a site may reach: its fixed-point value must stay far inside `i64`.
const MAX_DENSITY: f64 = (1u64 << 50) as f64 / DENSITY_SCALE;

/// The potential does not fit the species or the lattice.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EamError {
    /// A species is not an element of the potential.
    #[error("`{species}` is not in the potential (its elements: {available})")]
    Species {
        /// The species asked for.
        species: String,
        /// The potential's elements.
        available: String,
    },
    /// The lattice lists fewer shells than lie within the cutoff.
    #[error("the lattice lists {listed} neighbour shell(s), but {needed} lie within the {cutoff} Å cutoff")]
    Shells {
        /// Shells the lattice lists.
        listed: usize,
        /// Shells within the cutoff.
        needed: usize,
        /// The cutoff.
        cutoff: f64,
    },
    /// A tabulated density is so large that a site's fixed-point sum could overflow.
    #[error("a density of {value} at {distance} Å is out of range (at most {MAX_DENSITY:e})")]
    Density {
        /// The density.
        value: f64,
        /// The distance.
        distance: f64,
    },
}

/// An EAM potential read on a lattice: per shell pair energies (neV) and densities (fixed point), per species the
/// embedding function.
#[derive(Clone, Debug)]
pub struct LatticeEam {
    /// Tells a [`Scratch`] whether the values it keeps are this potential's (a clone shares it: same values).
    id: u64,
    /// Species, the vacancy (the last) included.
    kinds: usize,
    /// Shells within the cutoff.
    shells: usize,
    /// `φ_shell(a, b)` in neV at `(shell · kinds + a) · kinds + b`; 0 with the vacancy.
    pair: Vec<Nev>,
    /// The density an `a` atom gives a `b` atom at the shell's distance, at `(shell · kinds + a) · kinds + b`; 0
    /// with the vacancy.
    density: Vec<i64>,
    /// Each atom species' embedding function.
    embedding: Vec<Table>,
}

impl PartialEq for LatticeEam {
    fn eq(&self, other: &Self) -> bool {
        (self.kinds, self.shells, &self.pair, &self.density, &self.embedding)
            == (other.kinds, other.shells, &other.pair, &other.density, &other.embedding)
    }
}

/// The next [`LatticeEam::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Per-site scratch for [`LatticeEam::compute_events`]: the densities and embedding energies of the sites around
/// the vacancies, and the density changes of one exchange. Reused from state to state, so computing a state
/// allocates nothing.
///
/// Site densities are kept from one state to the next: [`Scratch::exchanged`] records each exchange's two sites
/// (with what they held before, the first time a site is met), and the next [`LatticeEam::compute_events`], for
/// each recorded site whose species changed since, adds the new species' contribution to the kept densities around
/// it and takes the old one's (a few dozen integer additions, exact), forgetting only that site's own density — or
/// forgets everything, if the occupation is not the one the recorded exchanges lead to, or they moved more than
/// 64 sites. The cost goes with the sites that changed, not with the exchanges: after many steps in which
/// the vacancy went back and forth among a few sites (recalled states, which compute nothing), only those sites
/// are updated. A changed density's embedding energy is evaluated again when an event needs it. In a trajectory the
/// vacancy's next region mostly overlaps its last, so most of its sites' densities are already there.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Generation in which `rho` of a site was computed (0: never, or forgotten).
    computed: Vec<u32>,
    rho: Vec<i64>,
    /// `F(rho)` of a site, valid where `embedded_ok`.
    embedded: Vec<Nev>,
    embedded_ok: Vec<bool>,
    generation: u32,
    /// The keys of the occupation the kept densities belong to once the `moved` sites are brought up to date.
    synced: Option<(u64, u64)>,
    /// Sites exchanges have moved since the densities were last brought up to date, each with the species it held
    /// then; `was_moved` marks them.
    moved: Vec<(u32, Species)>,
    was_moved: Vec<bool>,
    /// The vacancy's species number in the potential the scratch serves.
    vacancy: Species,
    /// The potential (its id) whose values the scratch keeps; 0 before the first computation.
    eam: u64,
    /// Embedding energies already evaluated, `(density, F(density))` per atom species in [`MEMO`] slots chosen by
    /// the density: the sites of a dilute alloy see few distinct densities, and a slot stays in the CPU's first-level
    /// cache where the potential's tables (a few hundred kB) would not.
    memo: Vec<(i64, Nev)>,
    /// Density change of a site in the exchange being evaluated, and whether it is in `touched`.
    change: Vec<i64>,
    listed: Vec<bool>,
    touched: Vec<u32>,
}

/// Slots per atom species of [`Scratch`]'s embedding-energy memo (16 bytes each).
const MEMO: usize = 1 << MEMO_BITS;
const MEMO_BITS: u32 = 10;
/// No density: fixed-point densities stay far inside `i64` ([`MAX_DENSITY`]).
const NO_DENSITY: i64 = i64::MIN;

/// Sites moved by exchanges beyond which forgetting every site is cheaper than updating the sites around each
/// (26 for bcc with three shells).
const MOST_SITES: usize = 64;

impl Scratch {
    /// Scratch for `sites` sites.
    pub fn new(sites: usize) -> Self {
        Scratch {
            computed: vec![0; sites],
            rho: vec![0; sites],
            embedded: vec![0; sites],
            embedded_ok: vec![false; sites],
            generation: 1,
            synced: None,
            moved: Vec::with_capacity(MOST_SITES + 2),
            was_moved: vec![false; sites],
            vacancy: 0,
            eam: 0,
            memo: Vec::new(),
            change: vec![0; sites],
            listed: vec![false; sites],
            touched: Vec::with_capacity(64),
        }
    }

    /// Records that the occupation with keys `before` exchanged the vacancy on `from` with the atom of species
    /// `atom` on `to` and now has the keys `after` (keys: any 128 bits that identify an occupation, such as its two
    /// Zobrist keys). An exchange that does not start from the occupation the scratch knows makes it forget every
    /// site at the next computation.
    #[inline]
    pub fn exchanged(&mut self, from: usize, to: usize, atom: Species, before: (u64, u64), after: (u64, u64)) {
        if self.synced != Some(before) || self.moved.len() > MOST_SITES {
            self.synced = None;
            return;
        }
        for (site, was) in [(from, self.vacancy), (to, atom)] {
            if !self.was_moved[site] {
                self.was_moved[site] = true;
                self.moved.push((site as u32, was));
            }
        }
        self.synced = Some(after);
    }

    /// Forgets every site's density.
    fn forget(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.computed.iter_mut().for_each(|g| *g = 0);
            self.generation = 1;
        }
    }
}

impl LatticeEam {
    /// The potential `potential` read on `lattice` (lattice constant `lattice_constant` Å), for atom species
    /// `species` (element symbols of the potential; the vacancy comes after them).
    ///
    /// # Errors
    ///
    /// [`EamError`] if a species is not in the potential, the lattice lists fewer shells than the cutoff reaches,
    /// or a density is out of the fixed-point range.
    pub fn new(
        potential: &EamPotential,
        species: &[&str],
        lattice: &Lattice,
        lattice_constant: f64,
    ) -> Result<LatticeEam, EamError> {
        let elements = species
            .iter()
            .map(|s| {
                potential.element_index(s).ok_or_else(|| EamError::Species {
                    species: s.to_string(),
                    available: potential.elements().iter().map(|e| e.symbol.as_str()).collect::<Vec<_>>().join(", "),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let cutoff = potential.cutoff();
        let shells = shells_within(lattice.kind(), lattice_constant, cutoff);
        if shells > lattice.shells() {
            return Err(EamError::Shells { listed: lattice.shells(), needed: shells, cutoff });
        }
        let kinds = species.len() + 1;
        let mut pair = vec![0; lattice.shells() * kinds * kinds];
        let mut density = vec![0; lattice.shells() * kinds * kinds];
        for shell in 0..shells {
            let r = (lattice.shell_distance_squared(shell) as f64).sqrt() * lattice_constant / 2.0;
            for (a, &ea) in elements.iter().enumerate() {
                for (b, &eb) in elements.iter().enumerate() {
                    let i = (shell * kinds + a) * kinds + b;
                    pair[i] = ev_to_nev(potential.pair(ea, eb, r));
                    let rho = potential.density(ea, eb, r);
                    if rho.abs() > MAX_DENSITY / lattice.coordination(shell) as f64 {
                        return Err(EamError::Density { value: rho, distance: r });
                    }
                    density[i] = (rho * DENSITY_SCALE).round() as i64;
                }
            }
        }
        // Only shells within the cutoff interact: a lattice listing more keeps zeros for the others.
        let embedding = elements.iter().map(|&e| potential.embedding_table(e).clone()).collect();
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Ok(LatticeEam { id, kinds, shells: lattice.shells(), pair, density, embedding })
    }

    /// Number of species, the vacancy included.
    pub fn kinds(&self) -> usize {
        self.kinds
    }

    /// Number of shells the tables cover (the lattice's).
    pub fn shells(&self) -> usize {
        self.shells
    }

    /// The pair energy of species `a` and `b` in `shell`, in neV.
    #[inline]
    pub fn pair(&self, shell: usize, a: usize, b: usize) -> Nev {
        self.pair[(shell * self.kinds + a) * self.kinds + b]
    }

    /// The fixed-point density an `a` atom gives a `b` atom in `shell`.
    #[inline]
    pub fn density(&self, shell: usize, from: usize, at: usize) -> i64 {
        self.density[(shell * self.kinds + from) * self.kinds + at]
    }

    /// The embedding energy in neV of an atom of `species` in the fixed-point density `rho` (0 for the vacancy).
    #[inline]
    pub fn embedding(&self, species: usize, rho: i64) -> Nev {
        match self.embedding.get(species) {
            // A power-of-two scale: multiplying by its inverse is exact.
            Some(table) => ev_to_nev(table.value_extended(rho as f64 * (1.0 / DENSITY_SCALE))),
            None => 0,
        }
    }

    /// [`LatticeEam::embedding`] through the scratch's memo (the same value).
    #[inline]
    fn embedded(&self, species: usize, rho: i64, scratch: &mut Scratch) -> Nev {
        if species >= self.embedding.len() {
            return 0;
        }
        let slot = species * MEMO + ((rho as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO_BITS)) as usize;
        let (known, energy) = scratch.memo[slot];
        if known == rho {
            return energy;
        }
        let energy = self.embedding(species, rho);
        scratch.memo[slot] = (rho, energy);
        energy
    }

    /// The fixed-point density at `site` for an atom of `species` there, from the atoms around it.
    #[inline]
    pub fn site_density(&self, lattice: &Lattice, occ: &[Species], site: usize, species: usize) -> i64 {
        let starts = lattice.shell_starts();
        let around = lattice.all_neighbours(site);
        let mut rho = 0;
        for shell in 0..self.shells {
            for &j in &around[starts[shell]..starts[shell + 1]] {
                rho += self.density(shell, occ[j as usize] as usize, species);
            }
        }
        rho
    }

    /// The total energy in neV, from every site and every pair: the slow path that checks the local ΔE.
    pub fn total_energy(&self, lattice: &Lattice, occ: &[Species]) -> Nev {
        let vacancy = self.kinds - 1;
        let starts = lattice.shell_starts();
        let mut embedding = 0;
        let mut twice_pairs = 0;
        for (i, &si) in occ.iter().enumerate() {
            let si = si as usize;
            if si == vacancy {
                continue;
            }
            embedding += self.embedding(si, self.site_density(lattice, occ, i, si));
            let around = lattice.all_neighbours(i);
            for shell in 0..self.shells {
                for &j in &around[starts[shell]..starts[shell + 1]] {
                    twice_pairs += self.pair(shell, si, occ[j as usize] as usize);
                }
            }
        }
        debug_assert_eq!(twice_pairs % 2, 0, "every pair is met from both ends");
        embedding + twice_pairs / 2
    }

    /// The energy change when the vacancy on `vacancy_site` exchanges with the atom on `atom_site` (a neighbour):
    /// the local computation of [`LatticeEam::compute_events`], for one event.
    pub fn exchange_delta(&self, lattice: &Lattice, occ: &[Species], vacancy_site: usize, atom_site: usize) -> Nev {
        let mut scratch = Scratch::new(occ.len());
        self.sync(lattice, occ, (0, 0), &mut scratch);
        self.delta(lattice, occ, vacancy_site, atom_site, &mut scratch)
    }

    /// Brings the densities `scratch` keeps up to date for the occupation `occ` with keys `keys`: updates them
    /// around the sites the recorded exchanges changed if they lead to it, forgets every site otherwise (and
    /// everything, memo included, if the scratch served another potential).
    fn sync(&self, lattice: &Lattice, occ: &[Species], keys: (u64, u64), scratch: &mut Scratch) {
        if scratch.eam != self.id {
            scratch.eam = self.id;
            scratch.memo = vec![(NO_DENSITY, 0); self.embedding.len() * MEMO];
            scratch.vacancy = (self.kinds - 1) as Species;
            scratch.synced = None;
        }
        let keep = scratch.synced == Some(keys);
        if !keep {
            scratch.forget();
        }
        let starts = lattice.shell_starts();
        let generation = scratch.generation;
        for i in 0..scratch.moved.len() {
            let (site, was) = scratch.moved[i];
            let site = site as usize;
            scratch.was_moved[site] = false;
            let now = occ[site];
            if !keep || now == was {
                continue;
            }
            // The site's own density is for the species on it: it goes. Its neighbours' densities still kept lose
            // what the old species gave them and gain the new one's (a vacancy gives nothing); a neighbour whose
            // own species changed goes as well, whichever of the two is met first.
            scratch.computed[site] = 0;
            let around = lattice.all_neighbours(site);
            for shell in 0..self.shells {
                for &j in &around[starts[shell]..starts[shell + 1]] {
                    let j = j as usize;
                    if scratch.computed[j] == generation {
                        let at = occ[j] as usize;
                        scratch.rho[j] += self.density(shell, now as usize, at) - self.density(shell, was as usize, at);
                        scratch.embedded_ok[j] = false;
                    }
                }
            }
        }
        scratch.moved.clear();
        scratch.synced = Some(keys);
    }

    /// The ΔE of every exchange of the vacancy on `vacancy_site` with its first-shell neighbours, in the lattice's
    /// neighbour order, into `deltas` (0 for a neighbour that is a vacancy), except those marked in `known`. The
    /// densities of the region are computed as the events need them, so that known events cost nothing.
    ///
    /// `keys` identify the occupation `occ` (its two Zobrist keys): `scratch` keeps the sites' densities of the
    /// occupation it last saw, and keeps them for `occ` only if the exchanges recorded by [`Scratch::exchanged`]
    /// since lead from that occupation to `keys`.
    #[allow(clippy::too_many_arguments)]
    pub fn compute_events(
        &self,
        lattice: &Lattice,
        occ: &[Species],
        keys: (u64, u64),
        vacancy_site: usize,
        deltas: &mut [Nev],
        known: Option<&[bool]>,
        scratch: &mut Scratch,
    ) {
        debug_assert_eq!(occ[vacancy_site] as usize, self.kinds - 1);
        self.sync(lattice, occ, keys, scratch);
        for (slot, &atom_site) in lattice.neighbours(vacancy_site, 0).iter().enumerate() {
            if known.is_some_and(|k| k[slot]) {
                continue;
            }
            deltas[slot] = if occ[atom_site as usize] as usize == self.kinds - 1 {
                0
            } else {
                self.delta(lattice, occ, vacancy_site, atom_site as usize, scratch)
            };
        }
    }

    /// The density and embedding energy of the atom on `site`: the density computed once and then kept up to date,
    /// the embedding energy evaluated again when the density changed.
    #[inline]
    fn site(&self, lattice: &Lattice, occ: &[Species], site: usize, scratch: &mut Scratch) -> (i64, Nev) {
        let species = occ[site] as usize;
        if scratch.computed[site] != scratch.generation {
            scratch.rho[site] = self.site_density(lattice, occ, site, species);
            scratch.computed[site] = scratch.generation;
            scratch.embedded_ok[site] = false;
        }
        if !scratch.embedded_ok[site] {
            scratch.embedded[site] = self.embedded(species, scratch.rho[site], scratch);
            scratch.embedded_ok[site] = true;
        }
        (scratch.rho[site], scratch.embedded[site])
    }

    /// ΔE of one exchange, `v` holding the vacancy and `a` the atom `X`.
    fn delta(&self, lattice: &Lattice, occ: &[Species], v: usize, a: usize, scratch: &mut Scratch) -> Nev {
        let vacancy = self.kinds - 1;
        let x = occ[a] as usize;
        let starts = lattice.shell_starts();
        let (around_v, around_a) = (lattice.all_neighbours(v), lattice.all_neighbours(a));

        // X leaves a: its pair terms and embedding energy there go.
        let mut de = -self.site(lattice, occ, a, scratch).1;
        // X arrives on v, whose neighbours (a now empty) give it their pairs and density.
        let mut rho_v = 0;
        scratch.touched.clear();
        for shell in 0..self.shells {
            for &j in &around_v[starts[shell]..starts[shell + 1]] {
                let (j, sj) = (j as usize, occ[j as usize] as usize);
                if j == a || sj == vacancy {
                    continue;
                }
                de += self.pair(shell, x, sj);
                rho_v += self.density(shell, sj, x);
                if !scratch.listed[j] {
                    scratch.listed[j] = true;
                    scratch.touched.push(j as u32);
                }
                scratch.change[j] += self.density(shell, x, sj);
            }
            for &j in &around_a[starts[shell]..starts[shell + 1]] {
                let (j, sj) = (j as usize, occ[j as usize] as usize);
                if j == v || sj == vacancy {
                    continue;
                }
                de -= self.pair(shell, x, sj);
                if !scratch.listed[j] {
                    scratch.listed[j] = true;
                    scratch.touched.push(j as u32);
                }
                scratch.change[j] -= self.density(shell, x, sj);
            }
        }
        de += self.embedded(x, rho_v, scratch);
        // Every atom around v or a embeds in its density changed by X's move.
        for k in 0..scratch.touched.len() {
            let j = scratch.touched[k] as usize;
            let change = std::mem::take(&mut scratch.change[j]);
            scratch.listed[j] = false;
            if change != 0 {
                let (rho, embedded) = self.site(lattice, occ, j, scratch);
                de += self.embedded(occ[j] as usize, rho + change, scratch) - embedded;
            }
        }
        de
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::{ackland_fe_cu, zhou_2004};
    use crate::lattice::LatticeKind;
    use tabula::zobrist::SplitMix64;

    fn random_alloy(sites: usize, vacancies: usize, seed: u64) -> Vec<Species> {
        let mut rng = SplitMix64::new(seed);
        let mut occ: Vec<Species> = (0..sites).map(|_| (rng.next() % 2) as Species).collect();
        for v in 0..vacancies {
            occ[(37 * v + 11) % sites] = 2;
        }
        occ
    }

    #[test]
    fn every_exchange_delta_is_the_difference_of_full_sums() {
        let cases = [
            (ackland_fe_cu(), LatticeKind::Bcc, 2.8665),
            (zhou_2004(&["Fe", "Cu"], 5.6, 600, 600).unwrap(), LatticeKind::Fcc, 3.615),
            (zhou_2004(&["Fe", "Cu"], 5.6, 600, 600).unwrap(), LatticeKind::Sc, 2.6),
        ];
        for (potential, kind, a) in cases {
            let shells = shells_within(kind, a, potential.cutoff());
            let lattice = Lattice::new(kind, 5, shells).unwrap();
            let eam = LatticeEam::new(&potential, &["Fe", "Cu"], &lattice, a).unwrap();
            let occ = random_alloy(lattice.sites(), 3, 5);
            let before = eam.total_energy(&lattice, &occ);
            let mut scratch = Scratch::new(occ.len());
            let z = lattice.coordination(0);
            let mut deltas = vec![0; z];
            for v in (0..occ.len()).filter(|&s| occ[s] == 2) {
                eam.compute_events(&lattice, &occ, (0, 0), v, &mut deltas, None, &mut scratch);
                for (slot, &a) in lattice.neighbours(v, 0).iter().enumerate() {
                    let mut after = occ.clone();
                    after.swap(v, a as usize);
                    let expected = if occ[a as usize] == 2 { 0 } else { eam.total_energy(&lattice, &after) - before };
                    assert_eq!(deltas[slot], expected, "{kind} site {v} slot {slot}");
                }
            }
        }
    }

    #[test]
    fn kept_densities_follow_recorded_exchanges_and_are_dropped_otherwise() {
        let potential = ackland_fe_cu();
        let lattice = Lattice::new(LatticeKind::Bcc, 4, 3).unwrap();
        let eam = LatticeEam::new(&potential, &["Fe", "Cu"], &lattice, 2.8665).unwrap();
        let mut occ = random_alloy(lattice.sites(), 1, 8);
        let mut v = occ.iter().position(|&s| s == 2).unwrap();
        let mut scratch = Scratch::new(occ.len());
        let mut rng = SplitMix64::new(4);
        let mut deltas = vec![0; lattice.coordination(0)];
        // Exchanges between computations: 1–3 (kept densities; every seventh is not recorded, and the keys then
        // differ: all forgotten); 200 among the 15 sites of the vacancy's first two shells (kept: few sites moved);
        // 200 anywhere (more than 64 sites moved: all forgotten).
        let mut moves = 0u64;
        for round in 0..60 {
            let (steps, confined) = match round % 10 {
                8 => (200, true),
                9 => (200, false),
                _ => (1 + rng.next() % 3, false),
            };
            let mut allowed = vec![v];
            allowed.extend(lattice.neighbours(v, 0).iter().chain(lattice.neighbours(v, 1)).map(|&j| j as usize));
            for _ in 0..steps {
                let around = lattice.neighbours(v, 0).iter().map(|&j| j as usize);
                let choices: Vec<usize> = around.filter(|a| !confined || allowed.contains(a)).collect();
                let a = choices[(rng.next() % choices.len() as u64) as usize];
                occ.swap(v, a);
                moves += 1;
                if steps > 3 || moves % 7 != 0 {
                    scratch.exchanged(v, a, occ[v], (moves - 1, 0), (moves, 0));
                }
                v = a;
            }
            if round % 10 == 8 {
                assert_eq!(scratch.synced, Some((moves, 0)), "round {round}: kept");
            }
            if round % 10 == 9 {
                assert_eq!(scratch.synced, None, "round {round}: forgotten");
            }
            eam.compute_events(&lattice, &occ, (moves, 0), v, &mut deltas, None, &mut scratch);
            for (slot, &a) in lattice.neighbours(v, 0).iter().enumerate() {
                assert_eq!(deltas[slot], eam.exchange_delta(&lattice, &occ, v, a as usize), "round {round}");
            }
        }
        // The same occupation and keys with another potential: nothing kept is used.
        let other =
            LatticeEam::new(&crate::analytic::ackland_fe_cu_with(0.5), &["Fe", "Cu"], &lattice, 2.8665).unwrap();
        other.compute_events(&lattice, &occ, (moves, 0), v, &mut deltas, None, &mut scratch);
        for (slot, &a) in lattice.neighbours(v, 0).iter().enumerate() {
            assert_eq!(deltas[slot], other.exchange_delta(&lattice, &occ, v, a as usize));
        }
    }

    #[test]
    fn the_fe_cu_cross_term_gives_the_documented_solution_and_binding_energies() {
        let lattice = Lattice::new(LatticeKind::Bcc, 5, 3).unwrap();
        // (heat of solution, Cu–V binding 1st / 2nd neighbours, Cu–Cu binding 1st / 2nd neighbours), as documented.
        for (solution, cu_v, cu_cu) in [(0.5, [0.090, 0.054], [0.079, 0.028]), (0.9, [0.130, 0.067], [0.159, 0.054])] {
            let potential = crate::analytic::ackland_fe_cu_with(solution);
            let eam = LatticeEam::new(&potential, &["Fe", "Cu"], &lattice, 2.8665).unwrap();
            let energy = |cu: &[usize], vac: &[usize]| {
                let mut occ = vec![0 as Species; lattice.sites()];
                cu.iter().for_each(|&s| occ[s] = 1);
                vac.iter().for_each(|&s| occ[s] = 2);
                crate::energy::nev_to_ev(eam.total_energy(&lattice, &occ))
            };
            let bulk = energy(&[], &[]);
            let per_fe = bulk / lattice.sites() as f64;
            let cu_fcc = -3.519_353; // Ackland et al. (1987) Cu, E_coh at a = 3.615 Å
            let heat = energy(&[0], &[]) - bulk - (cu_fcc - per_fe);
            assert!((heat - solution).abs() < 5e-4, "heat of solution {heat}, not {solution}");
            let (sub, vac) = (energy(&[0], &[]) - bulk, energy(&[], &[0]) - bulk);
            assert!((vac + per_fe - 1.890).abs() < 1e-3, "vacancy formation {}", vac + per_fe);
            for shell in 0..2 {
                let s = lattice.neighbours(0, shell)[0] as usize;
                let binding = sub + vac - (energy(&[0], &[s]) - bulk);
                let pair = 2.0 * sub - (energy(&[0, s], &[]) - bulk);
                assert!((binding - cu_v[shell]).abs() < 1e-3, "Cu-V {binding} in shell {shell}");
                assert!((pair - cu_cu[shell]).abs() < 1e-3, "Cu-Cu {pair} in shell {shell}");
            }
        }
    }

    #[test]
    fn misfits_are_refused() {
        let potential = ackland_fe_cu();
        let lattice = Lattice::new(LatticeKind::Bcc, 4, 2).unwrap();
        assert!(matches!(
            LatticeEam::new(&potential, &["Fe", "Cu"], &lattice, 2.8665),
            Err(EamError::Shells { listed: 2, needed: 3, .. })
        ));
        let lattice = Lattice::new(LatticeKind::Bcc, 4, 3).unwrap();
        let err = LatticeEam::new(&potential, &["Fe", "Ni"], &lattice, 2.8665).unwrap_err();
        assert!(err.to_string().contains("`Ni`") && err.to_string().contains("Fe, Cu"));
    }
}
