//! Published analytic potentials, tabulated as standard potential files: for the tests, `tabula kmc potential`
//! and the recall experiment, so that nothing has to be downloaded.
//!
//! - [`zhou_2004`]: the embedded-atom form and parameters of X. W. Zhou, R. A. Johnson & H. N. G. Wadley,
//!   "Misfit-energy-increasing dislocations in vapor-deposited CoFe/NiFe multilayers", *Phys. Rev. B* 69, 144113
//!   (2004), for Fe and Cu, with Johnson's alloy pair rule; written as `eam/alloy`.
//! - [`ackland_fe_cu`]: the Finnis–Sinclair Fe of G. J. Ackland, D. J. Bacon, A. F. Calder & T. Harry, *Phil. Mag.
//!   A* 75, 713 (1997) and the Cu of G. J. Ackland, G. Tichy, V. Vitek & M. W. Finnis, *Phil. Mag. A* 56, 735
//!   (1987), with a Fe–Cu cross term of our own (see the function); written as `eam/fs`. This is the potential
//!   family of Mason, Hudson & Sutton's experiment.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::analytic::ackland_fe_cu;
//!
//! let potential = ackland_fe_cu();
//! assert_eq!(potential.elements()[0].symbol, "Fe");
//! let text = potential.to_file_text(); // an eam/fs file LAMMPS and ASE read
//! assert!(text.lines().nth(3).unwrap().starts_with("2 Fe Cu"));
//! ```

use crate::potential::{EamPotential, Element, Style};

/// One element's parameters in the form of Zhou, Johnson & Wadley (2004).
#[derive(Clone, Copy, Debug)]
struct Zhou {
    symbol: &'static str,
    number: u32,
    mass: f64,
    lattice: &'static str,
    re: f64,
    fe: f64,
    rho_e: f64,
    rho_s: f64,
    alpha: f64,
    beta: f64,
    a: f64,
    b: f64,
    kappa: f64,
    lambda: f64,
    /// `F_n0 .. F_n3`, below `0.85 ρ_e`.
    f_low: [f64; 4],
    /// `F_0 .. F_3`, between `0.85 ρ_e` and `1.15 ρ_e`.
    f_mid: [f64; 4],
    eta: f64,
    f_e: f64,
}

/// The published parameters (Zhou, Johnson & Wadley 2004, Table III) of the elements tabulated here.
const ZHOU: [Zhou; 2] = [
    Zhou {
        symbol: "Fe",
        number: 26,
        mass: 55.847,
        lattice: "bcc",
        re: 2.481987,
        fe: 1.885957,
        rho_e: 20.041463,
        rho_s: 20.041463,
        alpha: 9.818270,
        beta: 5.236411,
        a: 0.392811,
        b: 0.646243,
        kappa: 0.170306,
        lambda: 0.340613,
        f_low: [-2.534992, -0.059605, 0.193065, -2.282322],
        f_mid: [-2.54, 0.0, 0.200269, -0.148770],
        eta: 0.391750,
        f_e: -2.539945,
    },
    Zhou {
        symbol: "Cu",
        number: 29,
        mass: 63.546,
        lattice: "fcc",
        re: 2.556162,
        fe: 1.554485,
        rho_e: 21.175871,
        rho_s: 21.175395,
        alpha: 8.127620,
        beta: 4.334731,
        a: 0.396620,
        b: 0.548085,
        kappa: 0.308782,
        lambda: 0.756515,
        f_low: [-2.170269, -0.263788, 1.088878, -0.817603],
        f_mid: [-2.19, 0.0, 0.561830, -2.100595],
        eta: 0.310490,
        f_e: -2.186568,
    },
];

impl Zhou {
    /// The density an atom gives at `r`: `f_e exp(−β(r/r_e − 1)) / (1 + (r/r_e − λ)²⁰)`.
    fn density(&self, r: f64) -> f64 {
        let x = r / self.re;
        self.fe * (-self.beta * (x - 1.0)).exp() / (1.0 + (x - self.lambda).powi(20))
    }

    /// The pair energy of two such atoms at `r`.
    fn pair(&self, r: f64) -> f64 {
        let x = r / self.re;
        self.a * (-self.alpha * (x - 1.0)).exp() / (1.0 + (x - self.kappa).powi(20))
            - self.b * (-self.beta * (x - 1.0)).exp() / (1.0 + (x - self.lambda).powi(20))
    }

