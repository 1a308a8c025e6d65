//! Judgement for depth-limited play and move ordering for the solver.

use crate::board::{Board, Column};
use tabula::game::Evaluator;
use tabula::Score;

/// Scores a position by the difference in cells where each side would complete four, and orders moves by
/// the number of such cells a move creates for the mover (Pons's ordering), centre first on ties. The count is
/// scaled so that it outranks the history heuristic, which only breaks its ties.
#[derive(Clone, Copy, Debug, Default)]
pub struct Threats;

/// The move-order hint of one threat: more than the history heuristic's whole range (±2^14).
const THREAT_HINT: i32 = 1 << 15;

impl<const W: usize, const H: usize> Evaluator<Board<W, H>> for Threats {
    fn evaluate(&self, board: &Board<W, H>) -> Score {
        board.own_threats().count_ones() as Score - board.opponent_threats().count_ones() as Score
    }

    #[inline(always)]
    fn move_order(&self, board: &Board<W, H>, col: Column) -> i32 {
        board.threats_after(col) as i32 * THREAT_HINT
    }
}
