//! Move ordering: the [`MovePicker`] hands a node its moves best first, the [`History`] table learns which
//! quiet moves cut off, and [`lmr_reduction`] says how much a late move is reduced.
//!
//! The order (documented for games on [`Evaluator::move_order`](crate::game::Evaluator::move_order)): the
//! table's move; moves the evaluator hints at [`PRIORITY`] or more, by hint; the two killer moves of the ply;
//! the counter move to the opponent's last move (with that option); every other move by its hint plus its
//! history score (and its continuation history after the two moves before, with that option); moves hinted
//! at `-PRIORITY` or less. Moves with equal scores keep the order the game generated them in, and so do the
//! moves after the table's move, which is rotated to the front rather than swapped.
//!
//! The picker scores lazily: a node whose table move cuts off (most nodes that have one) never scores the
//! rest, and a node whose moves all score alike is searched in generation order without a selection pass.
//! Moves the evaluator hints at [`DEFERRED`](crate::game::DEFERRED) are ranked as if hinted 0 until one of
//! them would be handed out; then the hints of all of them are worked out, the losing ones take their places
//! among the losing moves, and the picker looks again. A node cut off before that (by a good capture, a
//! killer) never works them out. The order is the same as with every hint worked out at once: the other
//! moves' scores were fixed when the node's moves were scored, and a deferred move's score is either the one
//! it was ranked by or its losing hint.

use super::stack::NO_CODE;
use crate::game::PRIORITY;
use std::sync::LazyLock;

/// History scores stay within ±`HISTORY_MAX`.
pub(super) const HISTORY_MAX: i32 = 1 << 14;
/// Hints between the priority bands are clamped to ± this, so that hint plus history stays below killers.
const HINT_MAX: i32 = PRIORITY / 2;
/// The killers' scores, just below the priority band.
const KILLER_SCORES: [i32; 2] = [PRIORITY - 1, PRIORITY - 2];
/// The counter move's score, just below the killers'.
const COUNTER_SCORE: i32 = PRIORITY - 3;

/// The ordering score of a move from its hint, whether it is one of the ply's killers or the counter move
/// ([`NO_CODE`] for none), and its history.
#[inline(always)]
pub(super) fn move_score(hint: i32, code: u16, killers: &[u16; 2], counter: u16, history: i32) -> i32 {
    if hint >= PRIORITY || hint <= -PRIORITY {
        hint
    } else if code == killers[0] {
        KILLER_SCORES[0]
    } else if code == killers[1] {
        KILLER_SCORES[1]
    } else if code == counter {
        COUNTER_SCORE
    } else {
        hint.clamp(-HINT_MAX, HINT_MAX) + history
    }
}

/// The moves of a node whose scores are still bounds, each ranked as if the evaluator had hinted it 0, its
/// own hint not yet worked out: a bit per place among the scored moves, which follows the moves as the picker
/// moves them. Only a node with at most [`PENDING_PLACES`] moves to score has them (the picker offers none to
/// a larger one, whose hints are all worked out at once).
pub(super) struct Pending {
    bits: u64,
}

/// The most moves a node may have to score and still put hints off: one bit each.
const PENDING_PLACES: usize = 64;

impl Pending {
    /// Records the move at place `k` among the scored ones as pending.
    #[inline]
    pub fn push(&mut self, k: usize) {
        debug_assert!(k < PENDING_PLACES);
        self.bits |= 1 << k;
    }

    /// Whether the move at place `k` is pending.
    #[inline(always)]
    fn is_set(&self, k: usize) -> bool {
        k < PENDING_PLACES && self.bits >> k & 1 != 0
    }

    /// The places of the pending moves, which no longer are.
    fn drain(&mut self) -> impl Iterator<Item = usize> {
        let mut bits = std::mem::take(&mut self.bits);
        std::iter::from_fn(move || {
            let k = (bits != 0).then(|| bits.trailing_zeros() as usize)?;
            bits &= bits - 1;
            Some(k)
        })
    }

