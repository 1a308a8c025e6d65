//! Embedded-atom (EAM) and Finnis–Sinclair potentials read from the standard DYNAMO / LAMMPS files.
//!
//! `E = Σ_i F_i(ρ_i) + ½ Σ_{i≠j} φ_ij(r_ij)` with `ρ_i = Σ_{j≠i} ρ_{σ_j→σ_i}(r_ij)` summed over the neighbours closer
//! than the cutoff. Three file formats are read, as LAMMPS's `pair_style eam`, `eam/alloy` and `eam/fs` read them:
//!
//! - **funcfl** ([`Style::Funcfl`], `*.eam`): one element; a comment line, `Z mass a lattice`,
//!   `Nrho drho Nr dr cutoff`, then `F(ρ)`, the effective charge `Z(r)` and `ρ(r)`. The pair potential is
//!   `φ(r) = 27.2 · 0.529 · Z(r)² / r` (eV, with LAMMPS's Hartree and Bohr constants).
//! - **setfl** ([`Style::Alloy`], `*.eam.alloy`): three comment lines, `N symbols...`, `Nrho drho Nr dr cutoff`; per
//!   element `Z mass a lattice`, `F(ρ)` and one `ρ(r)`; then `r·φ(r)` for each pair `i ≥ j` in the order
//!   (1,1), (2,1), (2,2), (3,1), ...
//! - **Finnis–Sinclair setfl** ([`Style::Fs`], `*.eam.fs`): as setfl, but each element lists `N` density functions:
//!   in element `α`'s block the `β`-th is the density an `α` atom gives to a `β` atom.
//!
//! Tables start at 0 (`F` at `ρ = k · drho`, the others at `r = k · dr`) and are interpolated as LAMMPS
//! does (`PairEAM::interpolate`): a cubic on each interval through the two end values, with end slopes
//! estimated by fourth-order central differences; an embedding density past the table continues linearly with the
//! last slope. The same arithmetic in the same order gives the same values as LAMMPS's for the same arguments.
//!
//! A malformed file gets a [`PotentialError`] naming the line and the field.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::potential::{EamPotential, Style};
//!
//! // A one-element setfl: F(ρ) = −√ρ, ρ(r) = (3 − r)², r·φ(r) = r (3 − r)³ on 0 ≤ r < 3 Å.
//! let grid: Vec<f64> = (0..301).map(|k| k as f64 * 0.01).collect();
//! let line = |f: &dyn Fn(f64) -> f64| grid.iter().map(|&x| format!("{:e}", f(x))).collect::<Vec<_>>().join(" ");
//! let text = format!(
//!     "test\n\n\n1 X\n301 0.1 301 0.01 3.0\n1 1.0 2.0 sc\n{}\n{}\n{}\n",
//!     line(&|x| -(10.0 * x).sqrt()),
//!     line(&|r| (3.0 - r).powi(2)),
//!     line(&|r| r * (3.0 - r).powi(3)),
//! );
//! let potential = EamPotential::parse(&text, Style::Alloy).unwrap();
//! assert!((potential.pair(0, 0, 2.0) - 1.0).abs() < 1e-9);
//! assert!((potential.density(0, 0, 1.5) - 2.25).abs() < 1e-9);
//! assert!((potential.embedding(0, 16.0) + 4.0).abs() < 1e-3);
//!
//! let broken = text.replacen("301 0.1 301 0.01 3.0", "301 0.1 301 zero 3.0", 1);
//! let err = EamPotential::parse(&broken, Style::Alloy).unwrap_err();
//! assert_eq!((err.line, err.field.as_str()), (5, "dr"));
//! ```

use std::fmt::{self, Write as _};
use std::path::Path;
use std::str::FromStr;

/// LAMMPS's conversion of funcfl effective charges to eV·Å: `27.2 · 0.529` (Hartree × Bohr, rounded as LAMMPS has
/// them). ASE uses the CODATA values, 0.08 % more.
pub const FUNCFL_CHARGE_UNIT: f64 = 27.2 * 0.529;

/// The three file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// DYNAMO funcfl, one element (`pair_style eam`).
    Funcfl,
    /// DYNAMO setfl (`pair_style eam/alloy`).
    Alloy,
    /// Finnis–Sinclair setfl (`pair_style eam/fs`).
    Fs,
}

