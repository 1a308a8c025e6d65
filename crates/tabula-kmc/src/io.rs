//! Extended XYZ frames (read by ASE and OVITO) and the CSV log.
//!
//! A frame is the number of sites, a comment line of `key=value` pairs, and one line per site:
//!
//! ```text
//! 2000
//! Lattice="28.7 0 0 0 28.7 0 0 0 28.7" Properties=species:S:1:pos:R:3 pbc="T T T" step=0 time=0 energy=-8521.3
//! Fe 0.000000 0.000000 0.000000
//! X 1.435000 1.435000 1.435000
//! ...
//! ```
//!
//! Every site is written, vacancies as `X` (ASE's dummy atom, atomic number 0; OVITO shows it as a type of its
//! own), so a frame read back gives the whole occupation. `time` is in seconds, `energy` in eV.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::io::{read_xyz, write_xyz_frame, Frame};
//! use tabula_kmc::lattice::{Lattice, LatticeKind};
//!
//! let lattice = Lattice::new(LatticeKind::Fcc, 3, 1).unwrap();
//! let names = ["Al".to_string(), "Mg".to_string()];
//! let mut occ = vec![0u8; lattice.sites()];
//! occ[5] = 1;
//! occ[9] = 2; // the vacancy
//! let frame = Frame { step: 0, time: 0.0, energy: -1.5 };
//! let mut text = Vec::new();
//! write_xyz_frame(&mut text, &lattice, 4.05, &names, &occ, &frame).unwrap();
//! let back = read_xyz(std::str::from_utf8(&text).unwrap(), &lattice, 4.05, &names).unwrap();
//! assert_eq!(back, occ);
//! ```

use crate::lattice::Lattice;
use crate::Species;
use std::io::{self, Write};

/// The symbol vacancies are written with.
pub const VACANCY_SYMBOL: &str = "X";

/// What goes on a frame's comment line besides the cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Steps made.
    pub step: u64,
    /// Simulated time in s.
    pub time: f64,
    /// Energy in eV.
    pub energy: f64,
}

/// Writes one extended XYZ frame of every site.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_xyz_frame(
    out: &mut impl Write,
    lattice: &Lattice,
    lattice_constant: f64,
    names: &[String],
    occupation: &[Species],
    frame: &Frame,
) -> io::Result<()> {
    let l = lattice.size() as f64 * lattice_constant;
    writeln!(out, "{}", occupation.len())?;
    writeln!(
        out,
        "Lattice=\"{l:.6} 0 0 0 {l:.6} 0 0 0 {l:.6}\" Properties=species:S:1:pos:R:3 pbc=\"T T T\" step={} time={:e} energy={}",
        frame.step, frame.time, frame.energy
    )?;
    for (site, &s) in occupation.iter().enumerate() {
        let name = names.get(s as usize).map_or(VACANCY_SYMBOL, String::as_str);
        let [x, y, z] = lattice.position(site, lattice_constant);
        writeln!(out, "{name} {x:.6} {y:.6} {z:.6}")?;
    }
    Ok(())
}

/// A structure file that does not fit the config.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct XyzError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

fn xyz_error(line: usize, problem: impl Into<String>) -> XyzError {
    XyzError { line, problem: problem.into() }
}

