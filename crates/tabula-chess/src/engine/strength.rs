//! Playing strength below the engine's best, for UCI's `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`:
//! the core's [`skill`](tabula::search::skill) levels with the chess node budgets and noise of [`SCALE`], and
//! the Elo of each level fitted to matches against Stockfish's own strength limit ([`CALIBRATION`]).
//!
//! A level's search finds the four best moves within its node budget and plays one of them, chosen with
//! noise in centipawns (see [`Skill::choose`](tabula::search::skill::Skill::choose)); `UCI_Elo` maps to the
//! (fractional) level whose Elo it is, by linear interpolation between the levels of the map.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::engine::strength::{level_for_elo, skill, ELO_RANGE};
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
/// level 0 falling with the square of the distance to level 20, where it is none (141 at level 5, 63 at
/// level 10, 16 at level 15).
pub const SCALE: SkillScale = SkillScale { nodes: [1_000, 1_000_000], noise: 250 };

/// The Elo of some levels: `(level, Elo)`, levels increasing. Seven matches of 40 games at
/// 10 s + 0.1 s with the embedded network against Stockfish 15.1 limited by `UCI_LimitStrength` and
/// `UCI_Elo` each measured one level's Elo as Stockfish's label plus the difference the score gives (errors
/// of about ±110; the workspace README has the table): levels 0, 5, 10, 15 and 19 against 1350, 1700, 1850,
/// 2100 and 2250 gave 1289, 1744, 1967, 2152 and 2215, and the `UCI_Elo` 1600 and 2050 of a first map
/// through those five (levels 3.42 and 12.24) played against Stockfish at the same labels gave 1483 and
/// 1952. The values here are a quadratic in the level fitted to all seven by least squares,
/// 1288 + 83.2 L − 1.82 L² (residuals of 54 Elo root mean square), so that no one match's luck bends the
/// map; checked at 1800 (level 7.54) against Stockfish at the same label, it scored 23.5/40 (+61 ± 109).
pub const CALIBRATION: [(f64, f64); 5] = [(0.0, 1288.0), (5.0, 1658.0), (10.0, 1937.0), (15.0, 2125.0), (19.0, 2210.0)];

/// The `UCI_Elo` values the engine accepts: from level 0's Elo to level 19's.
pub const ELO_RANGE: RangeInclusive<u32> = CALIBRATION[0].1 as u32..=CALIBRATION[CALIBRATION.len() - 1].1 as u32;

/// The limits of `level` (0 to [`MAX_LEVEL`], fractions allowed); `None` at full strength.
pub fn skill(level: f64) -> Option<Skill> {
    SCALE.at(level)
}

/// The level whose Elo is `elo` (clamped to [`ELO_RANGE`]), interpolated between the levels of
/// [`CALIBRATION`].
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
    fn elo_maps_onto_the_calibrated_levels_in_order() {
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
