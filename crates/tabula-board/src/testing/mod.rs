//! Generic checks that the board games' own tests run on their positions (the `testing` feature, for
//! dev-dependencies): counting perft suites, keys through random walks, random games for round trips, the UCI
//! transcripts of [`uci`], what the fuzz targets share ([`fuzz`]) and a peer engine to compare with ([`peer`]).
//!
//! A game's test describes its rules to these checks with [`Rules`], plain function pointers, so that the checks
//! need nothing of the game but the core's [`Game`] trait and its FEN.
//!
//! # Examples
//!
//! ```
//! use tabula_board::testing::{perft_cases, random_game};
//!
//! let suite = "# a comment\nfen one ;D1 20 ;D2 400\n\nfen two ;D1 48\n";
//! let cases = perft_cases(suite, |fen| Ok::<_, String>(fen.to_owned()));
//! assert_eq!(cases.len(), 3);
//! assert_eq!((cases[2].line, cases[2].position.as_str(), cases[2].depth, cases[2].count), (4, "fen two", 1, 48));
//! # let _ = random_game::<tabula_board_doc::Never>;
//! # mod tabula_board_doc {
//! #     #[derive(Clone)]
//! #     pub struct Never;
//! #     impl tabula::Game for Never {
//! #         type Move = u8;
//! #         fn legal_moves(&self, _: &mut Vec<u8>) {}
//! #         fn play(&mut self, _: u8) {}
//! #         fn undo(&mut self, _: u8) {}
//! #         fn outcome(&self) -> Option<tabula::Outcome> { None }
//! #         fn key(&self) -> tabula::Key { tabula::Key(0) }
//! #         fn move_code(_: u8) -> u16 { 0 }
//! #     }
//! # }
//! ```

pub mod fuzz;
pub mod peer;
pub mod uci;

use crate::fen::{FenError, FenField};
use crate::{Man, Placement, PlacementChange};
use std::fmt::{Debug, Display};
use tabula::perft::{perft, perft_hashed, perft_without_bulk, PerftTable};
use tabula::{Game, Key, Outcome};

/// What the checks need of a game beyond [`Game`]: its FEN both ways and its key computed from scratch.
pub struct Rules<G> {
    /// Reads a FEN (the checks read only FENs the game wrote, or a test's own).
    pub from_fen: fn(&str) -> G,
    /// Writes the position's FEN.
    pub to_fen: fn(&G) -> String,
    /// The key recomputed from the placement and state, not kept up to date.
    pub key_from_scratch: fn(&G) -> Key,
}

/// One count of a perft suite: the position of `line` (counting from 1) has `count` leaves at `depth`.
#[derive(Clone, Debug)]
pub struct PerftCase<P> {
    /// The line of the suite.
    pub line: usize,
    /// The position read.
    pub position: P,
    /// The depth counted.
    pub depth: u32,
    /// The expected number of leaves.
    pub count: u64,
}

/// Reads a perft suite in EPD style: one position a line, then `;D<depth> <count>` operations. Blank lines and
/// lines starting with `#` are skipped; `read` reads the text before the first `;`.
///
/// # Panics
///
/// On a line that does not read, naming it.
pub fn perft_cases<P: Clone, E: Display>(suite: &str, read: impl Fn(&str) -> Result<P, E>) -> Vec<PerftCase<P>> {
    let mut cases = Vec::new();
    for (i, text) in suite.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
        let mut parts = text.split(';');
        let position = read(parts.next().expect("a position before the first ';'").trim())
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        for op in parts {
            let (opcode, count) = op.trim().split_once(' ').expect("an operation `D<depth> <count>`");
            let depth = opcode.strip_prefix('D').and_then(|d| d.parse().ok()).expect("a D<depth> opcode");
            let count = count.trim().parse().expect("a leaf count");
            cases.push(PerftCase { line: i + 1, position: position.clone(), depth, count });
        }
    }
    cases
}

