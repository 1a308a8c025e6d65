//! A static evaluation: [`evaluate`] scores a position for the side to move, in hundredths of an (uncrossed)
//! pawn, from four terms that [`terms`] reports separately (each from Red's side, positive good for Red):
//!
//! - **Material** ([`VALUE`]): rook 900, cannon 450, horse 400, advisor and elephant 200, pawn 100. As the
//!   attacking material (rooks, horses, cannons) leaves the board, horses gain up to 50 and cannons lose up to
//!   50 (a cannon needs screens), and each advisor and elephant loses up to 40 (fewer attackers to parry).
//! - **Placement**: a piece-square bonus per piece ([`placement`]), the same table for both sides with Black's
//!   squares mirrored across the river. A pawn across the river gains 70 and more as it nears the palace, less on
//!   the last rank where it can only go sideways; horses like the centre and the squares beside the enemy palace,
//!   cannons the centre file, rooks the river bank and the enemy half; a king that has left its back rank loses.
//! - **Mobility**: per square a rook (4), horse (10) or cannon (2) can reach, and 20 off a horse with at most one
//!   move (horses are the pieces most often smothered).
//! - **King safety**: attack units on the palace (rook 3, horse and cannon 2, a pawn across the river 1, for each
//!   piece reaching a palace point) cost `4 * units² + 3 * points reached` when two units or more attack, and
//!   `2 * points` otherwise; each missing advisor costs 15 and each missing elephant 10 per attacking piece the
//!   other side has (at most three); a cannon on the king's file or rank with nothing between (an
//!   "empty-headed cannon", 空头炮) costs 120.
//!
//! The side to move gets [`TEMPO`]. The evaluation is symmetric: the position seen from the other side
//! ([`Position::mirrored`]) or mirrored left to right scores the same. Its weights are set by hand from the
//! usual xiangqi values, not fitted to data.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::engine::eval::{evaluate, terms, TEMPO};
//! use tabula_xiangqi::Position;
//!
//! // The starting position is balanced, up to the tempo.
//! assert_eq!(evaluate(&Position::startpos()), TEMPO);
//! // Without its left rook Black is a lot worse.
//! let pos = Position::from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
//! assert!(evaluate(&pos) > 800);
//! assert!(terms(&pos).material >= 900);
//! ```

use crate::board::Board;
use crate::engine::see::{capture_order, see, SEE_VALUE};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};
use tabula::game::{Evaluator, EvaluatorHooks};
use tabula::score::Score;

/// The material value of each role, by [`Role::index`] (the king's is 0: it is never traded).
pub const VALUE: [Score; Role::COUNT] = [0, 200, 200, 400, 900, 450, 100];

/// The bonus of the side to move.
pub const TEMPO: Score = 10;

/// The terms of the evaluation, each from Red's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Material, adjusted by the attacking material left.
    pub material: Score,
    /// Piece-square bonuses.
    pub placement: Score,
    /// Reachable squares of rooks, horses and cannons.
    pub mobility: Score,
    /// Red's king safety minus Black's (both penalties, so positive when Red's king is the safer).
    pub king_safety: Score,
}

impl Terms {
    /// The sum of the terms, from Red's side.
    pub fn total(&self) -> Score {
        self.material + self.placement + self.mobility + self.king_safety
    }
}

/// The score of `pos` for the side to move: the [`terms`] from its side, plus [`TEMPO`].
pub fn evaluate(pos: &Position) -> Score {
    let total = terms(pos).total();
    TEMPO
        + match pos.turn() {
            Color::Red => total,
            Color::Black => -total,
        }
}

/// The evaluation as the core's searches use it: [`evaluate`] for the horizon, and the search policy of
/// xiangqi: captures ordered by [`capture_order`] (most valuable victim first, least valuable attacker, losing
/// ones by [`see`] after the quiet moves), the captures that do not lose material by [`see`] as quiescence's
/// noisy moves, and captures as the tactical moves that reductions and pruning leave alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evaluation;

impl Evaluator<Position> for Evaluation {
    #[inline]
    fn evaluate(&self, pos: &Position) -> Score {
        evaluate(pos)
    }

    #[inline]
    fn move_order(&self, pos: &Position, mv: Move) -> i32 {
        capture_order(pos, mv)
    }

    /// Quiescence on the captures that do not lose material; captures are tactical; the [`pawn_key`] is the
    /// correction key (the engine's network evaluation asks these of this evaluation too).
    const HOOKS: EvaluatorHooks<Position, Evaluation> = EvaluatorHooks {
        noisy_moves: Some(|_, pos, moves| noisy_moves(pos, moves)),
        is_tactical: Some(|_, pos, mv| pos.is_capture(mv)),
        correction_key: Some(|_, pos| Some(pawn_key(pos))),
        ..EvaluatorHooks::NONE
    };
}

