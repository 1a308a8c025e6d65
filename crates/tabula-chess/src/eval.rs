//! Static evaluation: [`Evaluation`], a tapered hand-written evaluator, and the static exchange evaluation
//! ([`see`]) that orders captures and prunes losing ones from quiescence.
//!
//! The score blends a middlegame and an endgame term by the material left on the board (the *phase*):
//! material, piece-square tables built at compile time from a few geometric rules, mobility, pawn structure
//! (doubled, isolated, passed pawns), king safety (pawn shield and attacks on the king's zone), the bishop
//! pair, rooks on open files, and in won endings a drive of the lone king to the edge.
//!
//! # Examples
//!
//! ```
//! use tabula::game::Evaluator;
//! use tabula_chess::eval::{see, Evaluation};
//! use tabula_chess::Position;
//!
//! let eval = Evaluation::default();
//! // The starting position is balanced, up to the tempo bonus.
//! assert!(eval.evaluate(&Position::startpos()).abs() < 30);
//! // A queen up is a lot better.
//! let pos = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
//! assert!(eval.evaluate(&pos) > 700);
//!
//! // Taking a defended pawn with the queen loses material.
//! let pos = Position::from_fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
//! assert!(see(&pos, pos.parse_uci("d2d5").unwrap()) < 0);
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};
use tabula::game::Evaluator;
use tabula::score::Score;

/// Material in the middlegame and the endgame, pawn to king.
const MATERIAL_MG: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const MATERIAL_EG: [i32; 6] = [94, 281, 297, 512, 936, 0];
/// What each piece adds to the phase; 24 is a full board.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;
/// Values for the exchange evaluation and capture ordering.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// Distance of a square from the centre in half-files plus half-ranks: 2 (d4) to 14 (a1).
const fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    (2 * f - 7).abs() + (2 * r - 7).abs()
}

/// The piece-square bonus for a white piece of role `role` on `sq`: `[mg, eg]`.
const fn pst_entry(role: usize, sq: usize) -> [i32; 2] {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let cd = centre_distance(sq);
    let centre_files = 3 - ((2 * f - 7).abs() - 1) / 2; // 3 on d/e, 0 on a/h
    match role {
        0 => {
            // Pawns: advance, and hold the centre in the middlegame.
            if r == 0 || r == 7 {
                return [0, 0];
            }
            let centre = if (r == 3 || r == 4) && (f == 3 || f == 4) { 20 } else { 0 };
            let home_centre = if r == 1 && (f == 3 || f == 4) { -10 } else { 0 };
            [(r - 1) * 4 + centre_files * 2 + centre + home_centre, (r - 1) * 10]
        }
        1 => [30 - 5 * cd, 20 - 4 * cd],
        2 => {
            let long_diagonal = if f == r || f + r == 7 { 8 } else { 0 };
            [15 - 2 * cd + long_diagonal, 12 - 2 * cd]
        }
        3 => {
            let seventh = if r == 6 { 20 } else { 0 };
            [centre_files * 3 + seventh - 5, seventh / 2]
        }
        4 => [6 - cd, 20 - 3 * cd],
        _ => {
            // King: hide on the back rank near a corner in the middlegame, centralise in the endgame.
            let shelter = match f {
                0 | 1 | 6 | 7 => 20,
                2 => 10,
                5 => 0,
                _ => -10,
            };
            [shelter - 25 * r, 28 - 4 * cd]
        }
    }
}

