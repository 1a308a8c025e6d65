//! The board: stones, chains with exact liberty counts, captures, simple ko and the Zobrist key.
//!
//! Stones of one chain form a circular linked list (`next`), every stone names its chain's head, and the head
//! holds the chain's stone count and its exact number of liberties. Placing a stone updates the neighbouring
//! chains' counts locally; only a merged chain is recounted by walking its stones. Removing a stone (undo)
//! can split a chain, so [`Board::unplace`] rebuilds the few chains around the change by flood fill.
//!
//! The key is XORed in `put` and `remove`, the only two places that change a point, so it
//! cannot go stale. It is a [`Key128`]: the superko history compares whole-game positions, where a false
//! match would forbid a legal move, and 128 bits make that impossible in practice; the 64-bit [`Key`] a
//! transposition table wants is its low half, so the two can never disagree.
//!
//! # Examples
//!
//! ```
//! use tabula_go::board::Board;
//! use tabula_go::coords::{Color, Point};
//!
//! let mut board = Board::new(5).unwrap();
//! let mut captured = Vec::new();
//! // A white stone in the corner, surrounded by two black stones.
//! board.place(Point::new(0, 0), Color::White, &mut captured);
//! board.place(Point::new(1, 0), Color::Black, &mut captured);
//! assert_eq!(board.liberties(Point::new(0, 0)), 1);
//! let record = board.place(Point::new(0, 1), Color::Black, &mut captured);
//! assert_eq!(captured, [Point::new(0, 0)]);
//! assert_eq!(board.get(Point::new(0, 0)), None);
//! // Undo puts the white stone back.
//! board.unplace(record, &captured);
//! assert_eq!(board.get(Point::new(0, 0)), Some(Color::White));
//! ```

use crate::coords::{Color, Point, MAX_POINTS, MAX_SIZE, MIN_SIZE};
use std::fmt;
use tabula::zobrist::{Key, Key128, Layout, ZobristKeys};
use thiserror::Error;

/// The key layout: one key per (point slot, colour), and one extra for "white to move" (situational
/// superko and the search key).
pub const LAYOUT: Layout = Layout::new(MAX_POINTS, Color::COUNT, 1);
/// The Go keys, generated at compile time from a fixed seed.
pub const KEYS: ZobristKeys<Key128, { LAYOUT.len() }> = ZobristKeys::<Key128, { LAYOUT.len() }>::generate(0x60_60_60);

/// The key of `color` standing on `point`.
#[inline(always)]
pub const fn stone_key(point: Point, color: Color) -> Key128 {
    KEYS.get(LAYOUT.feature(point.index(), color.index()))
}

/// The key XORed in when white is to move.
pub const WHITE_TO_MOVE: Key128 = KEYS.get(LAYOUT.extra(0));

/// A board side outside `2..=25`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("board size {0} is out of range: expected {MIN_SIZE} to {MAX_SIZE}")]
pub struct SizeError(pub usize);

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The point is not on the board.
    #[error("{0} is off the board")]
    OffBoard(Point),
    /// The point already holds a stone.
    #[error("{0} is occupied")]
    Occupied(Point),
    /// The move would leave its own chain without liberties (and suicide is forbidden, or it is a single
    /// stone, which is never allowed).
    #[error("{0} is suicide")]
    Suicide(Point),
    /// The move retakes a ko at once.
    #[error("{0} retakes the ko")]
    Ko(Point),
    /// The move would repeat an earlier position (superko).
    #[error("{0} repeats an earlier position (superko)")]
    Superko(Point),
}

/// What a legal stone move would do, worked out without changing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEffect {
    /// The board key after the move.
    pub key_after: Key128,
    /// Number of enemy stones it captures.
    pub captures: usize,
    /// Whether it removes its own chain (only when suicide is allowed).
    pub suicide: bool,
}

/// What [`Board::place`] needs back to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaceRecord {
    /// The point played.
    pub point: Point,
    /// The colour played.
    pub color: Color,
    /// How many stones the move removed (pushed at the end of the caller's buffer).
    pub removed: u16,
    /// Whether the removed stones are the mover's own (suicide) rather than the opponent's.
    pub suicide: bool,
    /// The ko point before the move.
    pub ko_before: Option<Point>,
}

const NONE: u16 = u16::MAX;

