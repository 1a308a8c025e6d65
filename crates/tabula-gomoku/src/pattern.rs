//! Line patterns: what placing a stone on a cell makes along one line direction.
//!
//! The board keeps, for every cell and each of the four line directions, a 16-bit *line code*: the eight
//! neighbours at offsets −4..=−1 and 1..=4 along the line, two bits each (0 empty, 1 black, 2 white, 3 off the
//! board). A placement changes the codes of at most 32 cells, one OR each. A lookup table then says what a
//! stone of a given colour placed on the cell would make along that line: a five, an open four, a four, an
//! open three and so on down to an open one. [`Pattern`] lists the classes.
//!
//! The nine-cell window cannot see the cells five away, which decide whether an exactly-five rule turns a
//! run of five into an overline. The table treats them as empty, so for those rules it may see a five (or a
//! four) where the stone beyond makes an overline, never the reverse: every class is an upper bound. Code
//! that must be exact (wins, forbidden points, threat proofs) confirms with a direct scan of the board.
//!
//! The patterns (per colour and per "five or more" / "exactly five" variant) are worked out once, on first
//! use, from the longest lines down: placing a stone only adds bits to a code, so every code a pattern refers
//! to is already classified. What is kept is one table per rule (768 KiB together) giving, for a code, both
//! colours' patterns under that rule and their threat shapes at once: the board's per-stone update reads one
//! entry per changed cell and direction, and keeps the patterns beside the line codes.
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::{Board, Pattern, Point, Rule};
//!
//! let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 a1 i8 a2 j8 a3").unwrap();
//! // Black to move: g8 or k8 makes an open four along the row.
//! let k8 = board.parse_point("k8").unwrap();
//! assert_eq!(board.patterns(k8, tabula_gomoku::Color::Black)[0], Pattern::FlexFour);
//! ```

use crate::types::{Color, Rule};
use std::sync::OnceLock;

/// What a stone placed on a cell makes along one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing that can grow into a five along this line.
    None = 0,
    /// One stone with room to become an open two.
    FlexOne,
    /// Two stones that can become a four but not an open four.
    BlockTwo,
    /// Two stones that can become an open three.
    FlexTwo,
    /// A three that can become a four but not an open four.
    BlockThree,
    /// An open three: one more stone makes an open four.
    FlexThree,
    /// A four: exactly one empty point makes five.
    BlockFour,
    /// An open (straight) four: two points five apart make five.
    FlexFour,
    /// Two fours on one line (`X.XXX.X`, `XX.XX.XX`): two points that each make five.
    DoubleFour,
    /// A five (or more, where the rule counts an overline).
    Five,
    /// Six or more in a row where the rule wants exactly five.
    Overline,
}

impl Pattern {
    /// All classes, weakest first.
    pub const ALL: [Pattern; 11] = [
        Pattern::None,
        Pattern::FlexOne,
        Pattern::BlockTwo,
        Pattern::FlexTwo,
        Pattern::BlockThree,
        Pattern::FlexThree,
        Pattern::BlockFour,
        Pattern::FlexFour,
        Pattern::DoubleFour,
        Pattern::Five,
        Pattern::Overline,
    ];
    /// Number of classes.
    pub const COUNT: usize = 11;

    /// The class with discriminant `code`.
    ///
    /// # Panics
    ///
    /// If `code >= COUNT`.
    pub const fn from_code(code: u8) -> Pattern {
        Pattern::ALL[code as usize]
    }

    /// Whether the stone makes at least a four (one point from five) along this line.
    pub const fn is_four(self) -> bool {
        matches!(self, Pattern::BlockFour | Pattern::FlexFour | Pattern::DoubleFour)
    }

    /// Whether the line then has two points that make five (an open four or two fours).
    pub const fn is_open_four(self) -> bool {
        matches!(self, Pattern::FlexFour | Pattern::DoubleFour)
    }