    /// The embedding energy: two cubics in ρ, joined at 0.85 ρ_e, and `F_e (1 − η ln(ρ/ρ_s)) (ρ/ρ_s)^η` above
    /// 1.15 ρ_e.
    fn embedding(&self, rho: f64) -> f64 {
        let cubic = |c: &[f64; 4], x: f64| c[0] + c[1] * x + c[2] * x * x + c[3] * x * x * x;
        let (low, high) = (0.85 * self.rho_e, 1.15 * self.rho_e);
        if rho < low {
            cubic(&self.f_low, rho / low - 1.0)
        } else if rho < high {
            cubic(&self.f_mid, rho / self.rho_e - 1.0)
        } else {
            let s = rho / self.rho_s;
            self.f_e * (1.0 - self.eta * s.ln()) * s.powf(self.eta)
        }
    }
}

/// An element of Zhou, Johnson & Wadley (2004) is not tabulated here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no Zhou–Johnson–Wadley parameters for `{0}` here (available: Fe, Cu)")]
pub struct UnknownElement(pub String);

/// Distances below this are tabulated at this distance: the analytic forms grow without bound towards 0, and no
/// lattice comes close.
const CORE: f64 = 0.5;

/// The Zhou–Johnson–Wadley (2004) EAM for `symbols` (among Fe and Cu), as an `eam/alloy` file: `nr` distances up
/// to `cutoff` (Å), `nrho` densities up to twice the largest `ρ_e` (or 100, whichever is more).
///
/// The cross pair energy is Johnson's rule `φ_ab = ½ (f_b/f_a · φ_aa + f_a/f_b · φ_bb)`, as the paper uses. The
/// functions are cut off sharply at `cutoff` (the authors' own tables stop at `√10/2 · √2 · max r_e`, 5.72 Å for
/// Fe–Cu; a cutoff between two shells of the lattices used avoids counting a shell that sits on it).
///
/// # Errors
///
/// [`UnknownElement`] for a symbol without parameters here.
pub fn zhou_2004(symbols: &[&str], cutoff: f64, nr: usize, nrho: usize) -> Result<EamPotential, UnknownElement> {
    let params: Vec<Zhou> = symbols
        .iter()
        .map(|s| ZHOU.iter().find(|z| z.symbol == *s).copied().ok_or_else(|| UnknownElement(s.to_string())))
        .collect::<Result<_, _>>()?;
    let elements = params
        .iter()
        .map(|z| Element {
            symbol: z.symbol.to_string(),
            number: z.number,
            mass: z.mass,
            lattice_constant: if z.lattice == "bcc" { 2.0 * z.re / 3f64.sqrt() } else { 2f64.sqrt() * z.re },
            lattice: z.lattice.to_string(),
        })
        .collect();
    let rho_max = params.iter().map(|z| 2.0 * z.rho_e).fold(100.0, f64::max);
    let dr = cutoff / (nr - 1) as f64;
    let drho = rho_max / (nrho - 1) as f64;
    let p = &params;
    Ok(EamPotential::tabulate(
        Style::Alloy,
        [
            "Zhou, Johnson & Wadley, Phys. Rev. B 69, 144113 (2004): EAM form and parameters (Table III)",
            "cross pairs by Johnson's rule; tabulated by tabula-kmc (analytic::zhou_2004)",
            &format!("cutoff {cutoff} A, {nr} distances, {nrho} densities"),
        ],
        elements,
        (nrho, drho),
        (nr, dr),
        cutoff,
        |e, rho| p[e].embedding(rho),
        |from, _, r| p[from].density(r.max(CORE)),
        |a, b, r| {
            let r = r.max(CORE);
            if a == b {
                p[a].pair(r)
            } else {
                let (fa, fb) = (p[a].density(r), p[b].density(r));
                0.5 * (fb / fa * p[a].pair(r) + fa / fb * p[b].pair(r))
            }
        },
    ))
}

/// `Σ_k a_k (r_k − r)³` over the knots `r_k > r`: the cubic-knot functions of Finnis–Sinclair potentials.
fn knots(a: &[f64], r_k: &[f64], r: f64) -> f64 {
    a.iter().zip(r_k).filter(|(_, &rk)| r < rk).map(|(a, rk)| a * (rk - r).powi(3)).sum()
}

/// The lattice constants (Å) the knots of Ackland et al. are given in.
const A_FE: f64 = 2.8665;
const A_CU: f64 = 3.615;

/// Ackland et al. (1997) Fe: pair knots `a_k / a³` (eV/Å³) at `r_k · a`.
const FE_PAIR: ([f64; 6], [f64; 6]) =
    ([-36.559853, 62.416005, -13.155649, -2.721376, 8.761986, 100.0], [1.18, 1.15, 1.08, 0.99, 0.93, 0.866025]);
