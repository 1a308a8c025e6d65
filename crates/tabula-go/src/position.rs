//! A game in progress: the board, the rules (ko, superko, suicide), komi, whose turn it is, and the history
//! that undo and superko need.
//!
//! Superko is checked against a set of the keys of every earlier position of the game: the board's
//! [`Key128`] for the positional rule, the same key with the side to move mixed in for the situational rule.
//! A move's resulting key is computed by [`Board::effect`] without playing it, so legality costs one set
//! lookup on top of the local capture and suicide checks.
//!
//! Two consecutive passes end the game: [`Position::is_over`] says so and the search sees no more moves,
//! but [`Position::play`] still accepts moves, as a GTP controller may resume a game to settle dead stones.
//!
//! # Examples
//!
//! ```
//! use tabula_go::coords::{Color, Move, Point};
//! use tabula_go::position::{KoRule, Position, Rules};
//!
//! let mut game = Position::new(9, Rules::default()).unwrap();
//! assert_eq!(game.rules().ko, KoRule::Positional);
//! game.play(Move::Play(Point::new(2, 2)), Color::Black).unwrap();
//! assert!(game.play(Move::Play(Point::new(2, 2)), Color::White).is_err()); // occupied
//! game.play(Move::Pass, Color::White).unwrap();
//! game.play(Move::Pass, Color::Black).unwrap();
//! assert!(game.is_over());
//! game.undo();
//! assert!(!game.is_over());
//! ```

use crate::board::{Board, IllegalMove, PlaceRecord, SizeError, WHITE_TO_MOVE};
use crate::coords::{Color, Move, Point, MAX_POINTS};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use tabula::zobrist::{Key, Key128, ZobristKeys};
use thiserror::Error;

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum KoRule {
    /// Only the immediate retaking of a single-stone ko.
    Simple,
    /// No move may recreate an earlier board (Chinese, Tromp–Taylor).
    #[default]
    Positional,
    /// No move may recreate an earlier board with the same player to move (New Zealand, AGA).
    Situational,
}

/// The rule set a [`Position`] follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// The ko rule; positional superko by default.
    pub ko: KoRule,
    /// Whether a move may remove its own chain of two or more stones (Tromp–Taylor, New Zealand).
    /// A single-stone suicide is never allowed: it would leave the board unchanged. Off by default.
    pub suicide: bool,
}

/// A setup that cannot start a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// Setup stones are only placed before the first move.
    #[error("setup stones can only be placed before the first move")]
    MovesPlayed,
    /// The point is off the board.
    #[error("setup point {0} is off the board")]
    OffBoard(Point),
    /// The setup leaves a chain without liberties.
    #[error("setup leaves the chain at {0} without liberties")]
    NoLiberties(Point),
}

/// Keys are already uniformly random, so sets and maps of keys hash them by taking their low bits.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

type KeySet = HashSet<Key128, BuildHasherDefault<KeyHasher>>;

/// Extra keys for the search key only: one per simple-ko point, and the last for "the previous move was a
/// pass" (the next pass ends the game). Both change what may follow, so a transposition table must tell
/// such positions apart.
pub(crate) const SEARCH_KEYS: ZobristKeys<Key, { MAX_POINTS + 1 }> =
    ZobristKeys::<Key, { MAX_POINTS + 1 }>::generate(0x0006_06b0);

/// The 64-bit search key of `board` with `to_move` to play after `passes` consecutive passes: the key
/// [`Position::key`] gives, for searches that play moves on a bare [`Board`].
pub fn search_key(board: &Board, to_move: Color, passes: u8) -> Key {
    let mut key = match to_move {
        Color::Black => board.key64(),
        Color::White => (board.key() ^ WHITE_TO_MOVE).to_key(),
    };
    if let Some(ko) = board.ko() {
        key ^= SEARCH_KEYS.get(ko.index());
    }
    if passes == 1 {
        key ^= SEARCH_KEYS.get(MAX_POINTS);
    }
    key
}

