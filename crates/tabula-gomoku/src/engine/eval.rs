//! The [`Eval`] evaluator of the [`Game`](tabula::Game) the core searcher plays (see [`game`](crate::game)).
//!
//! [`Eval`] scores a position from the line patterns of every candidate point for both sides: what each
//! side would make by playing there. A point's four patterns, in any order, make its *class* ([`class_of`]:
//! 1,001 multisets of the eleven [`Pattern`]s, and [`BLOCKED`] for a point its side may not use), and the
//! evaluation is a sum of [`Weights`]: one per class of each candidate point for the side to move and one
//! for the opponent, plus one for the class of each side's best point (the side to move plays first, so its
//! best threat is worth more than the opponent's), plus one for the position's *threat mask*, which threat
//! kinds (a five, an open four, a four, a three, each alone or with more) each side has somewhere, by the
//! colour to move ([`Weights::threat`]). Positions the tactics settle come first: a five to make, two fives
//! to stop, or a winning shape (open four, four-three, double four) with no five to stop.
//!
//! The weights started from hand-set pattern values ([`Weights::hand_set`]) and were fitted to the
//! evaluations of Rapfi, a strong Gomocup engine (its classical evaluation, 50 ms a position), over 19,269
//! positions of the engine's self-play: on positions of other games the fitted weights' error against
//! Rapfi's win rates is 41 % below the hand-set ones' (`tests/evaluation.rs`). The threat-mask weights were
//! fitted later, alone, to Rapfi's values of 39,290 positions of newer self-play, and took that error from
//! 0.0435 to 0.0406. Move ordering and the threat search rank points by the hand-set values.
//!
//! # Examples
//!
//! ```
//! use tabula::game::{Evaluator, HookedGame, WinningMove};
//! use tabula_gomoku::{Board, Eval, Rule};
//!
//! let board = Board::from_moves(15, 15, Rule::Standard, "h8 a1 i8 a2 j8 a3 k8 a4").unwrap();
//! let WinningMove::Found(win) = board.winning_move() else { panic!() };
//! assert!(["g8", "l8"].contains(&board.format_point(win).as_str()));
//! assert!(Eval.evaluate(&board) > 10_000);
//! ```

use crate::board::{Board, Color, Point};
use crate::pattern::Pattern;
use crate::rules;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tabula::game::Evaluator;
use tabula::score::Score;

/// The value of one line pattern for the side that would make it (the hand-set scale the evaluation's
/// weights start from, and the ranking of points in move ordering and threat search).
const PATTERN_VALUE: [i32; Pattern::COUNT] = [0, 1, 3, 10, 12, 60, 70, 1_000, 1_000, 10_000, 0];
/// A point that makes five.
const FIVE_VALUE: i32 = 10_000;
/// A point that makes an open four, two fours or a four-three.
const WINNING_SHAPE: i32 = 1_000;

/// The number of point classes: every multiset of four line patterns (C(14, 4) = 1,001 of them), and
/// [`BLOCKED`] for a point its side may not use.
pub const CLASSES: usize = 1_002;
/// The class of a point whose side may not play it (renju forbidden to black) or whose apparent five is an
/// overline under the rule.
pub const BLOCKED: usize = CLASSES - 1;
/// The number of threat masks ([`Weights::threat`]): eleven bits, which threat kinds some candidate point
/// offers each side.
pub const THREATS: usize = 1 << 11;
/// Four patterns as a base-11 number: the index of [`ClassTables::of_code`].
const CODES: usize = Pattern::COUNT.pow(4);

/// The point classes, built at compile time.
struct ClassTables {
    /// The class of each base-11 code of four patterns (in any order) in the low 16 bits, its hand-set value
    /// in the high 16: the evaluation reads both with one lookup.
    of_code: [u32; CODES],
    /// The four patterns of each class but [`BLOCKED`], weakest first.
    patterns: [[u8; 4]; CLASSES - 1],
    /// The hand-set value of each class: its patterns' values and the bonus of a winning combination.
    hand: [i32; CLASSES],
    /// The threat-mask bits of each class for the side to move and for the opponent ([`threat_kind`]).
    threat: [[u16; 2]; CLASSES],
}