/// Piece-square tables for white, `[phase][role][square]`; black reads them mirrored.
const PST: [[[i32; 64]; 6]; 2] = {
    let mut t = [[[0; 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let e = pst_entry(role, sq);
            t[0][role][sq] = e[0] + MATERIAL_MG[role];
            t[1][role][sq] = e[1] + MATERIAL_EG[role];
            sq += 1;
        }
        role += 1;
    }
    t
};

/// Mobility per reachable square (beyond the usual count), `[role] -> (mg, eg, usual)`.
const MOBILITY: [(i32, i32, i32); 6] = [(0, 0, 0), (4, 4, 4), (5, 5, 6), (2, 4, 6), (1, 2, 12), (0, 0, 0)];
const PASSED_MG: [i32; 8] = [0, 5, 8, 14, 25, 45, 75, 0];
const PASSED_EG: [i32; 8] = [0, 10, 16, 30, 55, 95, 150, 0];
const DOUBLED: (i32, i32) = (-10, -20);
const ISOLATED: (i32, i32) = (-10, -12);
const BISHOP_PAIR: (i32, i32) = (30, 50);
const ROOK_OPEN: (i32, i32) = (25, 10);
const ROOK_SEMI_OPEN: (i32, i32) = (12, 6);
const SHIELD_PAWN: i32 = 12;
/// Weight of each role's attacks on the enemy king's zone.
const KING_ATTACK: [i32; 6] = [0, 2, 2, 3, 5, 0];
const TEMPO: i32 = 10;

/// The files next to `file` (as a bitboard of whole files).
const fn adjacent_files(file: usize) -> u64 {
    let f = 0x0101_0101_0101_0101u64 << file;
    ((f << 1) & !0x0101_0101_0101_0101) | ((f >> 1) & !0x8080_8080_8080_8080)
}

/// The squares in front of `sq` for `color` on its own and the adjacent files: a pawn there with no enemy
/// pawn in this span is passed.
const fn passed_span(color: usize, sq: usize) -> u64 {
    let file = sq % 8;
    let rank = sq / 8;
    let files = (0x0101_0101_0101_0101u64 << file) | adjacent_files(file);
    let ahead = if color == 0 {
        if rank >= 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    };
    files & ahead
}

const PASSED_SPAN: [[u64; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = passed_span(0, sq);
        t[1][sq] = passed_span(1, sq);
        sq += 1;
    }
    t
};

/// The hand-written chess evaluator. Stateless: cheap to clone and share between search threads.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evaluation;

/// Middlegame and endgame sums.
#[derive(Clone, Copy, Default)]
struct Terms {
    mg: i32,
    eg: i32,
}

impl Terms {
    fn add(&mut self, (mg, eg): (i32, i32), times: i32) {
        self.mg += mg * times;
        self.eg += eg * times;
    }
}

impl Evaluation {
    /// The evaluation from white's point of view, in centipawns.
    pub fn white_score(&self, pos: &Position) -> i32 {
        let b = pos.board();
        let occupied = b.occupied();
        let mut phase = 0;
        let mut side = [Terms::default(); 2];
        let pawns =
            [b.by_piece(Piece::new(Color::White, Role::Pawn)), b.by_piece(Piece::new(Color::Black, Role::Pawn))];
        let pawn_attacks = [pawn_attacks(pawns[0], Color::White), pawn_attacks(pawns[1], Color::Black)];
        let kings = [b.king_of(Color::White), b.king_of(Color::Black)];
        let mut king_attack = [0i32; 2]; // attack units against each side's king
        let mut king_attackers = [0i32; 2];

        for color in Color::ALL {
            let us = color.index();
            let them = 1 - us;
            let own = b.by_color(color);
            let t = &mut side[us];
            let enemy_zone = kings[them].map_or(Bitboard::EMPTY, |k| attacks::king(k) | Bitboard::from_square(k));
            for role in Role::ALL {
                let pieces = b.by_piece(Piece::new(color, role));
                phase += PHASE_WEIGHT[role.index()] * pieces.count() as i32;
                for sq in pieces {
                    let idx = if color == Color::White { sq.index() } else { sq.index() ^ 56 };
                    t.mg += PST[0][role.index()][idx];
                    t.eg += PST[1][role.index()][idx];
                    if matches!(role, Role::Pawn | Role::King) {
                        continue;
                    }
                    let reach = attacks::attacks(Piece::new(color, role), sq, occupied);
                    let (mg, eg, usual) = MOBILITY[role.index()];
                    let count = (reach & !own & !Bitboard(pawn_attacks[them])).count() as i32 - usual;
                    t.add((mg, eg), count);
                    let zone_hits = (reach & enemy_zone).count() as i32;
                    if zone_hits > 0 {
                        king_attackers[them] += 1;
                        king_attack[them] += KING_ATTACK[role.index()] * zone_hits;
                    }
                    if role == Role::Rook {
                        let file = Bitboard::file(sq.file()).0;
                        if file & (pawns[0].0 | pawns[1].0) == 0 {
                            t.add(ROOK_OPEN, 1);
                        } else if file & pawns[us].0 == 0 {
                            t.add(ROOK_SEMI_OPEN, 1);
                        }
                    }
                }
            }
            if b.by_piece(Piece::new(color, Role::Bishop)).more_than_one() {
                t.add(BISHOP_PAIR, 1);
            }

            // Pawn structure.
            for sq in pawns[us] {
                let file = sq.file().index();
                let file_bb = 0x0101_0101_0101_0101u64 << file;
                if pawns[us].0 & adjacent_files(file) == 0 {
                    t.add(ISOLATED, 1);
                }
                if PASSED_SPAN[us][sq.index()] & pawns[them].0 == 0 {
                    let rank = if color == Color::White { sq.rank().index() } else { 7 - sq.rank().index() };
                    // A passer blocked by its own pawn is counted once, for the front pawn.
                    if PASSED_SPAN[us][sq.index()] & file_bb & pawns[us].0 == 0 {
                        t.mg += PASSED_MG[rank];
                        t.eg += PASSED_EG[rank];
                    }
                }
            }
            for file in 0..8 {
                let n = (pawns[us].0 & (0x0101_0101_0101_0101u64 << file)).count_ones() as i32;
                if n > 1 {
                    t.add(DOUBLED, n - 1);
                }
            }

            // King shelter: own pawns on the three files in front of the king, one or two ranks ahead.
            if let Some(k) = kings[us] {
                let near = PASSED_SPAN[us][k.index()] & two_ranks_ahead(color, k);
                t.mg += SHIELD_PAWN * (near & pawns[us].0).count_ones().min(3) as i32;
            }
        }
        for (us, t) in side.iter_mut().enumerate() {
            if king_attackers[us] >= 2 {
                let units = king_attack[us].min(40);
                t.mg -= units * units / 2;
            }
        }

        let phase = phase.min(PHASE_MAX);
        let mg = side[0].mg - side[1].mg;
        let mut eg = side[0].eg - side[1].eg;
        eg += mop_up(pos, eg);
        eg = scale_endgame(pos, eg);
        (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
    }
}

/// The two ranks in front of `sq` for `color` (fewer at the board's edge).
fn two_ranks_ahead(color: Color, sq: Square) -> u64 {
    let r = sq.rank().index();
    match color {
        Color::White if r < 7 => 0xffff_u64.checked_shl(8 * (r as u32 + 1)).unwrap_or(0),
        Color::Black if r >= 2 => 0xffff_u64 << (8 * (r - 2)),
        Color::Black if r == 1 => 0xff,
        _ => 0,
    }
}

/// Squares attacked by `pawns` of `color`.
fn pawn_attacks(pawns: Bitboard, color: Color) -> u64 {
    let p = pawns.0;
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match color {
        Color::White => ((p << 7) & NOT_H) | ((p << 9) & NOT_A),
        Color::Black => ((p >> 9) & NOT_H) | ((p >> 7) & NOT_A),
    }
}

/// In an ending where one side has a big material edge and the other no pawns, reward driving the weaker king
/// to the edge and bringing the stronger king close: the search then finds mates it cannot see yet.
fn mop_up(pos: &Position, eg: i32) -> i32 {
    if eg.abs() < 400 {
        return 0;
    }
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let b = pos.board();
    if b.by_piece(Piece::new(strong.flip(), Role::Pawn)).any() {
        return 0;
    }
    let (Some(sk), Some(wk)) = (b.king_of(strong), b.king_of(strong.flip())) else {
        return 0;
    };
    let distance = sk.file().index().abs_diff(wk.file().index()).max(sk.rank().index().abs_diff(wk.rank().index()));
    let bonus = 10 * centre_distance(wk.index()) + 8 * (7 - distance as i32);
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

/// Endings where the side ahead has no pawns and at most a minor piece more are hard or impossible to win.
fn scale_endgame(pos: &Position, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let b = pos.board();
    if b.by_piece(Piece::new(strong, Role::Pawn)).any() {
        return eg;
    }
    let material = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| SEE_VALUE[r.index()] * b.by_piece(Piece::new(c, r)).count() as i32)
            .sum()
    };
    if material(strong) - material(strong.flip()) <= SEE_VALUE[Role::Bishop.index()] {
        eg / 8
    } else {
        eg
    }
}

impl Evaluator<Position> for Evaluation {
    fn evaluate(&self, pos: &Position) -> Score {
        let white = self.white_score(pos);
        let score = if pos.turn() == Color::White { white } else { -white };
        score + TEMPO
    }

    /// Queen promotions first, then captures by most valuable victim and least valuable attacker (those that
    /// lose material by [`see`] after the quiet moves), under-promotions last.
    fn move_order(&self, pos: &Position, mv: Move) -> i32 {
        capture_order(pos, mv)
    }
}

/// The ordering hint of [`Evaluation`]'s `move_order`: positive for good captures and queen promotions, 0 for
/// quiet moves, negative for losing captures and under-promotions.
pub fn capture_order(pos: &Position, mv: Move) -> i32 {
    let b = pos.board();
    let attacker = b.piece_at(mv.from()).map_or(Role::Pawn, |p| p.role);
    let victim = match b.piece_at(mv.to()) {
        Some(p) => Some(p.role),
        None if attacker == Role::Pawn && Some(mv.to()) == pos.ep_square() => Some(Role::Pawn),
        None => None,
    };
    let promotion = match mv.promotion() {
        Some(Role::Queen) => 8_000,
        Some(_) => return -4_000,
        None => 0,
    };
    match victim {
        None => promotion,
        Some(v) => {
            let mvv_lva = SEE_VALUE[v.index()].min(1000) - attacker.index() as i32;
            if promotion > 0 || SEE_VALUE[v.index()] >= SEE_VALUE[attacker.index()] || see(pos, mv) >= 0 {
                2_000 + promotion + mvv_lva
            } else {
                -2_000 + mvv_lva
            }
        }
    }
}

/// Static exchange evaluation: the material balance for the side to move of `mv` (a legal move here) followed
/// by the best sequence of recaptures on its destination square, least valuable attacker first. Pins are
/// ignored; sliders behind other attackers join in as the exchange opens the line.
pub fn see(pos: &Position, mv: Move) -> i32 {
    let b = pos.board();
    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = b.piece_at(from) else {
        return 0;
    };
    let mut occupied = b.occupied().without(from);
    let mut gain = [0i32; 32];
    gain[0] = match b.piece_at(to) {
        Some(p) => SEE_VALUE[p.role.index()],
        None if mover.role == Role::Pawn && Some(to) == pos.ep_square() => {
            occupied = occupied.without(Square::from_coords(to.file(), from.rank()));
            SEE_VALUE[0]
        }
        None => 0,
    };
    let mut on_square = mover.role;
    if let Some(promo) = mv.promotion() {
        gain[0] += SEE_VALUE[promo.index()] - SEE_VALUE[0];
        on_square = promo;
    }
    let mut turn = mover.color.flip();
    let mut depth = 0;
    loop {
        let attackers = b.attackers_to(to, occupied) & occupied & b.by_color(turn);
        let Some((role, sq)) = Role::ALL.iter().find_map(|&r| (attackers & b.by_role(r)).first().map(|s| (r, s)))
        else {
            break;
        };
        depth += 1;
        if depth >= gain.len() {
            break;
        }
        gain[depth] = SEE_VALUE[on_square.index()] - gain[depth - 1];
        if role == Role::King && (b.attackers_to(to, occupied.without(sq)) & occupied & b.by_color(turn.flip())).any() {
            // The king cannot capture into a defended square.
            depth -= 1;
            break;
        }
        on_square = role;
        occupied = occupied.without(sq);
        turn = turn.flip();
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        Evaluation.white_score(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn symmetric_positions_score_zero() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3",
            "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1",
        ] {
            assert_eq!(eval(fen), 0, "{fen}");
        }
    }

    #[test]
    fn colour_flip_negates() {
        let a = eval("r3k2r/pp3ppp/2n1b3/3p4/3P4/2N5/PP3PPP/R3KB1R w KQkq - 0 1");
        let b = eval("r3kb1r/pp3ppp/2n5/3p4/3P4/2N1B3/PP3PPP/R3K2R b KQkq - 0 1");
        assert_eq!(a, -b);
    }

    #[test]
    fn exchanges() {
        let see_of = |fen: &str, mv: &str| {
            let pos = Position::from_fen(fen).unwrap();
            see(&pos, pos.parse_uci(mv).unwrap())
        };
        // Pawn takes an undefended knight.
        assert_eq!(see_of("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 320);
        // Rook takes a pawn defended by a pawn.
        assert_eq!(see_of("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100 - 500);
        // Doubled rooks against one defender: the x-ray joins.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // A quiet move to an attacked square.
        assert_eq!(see_of("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d4"), -900);
        // The king may not recapture on a defended square.
        assert_eq!(see_of("4k3/8/8/8/8/b7/3p4/2NK4 b - - 0 1", "d2c1q"), 320 + 800);
    }

    #[test]
    fn drawish_endings_are_scaled() {
        assert!(eval("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").abs() < 100);
        assert!(eval("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") > 400);
    }
}
