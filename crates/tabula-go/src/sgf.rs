//! Reading and writing game records in SGF (FF\[4\], GM\[1\]).
//!
//! Read: `SZ`, `KM`, `HA`, `PL`, `RE`, `AB`/`AW`/`AE` setup before the first move, `B`/`W` moves (the empty
//! value and, on boards up to 19×19, `tt` are passes), `C` comments and the root's game-information
//! properties ([`GAME_INFO`]: players, event, date, time limits ...), which are written back as they came. Variations are parsed and the main
//! line (the first child at each node) is followed. Other properties are kept out of the way but must be
//! well formed. Replaying a record checks every move against the rules.
//!
//! # Examples
//!
//! ```
//! use tabula_go::coords::{Color, Move};
//! use tabula_go::position::Rules;
//! use tabula_go::sgf::GameRecord;
//!
//! let text = "(;FF[4]GM[1]SZ[9]KM[6.5]AB[cc]C[a \\] bracket];W[gg](;B[];W[tt])(;B[ee]))";
//! let record = GameRecord::parse(text).unwrap();
//! assert_eq!(record.size, 9);
//! assert_eq!(record.comment.as_deref(), Some("a ] bracket"));
//! assert_eq!(record.moves.len(), 3); // W gg, then the first variation: B pass, W pass
//! assert_eq!(record.moves[1].mv, Move::Pass);
//! let game = record.replay(Rules::default(), None).unwrap();
//! assert!(game.is_over());
//! assert_eq!(GameRecord::parse(&record.to_sgf()).unwrap(), record);
//! ```

use crate::board::IllegalMove;
use crate::coords::{Color, CoordError, Move, Point, MAX_SIZE, MIN_SIZE};
use crate::position::{Position, Rules, SetupError};
use std::fmt::Write;
use thiserror::Error;

/// What is wrong with an SGF text.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SgfError {
    /// The text ended inside the game tree.
    #[error("unexpected end of SGF: expected {expected}")]
    UnexpectedEnd {
        /// What the reader was looking for.
        expected: &'static str,
    },
    /// A character that does not belong where it is.
    #[error("unexpected {found:?} at byte {offset} of SGF: expected {expected}")]
    Unexpected {
        /// The character found.
        found: char,
        /// Its byte offset.
        offset: usize,
        /// What the reader was looking for.
        expected: &'static str,
    },
    /// A property with a value that makes no sense for it.
    #[error("bad SGF property {property}[{value}]: {reason}")]
    BadProperty {
        /// The property identifier.
        property: String,
        /// The offending value.
        value: String,
        /// What was expected.
        reason: &'static str,
    },
    /// A point or move value that is not on the board.
    #[error("bad point in SGF property {property}: {source}")]
    BadPoint {
        /// The property identifier.
        property: String,
        /// The coordinate problem.
        source: CoordError,
    },
    /// A setup property after the first move, or a setup that leaves a chain without liberties.
    #[error("bad SGF setup: {0}")]
    Setup(SetupError),
    /// A move of the main line that the rules forbid.
    #[error("illegal move {number} in SGF ({color:?} {mv}): {reason}")]
    IllegalMove {
        /// The move's number, from 1.
        number: usize,
        /// Who played it.
        color: Color,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalMove,
    },
}

/// The root properties kept as text in [`GameRecord::info`], in the order they are written: application,
/// charset, rules, event, round, date, players and their ranks, place, time and overtime, game name.
pub const GAME_INFO: [&str; 14] = ["AP", "CA", "RU", "EV", "RO", "DT", "PB", "BR", "PW", "WR", "PC", "TM", "OT", "GN"];

/// One move of a record's main line.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordMove {
    /// Who played.
    pub color: Color,
    /// What was played.
    pub mv: Move,
    /// The comment of the move's node.
    pub comment: Option<String>,
}

