//! Pair energies per neighbour shell, the total energy of an occupation, and the energy change of an exchange.
//!
//! `E = Σ_shells Σ_{pairs i<j in shell} ε_shell(σ_i, σ_j)`, the vacancy being a species with its own (often
//! zero) pair energies. Energies are held as integers in nano-electronvolts ([`Nev`]): sums of integers are
//! exact and do not depend on the order of addition, so a state's energy is a function of its occupation alone,
//! the incremental ΔE equals a full recomputation *exactly*, and a recalled energy has the same bits as a
//! recomputed one. Pair energies from a config are rounded to the nearest 1 neV.
//!
//! The ΔE of a vacancy–atom exchange is computed from the local environments of the two sites only (both
//! shells of each), as a production KMC code does; [`PairEnergies::total_energy`] is the slow full
//! recomputation that checks it.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::energy::{ev_to_nev, PairEnergies};
//! use tabula_kmc::lattice::{Lattice, LatticeKind};
//!
//! let lattice = Lattice::new(LatticeKind::Bcc, 3, 2).unwrap();
//! let mut pairs = PairEnergies::new(3, 2); // A = 0, B = 1, vacancy = 2
//! pairs.set(0, 0, 1, ev_to_nev(0.1)); // an A–B first-neighbour bond costs 0.1 eV
//! let mut occ = vec![0; lattice.sites()];
//! occ[0] = 1; // a B atom on a cube corner
//! occ[1] = 2; // the vacancy on the cube centre next to it
//! let before = pairs.total_energy(&lattice, &occ);
//! let de = pairs.exchange_delta(&lattice, &occ, 1, lattice.neighbours(1, 0)[0] as usize);
//! assert_eq!(before, ev_to_nev(0.1) * 7); // B has 7 A first neighbours
//! let mut after = occ.clone();
//! after.swap(1, lattice.neighbours(1, 0)[0] as usize);
//! assert_eq!(pairs.total_energy(&lattice, &after) - before, de);
//! ```

use crate::lattice::Lattice;
use crate::Species;

/// An energy in nano-electronvolts.
pub type Nev = i64;

/// Nano-electronvolts per electronvolt.
pub const NEV_PER_EV: f64 = 1e9;

/// Boltzmann's constant in eV/K (CODATA 2018, exact).
pub const BOLTZMANN_EV_PER_K: f64 = 8.617_333_262e-5;

/// `ev` electronvolts rounded to the nearest nano-electronvolt (halves away from zero, as `f64::round`).
#[inline]
pub fn ev_to_nev(ev: f64) -> Nev {
    // `f64::round` is a library call on baseline x86-64; truncating and looking at the (exact) remainder is not,
    // and an EAM state rounds some 400 embedding energies.
    let x = ev * NEV_PER_EV;
    let whole = x as Nev;
    let rest = x - whole as f64;
    if rest >= 0.5 {
        whole + 1
    } else if rest <= -0.5 {
        whole - 1
    } else {
        whole
    }
}

/// `nev` nano-electronvolts in electronvolts.
pub fn nev_to_ev(nev: Nev) -> f64 {
    nev as f64 / NEV_PER_EV
}

/// Symmetric pair energies `ε_shell(a, b)` for `kinds` species (the vacancy included) and `shells` shells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairEnergies {
    kinds: usize,
    shells: usize,
    /// `ε_shell(a, b)` at `(shell · kinds + a) · kinds + b`.
    table: Vec<Nev>,
    /// `ε_shell(a, b) − ε_shell(vacancy, b)` at the same index: what an atom `a` brings to a site that a
    /// vacancy leaves, against each neighbour `b`. The vacancy is the last species.
    swap: Vec<Nev>,
}

impl PairEnergies {
    /// All pair energies zero; the vacancy is species `kinds - 1`.
    pub fn new(kinds: usize, shells: usize) -> Self {
        let len = shells * kinds * kinds;
        Self { kinds, shells, table: vec![0; len], swap: vec![0; len] }
    }