    /// The class one stone weaker: what a cell whose best completion makes `self` is.
    const fn weaker(self) -> Pattern {
        match self {
            Pattern::FlexFour | Pattern::DoubleFour => Pattern::FlexThree,
            Pattern::BlockFour => Pattern::BlockThree,
            Pattern::FlexThree => Pattern::FlexTwo,
            Pattern::BlockThree => Pattern::BlockTwo,
            Pattern::FlexTwo => Pattern::FlexOne,
            _ => Pattern::None,
        }
    }
}

/// The line-code slot (0..8) of the neighbour at `offset` (−4..=4, not 0).
#[inline(always)]
pub(crate) const fn slot(offset: isize) -> u32 {
    if offset < 0 {
        (offset + 4) as u32
    } else {
        (offset + 3) as u32
    }
}

/// A threat a stone would make along a line, as the board keeps track of them (see [`Tables::shapes`]): a cell
/// can be several at once (an open four is also a four).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A five.
    Five,
    /// An open four, or two fours on one line.
    OpenFour,
    /// Any four (open ones too).
    Four,
    /// An open three.
    Three,
}

impl Shape {
    /// Number of shapes.
    pub(crate) const COUNT: usize = 4;

    /// The shapes `p` is, bit `shape` each.
    const fn bits_of(p: Pattern) -> u8 {
        (matches!(p, Pattern::Five) as u8)
            | (p.is_open_four() as u8) << Shape::OpenFour as u8
            | (p.is_four() as u8) << Shape::Four as u8
            | (matches!(p, Pattern::FlexThree) as u8) << Shape::Three as u8
    }
}

const CODES: usize = 1 << 16;

/// Per rule and line code, what a stone on the cell would make for both colours: its [`Shape`]s (the low 16
/// bits, as [`Tables::shapes`] spreads them) and its [`Pattern`] for black (bits 16–19) and for white (bits
/// 20–23). One lookup gives a board everything it keeps of a cell's line when the line changes.
pub(crate) struct Tables {
    cells: Vec<u32>,
}

impl Tables {
    /// Everything a stone on a cell with line `code` would make under `rule` (see [`Tables`]).
    #[inline(always)]
    pub(crate) fn cell(&self, rule: Rule, code: u16) -> u32 {
        self.cells[rule as usize * CODES + code as usize]
    }

    /// The [`Shape`]s a black stone (bit `4 * shape`) and a white one (bit `4 * shape + 1`) would make under
    /// `rule` on a cell with `code`: spread so that a mask and a shift place either colour's in a cell's mark.
    #[inline(always)]
    pub(crate) fn shapes(&self, rule: Rule, code: u16) -> u16 {
        self.cell(rule, code) as u16
    }

    /// The pattern a stone of `color` would make under `rule` on a cell with `code`.
    #[cfg(test)]
    fn pattern(&self, rule: Rule, color: Color, code: u16) -> Pattern {
        Pattern::from_code((self.cell(rule, code) >> (16 + 4 * color.index())) as u8 & 15)
    }
}

/// The shared tables, built on first use.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn build() -> Tables {
    let mut table = vec![0u8; 4 * CODES];
    for exact in [false, true] {
        for colour in [1u8, 2] {
            let t = (exact as usize) * 2 + colour as usize - 1;
            let part = &mut table[t * CODES..(t + 1) * CODES];
            for code in (0..CODES).rev() {
                part[code] = classify(code as u16, colour, exact, part) as u8;
            }
        }
    }
    let mut cells = vec![0u32; Rule::COUNT * CODES];
    for rule in Rule::ALL {
        for code in 0..CODES {
            // One colour's part of the entry: its shapes spread into the low half, its pattern into its nibble.
            let of = |color: Color| {
                let t = (rule.exact_five(color) as usize) * 2 + color.as_cell() as usize - 1;
                let pattern = table[t * CODES + code];
                let bits = Shape::bits_of(Pattern::from_code(pattern)) as u32;
                let spread = (bits & 1) | (bits & 2) << 3 | (bits & 4) << 6 | (bits & 8) << 9;
                spread << color.index() | (pattern as u32) << (16 + 4 * color.index())
            };
            cells[rule as usize * CODES + code] = of(Color::Black) | of(Color::White);
        }
    }
    Tables { cells }
}

