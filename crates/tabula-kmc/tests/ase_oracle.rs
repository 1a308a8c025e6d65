//! The EAM energies of lattice configurations against ASE's EAM calculator (`ase.calculators.eam.EAM`, an
//! implementation nobody here wrote, reading the same potential files): perfect lattices, a vacancy, a Cu cluster
//! with a vacancy on its edge, random alloys; `eam/fs`, `eam/alloy` and funcfl files; sc, bcc and fcc.
//!
//! ASE interpolates the tables with scipy's global cubic splines, LAMMPS (and this crate) with local cubics, so
//! the two agree to the interpolation's precision, not to the last bit. A brute-force sum in `f64` over every pair
//! within the cutoff (no lattice tables, no rounding) separates that from the KMC's rounding to neV.
//!
//! The test needs `python3` with ASE 3.22 or later (`pip install ase`, or Debian's `python3-ase`; `.ci/run` installs one
//! of them) and skips with a note without them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tabula::zobrist::SplitMix64;
use tabula_kmc::analytic::{ackland_fe_cu, zhou_2004};
use tabula_kmc::eam::LatticeEam;
use tabula_kmc::energy::nev_to_ev;
use tabula_kmc::io::{write_xyz_frame, Frame};
use tabula_kmc::lattice::{shells_within, Lattice, LatticeKind};
use tabula_kmc::potential::{EamPotential, Style, FUNCFL_CHARGE_UNIT};
use tabula_kmc::Species;

const SCRIPT: &str = r#"
import sys
from ase.io import read
from ase.calculators.eam import EAM
from ase.units import Bohr, Hartree
from ase.data import chemical_symbols
print(repr(Bohr * Hartree))
for line in sys.stdin:
    xyz, potential, form = line.split()
    atoms = read(xyz, format='extxyz')
    del atoms[[a.index for a in atoms if a.symbol == 'X']]
    calc = EAM(potential=potential, form=form)
    if not hasattr(calc, 'elements'):
        # ASE 3.22 (Debian 12's python3-ase) reads a funcfl file's atomic number but names no element.
        calc.elements = [chemical_symbols[int(calc.Z[0])]]
    atoms.calc = calc
    energy = atoms.get_potential_energy()
    parts = atoms.calc.results['energy_components']
    print(repr(float(energy)), repr(float(parts['pair'])), repr(float(parts['embedding'])))
"#;

