//! Threat-space search: VCF (victory by continuous fours) and VCT (by continuous threes and fours).
//!
//! An AND/OR search where the attacker (the side to move at the root) plays only threats and the defender
//! only the moves that can answer them:
//!
//! - **Attacker** (OR node): a five wins. Facing a four of the defender, the attacker must block it (and
//!   loses to two). Otherwise it tries its fours (open fours and four-threes first) and, in a VCT, its
//!   open threes; with one attacking move left, only the moves that make two fives at once (an open four or
//!   two fours), the only ones that can still win (but where renju's black defends: it may be unable to
//!   block a single five).
//! - **Defender** (AND node): a five of its own refutes. Two attacker fives cannot both be blocked. One
//!   must be blocked, at the single point that does it (in renju, black cannot if that point is forbidden).
//!   In a VCF nothing else is a threat, so the line fails. In a VCT the attacker threatens an open four: the
//!   defender may play any point on the lines of those open-four points within five steps, the points
//!   themselves, or any four of its own; the attacker must win against every one of them.
//!
//! A VCT's depth counts its attacking moves, but where it runs out the attacker may still win by a VCF (of up
//! to 16 fours): a line that ends in a run of fours needs only the moves before that run counted.
//!
//! Results go to a [`ThreatCache`] under the position's key (mixed with the kind of search and the rule):
//! a win with its move for any depth, a failure with the depth it was searched to, or for every depth when no
//! line of its search was stopped by the depth limit (the iterative deepening then ends there too). The cache
//! is lock-free and can be shared by the threads of a search.
//!
//! [`verify`](crate::engine::verify) checks every win independently of the pattern tables used here.
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::{Board, Rule, ThreatKind, ThreatSolver};
//!
//! // Black: h8 i8 j8 (white g8 blocks it) and k9 k10 k11 (white k12 blocks it): k8 makes two fours.
//! let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 g8 i8 k12 j8 a1 k9 a3 k10 a5 k11 a7").unwrap();
//! let mut solver = ThreatSolver::new(1);
//! let line = solver.solve(&board, ThreatKind::Vcf, 10, 100_000).unwrap();
//! assert_eq!(board.format_point(line[0]), "k8");
//! ```

use crate::board::{Board, Point, Shape};
use crate::engine::eval::point_value;
use crate::pattern::Pattern;
use crate::rules;
use crate::types::{Color, CELLS, DIRS, EMPTY};
use crate::Rule;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;
use tabula::zobrist::{Key, SplitMix64};

/// Which threats the attacker may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThreatKind {
    /// Fours only: every attacking move forces a single reply.
    Vcf,
    /// Fours and open threes.
    Vct,
}

impl ThreatKind {
    /// Both kinds.
    pub const ALL: [ThreatKind; 2] = [ThreatKind::Vcf, ThreatKind::Vct];
    /// Number of kinds.
    pub const COUNT: usize = 2;
}

/// The salts that keep results of different searches and rules apart in one cache.
const SALTS: [u64; 6] = {
    let mut rng = SplitMix64::new(0x07A8_EA75);
    let mut out = [0u64; 6];
    let mut i = 0;
    while i < 6 {
        out[i] = rng.next();
        i += 1;
    }
    out
};

fn salted(board: &Board, kind: ThreatKind) -> Key {
    let rule = Rule::ALL.iter().position(|&r| r == board.rule()).unwrap_or(0);
    Key(board.key().0 ^ SALTS[rule * 2 + kind as usize])
}

/// A lock-free table of threat-search results, keyed like the transposition table.
///
/// Each entry is two words, `key ^ data` and `data` (the Hyatt–Mann check): `data` bit 0 marks a used
/// entry, bit 1 a win, bits 8..16 the depth searched, bits 16..32 the winning move's code + 1.
pub struct ThreatCache {
    entries: Vec<[AtomicU64; 2]>,
}

/// A cached result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cached {
    win: bool,
    depth: u32,
    best: Option<Point>,
}

impl ThreatCache {
    /// A cache of about `mib` mebibytes (at least one entry).
    pub fn new(mib: usize) -> Self {
        let n = (mib << 20) / 16;
        Self { entries: (0..n.max(1)).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect() }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for e in &self.entries {
            e[0].store(0, Relaxed);
            e[1].store(0, Relaxed);
        }
    }

