//! Detailed balance: on a system small enough to enumerate, the time a long trajectory spends at each energy
//! level matches the Boltzmann weight `g(E) · exp(−E / k_B T) / Z` of that level.

use std::collections::BTreeMap;
use tabula_kmc::energy::{ev_to_nev, Nev, PairEnergies, BOLTZMANN_EV_PER_K, NEV_PER_EV};
use tabula_kmc::kmc::{Model, Simulation};
use tabula_kmc::lattice::{Lattice, LatticeKind};

const A: u8 = 0;
const B: u8 = 1;
const VAC: u8 = 2;

fn model(temperature: f64) -> Model {
    let lattice = Lattice::new(LatticeKind::Sc, 3, 2).unwrap();
    let mut pairs = PairEnergies::new(3, 2);
    pairs.set(0, A as usize, B as usize, ev_to_nev(0.03));
    pairs.set(0, B as usize, B as usize, ev_to_nev(-0.05));
    pairs.set(0, B as usize, VAC as usize, ev_to_nev(-0.04));
    pairs.set(1, B as usize, B as usize, ev_to_nev(-0.02));
    pairs.set(1, A as usize, VAC as usize, ev_to_nev(0.01));
    // E_0 small against the energy differences, so that the ΔE ≥ E_0-clamp is exercised too.
    Model::new(lattice, pairs, vec![ev_to_nev(0.3), ev_to_nev(0.02)], 1e13, temperature)
}

/// Every placement of one vacancy and two B atoms among A: `g(E)` by exact energy.
fn degeneracies(model: &Model) -> BTreeMap<Nev, u64> {
    let sites = model.lattice().sites();
    let mut levels = BTreeMap::new();
    for v in 0..sites {
        for b1 in 0..sites {
            for b2 in b1 + 1..sites {
                if b1 == v || b2 == v {
                    continue;
                }
                let mut occ = vec![A; sites];
                occ[v] = VAC;
                occ[b1] = B;
                occ[b2] = B;
                *levels.entry(model.total_energy(&occ)).or_insert(0) += 1;
            }
        }
    }
    levels
}

#[test]
fn time_at_each_energy_level_matches_boltzmann_weights() {
    let temperature = 800.0;
    let model = model(temperature);
    let levels = degeneracies(&model);
    assert_eq!(levels.values().sum::<u64>(), 27 * 26 * 25 / 2);
    assert!(levels.len() >= 5, "the test needs several levels, got {}", levels.len());

    let beta = 1.0 / (BOLTZMANN_EV_PER_K * temperature * NEV_PER_EV);
    let e_min = *levels.keys().next().unwrap();
    let weights: BTreeMap<Nev, f64> =
        levels.iter().map(|(&e, &g)| (e, g as f64 * (-((e - e_min) as f64) * beta).exp())).collect();
    let z: f64 = weights.values().sum();
    // The weights must differ from a uniform occupation, or the test would check nothing.
    let uniform_share = |e: &Nev| levels[e] as f64 / 8775.0;
    assert!(weights.iter().any(|(e, w)| (w / z / uniform_share(e) - 1.0).abs() > 0.5));

    let mut occ = vec![A; 27];
    occ[0] = VAC;
    occ[13] = B;
    occ[20] = B;
    let mut sim = Simulation::new(model, occ, 999, None).unwrap();
    let mut time_at: BTreeMap<Nev, f64> = BTreeMap::new();
    let (mut t, mut e) = (sim.time(), sim.energy());
    for _ in 0..8_000_000 {
        let r = sim.step();
        *time_at.entry(e).or_insert(0.0) += r.time - t;
        (t, e) = (r.time, r.energy);
    }
    assert!(time_at.keys().all(|e| levels.contains_key(e)), "the trajectory left the enumerated states");

    let mut worst = 0.0f64;
    for (e, w) in &weights {
        let expected = w / z;
        let observed = time_at.get(e).copied().unwrap_or(0.0) / t;
        if expected > 0.01 {
            let deviation = (observed - expected).abs() / expected;
            worst = worst.max(deviation);
            assert!(
                deviation < 0.06,
                "level {:.3} eV: observed {observed:.4}, Boltzmann {expected:.4}",
                (e - e_min) as f64 / NEV_PER_EV
            );
        }
    }
    println!("{} levels, worst relative deviation {worst:.4}", weights.len());
}