/// The threat kinds of a point, weakest first: nothing, a three, a three with more (two threes, or a three
/// with a two or a blocked three in another line), a four, a four with more (a four with a two or a three in
/// another line), an open four (or two fours) and a five.
const KIND_BITS: [[u16; 2]; 7] = [
    [0, 0],
    [1 << 6, 1 << 10],
    [1 << 5, 1 << 9],
    [1 << 4, 1 << 8],
    [1 << 3, 1 << 7],
    [1 << 1, 1 << 2],
    // The side to move's five settles the position before any mask is read.
    [0, 1 << 0],
];

/// The threat kind ([`KIND_BITS`]'s index) of a point with patterns `d`.
const fn threat_kind(d: [u8; 4]) -> usize {
    let mut n = [0; Pattern::COUNT];
    let mut k = 0;
    while k < 4 {
        n[d[k] as usize] += 1;
        k += 1;
    }
    let (fives, fours) = (n[Pattern::Five as usize], n[Pattern::BlockFour as usize]);
    let open_fours = n[Pattern::FlexFour as usize] + n[Pattern::DoubleFour as usize];
    let threes = n[Pattern::FlexThree as usize];
    let more = n[Pattern::BlockThree as usize] + n[Pattern::FlexTwo as usize];
    if fives > 0 {
        6
    } else if open_fours > 0 || fours >= 2 {
        5
    } else if fours == 1 {
        if threes + more > 0 {
            4
        } else {
            3
        }
    } else if threes >= 2 || (threes == 1 && more > 0) {
        2
    } else if threes == 1 {
        1
    } else {
        0
    }
}

const fn digits(code: usize) -> [u8; 4] {
    let n = Pattern::COUNT;
    [(code / (n * n * n)) as u8, (code / (n * n) % n) as u8, (code / n % n) as u8, (code % n) as u8]
}

const fn sorted(mut d: [u8; 4]) -> [u8; 4] {
    let mut i = 0;
    while i < 4 {
        let mut j = 0;
        while j + 1 < 4 - i {
            if d[j] > d[j + 1] {
                let t = d[j];
                d[j] = d[j + 1];
                d[j + 1] = t;
            }
            j += 1;
        }
        i += 1;
    }
    d
}

const fn code_of(d: [u8; 4]) -> usize {
    let n = Pattern::COUNT;
    ((d[0] as usize * n + d[1] as usize) * n + d[2] as usize) * n + d[3] as usize
}

/// The hand-set value of a point with patterns `d`, before the exact checks of five and legality.
const fn hand_value(d: [u8; 4]) -> i32 {
    let (mut value, mut fours, mut threes, mut k) = (0, 0, 0, 0);
    while k < 4 {
        value += PATTERN_VALUE[d[k] as usize];
        let p = Pattern::from_code(d[k]);
        fours += p.is_four() as i32;
        threes += matches!(p, Pattern::FlexThree) as i32;
        k += 1;
    }
    if value >= FIVE_VALUE {
        FIVE_VALUE
    } else if fours >= 2 || (fours >= 1 && threes >= 1) {
        value + WINNING_SHAPE
    } else if threes >= 2 {
        value + WINNING_SHAPE / 2
    } else {
        value
    }
}

const fn class_tables() -> ClassTables {
    let mut t = ClassTables {
        of_code: [0; CODES],
        patterns: [[0; 4]; CLASSES - 1],
        hand: [0; CLASSES],
        threat: [[0; 2]; CLASSES],
    };
    // Classes are numbered in the order of their sorted codes, then every code takes its sorted code's class.
    let (mut code, mut next) = (0, 0);
    while code < CODES {
        let d = digits(code);
        if code_of(sorted(d)) == code {
            t.patterns[next] = d;
            t.hand[next] = hand_value(d);
            t.threat[next] = KIND_BITS[threat_kind(d)];
            t.of_code[code] = next as u32 | (t.hand[next] as u32) << 16;
            next += 1;
        }
        code += 1;
    }
    code = 0;
    while code < CODES {
        t.of_code[code] = t.of_code[code_of(sorted(digits(code)))];
        code += 1;
    }
    t
}

