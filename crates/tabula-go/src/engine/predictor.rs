//! A move predictor: how likely a strong player is to choose each move, from a few features of the move,
//! for the tree's priors.
//!
//! Each move is described by one value in each of nine feature groups: its 3×3 shape with the ataris
//! beside it (up to rotation and reflection, the colours seen from the player), what it captures, whether
//! it escapes from atari, whether it puts itself in atari, whether it gives atari (and starts a ladder), its
//! distance to the last move and to the one before, its line with whether stones stand near, and the
//! largest of the [large shapes](crate::engine::spatial) around it (up to 36 points) that has a strength. Every
//! feature value has a strength `γ`, and a move's strength is the product of its values' strengths; the
//! chance of a move is its strength over the sum of all legal moves' (the Bradley–Terry model of
//! Coulom's *Computing Elo Ratings of Move Patterns in the Game of Go*, 2007). [`fit`] finds the strengths
//! that make the moves of game records most likely, by Hunter's minorization–maximization (MM) algorithm,
//! one group at a time, with one virtual win and one virtual loss against a strength of 1 for every value
//! so that rare values stay near 1.
//!
//! The strengths the engine uses are fitted to games of Pachi (without its network) against itself, one set
//! for each board: `data/predictor.txt` from 9×9 games for boards up to 11×11, `data/predictor-19.txt` from
//! 19×19 games for 13×13 and up ([`Predictor::embedded_for`]). Each is a text file of `group value gamma`
//! lines (the 3×3 shape's value is its code in hexadecimal, a large shape's its points' states as digits),
//! read by [`Predictor::from_text`].
//!
//! # Examples
//!
//! ```
//! use tabula_go::board::Board;
//! use tabula_go::coords::{Color, Point};
//! use tabula_go::engine::playout::PlayoutBoard;
//! use tabula_go::engine::predictor::{Features, Predictor};
//!
//! let predictor = Predictor::default();
//! let mut board = Board::new(9).unwrap();
//! let mut removed = Vec::new();
//! // A white stone in atari in the corner: taking it is far likelier than a move on the first line.
//! board.place(Point::new(0, 0), Color::White, &mut removed);
//! board.place(Point::new(1, 0), Color::Black, &mut removed);
//! let pb = PlayoutBoard::from_board(&board, Color::Black);
//! let capture = Features::of(&pb, pb.index(Point::new(0, 1)), Color::Black);
//! let edge = Features::of(&pb, pb.index(Point::new(8, 4)), Color::Black);
//! assert!(predictor.gamma(&capture) > 10.0 * predictor.gamma(&edge));
//! ```

use crate::coords::Color;
use crate::engine::playout::{PlayoutBoard, NO_POINT};
use crate::engine::spatial::{Shape, SIZES};
use crate::position::KeyHasher;
use crate::position::Rules;
use crate::sgf::GameRecord;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::BuildHasherDefault;
use std::sync::{Arc, OnceLock};

/// The feature groups, each with its name in the strengths file and its number of values (value 0 is
/// "none" where a move can lack the feature).
const GROUPS: [(&str, usize); 7] = [
    ("capture", 5),
    ("escape", 4),
    ("self-atari", 3),
    ("atari", 3),
    ("last-distance", DISTANCES),
    ("previous-distance", DISTANCES),
    ("line", 10),
];

/// Distance buckets: none, then Coulom's distance `|dx| + |dy| + max(|dx|, |dy|)` from 2 to 16, then 17 or
/// more.
const DISTANCES: usize = 17;

/// The groups with a fixed number of values, then the 3×3 shape and the large shape.
pub const GROUP_COUNT: usize = GROUPS.len() + 2;

/// Offsets of each fixed group's values among all fixed values.
const OFFSETS: [usize; GROUPS.len() + 1] = {
    let mut offsets = [0; GROUPS.len() + 1];
    let mut g = 0;
    while g < GROUPS.len() {
        offsets[g + 1] = offsets[g] + GROUPS[g].1;
        g += 1;
    }
    offsets
};

/// The number of fixed feature values (all groups but the shape).
const FIXED: usize = OFFSETS[GROUPS.len()];

/// What a move captures.
const CAPTURE_LAST: u8 = 1; // the chain of the last move
const CAPTURE_SAVES: u8 = 2; // a chain next to one of ours in atari
const CAPTURE_ONE: u8 = 3; // another single stone
const CAPTURE_MANY: u8 = 4; // another chain of two or more

