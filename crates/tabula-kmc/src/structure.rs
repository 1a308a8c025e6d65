//! An extended-XYZ structure placed on its lattice, and its energy with a potential: the outside check behind
//! `tabula kmc energy`.
//!
//! A structure written by ASE, OVITO or a KMC run (one frame, a cubic `Lattice="L 0 0 0 L 0 0 0 L"` cell) is placed
//! on the sc, bcc or fcc lattice with the fewest sites that holds every atom on a site; the sites left empty, or
//! holding `X` (ASE's dummy atom, the KMC runs' vacancy), are vacancies. Its energy is then computed exactly as the
//! KMC computes it ([`LatticeEam`]), so that a materials scientist can compare it with ASE's or LAMMPS's for the
//! same file and potential.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::analytic::ackland_fe_cu;
//! use tabula_kmc::structure::Structure;
//!
//! // Two bcc cells of Fe, 2 × 2 × 2 times: 15 atoms and a vacancy at the origin.
//! let a = 2.8665;
//! let mut lines = Vec::new();
//! for (x, y, z) in (0..4).flat_map(|x| (0..4).flat_map(move |y| (0..4).map(move |z| (x, y, z)))) {
//!     if x % 2 == y % 2 && y % 2 == z % 2 && (x, y, z) != (0, 0, 0) {
//!         lines.push(format!("Fe {} {} {}", x as f64 * a / 2.0, y as f64 * a / 2.0, z as f64 * a / 2.0));
//!     }
//! }
//! let l = 2.0 * a;
//! let text = format!("{}\nLattice=\"{l} 0 0 0 {l} 0 0 0 {l}\" pbc=\"T T T\"\n{}\n", lines.len(), lines.join("\n"));
//! let structure = Structure::parse(&text).unwrap();
//! assert_eq!(structure.atoms().len(), 15);
//! let placed = structure.place().unwrap();
//! assert_eq!((placed.kind.name(), placed.size, placed.vacancies()), ("bcc", 2, 1));
//! assert!((placed.lattice_constant - a).abs() < 1e-9);
//! // Two cells are too few for this potential's cutoff: periodic images would be counted twice.
//! assert!(placed.energy(&ackland_fe_cu()).is_err());
//! ```

use crate::eam::{EamError, LatticeEam};
use crate::energy::{nev_to_ev, Nev};
use crate::io::{XyzError, VACANCY_SYMBOL};
use crate::lattice::{shells_within, Lattice, LatticeError, LatticeKind};
use crate::potential::EamPotential;
use crate::Species;
use std::fmt;

/// An atom of a structure: its symbol and Cartesian position in Å.
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    /// Chemical symbol.
    pub symbol: String,
    /// Position in Å.
    pub position: [f64; 3],
}

/// The first frame of an extended XYZ file with a cubic cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Structure {
    cell: f64,
    atoms: Vec<Atom>,
    dummies: usize,
}

fn error(line: usize, problem: impl Into<String>) -> XyzError {
    XyzError { line, problem: problem.into() }
}

/// The value of `key=` on an extended XYZ comment line, quoted or not.
fn comment_value<'a>(comment: &'a str, key: &str) -> Option<&'a str> {
    let at = comment.find(&format!("{key}="))? + key.len() + 1;
    let rest = &comment[at..];
    match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next(),
        None => rest.split_whitespace().next(),
    }
}