/// The main line of an SGF game: board, komi, setup and moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Board side (`SZ`, 19 if absent).
    pub size: usize,
    /// Komi (`KM`, 0 if absent).
    pub komi: f64,
    /// Handicap stones (`HA`, informational: the stones themselves come from `AB`).
    pub handicap: usize,
    /// Setup stones before the first move, black first then white, each in point order.
    pub setup: Vec<(Point, Color)>,
    /// Who moves first after the setup (`PL`), if the record says.
    pub to_play: Option<Color>,
    /// The result (`RE`), as written.
    pub result: Option<String>,
    /// The root node's comment (`C`).
    pub comment: Option<String>,
    /// The root's game-information properties ([`GAME_INFO`]), identifier and value, in [`GAME_INFO`]
    /// order.
    pub info: Vec<(String, String)>,
    /// The moves of the main line.
    pub moves: Vec<RecordMove>,
}

/// One game tree of an SGF collection: its text, where it starts, and whether it has a `KM` property.
pub struct GameTree<'a> {
    /// The tree's text, parentheses included: what [`GameRecord::parse`] reads.
    pub text: &'a str,
    /// Its byte offset in the collection.
    pub start: usize,
    /// Whether it has a `KM` property (a reader may then keep its own komi).
    pub has_komi: bool,
}

/// The game trees of an SGF collection, found by matching parentheses outside property values; the byte
/// offset of text that starts no tree is an error. An unclosed tree runs to the end (the SGF reader then
/// says what is missing).
///
/// # Examples
///
/// ```
/// use tabula_go::sgf::{game_trees, GameRecord};
///
/// let collection = "(;SZ[9];B[ee])\n(;SZ[9]KM[7];B[cc](;W[gg])(;W[gc]))";
/// let trees: Vec<_> = game_trees(collection).map(|t| t.unwrap()).collect();
/// assert_eq!(trees.len(), 2);
/// assert!(!trees[0].has_komi && trees[1].has_komi);
/// assert_eq!(GameRecord::parse(trees[1].text).unwrap().moves.len(), 2);
/// assert_eq!(game_trees("x").next().unwrap().err(), Some(0));
/// ```
pub fn game_trees(text: &str) -> impl Iterator<Item = Result<GameTree<'_>, usize>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &text[at..];
        let skipped = rest.len() - rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}').len();
        at += skipped;
        let start = at;
        match text[at..].chars().next() {
            None => return None,
            Some('(') => {}
            Some(_) => {
                at = text.len();
                return Some(Err(start));
            }
        }
        let (mut depth, mut in_value, mut escaped) = (0usize, false, false);
        let (mut ident, mut has_komi) = (String::new(), false);
        for (i, c) in text[start..].char_indices() {
            if in_value {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, ']') => {
                        in_value = false;
                        ident.clear();
                    }
                    _ => {}
                }
                continue;
            }
            match c {
                '[' => {
                    in_value = true;
                    has_komi |= ident == "KM";
                }
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        at = start + i + 1;
                        return Some(Ok(GameTree { text: &text[start..at], start, has_komi }));
                    }
                }
                _ => {}
            }
            // An identifier is upper-case letters; space may stand between it and its value.
            if c.is_ascii_uppercase() {
                ident.push(c);
            } else if !c.is_whitespace() && c != '[' {
                ident.clear();
            }
        }
        at = text.len();
        Some(Ok(GameTree { text: &text[start..], start, has_komi }))
    })
}

