//! The end of a game by the rules: no legal move, repeated positions under the Asian rules, and the 60-move
//! rule. These read the game's history ([`Position`] keeps it), so a referee and a search can both ask.
//!
//! # Repetition
//!
//! In xiangqi a repetition is not simply a draw. The side that forces it by perpetual check or perpetual
//! chase loses; a repetition that neither side forces is a draw, and so is one that both sides force.
//! [`repetition`] finds the most recent earlier occurrence of the current position (by Zobrist key, back to
//! the last capture), and walks the cycle of moves between the two, tracking for each side:
//!
//! - whether every one of its moves gave check (**perpetual check**);
//! - whether every one of its moves chased, and chased the same enemy piece, followed as it moves around the
//!   cycle (**perpetual chase**);
//! - whether every one of its moves did one or the other, checks among chases of one piece (**check and
//!   chase**, forbidden as well).
//!
//! A move **chases** a piece when it creates a new attack on it (by the piece moved, or uncovered by the move)
//! that is a legal capture, the attacker being neither a king nor a pawn (their attacks never count), the victim being neither
//! the king (that is check) nor a pawn still on its own side of the river, and either the victim is worth more
//! than its attacker (a rook attacked by a horse or cannon; a rook, horse or cannon by an advisor or elephant)
//! or the victim is unprotected: after the capture, its side would have no legal recapture. An attack on a piece
//! of the attacker's own kind that could legally take the attacker back is an offer to exchange, not a chase.
//! Attacks are judged as if the chasing side could move again at once (after a check too), with full
//! legality: a pinned attacker does not chase, and a pinned defender does not protect.
//!
//! These are the core of the Asian (AXF) rules as engines implement them; the rulebook's finer cases (pieces
//! that "cannot move", mate threats, the rulings on a horse with a blocked leg in an exchange) are not
//! modelled. A ruling depends on the path that led to the position, not only on the position: a search that
//! scores forbidden repetitions must not store such scores in a table shared with other paths.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::repetition::{self, Ruling, Violation};
//! use tabula_xiangqi::{Color, Position};
//!
//! // The red rook checks from a8 and a9 while the black king steps between e8 and e9.
//! let mut pos = Position::from_fen("9/4k4/9/9/9/9/9/9/9/R2K5 w").unwrap();
//! for iccs in ["a0a8", "e8e9", "a8a9", "e9e8", "a9a8"] {
//!     pos.play(pos.parse_iccs(iccs).unwrap()).unwrap();
//! }
//! let found = repetition::repetition(&pos).unwrap();
//! assert_eq!(found.occurrences, 2);
//! assert_eq!(found.ruling(), Ruling::Loss { offender: Color::Red, violation: Violation::PerpetualCheck });
//! ```

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::Move;
use crate::position::{Position, NULL_MOVE};
use crate::types::{Color, Role};

/// Plies without a capture after which the game is drawn (60 moves each).
pub const MOVE_LIMIT_PLIES: u32 = 120;

/// How a side forced a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// Every one of its moves in the cycle gave check.
    PerpetualCheck,
    /// Every one of its moves chased the same piece.
    PerpetualChase,
    /// Every one of its moves gave check or chased the same piece, and there were both.
    CheckAndChase,
}

/// The ruling on a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ruling {
    /// Neither side forced the repetition, or both did.
    Draw,
    /// One side forced it, and loses.
    Loss {
        /// The side that forced the repetition.
        offender: Color,
        /// How.
        violation: Violation,
    },
}

/// A repeated position and how each side played the cycle that repeated it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// How many times the current position has occurred since the last capture (2 at the first repetition).
    pub occurrences: u32,
    /// Plies from the most recent earlier occurrence to now.
    pub cycle: usize,
    /// How Red and Black (indexed by [`Color::index`]) forced the cycle, if they did.
    pub forcing: [Option<Violation>; 2],
    /// For each side, the enemy pieces it chased on every move that was not a check (where they stand now).
    pub chased: [Bitboard; 2],
}

impl Repetition {
    /// The ruling: a loss for the only side that forced the repetition, otherwise a draw.
    pub fn ruling(&self) -> Ruling {
        match self.forcing {
            [Some(violation), None] => Ruling::Loss { offender: Color::Red, violation },
            [None, Some(violation)] => Ruling::Loss { offender: Color::Black, violation },
            _ => Ruling::Draw,
        }
    }
}

/// Whether the current position occurred before since the last capture (a cheap scan of the keys; see
/// [`repetition`] for the ruling).
pub fn is_repetition(pos: &Position) -> bool {
    earlier_occurrences(pos).1.is_some()
}

/// The number of earlier occurrences of the current position since the last capture (or null move), and the
/// index in the history of the most recent one.
fn earlier_occurrences(pos: &Position) -> (u32, Option<usize>) {
    let history = pos.history();
    let n = history.len();
    let key = pos.key();
    let window = (pos.halfmove_clock() as usize).min(n);
    let (mut count, mut last) = (0, None);
    for back in 1..=window {
        let i = n - back;
        if history[i].mv == NULL_MOVE {
            break;
        }
        if back % 2 == 0 && history[i].key == key {
            count += 1;
            last.get_or_insert(i);
        }
    }
    (count, last)
}