/// An escape from atari (extending a chain whose last liberty the move fills).
const ESCAPE_ONE: u8 = 1; // a single stone gets out (not into a ladder, not into atari)
const ESCAPE_MANY: u8 = 2; // a chain of two or more gets out
const ESCAPE_FAILS: u8 = 3; // into atari again or into a ladder

/// The move's own chain left with one liberty and no capture.
const SELF_ATARI_ONE: u8 = 1; // the lone new stone
const SELF_ATARI_MANY: u8 = 2; // a chain of two or more

/// Atari on an enemy chain.
const ATARI_LADDER: u8 = 1; // that then dies in a ladder
const ATARI_OTHER: u8 = 2;

/// The eight symmetries of the square as permutations of the neighbourhood's cells (in the order of
/// [`PlayoutBoard::neighborhood_with_ataris`]: the row below, the two beside, the row above): entry
/// `[s][k]` is where symmetry `s` takes cell `k`.
const SYMMETRIES: [[usize; 8]; 8] = {
    // Cell k as an offset (column, row) from the middle of the 3×3 grid.
    const CELLS: [(i8, i8); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
    crate::engine::spatial::symmetries(&CELLS)
};

/// The smallest of a 24-bit neighbourhood code's eight images under the symmetries of the square: one
/// code for every rotation and reflection of a shape.
pub fn canonical_shape(code: u32) -> u32 {
    let cell = |k: usize| (code >> (3 * (7 - k))) & 7;
    SYMMETRIES
        .iter()
        .map(|perm| (0..8).fold(0u32, |acc, k| acc | cell(k) << (3 * (7 - perm[k]))))
        .min()
        .expect("eight symmetries")
}

/// A move's value in every feature group: the fixed groups' values, the canonical shape code, and the
/// keys of the large shapes around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    /// Per fixed group, the value (0 to the group's count − 1).
    pub fixed: [u8; GROUPS.len()],
    /// The canonical 3×3 shape with ataris ([`canonical_shape`]).
    pub shape: u32,
    /// The [large shape](crate::engine::spatial)'s key at each size, as it stands on the board ([`Shape::keys`]).
    pub large: [u64; SIZES],
}

impl Features {
    /// The features of `color` playing the empty, legal padded index `i` of `board`, whose
    /// [last moves](PlayoutBoard::set_recent_moves) give the distances.
    pub fn of(board: &PlayoutBoard, i: usize, color: Color) -> Features {
        let own = Some(color);
        let enemy = Some(color.opponent());
        let last = board.last_move() as usize;
        // Step 1. Captures: the enemy chains beside `i` in atari.
        let mut captured = [0usize; 4];
        let mut count = 0;
        for n in board.neighbors(i) {
            if board.color_at(n) == enemy {
                let h = board.head_of(n);
                if board.in_atari(h) && !captured[..count].contains(&h) {
                    captured[count] = h;
                    count += 1;
                }
            }
        }
        let captured = &captured[..count];
        let capture = if captured.is_empty() {
            0
        } else if last != NO_POINT as usize && board.color_at(last) == enemy && captured.contains(&board.head_of(last))
        {
            CAPTURE_LAST
        } else if captured.iter().any(|&h| {
            board.stones(h).any(|s| {
                board.neighbors(s).into_iter().any(|n| board.color_at(n) == own && board.in_atari(board.head_of(n)))
            })
        }) {
            CAPTURE_SAVES
        } else if captured.iter().map(|&h| board.chain_size(h)).sum::<usize>() == 1 {
            CAPTURE_ONE
        } else {
            CAPTURE_MANY
        };
        // Step 2. The liberties the move's chain will have, and whether it joins chains of its own.
        let joins = board.neighbors(i).into_iter().any(|n| board.color_at(n) == own);
        let liberties = board.liberties_after(i, color, &mut [0; 2]);
        let self_atari = match (liberties <= 1, joins) {
            (false, _) => 0,
            (true, false) => SELF_ATARI_ONE,
            (true, true) => SELF_ATARI_MANY,
        };
        // Step 3. Escapes: an own chain in atari beside `i` has `i` for its last liberty.
        let saved = board.saves_size(i, color);
        let escape = if saved == 0 || capture != 0 {
            0
        } else if liberties <= 1 || board.escape_dies_in_ladder(i, color) {
            ESCAPE_FAILS
        } else if saved == 1 {
            ESCAPE_ONE
        } else {
            ESCAPE_MANY
        };
        // Step 4. Ataris.
        let atari = if !board.gives_atari(i, color) {
            0
        } else if board.starts_ladder(i, color) {
            ATARI_LADDER
        } else {
            ATARI_OTHER
        };
        // Step 5. Distances to the last two moves, the line, and whether stones stand near.
        let p = board.point(i);
        let distance = |m: u16| -> u8 {
            if m == NO_POINT {
                return 0;
            }
            let q = board.point(m as usize);
            let (dx, dy) = (p.column().abs_diff(q.column()), p.row().abs_diff(q.row()));
            (dx + dy + dx.max(dy)).clamp(2, 17) as u8 - 1
        };
        let size = board.size();
        let line = p.column().min(p.row()).min(size - 1 - p.column()).min(size - 1 - p.row()).min(4);
        let near = (-2isize..=2).any(|dr| {
            let reach = 2 - dr.abs();
            (-reach..=reach).any(|dc| {
                let (c, r) = (p.column() as isize + dc, p.row() as isize + dr);
                (0..size as isize).contains(&c)
                    && (0..size as isize).contains(&r)
                    && board.color_at(board.index(crate::coords::Point::new(c as usize, r as usize))).is_some()
            })
        });
        Features {
            fixed: [
                capture,
                escape,
                self_atari,
                atari,
                distance(board.last_move()),
                distance(board.previous_move()),
                (line * 2 + usize::from(near)) as u8,
            ],
            shape: canonical_shape(board.neighborhood_with_ataris(i, color)),
            large: Shape::keys_around(board, i, color),
        }
    }
}