static TABLES: ClassTables = class_tables();

/// The class of a point with line patterns `pats`, in any order.
#[inline]
pub fn class_of(pats: [Pattern; 4]) -> usize {
    class_and_value(pats).0
}

/// The class of a point with line patterns `pats` and the class's hand-set value.
#[inline(always)]
fn class_and_value(pats: [Pattern; 4]) -> (usize, i32) {
    let both = TABLES.of_code[code_of(pats.map(|p| p as u8))];
    ((both & 0xffff) as usize, (both >> 16) as i32)
}

/// The four line patterns of `class`, weakest first (`None` for [`BLOCKED`]).
pub fn class_patterns(class: usize) -> Option<[Pattern; 4]> {
    TABLES.patterns.get(class).map(|d| d.map(Pattern::from_code))
}

/// The class of the empty cell `i` for `color` and its hand-set value: the class of its four line patterns,
/// or [`BLOCKED`] (value 0) where an apparent five is an overline or the point is forbidden to `color`.
#[inline]
fn point_class(board: &Board, i: usize, color: Color) -> (usize, i32) {
    let (class, value) = class_and_value(board.patterns_at(i, color));
    exact_value(board, i, color, value).map_or((BLOCKED, 0), |value| (class, value))
}

/// The classes of the empty point `p` for the side to move and for the opponent ([`BLOCKED`] where a side may
/// not use it, as the evaluation counts them): what a fitted move order ([`Weights::move_order`]) looks up.
#[inline]
pub fn point_classes(board: &Board, p: Point) -> (usize, usize) {
    let me = board.side_to_move();
    (point_class(board, p.index(), me).0, point_class(board, p.index(), me.opponent()).0)
}

/// The hand-set value for `color` of playing the empty cell `i`: its four line patterns and their combination
/// (as [`point_class`]'s, worked out from the patterns without the class tables: move ordering asks it of
/// every candidate move).
#[inline]
pub(crate) fn point_value(board: &Board, i: usize, color: Color) -> i32 {
    exact_value(board, i, color, hand_value(board.patterns_at(i, color).map(|p| p as u8))).unwrap_or(0)
}

/// `value`, the hand-set value of the empty cell `i` for `color` by its patterns, after the exact checks:
/// `None` where an apparent five is an overline or the point is forbidden to `color`.
#[inline]
fn exact_value(board: &Board, i: usize, color: Color, value: i32) -> Option<i32> {
    if value >= FIVE_VALUE {
        return makes_five_at(board, i, color).then_some(FIVE_VALUE);
    }
    if value >= WINNING_SHAPE / 2 && !board.is_legal_at(i, color) {
        return None;
    }
    Some(value)
}

/// Whether `color` would make five (a winning line under the rule) by playing the empty cell `i`: the pattern
/// as a quick filter, then the exact scan.
#[inline]
fn makes_five_at(board: &Board, i: usize, color: Color) -> bool {
    board.patterns_at(i, color).contains(&Pattern::Five) && rules::would_make_five(&board.cells, i, color, board.rule())
}

/// The evaluator: line patterns of every candidate point for both sides. See the [module documentation](self).
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

/// What a survey of the candidate points found besides the weights' sum.
struct Survey {
    /// The best hand-set value of a point for the side to move, and that point's class.
    my_best: (i32, usize),
    /// The same for the opponent.
    their_best: (i32, usize),
    /// How many points make five for the opponent.
    their_fives: i32,
    /// Which threat kinds the candidate points offer each side ([`Weights::threat`]'s index).
    threats: usize,
}

impl Survey {
    /// Walks the candidate points, calling `each` with the class of each for the side to move and for the
    /// opponent.
    #[inline]
    fn of(board: &Board, mut each: impl FnMut(usize, usize)) -> Survey {
        let me = board.side_to_move();
        let them = me.opponent();
        let none = class_of([Pattern::None; 4]);
        let mut s = Survey { my_best: (-1, none), their_best: (-1, none), their_fives: 0, threats: 0 };
        board.for_each_candidate(|i| {
            let (mc, m) = point_class(board, i, me);
            let (tc, t) = point_class(board, i, them);
            each(mc, tc);
            s.threats |= usize::from(TABLES.threat[mc][0] | TABLES.threat[tc][1]);
            if m > s.my_best.0 {
                s.my_best = (m, mc);
            }
            if t > s.their_best.0 {
                s.their_best = (t, tc);
            }
            s.their_fives += (t >= FIVE_VALUE) as i32;
        });
        s
    }