impl Style {
    /// Every style.
    pub const ALL: [Style; 3] = [Style::Funcfl, Style::Alloy, Style::Fs];

    /// The LAMMPS pair style: `eam`, `eam/alloy` or `eam/fs`.
    pub const fn name(self) -> &'static str {
        match self {
            Style::Funcfl => "eam",
            Style::Alloy => "eam/alloy",
            Style::Fs => "eam/fs",
        }
    }

    /// The style a file name implies, as ASE guesses it: `*.eam.alloy` (or `*.alloy`, `*.setfl`), `*.eam.fs` (or
    /// `*.fs`), `*.eam` (funcfl).
    pub fn from_path(path: &Path) -> Option<Style> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        if name.ends_with(".alloy") || name.ends_with(".setfl") {
            Some(Style::Alloy)
        } else if name.ends_with(".fs") {
            Some(Style::Fs)
        } else if name.ends_with(".eam") {
            Some(Style::Funcfl)
        } else {
            None
        }
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Style {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "eam" | "funcfl" => Ok(Style::Funcfl),
            "eam/alloy" | "alloy" | "setfl" => Ok(Style::Alloy),
            "eam/fs" | "fs" => Ok(Style::Fs),
            _ => Err(format!("`{s}` is not an EAM style: expected eam, eam/alloy or eam/fs")),
        }
    }
}

/// A malformed potential file: the line, the field expected there, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, {field}: {problem}")]
pub struct PotentialError {
    /// 1-based line number (one past the last line when the file ends early).
    pub line: usize,
    /// The field, e.g. `dr`, `F(rho) of Fe, value 17`, `r*phi(r) of Cu-Fe, value 3`.
    pub field: String,
    /// What is wrong, and what was expected.
    pub problem: String,
}

/// A potential file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The name does not say which style the file is.
    #[error("{path}: cannot tell the style from the name; name it *.eam.alloy, *.eam.fs or *.eam, or give the style")]
    UnknownStyle {
        /// The file.
        path: String,
    },
    /// The file is malformed.
    #[error("{path} ({style}): {error}")]
    Malformed {
        /// The file.
        path: String,
        /// The style it was read as.
        style: Style,
        /// Where and what.
        error: PotentialError,
    },
}

/// An element of a potential file.
#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    /// Chemical symbol (from the file; for funcfl, from the atomic number).
    pub symbol: String,
    /// Atomic number.
    pub number: u32,
    /// Mass in g/mol.
    pub mass: f64,
    /// Lattice constant in Å, as the file gives it (informative).
    pub lattice_constant: f64,
    /// Lattice name, as the file gives it (informative).
    pub lattice: String,
}

/// A function tabulated from 0 on a uniform grid, interpolated as LAMMPS interpolates it.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    step: f64,
    inverse_step: f64,
    values: Vec<f64>,
    /// Per interval `m`, the cubic `((c0 p + c1) p + c2) p + c3` in the fraction `p` of the interval.
    cubic: Vec<[f64; 4]>,
}

impl Table {
    /// The least number of values LAMMPS's interpolation works with.
    pub const MIN_VALUES: usize = 5;

    /// A table of `values` at `0, step, 2·step, ...`.
    ///
    /// # Panics
    ///
    /// If there are fewer than [`Table::MIN_VALUES`] values or `step` is not positive.
    pub fn new(step: f64, values: Vec<f64>) -> Table {
        assert!(values.len() >= Self::MIN_VALUES, "at least {} values", Self::MIN_VALUES);
        assert!(step > 0.0, "a positive step");
        let n = values.len();
        let f = &values;
        // End slopes by one-sided and central differences, inner ones by the fourth-order central difference.
        let mut slope = vec![0.0; n];
        slope[0] = f[1] - f[0];
        slope[1] = 0.5 * (f[2] - f[0]);
        slope[n - 2] = 0.5 * (f[n - 1] - f[n - 3]);
        slope[n - 1] = f[n - 1] - f[n - 2];
        for m in 2..n - 2 {
            slope[m] = ((f[m - 2] - f[m + 2]) + 8.0 * (f[m + 1] - f[m - 1])) / 12.0;
        }
        let mut cubic = Vec::with_capacity(n);
        for m in 0..n - 1 {
            let quadratic = 3.0 * (f[m + 1] - f[m]) - 2.0 * slope[m] - slope[m + 1];
            let cubed = slope[m] + slope[m + 1] - 2.0 * (f[m + 1] - f[m]);
            cubic.push([cubed, quadratic, slope[m], f[m]]);
        }
        cubic.push([0.0, 0.0, slope[n - 1], f[n - 1]]);
        Table { step, inverse_step: 1.0 / step, values, cubic }
    }