impl Features {
    /// Whether the move captures.
    pub fn captures(&self) -> bool {
        self.fixed[0] != 0
    }

    /// Whether the move gets a chain of its own out of atari (not into atari again nor into a ladder).
    pub fn escapes(&self) -> bool {
        matches!(self.fixed[1], ESCAPE_ONE | ESCAPE_MANY)
    }

    /// Whether the move tries to get a chain out of atari and fails (into atari again or a ladder).
    pub fn escape_fails(&self) -> bool {
        self.fixed[1] == ESCAPE_FAILS
    }

    /// Whether the move puts a chain of two or more stones in atari, capturing nothing.
    pub fn self_atari_of_chain(&self) -> bool {
        self.fixed[2] == SELF_ATARI_MANY
    }

    /// Whether the move gives atari: `Some(true)` when the chain then dies in a ladder.
    pub fn atari(&self) -> Option<bool> {
        match self.fixed[3] {
            ATARI_LADDER => Some(true),
            ATARI_OTHER => Some(false),
            _ => None,
        }
    }

    /// Whether the move touches the last one, on a side or a corner.
    pub fn next_to_last(&self) -> bool {
        matches!(self.fixed[4], 1 | 2)
    }

    /// The move's line, counted from 0 on the edge, at most 4.
    pub fn line(&self) -> usize {
        usize::from(self.fixed[6] / 2)
    }

    /// Whether a stone stands within two steps (Manhattan distance) of the move.
    pub fn has_stones_near(&self) -> bool {
        self.fixed[6] % 2 == 1
    }
}

/// The strengths of every feature value.
#[derive(Clone, Debug, PartialEq)]
pub struct Predictor {
    fixed: Vec<f32>,
    shapes: HashMap<u32, f32>,
    /// The strength of a shape not in `shapes`.
    other_shape: f32,
    /// The large shapes with a strength: each shape, its size and strength.
    large: Vec<(Shape, usize, f32)>,
    /// The strength of each large shape's key at its size, in every orientation (the keys are random: the
    /// table takes them for their own hashes).
    large_keys: HashMap<u64, f32, BuildHasherDefault<KeyHasher>>,
    /// The strength of a move with none of the large shapes.
    other_large: f32,
}

/// The fitted strengths the engine plays with on small boards (fitted to 9×9 games).
const DEFAULT: &str = include_str!("../../data/predictor.txt");
/// The fitted strengths the engine plays with on large boards (fitted to 19×19 games).
const DEFAULT_19: &str = include_str!("../../data/predictor-19.txt");
/// The smallest board that gets the large boards' strengths.
pub const LARGE_BOARD: usize = 13;

impl Default for Predictor {
    /// The strengths of `data/predictor.txt`, a copy of [`Predictor::embedded`]'s.
    fn default() -> Predictor {
        Predictor::clone(&Predictor::embedded())
    }
}

/// Why a strengths file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("strengths file, line {line}: {reason}")]
pub struct PredictorError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// The embedded strengths file `text`, read into `cell` the first time and shared from there.
fn read_once(cell: &'static OnceLock<Arc<Predictor>>, text: &str) -> Arc<Predictor> {
    cell.get_or_init(|| Arc::new(Predictor::from_text(text).expect("the embedded strengths file is well formed")))
        .clone()
}