/// One property of a parsed node.
type Property = (String, Vec<String>);

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.at..].chars().next()
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.text[self.at..].chars().next() {
            if !c.is_whitespace() {
                break;
            }
            self.at += c.len_utf8();
        }
    }

    fn expect(&mut self, wanted: char, expected: &'static str) -> Result<(), SgfError> {
        match self.peek() {
            Some(c) if c == wanted => {
                self.at += 1;
                Ok(())
            }
            Some(found) => Err(SgfError::Unexpected { found, offset: self.at, expected }),
            None => Err(SgfError::UnexpectedEnd { expected }),
        }
    }

    /// A game tree: `(` nodes, then variations, `)`. Only the first variation is kept (the main line).
    fn game_tree(&mut self, main_line: &mut Vec<Vec<Property>>, keep: bool) -> Result<(), SgfError> {
        self.expect('(', "'(' to open a game tree")?;
        let mut nodes = 0;
        while self.peek() == Some(';') {
            self.at += 1;
            let node = self.node()?;
            if keep {
                main_line.push(node);
            }
            nodes += 1;
        }
        if nodes == 0 {
            return match self.peek() {
                Some(found) => Err(SgfError::Unexpected { found, offset: self.at, expected: "';' to start a node" }),
                None => Err(SgfError::UnexpectedEnd { expected: "';' to start a node" }),
            };
        }
        let mut first = true;
        while self.peek() == Some('(') {
            self.game_tree(main_line, keep && first)?;
            first = false;
        }
        self.expect(')', "')' to close a game tree, '(' or ';'")
    }

    fn node(&mut self) -> Result<Vec<Property>, SgfError> {
        let mut properties = Vec::new();
        while let Some(c) = self.peek() {
            if !c.is_ascii_uppercase() {
                if c.is_ascii_lowercase() {
                    return Err(SgfError::Unexpected {
                        found: c,
                        offset: self.at,
                        expected: "an upper-case property identifier",
                    });
                }
                break;
            }
            let start = self.at;
            while self.text[self.at..].starts_with(|c: char| c.is_ascii_uppercase()) {
                self.at += 1;
            }
            let ident = self.text[start..self.at].to_string();
            let mut values = Vec::new();
            while self.peek() == Some('[') {
                self.at += 1;
                values.push(self.value()?);
            }
            if values.is_empty() {
                return match self.peek() {
                    Some(found) => Err(SgfError::Unexpected {
                        found,
                        offset: self.at,
                        expected: "'[' after a property identifier",
                    }),
                    None => Err(SgfError::UnexpectedEnd { expected: "'[' after a property identifier" }),
                };
            }
            properties.push((ident, values));
        }
        Ok(properties)
    }

    /// A value up to the closing `]`, with escapes resolved and escaped line breaks removed.
    fn value(&mut self) -> Result<String, SgfError> {
        let mut out = String::new();
        let mut chars = self.text[self.at..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                ']' => {
                    self.at += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, '\n')) => {}
                    Some((_, '\r')) => {}
                    Some((_, escaped)) => out.push(escaped),
                    None => break,
                },
                c => out.push(c),
            }
        }
        Err(SgfError::UnexpectedEnd { expected: "']' to close a property value" })
    }
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

fn bad(property: &str, value: &str, reason: &'static str) -> SgfError {
    SgfError::BadProperty { property: property.to_string(), value: value.to_string(), reason }
}

fn single<'v>(ident: &str, values: &'v [String]) -> Result<&'v str, SgfError> {
    match values {
        [one] => Ok(one.trim()),
        _ => Err(bad(ident, &values.join("]["), "expected a single value")),
    }
}

