//! The shared vocabulary of the board and the rules: [`Color`], [`Rule`], and the layout of the padded cell
//! array both scan. A leaf module, so that the board and the rule checks use it without using each other.
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::{Color, Rule};
//!
//! assert_eq!("Renju".parse::<Rule>(), Ok(Rule::Renju));
//! assert!(Rule::Renju.exact_five(Color::Black) && !Rule::Renju.exact_five(Color::White));
//! assert_eq!(Color::Black.opponent(), Color::White);
//! ```

use std::fmt;
use thiserror::Error;

/// The side of the padded cell array (the board sits in it with at least [`PAD`] cells of wall around).
pub(crate) const STRIDE: usize = 32;
pub(crate) const PAD: usize = 5;
pub(crate) const CELLS: usize = STRIDE * STRIDE;
/// Index steps of the four line directions: across, down, down-right, down-left.
pub(crate) const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];
pub(crate) const EMPTY: u8 = 0;
pub(crate) const WALL: u8 = 3;

/// A player. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player.
    Black = 1,
    /// The second player.
    White = 2,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];
    /// Number of colours.
    pub const COUNT: usize = 2;

    /// The other colour.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The cell value of a stone of this colour.
    pub(crate) const fn as_cell(self) -> u8 {
        self as u8
    }

    /// 0 for black, 1 for white.
    pub const fn index(self) -> usize {
        self as usize - 1
    }
}

/// Which lines win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five wins; an overline does not.
    Standard,
    /// Renju: black wins with exactly five and may not play a double three, a double four or an overline;
    /// white wins with five or more.
    Renju,
}

impl Rule {
    /// All rules.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];
    /// Number of rules.
    pub const COUNT: usize = 3;

    /// Whether `color` needs exactly five (an overline does not win).
    pub const fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => matches!(color, Color::Black),
        }
    }

    /// Whether some points may be forbidden to `color` (renju's black: double threes, double fours,
    /// overlines).
    pub const fn forbids(self, color: Color) -> bool {
        matches!(self, Rule::Renju) && matches!(color, Color::Black)
    }

    /// The rule's number in the Gomocup protocol's `INFO rule` (a bitmask: 1 exactly five, 4 renju).
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_gomoku::Rule;
    ///
    /// for rule in Rule::ALL {
    ///     assert_eq!(Rule::from_gomocup_code(rule.gomocup_code().into()), rule);
    /// }
    /// assert_eq!(Rule::from_gomocup_code(2), Rule::Freestyle); // continuous games: the rule is unchanged
    /// assert_eq!(Rule::from_gomocup_code(5), Rule::Renju);
    /// ```
    pub const fn gomocup_code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
        }
    }

    /// The rule an `INFO rule` bitmask asks for: renju if its bit 4 is set, else exactly five if bit 1 is,
    /// else freestyle (the other bits, such as 2 for continuous games, do not change the rule of a game).
    pub const fn from_gomocup_code(bits: u64) -> Rule {
        if bits & 4 != 0 {
            Rule::Renju
        } else if bits & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    /// The rule's name as the command line spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }
}

impl std::str::FromStr for Rule {
    type Err = ParseRuleError;
    fn from_str(s: &str) -> Result<Rule, ParseRuleError> {
        Rule::ALL.into_iter().find(|r| r.name().eq_ignore_ascii_case(s.trim())).ok_or_else(|| ParseRuleError(s.into()))
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is not `freestyle`, `standard` or `renju`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown rule `{0}` (expected freestyle, standard or renju)")]
pub struct ParseRuleError(pub String);