/// A key of the pawns of both sides and the side to move: the [correction
/// key](tabula::game::HookedEvaluator::correction_key) of both evaluations (the pawns change least often of all
/// the pieces, so positions that share them share what the evaluation misjudges longest).
#[inline]
pub fn pawn_key(pos: &Position) -> u64 {
    let board = pos.board();
    let pawns = |c: Color| {
        let bits: u128 = board.by_piece(Piece::new(c, Role::Pawn)).0;
        (bits as u64) ^ ((bits >> 64) as u64).rotate_left(17)
    };
    // (Odd multipliers keep each side's points apart; the search mixes the key again.)
    let key = pawns(Color::Red).wrapping_mul(0x9FB2_1C65_1E98_DF25) ^ pawns(Color::Black).rotate_left(29);
    key ^ ((pos.turn() == Color::Black) as u64 * 0xD6E8_FEB8_6659_FD93)
}

/// The captures that do not lose material by [`see`]: the moves quiescence resolves.
pub fn noisy_moves(pos: &Position, moves: &mut Vec<Move>) {
    pos.captures_into(moves);
    moves.retain(|&mv| {
        let board = pos.board();
        let value = |sq| board.piece_at(sq).map_or(0, |p: Piece| SEE_VALUE[p.role.index()]);
        value(mv.to()) >= value(mv.from()) || see(pos, mv) >= 0
    });
}

/// Attacking material on the board: 2 per rook, 1 per horse or cannon; 12 at the start.
fn attack_phase(board: &Board) -> Score {
    2 * board.by_role(Role::Rook).count() as Score
        + board.by_role(Role::Horse).count() as Score
        + board.by_role(Role::Cannon).count() as Score
}

/// The evaluation's terms, each from Red's side.
pub fn terms(pos: &Position) -> Terms {
    let board = pos.board();
    let phase = attack_phase(board).min(12);
    // The value shifts as the attacking material goes: 0 with a full board, the whole shift with none.
    let shift = |full: Score| full * (12 - phase) / 12;
    let mut t = Terms::default();
    // The attack on each side's palace, gathered as the attacking pieces are visited (each piece's
    // destinations serve its mobility and the attack alike).
    let mut attacks = [PalaceAttack::default(); Color::COUNT];
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let palace = crate::attacks::reachable(color.flip(), Role::King);
        let attack = &mut attacks[color.flip().index()];
        let mut material = 0;
        let mut placed = 0;
        let mut mobility = 0;
        for sq in board.by_color(color) {
            let piece = board.piece_at(sq).expect("a piece on each square of its colour");
            material += VALUE[piece.role.index()]
                + match piece.role {
                    Role::Horse => shift(50),
                    Role::Cannon => -shift(50),
                    Role::Advisor | Role::Elephant => -shift(40),
                    _ => 0,
                };
            placed += placement(piece, sq);
            let weight = match piece.role {
                Role::Rook => 3,
                Role::Horse | Role::Cannon => 2,
                Role::Pawn if !sq.on_side_of(color) => 1,
                _ => continue,
            };
            let targets = board.targets(sq, piece);
            mobility += piece_mobility(board, targets, piece);
            if piece.role != Role::Pawn {
                attack.attackers += 1;
            }
            let hits = (targets & palace).count() as Score;
            if hits > 0 {
                attack.units += weight;
                attack.points += hits;
            }
        }
        t.material += sign * material;
        t.placement += sign * placed;
        t.mobility += sign * mobility;
    }
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        t.king_safety -= sign * king_danger(board, color, attacks[color.index()]);
    }
    t
}

/// The enemy pieces that could attack a palace: their attack units, the palace points they reach, and how
/// many rooks, horses and cannons there are.
#[derive(Clone, Copy, Debug, Default)]
struct PalaceAttack {
    units: Score,
    points: Score,
    attackers: Score,
}

/// The piece-square bonus of `piece` on `sq`.
pub fn placement(piece: Piece, sq: Square) -> Score {
    let own = match piece.color {
        Color::Red => sq,
        Color::Black => sq.flip_vertical(),
    };
    PLACEMENT[piece.role.index()][own.index()]
}