    /// Follows [`bring_forward`]: the move at place `j` goes to `i` (`i <= j`), those between up by one.
    #[inline(always)]
    fn bring_forward(&mut self, i: usize, j: usize) {
        if self.bits == 0 || i == j {
            return;
        }
        // (Places below 64: a node with bits has no more moves than that.)
        let below = |k: usize| (1u64 << k) - 1;
        let moved = self.is_set(j) as u64;
        let between = self.bits & below(j) & !below(i);
        self.bits = (self.bits & !between & !(1 << j)) | (between << 1) | (moved << i);
    }
}

/// Hands out a node's moves in order. Create it after the moves are generated; it moves the table's move
/// (if among them) to the front by rotation.
pub(super) struct MovePicker {
    /// Index of the next move to hand out.
    next: usize,
    /// Moves before this index are in their final order.
    ordered: usize,
    /// Whether `moves[ordered..]` has been scored.
    scored: bool,
    /// Whether the scores differ (or some are bounds), so that picking the best is worth a pass.
    select: bool,
    /// The moves whose scores are bounds.
    pending: Pending,
}

impl MovePicker {
    /// A picker over `moves`, with the move whose code is `table_code` (as `code` computes codes) first.
    #[inline]
    pub fn new<M: Copy>(moves: &mut [M], table_code: u16, code: impl Fn(M) -> u16) -> Self {
        let mut ordered = 0;
        if table_code != NO_CODE {
            if let Some(t) = moves.iter().position(|&m| code(m) == table_code) {
                moves[..=t].rotate_right(1);
                ordered = 1;
            }
        }
        MovePicker { next: 0, ordered, scored: false, select: false, pending: Pending { bits: 0 } }
    }

    /// The next move and its index, scoring the unordered moves with `score` the first time they are needed
    /// (`score` fills `scores` for `moves[from..]`, one per move, and, given a [`Pending`], may record there
    /// the moves whose hints it put off, scoring them as if hinted 0), and asking `hint` for the pending moves' hints
    /// when the first of them comes first: 0 leaves a score as it is, `-PRIORITY` or below becomes it (as
    /// [`move_score`] would make it).
    #[inline]
    pub fn next<M: Copy>(
        &mut self,
        moves: &mut [M],
        scores: &mut Vec<i32>,
        score: impl FnOnce(&[M], &mut Vec<i32>, Option<&mut Pending>),
        mut hint: impl FnMut(M) -> i32,
    ) -> Option<(usize, M)> {
        let i = self.next;
        if i >= moves.len() {
            return None;
        }
        if i >= self.ordered {
            if !self.scored {
                self.scored = true;
                scores.clear();
                if moves.len() - i > 1 {
                    let room = moves.len() - i <= PENDING_PLACES;
                    score(&moves[i..], scores, room.then_some(&mut self.pending));
                    debug_assert_eq!(scores.len(), moves.len() - i);
                    let first = scores[0];
                    self.select = self.pending.bits != 0 || scores.iter().any(|&s| s != first);
                }
            }
            if self.select {
                let base = moves.len() - scores.len();
                let (moves, scores, i) = (&mut moves[base..], &mut scores[..], i - base);
                let mut j = best(moves, scores, i);
                // A bound came first: work out the hints of all the bounds where they stand (those that lose
                // take their places among the losing moves), and look again.
                if self.pending.is_set(j) {
                    let mut changed = false;
                    for k in self.pending.drain() {
                        let hint = hint(moves[k]);
                        debug_assert!(hint == 0 || hint <= -PRIORITY, "a deferred hint is 0 or losing: {hint}");
                        if hint <= -PRIORITY {
                            scores[k] = hint;
                            changed = true;
                        }
                    }
                    if changed {
                        j = best(moves, scores, i);
                    }
                }
                bring_forward(moves, scores, i, j);
                self.pending.bring_forward(i, j);
            }
        }
        self.next += 1;
        Some((i, moves[i]))
    }

