//! Static evaluation: [`Evaluation`], a tapered evaluator whose weights are fitted to data, the network of
//! [`nnue`], [`EngineEvaluation`] (the one of the two the engine plays with, by [`EvalKind`]), and the static
//! exchange evaluation ([`see`]) that orders captures and prunes losing ones from quiescence.
//!
//! The score blends a middlegame and an endgame term by the material left on the board (the *phase*):
//! material, piece-square tables, mobility, pawn structure (doubled, isolated, connected and passed pawns),
//! king safety (pawn shield and attacks on the king's zone), threats, the bishop pair, rooks on open files, the
//! tempo, and in won endings a drive of the lone king to the edge. Each term is a count of a [`features`] entry
//! times its weight pair; [`Evaluation::trace`] records the counts, which is what the tuner fits
//! (`tabula-lab chess`: self-play positions labelled by Stockfish's win/draw/loss estimate, a logistic fit of
//! all weights at once).
//!
//! # Examples
//!
//! ```
//! use tabula::game::Evaluator;
//! use tabula_chess::engine::eval::{see, Evaluation};
//! use tabula_chess::Position;
//!
//! let eval = Evaluation::default();
//! // The starting position is balanced, up to the tempo bonus.
//! assert!(eval.evaluate(&Position::startpos()).abs() < 50);
//! // A queen up is a lot better.
//! let pos = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
//! assert!(eval.evaluate(&pos) > 700);
//!
//! // Taking a defended pawn with the queen loses material.
//! let pos = Position::from_fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
//! assert!(see(&pos, pos.parse_uci("d2d5").unwrap()) < 0);
//! ```

use crate::attacks;
use crate::bitboard::{Bitboard, PawnSets};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};
use tabula::game::{Evaluator, EvaluatorHooks, DEFERRED, PRIORITY};
use tabula::score::Score;

pub mod features;
pub mod nnue;
mod weights;

/// What each piece adds to the phase; 24 is a full board.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;
/// Values for the exchange evaluation and capture ordering.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

use features as f;

/// The weights, `[middlegame, endgame]` per feature, tuned on data (see `weights.rs`).
const WEIGHTS: [[i16; 2]; f::COUNT] = weights::WEIGHTS;

const MOBILITY_BASE: [usize; 6] = [0, f::MOBILITY_KNIGHT, f::MOBILITY_BISHOP, f::MOBILITY_ROOK, f::MOBILITY_QUEEN, 0];
/// Weight of each role's attacks on the enemy king's zone.
const KING_ATTACK: [i32; 6] = [0, 2, 2, 3, 5, 0];

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

/// The chess evaluator. Stateless: cheap to clone and share between search threads.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evaluation;

/// Which evaluation the engine plays with, by the name UCI's `Evaluation` option gives it: `nnue` (the
/// network, the default) or `tapered` (the classical [`Evaluation`]).
pub type EvalKind = tabula_nnue::EvalKind;

/// The evaluator the engine plays with: the tapered [`Evaluation`] or a network; move ordering, quiescence,
/// the tactical test and the endings against a bare king are [`Evaluation`]'s either way (see
/// [`NetGame`](tabula_nnue::NetGame) in [`crate::engine`]). Cheap to clone (the network is shared).
pub type EngineEvaluation = tabula_nnue::NetEvaluation<Position>;

/// A key of the pawns of both sides and the side to move: the [correction
/// key](tabula::game::HookedEvaluator::correction_key) of both evaluations (the pawn structure is what their
/// errors follow longest: a weak pawn stays weak).
#[inline]
pub fn pawn_key(pos: &Position) -> u64 {
    let b = pos.board();
    let pawns = |c: Color| b.by_piece(Piece { color: c, role: Role::Pawn }).0;
    // (Odd multipliers keep each side's squares apart; the search mixes the key again.)
    let key = pawns(Color::White).wrapping_mul(0x9FB2_1C65_1E98_DF25) ^ pawns(Color::Black).rotate_left(29);
    key ^ ((pos.turn() == Color::Black) as u64 * 0xD6E8_FEB8_6659_FD93)
}