/// The line of nine cells a code stands for, `colour` in the middle.
fn decode(code: u16, colour: u8) -> [u8; 9] {
    let mut line = [0u8; 9];
    for (e, cell) in line.iter_mut().enumerate() {
        *cell = if e == 4 { colour } else { ((code >> (2 * slot(e as isize - 4))) & 3) as u8 };
    }
    line
}

/// The run of `colour` through index `at` of the window: (first, last) inclusive.
fn run(line: &[u8; 9], at: usize, colour: u8) -> (usize, usize) {
    let (mut lo, mut hi) = (at, at);
    while lo > 0 && line[lo - 1] == colour {
        lo -= 1;
    }
    while hi < 8 && line[hi + 1] == colour {
        hi += 1;
    }
    (lo, hi)
}

fn classify(code: u16, colour: u8, exact: bool, done: &[u8]) -> Pattern {
    let mut line = decode(code, colour);
    let (lo, hi) = run(&line, 4, colour);
    let len = hi - lo + 1;
    if len >= 5 {
        return if exact && len > 5 { Pattern::Overline } else { Pattern::Five };
    }
    // The empty points that would complete a five through the middle stone.
    let mut points = [0usize; 8];
    let mut count = 0;
    for e in 0..9 {
        if line[e] != 0 {
            continue;
        }
        line[e] = colour;
        let (lo, hi) = run(&line, e, colour);
        let len = hi - lo + 1;
        if lo <= 4 && 4 <= hi && (len == 5 || (!exact && len > 5)) {
            points[count] = e;
            count += 1;
        }
        line[e] = 0;
    }
    match count {
        0 => {}
        1 => return Pattern::BlockFour,
        2 if points[1] - points[0] == 5 => return Pattern::FlexFour,
        _ => return Pattern::DoubleFour,
    }
    let mut best = Pattern::None;
    for e in (0..9).filter(|&e| e != 4 && line[e] == 0) {
        let grown = code | (colour as u16) << (2 * slot(e as isize - 4));
        let weaker = Pattern::from_code(done[grown as usize]).weaker();
        best = best.max(weaker);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(text: &str) -> u16 {
        // `text` is nine characters with `*` in the middle: `x` black, `o` white, `#` wall, `.` empty.
        let cells: Vec<char> = text.chars().collect();
        assert_eq!(cells.len(), 9);
        let mut code = 0u16;
        for (e, c) in cells.iter().enumerate() {
            if e == 4 {
                continue;
            }
            let v = match c {
                'x' => 1,
                'o' => 2,
                '#' => 3,
                _ => 0,
            };
            code |= v << (2 * slot(e as isize - 4));
        }
        code
    }

    #[test]
    fn classes_of_black_lines() {
        let t = tables();
        use Color::{Black, White};
        use Rule::{Freestyle, Standard};
        for (line, rule, color, pattern) in [
            ("..xx*xx..", Freestyle, Black, Pattern::Five),
            (".xxx*xx..", Freestyle, Black, Pattern::Five),
            (".xxx*xx..", Standard, Black, Pattern::Overline),
            ("...x*xx..", Freestyle, Black, Pattern::FlexFour),
            ("..ox*xx..", Freestyle, Black, Pattern::BlockFour),
            ("x.xx*.x..", Freestyle, Black, Pattern::DoubleFour),
            ("...x*x...", Freestyle, Black, Pattern::FlexThree),
            ("..ox*x...", Freestyle, Black, Pattern::BlockThree),
            ("....*x...", Freestyle, Black, Pattern::FlexTwo),
            ("....*....", Freestyle, Black, Pattern::FlexOne),
            ("..o.*.o..", Freestyle, Black, Pattern::None),
            ("##.x*xo..", Freestyle, Black, Pattern::None),
            ("###.*x...", Freestyle, Black, Pattern::FlexTwo),
            // White sees black stones as the opponent's.
            ("...x*x...", Freestyle, White, Pattern::None),
        ] {
            assert_eq!(t.pattern(rule, color, code_of(line)), pattern, "{line} for {color:?} under {rule:?}");
        }
    }
}
