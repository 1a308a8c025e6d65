//! [`tabula::Game`] for [`Position`]: what the core's searches need from chess.

use crate::moves::Move;
use crate::position::Position;
use crate::types::Role;
use tabula::game::{Game, Outcome};
use tabula::Key;

impl Game for Position {
    type Move = Move;

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.legal_moves_into(moves);
    }

    fn play(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    fn undo(&mut self, mv: Move) {
        let undone = Position::undo(self);
        debug_assert_eq!(undone, Some(mv), "undo of a move that was not the last one played");
    }

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

    fn key(&self) -> Key {
        Position::key(self)
    }

    /// Origin, destination and promotion in 15 bits.
    fn move_code(mv: Move) -> u16 {
        mv.code()
    }

    const MOVE_CODES: usize = Move::CODES;

    /// Captures that do not lose material by [`see`](crate::eval::see), and queen promotions: the moves worth
    /// resolving at the horizon.
    fn noisy_moves(&self, moves: &mut Vec<Move>) {
        self.noisy_moves_into(moves);
        moves.retain(|&mv| match mv.promotion() {
            Some(role) => role == Role::Queen,
            None => crate::eval::see(self, mv) >= 0,
        });
    }

    fn in_check(&self) -> bool {
        self.is_check()
    }

    /// Captures and promotions.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.promotion().is_some() || self.is_capture(mv)
    }

    /// Not in check, and the side to move has a piece besides pawns and king (pawn endings are where zugzwang
    /// makes passing unsound).
    fn null_move_allowed(&self) -> bool {
        !self.is_check() && self.has_non_pawn_material()
    }

    fn play_null(&mut self) {
        Position::play_null(self);
    }

    fn undo_null(&mut self) {
        Position::undo_null(self);
    }

    fn reversible_plies(&self) -> Option<usize> {
        Some(self.halfmove_clock() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes() {
        let outcome = |fen: &str| Game::outcome(&Position::from_fen(fen).unwrap());
        assert_eq!(outcome("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"), Some(Outcome::Loss));
        assert_eq!(outcome("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), Some(Outcome::Draw));
        assert_eq!(outcome("7k/8/6K1/8/8/8/8/6N1 b - - 0 1"), Some(Outcome::Draw));
        assert_eq!(outcome("7k/8/6K1/8/8/8/8/5BB1 b - - 0 1"), None);
        assert_eq!(outcome("7k/8/6K1/8/8/8/8/6R1 b - - 99 80"), None);
        assert_eq!(outcome("7k/8/6K1/8/8/8/8/6R1 b - - 100 80"), Some(Outcome::Draw));
        // Mate on the hundredth half-move is still mate.
        assert_eq!(outcome("R6k/8/6K1/8/8/8/8/8 b - - 100 80"), Some(Outcome::Loss));
        assert_eq!(outcome("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), None);
    }

    #[test]
    fn noisy_moves_are_winning_captures_and_queen_promotions() {
        let pos = Position::from_fen("r3k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
        let mut noisy = Vec::new();
        Game::noisy_moves(&pos, &mut noisy);
        let mut names: Vec<String> = noisy.iter().map(Move::to_string).collect();
        names.sort();
        assert_eq!(names, ["b7a8q", "b7b8q", "e5d6"]);
        // The queen taking a defended pawn is left out.
        let pos = Position::from_fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
        noisy.clear();
        Game::noisy_moves(&pos, &mut noisy);
        assert!(noisy.is_empty());
    }

    #[test]
    fn null_move_hooks() {
        let mut pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K1N1 w - d6 0 1").unwrap();
        assert!(Game::null_move_allowed(&pos));
        let key = pos.key();
        pos.play_null();
        assert_eq!(pos.ep_square(), None);
        assert_eq!(pos.key(), pos.key_from_scratch());
        assert!(!Game::null_move_allowed(&pos)); // Black has only pawns
        pos.undo_null();
        assert_eq!(pos.key(), key);
        assert_eq!(pos.to_fen(), "4k3/8/8/3pP3/8/8/8/4K1N1 w - d6 0 1");
    }
}