impl Predictor {
    /// The strengths of `data/predictor.txt`, read once in a process (the file is about 420 KB and takes some
    /// milliseconds to read) and shared by every player that asks.
    pub fn embedded() -> Arc<Predictor> {
        static EMBEDDED: OnceLock<Arc<Predictor>> = OnceLock::new();
        read_once(&EMBEDDED, DEFAULT)
    }

    /// The embedded strengths for a board of `size`: [`embedded`](Predictor::embedded)'s below
    /// [`LARGE_BOARD`], those of `data/predictor-19.txt` (fitted to 19×19 games) from it up. Each is read once
    /// in a process.
    pub fn embedded_for(size: usize) -> Arc<Predictor> {
        if size < LARGE_BOARD {
            return Predictor::embedded();
        }
        static EMBEDDED_19: OnceLock<Arc<Predictor>> = OnceLock::new();
        read_once(&EMBEDDED_19, DEFAULT_19)
    }

    /// Every strength 1: no preference.
    pub fn uniform() -> Predictor {
        Predictor {
            fixed: vec![1.0; FIXED],
            shapes: HashMap::new(),
            other_shape: 1.0,
            large: Vec::new(),
            large_keys: HashMap::default(),
            other_large: 1.0,
        }
    }

    /// The strength of a move with these features.
    pub fn gamma(&self, features: &Features) -> f32 {
        let fixed: f32 = (0..GROUPS.len()).map(|g| self.fixed[OFFSETS[g] + features.fixed[g] as usize]).product();
        let shape = self.shapes.get(&features.shape).copied().unwrap_or(self.other_shape);
        fixed * shape * self.large_gamma(&features.large)
    }

    /// The strength of the largest of the large shapes with a strength, or of none.
    fn large_gamma(&self, keys: &[u64; SIZES]) -> f32 {
        if self.large_keys.is_empty() {
            return self.other_large;
        }
        keys.iter().rev().find_map(|key| self.large_keys.get(key).copied()).unwrap_or(self.other_large)
    }

    /// Gives a large shape of `size` a strength, in every orientation.
    fn insert_large(&mut self, shape: Shape, size: usize, gamma: f32) {
        self.large.push((shape, size, gamma));
        for s in 0..8 {
            self.large_keys.insert(shape.image(s).keys()[size], gamma);
        }
    }

    /// Reads a strengths file: `group value gamma` lines (`shape` with a hexadecimal code, `shape other`
    /// for the rest), `#` comments and blank lines. A value the file does not give has strength 1.
    ///
    /// # Errors
    ///
    /// [`PredictorError`] for an unknown group, a value out of its group's range, or a strength that is
    /// not a positive finite number.
    pub fn from_text(text: &str) -> Result<Predictor, PredictorError> {
        let mut predictor = Predictor::uniform();
        for (k, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |reason: String| PredictorError { line: k + 1, reason };
            let words: Vec<&str> = line.split_whitespace().collect();
            let [group, value, gamma] = words[..] else {
                return Err(err(format!("expected `group value gamma`, found {line:?}")));
            };
            let gamma = match gamma.parse::<f32>() {
                Ok(g) if g.is_finite() && g > 0.0 => g,
                _ => return Err(err(format!("strength {gamma:?} is not a positive number"))),
            };
            if group == "large" {
                if value == "other" {
                    predictor.other_large = gamma;
                } else {
                    let (shape, size) = Shape::from_text(value)
                        .ok_or_else(|| err(format!("large shape {value:?} is not the digits 0 to 3 of a size")))?;
                    predictor.insert_large(shape, size, gamma);
                }
                continue;
            }
            if group == "shape" {
                if value == "other" {
                    predictor.other_shape = gamma;
                } else {
                    let code = u32::from_str_radix(value.trim_start_matches("0x"), 16)
                        .ok()
                        .filter(|&c| c < 1 << 24)
                        .ok_or_else(|| err(format!("shape {value:?} is not a 24-bit hexadecimal code")))?;
                    predictor.shapes.insert(canonical_shape(code), gamma);
                }
                continue;
            }
            let Some(g) = GROUPS.iter().position(|&(name, _)| name == group) else {
                return Err(err(format!("unknown group {group:?}")));
            };
            let v = value
                .parse::<usize>()
                .ok()
                .filter(|&v| v < GROUPS[g].1)
                .ok_or_else(|| err(format!("{group} value {value:?} is not 0 to {}", GROUPS[g].1 - 1)))?;
            predictor.fixed[OFFSETS[g] + v] = gamma;
        }
        Ok(predictor)
    }

