//! Playing below full strength in a way that still looks like play: a [`Skill`] level from 0 to
//! [`MAX_LEVEL`] gives a search a node budget and a choice among its best moves, as Stockfish's `Skill Level`
//! does. The search finds the few best root moves (MultiPV, [`Skill::lines`]) within the budget
//! ([`Skill::nodes`]); [`Skill::choose`] then takes one of them, each scored by its value plus a random share
//! of the level's noise ([`Skill::noise`]). A move is never chosen over one better by more than the noise, a
//! mate found is always taken, and at the top level the engine plays at full strength with neither limit.
//!
//! What the levels mean differs from game to game: a game sets the node budgets of the lowest and the
//! highest limited level and the noise of the lowest ([`SkillScale`]); between them the budget grows
//! geometrically and the noise falls with the square of the distance to full strength, so that level 10
//! chooses within a quarter of level 0's noise (in chess a wide noise costs more strength than a small
//! budget does). Levels may be fractional: a protocol's Elo setting maps to one.
//!
//! # Examples
//!
//! ```
//! use tabula::search::skill::{SkillScale, MAX_LEVEL};
//! use tabula::search::Line;
//!
//! let scale = SkillScale { nodes: [1_000, 1_000_000], noise: 200 };
//! assert!(scale.at(MAX_LEVEL as f64).is_none()); // full strength
//! let weakest = scale.at(0.0).unwrap();
//! assert_eq!((weakest.nodes, weakest.noise, weakest.lines), (1_000, 200, 4));
//! let middle = scale.at(10.0).unwrap();
//! assert!(middle.nodes > 10_000 && middle.nodes < 100_000 && middle.noise == 50);
//!
//! // Two moves a tenth of a pawn apart and one a rook worse: the rook-losing move is never chosen.
//! let lines = [Line { score: 30, pv: vec!['a'] }, Line { score: 20, pv: vec!['b'] }, Line { score: -470, pv: vec!['c'] }];
//! let chosen: Vec<char> = (0..200u64).map(|r| weakest.choose(&lines, r).unwrap().pv[0]).collect();
//! assert!(chosen.contains(&'a') && chosen.contains(&'b') && !chosen.contains(&'c'));
//! ```

use super::Line;
use crate::rng::Rng;
use crate::score::{is_decisive, Score};

/// The top level: full strength, no limit.
pub const MAX_LEVEL: u32 = 20;

/// How many root moves a limited search finds to choose from.
pub const SKILL_LINES: usize = 4;

/// A game's scale of levels: the node budgets of level 0 and of the level just below [`MAX_LEVEL`], and the
/// noise of level 0 in the game's score units (centipawns in chess), which falls with the square of the
/// distance to [`MAX_LEVEL`], where it is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillScale {
    /// Nodes per move at level 0 and at level `MAX_LEVEL - 1`.
    pub nodes: [u64; 2],
    /// The noise at level 0.
    pub noise: Score,
}

impl SkillScale {
    /// The limits at `level` (clamped to 0 to [`MAX_LEVEL`]); `None` at [`MAX_LEVEL`]: full strength.
    pub fn at(&self, level: f64) -> Option<Skill> {
        let top = MAX_LEVEL as f64;
        let level = if level.is_nan() { top } else { level.clamp(0.0, top) };
        if level >= top {
            return None;
        }
        let [low, high] = self.nodes.map(|n| n.max(1) as f64);
        let t = (level / (top - 1.0)).min(1.0);
        let nodes = (low * (high / low).powf(t)).round() as u64;
        let noise = (self.noise as f64 * (1.0 - level / top).powi(2)).round() as Score;
        Some(Skill { nodes, noise, lines: SKILL_LINES })
    }
}

/// The limits of one level below full strength. See the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// The node budget of a move.
    pub nodes: u64,
    /// The most a chosen move's value may fall short of the best one's.
    pub noise: Score,
    /// How many best root moves the search finds to choose among.
    pub lines: usize,
}

impl Skill {
    /// The line to play among `lines` (a search's best lines, any order), given `random` bits: the line
    /// whose score plus a uniform share of the noise (drawn from `random` and the line's place) is highest;
    /// a decisive score counts as it is, so that a mate found is played and a mate allowed avoided.
    /// `None` if `lines` is empty.
    pub fn choose<'a, M>(&self, lines: &'a [Line<M>], random: u64) -> Option<&'a Line<M>> {
        let mut rng = Rng::new(random);
        lines.iter().max_by_key(|line| {
            let share = rng.unit();
            if is_decisive(line.score) {
                // Mates outrank any noise; the noise still breaks no ties among them.
                (line.score as i64) * 1_000_000
            } else {
                (line.score as f64 * 1000.0 + share * self.noise as f64 * 1000.0) as i64
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{loss_in, win_in};

    fn line(score: Score, mv: u8) -> Line<u8> {
        Line { score, pv: vec![mv] }
    }

    #[test]
    fn levels_run_from_the_lowest_budget_to_full_strength() {
        let scale = SkillScale { nodes: [500, 500_000], noise: 300 };
        let mut last = scale.at(0.0).unwrap();
        assert_eq!(last, Skill { nodes: 500, noise: 300, lines: SKILL_LINES });
        for tenth in 1..200 {
            let skill = scale.at(tenth as f64 / 10.0).unwrap();
            assert!(skill.nodes >= last.nodes && skill.noise <= last.noise, "{skill:?} after {last:?}");
            last = skill;
        }
        assert_eq!(scale.at(19.0).unwrap().nodes, 500_000);
        assert!(scale.at(20.0).is_none() && scale.at(25.0).is_none() && scale.at(f64::NAN).is_none());
        assert_eq!(scale.at(-3.0), scale.at(0.0));
    }

    #[test]
    fn choices_stay_within_the_noise_and_take_mates() {
        let skill = Skill { nodes: 1, noise: 100, lines: 4 };
        let lines = [line(50, 0), line(0, 1), line(-20, 2), line(-51, 3)];
        let mut seen = [0; 4];
        for r in 0..4000 {
            seen[skill.choose(&lines, r).unwrap().pv[0] as usize] += 1;
        }
        // Within the noise every move is sometimes chosen, the best most often; beyond it never.
        assert!(seen[0] > seen[1] && seen[1] > seen[2] && seen[2] > 0 && seen[3] == 0, "{seen:?}");
        let none = Skill { noise: 0, ..skill };
        assert!((0..100).all(|r| none.choose(&lines, r).unwrap().pv[0] == 0));
        // A mate is taken whatever the noise; a line that allows one is avoided.
        let wild = Skill { noise: 10_000, ..skill };
        let mates = [line(900, 0), line(win_in(5), 1), line(loss_in(4), 2)];
        assert!((0..100).all(|r| wild.choose(&mates, r).unwrap().pv[0] == 1));
        let losing = [line(loss_in(2), 0), line(-900, 1)];
        assert!((0..100).all(|r| wild.choose(&losing, r).unwrap().pv[0] == 1));
        assert!(skill.choose::<u8>(&[], 7).is_none());
    }
}