    /// The ordering score of the move handed out as number `i` of `count` moves, if it was scored (the
    /// table's move is not).
    #[inline]
    pub fn score_of(&self, i: usize, count: usize, scores: &[i32]) -> Option<i32> {
        let base = count.checked_sub(scores.len())?;
        (self.scored && i >= base.max(self.ordered)).then(|| scores[i - base])
    }
}

/// One step of a stable selection sort: brings the move with the highest score in `moves[i..]` to position
/// `i`, shifting the ones before it up by one and keeping `scores` in step, so that moves of equal score keep
/// the game's generation order.
#[inline(always)]
pub(super) fn pick_best<M>(moves: &mut [M], scores: &mut [i32], i: usize) {
    let j = best(moves, scores, i);
    bring_forward(moves, scores, i, j);
}

/// The index of the first move with the highest score in `moves[i..]`.
#[inline(always)]
fn best<M>(moves: &[M], scores: &[i32], i: usize) -> usize {
    // One length for both, so that the compiler drops the bounds checks in the scan.
    let scores = &scores[..moves.len()];
    let mut j = i;
    for k in i + 1..moves.len() {
        if scores[k] > scores[j] {
            j = k;
        }
    }
    j
}

/// Moves the move at `j` to `i` (`i <= j`), shifting the ones between up by one, `scores` in step.
#[inline(always)]
fn bring_forward<M>(moves: &mut [M], scores: &mut [i32], i: usize, j: usize) {
    if j != i {
        moves[i..=j].rotate_right(1);
        scores[i..=j].rotate_right(1);
    }
}

/// What a thread learns about quiet moves: the history heuristic (for each side and move code, how often the
/// move caused a cutoff lately), the counter moves (for each side and code of the opponent's move before,
/// the last move that cut off after it) and the continuation history (the history of a move's
/// [piece-to code](crate::game::HookedGame::piece_to) after the piece-to code of the move one or two plies
/// before), and the correction history (for each [correction
/// key](crate::game::HookedEvaluator::correction_key), how far searched scores lately fell from the static
/// evaluation).
pub(super) struct History {
    scores: Vec<i32>,
    counters: Vec<u16>,
    codes: usize,
    /// Indexed by the earlier move's piece-to code times `pieces_to` plus the later one's.
    continuation: Vec<i16>,
    pieces_to: usize,
    /// The correction history, [`CORRECTION_ENTRIES`] entries (or none, with that option off) in
    /// 1/[`CORRECTION_GRAIN`] of the evaluation's unit.
    corrections: Vec<i32>,
}

/// Entries of the correction history (a power of two): 64 KiB a thread.
const CORRECTION_ENTRIES: usize = 1 << 14;
/// The correction history keeps its averages in this fraction of the evaluation's unit ...
const CORRECTION_GRAIN: i32 = 256;
/// ... and corrects by at most this much (in the evaluation's unit).
const CORRECTION_MAX: i32 = 64;
/// A search at depth `d` moves an entry `min(d + 1, CORRECTION_WEIGHT_MAX)` / [`CORRECTION_WEIGHT_SCALE`] of
/// the way to its error.
const CORRECTION_WEIGHT_MAX: i32 = 16;
const CORRECTION_WEIGHT_SCALE: i32 = 256;

/// The most piece-to codes a game may declare ([`Game::PIECE_TO_CODES`](crate::game::HookedGame::PIECE_TO_CODES)):
/// the continuation history holds their square, 32 MiB a thread at this bound.
pub(super) const MAX_PIECE_TO_CODES: usize = 4_096;

/// What orders a node's quiet moves besides their hints: the ply's killer moves, the counter move to the
/// opponent's last ([`NO_CODE`] for none), the side to move (the ply's parity) and, for the continuation
/// history, the moves before.
#[derive(Clone, Copy)]
pub(super) struct QuietOrder<'a> {
    pub killers: [u16; 2],
    pub counter: u16,
    pub side: usize,
    pub preceding: Option<&'a Preceding>,
}