/// Reads the first frame of an extended XYZ text into species per site.
///
/// Atoms are placed on the nearest site (positions must lie within 0.1 half-constants of one); `X` or `Vac`
/// is a vacancy; every site must be given once. A `Lattice=` cell, if present, must be the supercell's.
///
/// # Errors
///
/// An [`XyzError`] with the line that does not fit.
pub fn read_xyz(
    text: &str,
    lattice: &Lattice,
    lattice_constant: f64,
    names: &[String],
) -> Result<Vec<Species>, XyzError> {
    let mut lines = text.lines();
    let count: usize =
        lines.next().and_then(|l| l.trim().parse().ok()).ok_or_else(|| xyz_error(1, "expected the number of atoms"))?;
    if count != lattice.sites() {
        return Err(xyz_error(
            1,
            format!("{count} atoms, but the lattice has {} sites (vacancies included)", lattice.sites()),
        ));
    }
    let comment = lines.next().ok_or_else(|| xyz_error(2, "expected the comment line"))?;
    if let Some(cell) = comment.split("Lattice=\"").nth(1).and_then(|r| r.split('"').next()) {
        let values: Vec<f64> = cell.split_whitespace().filter_map(|v| v.parse().ok()).collect();
        let l = lattice.size() as f64 * lattice_constant;
        let want = [l, 0.0, 0.0, 0.0, l, 0.0, 0.0, 0.0, l];
        if values.len() != 9 || values.iter().zip(want).any(|(a, b)| (a - b).abs() > 1e-3 * l) {
            return Err(xyz_error(2, format!("Lattice=\"{cell}\" is not the {l} Å cubic supercell of the config")));
        }
    }
    let vacancy = names.len() as Species;
    let mut occupation = vec![Species::MAX; lattice.sites()];
    for i in 0..count {
        let line_no = i + 3;
        let line = lines.next().ok_or_else(|| xyz_error(line_no, "the file ends before every atom is listed"))?;
        let mut fields = line.split_whitespace();
        let name = fields.next().ok_or_else(|| xyz_error(line_no, "empty line"))?;
        let species = if name == VACANCY_SYMBOL || name == crate::config::VACANCY_NAME {
            vacancy
        } else {
            names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| xyz_error(line_no, format!("species `{name}` is not among {names:?}")))?
                as Species
        };
        let mut coords = [0i32; 3];
        for c in &mut coords {
            let x: f64 = fields
                .next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| xyz_error(line_no, "expected three coordinates after the species"))?;
            let half = 2.0 * x / lattice_constant;
            if (half - half.round()).abs() > 0.1 {
                return Err(xyz_error(line_no, format!("{x} Å is not on a lattice site")));
            }
            *c = half.round() as i32;
        }
        let site = lattice.site_at(coords).ok_or_else(|| xyz_error(line_no, "not on a site of the lattice"))?;
        if occupation[site] != Species::MAX {
            return Err(xyz_error(line_no, format!("site {site} is given twice")));
        }
        occupation[site] = species;
    }
    Ok(occupation)
}

/// The CSV log's header.
pub const CSV_HEADER: &str = "step,time_s,energy_eV,recall_rate,states_computed";

/// One CSV row.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_csv_row(
    out: &mut impl Write,
    step: u64,
    time: f64,
    energy: f64,
    recall_rate: f64,
    computed: u64,
) -> io::Result<()> {
    writeln!(out, "{step},{time:e},{energy},{recall_rate},{computed}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lattice::LatticeKind;
    use proptest::prelude::*;

    fn names() -> Vec<String> {
        vec!["Fe".into(), "Cu".into()]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        #[test]
        fn xyz_round_trips(kind in 0usize..3, size in 3usize..5, seed in any::<u64>()) {
            let lattice = Lattice::new(LatticeKind::ALL[kind], size, 1).unwrap();
            let mut rng = tabula::zobrist::SplitMix64::new(seed);
            let occ: Vec<Species> = (0..lattice.sites()).map(|_| (rng.next() % 3) as Species).collect();
            let frame = Frame { step: 7, time: 1.5e-9, energy: -3.25 };
            let mut text = Vec::new();
            write_xyz_frame(&mut text, &lattice, 2.87, &names(), &occ, &frame).unwrap();
            let back = read_xyz(std::str::from_utf8(&text).unwrap(), &lattice, 2.87, &names()).unwrap();
            prop_assert_eq!(back, occ);
        }
    }

    #[test]
    fn bad_files_name_the_line() {
        let lattice = Lattice::new(LatticeKind::Bcc, 3, 1).unwrap();
        let occ = vec![0; lattice.sites()];
        let mut text = Vec::new();
        write_xyz_frame(&mut text, &lattice, 2.87, &names(), &occ, &Frame { step: 0, time: 0.0, energy: 0.0 }).unwrap();
        let text = String::from_utf8(text).unwrap();
        let zinc = text.replacen("\nFe ", "\nZn ", 1);
        assert_eq!(read_xyz(&zinc, &lattice, 2.87, &names()).unwrap_err().line, 3);
        let off_site = text.replacen("\nFe 0.000000", "\nFe 0.700000", 1);
        assert_eq!(read_xyz(&off_site, &lattice, 2.87, &names()).unwrap_err().line, 3);
        assert_eq!(read_xyz(&text, &lattice, 3.0, &names()).unwrap_err().line, 2);
        let short: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
        assert_eq!(read_xyz(&short, &lattice, 2.87, &names()).unwrap_err().line, 11);
    }
}
