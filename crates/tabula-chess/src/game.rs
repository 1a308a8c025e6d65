//! [`tabula::Game`] for [`Position`]: what the core's searches need from chess.

use crate::moves::Move;
use crate::position::Position;
use tabula::game::{Hooks, Outcome, PieceTo, Repetition};

tabula_board::board_game!(Position, Move, {
    /// Checkmate is a loss for the side to move; stalemate, the fifty-move rule (100 half-moves without a
    /// capture or pawn move, unless the last of them mated) and insufficient material are draws.
    fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(if self.is_check() { Outcome::Loss } else { Outcome::Draw });
        }
        if self.halfmove_clock() >= 100 || self.is_insufficient_material() {
            return Some(Outcome::Draw);
        }
        None
    }

    /// Checks, the null move, repetitions (draws, within the fifty-move window) and piece-to codes.
    const HOOKS: Hooks<Position> = Hooks {
        in_check: Some(Position::is_check),
        null_move: Some(null_move),
        repetition: Some(Repetition::draws(reversible_plies)),
        piece_to: Some(PieceTo { codes: 12 * 64, code: piece_to }),
        ..Hooks::NONE
    };
});

/// The moving piece (colour and role, 0 to 11) times 64 plus the destination; a castling move is the king's to
/// the rook's square.
#[inline(always)]
fn piece_to(pos: &Position, mv: Move) -> u16 {
    match pos.board().piece_at(mv.from()) {
        Some(p) => ((p.color.index() * 6 + p.role.index()) * 64 + mv.to().index()) as u16,
        None => 0,
    }
}

/// [`Move::NULL`] when not in check and the side to move has a piece besides pawns and king (pawn endings are
/// where zugzwang makes passing unsound).
#[inline]
fn null_move(pos: &Position) -> Option<Move> {
    (!pos.is_check() && pos.has_non_pawn_material()).then_some(Move::NULL)
}

/// Plies since the last capture or pawn move.
#[inline]
fn reversible_plies(pos: &Position) -> usize {
    pos.halfmove_clock() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::game::HookedGame;
    use tabula_board::testing::{check_null_move, check_outcomes};

    #[test]
    fn outcomes() {
        check_outcomes(
            |fen| Position::from_fen(fen).unwrap(),
            &[
                ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", Some(Outcome::Loss)),
                ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Some(Outcome::Draw)),
                ("7k/8/6K1/8/8/8/8/6N1 b - - 0 1", Some(Outcome::Draw)),
                ("7k/8/6K1/8/8/8/8/5BB1 b - - 0 1", None),
                ("7k/8/6K1/8/8/8/8/6R1 b - - 99 80", None),
                ("7k/8/6K1/8/8/8/8/6R1 b - - 100 80", Some(Outcome::Draw)),
                // Mate on the hundredth half-move is still mate.
                ("R6k/8/6K1/8/8/8/8/8 b - - 100 80", Some(Outcome::Loss)),
                ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", None),
            ],
        );
    }

    #[test]
    fn null_move_hooks() {
        let mut pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K1N1 w - d6 0 1").unwrap();
        assert_eq!(HookedGame::null_move(&pos), Some(Move::NULL));
        check_null_move(&mut pos, Move::NULL, Position::key_from_scratch, |pos| {
            assert_eq!(pos.ep_square(), None);
            assert_eq!(HookedGame::null_move(pos), None); // Black has only pawns
        });
        assert_eq!(pos.to_fen(), "4k3/8/8/3pP3/8/8/8/4K1N1 w - d6 0 1");
    }
}