/// Joins the chain of the stone `small` to the chain headed by `big`, on a board that keeps each chain as a circle
/// of stones (`next`), each stone knowing its chain's head (`head`): the stones of `small`'s chain take `big` as
/// their head, and the two circles become one. (The board and the engine's playout board both keep chains so.)
#[inline]
pub(crate) fn join_chains(head: &mut [u16], next: &mut [u16], big: usize, small: usize) {
    let mut s = small;
    loop {
        head[s] = big as u16;
        s = next[s] as usize;
        if s == small {
            break;
        }
    }
    next.swap(big, small);
}

/// A Go board of side 2 to 25 with chains, liberties, prisoners, the simple-ko point and a Zobrist key.
#[derive(Clone)]
pub struct Board {
    size: usize,
    cells: [Option<Color>; MAX_POINTS],
    /// For a stone: the head of its chain.
    head: [u16; MAX_POINTS],
    /// For a stone: the next stone of its chain (circular).
    next: [u16; MAX_POINTS],
    /// For a head: the chain's stone count.
    stones: [u16; MAX_POINTS],
    /// For a head: the chain's exact liberty count.
    libs: [u16; MAX_POINTS],
    key: Key128,
    ko: Option<Point>,
    prisoners: [u32; Color::COUNT],
    /// Scratch marks for liberty counts and flood fills; a mark is current when it equals `generation`.
    marks: [u32; MAX_POINTS],
    generation: u32,
}

/// Up to four neighbours of a point.
#[derive(Clone, Copy)]
pub struct Neighbors {
    points: [Point; 4],
    len: u8,
    at: u8,
}

impl Iterator for Neighbors {
    type Item = Point;
    #[inline(always)]
    fn next(&mut self) -> Option<Point> {
        (self.at < self.len).then(|| {
            self.at += 1;
            self.points[self.at as usize - 1]
        })
    }
}