/// One move of the history, with what undo needs.
#[derive(Clone, Copy, Debug)]
struct Played {
    color: Color,
    mv: Move,
    place: Option<PlaceRecord>,
    /// For a pass: the ko point it cleared.
    ko_before: Option<Point>,
    passes_before: u8,
    to_move_before: Color,
    /// Whether the key of the position after the move entered the superko set (it may have been there).
    new_key: bool,
}

/// A game of Go: board, rules, komi, side to move and history.
#[derive(Clone)]
pub struct Position {
    board: Board,
    rules: Rules,
    komi: f64,
    to_move: Color,
    passes: u8,
    history: Vec<Played>,
    /// Stones removed by the moves of `history`, in order.
    removed: Vec<Point>,
    /// Superko keys of every position of the game so far, the current one included.
    seen: KeySet,
}

impl Position {
    /// An empty board of side `size`, black to move, komi 0.
    ///
    /// # Errors
    ///
    /// [`SizeError`] unless `2 <= size <= 25`.
    pub fn new(size: usize, rules: Rules) -> Result<Position, SizeError> {
        let mut position = Position {
            board: Board::new(size)?,
            rules,
            komi: 0.0,
            to_move: Color::Black,
            passes: 0,
            history: Vec::new(),
            removed: Vec::new(),
            seen: KeySet::default(),
        };
        position.reset_seen();
        Ok(position)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Komi: points added to white's score.
    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// Sets komi.
    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the player to move (after handicap, or from a record), keeping the history.
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
        if self.history.is_empty() {
            self.reset_seen();
        }
    }

    /// Consecutive passes at the end of the game so far.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// Whether two consecutive passes have ended the game.
    pub fn is_over(&self) -> bool {
        self.passes >= 2
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.history.iter().map(|p| (p.color, p.mv))
    }

    /// Number of moves played.
    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    fn reset_seen(&mut self) {
        self.seen.clear();
        self.seen.insert(self.superko_key(self.board.key(), self.to_move));
    }

    /// The 64-bit key of the position for a transposition table: the board, the side to move, the simple-ko
    /// point and whether the last move was a pass. The superko history is not part of it, so under a
    /// superko rule two positions with one key may still differ in which moves are legal.
    pub fn key(&self) -> Key {
        search_key(&self.board, self.to_move, self.passes)
    }

    /// The superko key of a board with key `board_key` and `to_move` to play, under these rules.
    pub fn superko_key(&self, board_key: Key128, to_move: Color) -> Key128 {
        match (self.rules.ko, to_move) {
            (KoRule::Situational, Color::White) => board_key ^ WHITE_TO_MOVE,
            _ => board_key,
        }
    }

    /// Whether a position with superko key `key` (see [`superko_key`](Position::superko_key)) occurred
    /// earlier in this game; always false under the simple ko rule.
    pub fn repeats(&self, key: Key128) -> bool {
        self.rules.ko != KoRule::Simple && self.seen.contains(&key)
    }

    /// Whether `color` may play `mv` now. A pass is always legal.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] saying why not.
    pub fn check(&self, mv: Move, color: Color) -> Result<(), IllegalMove> {
        let Move::Play(point) = mv else { return Ok(()) };
        let effect = self.board.effect(point, color, self.rules.suicide)?;
        if self.rules.ko != KoRule::Simple && self.seen.contains(&self.superko_key(effect.key_after, color.opponent()))
        {
            return Err(IllegalMove::Superko(point));
        }
        Ok(())
    }

    /// Whether `color` may play `mv` now.
    pub fn is_legal(&self, mv: Move, color: Color) -> bool {
        self.check(mv, color).is_ok()
    }

    /// Appends every legal move of `color` to `moves`, points in board order, then the pass.
    pub fn legal_moves_for(&self, color: Color, moves: &mut Vec<Move>) {
        moves.extend(self.board.points().map(Move::Play).filter(|&mv| self.is_legal(mv, color)));
        moves.push(Move::Pass);
    }