/// `python3` if it can import ASE's EAM calculator.
fn python_with_ase() -> Option<&'static str> {
    let ok = Command::new("python3")
        .args(["-c", "import ase.calculators.eam"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some("python3")
}

/// One configuration: a potential, a lattice and species on it.
struct Case {
    name: String,
    potential: usize,
    kind: LatticeKind,
    size: usize,
    constant: f64,
    symbols: Vec<&'static str>,
    occupation: Vec<Species>,
}

/// The energy summed in `f64` over every atom and every neighbour closer than the cutoff (minimum image), straight
/// from the potential's interpolated functions.
fn brute_force(potential: &EamPotential, case: &Case, lattice: &Lattice) -> f64 {
    let elements: Vec<usize> = case.symbols.iter().map(|s| potential.element_index(s).unwrap()).collect();
    let vacancy = case.symbols.len() as Species;
    let box_length = case.size as f64 * case.constant;
    let positions: Vec<[f64; 3]> = (0..lattice.sites()).map(|i| lattice.position(i, case.constant)).collect();
    let mut energy = 0.0;
    for (i, &si) in case.occupation.iter().enumerate() {
        if si == vacancy {
            continue;
        }
        let (mut rho, mut pairs) = (0.0, 0.0);
        for (j, &sj) in case.occupation.iter().enumerate() {
            if j == i || sj == vacancy {
                continue;
            }
            let r = (0..3)
                .map(|k| {
                    let d = positions[j][k] - positions[i][k];
                    let d = d - box_length * (d / box_length).round();
                    d * d
                })
                .sum::<f64>()
                .sqrt();
            if r < potential.cutoff() {
                rho += potential.density(elements[sj as usize], elements[si as usize], r);
                pairs += potential.pair(elements[si as usize], elements[sj as usize], r);
            }
        }
        energy += potential.embedding(elements[si as usize], rho) + 0.5 * pairs;
    }
    energy
}

fn random_occupation(sites: usize, species: u64, vacancies: usize, seed: u64) -> Vec<Species> {
    let mut rng = SplitMix64::new(seed);
    let mut occ: Vec<Species> = (0..sites).map(|_| (rng.next() % species) as Species).collect();
    for v in 0..vacancies {
        occ[(41 * v + 7) % sites] = species as Species;
    }
    occ
}

#[test]
fn energies_match_ase_eam_calculator() {
    let Some(python) = python_with_ase() else {
        eprintln!("note: python3 with ASE (pip install ase) not found; the ASE comparison is skipped");
        return;
    };
    let dir = std::env::temp_dir().join(format!("tabula-kmc-ase-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // The potentials: the experiment's eam/fs, Zhou et al. as eam/alloy, an eam/fs whose densities depend on the
    // receiving element (so that a swapped convention would show), and a one-element funcfl.
    let zhou = zhou_2004(&["Fe", "Cu"], 5.6, 1000, 1000).unwrap();
    let lopsided = EamPotential::tabulate(
        Style::Fs,
        ["Zhou et al. (2004) Fe-Cu with receiving-element scaled densities", "", ""],
        zhou.elements().to_vec(),
        (1000, zhou.embedding_table(0).step()),
        (1000, 5.6 / 999.0),
        5.6,
        |e, rho| zhou.embedding(e, rho),
        |from, at, r| zhou.density(from, from, r) * (1.0 + 0.25 * at as f64 - 0.1 * from as f64),
        |a, b, r| zhou.pair(a, b, r.max(0.5)),
    );
    // Funcfl pair energies are Z(r)² · 27.2 · 0.529 / r, never negative: a made-up repulsion for this format check.
    let funcfl = EamPotential::tabulate(
        Style::Funcfl,
        ["Zhou et al. (2004) Cu embedding and density, a made-up repulsive pair", "", ""],
        vec![zhou.elements()[1].clone()],
        (1000, zhou.embedding_table(1).step()),
        (1000, 5.6 / 999.0),
        5.6,
        |_, rho| zhou.embedding(1, rho),
        |_, _, r| zhou.density(1, 1, r),
        |_, _, r| 0.8 * (-1.5 * (r - 2.5)).exp() * (5.6 - r).max(0.0).powi(2) / 9.0,
    );
    let potentials: Vec<(EamPotential, PathBuf, &str)> = [
        (ackland_fe_cu(), "FeCu_Ackland.eam.fs", "fs"),
        (zhou, "FeCu_Zhou04.eam.alloy", "alloy"),
        (lopsided, "FeCu_lopsided.eam.fs", "fs"),
        (funcfl, "Cu_Zhou04.eam", "eam"),
    ]
    .into_iter()
    .map(|(p, file, form)| {
        let path = dir.join(file);
        std::fs::write(&path, p.to_file_text()).unwrap();
        // Read back from the file, as ASE does: the tables compared are the file's.
        let style = Style::from_path(Path::new(file)).unwrap();
        (EamPotential::read(&path, Some(style)).unwrap(), path, form)
    })
    .collect();

    let mut cases = Vec::new();
    let bcc = |name: &str, occupation: Vec<Species>| Case {
        name: name.into(),
        potential: 0,
        kind: LatticeKind::Bcc,
        size: 5,
        constant: 2.8665,
        symbols: vec!["Fe", "Cu"],
        occupation,
    };
    let sites = 250;
    cases.push(bcc("bcc Fe, perfect", vec![0; sites]));
    let mut vacancy = vec![0; sites];
    vacancy[17] = 2;
    cases.push(bcc("bcc Fe, one vacancy", vacancy));
    // A Cu cluster: a site and its first and second neighbours (15 Cu), a vacancy at the cluster's edge.
    let lattice = Lattice::new(LatticeKind::Bcc, 5, 3).unwrap();
    let mut cluster = vec![0; sites];
    let centre = 125;
    cluster[centre] = 1;
    for shell in 0..2 {
        lattice.neighbours(centre, shell).iter().for_each(|&j| cluster[j as usize] = 1);
    }
    cluster[lattice.neighbours(centre, 2)[0] as usize] = 2;
    cases.push(bcc("bcc Fe, 15-Cu cluster and a vacancy beside it", cluster));
    cases.push(bcc("bcc Fe-30% Cu-like random alloy, 3 vacancies", random_occupation(sites, 2, 3, 1)));
    for (potential, label) in [(1, "eam/alloy"), (2, "eam/fs, lopsided densities")] {
        cases.push(Case {
            name: format!("fcc random Fe-Cu, 2 vacancies ({label})"),
            potential,
            kind: LatticeKind::Fcc,
            size: 5,
            constant: 3.615,
            symbols: vec!["Cu", "Fe"],
            occupation: random_occupation(500, 2, 2, 2),
        });
        cases.push(Case {
            name: format!("bcc random Fe-Cu, 1 vacancy ({label})"),
            potential,
            kind: LatticeKind::Bcc,
            size: 4,
            constant: 2.8665,
            symbols: vec!["Fe", "Cu"],
            occupation: random_occupation(128, 2, 1, 3),
        });
    }
    cases.push(Case {
        name: "sc random Fe-Cu, 2 vacancies (eam/alloy)".into(),
        potential: 1,
        kind: LatticeKind::Sc,
        size: 5,
        constant: 2.6,
        symbols: vec!["Fe", "Cu"],
        occupation: random_occupation(125, 2, 2, 4),
    });
    cases.push(Case {
        name: "fcc Cu, perfect (eam/alloy)".into(),
        potential: 1,
        kind: LatticeKind::Fcc,
        size: 5,
        constant: 3.615,
        symbols: vec!["Cu"],
        occupation: vec![0; 500],
    });
    cases.push(Case {
        name: "fcc Cu, one vacancy (funcfl)".into(),
        potential: 3,
        kind: LatticeKind::Fcc,
        size: 5,
        constant: 3.615,
        symbols: vec!["Cu"],
        occupation: {
            let mut o = vec![0; 500];
            o[3] = 1;
            o
        },
    });

    // Ours: the KMC's integer energy and the brute-force f64 sum; then ASE's for every structure.
    let mut input = String::new();
    let mut ours = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let (potential, path, form) = &potentials[case.potential];
        let shells = shells_within(case.kind, case.constant, potential.cutoff());
        let lattice = Lattice::new(case.kind, case.size, shells).unwrap();
        let eam = LatticeEam::new(potential, &case.symbols, &lattice, case.constant).unwrap();
        let kmc = nev_to_ev(eam.total_energy(&lattice, &case.occupation));
        ours.push((kmc, brute_force(potential, case, &lattice)));
        let names: Vec<String> = case.symbols.iter().map(|s| s.to_string()).collect();
        let mut xyz = Vec::new();
        let frame = Frame { step: 0, time: 0.0, energy: kmc };
        write_xyz_frame(&mut xyz, &lattice, case.constant, &names, &case.occupation, &frame).unwrap();
        let xyz_path = dir.join(format!("case{k}.xyz"));
        std::fs::write(&xyz_path, xyz).unwrap();
        input.push_str(&format!("{} {} {form}\n", xyz_path.display(), path.display()));
    }
    let mut child = Command::new(python)
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "ASE failed: {}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let mut lines = text.lines();
    let ase_charge_unit: f64 = lines.next().unwrap().parse().unwrap();

    let (mut worst, mut worst_f64) = (0.0f64, 0.0f64);
    for ((case, (kmc, exact)), line) in cases.iter().zip(&ours).zip(lines) {
        let v: Vec<f64> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        // ASE converts funcfl charges with CODATA's Hartree and Bohr, LAMMPS with 27.2 and 0.529.
        let ase = if potentials[case.potential].2 == "eam" {
            v[1] * FUNCFL_CHARGE_UNIT / ase_charge_unit + v[2]
        } else {
            v[0]
        };
        let atoms = case.occupation.iter().filter(|&&s| (s as usize) < case.symbols.len()).count() as f64;
        let (diff, diff_f64) = (kmc - ase, exact - ase);
        println!(
            "{:<55} ASE {ase:>18.9} eV  KMC {kmc:>18.9} (Δ {diff:+.2e})  f64 sum Δ {diff_f64:+.2e}  [{} atoms]",
            case.name, atoms
        );
        worst = worst.max(diff.abs() / atoms);
        worst_f64 = worst_f64.max(diff_f64.abs() / atoms);
        // Interpolation differences stay below 10⁻⁸ eV per atom on these 1000-point tables; the KMC's rounding to
        // neV adds at most a few neV per atom.
        assert!(diff_f64.abs() < 1e-8 * atoms, "{}: f64 sum {exact} vs ASE {ase}", case.name);
        assert!(diff.abs() < 2e-8 * atoms, "{}: KMC {kmc} vs ASE {ase}", case.name);
    }
    println!("largest difference per atom: KMC {worst:.2e} eV, f64 sum {worst_f64:.2e} eV");
    std::fs::remove_dir_all(&dir).ok();
}