/// Ackland et al. (1997) Fe: density knots `A_k / a³` at `R_k · a`.
const FE_DENSITY: ([f64; 2], [f64; 2]) = ([72.868366, -100.944815], [1.3, 1.2]);
/// Ackland et al. (1987) Cu: pair knots, as printed (0.7071068 is the rounded 1/√2 of the paper).
#[allow(clippy::approx_constant)]
const CU_PAIR: ([f64; 6], [f64; 6]) = (
    [29.059214, -140.05681, 130.07331, -17.48135, 31.82546, 71.58749],
    [1.2247449, 1.1547054, 1.1180065, 1.0, 0.8660254, 0.7071068],
);
/// Ackland et al. (1987) Cu: density knots.
const CU_DENSITY: ([f64; 2], [f64; 2]) = ([9.806694, 16.774638], [1.2247449, 1.0]);

/// Where the Fe–Cu cross pair term `c (R − r)³` stops: the Fe density cutoff, 1.3 a_Fe, so that it acts on the
/// first two bcc shells.
const CROSS_RANGE: f64 = 1.3 * A_FE;

/// The unrelaxed heat of solution (eV) of Cu in bcc Fe at a = 2.8665 Å without the cross term
/// (`E(Fe₂₄₉Cu) − E(Fe₂₅₀) + E_coh(Fe) − E_coh(Cu)`).
const SOLUTION_WITHOUT_CROSS: f64 = 0.107_246_4;

/// The heat of solution [`ackland_fe_cu`] is set to: the value that reproduces the recall rates of Mason, Hudson &
/// Sutton at 773 K (see the crate README).
pub const EXPERIMENT_HEAT_OF_SOLUTION: f64 = 0.9;

/// The coefficient `c` (eV/Å³) of the cross term that gives an unrelaxed heat of solution of Cu in bcc Fe of
/// `heat_of_solution` eV: the term adds `c Σ_shells z (R − r)³` per Cu atom (8 first and 6 second neighbours).
pub fn cross_coefficient(heat_of_solution: f64) -> f64 {
    let per_c = 8.0 * (CROSS_RANGE - 3f64.sqrt() / 2.0 * A_FE).powi(3) + 6.0 * (CROSS_RANGE - A_FE).powi(3);
    (heat_of_solution - SOLUTION_WITHOUT_CROSS) / per_c
}

fn scaled<const N: usize>(knots_of: &([f64; N], [f64; N]), a: f64) -> (Vec<f64>, Vec<f64>) {
    let a3 = a * a * a;
    (knots_of.0.iter().map(|k| k / a3).collect(), knots_of.1.iter().map(|r| r * a).collect())
}

/// The Fe–Cu Finnis–Sinclair potential of the recall experiment, as an `eam/fs` file (5000 distances to the
/// 4.4275 Å cutoff, 5000 densities to 100): [`ackland_fe_cu_with`] the [`EXPERIMENT_HEAT_OF_SOLUTION`].
pub fn ackland_fe_cu() -> EamPotential {
    ackland_fe_cu_with(EXPERIMENT_HEAT_OF_SOLUTION)
}