impl Board {
    /// An empty board of side `size`.
    ///
    /// # Errors
    ///
    /// [`SizeError`] unless `2 <= size <= 25`.
    pub fn new(size: usize) -> Result<Board, SizeError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SizeError(size));
        }
        Ok(Board {
            size,
            cells: [None; MAX_POINTS],
            head: [NONE; MAX_POINTS],
            next: [NONE; MAX_POINTS],
            stones: [0; MAX_POINTS],
            libs: [0; MAX_POINTS],
            key: Key128::ZERO,
            ko: None,
            prisoners: [0; 2],
            marks: [0; MAX_POINTS],
            generation: 0,
        })
    }

    /// The side of the board.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Every point of the board, row by row from the bottom.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        let size = self.size;
        (0..size).flat_map(move |row| (0..size).map(move |column| Point::new(column, row)))
    }

    /// The stone on `point`, if any.
    #[inline(always)]
    pub fn get(&self, point: Point) -> Option<Color> {
        self.cells[point.index()]
    }

    /// Whether the board has no stone.
    pub fn is_empty(&self) -> bool {
        self.key == Key128::ZERO && self.points().all(|p| self.get(p).is_none())
    }

    /// The key of the stones on the board (no side to move).
    #[inline(always)]
    pub fn key(&self) -> Key128 {
        self.key
    }

    /// The 64-bit key of the stones: the low half of [`key`](Board::key).
    #[inline(always)]
    pub fn key64(&self) -> Key {
        self.key.to_key()
    }

    /// The point where an immediate recapture is forbidden, if the last move took a ko.
    #[inline(always)]
    pub fn ko(&self) -> Option<Point> {
        self.ko
    }

    /// Clears the ko point, as a pass does; returns the old one for undo.
    pub fn clear_ko(&mut self) -> Option<Point> {
        self.ko.take()
    }

    /// Restores a ko point saved by [`clear_ko`](Board::clear_ko).
    pub fn restore_ko(&mut self, ko: Option<Point>) {
        self.ko = ko;
    }

    /// Stones of `color` captured by the opponent so far.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// The neighbours of `point` on the board.
    #[inline(always)]
    pub fn neighbors(&self, point: Point) -> Neighbors {
        let (c, r, last) = (point.column(), point.row(), self.size - 1);
        let mut n = Neighbors { points: [point; 4], len: 0, at: 0 };
        let mut push = |p: Point| {
            n.points[n.len as usize] = p;
            n.len += 1;
        };
        if c > 0 {
            push(Point::new(c - 1, r));
        }
        if c < last {
            push(Point::new(c + 1, r));
        }
        if r > 0 {
            push(Point::new(c, r - 1));
        }
        if r < last {
            push(Point::new(c, r + 1));
        }
        n
    }

    /// The head of the chain on `point` (which must hold a stone).
    #[inline(always)]
    fn head_of(&self, point: Point) -> usize {
        self.head[point.index()] as usize
    }

    /// The exact number of liberties of the chain on `point`, 0 if the point is empty.
    pub fn liberties(&self, point: Point) -> usize {
        match self.get(point) {
            Some(_) => self.libs[self.head_of(point)] as usize,
            None => 0,
        }
    }

    /// The stones of the chain on `point`, empty if the point is empty.
    pub fn chain(&self, point: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if self.get(point).is_some() {
            self.for_each_stone(point.index(), |p| out.push(p));
        }
        out
    }

    fn for_each_stone(&self, start: usize, mut f: impl FnMut(Point)) {
        let mut s = start;
        loop {
            f(Point::from_index(s));
            s = self.next[s] as usize;
            if s == start {
                break;
            }
        }
    }

    /// Whether `color` may play on `point` here, ignoring superko, and what the move would do.
    /// Works on the board as it is: nothing is cloned or changed.
    ///
    /// A suicide that removes only the stone just played changes nothing and is never allowed (as in the
    /// New Zealand rules); a suicide that removes a larger chain is allowed when `allow_suicide` is set.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`]: off the board, occupied, simple ko, or forbidden suicide.
    pub fn effect(&self, point: Point, color: Color, allow_suicide: bool) -> Result<MoveEffect, IllegalMove> {
        if !point.is_on(self.size) {
            return Err(IllegalMove::OffBoard(point));
        }
        if self.get(point).is_some() {
            return Err(IllegalMove::Occupied(point));
        }
        if self.ko == Some(point) {
            return Err(IllegalMove::Ko(point));
        }
        let mut key = self.key ^ stone_key(point, color);
        let mut has_liberty = false;
        let mut captures = 0;
        let mut seen = [NONE; 4];
        let mut friends = [NONE; 4];
        for (i, n) in self.neighbors(point).enumerate() {
            let Some(other) = self.get(n) else {
                has_liberty = true;
                continue;
            };
            let h = self.head_of(n);
            if seen.contains(&(h as u16)) {
                continue;
            }
            seen[i] = h as u16;
            // `point` is one liberty of every neighbouring chain: more than one means it survives.
            if other == color {
                friends[i] = h as u16;
                has_liberty |= self.libs[h] > 1;
            } else if self.libs[h] == 1 {
                has_liberty = true;
                captures += self.stones[h] as usize;
                self.for_each_stone(h, |s| key ^= stone_key(s, other));
            }
        }
        if has_liberty {
            return Ok(MoveEffect { key_after: key, captures, suicide: false });
        }
        if !allow_suicide || friends.iter().all(|&h| h == NONE) {
            return Err(IllegalMove::Suicide(point));
        }
        // The played stone and every friendly neighbour chain leave the board.
        let mut key = self.key;
        for h in friends.into_iter().filter(|&h| h != NONE) {
            self.for_each_stone(h as usize, |s| key ^= stone_key(s, color));
        }
        Ok(MoveEffect { key_after: key, captures: 0, suicide: true })
    }

    /// Puts a stone on an empty point, as one-stone chain; the one place besides `remove`
    /// that changes a point and its key.
    #[inline(always)]
    fn put(&mut self, point: Point, color: Color) {
        let i = point.index();
        debug_assert!(self.cells[i].is_none());
        self.cells[i] = Some(color);
        self.key ^= stone_key(point, color);
        self.head[i] = i as u16;
        self.next[i] = i as u16;
        self.stones[i] = 1;
        self.libs[i] = self.neighbors(point).filter(|&n| self.get(n).is_none()).count() as u16;
    }

    /// Takes a stone off the board (chain bookkeeping is the caller's job).
    #[inline(always)]
    fn remove(&mut self, point: Point) {
        let i = point.index();
        let color = self.cells[i].take().expect("remove: the point holds a stone");
        self.key ^= stone_key(point, color);
        self.head[i] = NONE;
        self.next[i] = NONE;
    }

    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks = [0; MAX_POINTS];
            self.generation = 1;
        }
        self.generation
    }

    /// Recounts the liberties of the chain headed by `h`.
    fn recount(&mut self, h: usize) {
        let generation = self.next_generation();
        let mut count = 0;
        let mut s = h;
        loop {
            for n in self.neighbors(Point::from_index(s)) {
                if self.get(n).is_none() && self.marks[n.index()] != generation {
                    self.marks[n.index()] = generation;
                    count += 1;
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        self.libs[h] = count;
    }

    /// Joins the chains headed by `a` and `b`; returns the new head.
    fn merge(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.stones[a] >= self.stones[b] { (a, b) } else { (b, a) };
        join_chains(&mut self.head, &mut self.next, big, small);
        self.stones[big] += self.stones[small];
        big
    }

    /// Removes the chain headed by `h`, pushing its stones to `removed`, and gives the freed points to the
    /// neighbouring chains as liberties.
    fn remove_chain(&mut self, h: usize, removed: &mut Vec<Point>) -> usize {
        let start = removed.len();
        self.for_each_stone(h, |s| removed.push(s));
        for &s in &removed[start..] {
            self.remove(s);
        }
        for &s in &removed[start..] {
            let mut seen = [NONE; 4];
            for (i, n) in self.neighbors(s).enumerate() {
                if self.get(n).is_some() {
                    let nh = self.head[n.index()];
                    if !seen.contains(&nh) {
                        seen[i] = nh;
                        self.libs[nh as usize] += 1;
                    }
                }
            }
        }
        removed.len() - start
    }

    /// Plays `color` on `point` with no legality check beyond debug assertions: captures, then removes the
    /// mover's own chain if it has no liberty left (suicide). Removed stones are pushed to `removed`.
    /// Check the move first with [`effect`](Board::effect).
    ///
    /// # Panics
    ///
    /// If `point` holds a stone.
    pub fn place(&mut self, point: Point, color: Color, removed: &mut Vec<Point>) -> PlaceRecord {
        let ko_before = self.ko;
        let enemy = color.opponent();
        // Step 1. The stone, as a one-stone chain.
        self.put(point, color);
        let mut own = point.index();
        // Step 2. It takes a liberty from each enemy neighbour chain and joins each friendly one.
        let mut enemies = [NONE; 4];
        for (i, n) in self.neighbors(point).enumerate() {
            match self.get(n) {
                Some(c) if c == enemy => {
                    let h = self.head[n.index()];
                    if !enemies.contains(&h) {
                        enemies[i] = h;
                        self.libs[h as usize] -= 1;
                    }
                }
                Some(_) => {
                    let h = self.head_of(n);
                    if h != own {
                        own = self.merge(own, h);
                    }
                }
                None => {}
            }
        }
        if self.stones[own] > 1 {
            self.recount(own);
        }
        // Step 3. Enemy chains left without liberties are captured.
        let mut captured = 0;
        for h in enemies {
            if h != NONE && self.libs[h as usize] == 0 && self.get(Point::from_index(h as usize)) == Some(enemy) {
                captured += self.remove_chain(h as usize, removed);
            }
        }
        self.prisoners[enemy.index()] += captured as u32;
        // Step 4. No liberty and no capture: suicide removes the mover's chain.
        let suicide = self.libs[own] == 0;
        let count = if suicide {
            debug_assert_eq!(captured, 0);
            let n = self.remove_chain(own, removed);
            self.prisoners[color.index()] += n as u32;
            n
        } else {
            captured
        };
        // Step 5. One stone took one stone and is left in atari: the opponent may not retake at once.
        self.ko = None;
        if captured == 1 && self.stones[own] == 1 && self.libs[own] == 1 {
            self.ko = removed.last().copied();
        }
        PlaceRecord { point, color, removed: count as u16, suicide, ko_before }
    }

    /// Takes back the move `record` describes; `removed` ends with the stones it removed.
    pub fn unplace(&mut self, record: PlaceRecord, removed: &[Point]) {
        let removed = &removed[removed.len() - record.removed as usize..];
        let removed_color = if record.suicide { record.color } else { record.color.opponent() };
        if !record.suicide {
            self.remove(record.point);
        }
        self.prisoners[removed_color.index()] -= removed.len() as u32;
        for &s in removed {
            if s != record.point {
                self.cells[s.index()] = Some(removed_color);
                self.key ^= stone_key(s, removed_color);
            }
        }
        // Chains touching the change may have split, merged or changed liberties: rebuild them.
        let mut seeds: Vec<Point> = self.neighbors(record.point).collect();
        for &s in removed {
            seeds.push(s);
            seeds.extend(self.neighbors(s));
        }
        self.rebuild(&seeds);
        self.ko = record.ko_before;
    }

    /// Rebuilds, by flood fill, every chain containing one of `seeds`, then recounts their liberties.
    fn rebuild(&mut self, seeds: &[Point]) {
        let generation = self.next_generation();
        let mut heads = Vec::new();
        let mut stack = Vec::new();
        for &seed in seeds {
            let Some(color) = self.get(seed) else { continue };
            if self.marks[seed.index()] == generation {
                continue;
            }
            let h = seed.index();
            self.marks[h] = generation;
            stack.push(seed);
            let mut prev = h;
            let mut count = 0;
            while let Some(p) = stack.pop() {
                self.head[p.index()] = h as u16;
                if p.index() != h {
                    self.next[prev] = p.index() as u16;
                    prev = p.index();
                }
                count += 1;
                for n in self.neighbors(p) {
                    if self.get(n) == Some(color) && self.marks[n.index()] != generation {
                        self.marks[n.index()] = generation;
                        stack.push(n);
                    }
                }
            }
            self.next[prev] = h as u16;
            self.stones[h] = count;
            heads.push(h);
        }
        for h in heads {
            self.recount(h);
        }
    }

    /// Sets `point` to `stone` (setup, such as handicap stones): no captures, chains rebuilt around it.
    /// The result may contain a chain without liberties; callers validate.
    pub fn set(&mut self, point: Point, stone: Option<Color>) {
        if self.get(point).is_some() {
            self.remove(point);
        }
        if let Some(color) = stone {
            self.cells[point.index()] = Some(color);
            self.key ^= stone_key(point, color);
        }
        let mut seeds: Vec<Point> = self.neighbors(point).collect();
        seeds.push(point);
        self.rebuild(&seeds);
        self.ko = None;
    }

    /// Whether every chain has a liberty.
    pub fn all_chains_have_liberties(&self) -> bool {
        self.points().all(|p| self.get(p).is_none() || self.liberties(p) > 0)
    }

    /// Recomputes the key from the stones, for tests of the incremental key.
    pub fn key_from_scratch(&self) -> Key128 {
        self.points().filter_map(|p| self.get(p).map(|c| stone_key(p, c))).fold(Key128::ZERO, |k, x| k ^ x)
    }

    /// Checks every chain's head, list, stone count and liberty count against a recount from scratch.
    pub fn chains_are_consistent(&self) -> bool {
        self.points().filter(|&p| self.get(p).is_some()).all(|p| {
            let mut expected: Vec<Point> = Vec::new();
            let mut stack = vec![p];
            let color = self.get(p);
            while let Some(q) = stack.pop() {
                if !expected.contains(&q) {
                    expected.push(q);
                    stack.extend(self.neighbors(q).filter(|&n| self.get(n) == color));
                }
            }
            let mut libs: Vec<Point> =
                expected.iter().flat_map(|&q| self.neighbors(q)).filter(|&n| self.get(n).is_none()).collect();
            libs.sort();
            libs.dedup();
            let mut chain = self.chain(p);
            chain.sort();
            expected.sort();
            let h = self.head_of(p);
            chain == expected
                && self.stones[h] as usize == expected.len()
                && self.libs[h] as usize == libs.len()
                && expected.iter().all(|&q| self.head_of(q) == h)
        })
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for Board {
    /// A text diagram, top row first: `X` black, `O` white, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.size).rev() {
            let line: Vec<&str> = (0..self.size)
                .map(|c| match self.get(Point::new(c, row)) {
                    Some(Color::Black) => "X",
                    Some(Color::White) => "O",
                    None => ".",
                })
                .collect();
            writeln!(f, "{}", line.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::KO_STONES;
    use tabula::zobrist::SplitMix64;

    fn p(s: &str, size: usize) -> Point {
        Point::from_gtp(s, size).unwrap()
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert_eq!(Board::new(1).unwrap_err(), SizeError(1));
        assert!(Board::new(26).is_err());
        assert!(Board::new(2).is_ok() && Board::new(25).is_ok());
    }

    #[test]
    fn ko_is_detected_and_forbidden_once() {
        let mut b = Board::new(4).unwrap();
        let mut r = Vec::new();
        for (s, c) in KO_STONES {
            b.place(p(s, 4), c, &mut r);
        }
        let e = b.effect(p("C3", 4), Color::Black, false).unwrap();
        assert_eq!(e.captures, 1);
        b.place(p("C3", 4), Color::Black, &mut r);
        assert_eq!(b.ko(), Some(p("B3", 4)));
        assert_eq!(b.effect(p("B3", 4), Color::White, false), Err(IllegalMove::Ko(p("B3", 4))));
        assert!(b.chains_are_consistent());
    }

    #[test]
    fn suicide_rules() {
        // On 2x2: black A1, B2; white plays A2? no: make a white stone with no liberties.
        let mut b = Board::new(3).unwrap();
        let mut r = Vec::new();
        b.place(p("A2", 3), Color::Black, &mut r);
        b.place(p("B1", 3), Color::Black, &mut r);
        // White A1 would be a single-stone suicide: never allowed.
        assert!(matches!(b.effect(p("A1", 3), Color::White, true), Err(IllegalMove::Suicide(_))));
        // Black A1 fills its own liberty; still has liberties.
        let mut b = Board::new(3).unwrap();
        b.place(p("A1", 3), Color::White, &mut r);
        b.place(p("B2", 3), Color::Black, &mut r);
        b.place(p("A3", 3), Color::Black, &mut r);
        b.place(p("C1", 3), Color::Black, &mut r);
        // White A2 joins A1: the chain A1-A2 has liberty B1 only; white B1 would then be multi-stone suicide.
        b.place(p("A2", 3), Color::White, &mut r);
        assert!(matches!(b.effect(p("B1", 3), Color::White, false), Err(IllegalMove::Suicide(_))));
        let e = b.effect(p("B1", 3), Color::White, true).unwrap();
        assert!(e.suicide);
        let before = b.key();
        r.clear();
        let rec = b.place(p("B1", 3), Color::White, &mut r);
        assert_eq!(b.key(), e.key_after);
        assert_eq!(r.len(), 3);
        assert!(b.chains_are_consistent());
        b.unplace(rec, &r);
        assert_eq!(b.key(), before);
        assert!(b.chains_are_consistent());
    }

    #[test]
    fn random_play_and_undo_keep_chains_and_keys_exact() {
        let mut rng = SplitMix64::new(5);
        for size in [2, 3, 5, 9] {
            let mut b = Board::new(size).unwrap();
            let mut removed = Vec::new();
            let mut records = Vec::new();
            let mut keys = vec![b.key()];
            for step in 0..400 {
                let undo = rng.next() % 5 == 0 && !records.is_empty();
                if undo {
                    let rec: PlaceRecord = records.pop().unwrap();
                    b.unplace(rec, &removed);
                    removed.truncate(removed.len() - rec.removed as usize);
                    keys.pop();
                    assert_eq!(b.key(), *keys.last().unwrap(), "step {step}");
                } else {
                    let color = if rng.next() % 2 == 0 { Color::Black } else { Color::White };
                    let pts: Vec<Point> = b.points().filter(|&q| b.effect(q, color, true).is_ok()).collect();
                    if pts.is_empty() {
                        continue;
                    }
                    let q = pts[(rng.next() % pts.len() as u64) as usize];
                    let e = b.effect(q, color, true).unwrap();
                    let rec = b.place(q, color, &mut removed);
                    assert_eq!(b.key(), e.key_after);
                    assert_eq!(rec.removed as usize, if e.suicide { rec.removed as usize } else { e.captures });
                    records.push(rec);
                    keys.push(b.key());
                }
                assert_eq!(b.key(), b.key_from_scratch());
                assert!(b.chains_are_consistent(), "step {step}\n{b}");
                assert!(b.all_chains_have_liberties());
            }
        }
    }
}