    /// Step 1 of the evaluation: the tactics the side to move settles first, if they settle it.
    fn decided(&self) -> Option<Score> {
        if self.my_best.0 >= FIVE_VALUE {
            Some(20_000)
        } else if self.their_fives >= 2 {
            Some(-20_000)
        } else if self.their_fives == 0 && self.my_best.0 >= WINNING_SHAPE {
            Some(15_000)
        } else {
            None
        }
    }

    /// The classes whose best-point weights count: the side to move's best point (unless it must block a
    /// five) and the opponent's.
    fn best_classes(&self) -> (Option<usize>, usize) {
        ((self.their_fives == 0).then_some(self.my_best.1), self.their_best.1)
    }
}

/// The weights of the evaluation, in sixteenths of an evaluation unit (an open two is about 10 units, a
/// five 10,000), one per point class ([`class_of`]) in each of four roles: a candidate point's class for the
/// side to move (`mine`) and for the opponent (`theirs`), summed over the candidate points, and the class of
/// each side's best point by the hand-set values (`my_best`, counted only when the side to move has no five
/// to block; `their_best`), and one for the position's threat mask by the colour to move (`threat`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each candidate point's class for the side to move.
    pub mine: [i32; CLASSES],
    /// Each candidate point's class for the opponent.
    pub theirs: [i32; CLASSES],
    /// The class of the side to move's best point.
    pub my_best: [i32; CLASSES],
    /// The class of the opponent's best point.
    pub their_best: [i32; CLASSES],
    /// The position's threat mask, by the colour to move (black first): a bit for each kind of threat a
    /// stone on some candidate point would make for a side: the opponent's five (bit 0, so a four of theirs
    /// stands on the board); the side to move's open four (1), the opponent's (2); then the side to move's
    /// four with more (3), four (4), three with more (5) and three (6), and the same four for the opponent
    /// (7 to 10). A four with more is a four and a two or a three in other lines; a three with more is two
    /// threes, or a three and a two or a blocked three. What the point sums cannot say: which combinations
    /// of threats are on the board at once, and who moves first.
    pub threat: [[i32; THREATS]; 2],
}

/// A malformed weights file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("weights line {line}: {reason}")]
pub struct WeightsError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// A weights file that cannot be used ([`Weights::read`]).
#[derive(Debug, thiserror::Error)]
pub enum WeightsFileError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a weights file.
    #[error("{}: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: WeightsError,
    },
}

/// The evaluation's weights, fitted to a stronger engine's evaluations (`tabula-lab gomoku tune`).
const DEFAULT_WEIGHTS: &str = include_str!("eval-weights.txt");

/// A copy of the weights every [`Eval`] uses (the crate's own, fitted).
pub fn embedded_weights() -> Weights {
    weights().clone()
}

/// The weights every [`Eval`] uses, shared: the engine's policy holds these unless given others.
pub fn shared_weights() -> Arc<Weights> {
    Arc::clone(shared())
}

/// [`DEFAULT_WEIGHTS`], read once.
fn shared() -> &'static Arc<Weights> {
    static WEIGHTS: OnceLock<Arc<Weights>> = OnceLock::new();
    WEIGHTS.get_or_init(|| Arc::new(Weights::parse(DEFAULT_WEIGHTS).expect("the embedded weights parse (tested)")))
}

/// The weights every [`Eval`] uses.
fn weights() -> &'static Weights {
    shared()
}

impl Weights {
    /// The divisor from weights to evaluation units.
    pub const SCALE: i32 = 16;