    /// The grid step.
    pub fn step(&self) -> f64 {
        self.step
    }

    /// The tabulated values.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The end of the grid, `(n − 1) · step`.
    pub fn end(&self) -> f64 {
        (self.values.len() - 1) as f64 * self.step
    }

    /// The interval and the fraction of it, clamped to the table as LAMMPS clamps them.
    #[inline]
    fn locate(&self, x: f64) -> (usize, f64) {
        let p = x * self.inverse_step + 1.0;
        let m = (p as i64).clamp(1, self.values.len() as i64 - 1);
        ((m - 1) as usize, (p - m as f64).min(1.0))
    }

    /// The interpolated value at `x` (the last value past the end).
    #[inline]
    pub fn value(&self, x: f64) -> f64 {
        let (m, p) = self.locate(x);
        let c = &self.cubic[m];
        ((c[0] * p + c[1]) * p + c[2]) * p + c[3]
    }

    /// The interpolated derivative at `x`.
    pub fn derivative(&self, x: f64) -> f64 {
        let (m, p) = self.locate(x);
        let c = &self.cubic[m];
        let d = self.step;
        (3.0 * c[0] / d * p + 2.0 * c[1] / d) * p + c[2] / d
    }

    /// The value at `x`, continued linearly with the last slope past the end (LAMMPS's embedding energy).
    #[inline]
    pub fn value_extended(&self, x: f64) -> f64 {
        let value = self.value(x);
        let end = self.end();
        if x > end {
            value + self.derivative(x) * (x - end)
        } else {
            value
        }
    }
}

/// An EAM or Finnis–Sinclair potential: per element an embedding function and densities, per pair `r·φ(r)`.
#[derive(Clone, Debug, PartialEq)]
pub struct EamPotential {
    style: Style,
    comments: Vec<String>,
    elements: Vec<Element>,
    cutoff: f64,
    embedding: Vec<Table>,
    /// [`Style::Fs`]: `n × n`, the density an element-`from` atom gives an element-`at` atom at
    /// `from · n + at`. Otherwise one per element, whatever the receiving atom.
    density: Vec<Table>,
    /// `r·φ(r)` for pairs `i ≥ j` at `i (i + 1) / 2 + j`.
    pair_r: Vec<Table>,
}

/// The index of pair `(a, b)` in the lower triangle.
#[inline]
fn triangle(a: usize, b: usize) -> usize {
    let (i, j) = if a >= b { (a, b) } else { (b, a) };
    i * (i + 1) / 2 + j
}

/// Chemical symbols by atomic number (index 0 unused), for funcfl files, which give only the number.
const SYMBOLS: [&str; 119] = [
    "X", "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar", "K", "Ca",
    "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y",
    "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce",
    "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir",
    "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu", "Am", "Cm",
    "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db", "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc",
    "Lv", "Ts", "Og",
];

