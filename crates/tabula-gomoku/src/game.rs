//! The [`Game`] the core's searches play on a [`Board`].
//!
//! Moves are the empty points within two steps along a line of some stone (the centre on an empty board),
//! minus renju forbidden points for black: far points almost never matter and leaving them out cuts the
//! branching factor by three. The tactical hooks are exact and come from [`Board::forced`]:
//! [`Game::winning_move`] finds a five, [`Game::non_losing_moves`] answers a four by blocking it (or reports
//! the loss to two fives), and [`Game::in_check`] says a five is to be made or stopped, so that with the
//! search's check extension a four costs the attacker no depth and lines of fours end in exact scores.
//!
//! # Examples
//!
//! ```
//! use tabula::game::{Game, WinningMove};
//! use tabula_gomoku::{Board, Rule};
//!
//! let board = Board::from_moves(15, 15, Rule::Standard, "h8 a1 i8 a2 j8 a3 k8 a4").unwrap();
//! let WinningMove::Found(win) = board.winning_move() else { panic!() };
//! assert!(["g8", "l8"].contains(&board.format_point(win).as_str()));
//! let mut moves = Vec::new();
//! board.legal_moves(&mut moves);
//! assert!(moves.contains(&win) && moves.len() < 15 * 15 - 8);
//! ```

use crate::board::{Board, Forced, Point, MAX_SIZE};
use tabula::game::{Game, Outcome, Remaining, WinningMove};
use tabula::zobrist::Key;

impl Game for Board {
    type Move = Point;

    fn legal_moves(&self, moves: &mut Vec<Point>) {
        if self.moves().is_empty() {
            moves.push(self.center());
            return;
        }
        let color = self.side_to_move();
        self.for_each_candidate(|i| {
            if self.is_legal_at(i, color) {
                moves.push(Point::from_index(i));
            }
        });
    }

    fn play(&mut self, mv: Point) {
        self.play_unchecked(mv);
    }

    fn undo(&mut self, mv: Point) {
        self.undo_unchecked(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.winner().is_some() {
            Some(Outcome::Loss)
        } else if self.is_full() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn key(&self) -> Key {
        Board::key(self)
    }

    fn move_code(mv: Point) -> u16 {
        mv.code()
    }

    const MOVE_CODES: usize = MAX_SIZE * MAX_SIZE;

    fn winning_move(&self) -> WinningMove<Point> {
        match self.forced() {
            Forced::Win(p) => WinningMove::Found(p),
            _ => WinningMove::NoneExists,
        }
    }

    fn non_losing_moves(&self, moves: &mut Vec<Point>) -> Option<usize> {
        let before = moves.len();
        match self.forced() {
            Forced::Free => self.legal_moves(moves),
            Forced::Block(p) | Forced::Win(p) => moves.push(p),
            Forced::Lost(_) => {}
        }
        Some(moves.len() - before)
    }

    fn in_check(&self) -> bool {
        self.forced() != Forced::Free
    }

    fn remaining(&self) -> Option<Remaining> {
        Some(Remaining { plies: (self.width() * self.height() - self.moves().len()) as u32, margin: 0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;

    #[test]
    fn tactics_hooks_are_exact() {
        let board = Board::from_moves(15, 15, Rule::Freestyle, "a1 h8 a3 i8 a5 j8 a7 k8 o15").unwrap();
        // White to move: five at g8 or l8.
        assert!(matches!(board.winning_move(), WinningMove::Found(_)));
        // Black blocked g8; white still has l8, and black to move must take it.
        let black = Board::from_moves(15, 15, Rule::Freestyle, "a1 h8 a3 i8 a5 j8 a7 k8 g8 o15").unwrap();
        let mut moves = Vec::new();
        assert_eq!(black.non_losing_moves(&mut moves), Some(1));
        assert_eq!(moves, vec![black.parse_point("l8").unwrap()]);
        assert!(black.in_check());
        let open = Board::from_moves(15, 15, Rule::Freestyle, "a1 h8 a3 i8 a5 j8 a7 k8").unwrap();
        // Black to move, white has an open four: nothing saves black.
        let mut moves = Vec::new();
        assert_eq!(open.non_losing_moves(&mut moves), Some(0));
        assert!(moves.is_empty());
    }
}