/// Whether one side has its king alone and the other a piece besides pawns: the endings the network leaves to
/// the tapered evaluation (and its trainer leaves out).
#[inline]
pub fn against_bare_king(pos: &Position) -> bool {
    let b = pos.board();
    let alone = |c: Color| b.by_color(c).count() == 1;
    (alone(Color::Black) && b.has_non_pawn_material(Color::White))
        || (alone(Color::White) && b.has_non_pawn_material(Color::Black))
}

/// Where the evaluation walk puts each feature it meets: summed with the weights for play, or recorded.
trait Sink {
    /// `n` more of `feature` for the side `color` (0 white, 1 black).
    fn add(&mut self, color: usize, feature: usize, n: i32);
}

/// Middlegame and endgame sums per side.
#[derive(Default)]
struct Sum {
    mg: [i32; 2],
    eg: [i32; 2],
}

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, color: usize, feature: usize, n: i32) {
        let [mg, eg] = WEIGHTS[feature];
        self.mg[color] += mg as i32 * n;
        self.eg[color] += eg as i32 * n;
    }
}

/// The features of one position, white's count minus black's, and how they combine into the evaluation; for
/// tuning the weights on data.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Nonzero features: index and count (white minus black).
    pub features: Vec<(u16, i16)>,
    /// The game phase, 0 (bare kings and pawns) to 24 (all pieces).
    pub phase: i32,
    /// The factor applied to the endgame sum in drawish endings (1 or 1/8).
    pub endgame_scale: f64,
    /// The mop-up term added to the endgame sum (computed with the current weights; not tuned).
    pub mop_up: i32,
}

impl Trace {
    /// The evaluation (white's point of view) these features give under `weights` (`[mg, eg]` per feature).
    pub fn evaluate(&self, weights: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, n) in &self.features {
            mg += weights[i as usize][0] * n as f64;
            eg += weights[i as usize][1] * n as f64;
        }
        let phase = self.phase as f64 / PHASE_MAX as f64;
        mg * phase + (eg + self.mop_up as f64) * self.endgame_scale * (1.0 - phase)
    }
}

/// A dense count per feature.
struct Counts(Vec<i32>);

impl Sink for Counts {
    fn add(&mut self, color: usize, feature: usize, n: i32) {
        self.0[feature] += if color == 0 { n } else { -n };
    }
}

impl Evaluation {
    /// The evaluation from white's point of view, in centipawns.
    pub fn white_score(&self, pos: &Position) -> i32 {
        let mut sum = Sum::default();
        let phase = walk(pos, &mut sum);
        let mg = sum.mg[0] - sum.mg[1];
        let mut eg = sum.eg[0] - sum.eg[1];
        eg += mop_up(pos, eg);
        if drawish(pos, eg) {
            eg /= 8;
        }
        (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
    }

    /// The features of `pos` (for tuning the weights on data).
    pub fn trace(&self, pos: &Position) -> Trace {
        let mut counts = Counts(vec![0; f::COUNT]);
        let phase = walk(pos, &mut counts);
        let mut sum = Sum::default();
        walk(pos, &mut sum);
        let eg = sum.eg[0] - sum.eg[1];
        Trace {
            features: counts
                .0
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n != 0)
                .map(|(i, &n)| (i as u16, n.clamp(i16::MIN.into(), i16::MAX.into()) as i16))
                .collect(),
            phase,
            endgame_scale: if drawish(pos, eg) { 0.125 } else { 1.0 },
            mop_up: mop_up(pos, eg),
        }
    }

    /// The weights the evaluator plays with, `[middlegame, endgame]` per feature (see [`features`]).
    pub fn weights() -> &'static [[i16; 2]; f::COUNT] {
        &WEIGHTS
    }
}

