//! The [`Game`] the core's searches play on a [`Board`].
//!
//! Moves are the empty points within two steps along a line of some stone (the centre on an empty board),
//! minus renju forbidden points for black: far points almost never matter and leaving them out cuts the
//! branching factor by three. The tactical hooks are exact and come from [`Board::forced`]:
//! [`winning_move`](tabula::game::Hooks::winning_move) finds a five,
//! [`non_losing_moves`](tabula::game::Hooks::non_losing_moves) answers a four by blocking it (or reports the loss
//! to two fives), and [`in_check`](tabula::game::Hooks::in_check) says a five is to be made or stopped, so that with the
//! search's check extension a four costs the attacker no depth and lines of fours end in exact scores.
//!
//! # Examples
//!
//! ```
//! use tabula::game::{Game, HookedGame, WinningMove};
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
use crate::types::Color;
use tabula::game::{Game, Hooks, Outcome, PieceTo, Remaining, WinningMove};
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

    /// The tactics of fives and fours (a four is a check), and the plies left on the board.
    const HOOKS: Hooks<Board> = Hooks {
        winning_move: Some(winning_move),
        non_losing_moves: Some(non_losing_moves),
        in_check: Some(in_check),
        remaining: Some(remaining),
        piece_to: Some(PieceTo { codes: PIECE_TO_CODES, code: piece_to }),
        ..Hooks::NONE
    };
}

/// The number of piece-to codes: each colour's stone on each point of the largest board.
const PIECE_TO_CODES: usize = Color::COUNT * MAX_SIZE * MAX_SIZE;

/// The colour of the stone the move places (black 0, white 1) times the points of the largest board, plus
/// the point's code: for the continuation history, which remembers what answered what.
#[inline(always)]
fn piece_to(board: &Board, mv: Point) -> u16 {
    let colour = usize::from(board.side_to_move() == Color::White);
    (colour * MAX_SIZE * MAX_SIZE) as u16 + mv.code()
}

/// A five to complete, else none within reach.
fn winning_move(board: &Board) -> WinningMove<Point> {
    match board.forced() {
        Forced::Win(p) => WinningMove::Found(p),
        _ => WinningMove::NoneExists,
    }
}

/// Every legal move when nothing is forced; the block of the opponent's four (or one's own five); none when
/// the opponent has two fours to complete.
fn non_losing_moves(board: &Board, moves: &mut Vec<Point>) -> Option<usize> {
    let before = moves.len();
    match board.forced() {
        Forced::Free => board.legal_moves(moves),
        Forced::Block(p) | Forced::Win(p) => moves.push(p),
        Forced::Lost(_) => {}
    }
    Some(moves.len() - before)
}

/// A four of either side on the board: a move is forced.
fn in_check(board: &Board) -> bool {
    board.forced() != Forced::Free
}

/// The empty points: every ply fills one.
fn remaining(board: &Board) -> Option<Remaining> {
    Some(Remaining { plies: (board.width() * board.height() - board.moves().len()) as u32, margin: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;
    use tabula::game::HookedGame;

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

    /// Every move's code is in range, and two moves share one only when they are the same stone on the
    /// same point (a colour's moves on different boards and plies alike).
    #[test]
    fn piece_to_codes_are_in_range_and_one_per_stone_and_point() {
        let hook = Board::HOOKS.piece_to.unwrap();
        assert_eq!(hook.codes, 2 * MAX_SIZE * MAX_SIZE);
        let mut seen = std::collections::HashMap::new();
        for (size, moves) in [(15, "h8 i9 j10"), (15, "h8 i9"), (20, "a1 t20 k10"), (MAX_SIZE, "a1")] {
            let board = Board::from_moves(size, size, Rule::Freestyle, moves).unwrap();
            let mut legal = Vec::new();
            board.legal_moves(&mut legal);
            for mv in legal {
                let code = HookedGame::piece_to(&board, mv);
                assert!(usize::from(code) < hook.codes, "{moves} {mv:?}");
                let stone = (board.side_to_move(), mv);
                assert_eq!(*seen.entry(code).or_insert(stone), stone, "{moves} {mv:?}");
            }
        }
    }
}