    /// Plays `mv` for `color` if it is legal; the other colour is then to move.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] saying why the move is illegal; the position is unchanged.
    pub fn play(&mut self, mv: Move, color: Color) -> Result<(), IllegalMove> {
        self.check(mv, color)?;
        self.play_unchecked(mv, color);
        Ok(())
    }

    /// Plays `mv` for `color` without checking ko, superko or suicide.
    ///
    /// # Panics
    ///
    /// If `mv` is a point that is occupied or off the board.
    pub fn play_unchecked(&mut self, mv: Move, color: Color) {
        assert!(
            match mv {
                Move::Pass => true,
                Move::Play(p) => p.is_on(self.size()) && self.board.get(p).is_none(),
            },
            "play_unchecked: {mv} is not an empty point"
        );
        let (place, ko_before) = match mv {
            Move::Pass => (None, self.board.clear_ko()),
            Move::Play(point) => (Some(self.board.place(point, color, &mut self.removed)), None),
        };
        let passes_before = self.passes;
        let to_move_before = self.to_move;
        self.passes = if mv == Move::Pass { self.passes.saturating_add(1) } else { 0 };
        self.to_move = color.opponent();
        let new_key =
            self.rules.ko != KoRule::Simple && self.seen.insert(self.superko_key(self.board.key(), self.to_move));
        self.history.push(Played { color, mv, place, ko_before, passes_before, to_move_before, new_key });
    }

    /// Takes back the last move; returns it, or `None` if no move has been played.
    pub fn undo(&mut self) -> Option<(Color, Move)> {
        let last = self.history.pop()?;
        if last.new_key {
            let key = self.superko_key(self.board.key(), self.to_move);
            self.seen.remove(&key);
        }
        if let Some(record) = last.place {
            self.board.unplace(record, &self.removed);
            self.removed.truncate(self.removed.len() - record.removed as usize);
        } else {
            self.board.restore_ko(last.ko_before);
        }
        self.passes = last.passes_before;
        self.to_move = last.to_move_before;
        Some((last.color, last.mv))
    }

    /// Sets a point before the first move (handicap or a record's setup). The position after the setup is
    /// the first of the superko history.
    ///
    /// # Errors
    ///
    /// [`SetupError`] if a move has been played, the point is off the board, or the stone leaves a chain
    /// without liberties (the point is then restored).
    pub fn set_stone(&mut self, point: Point, stone: Option<Color>) -> Result<(), SetupError> {
        if !self.history.is_empty() {
            return Err(SetupError::MovesPlayed);
        }
        if !point.is_on(self.size()) {
            return Err(SetupError::OffBoard(point));
        }
        let before = self.board.get(point);
        self.board.set(point, stone);
        let mut affected: Vec<Point> = self.board.neighbors(point).collect();
        affected.push(point);
        if let Some(&bad) = affected.iter().find(|&&p| self.board.get(p).is_some() && self.board.liberties(p) == 0) {
            self.board.set(point, before);
            return Err(SetupError::NoLiberties(bad));
        }
        self.reset_seen();
        Ok(())
    }

    /// The stones on the board before the first move (the setup), black then white, by recreating it.
    pub fn setup_stones(&self) -> Vec<(Point, Color)> {
        let mut start = self.clone();
        while start.undo().is_some() {}
        let board = start.board;
        let mut stones: Vec<(Point, Color)> = board.points().filter_map(|p| board.get(p).map(|c| (p, c))).collect();
        stones.sort_by_key(|&(p, c)| (c, p));
        stones
    }

    /// Number of positions in the superko history (for tests and diagnostics).
    pub fn history_len(&self) -> usize {
        self.seen.len()
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} to move, komi {}, {} moves, key {:?}\n{}",
            self.to_move,
            self.komi,
            self.history.len(),
            self.key(),
            self.board
        )
    }
}

const _: () = assert!(MAX_POINTS + 1 < u16::MAX as usize);

impl tabula::Game for Position {
    type Move = Move;