/// Tokens of a text with their line numbers: whole lines for headers, a stream of numbers for tables.
struct Reader<'a> {
    lines: Vec<&'a str>,
    /// The next line to start reading.
    next_line: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader { lines: text.lines().collect(), next_line: 0 }
    }

    fn error(line: usize, field: impl Into<String>, problem: impl Into<String>) -> PotentialError {
        PotentialError { line, field: field.into(), problem: problem.into() }
    }

    /// The next line (1-based number and text), or an error naming `field` if the file has ended.
    fn line(&mut self, field: &str) -> Result<(usize, &'a str), PotentialError> {
        let line = *self
            .lines
            .get(self.next_line)
            .ok_or_else(|| Self::error(self.next_line + 1, field, "the file ends here"))?;
        self.next_line += 1;
        Ok((self.next_line, line))
    }

    /// `count` numbers from the following lines, whatever their layout; the last line read must hold no more.
    fn numbers(&mut self, count: usize, field: impl Fn(usize) -> String) -> Result<Vec<f64>, PotentialError> {
        let mut values = Vec::with_capacity(count);
        while values.len() < count {
            let (number, line) = self.line(&field(values.len() + 1))?;
            for token in line.split_whitespace() {
                let k = values.len() + 1;
                if k > count {
                    return Err(Self::error(
                        number,
                        field(count),
                        format!("`{token}` is more than the {count} values"),
                    ));
                }
                values.push(
                    parse_number(token)
                        .ok_or_else(|| Self::error(number, field(k), format!("expected a number, got `{token}`")))?,
                );
            }
        }
        Ok(values)
    }
}

/// A number as Fortran or C may write it (`1.5e-3`, `1.5D-3`), finite.
fn parse_number(token: &str) -> Option<f64> {
    let value: f64 = token.parse().or_else(|_| token.replace(['D', 'd'], "e").parse()).ok()?;
    value.is_finite().then_some(value)
}

/// The `index`-th whitespace field of a header line.
fn field<'a>(line: (usize, &'a str), index: usize, name: &str, expected: &str) -> Result<&'a str, PotentialError> {
    line.1
        .split_whitespace()
        .nth(index)
        .ok_or_else(|| Reader::error(line.0, name, format!("missing: expected {expected}")))
}

fn positive_integer(line: (usize, &str), index: usize, name: &str) -> Result<usize, PotentialError> {
    let token = field(line, index, name, "a positive integer")?;
    token
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| Reader::error(line.0, name, format!("expected a positive integer, got `{token}`")))
}

fn positive_number(line: (usize, &str), index: usize, name: &str) -> Result<f64, PotentialError> {
    let token = field(line, index, name, "a positive number")?;
    parse_number(token)
        .filter(|&x| x > 0.0)
        .ok_or_else(|| Reader::error(line.0, name, format!("expected a positive number, got `{token}`")))
}

/// The grid line `Nrho drho Nr dr cutoff`.
struct Grid {
    nrho: usize,
    drho: f64,
    nr: usize,
    dr: f64,
    cutoff: f64,
}

fn grid(line: (usize, &str)) -> Result<Grid, PotentialError> {
    let g = Grid {
        nrho: positive_integer(line, 0, "Nrho")?,
        drho: positive_number(line, 1, "drho")?,
        nr: positive_integer(line, 2, "Nr")?,
        dr: positive_number(line, 3, "dr")?,
        cutoff: positive_number(line, 4, "cutoff")?,
    };
    for (name, n) in [("Nrho", g.nrho), ("Nr", g.nr)] {
        if n < Table::MIN_VALUES {
            return Err(Reader::error(line.0, name, format!("{n} points are too few: at least {}", Table::MIN_VALUES)));
        }
    }
    Ok(g)
}

/// The element line `Z mass [a lattice]`.
fn element(line: (usize, &str), symbol: &str) -> Result<Element, PotentialError> {
    let z_field = format!("atomic number of {symbol}");
    let token = field(line, 0, &z_field, "an atomic number")?;
    let number = token
        .parse::<u32>()
        .ok()
        .ok_or_else(|| Reader::error(line.0, &z_field, format!("expected an atomic number, got `{token}`")))?;
    let mass_field = format!("mass of {symbol}");
    let mass_token = field(line, 1, &mass_field, "the mass")?;
    let mass = parse_number(mass_token)
        .ok_or_else(|| Reader::error(line.0, &mass_field, format!("expected a number, got `{mass_token}`")))?;
    let mut rest = line.1.split_whitespace().skip(2);
    let lattice_constant = rest.next().and_then(parse_number).unwrap_or(0.0);
    let lattice = rest.next().unwrap_or("").to_string();
    Ok(Element { symbol: symbol.to_string(), number, mass, lattice_constant, lattice })
}

