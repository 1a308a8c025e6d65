//! Cubic lattices (sc, bcc, fcc) in periodic `n × n × n` supercells, with neighbour lists by shell.
//!
//! Coordinates are kept in integer units of half a lattice constant, so that every site of the three
//! lattices has integer coordinates and distances compare exactly. A site's index is
//! `((x_cell · n + y_cell) · n + z_cell) · basis + b`, where `b` numbers the atoms of the conventional cubic
//! cell (1 for sc, 2 for bcc, 4 for fcc).
//!
//! Neighbour shell `k` (0-based) holds the sites at the `k+1`-th smallest distance; within a shell neighbours
//! come in a fixed order (the sorted offsets), so event lists built from them are deterministic.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::lattice::{Lattice, LatticeKind};
//!
//! let bcc = Lattice::new(LatticeKind::Bcc, 4, 2).unwrap();
//! assert_eq!(bcc.sites(), 2 * 4 * 4 * 4);
//! assert_eq!(bcc.coordination(0), 8); // first shell: the cube's corners
//! assert_eq!(bcc.coordination(1), 6); // second shell: the next cube centres
//! let first = bcc.neighbours(0, 0);
//! assert!(first.iter().all(|&j| bcc.neighbours(j as usize, 0).contains(&0)));
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// The three cubic Bravais lattices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LatticeKind {
    /// Simple cubic: one site per conventional cell.
    Sc,
    /// Body-centred cubic: two sites per cell (α-Fe).
    Bcc,
    /// Face-centred cubic: four sites per cell (Cu, Al, Ni).
    Fcc,
}

impl LatticeKind {
    /// Every kind.
    pub const ALL: [LatticeKind; 3] = [LatticeKind::Sc, LatticeKind::Bcc, LatticeKind::Fcc];
    /// Number of kinds.
    pub const COUNT: usize = 3;

    /// The sites of the conventional cubic cell, in half lattice constants.
    pub const fn basis(self) -> &'static [[i32; 3]] {
        match self {
            LatticeKind::Sc => &[[0, 0, 0]],
            LatticeKind::Bcc => &[[0, 0, 0], [1, 1, 1]],
            LatticeKind::Fcc => &[[0, 0, 0], [1, 1, 0], [1, 0, 1], [0, 1, 1]],
        }
    }

    /// The lower-case name used in configs.
    pub const fn name(self) -> &'static str {
        match self {
            LatticeKind::Sc => "sc",
            LatticeKind::Bcc => "bcc",
            LatticeKind::Fcc => "fcc",
        }
    }
}

impl fmt::Display for LatticeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest number of neighbour shells a [`Lattice`] can list.
pub const MAX_SHELLS: usize = 16;

/// The lattice vectors of `kind` in half lattice constants, with their squared lengths, out to the first `shells`
/// distinct lengths (every vector of each of those lengths), sorted by length then by coordinates.
fn shell_vectors(kind: LatticeKind, shells: usize) -> Vec<(i32, [i32; 3])> {
    let basis = kind.basis();
    let is_lattice_vector = |d: [i32; 3]| basis.contains(&[d[0].rem_euclid(2), d[1].rem_euclid(2), d[2].rem_euclid(2)]);
    // Every vector of squared length ≤ radius² lies in the cube of half-width `radius`: grow it until it holds
    // `shells` distinct lengths that small.
    let mut radius = 4;
    loop {
        let mut vectors = Vec::new();
        for x in -radius..=radius {
            for y in -radius..=radius {
                for z in -radius..=radius {
                    let d = [x, y, z];
                    let r2 = x * x + y * y + z * z;
                    if d != [0, 0, 0] && r2 <= radius * radius && is_lattice_vector(d) {
                        vectors.push((r2, d));
                    }
                }
            }
        }
        vectors.sort_unstable();
        let mut lengths: Vec<i32> = vectors.iter().map(|v| v.0).collect();
        lengths.dedup();
        if lengths.len() >= shells {
            vectors.retain(|v| v.0 <= lengths[shells - 1]);
            return vectors;
        }
        radius *= 2;
    }
}