    /// Number of species, the vacancy included.
    pub fn kinds(&self) -> usize {
        self.kinds
    }

    /// Number of shells.
    pub fn shells(&self) -> usize {
        self.shells
    }

    /// Sets `ε_shell(a, b) = ε_shell(b, a) = nev`.
    pub fn set(&mut self, shell: usize, a: usize, b: usize, nev: Nev) {
        let k = self.kinds;
        self.table[(shell * k + a) * k + b] = nev;
        self.table[(shell * k + b) * k + a] = nev;
        let v = k - 1;
        for s in 0..self.shells {
            for a in 0..k {
                for b in 0..k {
                    self.swap[(s * k + a) * k + b] = self.table[(s * k + a) * k + b] - self.table[(s * k + v) * k + b];
                }
            }
        }
    }

    /// `ε_shell(a, b)`.
    #[inline]
    pub fn get(&self, shell: usize, a: usize, b: usize) -> Nev {
        self.table[(shell * self.kinds + a) * self.kinds + b]
    }

    /// The total energy, recomputed from every pair: the slow path that checks [`PairEnergies::exchange_delta`].
    pub fn total_energy(&self, lattice: &Lattice, occ: &[Species]) -> Nev {
        let mut twice = 0;
        for (i, &si) in occ.iter().enumerate() {
            for shell in 0..self.shells {
                for &j in lattice.neighbours(i, shell) {
                    twice += self.get(shell, si as usize, occ[j as usize] as usize);
                }
            }
        }
        // Every pair was met from both ends.
        debug_assert_eq!(twice % 2, 0);
        twice / 2
    }

    /// Energy change when the vacancy on `vacancy_site` exchanges with the atom on `atom_site` (a neighbour).
    ///
    /// Only the bonds of the two sites change: the atom gains the vacancy site's environment and the vacancy the
    /// atom site's. Their mutual bond (atom–vacancy before and after) cancels, so it is skipped.
    #[inline]
    pub fn exchange_delta(&self, lattice: &Lattice, occ: &[Species], vacancy_site: usize, atom_site: usize) -> Nev {
        let k = self.kinds;
        let atom = occ[atom_site] as usize;
        debug_assert_eq!(occ[vacancy_site] as usize, k - 1);
        let starts = lattice.shell_starts();
        let mut de = 0;
        // The atom arrives at the vacancy site: for each neighbour b there, ε(atom, b) replaces ε(vacancy, b).
        let around_vacancy = lattice.all_neighbours(vacancy_site);
        let around_atom = lattice.all_neighbours(atom_site);
        for shell in 0..self.shells {
            let row = &self.swap[(shell * k + atom) * k..(shell * k + atom + 1) * k];
            for &j in &around_vacancy[starts[shell]..starts[shell + 1]] {
                if j as usize != atom_site {
                    de += row[occ[j as usize] as usize];
                }
            }
            // The vacancy arrives at the atom site: ε(vacancy, b) replaces ε(atom, b).
            for &j in &around_atom[starts[shell]..starts[shell + 1]] {
                if j as usize != vacancy_site {
                    de -= row[occ[j as usize] as usize];
                }
            }
        }
        de
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_to_nev_is_f64_round() {
        let mut rng = tabula::zobrist::SplitMix64::new(3);
        for _ in 0..100_000 {
            let ev = (rng.next() as i64) as f64 * 1e-27 * (rng.next() % 1000) as f64;
            assert_eq!(ev_to_nev(ev), (ev * NEV_PER_EV).round() as Nev, "{ev}");
        }
        for x in [0.5, -0.5, 1.5, -2.5, 0.49999999999999994, -0.49999999999999994, 1e15 + 0.5] {
            assert_eq!(ev_to_nev(x / NEV_PER_EV), (x / NEV_PER_EV * NEV_PER_EV).round() as Nev, "{x}");
        }
    }
}