    /// All zero.
    pub fn zero() -> Weights {
        Weights {
            mine: [0; CLASSES],
            theirs: [0; CLASSES],
            my_best: [0; CLASSES],
            their_best: [0; CLASSES],
            threat: [[0; THREATS]; 2],
        }
    }

    /// The hand-set evaluation the weights were first fitted from: each point's pattern values (and the bonus
    /// of a winning combination), six fifths for the side to move and one for the opponent; half of the side
    /// to move's best point as the tempo of moving first; a quarter of the opponent's best point against it.
    pub fn hand_set() -> Weights {
        let mut w = Weights::zero();
        for c in 0..BLOCKED {
            let v = TABLES.hand[c] * Weights::SCALE;
            (w.mine[c], w.theirs[c], w.my_best[c], w.their_best[c]) = (v * 6 / 5, -v, v / 2, -v / 4);
        }
        w
    }

    /// The hand-set move order ([`Eval`]'s) as weights read by [`move_order`](Self::move_order): a point's
    /// hand-set value for the side to move plus four fifths of its value for the opponent.
    pub fn hand_order() -> Weights {
        let mut w = Weights::zero();
        for c in 0..BLOCKED {
            let v = TABLES.hand[c] * Weights::SCALE;
            (w.mine[c], w.theirs[c]) = (v, v * 4 / 5);
        }
        w
    }

    /// The order hint of the empty point `p` with these weights read as a move order (a file `tabula-lab
    /// gomoku tune order` writes): `mine` of the point's class for the side to move plus `theirs` of its
    /// class for the opponent, in sixteenths of the hint; `my_best` and `their_best` are not used.
    #[inline]
    pub fn move_order(&self, board: &Board, p: Point) -> i32 {
        let (mc, tc) = point_classes(board, p);
        (self.mine[mc] + self.theirs[tc]) / Weights::SCALE
    }

    /// The evaluation of `board` for the side to move with these weights (what [`Eval`] computes with the
    /// embedded ones).
    pub fn evaluate(&self, board: &Board) -> Score {
        let mut sum = 0;
        let survey = Survey::of(board, |mc, tc| sum += self.mine[mc] + self.theirs[tc]);
        if let Some(decided) = survey.decided() {
            return decided;
        }
        // Step 2. Everything else: the weighted balance.
        let (my_best, their_best) = survey.best_classes();
        sum += my_best.map_or(0, |c| self.my_best[c]) + self.their_best[their_best];
        sum += self.threat[board.side_to_move().index()][survey.threats];
        (sum / Weights::SCALE).clamp(-12_000, 12_000)
    }

    /// The weights as text: a line per class with a weight that is not zero, its four patterns (or
    /// `Blocked`) then the four weights (`mine theirs my_best their_best`); then a line per threat mask with
    /// a weight that is not zero, `Threat`, the mask as eleven binary digits (bit 0 last), then the weights
    /// with black and with white to move.
    pub fn to_text(&self) -> String {
        let mut text = String::from(
            "# Gomoku evaluation weights (sixteenths of a unit): patterns, then mine theirs my_best their_best\n\
             # and threat masks (Threat, the mask's bits, then the weights with black and with white to move)\n",
        );
        for c in 0..CLASSES {
            let row = [self.mine[c], self.theirs[c], self.my_best[c], self.their_best[c]];
            if row == [0; 4] {
                continue;
            }
            let name = match class_patterns(c) {
                Some(p) => p.map(|p| format!("{p:?}")).join(" "),
                None => "Blocked".to_owned(),
            };
            text.push_str(&format!("{name} {} {} {} {}\n", row[0], row[1], row[2], row[3]));
        }
        for mask in 0..THREATS {
            let [black, white] = self.threat.map(|t| t[mask]);
            if (black, white) != (0, 0) {
                text.push_str(&format!("Threat {mask:011b} {black} {white}\n"));
            }
        }
        text
    }