impl GameRecord {
    /// Parses the first game of an SGF collection and collects its main line.
    ///
    /// # Errors
    ///
    /// [`SgfError`] for malformed text, a property value that makes no sense (size, komi, handicap,
    /// colour, game type), a point off the board, or setup after the first move. Moves are not checked
    /// against the rules here: [`replay`](GameRecord::replay) does that.
    pub fn parse(text: &str) -> Result<GameRecord, SgfError> {
        let mut parser = Parser { text, at: 0 };
        let mut nodes = Vec::new();
        parser.game_tree(&mut nodes, true)?;
        // Step 1. The size first: every point depends on it.
        let mut size = 19;
        for (ident, values) in nodes.iter().flatten() {
            if ident == "SZ" {
                let v = single(ident, values)?;
                size = match v.parse::<usize>() {
                    Ok(s) if (MIN_SIZE..=MAX_SIZE).contains(&s) => s,
                    _ => return Err(bad(ident, v, "expected a square board side from 2 to 25")),
                };
            }
        }
        let mut record = GameRecord {
            size,
            komi: 0.0,
            handicap: 0,
            setup: Vec::new(),
            to_play: None,
            result: None,
            comment: None,
            info: Vec::new(),
            moves: Vec::new(),
        };
        let mut stones: Vec<Option<Color>> = vec![None; crate::coords::MAX_POINTS];
        // Step 2. Node by node along the main line.
        for (index, node) in nodes.iter().enumerate() {
            let mut comment = None;
            let moves_before = record.moves.len();
            for (ident, values) in node {
                let point = |v: &str| {
                    Point::from_sgf(v, size).map_err(|source| SgfError::BadPoint { property: ident.clone(), source })
                };
                match ident.as_str() {
                    "GM" if single(ident, values)? != "1" => return Err(bad(ident, &values[0], "expected 1 (Go)")),
                    "KM" => {
                        let v = single(ident, values)?;
                        record.komi = v
                            .parse()
                            .ok()
                            .filter(|k: &f64| k.is_finite())
                            .ok_or_else(|| bad(ident, v, "expected a number"))?;
                    }
                    "HA" => {
                        let v = single(ident, values)?;
                        record.handicap = v.parse().map_err(|_| bad(ident, v, "expected a whole number"))?;
                    }
                    "PL" => {
                        let v = single(ident, values)?;
                        record.to_play = Some(match v {
                            "B" | "b" => Color::Black,
                            "W" | "w" => Color::White,
                            _ => return Err(bad(ident, v, "expected B or W")),
                        });
                    }
                    "RE" => record.result = Some(single(ident, values)?.to_string()),
                    _ if index == 0 && GAME_INFO.contains(&ident.as_str()) => {
                        record.info.push((ident.clone(), single(ident, values)?.to_string()));
                    }
                    "C" => comment = Some(values.join("")),
                    "B" | "W" => {
                        let color = if ident == "B" { Color::Black } else { Color::White };
                        let v = single(ident, values)?;
                        let mv = Move::from_sgf(v, size)
                            .map_err(|source| SgfError::BadPoint { property: ident.clone(), source })?;
                        record.moves.push(RecordMove { color, mv, comment: None });
                    }
                    "AB" | "AW" | "AE" => {
                        if moves_before > 0 || record.moves.len() > moves_before {
                            return Err(SgfError::Setup(SetupError::MovesPlayed));
                        }
                        let stone = match ident.as_str() {
                            "AB" => Some(Color::Black),
                            "AW" => Some(Color::White),
                            _ => None,
                        };
                        for v in values {
                            for p in expand(v, &point)? {
                                stones[p.index()] = stone;
                            }
                        }
                    }
                    _ => {}
                }
            }
            if let Some(text) = comment {
                // A comment belongs to the node's move, or to the last move before it; the root keeps its own.
                match record.moves.last_mut() {
                    Some(last) if index > 0 => last.comment = Some(text),
                    _ => record.comment = Some(text),
                }
            }
            if record.moves.len() > moves_before + 1 {
                return Err(bad("B", "", "expected at most one move per node"));
            }
        }
        record.info.sort_by_key(|(ident, _)| GAME_INFO.iter().position(|i| i == ident));
        for color in Color::ALL {
            for (i, s) in stones.iter().enumerate() {
                if *s == Some(color) {
                    record.setup.push((Point::from_index(i), color));
                }
            }
        }
        Ok(record)
    }

    /// The position after the setup and the first `moves` moves (all of them if `None`), every move
    /// checked against `rules`.
    ///
    /// # Errors
    ///
    /// [`SgfError::Setup`] if the setup leaves a chain without liberties, [`SgfError::IllegalMove`] for the
    /// first illegal move.
    pub fn replay(&self, rules: Rules, moves: Option<usize>) -> Result<Position, SgfError> {
        let mut game = Position::new(self.size, rules).expect("size checked when parsed");
        game.set_komi(self.komi);
        for &(p, c) in &self.setup {
            game.set_stone(p, Some(c)).map_err(SgfError::Setup)?;
        }
        let first = self.to_play.or(self.moves.first().map(|m| m.color));
        let first = first.unwrap_or(if self.setup.is_empty() { Color::Black } else { Color::White });
        game.set_to_move(first);
        for (i, m) in self.moves.iter().take(moves.unwrap_or(usize::MAX)).enumerate() {
            game.play(m.mv, m.color).map_err(|reason| SgfError::IllegalMove {
                number: i + 1,
                color: m.color,
                mv: m.mv,
                reason,
            })?;
        }
        Ok(game)
    }