/// The game phase of `pos` as the evaluation blends it: 0 with kings and pawns alone, 24 (and no more) with
/// every piece on the board (a knight or bishop counts 1, a rook 2, a queen 4).
pub fn phase(pos: &Position) -> i32 {
    let b = pos.board();
    let phase: i32 = Role::ALL.iter().map(|&role| PHASE_WEIGHT[role.index()] * b.by_role(role).count() as i32).sum();
    phase.min(PHASE_MAX)
}

/// Walks the position's features into `sink` and returns the game phase (0 to 24).
#[inline(always)]
fn walk(pos: &Position, sink: &mut impl Sink) -> i32 {
    let b = pos.board();
    let occupied = b.occupied();
    let mut phase = 0;
    let pawns = [b.by_piece(Piece::new(Color::White, Role::Pawn)), b.by_piece(Piece::new(Color::Black, Role::Pawn))];
    let pawn_attacks = [pawns[0].pawn_attacks(Color::White).0, pawns[1].pawn_attacks(Color::Black).0];
    let kings = [b.king_of(Color::White), b.king_of(Color::Black)];
    let mut king_attack = [0i32; 2]; // attack units against each side's king
    let mut king_attackers = [0i32; 2];

    sink.add(pos.turn().index(), f::TEMPO, 1);
    for color in Color::ALL {
        let us = color.index();
        let them = 1 - us;
        let own = b.by_color(color);
        let enemy_zone = kings[them].map_or(Bitboard::EMPTY, |k| attacks::king(k) | Bitboard::from_square(k));
        let enemy_majors = (b.by_role(Role::Rook) | b.by_role(Role::Queen)) & b.by_color(color.flip());
        for role in Role::ALL {
            let pieces = b.by_piece(Piece::new(color, role));
            phase += PHASE_WEIGHT[role.index()] * pieces.count() as i32;
            if role != Role::King {
                sink.add(us, f::MATERIAL + role.index(), pieces.count() as i32);
            }
            for sq in pieces {
                let idx = if color == Color::White { sq.index() } else { sq.index() ^ 56 };
                sink.add(us, f::PST + 64 * role.index() + idx, 1);
                if matches!(role, Role::Pawn | Role::King) {
                    continue;
                }
                if pawn_attacks[them] & (1 << sq.index()) != 0 {
                    sink.add(us, f::PAWN_THREAT, -1);
                }
                let reach = attacks::attacks(Piece::new(color, role), sq, occupied);
                let count = (reach & !own & !Bitboard::from_bits(pawn_attacks[them])).count() as usize;
                sink.add(us, MOBILITY_BASE[role.index()] + count, 1);
                if matches!(role, Role::Knight | Role::Bishop) {
                    sink.add(us, f::MINOR_THREAT, (reach & enemy_majors).count() as i32);
                }
                let zone_hits = (reach & enemy_zone).count() as i32;
                if zone_hits > 0 {
                    king_attackers[them] += 1;
                    king_attack[them] += KING_ATTACK[role.index()] * zone_hits;
                }
                if role == Role::Rook {
                    let file = Bitboard::file(sq.file()).0;
                    if file & (pawns[0].0 | pawns[1].0) == 0 {
                        sink.add(us, f::ROOK_OPEN, 1);
                    } else if file & pawns[us].0 == 0 {
                        sink.add(us, f::ROOK_SEMI_OPEN, 1);
                    }
                }
            }
        }
        if b.by_piece(Piece::new(color, Role::Bishop)).more_than_one() {
            sink.add(us, f::BISHOP_PAIR, 1);
        }

        // Pawn structure.
        let beside = ((pawns[us].0 << 1) & !0x0101_0101_0101_0101) | ((pawns[us].0 >> 1) & !0x8080_8080_8080_8080);
        for sq in pawns[us] {
            let file = sq.file().index();
            let file_bb = 0x0101_0101_0101_0101u64 << file;
            let rank = if color == Color::White { sq.rank().index() } else { 7 - sq.rank().index() };
            let bit = 1u64 << sq.index();
            if pawns[us].0 & adjacent_files(file) == 0 {
                sink.add(us, f::ISOLATED, 1);
            }
            if (pawn_attacks[us] | beside) & bit != 0 {
                sink.add(us, f::CONNECTED + rank, 1);
            }
            // A passer blocked by its own pawn is counted once, for the front pawn.
            if PASSED_SPAN[us][sq.index()] & pawns[them].0 == 0
                && PASSED_SPAN[us][sq.index()] & file_bb & pawns[us].0 == 0
            {
                sink.add(us, f::PASSED + rank, 1);
                let stop = if color == Color::White { bit << 8 } else { bit >> 8 };
                if stop & occupied.0 == 0 {
                    sink.add(us, f::PASSED_FREE + rank, 1);
                }
            }
        }
        for file in 0..8 {
            let n = (pawns[us].0 & (0x0101_0101_0101_0101u64 << file)).count_ones() as i32;
            if n > 1 {
                sink.add(us, f::DOUBLED, n - 1);
            }
        }

        // King shelter: own pawns on the three files in front of the king, one or two ranks ahead.
        if let Some(k) = kings[us] {
            let near = PASSED_SPAN[us][k.index()] & two_ranks_ahead(color, k);
            sink.add(us, f::SHIELD + (near & pawns[us].0).count_ones().min(3) as usize, 1);
        }
    }
    for us in 0..2 {
        let units = if king_attackers[us] >= 2 { king_attack[us].min(40) } else { 0 };
        sink.add(us, f::KING_DANGER + units as usize, 1);
    }
    phase.min(PHASE_MAX)
}

