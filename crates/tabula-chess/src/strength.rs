//! Playing strength below the engine's best, for UCI's `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`:
//! the core's [`skill`](tabula::search::skill) levels with the chess node budgets and noise of [`SCALE`], and
//! the Elo of each level as measured against Stockfish's own strength limit ([`CALIBRATION`]).
//!
//! A level's search finds the four best moves within its node budget and plays one of them, chosen with
//! noise in centipawns (see [`Skill::choose`](tabula::search::skill::Skill::choose)); `UCI_Elo` maps to the
//! (fractional) level whose measured Elo it is, by linear interpolation between the measured levels.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::strength::{level_for_elo, skill, ELO_RANGE};
//!
//! // The weakest Elo is the lowest level, the strongest the highest level still limited.
//! assert_eq!(level_for_elo(*ELO_RANGE.start()), 0.0);
//! assert!(level_for_elo(*ELO_RANGE.end()) > 18.0);
//! // Stronger labels search more and choose with less noise.
//! let (weak, strong) = (skill(level_for_elo(1500)).unwrap(), skill(level_for_elo(1800)).unwrap());
//! assert!(weak.nodes < strong.nodes && weak.noise > strong.noise);
//! // Level 20 is full strength.
//! assert!(skill(20.0).is_none());
//! ```

use std::ops::RangeInclusive;
use tabula::search::skill::{Skill, SkillScale, MAX_LEVEL};

/// The chess scale: 1,000 nodes a move at level 0 and 1,000,000 at level 19, with a noise of 250 centipawns at
/// level 0 falling to none at level 20.
pub const SCALE: SkillScale = SkillScale { nodes: [1_000, 1_000_000], noise: 250 };

/// The measured Elo of some levels: `(level, Elo)`, levels increasing. Each level played 30 games at
/// 4 s + 0.04 s against Stockfish 15.1 limited by `UCI_LimitStrength` and `UCI_Elo`, and its Elo is
/// Stockfish's label plus the difference the score gives (the workspace README has the table, with errors of
/// about ±130): level 0 against 1350 scored 9/30 (−147), level 5 against 1600 17/30 (+47), level 10 against
/// 1700 23.5/30 (+223). Levels 15 and 19 measured alike (1983 and 1953, against 1900 and 2000); level 19
/// stands for both with their mean, so that the map stays increasing.
pub const CALIBRATION: [(f64, f64); 4] = [(0.0, 1203.0), (5.0, 1647.0), (10.0, 1923.0), (19.0, 1968.0)];

/// The `UCI_Elo` values the engine accepts: from the lowest measured level to the highest.
pub const ELO_RANGE: RangeInclusive<u32> = CALIBRATION[0].1 as u32..=CALIBRATION[CALIBRATION.len() - 1].1 as u32;

/// The limits of `level` (0 to [`MAX_LEVEL`], fractions allowed); `None` at full strength.
pub fn skill(level: f64) -> Option<Skill> {
    SCALE.at(level)
}

/// The level whose measured Elo is `elo` (clamped to [`ELO_RANGE`]), interpolated between the measured
/// levels of [`CALIBRATION`].
pub fn level_for_elo(elo: u32) -> f64 {
    let elo = elo.clamp(*ELO_RANGE.start(), *ELO_RANGE.end()) as f64;
    for pair in CALIBRATION.windows(2) {
        let [(l0, e0), (l1, e1)] = [pair[0], pair[1]];
        if elo <= e1 {
            return (l0 + (l1 - l0) * (elo - e0) / (e1 - e0)).clamp(0.0, MAX_LEVEL as f64);
        }
    }
    CALIBRATION[CALIBRATION.len() - 1].0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_maps_onto_the_measured_levels_in_order() {
        assert!(CALIBRATION.windows(2).all(|p| p[0].0 < p[1].0 && p[0].1 < p[1].1));
        for &(level, elo) in &CALIBRATION {
            assert!((level_for_elo(elo as u32) - level).abs() < 0.01, "{level} {elo}");
        }
        let mut last = -1.0;
        for elo in (1000..3000).step_by(10) {
            let level = level_for_elo(elo);
            assert!(level >= last && (0.0..(MAX_LEVEL as f64)).contains(&level), "{elo}: {level}");
            last = level;
        }
    }
}