/// The number of neighbour shells of `kind` closer than `cutoff` (strictly, as LAMMPS and ASE count
/// neighbours) with lattice constant `lattice_constant`, in the same length unit.
///
/// # Examples
///
/// ```
/// use tabula_kmc::lattice::{shells_within, LatticeKind};
///
/// // bcc Fe (a = 2.8665 Å): 2.48, 2.87 and 4.05 Å lie within 4.43 Å, 4.75 Å does not.
/// assert_eq!(shells_within(LatticeKind::Bcc, 2.8665, 4.43), 3);
/// ```
pub fn shells_within(kind: LatticeKind, lattice_constant: f64, cutoff: f64) -> usize {
    let mut shells = 0;
    loop {
        let vectors = shell_vectors(kind, shells + 1);
        let r2 = vectors.last().expect("a lattice has vectors").0;
        if (r2 as f64).sqrt() * lattice_constant / 2.0 >= cutoff || shells == MAX_SHELLS {
            return shells;
        }
        shells += 1;
    }
}

/// Why a lattice cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LatticeError {
    /// Asked for no shells or more than [`MAX_SHELLS`].
    #[error("between 1 and {MAX_SHELLS} neighbour shells are supported, not {0}")]
    Shells(usize),
    /// The supercell is so small that a site meets itself or one neighbour twice through the periodic boundary.
    #[error("a {kind} supercell of size {size} is too small for {shells} neighbour shell(s): periodic images overlap")]
    TooSmall {
        /// Lattice kind.
        kind: LatticeKind,
        /// Cells along each axis.
        size: usize,
        /// Shells asked for.
        shells: usize,
    },
}

/// A periodic supercell with neighbour lists for the first few shells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    kind: LatticeKind,
    size: usize,
    shells: usize,
    coords: Vec<[i32; 3]>,
    /// Per site, the neighbours of every shell one after another (`per_site` entries).
    neighbours: Vec<u32>,
    /// Start of each shell inside a site's list; `shell_starts[shells] == per_site`.
    shell_starts: Vec<usize>,
    /// Squared distance of each shell, in (half lattice constant)².
    shell_distances: Vec<i32>,
    /// Neighbour offsets, shell after shell, in half lattice constants.
    offsets: Vec<[i32; 3]>,
}

impl Lattice {
    /// An `size × size × size` supercell of `kind` with neighbour lists for `shells` shells.
    ///
    /// # Errors
    ///
    /// [`LatticeError::Shells`] if `shells` is 0 or above [`MAX_SHELLS`]; [`LatticeError::TooSmall`] if periodic
    /// images make a site its own neighbour or list one neighbour twice.
    pub fn new(kind: LatticeKind, size: usize, shells: usize) -> Result<Self, LatticeError> {
        if shells == 0 || shells > MAX_SHELLS {
            return Err(LatticeError::Shells(shells));
        }
        let basis = kind.basis();
        let candidates = shell_vectors(kind, shells);
        let mut shell_distances: Vec<i32> = candidates.iter().map(|c| c.0).collect();
        shell_distances.dedup();
        let mut offsets = Vec::new();
        let mut shell_starts = vec![0];
        for &r2 in &shell_distances {
            offsets.extend(candidates.iter().filter(|c| c.0 == r2).map(|c| c.1));
            shell_starts.push(offsets.len());
        }

        // Overlapping images: two offsets equal modulo the box, or an offset equal to zero modulo the box.
        let period = 2 * size as i32;
        let wrap = |d: [i32; 3]| [d[0].rem_euclid(period), d[1].rem_euclid(period), d[2].rem_euclid(period)];
        let mut wrapped: Vec<[i32; 3]> = offsets.iter().map(|&d| wrap(d)).collect();
        wrapped.push([0, 0, 0]);
        wrapped.sort_unstable();
        if size == 0 || wrapped.windows(2).any(|w| w[0] == w[1]) {
            return Err(LatticeError::TooSmall { kind, size, shells });
        }

        let cells = size * size * size;
        let mut coords = Vec::with_capacity(cells * basis.len());
        for cx in 0..size as i32 {
            for cy in 0..size as i32 {
                for cz in 0..size as i32 {
                    for b in basis {
                        coords.push([2 * cx + b[0], 2 * cy + b[1], 2 * cz + b[2]]);
                    }
                }
            }
        }
        let mut lattice =
            Lattice { kind, size, shells, coords, neighbours: Vec::new(), shell_starts, shell_distances, offsets };
        let per_site = lattice.offsets.len();
        let mut neighbours = Vec::with_capacity(lattice.coords.len() * per_site);
        for c in &lattice.coords {
            for d in &lattice.offsets {
                let site =
                    lattice.site_at([c[0] + d[0], c[1] + d[1], c[2] + d[2]]).expect("offsets are lattice vectors");
                neighbours.push(site as u32);
            }
        }
        lattice.neighbours = neighbours;
        Ok(lattice)
    }