/// Distance of a square from the centre in half-files plus half-ranks: 2 (d4) to 14 (a1).
const fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    (2 * f - 7).abs() + (2 * r - 7).abs()
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

/// Endings where the side ahead (by `eg`) has no pawns and at most a minor piece more are hard or impossible to
/// win: their endgame score is scaled down.
fn drawish(pos: &Position, eg: i32) -> bool {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let b = pos.board();
    if b.by_piece(Piece::new(strong, Role::Pawn)).any() {
        return false;
    }
    let material = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| SEE_VALUE[r.index()] * b.by_piece(Piece::new(c, r)).count() as i32)
            .sum()
    };
    material(strong) - material(strong.flip()) <= SEE_VALUE[Role::Bishop.index()]
}

impl Evaluator<Position> for Evaluation {
    fn evaluate(&self, pos: &Position) -> Score {
        let white = self.white_score(pos);
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    }

    /// Queen promotions first, then captures by most valuable victim and least valuable attacker (those that
    /// lose material by [`see`] after the quiet moves), then the quiet moves that lose material by `see`,
    /// under-promotions last.
    fn move_order(&self, pos: &Position, mv: Move) -> i32 {
        capture_order(pos, mv)
    }

    /// [`capture_orders`]: the same hints, the squares the opponent attacks worked out once for the node, and
    /// the exchange evaluation of a quiet move onto one of them deferred until the search reaches the move.
    fn move_orders(&self, pos: &Position, moves: &[Move], hints: &mut Vec<i32>) {
        capture_orders(pos, moves, hints)
    }

    /// [`noisy_moves`], [`noisy_gain`], [`is_tactical`] and the [`pawn_key`] as the correction key (the
    /// engine's network evaluation asks these of this evaluation too).
    const HOOKS: EvaluatorHooks<Position, Evaluation> = EvaluatorHooks {
        noisy_moves: Some(|_, pos, moves| noisy_moves(pos, moves)),
        noisy_gain: Some(|_, pos, mv| noisy_gain(pos, mv)),
        is_tactical: Some(|_, pos, mv| is_tactical(pos, mv)),
        correction_key: Some(|_, pos| Some(pawn_key(pos))),
        ..EvaluatorHooks::NONE
    };
}

