//! [`tabula::Game`] for [`Position`]: what the core's searches need from xiangqi.
//!
//! The rules' own parts: the side without a legal move loses (checkmated or stalemated alike); 120 plies
//! without a capture draw ([`MOVE_LIMIT_PLIES`]); a repeated position is ruled by the Asian rules through
//! [`Repetition::outcome`](tabula::game::Repetition::outcome), which walks the position's own history (perpetual check
//! or chase loses for the side that forced it, anything else draws). The search hooks: checks (extended,
//! answered in quiescence), a null move when the side to move is not in check and still has a rook, horse or
//! cannon (without them zugzwang is common), the plies since the last capture as the window in which
//! positions can repeat, and piece-to codes (the moving piece and its destination) for the continuation history.
//!
//! A ruling depends on the path, not on the position, so a score that rests on one must not reach the table,
//! where another path would read it. The core's searcher sees to that: it counts the rulings other than a draw
//! met below each node and stores nothing for a node whose subtree met one (the draws, which any path would
//! also reach by repeating, are stored as guesses, never as proved values).
//!
//! # Examples
//!
//! ```
//! use tabula::game::{HookedGame, Outcome};
//! use tabula_xiangqi::Position;
//!
//! // The red rook checks from a8 and a9 while the black king steps between e8 and e9: when the position
//! // repeats, Red has checked on every move and loses; Black, to move, wins.
//! let mut pos = Position::from_fen("9/4k4/9/9/9/9/9/9/9/R2K5 w").unwrap();
//! for iccs in ["a0a8", "e8e9", "a8a9", "e9e8", "a9a8"] {
//!     pos.play(pos.parse_iccs(iccs).unwrap()).unwrap();
//! }
//! assert_eq!(HookedGame::repetition_outcome(&pos, 4), Outcome::Win);
//! ```

use crate::moves::Move;
use crate::position::Position;
use crate::repetition::{self, Ruling, MOVE_LIMIT_PLIES};
use crate::types::{Color, Role, Square};
use tabula::game::{Hooks, Outcome, PieceTo, Repetition};

tabula_board::board_game!(Position, Move, {
    /// No legal move loses (in xiangqi stalemate loses too); 120 plies without a capture draw, unless the last
    /// of them left the opponent without a move.
    fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(Outcome::Loss);
        }
        (self.halfmove_clock() >= MOVE_LIMIT_PLIES).then_some(Outcome::Draw)
    }

    /// Checks, the null move, repetitions within the move-limit window (ruled by the Asian rules) and piece-to
    /// codes.
    const HOOKS: Hooks<Position> = Hooks {
        in_check: Some(Position::is_check),
        null_move: Some(null_move),
        repetition: Some(Repetition { reversible_plies, outcome: repetition_outcome }),
        piece_to: Some(PieceTo { codes: PIECE_TO_CODES, code: piece_to }),
        ..Hooks::NONE
    };
});

/// The number of piece-to codes: 14 pieces (colour and role) times 90 points.
const PIECE_TO_CODES: usize = Color::COUNT * Role::COUNT * Square::COUNT;

/// The moving piece (colour and role, 0 to 13) times 90 plus the destination.
#[inline(always)]
fn piece_to(pos: &Position, mv: Move) -> u16 {
    match pos.board().piece_at(mv.from()) {
        Some(p) => ((p.color.index() * Role::COUNT + p.role.index()) * Square::COUNT + mv.to().index()) as u16,
        None => 0,
    }
}

/// [`Move::NULL`] when not in check and the side to move has a rook, horse or cannon.
#[inline]
fn null_move(pos: &Position) -> Option<Move> {
    (!pos.is_check() && pos.has_attacking_pieces()).then_some(Move::NULL)
}

/// Plies since the last capture.
#[inline(always)]
fn reversible_plies(pos: &Position) -> usize {
    pos.halfmove_clock() as usize
}

/// The Asian rules' ruling on the cycle since the position last occurred: a loss for the side to move if it
/// alone forced the repetition by perpetual check or chase, a win if its opponent alone did, else a draw (also
/// when the cycle crosses a null move of the search, which is no move of the game).
fn repetition_outcome(pos: &Position, cycle: usize) -> Outcome {
    match repetition::repetition(pos) {
        Some(found) if found.cycle == cycle => match found.ruling() {
            Ruling::Draw => Outcome::Draw,
            Ruling::Loss { offender, .. } if offender == pos.turn() => Outcome::Loss,
            Ruling::Loss { .. } => Outcome::Win,
        },
        _ => Outcome::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::game::{Game, HookedGame};
    use tabula_board::testing::{check_null_move, check_outcomes};

    #[test]
    fn outcomes() {
        check_outcomes(
            |fen| Position::from_fen(fen).unwrap(),
            &[
                // Checkmated by two rooks, and stalemated: both lose.
                ("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1", Some(Outcome::Loss)),
                ("4k4/3R5/9/9/9/9/9/9/9/3K1R3 b - - 0 1", Some(Outcome::Loss)),
                // The 60-move rule: 120 plies without a capture.
                ("3k5/9/9/9/9/9/9/9/9/4K4 b - - 119 80", None),
                ("3k5/9/9/9/9/9/9/9/9/4K4 b - - 120 80", Some(Outcome::Draw)),
                // Mate on the hundred-and-twentieth ply is still mate.
                ("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 120 80", Some(Outcome::Loss)),
                ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", None),
            ],
        );
    }

    /// Every legal move of the start and of a middlegame has a code below the count, and the codes tell the
    /// moving piece and destination apart: two moves share a code only if they move the same piece to the
    /// same point.
    #[test]
    fn piece_to_codes_are_in_range_and_distinct() {
        let hook = Position::HOOKS.piece_to.unwrap();
        assert_eq!(hook.codes, 1260);
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mut seen = std::collections::HashMap::new();
            for &mv in pos.legal_moves().as_slice() {
                let code = HookedGame::piece_to(&pos, mv);
                assert!(usize::from(code) < hook.codes, "{fen} {mv}");
                let piece = pos.board().piece_at(mv.from()).unwrap();
                if let Some(&(other, to)) = seen.get(&code) {
                    assert_eq!((other, to), (piece, mv.to()), "{fen} {mv}");
                }
                seen.insert(code, (piece, mv.to()));
            }
        }
    }

    #[test]
    fn idle_repetition_is_a_draw() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
        for iccs in ["e1f2", "d9d8", "f2e1", "d8d9"] {
            pos.play(pos.parse_iccs(iccs).unwrap()).unwrap();
        }
        assert_eq!(HookedGame::repetition_outcome(&pos, 4), Outcome::Draw);
    }

    #[test]
    fn null_move_hooks() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/3p5/4K4 w - - 0 1").unwrap();
        assert_eq!(HookedGame::null_move(&pos), None); // no attacking piece
        let mut pos2 = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4KR3 w - - 0 1").unwrap();
        assert_eq!(HookedGame::null_move(&pos2), Some(Move::NULL));
        check_null_move(&mut pos2, Move::NULL, Position::key_from_scratch, |_| {});
        let legal = pos.legal_moves();
        Game::play(&mut pos, legal[0]);
        Game::undo(&mut pos, legal[0]);
        assert_eq!(pos.to_fen(), "3k5/9/9/9/9/9/9/9/3p5/4K4 w - - 0 1");
    }
}