    /// The strengths as a file [`from_text`](Predictor::from_text) reads back, shapes by strength.
    pub fn to_text(&self) -> String {
        let mut text = String::from(
            "# Tabula Go move predictor: Bradley-Terry strengths of move features (tabula_go::predictor)\n",
        );
        for (g, &(name, count)) in GROUPS.iter().enumerate() {
            for v in 0..count {
                let _ = writeln!(text, "{name} {v} {}", self.fixed[OFFSETS[g] + v]);
            }
        }
        let _ = writeln!(text, "shape other {}", self.other_shape);
        let mut shapes: Vec<(u32, f32)> = self.shapes.iter().map(|(&c, &g)| (c, g)).collect();
        shapes.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        for (code, gamma) in shapes {
            let _ = writeln!(text, "shape {code:06x} {gamma}");
        }
        let _ = writeln!(text, "large other {}", self.other_large);
        let mut large = self.large.clone();
        large.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.1.cmp(&b.1)).then(a.0 .0.cmp(&b.0 .0)));
        for (shape, size, gamma) in large {
            let _ = writeln!(text, "large {} {gamma}", shape.to_text(size));
        }
        text
    }
}

/// One position of a game record: the features of every candidate move and which one was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The candidates' features: every legal move that fills no own eye.
    pub candidates: Vec<Features>,
    /// The candidates' large shapes' keys in any orientation ([`Shape::canonical_keys`]).
    pub large: Vec<[u64; SIZES]>,
    /// The index in `candidates` of the move played.
    pub chosen: usize,
    /// The large shape around the move played.
    pub chosen_shape: Shape,
}

/// The positions of a game record's main line from its move `first` on (counted from 0: 0 for all), one
/// [`Sample`] per move that is not a pass. Positions whose move filled an own eye (not a candidate) are
/// left out.
///
/// # Errors
///
/// The record's [`SgfError`](crate::sgf::SgfError) when its setup or a move is illegal.
pub fn samples(record: &GameRecord, first: usize) -> Result<Vec<Sample>, crate::sgf::SgfError> {
    let mut game = record.replay(Rules::default(), Some(0))?;
    let mut samples = Vec::new();
    let (mut last, mut previous) = (NO_POINT, NO_POINT);
    for (k, m) in record.moves.iter().enumerate() {
        let mut pb = PlayoutBoard::from_board(game.board(), m.color);
        pb.set_recent_moves(last, previous);
        let played = pb.move_index(m.mv);
        if played != NO_POINT && k >= first {
            let mut candidates = Vec::new();
            let mut large = Vec::new();
            let mut chosen = None;
            for p in game.board().points() {
                let i = pb.index(p);
                if pb.color_at(i).is_some() || !pb.is_legal(i, m.color) || pb.is_own_eye(i, m.color) {
                    continue;
                }
                if i == played as usize {
                    chosen = Some(candidates.len());
                }
                candidates.push(Features::of(&pb, i, m.color));
                large.push(Shape::around(&pb, i, m.color).canonical_keys());
            }
            if let Some(chosen) = chosen {
                let chosen_shape = Shape::around(&pb, played as usize, m.color);
                samples.push(Sample { candidates, large, chosen, chosen_shape });
            }
        }
        let number = game.move_count() + 1;
        game.play(m.mv, m.color).map_err(|reason| crate::sgf::SgfError::IllegalMove {
            number,
            color: m.color,
            mv: m.mv,
            reason,
        })?;
        (previous, last) = (last, played);
    }
    Ok(samples)
}