/// The piece-to codes of the move that led to a node and of the one before it ([`NO_CODE`] where there is
/// none, or the continuation history is off): what a move's continuation history is looked up after.
pub(super) type Preceding = [u16; 2];

/// No moves before: the root, or a node after a null move.
pub(super) const NO_PRECEDING: Preceding = [NO_CODE; 2];

impl History {
    /// An empty table.
    pub fn new() -> Self {
        History {
            scores: Vec::new(),
            counters: Vec::new(),
            codes: 0,
            continuation: Vec::new(),
            pieces_to: 0,
            corrections: Vec::new(),
        }
    }

    /// Clears the tables for a game with `codes` move codes and (0 for no continuation history) `pieces_to`
    /// piece-to codes; keeps the correction history if `corrections`, else drops it. (Moves that cut off
    /// under one root are soon stale under the next; an evaluation's errors in a pawn structure are not.)
    pub fn reset(&mut self, codes: usize, pieces_to: usize, corrections: bool) {
        self.codes = codes;
        self.scores.clear();
        self.scores.resize(2 * codes, 0);
        self.counters.clear();
        self.counters.resize(2 * codes, NO_CODE);
        self.pieces_to = pieces_to;
        self.continuation.clear();
        self.continuation.resize(pieces_to * pieces_to, 0);
        // (Kept if wanted, else dropped.)
        self.corrections.resize(if corrections { CORRECTION_ENTRIES } else { 0 }, 0);
    }

    /// Forgets the correction history (a new game, another evaluator).
    pub fn clear_corrections(&mut self) {
        self.corrections.fill(0);
    }

    /// The entry of the correction history for correction key `key` (a table with entries).
    #[inline(always)]
    fn correction_slot(&self, key: u64) -> usize {
        // (The key's high bits, mixed: a game's key need not be uniform in its low bits.)
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CORRECTION_ENTRIES.trailing_zeros())) as usize
    }

    /// What to add to the static evaluation of a position with correction key `key`: the recent average of
    /// searched score less static evaluation there, within ±[`CORRECTION_MAX`]. 0 without a correction history.
    #[inline(always)]
    pub fn correction(&self, key: u64) -> i32 {
        if self.corrections.is_empty() {
            return 0;
        }
        self.corrections[self.correction_slot(key)] / CORRECTION_GRAIN
    }

    /// Learns that a search `depth` plies deep scored a position with correction key `key` `error` above its
    /// static evaluation (below, if negative); deeper searches weigh more.
    pub fn learn_correction(&mut self, key: u64, error: i32, depth: i32) {
        if self.corrections.is_empty() {
            return;
        }
        let slot = self.correction_slot(key);
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_MAX);
        let target = error.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        let entry = &mut self.corrections[slot];
        *entry = (*entry * (CORRECTION_WEIGHT_SCALE - weight) + target * weight) / CORRECTION_WEIGHT_SCALE;
    }

    /// The continuation history of a move with piece-to code `to` after `preceding`: the sum of its scores after
    /// the move one ply and the move two plies before.
    #[inline(always)]
    pub fn continuation(&self, preceding: &Preceding, to: u16) -> i32 {
        let mut sum = 0;
        for &before in preceding {
            if before != NO_CODE {
                sum += self.continuation[before as usize * self.pieces_to + to as usize] as i32;
            }
        }
        sum
    }

    /// The counter move of `side` to the opponent's move `prev` ([`NO_CODE`] for none, or after no move).
    #[inline(always)]
    pub fn counter(&self, side: usize, prev: u16) -> u16 {
        if prev == NO_CODE {
            return NO_CODE;
        }
        self.counters[side * self.codes + prev as usize]
    }

    /// Records `code` as `side`'s counter move to `prev`, which it cut off after.
    #[inline]
    pub fn set_counter(&mut self, side: usize, prev: u16, code: u16) {
        if prev != NO_CODE {
            self.counters[side * self.codes + prev as usize] = code;
        }
    }

    /// The score of move `code` for `side` (the ply's parity).
    #[inline(always)]
    pub fn get(&self, side: usize, code: u16) -> i32 {
        self.scores[side * self.codes + code as usize]
    }

    /// The history of quiet move `code` for `side`, plus (given the piece-to codes of the moves before and
    /// its own) its continuation history.
    #[inline(always)]
    pub fn quiet(&self, side: usize, code: u16, continuation: Option<(&Preceding, u16)>) -> i32 {
        self.get(side, code) + continuation.map_or(0, |(preceding, to)| self.continuation(preceding, to))
    }

    /// Rewards the move that cut off at `depth` and penalizes each of `tried` (searched before it in vain),
    /// each given as its code and piece-to code: its history for `side` and, given the moves `preceding`, its
    /// continuation history (the piece-to codes are read only then).
    pub fn reward(
        &mut self,
        side: usize,
        preceding: Option<&Preceding>,
        cut: (u16, u16),
        tried: impl Iterator<Item = (u16, u16)>,
        depth: i32,
    ) {
        let bonus = (depth * depth).min(HISTORY_MAX);
        self.update(side, preceding, cut, bonus);
        for t in tried {
            self.update(side, preceding, t, -bonus);
        }
    }

    /// Moves the history of one move (its code and piece-to code) by `bonus` (negative: a malus).
    #[inline(always)]
    fn update(&mut self, side: usize, preceding: Option<&Preceding>, (code, to): (u16, u16), bonus: i32) {
        let h = &mut self.scores[side * self.codes + code as usize];
        *h = gravity(*h, bonus);
        for &before in preceding.into_iter().flatten() {
            if before != NO_CODE {
                let h = &mut self.continuation[before as usize * self.pieces_to + to as usize];
                *h = gravity(*h as i32, bonus) as i16;
            }
        }
    }
}