    /// Reads a weights file written by [`to_text`](Self::to_text) (`tabula-lab gomoku tune fit` writes them).
    ///
    /// # Errors
    ///
    /// The file cannot be read, or is not a weights file ([`parse`](Self::parse)).
    pub fn read(path: &Path) -> Result<Weights, WeightsFileError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| WeightsFileError::Read { path: path.to_owned(), source })?;
        Weights::parse(&text).map_err(|source| WeightsFileError::Parse { path: path.to_owned(), source })
    }

    /// Reads weights written by [`to_text`](Self::to_text); classes and masks not listed weigh nothing.
    ///
    /// # Errors
    ///
    /// A line that names no class or does not give four integer weights, a threat line that is not eleven
    /// binary digits and two integer weights, or a class or mask listed twice.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::zero();
        let mut seen = vec![false; CLASSES];
        let mut seen_masks = vec![false; THREATS];
        for (n, line) in text.lines().enumerate() {
            let error = |reason: &str| WeightsError { line: n + 1, reason: reason.to_owned() };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[0] == "Threat" {
                let mask = match words.get(1) {
                    Some(bits) if bits.len() == 11 => usize::from_str_radix(bits, 2).ok(),
                    _ => None,
                };
                let mask = mask.ok_or_else(|| error("a threat mask is eleven binary digits"))?;
                let [black, white] = line_weights(&words[2..], "two weights expected").map_err(error)?;
                if std::mem::replace(&mut seen_masks[mask], true) {
                    return Err(error("threat mask listed twice"));
                }
                (w.threat[0][mask], w.threat[1][mask]) = (black, white);
                continue;
            }
            let (class, numbers) = if words.first() == Some(&"Blocked") {
                (BLOCKED, &words[1..])
            } else {
                let mut pats = [Pattern::None; 4];
                for (k, word) in words.iter().take(4).enumerate() {
                    pats[k] = *Pattern::ALL
                        .iter()
                        .find(|p| format!("{p:?}") == *word)
                        .ok_or_else(|| error(&format!("no pattern {word:?}")))?;
                }
                (class_of(pats), words.get(4..).unwrap_or(&[]))
            };
            let [a, b, c, d] = line_weights(numbers, "four weights expected").map_err(error)?;
            if std::mem::replace(&mut seen[class], true) {
                return Err(error("class listed twice"));
            }
            (w.mine[class], w.theirs[class], w.my_best[class], w.their_best[class]) = (a, b, c, d);
        }
        Ok(w)
    }
}

/// The `N` integer weights that end a line of a weights file (`words`); `count` says what is wrong when there
/// are not `N` of them.
fn line_weights<const N: usize>(words: &[&str], count: &'static str) -> Result<[i32; N], &'static str> {
    let numbers: Vec<i32> =
        words.iter().map(|x| x.parse()).collect::<Result<_, _>>().map_err(|_| "a weight is not an integer")?;
    numbers.try_into().map_err(|_| count)
}

/// A position's evaluation terms: what the weights multiply (for fitting them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The class of each candidate point for the side to move.
    pub mine: Vec<u16>,
    /// The class of each candidate point for the opponent.
    pub theirs: Vec<u16>,
    /// The class of the side to move's best point, when it counts.
    pub my_best: Option<u16>,
    /// The class of the opponent's best point.
    pub their_best: u16,
    /// The threat mask ([`Weights::threat`]).
    pub threat: u16,
    /// The colour to move (the threat weights' table).
    pub to_move: Color,
}

impl Features {
    /// The terms of `board`'s evaluation, or `None` where the tactics of step 1 decide it.
    pub fn of(board: &Board) -> Option<Features> {
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        let survey = Survey::of(board, |mc, tc| {
            mine.push(mc as u16);
            theirs.push(tc as u16);
        });
        if survey.decided().is_some() {
            return None;
        }
        let (my_best, their_best) = survey.best_classes();
        Some(Features {
            mine,
            theirs,
            my_best: my_best.map(|c| c as u16),
            their_best: their_best as u16,
            threat: survey.threats as u16,
            to_move: board.side_to_move(),
        })
    }
}

impl Evaluator<Board> for Eval {
    fn evaluate(&self, board: &Board) -> Score {
        weights().evaluate(board)
    }