    fn slot(&self, key: Key) -> &[AtomicU64; 2] {
        let i = ((key.0 as u128 * self.entries.len() as u128) >> 64) as usize;
        &self.entries[i]
    }

    fn probe(&self, key: Key) -> Option<Cached> {
        let e = self.slot(key);
        let data = e[1].load(Relaxed);
        if data & 1 == 0 || e[0].load(Relaxed) ^ data != key.0 {
            return None;
        }
        let code = (data >> 16) as u16;
        Some(Cached {
            win: data & 2 != 0,
            depth: ((data >> 8) & 0xff) as u32,
            best: code.checked_sub(1).map(Point::from_code),
        })
    }

    fn store(&self, key: Key, c: Cached) {
        let code = c.best.map_or(0, |p| p.code() + 1) as u64;
        let data = 1 | (c.win as u64) << 1 | (c.depth.min(255) as u64) << 8 | code << 16;
        let e = self.slot(key);
        e[0].store(key.0 ^ data, Relaxed);
        e[1].store(data, Relaxed);
    }
}

/// The VCF/VCT solver: per-search counters over a (possibly shared) [`ThreatCache`].
pub struct ThreatSolver {
    cache: Arc<ThreatCache>,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// Whether the search since this was last cleared stopped some line at the depth limit (a failure found
    /// without doing so holds at every depth).
    horizon: bool,
    /// The moves of the nodes on the current line, each node's after its parent's (so that a search allocates
    /// nothing once these have grown); `fives` and `scored` are scratch space for one node at a time.
    stack: Vec<Point>,
    fives: Vec<Point>,
    scored: Vec<(i32, Point)>,
}

/// The depth a failure is cached with when no line of its search reached the depth limit: it holds at any depth.
const EVERY_DEPTH: u32 = 255;

/// The longest VCF a VCT may end in, past its own depth, in attacking moves.
const VCF_TAIL: u32 = 16;

/// How many nodes go between two looks at the clock.
const CLOCK_NODES: u64 = 1024;

impl ThreatSolver {
    /// A solver with its own cache of `cache_mib` mebibytes.
    pub fn new(cache_mib: usize) -> Self {
        Self::with_cache(Arc::new(ThreatCache::new(cache_mib)))
    }

    /// A solver on a shared cache.
    pub fn with_cache(cache: Arc<ThreatCache>) -> Self {
        Self {
            cache,
            nodes: 0,
            limit: u64::MAX,
            deadline: None,
            aborted: false,
            horizon: false,
            stack: Vec::new(),
            fives: Vec::new(),
            scored: Vec::new(),
        }
    }