/// A history score after a bonus (negative: a malus): gravity keeps scores within ±`HISTORY_MAX` and lets new
/// evidence outweigh old.
#[inline(always)]
fn gravity(score: i32, bonus: i32) -> i32 {
    score + bonus - score * bonus.abs() / HISTORY_MAX
}

/// Updates a ply's killers with `code`, which caused a cutoff.
#[inline]
pub(super) fn add_killer(killers: &mut [u16; 2], code: u16) {
    if killers[0] != code {
        *killers = [code, killers[0]];
    }
}

/// Size of each side of the late-move reduction table.
const LMR_TABLE: usize = 64;

/// ln(depth)·ln(index) by depth and move index, computed once: the late-move reductions before their divisor.
static LN_PRODUCTS: LazyLock<[[f32; LMR_TABLE]; LMR_TABLE]> = LazyLock::new(|| {
    let mut table = [[0.0; LMR_TABLE]; LMR_TABLE];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (index, product) in row.iter_mut().enumerate().skip(1) {
            *product = (depth as f32).ln() * (index as f32).ln();
        }
    }
    table
});

/// How many plies late move number `index` (from 0) is reduced at `depth`: ln(depth)·ln(index) divided by
/// `divisor` hundredths, rounded.
#[inline]
pub(super) fn lmr_reduction(depth: i32, index: usize, divisor: i32) -> i32 {
    let (depth, index) = ((depth.max(0) as usize).min(LMR_TABLE - 1), index.min(LMR_TABLE - 1));
    (0.5 + LN_PRODUCTS[depth][index] / (divisor.max(1) as f32 / 100.0)) as i32
}