impl EamPotential {
    /// Reads the text of a potential file in `style`.
    ///
    /// # Errors
    ///
    /// A [`PotentialError`] with the line and field that are wrong: a missing or malformed number, a file that
    /// ends early or holds more values than its header announces (the sign of a wrong style).
    pub fn parse(text: &str, style: Style) -> Result<EamPotential, PotentialError> {
        let mut reader = Reader::new(text);
        let mut comments = Vec::new();
        let potential = match style {
            Style::Funcfl => {
                comments.push(reader.line("comment line")?.1.to_string());
                let header = reader.line("Z mass a lattice")?;
                let number: u32 = {
                    let token = field(header, 0, "atomic number", "an atomic number")?;
                    token.parse().ok().filter(|&z: &u32| (1..SYMBOLS.len() as u32).contains(&z)).ok_or_else(|| {
                        Reader::error(header.0, "atomic number", format!("expected 1 to 118, got `{token}`"))
                    })?
                };
                let symbol = SYMBOLS[number as usize];
                let element = element(header, symbol)?;
                let g = grid(reader.line("Nrho drho Nr dr cutoff")?)?;
                let f = reader.numbers(g.nrho, |k| format!("F(rho) of {symbol}, value {k}"))?;
                let z = reader.numbers(g.nr, |k| format!("Z(r) of {symbol}, value {k}"))?;
                let rho = reader.numbers(g.nr, |k| format!("rho(r) of {symbol}, value {k}"))?;
                let r_phi = z.iter().map(|z| FUNCFL_CHARGE_UNIT * z * z).collect();
                EamPotential {
                    style,
                    comments,
                    elements: vec![element],
                    cutoff: g.cutoff,
                    embedding: vec![Table::new(g.drho, f)],
                    density: vec![Table::new(g.dr, rho)],
                    pair_r: vec![Table::new(g.dr, r_phi)],
                }
            }
            Style::Alloy | Style::Fs => {
                for _ in 0..3 {
                    comments.push(reader.line("comment line")?.1.to_string());
                }
                let names = reader.line("number of elements and their symbols")?;
                let n = positive_integer(names, 0, "number of elements")?;
                let symbols: Vec<String> = names.1.split_whitespace().skip(1).map(str::to_string).collect();
                if symbols.len() != n {
                    return Err(Reader::error(
                        names.0,
                        "element symbols",
                        format!("{n} elements announced, {} symbols given", symbols.len()),
                    ));
                }
                let g = grid(reader.line("Nrho drho Nr dr cutoff")?)?;
                let mut elements = Vec::with_capacity(n);
                let mut embedding = Vec::with_capacity(n);
                let mut density = Vec::new();
                for symbol in &symbols {
                    elements.push(element(reader.line(&format!("Z mass a lattice of {symbol}"))?, symbol)?);
                    let f = reader.numbers(g.nrho, |k| format!("F(rho) of {symbol}, value {k}"))?;
                    embedding.push(Table::new(g.drho, f));
                    if style == Style::Fs {
                        for at in &symbols {
                            let rho = reader.numbers(g.nr, |k| format!("rho(r) of {symbol} at {at}, value {k}"))?;
                            density.push(Table::new(g.dr, rho));
                        }
                    } else {
                        let rho = reader.numbers(g.nr, |k| format!("rho(r) of {symbol}, value {k}"))?;
                        density.push(Table::new(g.dr, rho));
                    }
                }
                let mut pair_r = Vec::with_capacity(n * (n + 1) / 2);
                for i in 0..n {
                    for j in 0..=i {
                        let (a, b) = (&symbols[i], &symbols[j]);
                        let values = reader.numbers(g.nr, |k| format!("r*phi(r) of {a}-{b}, value {k}"))?;
                        pair_r.push(Table::new(g.dr, values));
                    }
                }
                EamPotential { style, comments, elements, cutoff: g.cutoff, embedding, density, pair_r }
            }
        };
        // Anything left but blank lines means the header announced less than the file holds.
        while let Some(line) = reader.lines.get(reader.next_line) {
            if !line.trim().is_empty() {
                return Err(Reader::error(
                    reader.next_line + 1,
                    "end of file",
                    format!("unexpected `{}` after the last table: is the file really {style}?", line.trim()),
                ));
            }
            reader.next_line += 1;
        }
        Ok(potential)
    }

