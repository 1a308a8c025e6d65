//! An independent check of the threat solver's wins.
//!
//! [`verify_win`] replays a claimed win, asking the solver only for the attacker's moves, and judges
//! everything else by direct scans of the board ([`crate::rules`]), never by the pattern tables the
//! solver relies on:
//!
//! - each attacking move is legal (renju forbidden points included) and makes a five, a four (VCF and VCT)
//!   or, in a VCT, a threat of an open four, and does not leave a defender's four unanswered;
//! - against a four, the single blocking point is the only defence (any other move allows the five);
//! - against an open-four threat, **every** legal defender move on the board is tried: either the attacker
//!   then has a five or an open four and the defender no four (a win in at most two more moves), or the
//!   solver must win again from there, and that win is verified in turn;
//! - every line ends in the attacker's five.
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::engine::verify::verify_win;
//! use tabula_gomoku::{Board, Rule, ThreatKind, ThreatSolver};
//!
//! // Black plays j8: two open threes at once (freestyle allows it).
//! let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 a1 i8 o1 j9 a15 j10 o15").unwrap();
//! let mut solver = ThreatSolver::new(4);
//! assert!(solver.find(&board, ThreatKind::Vct, 4, 200_000).is_some());
//! verify_win(&board, ThreatKind::Vct, &mut solver, 4).unwrap();
//! ```

use crate::board::{Board, Point};
use crate::engine::threats::{ThreatKind, ThreatSolver};
use crate::rules;
use crate::types::{Color, CELLS, EMPTY};
use crate::Rule;
use thiserror::Error;

/// Why a claimed win is not a win.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VerifyError {
    /// The solver gave no move where the line needs one.
    #[error("no attacking move found after {0:?}")]
    NoMove(Vec<Point>),
    /// The attacker's move is occupied or forbidden.
    #[error("illegal attacking move {0} after {1:?}")]
    Illegal(Point, Vec<Point>),
    /// The attacker's move lets the defender make five.
    #[error("{0} leaves the defender a five after {1:?}")]
    IgnoresFour(Point, Vec<Point>),
    /// A VCF move that is not a four, or a VCT move that threatens nothing.
    #[error("{0} is not a threat after {1:?}")]
    NotAThreat(Point, Vec<Point>),
    /// The line is longer than the depth allowed.
    #[error("no five within the depth after {0:?}")]
    TooDeep(Vec<Point>),
}

/// Checks that the side to move in `board` wins by `kind` within `depth` attacking moves, the solver naming
/// the attacker's moves. Returns the number of positions checked.
///
/// # Errors
///
/// The first flaw found, with the moves leading to it.
pub fn verify_win(board: &Board, kind: ThreatKind, solver: &mut ThreatSolver, depth: u32) -> Result<u64, VerifyError> {
    let mut b = board.clone();
    let mut checker = Checker { solver, kind, path: Vec::new(), positions: 0 };
    checker.attack(&mut b, depth)?;
    Ok(checker.positions)
}

struct Checker<'a> {
    solver: &'a mut ThreatSolver,
    kind: ThreatKind,
    path: Vec<Point>,
    positions: u64,
}

/// Every empty cell where `color` makes a winning line, by direct scan of the whole board.
fn fives(board: &Board, color: Color) -> Vec<usize> {
    (0..CELLS)
        .filter(|&i| board.cells[i] == EMPTY && rules::would_make_five(&board.cells, i, color, board.rule()))
        .collect()
}

/// Whether `color` may play the empty cell `i`, by the exact renju check.
fn legal(board: &Board, i: usize, color: Color) -> bool {
    board.rule() != Rule::Renju
        || color == Color::White
        || rules::would_make_five(&board.cells, i, color, board.rule())
        || !rules::is_forbidden(&board.cells, i)
}

/// Whether `color` has a legal move that makes two fives (an open four or a double four).
fn has_open_four(board: &mut Board, color: Color) -> bool {
    let mut found = false;
    let mut cells = Vec::new();
    board.for_each_candidate(|i| cells.push(i));
    for i in cells {
        if found || !legal(board, i, color) {
            continue;
        }
        board.place(i, color);
        found = fives(board, color).len() >= 2;
        board.remove(i, color);
    }
    found
}

impl Checker<'_> {
    fn attack(&mut self, board: &mut Board, depth: u32) -> Result<(), VerifyError> {
        self.positions += 1;
        if depth == 0 {
            return Err(VerifyError::TooDeep(self.path.clone()));
        }
        let a = board.side_to_move();
        let d = a.opponent();
        let m = self
            .solver
            .find(board, self.kind, depth, 10_000_000)
            .ok_or_else(|| VerifyError::NoMove(self.path.clone()))?;
        let i = m.index();
        if !board.is_empty_point(m) || !legal(board, i, a) {
            return Err(VerifyError::Illegal(m, self.path.clone()));
        }
        if rules::would_make_five(&board.cells, i, a, board.rule()) {
            return Ok(());
        }
        board.play_unchecked(m);
        self.path.push(m);
        let result = self.after_attack(board, m, a, d, depth);
        self.path.pop();
        board.undo_unchecked(m);
        result
    }

    fn after_attack(&mut self, board: &mut Board, m: Point, a: Color, d: Color, depth: u32) -> Result<(), VerifyError> {
        if !fives(board, d).is_empty() {
            return Err(VerifyError::IgnoresFour(m, self.path.clone()));
        }
        let attacker_fives = fives(board, a);
        if attacker_fives.len() >= 2 {
            return Ok(());
        }
        if let [f] = attacker_fives[..] {
            if !legal(board, f, d) {
                return Ok(());
            }
            return self.reply(board, Point::from_index(f), depth);
        }
        if self.kind == ThreatKind::Vcf || !has_open_four(board, a) {
            return Err(VerifyError::NotAThreat(m, self.path.clone()));
        }
        // Every defence on the whole board.
        for e in 0..CELLS {
            if board.cells[e] != EMPTY || !legal(board, e, d) {
                continue;
            }
            let p = Point::from_index(e);
            board.play_unchecked(p);
            let quick = !fives(board, a).is_empty() || (fives(board, d).is_empty() && has_open_four(board, a));
            board.undo_unchecked(p);
            if !quick {
                self.reply(board, p, depth)?;
            }
        }
        Ok(())
    }

    fn reply(&mut self, board: &mut Board, p: Point, depth: u32) -> Result<(), VerifyError> {
        board.play_unchecked(p);
        self.path.push(p);
        let result = self.attack(board, depth - 1);
        self.path.pop();
        board.undo_unchecked(p);
        result
    }
}