    /// Every legal move of the side to move and the pass; nothing once two passes have ended the game.
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if !self.is_over() {
            self.legal_moves_for(self.to_move, moves);
        }
    }

    fn play(&mut self, mv: Move) {
        self.play_unchecked(mv, self.to_move);
    }

    fn undo(&mut self, _mv: Move) {
        self.undo();
    }

    /// After two passes: the area score with komi, from the side to move's point of view, as a margin in half
    /// points (komi is often a half-integer).
    fn outcome(&self) -> Option<tabula::Outcome> {
        if !self.is_over() {
            return None;
        }
        let margin = crate::scoring::area_score(&self.board).margin(self.komi);
        let black = tabula::Outcome::Margin((margin * 2.0).round() as i32);
        Some(if self.to_move == Color::Black { black } else { black.flip() })
    }

    fn key(&self) -> Key {
        Position::key(self)
    }

    /// The point index plus one; 0 for a pass.
    fn move_code(mv: Move) -> u16 {
        match mv {
            Move::Pass => 0,
            Move::Play(p) => p.index() as u16 + 1,
        }
    }

    const MOVE_CODES: usize = MAX_POINTS + 1;
}

#[cfg(test)]
/// The unit tests' ko, [`KO_STONES`](crate::testing::KO_STONES), played on 4×4 under `rules`.
pub(crate) fn ko_position(rules: Rules) -> Position {
    let mut g = Position::new(4, rules).unwrap();
    for (s, c) in crate::testing::KO_STONES {
        g.play(Move::from_gtp(s, 4).unwrap(), c).unwrap();
    }
    g
}

#[cfg(test)]
mod tests {
    use super::ko_position;
    use super::*;
    use tabula::zobrist::SplitMix64;

    fn m(s: &str, size: usize) -> Move {
        Move::from_gtp(s, size).unwrap()
    }

    /// Whether white may retake the ko at B3 after black takes at C3 and both sides pass.
    fn retake_after_two_passes(mut g: Position) -> bool {
        g.play(m("C3", 4), Color::Black).unwrap();
        g.play(Move::Pass, Color::White).unwrap();
        g.play(Move::Pass, Color::Black).unwrap();
        g.check(m("B3", 4), Color::White).is_ok()
    }