impl Structure {
    /// Reads the first frame of an extended XYZ text: the atom count, a comment line with a cubic
    /// `Lattice="L 0 0 0 L 0 0 0 L"` and (if present) `Properties=` naming the `species` and `pos` columns, then one
    /// line per atom. `X` atoms are taken as vacancies and dropped.
    ///
    /// # Errors
    ///
    /// An [`XyzError`] with the line that does not fit.
    pub fn parse(text: &str) -> Result<Structure, XyzError> {
        let mut lines = text.lines();
        let count: usize =
            lines.next().and_then(|l| l.trim().parse().ok()).ok_or_else(|| error(1, "expected the number of atoms"))?;
        let comment = lines.next().ok_or_else(|| error(2, "expected the comment line"))?;
        let cell = comment_value(comment, "Lattice")
            .ok_or_else(|| error(2, "no Lattice=\"...\": the periodic cell is needed"))?;
        let values: Vec<f64> = cell.split_whitespace().map(|v| v.parse().unwrap_or(f64::NAN)).collect();
        let l = values.first().copied().unwrap_or(f64::NAN);
        let cubic = [l, 0.0, 0.0, 0.0, l, 0.0, 0.0, 0.0, l];
        if values.len() != 9
            || l.is_nan()
            || l <= 0.0
            || values.iter().zip(cubic).any(|(v, c)| (v - c).abs() > 1e-6 * l)
        {
            return Err(error(2, format!("Lattice=\"{cell}\" is not a cubic cell `L 0 0 0 L 0 0 0 L`")));
        }
        // Columns of the species and the position, from Properties=name:type:count:...
        let (mut species_column, mut position_column) = (Some(0), Some(1));
        if let Some(properties) = comment_value(comment, "Properties") {
            let fields: Vec<&str> = properties.split(':').collect();
            if fields.len() % 3 != 0 {
                return Err(error(2, format!("Properties={properties} is not name:type:count triples")));
            }
            (species_column, position_column) = (None, None);
            let mut column = 0;
            for triple in fields.chunks(3) {
                let width: usize =
                    triple[2].parse().map_err(|_| error(2, format!("bad column count `{}`", triple[2])))?;
                match (triple[0], width) {
                    ("species", 1) => species_column = Some(column),
                    ("pos", 3) => position_column = Some(column),
                    _ => {}
                }
                column += width;
            }
        }
        let (Some(species_column), Some(position_column)) = (species_column, position_column) else {
            return Err(error(2, "Properties= has no species:S:1 or no pos:R:3 column"));
        };
        let mut atoms = Vec::with_capacity(count);
        let mut dummies = 0;
        for i in 0..count {
            let line_no = i + 3;
            let line = lines.next().ok_or_else(|| error(line_no, "the file ends before every atom is listed"))?;
            let fields: Vec<&str> = line.split_whitespace().collect();
            let symbol = *fields.get(species_column).ok_or_else(|| error(line_no, "no species"))?;
            let mut position = [0.0; 3];
            for (k, p) in position.iter_mut().enumerate() {
                *p = fields
                    .get(position_column + k)
                    .and_then(|v| v.parse().ok())
                    .filter(|v: &f64| v.is_finite())
                    .ok_or_else(|| error(line_no, "expected three coordinates"))?;
            }
            if symbol == VACANCY_SYMBOL {
                dummies += 1;
            } else {
                atoms.push(Atom { symbol: symbol.to_string(), position });
            }
        }
        Ok(Structure { cell: l, atoms, dummies })
    }

    /// The cubic cell's edge in Å.
    pub fn cell(&self) -> f64 {
        self.cell
    }

    /// The atoms (vacancies dropped).
    pub fn atoms(&self) -> &[Atom] {
        &self.atoms
    }

    /// The site of every atom on `kind` with `size` cells along the cell edge, if each lies within 5 % of a half
    /// lattice constant of a distinct site.
    fn sites_on(&self, kind: LatticeKind, size: usize) -> Option<Vec<usize>> {
        let lattice = Lattice::new(kind, size, 1).ok()?;
        let half = self.cell / (2 * size) as f64;
        let mut taken = vec![false; lattice.sites()];
        let mut sites = Vec::with_capacity(self.atoms.len());
        for atom in &self.atoms {
            let mut c = [0i32; 3];
            for (k, x) in atom.position.iter().enumerate() {
                let h = x / half;
                if (h - h.round()).abs() > 0.05 {
                    return None;
                }
                c[k] = h.round() as i32;
            }
            let site = lattice.site_at(c)?;
            if std::mem::replace(&mut taken[site], true) {
                return None;
            }
            sites.push(site);
        }
        Some(sites)
    }