/// Fits the strengths to `samples` by MM: `passes` rounds over the groups, each group's strengths updated
/// at once from the others'. Shapes seen fewer than `min_shape` times in candidates share the strength of
/// `shape other`. A large shape of any size played `min_large` times or more gets a strength of its own;
/// a move's value in that group is the largest of them around it, and moves with none share `large other`.
pub fn fit(samples: &[Sample], passes: usize, min_shape: usize, min_large: usize) -> Predictor {
    // Step 1. Number the shapes worth a strength of their own; id 0 is every other shape.
    let mut seen: HashMap<u32, usize> = HashMap::new();
    for c in samples.iter().flat_map(|s| &s.candidates) {
        *seen.entry(c.shape).or_default() += 1;
    }
    let mut codes: Vec<u32> = seen.into_iter().filter(|&(_, n)| n >= min_shape).map(|(c, _)| c).collect();
    codes.sort_unstable();
    let shape_id: HashMap<u32, u32> = codes.iter().enumerate().map(|(k, &c)| (c, k as u32 + 1)).collect();
    // The large shapes played often enough, each with its size and an example; id 0 is none of them.
    let mut played: HashMap<u64, (usize, Shape, usize)> = HashMap::new();
    for s in samples {
        for (size, &key) in s.large[s.chosen].iter().enumerate() {
            played.entry(key).or_insert((0, s.chosen_shape, size)).0 += 1;
        }
    }
    let mut large: Vec<(u64, Shape, usize)> = played
        .into_iter()
        .filter(|&(_, (n, ..))| n >= min_large)
        .map(|(key, (_, shape, size))| (key, shape, size))
        .collect();
    large.sort_unstable_by_key(|&(key, ..)| key);
    let large_id: HashMap<u64, u32> = large.iter().enumerate().map(|(k, &(key, ..))| (key, k as u32 + 1)).collect();
    let large_base = FIXED + codes.len() + 1;
    // Step 2. Every candidate as its feature ids: the fixed groups' values, then FIXED + its shape id, then
    // the large shape's id after the shapes'.
    let ids: Vec<Vec<[u32; GROUP_COUNT]>> = samples
        .iter()
        .map(|s| {
            s.candidates
                .iter()
                .zip(&s.large)
                .map(|(f, keys)| {
                    let mut row = [0u32; GROUP_COUNT];
                    for g in 0..GROUPS.len() {
                        row[g] = (OFFSETS[g] + f.fixed[g] as usize) as u32;
                    }
                    row[GROUPS.len()] = (FIXED as u32) + shape_id.get(&f.shape).copied().unwrap_or(0);
                    let id = keys.iter().rev().find_map(|key| large_id.get(key).copied()).unwrap_or(0);
                    row[GROUPS.len() + 1] = (large_base as u32) + id;
                    row
                })
                .collect()
        })
        .collect();
    let total = large_base + large.len() + 1;
    let mut gamma = vec![1.0f64; total];
    // Wins: how often each value was the chosen move's.
    let mut wins = vec![0.0f64; total];
    for (s, rows) in samples.iter().zip(&ids) {
        for &id in &rows[s.chosen] {
            wins[id as usize] += 1.0;
        }
    }
    // Step 3. MM, a group at a time: γᵢ ← (Wᵢ + 1) / (Σⱼ Cᵢⱼ / Eⱼ + 2 / (γᵢ + 1)), where Eⱼ is the total
    // strength of sample j's candidates and Cᵢⱼ that of those with value i, each without γᵢ itself.
    let mut denominator = vec![0.0f64; total];
    for _ in 0..passes {
        for g in 0..GROUP_COUNT {
            denominator.iter_mut().for_each(|d| *d = 0.0);
            for rows in &ids {
                let strength = |row: &[u32; GROUP_COUNT]| row.iter().map(|&id| gamma[id as usize]).product::<f64>();
                let e: f64 = rows.iter().map(strength).sum();
                for row in rows {
                    let id = row[g] as usize;
                    denominator[id] += strength(row) / gamma[id] / e;
                }
            }
            let ids_of_group = match g {
                g if g < GROUPS.len() => OFFSETS[g]..OFFSETS[g + 1],
                g if g == GROUPS.len() => FIXED..large_base,
                _ => large_base..total,
            };
            for id in ids_of_group {
                gamma[id] = (wins[id] + 1.0) / (denominator[id] + 2.0 / (gamma[id] + 1.0));
            }
        }
    }
    let mut predictor = Predictor {
        fixed: gamma[..FIXED].iter().map(|&g| g as f32).collect(),
        shapes: codes.iter().enumerate().map(|(k, &c)| (c, gamma[FIXED + 1 + k] as f32)).collect(),
        other_shape: gamma[FIXED] as f32,
        other_large: gamma[large_base] as f32,
        ..Predictor::uniform()
    };
    for (k, &(_, shape, size)) in large.iter().enumerate() {
        predictor.insert_large(shape, size, gamma[large_base + 1 + k] as f32);
    }
    predictor
}

