//! The [`Game`] the core searcher plays, and the [`Eval`] evaluator.
//!
//! Moves are the empty points within two steps along a line of some stone (the centre on an empty board),
//! minus renju forbidden points for black: far points almost never matter and leaving them out cuts the
//! branching factor by three. The tactical hooks are exact and come from [`Board::forced`]:
//! [`Game::winning_move`] finds a five, [`Game::non_losing_moves`] answers a four by blocking it (or reports
//! the loss to two fives), and [`Game::in_check`] says a five is to be made or stopped, so that with the
//! search's check extension a four costs the attacker no depth and lines of fours end in exact scores.
//!
//! [`Eval`] scores a position from the line patterns of every candidate point for both sides: what each
//! side would make by playing there, with bonuses for the combinations that win (four-three, three-three,
//! double four). The side to move plays first, so its own threats count for more: a four of its own is a
//! win next move, an open-four point a win in three plies unless the opponent has a four.
//!
//! # Examples
//!
//! ```
//! use tabula::game::{Evaluator, Game, WinningMove};
//! use tabula_gomoku::{Board, Eval, Rule};
//!
//! let board = Board::from_moves(15, 15, Rule::Standard, "h8 a1 i8 a2 j8 a3 k8 a4").unwrap();
//! let WinningMove::Found(win) = board.winning_move() else { panic!() };
//! assert!(["g8", "l8"].contains(&board.format_point(win).as_str()));
//! assert!(Eval.evaluate(&board) > 10_000);
//! ```

use crate::board::{Board, Color, Forced, Point, MAX_SIZE};
use crate::pattern::Pattern;
use tabula::game::{Evaluator, Game, Outcome, Remaining, WinningMove};
use tabula::score::Score;
use tabula::zobrist::Key;

/// The value of one line pattern for the side that would make it.
const PATTERN_VALUE: [i32; Pattern::COUNT] = [0, 1, 3, 10, 12, 60, 70, 1_000, 1_000, 10_000, 0];
/// A point that makes five.
const FIVE_VALUE: i32 = 10_000;
/// A point that makes an open four, two fours or a four-three.
const WINNING_SHAPE: i32 = 1_000;

/// The value for `color` of playing the empty cell `i`: its four line patterns and their combination.
#[inline]
pub(crate) fn point_value(board: &Board, i: usize, color: Color) -> i32 {
    let pats = board.patterns_at(i, color);
    let mut value = 0;
    let (mut fours, mut threes) = (0, 0);
    for p in pats {
        value += PATTERN_VALUE[p as usize];
        fours += p.is_four() as i32;
        threes += (p == Pattern::FlexThree) as i32;
    }
    if value >= FIVE_VALUE {
        return if board.makes_five_at(i, color) { FIVE_VALUE } else { 0 };
    }
    if fours >= 2 || (fours >= 1 && threes >= 1) {
        value += WINNING_SHAPE;
    } else if threes >= 2 {
        value += WINNING_SHAPE / 2;
    }
    if value >= WINNING_SHAPE / 2 && !board.is_legal_at(i, color) {
        return 0;
    }
    value
}

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

/// The evaluator: line patterns of every candidate point for both sides. See the [module documentation](self).
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl Evaluator<Board> for Eval {
    fn evaluate(&self, board: &Board) -> Score {
        let me = board.side_to_move();
        let them = me.opponent();
        let (mut mine, mut theirs) = (0i32, 0i32);
        let (mut my_best, mut their_fives, mut their_best) = (0i32, 0, 0i32);
        board.for_each_candidate(|i| {
            let m = point_value(board, i, me);
            let t = point_value(board, i, them);
            mine += m;
            theirs += t;
            my_best = my_best.max(m);
            their_best = their_best.max(t);
            their_fives += (t >= FIVE_VALUE) as i32;
        });
        // Step 1. Tactics the side to move settles first.
        if my_best >= FIVE_VALUE {
            return 20_000;
        }
        if their_fives >= 2 {
            return -20_000;
        }
        if their_fives == 0 && my_best >= WINNING_SHAPE {
            return 15_000;
        }
        // Step 2. Everything else: a weighted balance, the side to move's threats counting more.
        let tempo = if their_fives == 0 { my_best / 2 } else { 0 };
        ((mine * 6 - theirs * 5) / 5 + tempo - their_best / 4).clamp(-12_000, 12_000)
    }

    fn move_order(&self, board: &Board, mv: Point) -> i32 {
        let i = mv.index();
        let me = board.side_to_move();
        let attack = point_value(board, i, me);
        let defence = point_value(board, i, me.opponent());
        attack + defence * 4 / 5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::search::verify::check_all;

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

    use crate::Rule;

    #[test]
    fn searches_agree_with_minimax_on_small_boards() {
        for (rule, moves) in
            [(Rule::Freestyle, "c3 c4 d3 d4"), (Rule::Standard, "c3 b2 d4 e5 b4"), (Rule::Renju, "c3 d3 c4 d5")]
        {
            let board = Board::from_moves(6, 6, rule, moves).unwrap();
            for depth in 1..=3 {
                check_all(&board, &Eval, depth).unwrap_or_else(|m| panic!("{rule} {moves}: {m}"));
            }
        }
    }
}