    fn move_order(&self, board: &Board, mv: Point) -> i32 {
        let i = mv.index();
        let me = board.side_to_move();
        let attack = point_value(board, i, me);
        let defence = point_value(board, i, me.opponent());
        attack + defence * 4 / 5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::search::verify::check_all;

    #[test]
    fn the_hand_order_as_weights_is_the_evaluators_order() {
        for (rule, moves) in [
            (Rule::Freestyle, "h8 h9 i8 g8 j8 k8 i9 i10 j10 g7 h10 f6 g10 k10"),
            (Rule::Standard, "h8 i9 h9 h10 g8 i8 i10 f7 e6 g7 j7 j9 k9 h11 g12"),
            (Rule::Renju, "h8 h9 i8 j8 i9 i10 j10 g7 k11 h10 g10 l12 f10 k9"),
        ] {
            let board = Board::from_moves(15, 15, rule, moves).unwrap();
            let order = Weights::hand_order();
            let mut distinct = std::collections::HashSet::new();
            board.for_each_candidate(|i| {
                let p = Point::from_index(i);
                let hint = order.move_order(&board, p);
                assert_eq!(hint, Eval.move_order(&board, p), "{rule} {}", board.format_point(p));
                distinct.insert(hint);
            });
            assert!(distinct.len() > 5, "{rule}: the hints tell points apart");
        }
    }

    #[test]
    fn point_values_agree_with_the_classes() {
        // Move ordering works a point's value out from its patterns; the evaluation looks it up by class.
        let mut strong = 0;
        for (rule, moves) in [
            (Rule::Freestyle, "h8 h9 i8 g8 j8 k8 i9 i10 j10 g7 h10 f6 g10 k10"),
            (Rule::Standard, "h8 i9 h9 h10 g8 i8 i10 f7 e6 g7 j7 j9 k9 h11 g12"),
            (Rule::Renju, "h8 h9 i8 j8 i9 i10 j10 g7 k11 h10 g10 l12 f10 k9 e10"),
        ] {
            let board = Board::from_moves(15, 15, rule, moves).unwrap();
            for color in [Color::Black, Color::White] {
                board.for_each_candidate(|i| {
                    let value = point_value(&board, i, color);
                    assert_eq!(value, point_class(&board, i, color).1, "{rule} {i}");
                    strong += (value >= WINNING_SHAPE / 2) as usize;
                });
            }
        }
        // The positions have points that win or threaten to: the combination bonuses are compared too.
        assert!(strong >= 3, "{strong}");
    }

    use crate::Rule;

    #[test]
    fn classes_are_the_multisets_of_four_patterns() {
        let mut seen = vec![0; CLASSES];
        for code in 0..CODES {
            let pats = digits(code).map(Pattern::from_code);
            let class = class_of(pats);
            seen[class] += 1;
            let mut back = class_patterns(class).unwrap();
            let mut pats = pats;
            back.sort();
            pats.sort();
            assert_eq!(back, pats);
        }
        // Every class but BLOCKED is some ordering of four patterns, and no two multisets share one.
        assert!(seen[..BLOCKED].iter().all(|&n| n > 0));
        assert_eq!(seen[BLOCKED], 0);
        assert_eq!(class_patterns(BLOCKED), None);
    }

    #[test]
    fn weights_files_round_trip_and_bad_ones_are_refused() {
        let embedded = embedded_weights();
        assert_eq!(Weights::parse(&embedded.to_text()).unwrap(), embedded);
        let hand = Weights::hand_set();
        assert_eq!(Weights::parse(&hand.to_text()).unwrap(), hand);
        for (bad, line) in [
            ("FlexThree None None None 1 2 3\n", 1),
            ("# c\nFlexTree None None None 1 2 3 4\n", 2),
            ("Blocked 1 2 3 x\n", 1),
            ("None None None FlexOne 1 1 1 1\nFlexOne None None None 2 2 2 2\n", 2),
        ] {
            assert_eq!(Weights::parse(bad).unwrap_err().line, line, "{bad}");
        }
    }

    #[test]
    fn the_features_and_the_weights_give_the_evaluation() {
        let w = embedded_weights();
        for moves in ["h8 i9 h9 h10 g10", "h8 i9 j10 h10 g10 h11 h9", "a1 h8", "h8 h9 i8 i9 j8"] {
            let board = Board::from_moves(15, 15, Rule::Freestyle, moves).unwrap();
            let Some(f) = Features::of(&board) else {
                assert!(Eval.evaluate(&board).abs() >= 15_000, "{moves}");
                continue;
            };
            let sum: i32 = f.mine.iter().map(|&c| w.mine[c as usize]).sum::<i32>()
                + f.theirs.iter().map(|&c| w.theirs[c as usize]).sum::<i32>()
                + f.my_best.map_or(0, |c| w.my_best[c as usize])
                + w.their_best[f.their_best as usize]
                + w.threat[f.to_move.index()][f.threat as usize];
            assert_eq!(Eval.evaluate(&board), (sum / Weights::SCALE).clamp(-12_000, 12_000), "{moves}");
        }
    }

    #[test]
    fn threat_masks_name_the_threats_each_side_has() {
        let mask = |moves: &str| {
            let board = Board::from_moves(15, 15, Rule::Freestyle, moves).unwrap();
            let f = Features::of(&board).unwrap();
            (f.to_move, f.threat)
        };
        // Two black stones in a row: black to move can make a three; white's two at the edge make nothing.
        assert_eq!(mask("h8 a1 i8 a2"), (Color::Black, 1 << 6));
        // A third black stone: white to move, black's points make an open four (g8, k8) and a four (f8, l8).
        assert_eq!(mask("h8 a1 i8 a2 j8"), (Color::White, 1 << 2 | 1 << 8));
        // White to move must block black's five; black's threes and fours beside it do not count twice.
        let (_, m) = mask("h8 g8 i8 a2 j8 a3 k8");
        assert_eq!(m & 1, 1);
        // A three crossing a two: the point that makes both is a three with more (bit 5 for the side to move).
        assert_eq!(mask("h8 a1 i8 a2 j10 a4 j11 b6").1 & (1 << 5), 1 << 5);
        // The kinds, from patterns.
        let kind = |pats: [Pattern; 4]| threat_kind(pats.map(|p| p as u8));
        use Pattern::*;
        assert_eq!(kind([BlockFour, FlexThree, None, None]), 4);
        assert_eq!(kind([BlockFour, BlockFour, None, None]), 5);
        assert_eq!(kind([BlockFour, FlexOne, BlockTwo, None]), 3);
        assert_eq!(kind([FlexThree, FlexThree, None, None]), 2);
        assert_eq!(kind([FlexThree, BlockTwo, FlexOne, None]), 1);
        assert_eq!(kind([FlexTwo, FlexTwo, BlockThree, None]), 0);
    }

    #[test]
    fn threat_weights_count_and_round_trip() {
        let mut w = embedded_weights();
        let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 a1 i8 a2 j8").unwrap();
        w.threat[Color::White.index()][1 << 2 | 1 << 8] = 0;
        let before = w.evaluate(&board);
        w.threat[Color::White.index()][1 << 2 | 1 << 8] = -160;
        w.threat[Color::Black.index()][1 << 2 | 1 << 8] = 999;
        assert_eq!(w.evaluate(&board), before - 10);
        assert_eq!(Weights::parse(&w.to_text()).unwrap(), w);
        for bad in ["Threat 101 1 2", "Threat 00000000001 1", "Threat 00000000002 1 2", "Threat x 1 2"] {
            assert!(Weights::parse(bad).is_err(), "{bad}");
        }
        let twice = "Threat 00000000001 1 2\nThreat 00000000001 1 2\n";
        assert_eq!(Weights::parse(twice).unwrap_err().line, 2);
    }

    #[test]
    fn searches_agree_with_minimax_on_small_boards() {
        for (rule, moves) in
            [(Rule::Freestyle, "c3 c4 d3 d4"), (Rule::Standard, "c3 b2 d4 e5 b4"), (Rule::Renju, "c3 d3 c4 d5")]
        {
            let board = Board::from_moves(6, 6, rule, moves).unwrap();
            for depth in 1..=3 {
                check_all(&board, &Eval, depth).unwrap_or_else(|m| panic!("{rule} {moves}: {m}"));
            }
        }
    }
}
