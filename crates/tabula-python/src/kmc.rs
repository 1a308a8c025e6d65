//! `tabula.kmc`: the energy of a structure as the kinetic Monte Carlo computes it (`tabula kmc energy`), and
//! the published potentials it tabulates. The ASE adapter (`tabula.kmc.energy` taking an `Atoms`) is the Python
//! half of the module.

use crate::errors::Error;
use pyo3::prelude::*;
use std::path::Path;
use tabula_kmc::potential::EamPotential;
use tabula_kmc::structure::Structure;

/// The module's docstring.
pub const DOC: &str = "The energy of a structure as the kinetic Monte Carlo computes it, and the published potentials \
                       it tabulates (the native half of `tabula.kmc`).";

/// The energy of a structure, and what it was computed on.
#[pyclass(frozen, get_all, module = "tabula.kmc")]
#[derive(Clone, Debug)]
pub struct Energy {
    /// The energy in eV.
    pub energy: f64,
    /// The energy in neV, as the KMC keeps it (an integer: exact sums).
    pub energy_nev: i64,
    /// Atoms on the lattice.
    pub atoms: usize,
    /// Empty sites.
    pub vacancies: usize,
    /// The lattice: `sc`, `bcc` or `fcc`.
    pub lattice: String,
    /// Conventional cells along the cubic cell's edge.
    pub cells: usize,
    /// The lattice constant in Å.
    pub lattice_constant: f64,
    /// The species, in order of first appearance.
    pub symbols: Vec<String>,
    /// Neighbour shells within the potential's cutoff.
    pub shells: usize,
    /// The potential's cutoff in Å.
    pub cutoff: f64,
    /// The report `tabula kmc energy` prints.
    pub report: String,
}

#[pymethods]
impl Energy {
    fn __repr__(&self) -> String {
        format!(
            "Energy(energy={} eV, atoms={}, vacancies={}, lattice={:?})",
            self.energy, self.atoms, self.vacancies, self.lattice
        )
    }

    fn __str__(&self) -> String {
        self.report.clone()
    }
}

/// The energy of the first frame of an extended-XYZ text (atoms on an sc, bcc or fcc lattice filling a cubic
/// cell; `X` atoms and empty sites are vacancies) with the EAM potential file `potential` (its style from its
/// name, `*.eam`, `*.eam.alloy`, `*.eam.fs`, or given: `eam`, `eam/alloy`, `eam/fs`), as `tabula kmc energy`
/// computes it.
#[pyfunction]
#[pyo3(signature = (xyz, potential, style = None))]
pub fn energy_xyz(py: Python<'_>, xyz: &str, potential: &str, style: Option<&str>) -> PyResult<Energy> {
    let style = style.map(str::parse).transpose().map_err(Error::new_err)?;
    let potential = EamPotential::read(Path::new(potential), style).map_err(|e| Error::new_err(e.to_string()))?;
    let placed = Structure::parse(xyz).and_then(|s| s.place()).map_err(|e| Error::new_err(e.to_string()))?;
    let computed = py.detach(|| placed.energy(&potential)).map_err(|e| Error::new_err(e.to_string()))?;
    let p = &computed.placed;
    Ok(Energy {
        energy: tabula_kmc::energy::nev_to_ev(computed.energy),
        energy_nev: computed.energy,
        atoms: p.occupation.len() - p.vacancies(),
        vacancies: p.vacancies(),
        lattice: p.kind.name().to_string(),
        cells: p.size,
        lattice_constant: p.lattice_constant,
        symbols: p.symbols.clone(),
        shells: computed.shells,
        cutoff: computed.cutoff,
        report: computed.to_string(),
    })
}

/// The text of a potential file tabulated from a published analytic form, as `tabula kmc potential` writes it:
/// `fe-cu` (Ackland et al., Fe and Cu Finnis–Sinclair, eam/fs) or `zhou-fe-cu` (Zhou, Johnson & Wadley 2004,
/// Fe and Cu EAM, eam/alloy).
#[pyfunction]
pub fn potential(name: &str) -> PyResult<String> {
    let potential = match name {
        "fe-cu" => tabula_kmc::analytic::ackland_fe_cu(),
        "zhou-fe-cu" => tabula_kmc::analytic::zhou_2004(&["Fe", "Cu"], 5.6, 2000, 2000)
            .map_err(|e| Error::new_err(e.to_string()))?,
        other => return Err(Error::new_err(format!("no potential `{other}`: fe-cu or zhou-fe-cu"))),
    };
    Ok(potential.to_file_text())
}

/// The module's classes and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Energy>()?;
    m.add_function(wrap_pyfunction!(energy_xyz, m)?)?;
    m.add_function(wrap_pyfunction!(potential, m)?)?;
    Ok(())
}