/// The piece-square tables from Red's side, by role and square.
static PLACEMENT: [[Score; 90]; Role::COUNT] = {
    let mut table = [[0; 90]; Role::COUNT];
    let mut i = 0;
    while i < 90 {
        let f = (i % 9) as Score;
        let r = (i / 9) as Score;
        let centre = if f > 4 { f - 4 } else { 4 - f }; // 0 on the e-file, 4 on the edges
        table[Role::King as usize][i] = -15 * r - if centre != 0 { 5 } else { 0 };
        table[Role::Advisor as usize][i] = if f == 4 && r == 1 { 10 } else { 0 };
        table[Role::Elephant as usize][i] = match (centre, r) {
            (0, 2) => 10,
            (4, 2) => -5,
            (2, 4) => -3,
            _ => 0,
        };
        table[Role::Horse as usize][i] =
            -6 * centre - if centre == 4 { 15 } else { 0 } - if r == 0 || r == 9 { 10 } else { 0 }
                + if r >= 5 && r <= 8 { 8 * (r - 4) } else { 0 }
                + if centre == 2 && r == 7 { 20 } else { 0 };
        table[Role::Rook as usize][i] = (4 - centre) * 2
            + match r {
                4 => 10,
                6..=8 => 15,
                9 => 5,
                _ => 0,
            }
            - if r == 0 && centre == 4 { 10 } else { 0 };
        table[Role::Cannon as usize][i] = match centre {
            0 => 20,
            1 => 5,
            _ => 0,
        } + if r <= 2 { 5 } else { 0 }
            + if r >= 7 && centre <= 1 { 10 } else { 0 };
        table[Role::Pawn as usize][i] = if r < 5 {
            0
        } else {
            70 + match r {
                5 => 0,
                6 => 20,
                7 | 8 => 40,
                _ => -10,
            } + if r >= 6 && r <= 8 { (4 - centre) * 6 } else { 0 }
        };
        i += 1;
    }
    table
};

/// The mobility bonus of a piece that reaches `targets`.
fn piece_mobility(board: &Board, targets: crate::Bitboard, piece: Piece) -> Score {
    let free = (targets & !board.by_color(piece.color)).count() as Score;
    match piece.role {
        Role::Rook => 4 * free,
        Role::Cannon => 2 * free,
        Role::Horse => 10 * free - if free <= 1 { 20 } else { 0 },
        _ => 0,
    }
}

/// The danger to `color`'s king, as a positive penalty, from the `attack` on its palace.
fn king_danger(board: &Board, color: Color, attack: PalaceAttack) -> Score {
    let them = color.flip();
    let Some(king) = board.king_of(color) else {
        return 0;
    };
    let PalaceAttack { units, points, attackers } = attack;
    let mut danger = if units >= 2 { 4 * units * units + 3 * points } else { 2 * points };
    let advisors = board.by_piece(Piece::new(color, Role::Advisor)).count() as Score;
    let elephants = board.by_piece(Piece::new(color, Role::Elephant)).count() as Score;
    danger += ((2 - advisors) * 15 + (2 - elephants) * 10) * attackers.min(3);
    // An enemy cannon facing the king with nothing between: the next screen that arrives gives check.
    let cannon = Piece::new(them, Role::Cannon);
    for sq in board.by_piece(cannon) {
        let same_line = sq.file() == king.file() || sq.rank() == king.rank();
        if same_line && (board.rook_targets(sq).contains(king)) {
            danger += 120;
        }
    }
    danger
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The correction key follows the pawns and the side to move, nothing else.
    #[test]
    fn pawn_key_follows_pawns_and_side() {
        let key = |fen: &str| pawn_key(&Position::from_fen(fen).unwrap());
        let start = key("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        // A cannon moved: the same key.
        assert_eq!(start, key("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1"));
        // Black to move, or a red pawn advanced, or a black one: other keys.
        let others = [
            key("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"),
            key("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
            key("rnbakabnr/9/1c5c1/p3p1p1p/2p6/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
        ];
        assert!(others.iter().all(|&k| k != start), "{start} {others:?}");
        assert_ne!(others[1], others[2]);
    }

    #[test]
    fn symmetric_along_random_games() {
        let mut pos = Position::startpos();
        let mut seed = 0x1234_5678u64;
        for _ in 0..200 {
            assert_eq!(evaluate(&pos), evaluate(&pos.mirrored()), "{pos}");
            assert_eq!(evaluate(&pos), evaluate(&pos.mirrored_left_right()), "{pos}");
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
        }
    }

    #[test]
    fn terms_that_should_hold() {
        let eval = |fen: &str| evaluate(&Position::from_fen(fen).unwrap());
        // A pawn across the river is worth more than one at home.
        let home = "4k4/9/9/9/9/9/4P4/9/9/3K5 w";
        let across = "4k4/9/9/9/4P4/9/9/9/9/3K5 w";
        assert!(eval(across) > eval(home) + 50);
        // An empty-headed cannon on the king's file is a danger.
        let facing = "3aka3/9/9/9/9/9/9/4C4/9/3K5 b";
        let aside = "3aka3/9/9/9/9/9/9/3C5/9/3K5 b";
        assert!(eval(facing) < eval(aside) - 100, "{} {}", eval(facing), eval(aside));
        // A horse in the centre beats one in the corner.
        assert!(eval("4k4/9/9/9/9/4N4/9/9/9/3K5 w") > eval("4k4/9/9/9/9/9/9/9/9/N2K5 w"));
    }
}