    /// The lattice kind.
    pub fn kind(&self) -> LatticeKind {
        self.kind
    }

    /// Conventional cells along each axis.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of neighbour shells listed.
    pub fn shells(&self) -> usize {
        self.shells
    }

    /// Number of sites.
    pub fn sites(&self) -> usize {
        self.coords.len()
    }

    /// Number of neighbours in `shell` (0-based).
    pub fn coordination(&self, shell: usize) -> usize {
        self.shell_starts[shell + 1] - self.shell_starts[shell]
    }

    /// Squared distance of `shell`, in (half lattice constant)².
    pub fn shell_distance_squared(&self, shell: usize) -> i32 {
        self.shell_distances[shell]
    }

    /// Neighbours of `site` in `shell`, in a fixed order.
    #[inline]
    pub fn neighbours(&self, site: usize, shell: usize) -> &[u32] {
        let base = site * self.offsets.len();
        &self.neighbours[base + self.shell_starts[shell]..base + self.shell_starts[shell + 1]]
    }

    /// Neighbours of `site` in all shells, shell after shell; [`Lattice::shell_starts`] splits the list.
    #[inline]
    pub fn all_neighbours(&self, site: usize) -> &[u32] {
        let per_site = self.offsets.len();
        &self.neighbours[site * per_site..(site + 1) * per_site]
    }

    /// Where each shell starts inside [`Lattice::all_neighbours`]; the last entry is the list's length.
    pub fn shell_starts(&self) -> &[usize] {
        &self.shell_starts
    }

    /// Integer coordinates of `site`, in half lattice constants, inside `[0, 2·size)`.
    pub fn coords(&self, site: usize) -> [i32; 3] {
        self.coords[site]
    }

    /// Cartesian position of `site` in the units of `lattice_constant`.
    pub fn position(&self, site: usize, lattice_constant: f64) -> [f64; 3] {
        let c = self.coords[site];
        [
            c[0] as f64 * lattice_constant / 2.0,
            c[1] as f64 * lattice_constant / 2.0,
            c[2] as f64 * lattice_constant / 2.0,
        ]
    }

    /// The site at integer coordinates `c` (half lattice constants, wrapped into the box), if one is there.
    pub fn site_at(&self, c: [i32; 3]) -> Option<usize> {
        let period = 2 * self.size as i32;
        let w = [c[0].rem_euclid(period), c[1].rem_euclid(period), c[2].rem_euclid(period)];
        let cell = [w[0] / 2, w[1] / 2, w[2] / 2];
        let b = self.kind.basis().iter().position(|b| *b == [w[0] % 2, w[1] % 2, w[2] % 2])?;
        let n = self.size;
        Some(((cell[0] as usize * n + cell[1] as usize) * n + cell[2] as usize) * self.kind.basis().len() + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordination_numbers_are_textbook() {
        let expected =
            [(LatticeKind::Sc, [6, 12, 8, 6]), (LatticeKind::Bcc, [8, 6, 12, 24]), (LatticeKind::Fcc, [12, 6, 24, 12])];
        for (kind, z) in expected {
            let l = Lattice::new(kind, 5, 4).unwrap();
            for (shell, &zs) in z.iter().enumerate() {
                assert_eq!(l.coordination(shell), zs, "{kind} shell {shell}");
            }
        }
    }

    #[test]
    fn neighbour_relation_is_symmetric_and_site_lookup_inverts_coords() {
        for kind in LatticeKind::ALL {
            let l = Lattice::new(kind, 3, 2).unwrap();
            for i in 0..l.sites() {
                assert_eq!(l.site_at(l.coords(i)), Some(i));
                for shell in 0..2 {
                    for &j in l.neighbours(i, shell) {
                        assert!(l.neighbours(j as usize, shell).contains(&(i as u32)));
                    }
                }
            }
        }
    }

    #[test]
    fn too_small_boxes_are_refused() {
        assert_eq!(
            Lattice::new(LatticeKind::Bcc, 2, 2),
            Err(LatticeError::TooSmall { kind: LatticeKind::Bcc, size: 2, shells: 2 })
        );
        assert!(Lattice::new(LatticeKind::Bcc, 2, 1).is_ok());
        assert!(Lattice::new(LatticeKind::Sc, 3, 0).is_err());
        assert!(Lattice::new(LatticeKind::Sc, 3, MAX_SHELLS + 1).is_err());
    }
}