/// Captures that do not lose material by [`see`], and queen promotions: the moves worth resolving at the
/// horizon (quiescence's noisy moves, for both evaluations).
pub fn noisy_moves(pos: &Position, moves: &mut Vec<Move>) {
    pos.noisy_moves_into(moves);
    let b = pos.board();
    moves.retain(|&mv| match (mv.promotion(), b.piece_at(mv.from()), victim(pos, mv)) {
        (Some(role), _, _) => role == Role::Queen,
        (None, Some(attacker), Some(victim)) => keeps_material(pos, mv, attacker.role, victim),
        _ => see(pos, mv) >= 0,
    });
}

/// Captures and promotions: the moves reductions and pruning leave alone.
#[inline]
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.promotion().is_some() || pos.is_capture(mv)
}

/// The [`SEE_VALUE`] of the piece taken (a pawn en passant), plus a promotion's gain over the pawn: the most a
/// noisy move wins by itself.
#[inline]
pub fn noisy_gain(pos: &Position, mv: Move) -> Option<Score> {
    let taken = victim(pos, mv).map_or(0, |role| SEE_VALUE[role.index()]);
    let promotion = mv.promotion().map_or(0, |role| SEE_VALUE[role.index()] - SEE_VALUE[Role::Pawn.index()]);
    Some(taken + promotion)
}

/// The ordering hint of [`Evaluation`]'s `move_order`: beyond [`PRIORITY`] (before killer moves) for good
/// captures and queen promotions, 0 for quiet moves (ordered by killers and history), below `-PRIORITY` (after
/// every other quiet move) for losing captures, quiet moves that lose material by [`see`] and
/// under-promotions.
pub fn capture_order(pos: &Position, mv: Move) -> i32 {
    let b = pos.board();
    match plain_quiet(pos, mv) {
        true if (b.attackers_to(mv.to(), b.occupied()) & b.by_color(pos.turn().flip())).any() => {
            band(quiet_loss(pos, mv))
        }
        true => 0,
        false => band(capture_value(pos, mv)),
    }
}

/// The [`capture_order`] of each of `moves` (legal here), appended to `orders`, except that a quiet move
/// onto a square the opponent attacks is hinted [`DEFERRED`]: whether it loses material takes an exchange
/// evaluation, which the search asks `capture_order` for only if no move before it cuts the node off. The
/// squares the opponent attacks are worked out once, at the first quiet move, instead of once for each.
pub fn capture_orders(pos: &Position, moves: &[Move], orders: &mut Vec<i32>) {
    let b = pos.board();
    let mut threats = None;
    orders.extend(moves.iter().map(|&mv| match plain_quiet(pos, mv) {
        true if threats.get_or_insert_with(|| b.attacks_by(pos.turn().flip(), b.occupied())).contains(mv.to()) => {
            DEFERRED
        }
        true => 0,
        false => band(capture_value(pos, mv)),
    }));
}

/// The ordering hint of a [`capture_value`] or [`quiet_loss`].
#[inline(always)]
fn band(value: i32) -> i32 {
    match value {
        0 => 0,
        v if v > 0 => PRIORITY + v,
        v => -PRIORITY + v,
    }
}

/// Whether `mv` (legal here) is a quiet move other than castling: no capture, no promotion.
#[inline(always)]
fn plain_quiet(pos: &Position, mv: Move) -> bool {
    !mv.is_castling() && mv.promotion().is_none() && victim(pos, mv).is_none()
}

/// A quiet move onto a square the opponent attacks may hand over the piece: from -3,000 if it loses material
/// by [`see`], else 0.
#[inline(always)]
fn quiet_loss(pos: &Position, mv: Move) -> i32 {
    match see(pos, mv) {
        s if s < 0 => -3_000 + s.max(-999),
        _ => 0,
    }
}

/// The value of a move that is not [plain quiet](plain_quiet): queen promotions 8,000 and more, good captures
/// 2,000 and more by victim and attacker, losing captures from -2,000, under-promotions -4,000, castling 0.
#[inline(always)]
fn capture_value(pos: &Position, mv: Move) -> i32 {
    let b = pos.board();
    if mv.is_castling() {
        return 0;
    }
    let attacker = b.piece_at(mv.from()).map_or(Role::Pawn, |p| p.role);
    let promotion = match mv.promotion() {
        Some(Role::Queen) => 8_000,
        Some(_) => return -4_000,
        None => 0,
    };
    match victim(pos, mv) {
        None => promotion,
        Some(v) => {
            let mvv_lva = SEE_VALUE[v.index()].min(1000) - attacker.index() as i32;
            if promotion > 0 || keeps_material(pos, mv, attacker, v) {
                2_000 + promotion + mvv_lva
            } else {
                -2_000 + mvv_lva
            }
        }
    }
}