/// The Fe–Cu Finnis–Sinclair potential with the cross term set for an unrelaxed heat of solution of Cu in bcc Fe of
/// `heat_of_solution` eV.
///
/// - Fe–Fe: Ackland, Bacon, Calder & Harry (1997): `V(r) = Σ a_k (r_k − r)³`, `φ(r) = Σ A_k (R_k − r)³`,
///   `F(ρ) = −√ρ`. The paper is not public; its knots are those G. J. Ackland's public MOLDY code lists as the
///   "ABC potential in iron" (github.com/gjackland/moldy, `src/potentials/pot_026_026.in`), and they give the values
///   the fit aimed at: cohesive energy 4.316 eV and unrelaxed vacancy formation energy 1.89 eV at a = 2.8665 Å.
/// - Cu–Cu: Ackland, Tichy, Vitek & Finnis (1987), the same form (cohesive energy 3.52 eV at a = 3.615 Å).
/// - Fe–Cu: Ackland et al. (1997) fitted a cross pair potential whose parameters are not public. We **assume**
///   the Finnis–Sinclair alloy rule `φ_FeCu = √(φ_Fe φ_Cu)` for the density and, for the pair,
///   `½ (V_Fe + V_Cu) + c (R − r)³` below `R` = 1.3 a_Fe, `c` from [`cross_coefficient`]. Without the term the
///   heat of solution would be 0.11 eV, far too soluble. Unrelaxed, on the bcc Fe lattice, a heat of solution of
///   0.5 eV gives a Cu–vacancy binding of 0.090 / 0.054 eV and a Cu–Cu binding of 0.079 / 0.028 eV at first /
///   second neighbours; 0.9 eV (the experiment's) gives 0.130 / 0.067 and 0.159 / 0.054 eV.
///
/// The short-range (Biersack–Ziegler) repulsion these potentials use below about 2 Å is left out: no lattice site
/// is that close.
pub fn ackland_fe_cu_with(heat_of_solution: f64) -> EamPotential {
    let c = cross_coefficient(heat_of_solution);
    let (fe_v, cu_v) = (scaled(&FE_PAIR, A_FE), scaled(&CU_PAIR, A_CU));
    let (fe_d, cu_d) = (scaled(&FE_DENSITY, A_FE), scaled(&CU_DENSITY, A_CU));
    let pair = |e: usize, r: f64| if e == 0 { knots(&fe_v.0, &fe_v.1, r) } else { knots(&cu_v.0, &cu_v.1, r) };
    let density = |e: usize, r: f64| if e == 0 { knots(&fe_d.0, &fe_d.1, r) } else { knots(&cu_d.0, &cu_d.1, r) };
    let cutoff = CU_PAIR.1[0] * A_CU;
    let (nr, nrho) = (5000, 5000);
    let elements = vec![
        Element { symbol: "Fe".into(), number: 26, mass: 55.845, lattice_constant: A_FE, lattice: "bcc".into() },
        Element { symbol: "Cu".into(), number: 29, mass: 63.546, lattice_constant: A_CU, lattice: "fcc".into() },
    ];
    EamPotential::tabulate(
        Style::Fs,
        [
            "Fe: Ackland, Bacon, Calder & Harry, Phil. Mag. A 75, 713 (1997); Cu: Ackland, Tichy, Vitek & Finnis, Phil. Mag. A 56, 735 (1987)",
            &format!(
                "Fe-Cu: density sqrt(phi_Fe phi_Cu), pair (V_Fe + V_Cu)/2 + {c:.7} ({CROSS_RANGE} - r)^3 (heat of solution {heat_of_solution} eV); our assumption"
            ),
            "Finnis-Sinclair F = -sqrt(rho); tabulated by tabula-kmc (analytic::ackland_fe_cu)",
        ],
        elements,
        (nrho, 100.0 / (nrho - 1) as f64),
        (nr, cutoff / (nr - 1) as f64),
        cutoff,
        |_, rho| -rho.max(0.0).sqrt(),
        |from, at, r| if from == at { density(from, r) } else { (density(0, r) * density(1, r)).max(0.0).sqrt() },
        |a, b, r| {
            if a == b {
                pair(a, r)
            } else {
                let cross = if r < CROSS_RANGE { c * (CROSS_RANGE - r).powi(3) } else { 0.0 };
                0.5 * (pair(0, r) + pair(1, r)) + cross
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zhou_forms_hit_their_published_equilibrium_values() {
        for z in &ZHOU {
            // The density at r_e is f_e; the embedding function is continuous at its joins.
            assert!((z.density(z.re) - z.fe / (1.0 + (1.0 - z.lambda).powi(20))).abs() < 1e-12);
            for join in [0.85 * z.rho_e, 1.15 * z.rho_e] {
                let (below, above) = (z.embedding(join * (1.0 - 1e-12)), z.embedding(join * (1.0 + 1e-12)));
                assert!((below - above).abs() < 2e-3, "{} at {join}: {below} vs {above}", z.symbol);
            }
        }
        assert!(zhou_2004(&["Fe", "Zn"], 5.6, 100, 100).is_err());
    }

    #[test]
    fn tabulated_files_keep_the_analytic_values() {
        let p = ackland_fe_cu();
        let fe = scaled(&FE_PAIR, A_FE);
        for r in [2.4825, 2.8665, 3.1, 4.0538] {
            assert!((p.pair(0, 0, r) - knots(&fe.0, &fe.1, r)).abs() < 1e-9, "r = {r}");
        }
        let z = zhou_2004(&["Fe", "Cu"], 5.6, 2000, 2000).unwrap();
        for r in [2.5, 3.0, 4.2] {
            assert!((z.density(1, 1, r) - ZHOU[1].density(r)).abs() < 1e-8);
            assert!((z.pair(0, 0, r) - ZHOU[0].pair(r)).abs() < 1e-7);
        }
    }
}