/// Counts every case whose expected count `filter` keeps, and fails listing every count that differs.
///
/// # Panics
///
/// If a count differs.
pub fn check_perft<G: Game + Clone + Display>(cases: &[PerftCase<G>], filter: impl Fn(u64) -> bool) {
    let mut failures = Vec::new();
    for case in cases.iter().filter(|case| filter(case.count)) {
        let mut pos = case.position.clone();
        let got = perft(&mut pos, case.depth);
        if got != case.count {
            failures.push(format!("line {} {pos} depth {}: expected {}, got {got}", case.line, case.depth, case.count));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Counts every case whose expected count `filter` keeps with hashed perft, all through one table of 2^16
/// entries that the cases share.
///
/// # Panics
///
/// At the first count that differs.
pub fn check_perft_hashed<G: Game + Clone>(cases: &[PerftCase<G>], filter: impl Fn(u64) -> bool) {
    let mut table = PerftTable::new(1 << 16);
    for case in cases.iter().filter(|case| filter(case.count)) {
        let (mut pos, depth) = (case.position.clone(), case.depth);
        assert_eq!(perft_hashed(&mut pos, depth, &mut table), case.count, "line {} depth {depth}", case.line);
    }
}

/// Counts `start` to each depth of `expected` (from 0) with and without bulk counting of the last ply, then
/// counts `depth` of `hashed` twice through a table of 64 entries (a table so small that subtrees keep
/// overwriting each other must still count exactly), and returns `start` as the counting left it: as it was.
///
/// # Panics
///
/// If a count differs or the position changed.
pub fn check_perft_counts<G: Game + PartialEq + Debug>(mut start: G, expected: &[u64], hashed: (G, u32, u64)) -> G {
    let before = start.clone();
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&mut start, depth as u32), count, "depth {depth}");
        assert_eq!(perft_without_bulk(&mut start, depth as u32), count, "depth {depth} without bulk");
    }
    assert_eq!(start, before);
    let (mut pos, depth, count) = hashed;
    let mut table = PerftTable::new(64);
    assert_eq!(perft_hashed(&mut pos, depth, &mut table), count);
    assert_eq!(perft_hashed(&mut pos, depth, &mut table), count);
    start
}

/// Random walks of `plies` steps from each of `starts`, `walks` times each: a step plays a random legal move
/// or, one time in four (or when there is none), takes the last one back. After every step the incremental key
/// must equal the key from scratch and the key of the position read back from its FEN, and an undo must give
/// back the FEN before the move. `below(n)` draws a number below `n`.
///
/// # Panics
///
/// At the first step that breaks one of these.
pub fn check_keys_through_random_walks<G: Game>(
    rules: &Rules<G>,
    starts: &[&str],
    walks: usize,
    plies: usize,
    below: &mut dyn FnMut(usize) -> usize,
) {
    let mut moves = Vec::new();
    for fen in starts {
        for _ in 0..walks {
            let mut pos = (rules.from_fen)(fen);
            let mut played = Vec::new();
            let mut fens = vec![(rules.to_fen)(&pos)];
            for _ in 0..plies {
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() || (below(4) == 0 && !played.is_empty()) {
                    let Some(mv) = played.pop() else { break };
                    pos.undo(mv);
                    fens.pop();
                    assert_eq!(&(rules.to_fen)(&pos), fens.last().unwrap());
                } else {
                    let mv = moves[below(moves.len())];
                    pos.play(mv);
                    played.push(mv);
                    fens.push((rules.to_fen)(&pos));
                }
                let fen = (rules.to_fen)(&pos);
                assert_eq!(pos.key(), (rules.key_from_scratch)(&pos), "{fen}");
                // The key is a function of the position: reading the FEN back gives the same key.
                assert_eq!((rules.from_fen)(&fen).key(), pos.key(), "{fen}");
            }
        }
    }
}