/// The role of the piece `mv` (legal here, not castling) takes: a pawn en passant; `None` for a quiet move.
#[inline(always)]
fn victim(pos: &Position, mv: Move) -> Option<Role> {
    let b = pos.board();
    match b.piece_at(mv.to()) {
        Some(p) => Some(p.role),
        None if Some(mv.to()) == pos.ep_square() && b.by_role(Role::Pawn).contains(mv.from()) => Some(Role::Pawn),
        None => None,
    }
}

/// Whether the capture `mv` by `attacker` of `victim` does not lose material by [`see`]: a piece worth at least
/// the capturer's cannot, and then the exchange is not worked out.
#[inline(always)]
fn keeps_material(pos: &Position, mv: Move, attacker: Role, victim: Role) -> bool {
    SEE_VALUE[victim.index()] >= SEE_VALUE[attacker.index()] || see(pos, mv) >= 0
}

/// Static exchange evaluation: the material balance for the side to move of `mv` (a legal move here) followed
/// by the best sequence of recaptures on its destination square, least valuable attacker first. Pins are
/// ignored; sliders behind other attackers join in as the exchange opens the line.
pub fn see(pos: &Position, mv: Move) -> i32 {
    let b = pos.board();
    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = b.piece_at(from).filter(|_| !mv.is_castling()) else {
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
    // The pieces that attack `to` through `occupied`, kept up to date as pieces leave: only a slider behind the
    // piece that left can join, on the line through it (a knight stands on no line through `to`).
    let mut attackers = b.attackers_to(to, occupied) & occupied;
    let reveal = |role: Role, occupied: Bitboard| match role {
        Role::Pawn | Role::Bishop => attacks::bishop(to, occupied) & b.diagonal_sliders(),
        Role::Rook => attacks::rook(to, occupied) & b.orthogonal_sliders(),
        Role::Queen | Role::King => {
            (attacks::bishop(to, occupied) & b.diagonal_sliders())
                | (attacks::rook(to, occupied) & b.orthogonal_sliders())
        }
        Role::Knight => Bitboard::EMPTY,
    };
    loop {
        let ours = attackers & b.by_color(turn);
        let Some((role, sq)) = Role::ALL.iter().find_map(|&r| (ours & b.by_role(r)).first().map(|s| (r, s))) else {
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
        attackers = (attackers | reveal(role, occupied)) & occupied;
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
    use tabula::game::HookedEvaluator;

    fn eval(fen: &str) -> i32 {
        Evaluation.white_score(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn symmetric_positions_score_only_the_tempo() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3",
            "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1",
        ] {
            // The side to move has the tempo (between its middlegame and endgame weight); nothing else counts.
            let other_side = fen.replace(" w ", " b ");
            assert_eq!(eval(fen), -eval(&other_side), "{fen}");
            let [mg, eg] = WEIGHTS[f::TEMPO].map(i32::from);
            assert!((mg.min(eg)..=mg.max(eg)).contains(&eval(fen)), "{fen}: {}", eval(fen));
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
    fn noisy_moves_keep_captures_that_do_not_lose() {
        // White: pawn d4 (takes e5 or c5), knight c3 (takes d5, defended by e6), queen h1 (takes h7, defended
        // by g8's king), bishop a2 (takes d5 too, after which the knight joins).
        let pos = Position::from_fen("6k1/7p/4p3/2ppp3/3P4/2N5/B7/4K2Q w - - 0 1").unwrap();
        let mut moves = Vec::new();
        Evaluation.noisy_moves(&pos, &mut moves);
        let mut kept: Vec<String> = moves.iter().map(|mv| mv.to_uci()).collect();
        kept.sort();
        let mut expected: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|&&mv| pos.is_capture(mv) && see(&pos, mv) >= 0)
            .map(|mv| mv.to_uci())
            .collect();
        expected.sort();
        assert_eq!(kept, expected);
        assert!(kept.contains(&"d4e5".to_owned()) && !kept.contains(&"h1h7".to_owned()), "{kept:?}");
    }

    #[test]
    fn noisy_gains() {
        let gain = |fen: &str, mv: &str| {
            let pos = Position::from_fen(fen).unwrap();
            Evaluation.noisy_gain(&pos, pos.parse_uci(mv).unwrap())
        };
        assert_eq!(gain("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5"), Some(900));
        assert_eq!(gain("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), Some(100));
        assert_eq!(gain("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"), Some(500 + 800));
        assert_eq!(gain("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), Some(800));
    }

    #[test]
    fn move_order_bands() {
        // White: queen d1, knight c3, rook h1, pawn a2; black pawns c6, d5 and e5 guard b5, d5 and d4.
        let pos = Position::from_fen("4k3/8/2p5/3pp3/8/2N5/P7/3QK2R w K - 0 1").unwrap();
        let order = |mv: &str| capture_order(&pos, pos.parse_uci(mv).unwrap());
        // Quiet moves to safe squares, castling included, are left to killers and history.
        for mv in ["d1d2", "c3e2", "a2a4", "e1g1"] {
            assert_eq!(order(mv), 0, "{mv}");
        }
        // The pawn capture that wins nothing back comes first of the moves below every quiet move; then the
        // knight and the queen put where a pawn takes them, the bigger loss later; an under-promotion last.
        let losing_capture = order("d1d5");
        let (knight, queen) = (order("c3b5"), order("d1d4"));
        let promo = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let under = capture_order(&promo, promo.parse_uci("a7a8n").unwrap());
        assert!(-PRIORITY >= losing_capture, "{losing_capture}");
        assert!(losing_capture > knight && knight > queen && queen > under, "{knight} {queen} {under}");
    }

    #[test]
    fn the_trace_gives_the_evaluation() {
        let weights: Vec<[f64; 2]> = Evaluation::weights().iter().map(|&[m, e]| [m.into(), e.into()]).collect();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/4R1K1 b - - 0 20",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
            "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
            "r1b2rk1/pp1n1ppp/2q1p3/3pP3/1b1P1B2/2NB1N2/PP3PPP/R2QK2R b KQ - 0 11",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let traced = Evaluation.trace(&pos).evaluate(&weights);
            let exact = Evaluation.white_score(&pos) as f64;
            // The integer evaluation rounds its sums and divisions; the trace does not.
            assert!((traced - exact).abs() <= 2.0, "{fen}: {traced} against {exact}");
        }
    }

    #[test]
    fn drawish_endings_are_scaled() {
        assert!(eval("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").abs() < 100);
        assert!(eval("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") > 400);
    }

    #[test]
    fn the_pawn_key_follows_pawns_and_the_side_to_move_only() {
        let key = |fen: &str| pawn_key(&Position::from_fen(fen).unwrap());
        let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // A knight move keeps it; the side to move, a pawn move or a pawn's colour changes it.
        assert_eq!(start, key("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1"));
        assert_ne!(start, key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
        assert_ne!(start, key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"));
        let (white, black) = (key("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1"), key("4k3/8/8/8/8/4p3/8/4K3 w - - 0 1"));
        assert_ne!(white, black);
        // Both evaluations offer it as their correction key.
        let pos = Position::startpos();
        assert_eq!(Evaluation.correction_key(&pos), Some(start));
        let engine_position = crate::engine::EnginePosition::new(pos);
        assert_eq!(EngineEvaluation::classical().correction_key(&engine_position), Some(start));
        assert_eq!(EngineEvaluation::default().correction_key(&engine_position), Some(start));
    }
}