/// How many moves a node `depth` plies from the horizon searches before late-move pruning starts: `3 +
/// depth^(power / 100)`, halved where the side to move is `not_improving`.
#[inline]
pub(super) fn late_move_count(depth: i32, power: i32, not_improving: bool) -> usize {
    let count = 3 + f64::from(depth.max(0)).powf(f64::from(power) / 100.0) as usize;
    count >> not_improving as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_move_counts_are_the_documented_ones() {
        for depth in 0..=12 {
            assert_eq!(late_move_count(depth, 200, false), 3 + (depth * depth) as usize);
        }
        let counts =
            |power, not_improving| (1..=3).map(|d| late_move_count(d, power, not_improving)).collect::<Vec<_>>();
        assert_eq!(counts(200, false), [4, 7, 12]);
        assert_eq!(counts(132, false), [4, 5, 7]);
        assert_eq!(counts(132, true), [2, 2, 3]);
    }

    #[test]
    fn documented_order() {
        let killers = [5, 6];
        let score = |hint, code, history| move_score(hint, code, &killers, 3, history);
        let good_capture = score(PRIORITY + 300, 1, 0);
        let killer = score(0, 5, -HISTORY_MAX);
        let second_killer = score(0, 6, HISTORY_MAX);
        let counter = score(0, 3, -HISTORY_MAX);
        let quiet_hinted = score(3_000, 7, 0);
        let quiet_history = score(0, 8, HISTORY_MAX);
        let huge_hint = score(PRIORITY - 1, 9, HISTORY_MAX);
        let bad_capture = score(-PRIORITY - 5, 2, HISTORY_MAX);
        assert!(good_capture > killer && killer > second_killer && second_killer > counter);
        assert!(counter > huge_hint && huge_hint > quiet_history && quiet_history > quiet_hinted);
        assert!(quiet_hinted > bad_capture);
        // A hinted capture that is also a killer keeps its hint; a killer that is also the counter move ranks
        // as a killer.
        assert_eq!(score(PRIORITY + 1, 5, 0), PRIORITY + 1);
        assert_eq!(move_score(0, 5, &killers, 5, 0), killer);
    }

    #[test]
    fn counter_moves_are_kept_per_side_and_previous_move() {
        let mut h = History::new();
        h.reset(4, 0, false);
        assert_eq!(h.counter(0, 2), NO_CODE);
        h.set_counter(0, 2, 3);
        h.set_counter(1, NO_CODE, 1);
        assert_eq!((h.counter(0, 2), h.counter(1, 2), h.counter(0, NO_CODE)), (3, NO_CODE, NO_CODE));
        h.reset(4, 0, false);
        assert_eq!(h.counter(0, 2), NO_CODE);
    }

    #[test]
    fn corrections_follow_the_errors_of_their_key_within_bounds() {
        let mut h = History::new();
        h.reset(4, 0, false);
        h.learn_correction(1, 30, 10);
        assert_eq!(h.correction(1), 0, "no correction history: nothing learned");
        h.reset(4, 0, true);
        // Deep searches move an entry further than shallow ones.
        h.learn_correction(1, 40, 20);
        h.learn_correction(2, 40, 1);
        assert!(h.correction(1) > h.correction(2) && h.correction(2) >= 0);
        // Repeated evidence converges on the error; a key learns apart from the others.
        for _ in 0..200 {
            h.learn_correction(1, 40, 20);
            h.learn_correction(3, -25, 20);
        }
        assert!((38..=40).contains(&h.correction(1)), "{}", h.correction(1));
        assert!((-25..=-23).contains(&h.correction(3)), "{}", h.correction(3));
        // However large the errors, the correction stays within its bound.
        for _ in 0..500 {
            h.learn_correction(1, 10_000, 20);
        }
        assert!((CORRECTION_MAX - 1..=CORRECTION_MAX).contains(&h.correction(1)));
        // A new search keeps them; only clearing forgets them.
        h.reset(4, 0, true);
        assert!(h.correction(1) > 0);
        h.clear_corrections();
        assert_eq!(h.correction(1), 0);
    }

    #[test]
    fn table_move_is_rotated_and_the_rest_keep_their_order() {
        let mut moves = [10u16, 11, 12, 13, 14];
        let mut picker = MovePicker::new(&mut moves, 13, |m| m);
        assert_eq!(moves, [13, 10, 11, 12, 14]);
        let mut scores = Vec::new();
        let mut order = Vec::new();
        while let Some((_, m)) = picker.next(&mut moves, &mut scores, |ms, s, _| s.extend(ms.iter().map(|_| 0)), |_| 0)
        {
            order.push(m);
        }
        assert_eq!(order, [13, 10, 11, 12, 14]);
    }

    #[test]
    fn scores_pick_best_first_and_ties_keep_generation_order() {
        let mut moves = [1u16, 2, 3, 4, 5];
        let mut picker = MovePicker::new(&mut moves, NO_CODE, |m| m);
        let mut scores = Vec::new();
        let mut order = Vec::new();
        let hint = |m: u16| [0, 1, 5, 1, 5, 0][m as usize];
        let score = |ms: &[u16], s: &mut Vec<i32>, _: Option<&mut Pending>| s.extend(ms.iter().map(|&m| hint(m)));
        while let Some((_, m)) = picker.next(&mut moves, &mut scores, score, |_| 0) {
            order.push(m);
        }
        assert_eq!(order, [2, 4, 1, 3, 5]);
    }

    /// Deferred hints give the order that the same hints worked out at once give, and are worked out only when
    /// a deferred move would come next.
    #[test]
    fn deferred_hints_keep_the_order_and_wait_for_their_turn() {
        let mut rng = crate::rng::Rng::new(7);
        for round in 0..2_000 {
            let n = 2 + rng.below(if round % 10 == 0 { 90 } else { 40 });
            // Scores in a few bands, with ties; a quarter of the moves deferred, of which half lose.
            let base: Vec<i32> = (0..n).map(|_| [-PRIORITY - 50, -3, 0, 0, 7, PRIORITY + 9][rng.below(6)]).collect();
            let deferred: Vec<bool> = (0..n).map(|_| rng.below(4) == 0).collect();
            let losing: Vec<i32> = (0..n).map(|_| -PRIORITY - rng.below(100) as i32).collect();
            let exact = |m: usize| {
                if !deferred[m] {
                    base[m]
                } else if m % 2 == 0 {
                    0
                } else {
                    losing[m]
                }
            };
            let table = if rng.below(3) == 0 { rng.below(n) as u16 } else { NO_CODE };
            let order = |defer: bool| {
                let mut moves: Vec<u16> = (0..n as u16).collect();
                let mut picker = MovePicker::new(&mut moves, table, |m| m);
                let (mut scores, mut order, asked) = (Vec::new(), Vec::new(), std::cell::RefCell::new(Vec::new()));
                let score = |ms: &[u16], s: &mut Vec<i32>, mut pending: Option<&mut Pending>| {
                    for (k, &m) in ms.iter().enumerate() {
                        let m = m as usize;
                        match pending.as_mut().filter(|_| deferred[m] && defer) {
                            Some(p) => {
                                p.push(k);
                                s.push(0);
                            }
                            None => s.push(exact(m)),
                        }
                    }
                };
                let hint = |m: u16| {
                    asked.borrow_mut().push(m);
                    exact(m as usize)
                };
                while let Some((i, m)) = picker.next(&mut moves, &mut scores, score, hint) {
                    assert_eq!(moves[i], m);
                    order.push(m);
                }
                (order, asked.into_inner())
            };
            let (eager, _) = order(false);
            let (lazy, asked) = order(true);
            assert_eq!(lazy, eager, "round {round}");
            // Asked at most once each, and only about deferred moves.
            let mut sorted = asked.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), asked.len());
            assert!(asked.iter().all(|&m| deferred[m as usize]));
        }
    }

    #[test]
    fn a_deferred_hint_is_not_worked_out_before_its_turn() {
        // Move 2 ranks first; moves 0 and 3 are deferred. Handing out the first move asks nothing.
        let mut moves = [0u16, 1, 2, 3];
        let mut picker = MovePicker::new(&mut moves, NO_CODE, |m| m);
        let mut scores = Vec::new();
        let score = |ms: &[u16], s: &mut Vec<i32>, pending: Option<&mut Pending>| {
            let pending = pending.expect("room for four moves");
            for (k, &m) in ms.iter().enumerate() {
                s.push(match m {
                    0 | 3 => {
                        pending.push(k);
                        0
                    }
                    2 => PRIORITY + 1,
                    _ => -5,
                });
            }
        };
        let asked = std::cell::Cell::new(0);
        let hint = |m: u16| {
            asked.set(asked.get() + 1);
            if m == 0 {
                -PRIORITY - 1
            } else {
                0
            }
        };
        assert_eq!(picker.next(&mut moves, &mut scores, score, hint), Some((0, 2)));
        assert_eq!(asked.get(), 0);
        // The next would be a deferred move: both are worked out, and the losing one goes last.
        let order: Vec<u16> =
            std::iter::from_fn(|| picker.next(&mut moves, &mut scores, |_, _, _| unreachable!(), hint).map(|(_, m)| m))
                .collect();
        assert_eq!((order, asked.get()), (vec![3, 1, 0], 2));
    }

    #[test]
    fn history_gravity_bounds_scores() {
        let mut h = History::new();
        h.reset(4, 0, false);
        for _ in 0..1000 {
            h.reward(0, None, (1, NO_CODE), [(2, NO_CODE)].into_iter(), 40);
        }
        assert!(h.get(0, 1) <= HISTORY_MAX && h.get(0, 1) > HISTORY_MAX / 2);
        assert!(h.get(0, 2) >= -HISTORY_MAX && h.get(0, 2) < -HISTORY_MAX / 2);
        assert_eq!(h.get(1, 1), 0);
    }

    #[test]
    fn continuation_history_is_kept_per_preceding_move_and_summed_over_both() {
        let mut h = History::new();
        h.reset(4, 6, false);
        // After piece-to 2 (the opponent's move; none before it), 3 cut off after 4 had failed.
        h.reward(0, Some(&[2, NO_CODE]), (0, 3), [(1, 4)].into_iter(), 10);
        let (good, bad) = (h.continuation(&[2, NO_CODE], 3), h.continuation(&[2, NO_CODE], 4));
        assert!(good > 0 && bad < 0 && good == -bad, "{good} {bad}");
        // Other preceding moves know nothing of it; two plies back it counts again, summed.
        assert_eq!(h.continuation(&[5, NO_CODE], 3), 0);
        assert_eq!(h.continuation(&NO_PRECEDING, 3), 0);
        assert_eq!(h.continuation(&[5, 2], 3), good);
        h.reward(0, Some(&[5, 2]), (0, 3), std::iter::empty(), 10);
        assert!(h.continuation(&[5, 2], 3) > 2 * good);
        for _ in 0..1000 {
            h.reward(0, Some(&[5, 2]), (0, 3), std::iter::empty(), 40);
        }
        assert!(h.continuation(&[5, 2], 3) <= 2 * HISTORY_MAX);
    }
    #[test]
    fn reductions_are_the_rounded_log_products() {
        for divisor in [100, 225, 300] {
            for d in 1..LMR_TABLE {
                for i in 1..LMR_TABLE {
                    let exact = (d as f64).ln() * (i as f64).ln() * 100.0 / f64::from(divisor);
                    if (exact.fract() - 0.5).abs() > 1e-4 {
                        assert_eq!(lmr_reduction(d as i32, i, divisor), exact.round() as i32, "{divisor} {d} {i}");
                    }
                }
            }
        }
        assert_eq!(lmr_reduction(1, 1, 225), 0);
        assert!(lmr_reduction(10, 20, 225) > lmr_reduction(4, 4, 225));
        assert_eq!(lmr_reduction(100, 100, 225), lmr_reduction(63, 63, 225));
        assert!(lmr_reduction(20, 40, 100) > lmr_reduction(20, 40, 225));
    }
}