/// The repetition the current position makes, if it repeats an earlier one: how often, and how each side
/// played the cycle since its most recent occurrence.
pub fn repetition(pos: &Position) -> Option<Repetition> {
    let (earlier, last) = earlier_occurrences(pos);
    let start = last?;
    let history = pos.history();
    let n = history.len();
    let mut walk = pos.clone();
    for _ in start..n {
        walk.undo();
    }
    walk.forget_history();
    let mut moves = [0usize; 2];
    let mut checks = [0usize; 2];
    let mut candidates: [Option<Bitboard>; 2] = [None; 2];
    for record in &history[start..n] {
        let mv = record.mv;
        let mover = walk.turn();
        let (m, o) = (mover.index(), mover.flip().index());
        let before = walk.clone();
        walk.play_unchecked(mv);
        // The other side's candidates are the mover's pieces: follow the one that moved.
        if let Some(c) = candidates[o].as_mut() {
            if c.contains(mv.from()) {
                *c = c.without(mv.from()).with(mv.to());
            }
        }
        moves[m] += 1;
        if walk.is_check() {
            checks[m] += 1;
        } else {
            let chased = chases(&before, mv, &walk);
            candidates[m] = Some(candidates[m].map_or(chased, |c| c & chased));
        }
    }
    let forcing = [0, 1].map(|s| {
        let chasing = candidates[s].is_some_and(Bitboard::any);
        match (checks[s] == moves[s], chasing, checks[s] > 0) {
            (true, _, _) => Some(Violation::PerpetualCheck),
            (false, true, false) => Some(Violation::PerpetualChase),
            (false, true, true) => Some(Violation::CheckAndChase),
            (false, false, _) => None,
        }
    });
    Some(Repetition {
        occurrences: earlier + 1,
        cycle: n - start,
        forcing,
        chased: candidates.map(|c| c.unwrap_or_default()),
    })
}

/// What a piece is worth when judging whether an attack on it counts as a chase even if it is protected.
fn rank(role: Role) -> u8 {
    match role {
        Role::King => 9,
        Role::Rook => 4,
        Role::Horse | Role::Cannon => 2,
        Role::Advisor | Role::Elephant | Role::Pawn => 1,
    }
}

/// Every capture `side`'s pieces could make by their move rules, as (attacker, victim) moves, whether or not
/// legal: what the pieces attack, which only changes where a move changes the lines, legs and eyes.
fn attacks(board: &Board, side: Color) -> Vec<Move> {
    let enemies = board.by_color(side.flip());
    let mut pairs = Vec::new();
    for from in board.by_color(side) {
        let piece = board.piece_at(from).expect("a piece on each square of its colour");
        for to in board.targets(from, piece) & enemies {
            pairs.push(Move::new(from, to));
        }
    }
    pairs
}

/// The enemy pieces that `mv`, played in `before` and leading to `after`, newly chases (squares in `after`).
///
/// An attack is new when the move creates it: the moved piece attacks from its new square what it did not from
/// the old, or the move opened a line, a leg or an eye for another piece. An attack that only becomes legal (an
/// attacker unpinned, or its side out of check) is not new.
pub fn chases(before: &Position, mv: Move, after: &Position) -> Bitboard {
    let board = after.board();
    let mover = before.turn();
    let old: Vec<Move> = attacks(before.board(), mover)
        .into_iter()
        .filter(|c| c.to() != mv.to())
        .map(|c| if c.from() == mv.from() { Move::new(mv.to(), c.to()) } else { c })
        .collect();
    // Whether an attack is a real threat is judged as if the mover could move again at once.
    let mut passed = after.clone();
    passed.pass();
    let mut chased = Bitboard::EMPTY;
    for capture in attacks(board, mover) {
        let (a, v) = (capture.from(), capture.to());
        if old.contains(&capture) || chased.contains(v) {
            continue;
        }
        let attacker = board.piece_at(a).expect("an attacker");
        let victim = board.piece_at(v).expect("a victim");
        if matches!(attacker.role, Role::King | Role::Pawn)
            || victim.role == Role::King
            || (victim.role == Role::Pawn && v.on_side_of(victim.color))
            || !passed.is_legal(capture)
        {
            continue;
        }
        if attacker.role == victim.role && after.is_legal(Move::new(v, a)) {
            continue; // an offer to exchange
        }
        if rank(victim.role) > rank(attacker.role) || !protected(&passed, capture) {
            chased = chased.with(v);
        }
    }
    chased
}

/// Whether, after `capture` in `pos`, the captured piece's side could legally take back on its square.
fn protected(pos: &Position, capture: Move) -> bool {
    let mut taken = pos.clone();
    taken.play_unchecked(capture);
    taken.generate(|_, to| to.contains(capture.to()))
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move has no legal move, in check or not: it has lost.
    NoLegalMove,
    /// A position repeated as often as asked, ruled by [`Repetition::ruling`].
    Repetition(Repetition),
    /// [`MOVE_LIMIT_PLIES`] plies without a capture: a draw.
    MoveLimit,
}

/// The result of a game ended by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub ending: Ending,
}

/// Whether the game has ended by the rules, and how: the side to move without a legal move loses; a position
/// occurring for the `occurrences`-th time (3 for a referee; 2 lets a search rule on the first repetition) is
/// ruled by [`Repetition::ruling`]; [`MOVE_LIMIT_PLIES`] plies without a capture draw.
pub fn adjudicate(pos: &Position, occurrences: u32) -> Option<Verdict> {
    if !pos.has_legal_move() {
        return Some(Verdict { winner: Some(pos.turn().flip()), ending: Ending::NoLegalMove });
    }
    if let Some(found) = repetition(pos).filter(|r| r.occurrences >= occurrences) {
        let winner = match found.ruling() {
            Ruling::Draw => None,
            Ruling::Loss { offender, .. } => Some(offender.flip()),
        };
        return Some(Verdict { winner, ending: Ending::Repetition(found) });
    }
    (pos.halfmove_clock() >= MOVE_LIMIT_PLIES).then_some(Verdict { winner: None, ending: Ending::MoveLimit })
}