    /// The record of a game: its size, komi, setup and moves (no comments or result).
    pub fn from_position(game: &Position) -> GameRecord {
        let setup = game.setup_stones();
        let moves: Vec<RecordMove> = game.moves().map(|(color, mv)| RecordMove { color, mv, comment: None }).collect();
        let to_play = match moves.first() {
            Some(m) => (m.color != Color::Black || !setup.is_empty()).then_some(m.color),
            None => (!setup.is_empty()).then_some(game.to_move()),
        };
        GameRecord {
            size: game.size(),
            komi: game.komi(),
            handicap: 0,
            setup,
            to_play,
            result: None,
            comment: None,
            info: Vec::new(),
            moves,
        }
    }

    /// Sets the game-information property `ident` (one of [`GAME_INFO`]) to `value`, in its place.
    ///
    /// # Panics
    ///
    /// If `ident` is not in [`GAME_INFO`].
    pub fn set_info(&mut self, ident: &str, value: impl Into<String>) {
        let rank = |i: &str| GAME_INFO.iter().position(|&g| g == i);
        let at = rank(ident).unwrap_or_else(|| panic!("{ident} is not a game-information property"));
        self.info.retain(|(i, _)| i != ident);
        let place = self.info.iter().position(|(i, _)| rank(i) > Some(at)).unwrap_or(self.info.len());
        self.info.insert(place, (ident.to_string(), value.into()));
    }

    /// The record as an SGF FF\[4\] text: one game tree, one node per move, passes as `[]`. The one SGF
    /// writer of the workspace (match records included).
    pub fn to_sgf(&self) -> String {
        let mut out = format!("(;FF[4]GM[1]SZ[{}]KM[{}]", self.size, self.komi);
        for (ident, value) in &self.info {
            let _ = write!(out, "{ident}[{}]", escape(value));
        }
        if self.handicap > 0 {
            let _ = write!(out, "HA[{}]", self.handicap);
        }
        if let Some(c) = self.to_play {
            let _ = write!(out, "PL[{}]", c.to_sgf());
        }
        if let Some(r) = &self.result {
            let _ = write!(out, "RE[{}]", escape(r));
        }
        for color in Color::ALL {
            let points: Vec<String> =
                self.setup.iter().filter(|s| s.1 == color).map(|s| format!("[{}]", s.0.to_sgf(self.size))).collect();
            if !points.is_empty() {
                let _ = write!(out, "A{}{}", color.to_sgf(), points.concat());
            }
        }
        if let Some(c) = &self.comment {
            let _ = write!(out, "C[{}]", escape(c));
        }
        for m in &self.moves {
            let _ = write!(out, "\n;{}[{}]", m.color.to_sgf(), m.mv.to_sgf(self.size));
            if let Some(c) = &m.comment {
                let _ = write!(out, "C[{}]", escape(c));
            }
        }
        out.push_str(")\n");
        out
    }
}