    #[test]
    fn simple_ko_and_superko_forbid_the_immediate_retake() {
        for ko in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
            let mut g = ko_position(Rules { ko, suicide: false });
            g.play(m("C3", 4), Color::Black).unwrap();
            assert!(g.play(m("B3", 4), Color::White).is_err(), "{ko:?}");
            // After a pair of moves elsewhere the simple ko point is gone.
            g.play(m("A1", 4), Color::White).unwrap();
            g.play(m("D1", 4), Color::Black).unwrap();
            let r = g.check(m("B3", 4), Color::White);
            assert_eq!(r, Ok(()), "{ko:?}");
        }
    }

    #[test]
    fn a_retake_after_two_passes_repeats_the_board() {
        for (ko, legal) in [(KoRule::Simple, true), (KoRule::Positional, false), (KoRule::Situational, false)] {
            let g = ko_position(Rules { ko, suicide: false });
            assert_eq!(retake_after_two_passes(g), legal, "{ko:?}");
        }
    }

    #[test]
    fn situational_superko_depends_on_the_side_to_move() {
        // The ko position set up with white to move; black takes out of turn, both pass, white retakes:
        // the board repeats, but now with black to move.
        for (ko, legal) in [(KoRule::Simple, true), (KoRule::Positional, false), (KoRule::Situational, true)] {
            let rules = Rules { ko, suicide: false };
            let source = ko_position(rules);
            let mut g = Position::new(4, rules).unwrap();
            for p in source.board().points() {
                if let Some(c) = source.board().get(p) {
                    g.set_stone(p, Some(c)).unwrap();
                }
            }
            g.set_to_move(Color::White);
            assert_eq!(retake_after_two_passes(g), legal, "{ko:?}");
        }
    }

    #[test]
    fn undo_restores_keys_history_and_legality() {
        let mut rng = SplitMix64::new(11);
        for ko in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
            let mut g = Position::new(4, Rules { ko, suicide: true }).unwrap();
            let mut snapshots: Vec<(Key, usize, Vec<Move>)> = Vec::new();
            let mut moves = Vec::new();
            for _ in 0..600 {
                moves.clear();
                g.legal_moves_for(g.to_move(), &mut moves);
                let here = (g.key(), g.history_len(), moves.clone());
                if rng.next() % 4 == 0 && !snapshots.is_empty() {
                    g.undo();
                    let (key, len, legal) = snapshots.pop().unwrap();
                    moves.clear();
                    g.legal_moves_for(g.to_move(), &mut moves);
                    assert_eq!((g.key(), g.history_len(), &moves), (key, len, &legal));
                } else {
                    let mv = moves[(rng.next() % moves.len() as u64) as usize];
                    snapshots.push(here);
                    g.play(mv, g.to_move()).unwrap();
                }
                assert_eq!(g.board().key(), g.board().key_from_scratch());
                assert!(g.board().chains_are_consistent());
            }
        }
    }

    #[test]
    fn two_move_orders_give_one_key() {
        let mut a = Position::new(9, Rules::default()).unwrap();
        let mut b = a.clone();
        for s in ["C3", "G7", "E5", "C7"] {
            a.play(m(s, 9), a.to_move()).unwrap();
        }
        for s in ["E5", "C7", "C3", "G7"] {
            b.play(m(s, 9), b.to_move()).unwrap();
        }
        assert_eq!(a.key(), b.key());
    }

    #[test]
    fn setup_rejects_chains_without_liberties() {
        let mut g = Position::new(2, Rules::default()).unwrap();
        g.set_stone(Point::new(0, 0), Some(Color::Black)).unwrap();
        g.set_stone(Point::new(1, 0), Some(Color::White)).unwrap();
        g.set_stone(Point::new(0, 1), Some(Color::White)).unwrap_err();
        assert_eq!(g.board().get(Point::new(0, 1)), None);
        assert_eq!(g.setup_stones().len(), 2);
        g.play(Move::Pass, Color::Black).unwrap();
        assert_eq!(g.set_stone(Point::new(1, 1), None), Err(SetupError::MovesPlayed));
    }

    struct AreaEvaluator;

    impl tabula::Evaluator<Position> for AreaEvaluator {
        fn evaluate(&self, game: &Position) -> tabula::Score {
            let margin = crate::scoring::area_score(game.board()).margin(game.komi());
            let black = (margin * 2.0) as tabula::Score;
            if game.to_move() == Color::Black {
                black
            } else {
                -black
            }
        }
    }

    #[test]
    fn core_searches_agree_with_minimax_on_small_boards() {
        use tabula::search::{alphabeta, minimax, Searcher};
        let mut rng = SplitMix64::new(99);
        for (size, depth) in [(2, 6), (3, 4)] {
            for _ in 0..6 {
                // Simple ko keeps legality a function of the key, as the table needs.
                let mut g = Position::new(size, Rules { ko: KoRule::Simple, suicide: false }).unwrap();
                g.set_komi(0.5);
                let mut moves = Vec::new();
                for _ in 0..rng.next() % 4 {
                    moves.clear();
                    tabula::Game::legal_moves(&g, &mut moves);
                    let mv = moves[(rng.next() % moves.len() as u64) as usize];
                    tabula::Game::play(&mut g, mv);
                }
                let expected = minimax(&mut g.clone(), &AreaEvaluator, depth).score;
                assert_eq!(alphabeta(&mut g.clone(), &AreaEvaluator, depth).score, expected);
                let mut searcher = Searcher::with_table_size(AreaEvaluator, 1);
                assert_eq!(searcher.search_depth(&g, depth).score, expected, "{size}x{size} depth {depth}\n{g:?}");
            }
        }
    }
}