/// `pos` written as FEN reads back as the same position, with the same key and the same FEN; `also` checks
/// what else the two must share (state that equality leaves out).
///
/// # Panics
///
/// If one of these differs.
pub fn check_fen_round_trip<G: Game + PartialEq + Debug>(rules: &Rules<G>, pos: &G, also: impl Fn(&G, &G)) {
    let fen = (rules.to_fen)(pos);
    let parsed = (rules.from_fen)(&fen);
    assert_eq!(&parsed, pos, "{fen}");
    assert_eq!(parsed.key(), pos.key(), "{fen}");
    assert_eq!((rules.to_fen)(&parsed), fen);
    also(&parsed, pos);
}

/// Each legal move of `pos`, played and taken back: the key after it is the key from scratch, and the position
/// and its key come back; `also` checks what else must come back (state that equality leaves out).
///
/// # Panics
///
/// If one of these differs.
pub fn check_undo_restores<G: Game + PartialEq + Debug>(rules: &Rules<G>, pos: &G, also: impl Fn(&G, &G)) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut played = pos.clone();
    for mv in moves {
        played.play(mv);
        assert_eq!(played.key(), (rules.key_from_scratch)(&played), "{} after {mv:?}", (rules.to_fen)(pos));
        played.undo(mv);
        assert_eq!(&played, pos, "{mv:?}");
        assert_eq!(played.key(), pos.key(), "{} {mv:?}", (rules.to_fen)(pos));
        also(&played, pos);
    }
}

/// Each case's FEN is refused by `read` naming the case's field as the one at fault.
///
/// # Panics
///
/// At the first FEN read, or refused for another reason, naming it.
pub fn check_bad_fen_fields<S: Debug, P: Debug>(
    read: impl Fn(&str) -> Result<S, FenError<P>>,
    cases: &[(&str, FenField)],
) {
    for &(fen, field) in cases {
        match read(fen) {
            Err(FenError::Field { field: f, .. }) => assert_eq!(f, field, "{fen}"),
            other => panic!("{fen}: {other:?}"),
        }
    }
}

/// Each position `read` reads from a case's FEN has the case's outcome for the side to move.
///
/// # Panics
///
/// At the first outcome that differs, naming its FEN.
pub fn check_outcomes<G: Game>(read: impl Fn(&str) -> G, cases: &[(&str, Option<Outcome>)]) {
    for &(fen, outcome) in cases {
        assert_eq!(read(fen).outcome(), outcome, "{fen}");
    }
}

/// Plays the null move `null` in `pos` and takes it back: the key after it is the key from scratch (and
/// `during` checks the position then), and the key before comes back.
///
/// # Panics
///
/// If a key differs.
pub fn check_null_move<G: Game>(pos: &mut G, null: G::Move, key_from_scratch: fn(&G) -> Key, during: impl FnOnce(&G)) {
    let key = pos.key();
    pos.play(null);
    assert_eq!(pos.key(), key_from_scratch(pos));
    during(pos);
    pos.undo(null);
    assert_eq!(pos.key(), key);
}

/// `pos` after `moves`, each read by `parse` in the position it is played in (which must give a legal move).
pub fn play_line<G: Game>(mut pos: G, moves: &[&str], parse: impl Fn(&G, &str) -> G::Move) -> G {
    for text in moves {
        let mv = parse(&pos, text);
        pos.play(mv);
    }
    pos
}

/// Plays the moves chosen by `choices` (each taken modulo the number of legal moves) from `pos`, stopping
/// early when the side to move has none: the positions the property tests round-trip.
pub fn random_game<G: Game>(pos: G, choices: &[usize]) -> G {
    along_random_game(pos, choices, |pos, mv| pos.play(mv))
}

