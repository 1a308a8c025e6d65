//! Win, draw and loss chances from a search score, for UCI's `UCI_ShowWDL`: a logistic model of how games
//! from a position with that score end, fitted to our own games.
//!
//! The chance to win with a score of `s` centipawns (for the side to move) is `σ((s − a) / b)`, the chance to
//! lose `σ((−s − a) / b)`, and the draw has the rest, with `σ(x) = 1 / (1 + e^−x)`: `a` is the score at which
//! a win becomes as likely as not, `b` how quickly the chances change around it. Both move with the material
//! left, as the game [phase](crate::engine::eval::phase) `p` from 0 (kings and pawns) to 24 (every piece): each is
//! given at the phases 0, 8, 16 and 24 and taken on a straight line between them. With `a > 0` the win and
//! loss chances never add up to more than one. A mate found is a certain win or loss.
//!
//! The constants of [`MODEL`] were fitted by maximum likelihood to the outcomes of our engine's self-play
//! games at 6,000 nodes a move: 500 games from varied openings, 48,444 quiet positions, each position's
//! search score paired with how the game ended for the side to move (`tabula-lab chess`, steps `wdl-gen`
//! and `wdl-fit`). The mean log-loss of the outcomes is 0.760 nats, against 1.093 for the base rates alone
//! (31 % won, 38 % drawn, 31 % lost). The fit says what such games say: in the middlegame a score of about
//! 1.1 to 1.6 pawns wins as often as not, while with little material left the engine at that speed often
//! fails to convert a large advantage, so there the chances rise slowly.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::engine::wdl::{Wdl, MODEL};
//!
//! // Level: mostly draws, as many wins as losses.
//! let even = MODEL.wdl(0, 24);
//! assert_eq!(even.win, even.loss);
//! assert!(even.draw > even.win && even.win + even.draw + even.loss == 1000);
//! // Three pawns up in the middlegame: mostly wins; with kings and pawns alone, fewer (see above).
//! assert!(MODEL.wdl(300, 16).win > 700 && MODEL.wdl(300, 0).win < MODEL.wdl(300, 16).win);
//! // A mate in three.
//! assert_eq!(MODEL.wdl(tabula::score::win_in(5), 10), Wdl { win: 1000, draw: 0, loss: 0 });
//! ```

use tabula::score::{is_decisive, Score};

/// Chances in per mille: win, draw and loss for the side to move, adding up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Per mille of wins.
    pub win: u32,
    /// Per mille of draws.
    pub draw: u32,
    /// Per mille of losses.
    pub loss: u32,
}

impl Wdl {
    /// The expected score, from 0 (a certain loss) to 1 (a certain win).
    pub fn expected(&self) -> f64 {
        (self.win as f64 + self.draw as f64 / 2.0) / 1000.0
    }
}

/// The logistic model of win and loss chances (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// The score, in centipawns, at which a win is as likely as not, at the phases of [`KNOTS`].
    pub a: [f64; 4],
    /// The spread of the chances around it, in centipawns, at the same phases.
    pub b: [f64; 4],
}

/// The phases at which the model's constants are given.
pub const KNOTS: [i32; 4] = [0, 8, 16, 24];

/// The model fitted to our self-play (see the [module documentation](self)).
pub const MODEL: Model = Model { a: [1126.1, 156.1, 111.5, 123.3], b: [680.1, 108.0, 120.3, 165.8] };

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Model {
    /// The chances to win, draw and lose (each from 0 to 1) with a score of `centipawns` at `phase` (0 to 24),
    /// for the side to move.
    pub fn chances(&self, centipawns: f64, phase: i32) -> (f64, f64, f64) {
        let at = |values: &[f64; 4]| {
            let p = phase.clamp(KNOTS[0], KNOTS[3]);
            let k = KNOTS.windows(2).position(|w| p <= w[1]).unwrap_or(2);
            let t = (p - KNOTS[k]) as f64 / (KNOTS[k + 1] - KNOTS[k]) as f64;
            values[k] + (values[k + 1] - values[k]) * t
        };
        let a = at(&self.a);
        // (A spread near zero would make the chances a step; keep them a slope.)
        let b = at(&self.b).max(1.0);
        let win = sigmoid((centipawns - a) / b);
        let loss = sigmoid((-centipawns - a) / b);
        (win, (1.0 - win - loss).max(0.0), loss)
    }

    /// The chances in per mille for a search score at `phase`; a mate found is a certain win or loss.
    pub fn wdl(&self, score: Score, phase: i32) -> Wdl {
        if is_decisive(score) {
            let win = score > 0;
            return Wdl { win: 1000 * win as u32, draw: 0, loss: 1000 * !win as u32 };
        }
        let (win, _, loss) = self.chances(score as f64, phase);
        let (win, loss) = ((win * 1000.0).round() as u32, (loss * 1000.0).round() as u32);
        let loss = loss.min(1000 - win);
        Wdl { win, draw: 1000 - win - loss, loss }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_are_symmetric_monotonic_and_add_up() {
        for phase in [0, 6, 12, 24, 30] {
            let mut last = MODEL.wdl(-3000, phase);
            for score in (-3000..=3000).step_by(25) {
                let wdl = MODEL.wdl(score, phase);
                assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "{score} {phase}");
                let mirror = MODEL.wdl(-score, phase);
                assert_eq!((wdl.win, wdl.loss), (mirror.loss, mirror.win), "{score} {phase}");
                assert!(wdl.win >= last.win && wdl.loss <= last.loss, "{score} {phase}");
                last = wdl;
            }
            assert!(last.win > 900, "{last:?}");
        }
        assert_eq!(MODEL.wdl(tabula::score::loss_in(4), 24), Wdl { win: 0, draw: 0, loss: 1000 });
        assert_eq!(Wdl { win: 500, draw: 300, loss: 200 }.expected(), 0.65);
    }
}