/// The points of a point value or an FF\[4\] compressed rectangle `aa:cc`.
fn expand(value: &str, point: &dyn Fn(&str) -> Result<Point, SgfError>) -> Result<Vec<Point>, SgfError> {
    match value.split_once(':') {
        None => Ok(vec![point(value)?]),
        Some((a, b)) => {
            let (a, b) = (point(a)?, point(b)?);
            let (c0, c1) = (a.column().min(b.column()), a.column().max(b.column()));
            let (r0, r1) = (a.row().min(b.row()), a.row().max(b.row()));
            Ok((r0..=r1).flat_map(|r| (c0..=c1).map(move |c| Point::new(c, r))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use tabula::rng::Rng;

    #[test]
    fn malformed_files_give_typed_errors() {
        type Check = fn(&SgfError) -> bool;
        let cases: &[(&str, Check)] = &[
            ("", |e| matches!(e, SgfError::UnexpectedEnd { .. })),
            ("(;SZ[9]", |e| matches!(e, SgfError::UnexpectedEnd { .. })),
            ("(;C[unterminated", |e| matches!(e, SgfError::UnexpectedEnd { .. })),
            ("(;SZ[9];B[dd]x)", |e| matches!(e, SgfError::Unexpected { found: 'x', .. })),
            ("(;SZ[9];b[dd])", |e| matches!(e, SgfError::Unexpected { found: 'b', .. })),
            ("(;SZ[9];B)", |e| matches!(e, SgfError::Unexpected { .. })),
            ("()", |e| matches!(e, SgfError::Unexpected { .. })),
            ("(;SZ[30])", |e| matches!(e, SgfError::BadProperty { .. })),
            ("(;SZ[9:11])", |e| matches!(e, SgfError::BadProperty { .. })),
            ("(;GM[2])", |e| matches!(e, SgfError::BadProperty { .. })),
            ("(;KM[six])", |e| matches!(e, SgfError::BadProperty { .. })),
            ("(;SZ[9];B[zz])", |e| matches!(e, SgfError::BadPoint { .. })),
            ("(;SZ[9];B[jj])", |e| matches!(e, SgfError::BadPoint { .. })),
            ("(;SZ[9];B[aa];AB[bb])", |e| matches!(e, SgfError::Setup(_))),
        ];
        for (text, check) in cases {
            let err = GameRecord::parse(text).unwrap_err();
            assert!(check(&err), "{text}: {err}");
        }
        let record = GameRecord::parse("(;SZ[9];B[aa];W[aa])").unwrap();
        let err = record.replay(Rules::default(), None).unwrap_err();
        assert!(matches!(err, SgfError::IllegalMove { number: 2, .. }), "{err}");
        assert!(err.to_string().contains("occupied"));
        let record = GameRecord::parse("(;SZ[2]AB[aa]AW[ab][ba])").unwrap();
        assert!(matches!(record.replay(Rules::default(), None), Err(SgfError::Setup(_))));
    }

    #[test]
    fn setup_compressed_points_and_ae() {
        let r = GameRecord::parse("(;SZ[5]AB[aa:bb]AE[ab]AW[ee]PL[W]HA[3])").unwrap();
        assert_eq!(r.setup.len(), 4);
        assert_eq!(r.to_play, Some(Color::White));
        assert_eq!(r.handicap, 3);
        let g = r.replay(Rules::default(), None).unwrap();
        assert_eq!(g.to_move(), Color::White);
    }

    #[test]
    fn escapes_round_trip() {
        let mut r = GameRecord::parse("(;SZ[3];B[aa]C[x\\\\y\\]z])").unwrap();
        assert_eq!(r.moves[0].comment.as_deref(), Some("x\\y]z"));
        r.result = Some("B+R".into());
        r.set_info("PW", "W]hite");
        r.set_info("PB", "Black");
        r.set_info("DT", "2026-01-02");
        assert_eq!(r.info.iter().map(|i| i.0.as_str()).collect::<Vec<_>>(), ["DT", "PB", "PW"]);
        let text = r.to_sgf();
        assert!(text.contains("DT[2026-01-02]PB[Black]PW[W\\]hite]"), "{text}");
        assert_eq!(GameRecord::parse(&text).unwrap(), r);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_legal_games_round_trip(size in 2usize..=19, seed: u64, plies in 0usize..120, setup in 0usize..4) {
            let mut game = Position::new(size, Rules::default()).unwrap();
            game.set_komi((seed % 17) as f64 / 2.0);
            let mut rng = Rng::new(seed);
            for _ in 0..setup {
                let p = Point::new(rng.below(size), rng.below(size));
                let c = Color::ALL[rng.below(2)];
                let _ = game.set_stone(p, Some(c));
            }
            for _ in 0..plies {
                let color = game.to_move();
                let legal: Vec<Point> = game.board().points().filter(|&p| game.is_legal(Move::Play(p), color)).collect();
                let mv = if legal.is_empty() || rng.below(10) == 0 { Move::Pass } else { Move::Play(legal[rng.below(legal.len())]) };
                game.play(mv, color).unwrap();
            }
            let record = GameRecord::from_position(&game);
            let read = GameRecord::parse(&record.to_sgf()).unwrap();
            prop_assert_eq!(&read, &record);
            let replayed = read.replay(Rules::default(), None).unwrap();
            prop_assert_eq!(replayed.key(), game.key());
            prop_assert_eq!(replayed.moves().collect::<Vec<_>>(), game.moves().collect::<Vec<_>>());
            prop_assert_eq!(replayed.setup_stones(), game.setup_stones());
        }
    }
}
