//! Perft for any [`Game`]: the number of leaves of the legal move tree to a fixed depth, the standard test of a
//! move generator, and a [`PerftTable`] that shares subtree counts between transpositions by Zobrist key.
//!
//! The counters go through [`Game::perft_moves`] (the legal moves, none once the game is over), [`Game::play`]
//! and [`Game::undo`], so they test what the searches use. The last ply is counted in bulk by
//! [`Game::perft_count`] (the length of the move list, or a game's own count without listing the moves;
//! [`perft_without_bulk`] makes those moves too, to time make and undo). Chess and xiangqi count through these
//! same loops with their own generators.
//!
//! # Examples
//!
//! ```
//! use tabula::perft::{divide, perft, perft_hashed, perft_without_bulk, PerftTable};
//! # use tabula::{Game, Key, Outcome};
//! # #[derive(Clone)]
//! # struct Nim(u32);
//! # impl Game for Nim {
//! #     type Move = u32;
//! #     fn legal_moves(&self, moves: &mut Vec<u32>) { moves.extend((1..=self.0.min(3)).rev()) }
//! #     fn play(&mut self, take: u32) { self.0 -= take }
//! #     fn undo(&mut self, take: u32) { self.0 += take }
//! #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
//! #     fn key(&self) -> Key { Key((self.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) }
//! #     fn move_code(take: u32) -> u16 { take as u16 }
//! # }
//! // Nim with 5 stones, taking 1 to 3: 3 + 3 + 2 lines two moves long.
//! let mut game = Nim(5);
//! assert_eq!(perft(&mut game, 2), 8);
//! assert_eq!(perft_without_bulk(&mut game, 3), perft(&mut game, 3));
//! let mut table = PerftTable::new(1 << 10);
//! assert_eq!(perft_hashed(&mut game, 3, &mut table), perft(&mut game, 3));
//! assert_eq!(divide(&mut game, 2).iter().map(|(_, n)| n).sum::<u64>(), 8);
//! ```

use crate::game::Game;
use crate::zobrist::Key;

/// Number of leaf positions `depth` plies below `game`. `game` is restored before returning.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut buffers = Vec::new();
    count(game, depth, &mut buffers, &mut None)
}

/// The perft count `depth - 1` plies below each legal move, in generation order. Empty at depth 0.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    divide_with(game, depth, None, |_, _| {})
}

/// [`divide`] through an optional table, calling `each` after every root move (for progress and printing).
pub fn divide_with<G: Game>(
    game: &mut G,
    depth: u32,
    mut table: Option<&mut PerftTable>,
    mut each: impl FnMut(G::Move, u64),
) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    game.perft_moves(&mut moves);
    let mut buffers = Vec::new();
    moves
        .into_iter()
        .map(|mv| {
            game.play(mv);
            let nodes = count(game, depth - 1, &mut buffers, &mut table);
            game.undo(mv);
            each(mv, nodes);
            (mv, nodes)
        })
        .collect()
}

/// [`perft`] without bulk counting: every move of the last ply is made and taken back.
pub fn perft_without_bulk<G: Game>(game: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.perft_moves(&mut moves);
    let mut nodes = 0;
    for mv in moves {
        game.play(mv);
        nodes += perft_without_bulk(game, depth - 1);
        game.undo(mv);
    }
    nodes
}

/// [`perft`] that looks up and stores subtree counts of depth 2 and more in `table`.
pub fn perft_hashed<G: Game>(game: &mut G, depth: u32, table: &mut PerftTable) -> u64 {
    let mut buffers = Vec::new();
    count(game, depth, &mut buffers, &mut Some(table))
}

/// The counter: one move buffer per remaining depth, reused across siblings.
fn count<G: Game>(
    game: &mut G,
    depth: u32,
    buffers: &mut Vec<Vec<G::Move>>,
    table: &mut Option<&mut PerftTable>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = buffers.pop().unwrap_or_default();
    moves.clear();
    if depth == 1 {
        let nodes = game.perft_count(&mut moves);
        buffers.push(moves);
        return nodes;
    }
    let key = table.as_ref().map(|_| game.key());
    if let Some(count) = key.and_then(|key| table.as_ref()?.probe(key, depth)) {
        buffers.push(moves);
        return count;
    }
    game.perft_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        game.play(mv);
        nodes += count(game, depth - 1, buffers, table);
        game.undo(mv);
    }
    buffers.push(moves);
    if let (Some(t), Some(key)) = (table.as_mut(), key) {
        t.store(key, depth, nodes);
    }
    nodes
}

/// One slot: the full 64-bit key and the count with the depth in its low 8 bits.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    count_and_depth: u64,
}

/// A table of perft subtree counts keyed by (Zobrist key, depth), always-replace.
///
/// The full key is stored and compared, so a count is reused only for a position with the same key at the same
/// depth: exact as long as positions with equal keys have equal subtrees (for chess, the move clocks the
/// Polyglot key leaves out do not change perft counts).
pub struct PerftTable {
    entries: Vec<Entry>,
    mask: usize,
}

impl PerftTable {
    /// A table of at least `entries` slots (rounded up to a power of two; 16 bytes each).
    pub fn new(entries: usize) -> PerftTable {
        let size = entries.max(1).next_power_of_two();
        PerftTable { entries: vec![Entry::default(); size], mask: size - 1 }
    }

    /// A table of about `mib` mebibytes.
    pub fn with_mib(mib: usize) -> PerftTable {
        PerftTable::new((mib.max(1) << 20) / std::mem::size_of::<Entry>())
    }

    #[inline(always)]
    fn slot(&self, key: u64, depth: u32) -> usize {
        // Mix the depth in so that one position's counts at several depths use different slots.
        (key ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) as usize & self.mask
    }

    /// The count stored for `key` at `depth`, if any.
    #[inline]
    pub fn probe(&self, key: Key, depth: u32) -> Option<u64> {
        let entry = self.entries[self.slot(key.0, depth)];
        (entry.key == key.0 && entry.count_and_depth & 0xff == depth as u64 && entry.count_and_depth != 0)
            .then_some(entry.count_and_depth >> 8)
    }

    /// Stores the count of `key`'s subtree at `depth` (below 256; counts below 2^56).
    #[inline]
    pub fn store(&mut self, key: Key, depth: u32, count: u64) {
        debug_assert!(depth < 256 && count < 1 << 56);
        let slot = self.slot(key.0, depth);
        self.entries[slot] = Entry { key: key.0, count_and_depth: count << 8 | depth as u64 };
    }
}