/// How well a predictor ranks the moves played: the share of samples whose move it ranks first, the
/// share within its first five (ties broken at random), and the mean log-likelihood of the moves played (nats per move).
pub fn accuracy(predictor: &Predictor, samples: &[Sample]) -> (f64, f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let (mut first, mut five, mut log_likelihood) = (0.0f64, 0.0f64, 0.0f64);
    for s in samples {
        let strengths: Vec<f64> = s.candidates.iter().map(|f| f64::from(predictor.gamma(f))).collect();
        let chosen = strengths[s.chosen];
        // Ties broken at random: the chance that the move played ranks first, and within the first five.
        let better = strengths.iter().filter(|&&g| g > chosen).count() as f64;
        let equal = strengths.iter().filter(|&&g| g == chosen).count() as f64;
        first += if better == 0.0 { 1.0 / equal } else { 0.0 };
        five += ((5.0 - better) / equal).clamp(0.0, 1.0);
        log_likelihood += (chosen / strengths.iter().sum::<f64>()).ln();
    }
    let n = samples.len() as f64;
    (first / n, five / n, log_likelihood / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::coords::Point;
    use crate::engine::spatial::POINTS;
    use tabula::rng::Rng;

    #[test]
    fn symmetric_shapes_share_a_code() {
        // A stone below-left, seen in all eight orientations.
        let corner = |k: usize| 1u32 << (3 * (7 - k));
        let codes: Vec<u32> = [0, 2, 5, 7].iter().map(|&k| canonical_shape(corner(k))).collect();
        assert!(codes.iter().all(|&c| c == codes[0]));
        let sides: Vec<u32> = [1, 3, 4, 6].iter().map(|&k| canonical_shape(corner(k))).collect();
        assert!(sides.iter().all(|&c| c == sides[0]));
        assert_ne!(codes[0], sides[0]);
        for perm in SYMMETRIES {
            let mut sorted = perm;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7]);
        }
    }

    #[test]
    fn features_name_captures_escapes_and_ataris() {
        let mut board = Board::new(9).unwrap();
        let mut removed = Vec::new();
        // Black A2, C2 and B1 around a white stone on B2, in atari with its liberty on B3.
        for (c, r, color) in [(0, 1, Color::Black), (2, 1, Color::Black), (1, 0, Color::Black), (1, 1, Color::White)] {
            board.place(Point::new(c, r), color, &mut removed);
        }
        let mut pb = PlayoutBoard::from_board(&board, Color::Black);
        pb.set_recent_moves(pb.index(Point::new(1, 1)) as u16, NO_POINT);
        let take = Features::of(&pb, pb.index(Point::new(1, 2)), Color::Black);
        assert_eq!(take.fixed[0], CAPTURE_LAST);
        assert_eq!(take.fixed[4], 1, "next to the last move");
        let far = Features::of(&pb, pb.index(Point::new(7, 7)), Color::Black);
        assert_eq!(far.fixed[..4], [0, 0, 0, 0]);
        assert_eq!(far.fixed[4], 16, "17 or more away");
        assert_eq!(far.fixed[6], 2, "the second line, no stone near");
        // White extending on B3 gets out: the chain would have A3, C3 and B4.
        let pw = PlayoutBoard::from_board(&board, Color::White);
        let escape = Features::of(&pw, pw.index(Point::new(1, 2)), Color::White);
        assert_eq!(escape.fixed[1], ESCAPE_ONE);
    }

    #[test]
    fn stones_near_are_those_within_two_steps() {
        let mut board = Board::new(9).unwrap();
        board.place(Point::from_gtp("C3", 9).unwrap(), Color::Black, &mut Vec::new());
        let pb = PlayoutBoard::from_board(&board, Color::White);
        let near =
            |s: &str| Features::of(&pb, pb.index(Point::from_gtp(s, 9).unwrap()), Color::White).has_stones_near();
        assert!(near("A3") && near("C5") && near("E3") && near("C1") && near("D4"));
        assert!(!near("A4") && !near("D5") && !near("F3") && !near("E1"));
        let empty = PlayoutBoard::from_board(&Board::new(9).unwrap(), Color::Black);
        let corner = Features::of(&empty, empty.index(Point::new(0, 0)), Color::Black);
        assert!(!corner.has_stones_near() && corner.line() == 0 && corner.atari().is_none());
    }

    #[test]
    fn the_strengths_file_round_trips_and_bad_lines_are_refused() {
        let mut p = Predictor::uniform();
        p.fixed[3] = 2.5;
        p.shapes.insert(canonical_shape(0o12345670), 0.25);
        p.other_shape = 0.5;
        p.insert_large(Shape::from_text("000120000003").unwrap().0, 0, 3.5);
        p.other_large = 0.75;
        assert_eq!(Predictor::from_text(&p.to_text()).unwrap(), p);
        for bad in ["capture 9 1.0", "colour 1 1.0", "capture 1 -2", "shape 1000000 1", "capture 1", "large 0120 2"] {
            let err = Predictor::from_text(bad).unwrap_err();
            assert_eq!(err.line, 1, "{bad}: {err}");
        }
        assert!(Predictor::default().gamma(&Features { fixed: [0; 7], shape: 0, large: [0; SIZES] }) > 0.0);
        // The embedded strengths are read once and shared; a default predictor is an equal copy.
        assert!(Arc::ptr_eq(&Predictor::embedded(), &Predictor::embedded()));
        assert_eq!(Predictor::default(), *Predictor::embedded());
        assert_eq!(Predictor::default(), Predictor::from_text(DEFAULT).unwrap());
        // Small boards play with those strengths, large ones with the 19×19 games' own, also read once.
        assert!(Arc::ptr_eq(&Predictor::embedded_for(9), &Predictor::embedded()));
        assert!(Arc::ptr_eq(&Predictor::embedded_for(LARGE_BOARD - 1), &Predictor::embedded()));
        assert!(Arc::ptr_eq(&Predictor::embedded_for(19), &Predictor::embedded_for(LARGE_BOARD)));
        assert_eq!(*Predictor::embedded_for(19), Predictor::from_text(DEFAULT_19).unwrap());
        assert_ne!(*Predictor::embedded_for(19), *Predictor::embedded());
    }

    #[test]
    fn a_large_shape_counts_in_every_orientation_and_the_largest_known_wins() {
        // A black stone on E5 seen by white from the eight points a knight's move away: one shape turned.
        let mut board = Board::new(9).unwrap();
        board.place(Point::from_gtp("E5", 9).unwrap(), Color::Black, &mut Vec::new());
        let pb = PlayoutBoard::from_board(&board, Color::White);
        let at = |s: &str| Features::of(&pb, pb.index(Point::from_gtp(s, 9).unwrap()), Color::White);
        let knight = ["D3", "F3", "G4", "G6", "F7", "D7", "C6", "C4"];
        let mut p = Predictor::uniform();
        p.insert_large(Shape::around(&pb, pb.index(Point::from_gtp("D3", 9).unwrap()), Color::White), 1, 4.0);
        for s in knight {
            assert_eq!(p.gamma(&at(s)), 4.0, "{s}");
        }
        assert_eq!(p.gamma(&at("E3")), 1.0, "another shape");
        // A larger size of the same shape around D3 only takes over there.
        p.insert_large(Shape::around(&pb, pb.index(Point::from_gtp("D3", 9).unwrap()), Color::White), 3, 0.5);
        assert_eq!(p.gamma(&at("D3")), 0.5);
        assert_eq!(p.gamma(&at("F7")), 0.5, "the board's centre is symmetric");
    }

    #[test]
    fn mm_recovers_the_strengths_that_made_the_choices() {
        // Candidates with random features; choices drawn from known strengths of the capture group.
        let truth = [1.0, 8.0, 4.0, 2.0, 0.5];
        let mut rng = Rng::new(3);
        let samples: Vec<Sample> = (0..4000)
            .map(|_| {
                let candidates: Vec<Features> = (0..20)
                    .map(|_| Features { fixed: [rng.below(5) as u8, 0, 0, 0, 0, 0, 0], shape: 0, large: [0; SIZES] })
                    .collect();
                let total: f64 = candidates.iter().map(|f| truth[f.fixed[0] as usize]).sum();
                let mut x = rng.unit() * total;
                let chosen = candidates
                    .iter()
                    .position(|f| {
                        x -= truth[f.fixed[0] as usize];
                        x <= 0.0
                    })
                    .unwrap_or(19);
                Sample { candidates, large: vec![[0; SIZES]; 20], chosen, chosen_shape: Shape([0; POINTS]) }
            })
            .collect();
        let fitted = fit(&samples, 30, 1, usize::MAX);
        let relative: Vec<f64> = (0..5).map(|v| f64::from(fitted.fixed[v] / fitted.fixed[0])).collect();
        for (v, (&r, &t)) in relative.iter().zip(&truth).enumerate() {
            assert!((r / t - 1.0).abs() < 0.2, "value {v}: fitted {r:.2}, true {t}");
        }
        let (first, _, _) = accuracy(&fitted, &samples);
        assert!(first > 0.08, "better than a uniform guess among 20, 0.05: {first}");
    }
}