    /// Reads a potential file, in `style` or the style its name implies ([`Style::from_path`]).
    ///
    /// # Errors
    ///
    /// [`ReadError`] if the file cannot be read, its style is unknown, or it is malformed.
    pub fn read(path: &Path, style: Option<Style>) -> Result<EamPotential, ReadError> {
        let shown = path.display().to_string();
        let style = style.or_else(|| Style::from_path(path)).ok_or(ReadError::UnknownStyle { path: shown.clone() })?;
        let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io { path: shown.clone(), source })?;
        EamPotential::parse(&text, style).map_err(|error| ReadError::Malformed { path: shown, style, error })
    }

    /// A potential from functions tabulated on `nrho` densities `0, drho, ...` and `nr` distances `0, dr, ...`.
    ///
    /// `embedding(e, ρ)` is element `e`'s embedding energy, `density(from, at, r)` the density an element-`from`
    /// atom gives an element-`at` atom (for [`Style::Alloy`] only `at == from` is asked), `pair(a, b, r)` the pair
    /// energy (tabulated as `r·φ`). Each must be finite on the whole grid, 0 included.
    ///
    /// # Panics
    ///
    /// If `style` is [`Style::Funcfl`] with more than one element, or a grid has fewer than
    /// [`Table::MIN_VALUES`] points or a step that is not positive.
    #[allow(clippy::too_many_arguments)]
    pub fn tabulate(
        style: Style,
        comments: [&str; 3],
        elements: Vec<Element>,
        (nrho, drho): (usize, f64),
        (nr, dr): (usize, f64),
        cutoff: f64,
        embedding: impl Fn(usize, f64) -> f64,
        density: impl Fn(usize, usize, f64) -> f64,
        pair: impl Fn(usize, usize, f64) -> f64,
    ) -> EamPotential {
        assert!(style != Style::Funcfl || elements.len() == 1, "a funcfl file holds one element");
        let n = elements.len();
        let rhos = |f: &dyn Fn(f64) -> f64| Table::new(drho, (0..nrho).map(|k| f(k as f64 * drho)).collect());
        let rs = |f: &dyn Fn(f64) -> f64| Table::new(dr, (0..nr).map(|k| f(k as f64 * dr)).collect());
        let embedding = (0..n).map(|e| rhos(&|rho| embedding(e, rho))).collect();
        let density = match style {
            Style::Fs => (0..n * n).map(|k| rs(&|r| density(k / n, k % n, r))).collect(),
            _ => (0..n).map(|e| rs(&|r| density(e, e, r))).collect(),
        };
        let mut pair_r = Vec::new();
        for i in 0..n {
            for j in 0..=i {
                pair_r.push(rs(&|r| r * pair(i, j, r)));
            }
        }
        let comments = comments.iter().map(|c| c.to_string()).collect();
        EamPotential { style, comments, elements, cutoff, embedding, density, pair_r }
    }

    /// The file format it was read from or is written in.
    pub fn style(&self) -> Style {
        self.style
    }

    /// The comment lines of the file.
    pub fn comments(&self) -> &[String] {
        &self.comments
    }

    /// The elements, in file order.
    pub fn elements(&self) -> &[Element] {
        &self.elements
    }

    /// The index of the element with `symbol`.
    pub fn element_index(&self, symbol: &str) -> Option<usize> {
        self.elements.iter().position(|e| e.symbol == symbol)
    }

    /// The cutoff in Å: neighbours at `r < cutoff` count.
    pub fn cutoff(&self) -> f64 {
        self.cutoff
    }

    /// The embedding energy of an atom of element `e` in density `rho`, in eV.
    #[inline]
    pub fn embedding(&self, e: usize, rho: f64) -> f64 {
        self.embedding[e].value_extended(rho)
    }

    /// Element `e`'s embedding function as a table of densities.
    pub fn embedding_table(&self, e: usize) -> &Table {
        &self.embedding[e]
    }

    /// The density an atom of element `from` gives an atom of element `at` at distance `r`.
    #[inline]
    pub fn density(&self, from: usize, at: usize, r: f64) -> f64 {
        match self.style {
            Style::Fs => self.density[from * self.elements.len() + at].value(r),
            _ => self.density[from].value(r),
        }
    }

    /// The pair energy of elements `a` and `b` at distance `r > 0`, in eV.
    #[inline]
    pub fn pair(&self, a: usize, b: usize, r: f64) -> f64 {
        self.pair_r[triangle(a, b)].value(r) / r
    }

    /// The file's text in its style: DYNAMO setfl for [`Style::Alloy`] and [`Style::Fs`], funcfl for
    /// [`Style::Funcfl`]; five values a line, 16 significant digits, so that reading it back gives the same tables.
    pub fn to_file_text(&self) -> String {
        let mut out = String::new();
        let table = |out: &mut String, t: &Table| {
            for chunk in t.values.chunks(5) {
                let line: Vec<String> = chunk.iter().map(|v| format!("{v:.16e}")).collect();
                let _ = writeln!(out, "{}", line.join(" "));
            }
        };
        let (rho_grid, r_grid) = (&self.embedding[0], &self.pair_r[0]);
        let grid = format!(
            "{} {:.16e} {} {:.16e} {:.16e}",
            rho_grid.values.len(),
            rho_grid.step,
            r_grid.values.len(),
            r_grid.step,
            self.cutoff
        );
        let element_line = |e: &Element| {
            format!("{} {} {} {}", e.number, e.mass, e.lattice_constant, e.lattice).trim_end().to_string()
        };
        match self.style {
            Style::Funcfl => {
                let _ = writeln!(out, "{}", self.comments.first().map_or("", String::as_str));
                let _ = writeln!(out, "{}\n{grid}", element_line(&self.elements[0]));
                table(&mut out, &self.embedding[0]);
                let charges: Vec<f64> =
                    self.pair_r[0].values.iter().map(|rp| (rp / FUNCFL_CHARGE_UNIT).max(0.0).sqrt()).collect();
                table(&mut out, &Table::new(r_grid.step, charges));
                table(&mut out, &self.density[0]);
            }
            Style::Alloy | Style::Fs => {
                for k in 0..3 {
                    let _ = writeln!(out, "{}", self.comments.get(k).map_or("", String::as_str));
                }
                let symbols: Vec<&str> = self.elements.iter().map(|e| e.symbol.as_str()).collect();
                let _ = writeln!(out, "{} {}\n{grid}", symbols.len(), symbols.join(" "));
                let n = self.elements.len();
                for (i, e) in self.elements.iter().enumerate() {
                    let _ = writeln!(out, "{}", element_line(e));
                    table(&mut out, &self.embedding[i]);
                    match self.style {
                        Style::Fs => (0..n).for_each(|at| table(&mut out, &self.density[i * n + at])),
                        _ => table(&mut out, &self.density[i]),
                    }
                }
                for t in &self.pair_r {
                    table(&mut out, t);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(style: Style) -> EamPotential {
        let elements = ["Fe", "Cu"]
            .iter()
            .enumerate()
            .map(|(k, s)| Element {
                symbol: s.to_string(),
                number: 26 + 3 * k as u32,
                mass: 55.845 + 7.7 * k as f64,
                lattice_constant: 2.8665,
                lattice: "bcc".into(),
            })
            .take(if style == Style::Funcfl { 1 } else { 2 })
            .collect();
        EamPotential::tabulate(
            style,
            ["a", "b", "c"],
            elements,
            (200, 0.25),
            (120, 0.05),
            5.5,
            |e, rho| -((1.0 + e as f64) * rho).sqrt(),
            |from, at, r| (1.0 + from as f64 + 0.5 * at as f64) * (-r).exp(),
            |a, b, r| (3.0 + (a + b) as f64) * (-2.0 * r).exp(),
        )
    }

    #[test]
    fn cubics_are_reproduced_exactly_inside_the_table() {
        // The fourth-order differences are exact for cubics, so the interpolant is the cubic itself away from the ends.
        let f = |x: f64| 2.0 - 0.5 * x + 0.25 * x * x - 0.125 * x * x * x;
        let table = Table::new(0.1, (0..50).map(|k| f(k as f64 * 0.1)).collect());
        for k in 20..300 {
            let x = 0.2 + k as f64 * 0.0137;
            assert!((table.value(x) - f(x)).abs() < 1e-12, "x = {x}");
            let df = -0.5 + 0.5 * x - 0.375 * x * x;
            assert!((table.derivative(x) - df).abs() < 1e-10, "x = {x}");
        }
        // Past the end: the last value, and linear continuation for embedding energies.
        assert_eq!(table.value(100.0), f(4.9));
        let end = table.end();
        assert!((table.value_extended(end + 1.0) - (f(end) + table.derivative(end))).abs() < 1e-9);
    }

    #[test]
    fn written_files_read_back_the_same() {
        for style in Style::ALL {
            let potential = sample(style);
            let back = EamPotential::parse(&potential.to_file_text(), style).unwrap();
            assert_eq!(back.elements(), potential.elements(), "{style}");
            for r in [1.0, 2.345, 4.9] {
                for (a, b) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    if a >= back.elements().len() || b >= back.elements().len() {
                        continue;
                    }
                    let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(1.0);
                    assert!(close(back.pair(a, b, r), potential.pair(a, b, r)), "{style} pair");
                    assert!(close(back.density(a, b, r), potential.density(a, b, r)), "{style} density");
                }
                assert!((back.embedding(0, 10.0 * r) - potential.embedding(0, 10.0 * r)).abs() < 1e-12);
            }
        }
        // The styles differ where they should: eam/fs densities depend on the receiving element.
        let fs = sample(Style::Fs);
        assert!(fs.density(0, 1, 2.0) != fs.density(0, 0, 2.0));
        let alloy = sample(Style::Alloy);
        assert_eq!(alloy.density(0, 1, 2.0), alloy.density(0, 0, 2.0));
    }

    #[test]
    fn malformed_files_name_line_and_field() {
        let text = sample(Style::Alloy).to_file_text();
        let lines: Vec<&str> = text.lines().collect();
        let with_line = |k: usize, replacement: &str| {
            let mut l = lines.clone();
            l[k] = replacement;
            l.join("\n")
        };
        let cases: Vec<(String, usize, &str)> = vec![
            (with_line(3, "3 Fe Cu"), 4, "element symbols"),
            (with_line(3, "two Fe Cu"), 4, "number of elements"),
            (with_line(4, "200 0.25 120 0.05"), 5, "cutoff"),
            (with_line(4, "3 0.25 120 0.05 5.5"), 5, "Nrho"),
            (with_line(4, "200 -0.25 120 0.05 5.5"), 5, "drho"),
            (with_line(5, "x 55.845 2.8665 bcc"), 6, "atomic number of Fe"),
            (with_line(5, "26"), 6, "mass of Fe"),
            (with_line(7, "1.0 2.0 nan? 4.0 5.0"), 8, "F(rho) of Fe, value 8"),
            (lines[..lines.len() - 3].join("\n"), lines.len() - 2, "r*phi(r) of Cu-Cu, value 106"),
        ];
        for (text, line, field) in cases {
            let err = EamPotential::parse(&text, Style::Alloy).unwrap_err();
            assert_eq!((err.line, err.field.as_str()), (line, field), "{err}");
        }
        // An eam/fs file read as eam/alloy has values left over; the reverse runs out of them.
        let fs = sample(Style::Fs).to_file_text();
        let err = EamPotential::parse(&fs, Style::Alloy).unwrap_err();
        assert_eq!(err.field, "atomic number of Cu", "{err}");
        assert!(EamPotential::parse(&text, Style::Fs).is_err());
        // A line holding more values than a table needs.
        let mut extra = lines.clone();
        let long = format!("{} 9.0", lines[lines.len() - 1]);
        *extra.last_mut().unwrap() = &long;
        let err = EamPotential::parse(&extra.join("\n"), Style::Alloy).unwrap_err();
        assert_eq!(err.line, lines.len());
    }

    #[test]
    fn style_from_names() {
        assert_eq!(Style::from_path(Path::new("a/FeCu.eam.alloy")), Some(Style::Alloy));
        assert_eq!(Style::from_path(Path::new("Fe.eam.fs")), Some(Style::Fs));
        assert_eq!(Style::from_path(Path::new("Cu_u3.eam")), Some(Style::Funcfl));
        assert_eq!(Style::from_path(Path::new("potential.txt")), None);
        assert_eq!("eam/fs".parse::<Style>(), Ok(Style::Fs));
        assert!("lj".parse::<Style>().is_err());
    }
}
