//! The occupation of a lattice: which species sits on each site, with its Zobrist keys kept up to date.
//!
//! [`Occupation::exchange`] is the only mutator: it swaps a vacancy and an atom and XORs both keys in the same
//! place, four XORs each, so a key can never go stale.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::keys::ZobristTable;
//! use tabula_kmc::occupation::Occupation;
//!
//! let table = ZobristTable::new(4, 3); // species 0 and 1, vacancy = 2
//! let mut occ = Occupation::new(vec![0, 1, 2, 0], 2, &table);
//! let start = occ.key();
//! occ.exchange(&table, 2, 1); // the vacancy on site 2 swaps with the atom on site 1
//! assert_eq!(occ.species(), &[0, 2, 1, 0]);
//! assert_eq!(occ.key(), Occupation::new(vec![0, 2, 1, 0], 2, &table).key());
//! occ.exchange(&table, 1, 2);
//! assert_eq!(occ.key(), start);
//! ```

use crate::keys::ZobristTable;
use crate::Species;
use tabula::zobrist::Key;

/// Species per site, the sorted list of vacancy sites, and the primary and check keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occupation {
    species: Vec<Species>,
    vacancy: Species,
    vacancies: Vec<u32>,
    key: Key,
    check: Key,
}

impl Occupation {
    /// An occupation from species per site; `vacancy` is the species number of a vacancy.
    pub fn new(species: Vec<Species>, vacancy: Species, table: &ZobristTable) -> Self {
        let vacancies = (0..species.len()).filter(|&i| species[i] == vacancy).map(|i| i as u32).collect();
        let mut occ = Occupation { species, vacancy, vacancies, key: Key::ZERO, check: Key::ZERO };
        (occ.key, occ.check) = occ.full_keys(table);
        occ
    }

    /// Both keys recomputed from scratch: one XOR per site.
    pub fn full_keys(&self, table: &ZobristTable) -> (Key, Key) {
        let mut key = Key::ZERO;
        let mut check = Key::ZERO;
        for (site, &s) in self.species.iter().enumerate() {
            key ^= table.primary(site, s as usize);
            check ^= table.check(site, s as usize);
        }
        (key, check)
    }

    /// Swaps the vacancy on `vacancy_site` with the atom on `atom_site`, updating both keys by four XORs each.
    ///
    /// # Panics
    ///
    /// In debug builds, if `vacancy_site` holds no vacancy or `atom_site` holds one.
    #[inline]
    pub fn exchange(&mut self, table: &ZobristTable, vacancy_site: usize, atom_site: usize) {
        let atom = self.species[atom_site];
        debug_assert_eq!(self.species[vacancy_site], self.vacancy);
        debug_assert_ne!(atom, self.vacancy);
        self.species[vacancy_site] = atom;
        self.species[atom_site] = self.vacancy;
        let (primary, check) = table.exchange(vacancy_site, atom_site, atom as usize);
        self.key ^= primary;
        self.check ^= check;
        // Vacancies stay sorted by site, so that a state's event list does not depend on the path to it.
        if let [only] = self.vacancies.as_mut_slice() {
            *only = atom_site as u32;
        } else {
            let i = self.vacancies.iter().position(|&s| s as usize == vacancy_site).expect("a vacancy site");
            self.vacancies[i] = atom_site as u32;
            self.vacancies.sort_unstable();
        }
    }

    /// Species on each site.
    #[inline]
    pub fn species(&self) -> &[Species] {
        &self.species
    }

    /// The species number of a vacancy.
    pub fn vacancy(&self) -> Species {
        self.vacancy
    }

    /// Sites of the vacancies, in increasing order.
    #[inline]
    pub fn vacancies(&self) -> &[u32] {
        &self.vacancies
    }

    /// The primary Zobrist key.
    #[inline]
    pub fn key(&self) -> Key {
        self.key
    }

    /// The independent check key.
    #[inline]
    pub fn check(&self) -> Key {
        self.check
    }

    /// Number of sites holding `species`.
    pub fn count(&self, species: Species) -> usize {
        self.species.iter().filter(|&&s| s == species).count()
    }
}