/// Chooses the moves of [`random_game`] and hands each to `play`, which must play it.
fn along_random_game<G: Game>(mut pos: G, choices: &[usize], mut play: impl FnMut(&mut G, G::Move)) -> G {
    let mut moves = Vec::new();
    for &choice in choices {
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        play(&mut pos, moves[choice % moves.len()]);
    }
    pos
}

/// Replays the game chosen by `choices` (as [`random_game`] does) from `start` and checks that the change of
/// placement each move reports (`last_change`: what the last move played took off and put on) turns the
/// placement before the move (`placement`) into the one after it, piece for piece: what an evaluation updated
/// incrementally relies on. Each move is then taken back and played again, to check that the change is the
/// move's whatever the history around it. `rules` write the FENs of the messages.
///
/// # Panics
///
/// At the first move whose change is not the difference of the two placements.
pub fn check_placement_changes<G: Game, M: Man, const SQUARES: usize, const ROLES: usize>(
    rules: &Rules<G>,
    start: G,
    choices: &[usize],
    placement: impl Fn(&G) -> Placement<M, SQUARES, ROLES>,
    last_change: impl Fn(&G) -> PlacementChange<M>,
) {
    along_random_game(start, choices, |pos, mv| {
        let mut before = placement(pos);
        pos.play(mv);
        let change = last_change(pos);
        let fen = (rules.to_fen)(pos);
        for &(piece, sq) in change.removed() {
            assert_eq!(before.remove(sq), Some(piece), "{piece:?} taken off {sq:?} into {fen}");
        }
        for &(piece, sq) in change.added() {
            assert_eq!(before.piece_at(sq), None, "{piece:?} put on the occupied {sq:?} into {fen}");
            before.put(sq, piece);
        }
        assert!(before == placement(pos), "the change {change:?} does not give the placement of {fen}");
        pos.undo(mv);
        pos.play(mv);
        assert_eq!(last_change(pos), change, "{fen}");
    });
}

/// Checks a game's square sets: every file and every rank has as many squares as the board has ranks and files,
/// the files and the ranks each cover the board exactly, a single square is not "more than one", the first square
/// of the last rank on the first file is that corner, sets collect from squares and iterate back, and the
/// `Debug` text starts with the word in hex, zero-padded to the board's width (`debug_first_square` is the first
/// line for the first square alone).
pub fn check_square_sets<S: crate::Square>(debug_first_square: &str) {
    use crate::{Bitboard, Coordinate};
    let files = S::File::ALL.iter().fold(Bitboard::<S>::EMPTY, |set, &file| {
        assert_eq!(Bitboard::<S>::file(file).count() as usize, S::Rank::COUNT, "{file}");
        assert!(Bitboard::<S>::file(file).more_than_one());
        set | Bitboard::file(file)
    });
    let ranks = S::Rank::ALL.iter().fold(Bitboard::<S>::EMPTY, |set, &rank| {
        assert_eq!(Bitboard::<S>::rank(rank).count() as usize, S::File::COUNT, "{rank}");
        set | Bitboard::rank(rank)
    });
    assert_eq!((files, ranks), (Bitboard::FULL, Bitboard::FULL));
    assert_eq!(!Bitboard::<S>::EMPTY, Bitboard::FULL);
    assert_eq!(Bitboard::<S>::FULL.count() as usize, S::COUNT);
    let (first_file, last_rank) = (S::File::ALL[0], S::Rank::ALL[S::Rank::COUNT - 1]);
    let corner = S::from_coords(first_file, last_rank);
    assert!(!Bitboard::from_square(corner).more_than_one());
    assert_eq!((Bitboard::<S>::file(first_file) & Bitboard::rank(last_rank)).first(), Some(corner));
    let first = S::from_index_unchecked(0);
    let pair: Bitboard<S> = [corner, first].into_iter().collect();
    assert_eq!(pair.into_iter().collect::<Vec<_>>(), [first, corner]);
    assert_eq!(format!("{:?}", Bitboard::from_square(first)).lines().next(), Some(debug_first_square));
}