    /// Makes the searches give up at `deadline` as they do when out of nodes (`None`: no deadline).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The cache.
    pub fn cache(&self) -> &Arc<ThreatCache> {
        &self.cache
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last call ran out of nodes before it could decide.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The first move of a forced win for the side to move using at most `max_depth` attacking moves,
    /// searched by iterative deepening within `node_limit` nodes (stopping early once a depth fails without any
    /// line reaching its limit: deeper ones would fail alike). `None`: no win found (not a proof of none if
    /// [`aborted`](Self::aborted)).
    pub fn find(&mut self, board: &Board, kind: ThreatKind, max_depth: u32, node_limit: u64) -> Option<Point> {
        self.nodes = 0;
        self.limit = node_limit;
        self.aborted = false;
        if board.winner().is_some() {
            return None;
        }
        let mut b = board.clone();
        for depth in 1..=max_depth {
            self.horizon = false;
            if let Some(p) = self.attack(&mut b, kind, depth) {
                return Some(p);
            }
            if self.aborted || !self.horizon {
                break;
            }
        }
        None
    }

    /// A winning line (attacker and defender moves alternating, ending in the attacker's five) for the side
    /// to move, as [`find`](Self::find) finds it; the defender's replies are the first of its options.
    pub fn solve(&mut self, board: &Board, kind: ThreatKind, max_depth: u32, node_limit: u64) -> Option<Vec<Point>> {
        self.find(board, kind, max_depth, node_limit)?;
        // The win is known; the line is read back from the cache whatever the clock says.
        let deadline = self.deadline.take();
        let line = self.line(board, kind, max_depth, node_limit);
        self.deadline = deadline;
        line
    }

    /// The winning line from `board`, once [`find`](Self::find) has found the win.
    fn line(&mut self, board: &Board, kind: ThreatKind, max_depth: u32, node_limit: u64) -> Option<Vec<Point>> {
        let mut b = board.clone();
        let mut line = Vec::new();
        let (mut kind, mut depth) = (kind, max_depth);
        while b.winner().is_none() && line.len() < 4 * (max_depth + VCF_TAIL) as usize + 4 {
            self.limit = self.nodes.saturating_add(node_limit);
            // Where a VCT went on by a VCF past its depth, the rest of the line is that VCF.
            let m = match self.attack(&mut b, kind, depth) {
                Some(m) => m,
                None if kind == ThreatKind::Vct => {
                    (kind, depth) = (ThreatKind::Vcf, VCF_TAIL);
                    self.attack(&mut b, kind, depth)?
                }
                None => return None,
            };
            b.play_unchecked(m);
            line.push(m);
            depth = depth.saturating_sub(1).max(1);
            if b.winner().is_some() {
                break;
            }
            let reply = defences(&b, kind).unwrap_or_default().into_iter().find(|&p| b.is_legal(p));
            match reply {
                Some(r) => {
                    b.play_unchecked(r);
                    line.push(r);
                }
                None => break,
            }
        }
        Some(line)
    }

    fn attack(&mut self, board: &mut Board, kind: ThreatKind, depth: u32) -> Option<Point> {
        self.nodes += 1;
        let late = self.nodes % CLOCK_NODES == 0 && self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.nodes > self.limit || late {
            self.aborted = true;
            return None;
        }
        let me = board.side_to_move();
        // Step 1. A five wins; two fives of the opponent cannot be stopped.
        if let (Some(p), _) = self.five_points(board, me, 1) {
            return Some(p);
        }
        let (block, fives) = self.five_points(board, me.opponent(), 2);
        if fives >= 2 {
            return None;
        }
        if depth == 0 {
            self.horizon = true;
            // With no VCT move left the attacker may still win by a VCF: fours force their replies, so that
            // tail is cheap, and the same wins are found at a smaller VCT depth.
            return match kind {
                ThreatKind::Vct => self.attack(board, ThreatKind::Vcf, VCF_TAIL),
                ThreatKind::Vcf => None,
            };
        }
        // Step 2. The cache.
        let key = salted(board, kind);
        if let Some(c) = self.cache.probe(key) {
            if c.win && c.best.is_some_and(|p| board.is_empty_point(p)) {
                return c.best;
            }
            if !c.win && c.depth >= depth {
                self.horizon |= c.depth != EVERY_DEPTH;
                return None;
            }
        }
        // Step 3. Threats, strongest first; a four of the opponent must be blocked. With one attacking move
        // left, only a move that makes two fives at once (an open four, or two fours) can win, unless the
        // defender may be unable to block a single five (renju's black): the others are not tried.
        let outer = std::mem::replace(&mut self.horizon, false);
        let base = self.stack.len();
        match block {
            Some(block) if board.is_legal_at(block.index(), me) => self.stack.push(block),
            Some(_) => {}
            None => {
                let last = depth == 1 && !board.rule().forbids(me.opponent());
                self.attacks(board, me, kind, last);
            }
        }
        let mut win = None;
        for n in base..self.stack.len() {
            let m = self.stack[n];
            board.play_unchecked(m);
            let won = self.defend(board, kind, depth - 1);
            board.undo_unchecked(m);
            if self.aborted || won {
                win = won.then_some(m);
                break;
            }
        }
        self.stack.truncate(base);
        if self.aborted {
            return None;
        }
        // A failure that stopped no line at the depth limit holds at every depth.
        let held = if win.is_none() && !self.horizon { EVERY_DEPTH } else { depth };
        self.horizon |= outer;
        self.cache.store(key, Cached { win: win.is_some(), depth: held, best: win });
        win
    }

    /// The first of up to `limit` points where `color` would make five, and how many there are.
    fn five_points(&mut self, board: &Board, color: Color, limit: usize) -> (Option<Point>, usize) {
        self.fives.clear();
        board.five_points_into(color, &mut self.fives, limit);
        (self.fives.first().copied(), self.fives.len())
    }

    /// Pushes the attacker's threats on the stack, strongest first; with `two_fives_only`, only those that make
    /// two fives at once (noting that the others were left to a deeper search).
    fn attacks(&mut self, board: &Board, me: Color, kind: ThreatKind, two_fives_only: bool) {
        let scored = &mut self.scored;
        scored.clear();
        let horizon = &mut self.horizon;
        let shapes: &[Shape] = if kind == ThreatKind::Vct { &[Shape::Four, Shape::Three] } else { &[Shape::Four] };
        board.for_each_shape(me, shapes, |i| {
            let pats = board.patterns_at(i, me);
            let fours = pats.iter().filter(|p| p.is_four()).count();
            let threes = pats.iter().filter(|&&p| p == Pattern::FlexThree).count();
            let open = pats.iter().any(|p| p.is_open_four());
            let rank = if open || fours >= 2 {
                4
            } else if fours == 1 && threes >= 1 {
                3
            } else if fours == 1 {
                2
            } else if kind == ThreatKind::Vct && threes >= 1 {
                1
            } else {
                return;
            };
            if two_fives_only && rank < 4 {
                *horizon = true;
                return;
            }
            if board.is_legal_at(i, me) {
                scored.push((rank * 100_000 + point_value(board, i, me), Point::from_index(i)));
            }
        });
        scored.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        self.stack.extend(scored.iter().map(|&(_, p)| p));
    }

    /// Whether the attacker (who just moved) wins against every defence.
    fn defend(&mut self, board: &mut Board, kind: ThreatKind, depth: u32) -> bool {
        let d = board.side_to_move();
        let a = d.opponent();
        if self.five_points(board, d, 1).1 > 0 {
            return false;
        }
        match self.five_points(board, a, 2) {
            (_, 2) => return true,
            (Some(block), _) => {
                if !board.is_legal_at(block.index(), d) {
                    return true;
                }
                board.play_unchecked(block);
                let won = self.attack(board, kind, depth).is_some();
                board.undo_unchecked(block);
                return won;
            }
            _ => {}
        }
        // Past a four only an open-four threat is left, and it needs one more attacking move.
        if kind == ThreatKind::Vcf {
            return false;
        }
        if depth == 0 {
            self.horizon = true;
            return false;
        }
        let base = self.stack.len();
        if !defences_into(board, kind, &mut self.stack) {
            return false;
        }
        let mut won = true;
        for n in base..self.stack.len() {
            let m = self.stack[n];
            if !board.is_legal_at(m.index(), d) {
                continue;
            }
            board.play_unchecked(m);
            won = self.attack(board, kind, depth).is_some();
            board.undo_unchecked(m);
            if !won {
                break;
            }
        }
        self.stack.truncate(base);
        won
    }
}

/// The defender's options against the attacker's threat (the defender to move): the block of a four; or, in a
/// VCT, the defender's own fours and the points that leave the attacker no open-four threat (every other move
/// loses to the open four). `None` if the attacker threatens nothing a `kind` search counts; empty if nothing
/// answers the threat.
pub(crate) fn defences(board: &Board, kind: ThreatKind) -> Option<Vec<Point>> {
    let mut out = Vec::new();
    defences_into(board, kind, &mut out).then_some(out)
}

/// [`defences`], appended to `out`: `false` (and nothing appended) where that gives `None`.
fn defences_into(board: &Board, kind: ThreatKind, out: &mut Vec<Point>) -> bool {
    let d = board.side_to_move();
    let a = d.opponent();
    let start = out.len();
    board.five_points_into(a, out, 2);
    if out.len() > start {
        return true;
    }
    if kind == ThreatKind::Vcf {
        return false;
    }
    let mut scratch = board.cells;
    let threats = threat_points(board, &mut scratch, a, usize::MAX);
    if threats.is_empty() {
        return false;
    }
    // The defender's own fours, then the points on the threats' four lines (only they can change what the
    // threat points make) ...
    let own = defence_candidates(board, &threats, Pattern::BlockFour, 5, out);
    // ... that leave the attacker no threat at all: against any other the open four wins. (A defender's
    // stone cannot give the attacker a new threat, except by unblocking a renju forbidden point: such a
    // move is kept, and the search finds out.)
    let rule = board.rule();
    let renju_black = rule.forbids(a);
    let mut kept = own;
    for n in own..out.len() {
        let x = out[n].index();
        let parried = threats.iter().all(|&(t, pats)| {
            t == x
                || (renju_black && with_stones(&mut scratch, &[(x, d)], |cells| rules::is_forbidden(cells, t)))
                || !with_stones(&mut scratch, &[(x, d), (t, a)], |cells| two_fives(cells, t, &pats, a, rule))
        });
        if parried {
            out[kept] = out[n];
            kept += 1;
        }
    }
    out.truncate(kept);
    true
}

/// The defender's options against the attacker's four-three points (the defender to move, the attacker with no
/// open-four threat): points where one stone of the attacker's makes a four on one line and an open three on
/// another, and which win in three moves (the four's block is forced and makes no four for the defender, and
/// the attacker then has an open four to make). The defender's own fours come first (they gain a tempo, and a
/// VCF starts with one), then the points on the threats' lines after which the attacker has no such point
/// left (legal or not: the caller keeps the legal ones, as for [`defences`]). `None` if the attacker has
/// none; empty if nothing answers them.
///
/// A restriction, not a proof: a move elsewhere can still survive (one that prepares a four the defender can
/// answer the open four with, say), and the search does not look at it. Rapfi's classical search restricts its
/// moves in the same places (its `DEFEND_B4F3` stage).
pub(crate) fn four_three_defences(board: &Board) -> Option<Vec<Point>> {
    let d = board.side_to_move();
    let a = d.opponent();
    let mut threats = four_three_candidates(board, a);
    if threats.is_empty() {
        return None;
    }
    // (The board is copied only where there is a point to check.)
    let mut scratch = board.clone();
    threats.retain(|&(t, _)| four_three_wins(&mut scratch, t, a));
    if threats.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let own = defence_candidates(board, &threats, Pattern::FlexThree, 4, &mut out);
    let mut kept = own;
    for n in own..out.len() {
        let x = out[n];
        scratch.play_unchecked(x);
        let parried = !scratch.has_shape(a, Shape::OpenFour) && four_three_points(&mut scratch, a).is_empty();
        scratch.undo_unchecked(x);
        if parried {
            out[kept] = x;
            kept += 1;
        }
    }
    out.truncate(kept);
    Some(out)
}

/// Appends to `out` the defender's candidate answers to `threats` (the defender to move in `board`), each empty
/// point once: its own four points first (they gain a tempo), then each threat point and the cells within
/// `reach` of it along the lines where the threat's pattern is at least `min`. Returns `out`'s length after the
/// defender's fours. (Legality is left to the caller.)
fn defence_candidates(
    board: &Board,
    threats: &[(usize, [Pattern; 4])],
    min: Pattern,
    reach: isize,
    out: &mut Vec<Point>,
) -> usize {
    let mut seen = [0u64; CELLS / 64];
    let mut push = |i: usize, out: &mut Vec<Point>| {
        if seen[i / 64] & 1 << (i % 64) == 0 && board.cells[i] == EMPTY {
            seen[i / 64] |= 1 << (i % 64);
            out.push(Point::from_index(i));
        }
    };
    board.for_each_shape(board.side_to_move(), &[Shape::Four], |i| push(i, out));
    let own = out.len();
    for &(t, pats) in threats {
        push(t, out);
        for (k, &step) in DIRS.iter().enumerate() {
            if pats[k] < min {
                continue;
            }
            for o in -reach..=reach {
                let j = t as isize + o * step;
                if (0..CELLS as isize).contains(&j) {
                    push(j as usize, out);
                }
            }
        }
    }
    own
}

/// The points where `a` (not to move in `board`) would make a four on one line and an open three on another
/// and win in three moves (see [`four_three_wins`]), with their line patterns. Checked by playing them on
/// `board`, which is left as it was.
fn four_three_points(board: &mut Board, a: Color) -> Vec<(usize, [Pattern; 4])> {
    let mut points = four_three_candidates(board, a);
    points.retain(|&(t, _)| four_three_wins(board, t, a));
    points
}

/// The points where `a` would make a four on one line and an open three on another, by the line patterns.
fn four_three_candidates(board: &Board, a: Color) -> Vec<(usize, [Pattern; 4])> {
    let mut out = Vec::new();
    if !board.has_shape(a, Shape::Three) {
        return out;
    }
    board.for_each_shape(a, &[Shape::Four], |i| {
        let pats = board.patterns_at(i, a);
        let four = pats.iter().position(|p| p.is_four());
        let three = |k: usize| four.is_some_and(|f| f != k) && pats[k] == Pattern::FlexThree;
        if (0..4).any(three) {
            out.push((i, pats));
        }
    });
    out
}

/// Whether `a`'s stone on the empty cell `t` (a four and an open three by the patterns; the defender to move in
/// `board`) wins in three moves: the stone is legal, and the defender cannot block the four (it has no legal
/// block), or its one block makes no five point of its own and `a` then has a legal point that makes two fives.
/// Checked with stones placed on `board` and taken away again.
fn four_three_wins(board: &mut Board, t: usize, a: Color) -> bool {
    if !board.is_legal_at(t, a) {
        return false;
    }
    let d = a.opponent();
    board.place(t, a);
    let blocks = board.five_points(a);
    let wins = match blocks[..] {
        [] => false,
        [b] if board.is_legal_at(b.index(), d) => {
            board.place(b.index(), d);
            let mut open_four = false;
            if board.five_points(d).is_empty() {
                board.for_each_shape(a, &[Shape::OpenFour], |i| open_four |= board.is_legal_at(i, a));
            }
            board.remove(b.index(), d);
            open_four
        }
        // No legal block (a renju forbidden point of black's), or two fives already.
        _ => true,
    };
    board.remove(t, a);
    wins
}

/// Up to `limit` points where `a` would make two fives at once (an open four, or two fours), each with its
/// line patterns: the patterns' candidates, confirmed by direct scans on `scratch` (the board's cells).
fn threat_points(board: &Board, scratch: &mut [u8; CELLS], a: Color, limit: usize) -> Vec<(usize, [Pattern; 4])> {
    let mut candidates = Vec::new();
    board.for_each_shape(a, &[Shape::OpenFour, Shape::Four], |i| {
        let pats = board.patterns_at(i, a);
        if pats.iter().any(|p| p.is_open_four()) || pats.iter().filter(|p| p.is_four()).count() >= 2 {
            candidates.push((i, pats));
        }
    });
    let mut confirmed = Vec::new();
    for (t, pats) in candidates {
        if confirmed.len() >= limit {
            break;
        }
        let rule = board.rule();
        if board.is_legal_at(t, a) && with_stones(scratch, &[(t, a)], |cells| two_fives(cells, t, &pats, a, rule)) {
            confirmed.push((t, pats));
        }
    }
    confirmed
}

/// Calls `f` on `cells` with `stones` (empty cells, and colours) added, then takes them away: for direct scans
/// of what those stones would make, cheaper than placing them on a board.
fn with_stones<R>(cells: &mut [u8; CELLS], stones: &[(usize, Color)], f: impl FnOnce(&[u8; CELLS]) -> R) -> R {
    for &(i, color) in stones {
        debug_assert_eq!(cells[i], EMPTY);
        cells[i] = color.as_cell();
    }
    let out = f(cells);
    for &(i, _) in stones {
        cells[i] = EMPTY;
    }
    out
}

/// Whether `a`'s stone on `t` (placed in `cells`) leaves it two points that make five under `rule`, along the
/// lines where `pats` (the patterns of `t` before the stone) say it makes a four.
fn two_fives(cells: &[u8; CELLS], t: usize, pats: &[Pattern; 4], a: Color, rule: Rule) -> bool {
    let along = |k: usize| five_points_along(cells, t, DIRS[k], a, rule);
    (0..4).filter(|&k| pats[k] >= Pattern::BlockFour).map(along).sum::<usize>() >= 2
}

/// How many empty points within four steps of `i` along `d` would give `color` a winning line along `d`.
fn five_points_along(cells: &[u8; CELLS], i: usize, d: isize, color: Color, rule: Rule) -> usize {
    (-4isize..=4)
        .filter(|&o| o != 0)
        .filter(|&o| {
            let q = (i as isize + o * d) as usize;
            cells[q] == EMPTY && rules::wins_along(cells, q, d, color, rule)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_round_trips() {
        let cache = ThreatCache::new(1);
        let key = Key(0xDEAD_BEEF_1234_5678);
        assert_eq!(cache.probe(key), None);
        let c = Cached { win: true, depth: 7, best: Some(Point::new(21, 3)) };
        cache.store(key, c);
        assert_eq!(cache.probe(key), Some(c));
        assert_eq!(cache.probe(Key(key.0 ^ 1)), None);
    }
}