    /// The structure on the sc, bcc or fcc lattice with the fewest sites that holds every atom on a distinct site.
    ///
    /// # Errors
    ///
    /// An [`XyzError`] (line 3) if no such lattice of up to 64 cells along the edge exists.
    pub fn place(&self) -> Result<Placed, XyzError> {
        let mut best: Option<(usize, LatticeKind, usize, Vec<usize>)> = None;
        for kind in LatticeKind::ALL {
            for size in 1..=64 {
                let sites = size * size * size * kind.basis().len();
                if sites < self.atoms.len() || best.as_ref().is_some_and(|b| b.0 <= sites) {
                    continue;
                }
                if let Some(placed) = self.sites_on(kind, size) {
                    best = Some((sites, kind, size, placed));
                }
            }
        }
        let (_, kind, size, sites) = best.ok_or_else(|| {
            error(3, "the atoms do not sit on the sites of an sc, bcc or fcc lattice filling the cubic cell")
        })?;
        let mut symbols: Vec<String> = Vec::new();
        for atom in &self.atoms {
            if !symbols.contains(&atom.symbol) {
                symbols.push(atom.symbol.clone());
            }
        }
        let vacancy = symbols.len() as Species;
        let mut occupation = vec![vacancy; size * size * size * kind.basis().len()];
        for (atom, &site) in self.atoms.iter().zip(&sites) {
            occupation[site] = symbols.iter().position(|s| *s == atom.symbol).expect("listed") as Species;
        }
        Ok(Placed { kind, size, lattice_constant: self.cell / size as f64, symbols, occupation, dummies: self.dummies })
    }
}

/// A structure on its lattice.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// The lattice kind.
    pub kind: LatticeKind,
    /// Conventional cells along the edge.
    pub size: usize,
    /// The lattice constant in Å.
    pub lattice_constant: f64,
    /// Symbols in order of first appearance: species `k` is `symbols[k]`, the vacancy `symbols.len()`.
    pub symbols: Vec<String>,
    /// Species per site.
    pub occupation: Vec<Species>,
    /// `X` atoms read (vacancies marked in the file).
    pub dummies: usize,
}

/// Why a placed structure's energy cannot be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EnergyError {
    /// The cell is too small for the cutoff.
    #[error("{0}; a larger cell is needed for this potential's cutoff")]
    Lattice(#[from] LatticeError),
    /// The potential does not fit.
    #[error(transparent)]
    Potential(#[from] EamError),
}

/// The energy of a structure with a potential, and what it was computed on.
#[derive(Clone, Debug, PartialEq)]
pub struct StructureEnergy {
    /// The placed structure.
    pub placed: Placed,
    /// Neighbour shells within the cutoff.
    pub shells: usize,
    /// The potential's cutoff in Å.
    pub cutoff: f64,
    /// The energy in neV.
    pub energy: Nev,
}

impl Placed {
    /// Number of empty sites.
    pub fn vacancies(&self) -> usize {
        self.occupation.iter().filter(|&&s| s as usize == self.symbols.len()).count()
    }

    /// The energy with `potential`, computed as the KMC computes it.
    ///
    /// # Errors
    ///
    /// [`EnergyError`] if a symbol is not in the potential, or the cell is so small that periodic images of a
    /// neighbour would fall within the cutoff.
    pub fn energy(&self, potential: &EamPotential) -> Result<StructureEnergy, EnergyError> {
        let shells = shells_within(self.kind, self.lattice_constant, potential.cutoff()).max(1);
        let lattice = Lattice::new(self.kind, self.size, shells)?;
        let names: Vec<&str> = self.symbols.iter().map(String::as_str).collect();
        let eam = LatticeEam::new(potential, &names, &lattice, self.lattice_constant)?;
        let energy = eam.total_energy(&lattice, &self.occupation);
        Ok(StructureEnergy { placed: self.clone(), shells, cutoff: potential.cutoff(), energy })
    }
}

impl fmt::Display for StructureEnergy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.placed;
        let counts: Vec<String> = p
            .symbols
            .iter()
            .enumerate()
            .map(|(k, s)| format!("{} {s}", p.occupation.iter().filter(|&&o| o as usize == k).count()))
            .collect();
        let atoms = p.occupation.len() - p.vacancies();
        writeln!(
            f,
            "structure  {} {n}x{n}x{n}, a = {} Å: {atoms} atoms ({}), {} vacanc{}",
            p.kind,
            p.lattice_constant,
            counts.join(", "),
            p.vacancies(),
            if p.vacancies() == 1 { "y" } else { "ies" },
            n = p.size
        )?;
        writeln!(f, "neighbours {} shell(s) within the {:.4} Å cutoff", self.shells, self.cutoff)?;
        write!(
            f,
            "energy     {:.9} eV ({:.9} eV/atom)",
            nev_to_ev(self.energy),
            nev_to_ev(self.energy) / atoms.max(1) as f64
        )
    }
}
