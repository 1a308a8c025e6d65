//! A game's front: what people see of a game and how they speak to it, in one trait each game implements.
//!
//! [`Front`] says a game's name; how its positions and moves are written (cells, columns, move lists, FEN,
//! SGF) and read back with a clear error; how its scores
//! read; how its board is drawn as text; and which engine thinks for it ([`Think`]). [`Solve`] adds the exact solver of games small enough.
//! Every command of the terminal ([`terminal`](crate::terminal): play, analyze, solve, perft, hash) is written
//! once over these traits, so a game gets every verb that makes sense for it by implementing them.
//!
//! A game played by the core's alpha-beta [`Searcher`] needs no engine of its own: `Searcher<G, E>` thinks for
//! any `G: Front`. Games with their own engine (Gomoku's threat search, Go's Monte Carlo tree search) implement
//! [`Think`] for it and report in the same [`Report`].
//!
//! # Examples
//!
//! The default [`Front::parse_move`] finds the legal move written as [`Front::move_text`] writes it:
//!
//! ```
//! use tabula::search::Searcher;
//! use tabula::{Evaluator, Game, Key, Outcome, Score};
//! use tabula::quality::QualityReport;
//! use tabula_protocol::front::{EngineConfig, Front, FrontError, Setup};
//!
//! /// Nim: take 1 to 3 stones; who takes the last one wins.
//! #[derive(Clone)]
//! struct Nim(u32);
//! # impl Game for Nim {
//! #     type Move = u32;
//! #     fn legal_moves(&self, moves: &mut Vec<u32>) { moves.extend(1..=self.0.min(3)) }
//! #     fn play(&mut self, take: u32) { self.0 -= take }
//! #     fn undo(&mut self, take: u32) { self.0 += take }
//! #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
//! #     fn key(&self) -> Key { Key((self.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) }
//! #     fn move_code(take: u32) -> u16 { take as u16 }
//! # }
//! # #[derive(Clone, Default)]
//! # struct Zero;
//! # impl Evaluator<Nim> for Zero { fn evaluate(&self, _: &Nim) -> Score { 0 } }
//! impl Front for Nim {
//!     const NAME: &'static str = "nim";
//!     const POSITION_HELP: &'static str = "the number of stones";
//!     const MOVE_HELP: &'static str = "how many stones to take, 1 to 3";
//!     type Engine = Searcher<Nim, Zero>;
//!
//!     fn start(setup: &Setup) -> Result<Nim, FrontError> {
//!         setup.allow(Self::NAME, &[])?;
//!         Ok(Nim(21))
//!     }
//!     fn parse_position(text: &str, setup: &Setup) -> Result<Nim, FrontError> {
//!         setup.allow(Self::NAME, &[])?;
//!         text.trim().parse().map(Nim).map_err(|e| FrontError::position(text, e))
//!     }
//!     fn board_text(&self) -> String {
//!         "|".repeat(self.0 as usize)
//!     }
//!     fn position_text(&self) -> String {
//!         self.0.to_string()
//!     }
//!     fn move_text(&self, take: u32) -> String {
//!         take.to_string()
//!     }
//!     fn side_name(&self) -> String {
//!         "the player to move".into()
//!     }
//!     fn engine(config: &EngineConfig) -> Self::Engine {
//!         config.searcher(Zero)
//!     }
//!     fn key_quality() -> QualityReport {
//!         tabula::quality::check(&[Key(1), Key(2)])
//!     }
//! }
//!
//! let nim = Nim::parse_position("5", &Setup::default()).unwrap();
//! assert_eq!(nim.parse_move("2").unwrap(), 2);
//! assert_eq!(nim.parse_move("4").unwrap_err().to_string(), "`4` is not a legal move here (how many stones to take, 1 to 3)");
//! ```

use std::fmt;
use std::time::Duration;
use tabula::game::{Evaluator, Game, Outcome};
use tabula::perft::PerftTable;
use tabula::quality::QualityReport;
use tabula::score::{describe, Wording};
use tabula::search::{Iteration, Limits, SearchOptions, SearchResult, Searcher, TableUse};
use tabula::Key;

/// Why a position, a move or a setting was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrontError {
    /// A position that cannot be read.
    #[error("bad position `{text}`: {reason}")]
    Position {
        /// The text given.
        text: String,
        /// Why it was refused.
        reason: String,
    },
    /// A move that cannot be read or is not legal here.
    #[error("`{text}` is not a legal move here ({reason})")]
    Move {
        /// The text given.
        text: String,
        /// Why it was refused, or how moves are written.
        reason: String,
    },
    /// A setting the game does not have or a value it does not accept.
    #[error("{0}")]
    Setup(String),
}

impl FrontError {
    /// A position refused for `reason`.
    pub fn position(text: &str, reason: impl fmt::Display) -> FrontError {
        FrontError::Position { text: text.trim().to_string(), reason: reason.to_string() }
    }

    /// A move refused for `reason`.
    pub fn bad_move(text: &str, reason: impl fmt::Display) -> FrontError {
        FrontError::Move { text: text.trim().to_string(), reason: reason.to_string() }
    }
}

/// The variant a game is played in, as the command line gives it: settings a game does not have are refused
/// (see [`Setup::allow`]), so `--komi` for chess is an error, not a silent no-op.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    /// Board size (Gomoku, Go).
    pub size: Option<usize>,
    /// Rule set (Gomoku: freestyle, standard, renju).
    pub rule: Option<String>,
    /// Komi (Go).
    pub komi: Option<f64>,
}

impl Setup {
    /// Refuses every setting given that is not in `allowed` (`"size"`, `"rule"`, `"komi"`).
    pub fn allow(&self, game: &str, allowed: &[&str]) -> Result<(), FrontError> {
        let given = [("size", self.size.is_some()), ("rule", self.rule.is_some()), ("komi", self.komi.is_some())];
        match given.iter().find(|(name, set)| *set && !allowed.contains(name)) {
            Some((name, _)) => Err(FrontError::Setup(format!("{game} has no {name} setting"))),
            None => Ok(()),
        }
    }
}

/// How an engine is built: table size, threads, and whether it uses its table at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Whether the table is used (off to see what it saves).
    pub table: bool,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig { hash_mib: 64, threads: 1, table: true }
    }
}

impl EngineConfig {
    /// The core searcher with `evaluator`, these settings and the default options.
    pub fn searcher<G: Game, E: Evaluator<G>>(&self, evaluator: E) -> Searcher<G, E> {
        self.searcher_with(evaluator, SearchOptions::default())
    }

    /// The core searcher with `evaluator`, `options`, and this configuration's threads, table and size.
    pub fn searcher_with<G: Game, E: Evaluator<G>>(&self, evaluator: E, options: SearchOptions) -> Searcher<G, E> {
        let options = options.with_threads(self.threads.max(1)).with_table(self.table);
        Searcher::with_table_size(evaluator, self.hash_mib.max(1)).with_options(options)
    }
}

/// What an engine says about a position, during the search (one report per iteration) and at its end.
#[derive(Clone, Debug, PartialEq)]
pub struct Report<M> {
    /// The move to play; `None` only if the game is over.
    pub best: Option<M>,
    /// The score in the game's words ("mate in 3", "+35 cp", "draw", "win rate 54.1%").
    pub score: String,
    /// Depth of the last completed iteration (`None` for searches without depths, like Monte Carlo).
    pub depth: Option<u32>,
    /// Deepest ply reached.
    pub seldepth: Option<u32>,
    /// Work done: nodes for alpha-beta, playouts for Monte Carlo.
    pub nodes: u64,
    /// What [`nodes`](Report::nodes) counts ("nodes", "playouts").
    pub unit: &'static str,
    /// The principal variation, from the position searched.
    pub pv: Vec<M>,
    /// Transposition table use, for searches with a table.
    pub table: Option<TableUse>,
    /// How full the table is, in permille, when the engine says.
    pub hashfull: Option<u32>,
    /// Time spent.
    pub elapsed: Duration,
    /// Anything else worth saying, one line each (a forced win found by threat search, candidate moves).
    pub notes: Vec<String>,
}

impl<M> Report<M> {
    /// A report of nothing: no move, no work.
    pub fn empty() -> Report<M> {
        Report {
            best: None,
            score: String::new(),
            depth: None,
            seldepth: None,
            nodes: 0,
            unit: "nodes",
            pv: Vec::new(),
            table: None,
            hashfull: None,
            elapsed: Duration::ZERO,
            notes: Vec::new(),
        }
    }

    /// Work per second.
    pub fn speed(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The core searcher's iteration in `wording`.
    pub fn from_iteration(it: &Iteration<M>, wording: &Wording) -> Report<M>
    where
        M: Copy,
    {
        Report {
            best: it.pv.first().copied(),
            score: describe(it.score, it.exact, wording),
            depth: Some(it.depth),
            seldepth: Some(it.seldepth),
            nodes: it.nodes,
            pv: it.pv.clone(),
            table: Some(it.table),
            hashfull: Some(it.hashfull),
            elapsed: it.elapsed,
            ..Report::empty()
        }
    }

    /// The core searcher's result in `wording`.
    pub fn from_result(result: SearchResult<M>, wording: &Wording) -> Report<M> {
        Report {
            best: result.best_move,
            score: describe(result.score, result.exact, wording),
            depth: Some(result.depth),
            seldepth: Some(result.seldepth),
            nodes: result.nodes,
            pv: result.pv,
            table: Some(result.table),
            elapsed: result.elapsed,
            ..Report::empty()
        }
    }
}

/// The characters a board is drawn with in the terminal ([`Front::board_text_in`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// ASCII only: letters and signs, safe in any terminal, file or pipe.
    #[default]
    Ascii,
    /// Any Unicode character (xiangqi's pieces as Chinese characters), for a terminal that shows UTF-8.
    Unicode,
}

impl Charset {
    /// The choice terminal programs make: Unicode when the output is a terminal and the locale's character
    /// type is UTF-8, ASCII otherwise (a pipe, a file, the `C` locale). The locale is the first of `LC_ALL`,
    /// `LC_CTYPE` and `LANG` that is set and not empty, as POSIX orders them; `var` reads a variable.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_protocol::front::Charset;
    ///
    /// let env = |vars: &'static [(&'static str, &'static str)]| {
    ///     move |name: &str| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
    /// };
    /// assert_eq!(Charset::detect(true, env(&[("LANG", "zh_CN.UTF-8")])), Charset::Unicode);
    /// assert_eq!(Charset::detect(false, env(&[("LANG", "zh_CN.UTF-8")])), Charset::Ascii);
    /// assert_eq!(Charset::detect(true, env(&[("LC_ALL", "C"), ("LANG", "en_US.utf8")])), Charset::Ascii);
    /// ```
    pub fn detect(is_terminal: bool, var: impl Fn(&str) -> Option<String>) -> Charset {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].into_iter().filter_map(&var).find(|value| !value.is_empty());
        // The codeset follows the dot (`zh_CN.UTF-8@modifier`); glibc also writes it `utf8`.
        let utf8 = locale.is_some_and(|locale| {
            let codeset = locale.split_once('.').map_or("", |(_, rest)| rest);
            let codeset = codeset.split('@').next().unwrap_or("").to_ascii_lowercase();
            codeset == "utf-8" || codeset == "utf8"
        });
        if is_terminal && utf8 {
            Charset::Unicode
        } else {
            Charset::Ascii
        }
    }
}

/// How a board's cells are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellStyle {
    /// A checkered board with pieces in the squares (chess).
    Checkered,
    /// Boxes holding marks or discs (tic-tac-toe, Connect Four).
    Boxes,
    /// Stones on the points where lines cross (Go, Gomoku).
    Points,
}

/// The board as cells, for a page that draws it and takes clicks on it ([`Front::cells`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cells {
    /// Cells in a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Each cell's content, row by row from the top left as the board is usually drawn: empty, or a short mark
    /// (a FEN piece letter for chess; the piece's character for xiangqi; `x` / `o` for tic-tac-toe and Connect
    /// Four; `b` / `w` for stones).
    pub marks: Vec<String>,
    /// How the cells are drawn.
    pub style: CellStyle,
    /// Whether a stone falls to the lowest free cell of the column clicked (Connect Four).
    pub drop: bool,
    /// Cells the rules single out now, each with why (Go: the point a ko or superko forbids).
    pub notes: Vec<(usize, String)>,
}

/// Where a move is drawn, as indices into [`Cells::marks`]: the cell it leaves (pieces that move) and the cell
/// it reaches or fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveCells {
    /// The cell a moving piece leaves; `None` for a stone or a mark put down.
    pub from: Option<usize>,
    /// The cell the move reaches or fills.
    pub to: usize,
}

/// One Zobrist feature of a position ([`Front::key_features`]): what it is, and the key XORed in for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Feature {
    /// The feature in words (`white knight on g1`, `X on 5`, `White to move`).
    pub name: String,
    /// Its key.
    pub key: Key,
}

impl Feature {
    /// The feature `name` with key `key`.
    pub fn new(name: impl Into<String>, key: Key) -> Feature {
        Feature { name: name.into(), key }
    }
}

/// An engine that thinks about positions of `G`.
pub trait Think<G: Front> {
    /// Thinks about `game` within `limits`, calling `progress` with each intermediate report (an iteration).
    fn think(&mut self, game: &G, limits: &Limits, progress: &mut dyn FnMut(&Report<G::Move>)) -> Report<G::Move>;
}

impl<G: Front + Sync, E: Evaluator<G>> Think<G> for Searcher<G, E> {
    fn think(&mut self, game: &G, limits: &Limits, progress: &mut dyn FnMut(&Report<G::Move>)) -> Report<G::Move> {
        let result = self.search(game, limits, |it| progress(&Report::from_iteration(it, &G::WORDING)));
        Report::from_result(result, &G::WORDING)
    }
}

impl<G: Front + tabula::search::Playable + Sync> Think<G> for tabula::search::Engine<G> {
    /// The game's engine, counting repetitions of the game's own history.
    fn think(&mut self, game: &G, limits: &Limits, progress: &mut dyn FnMut(&Report<G::Move>)) -> Report<G::Move> {
        let result = self.search(game, limits, |it| progress(&Report::from_iteration(it, &G::WORDING)));
        Report::from_result(result, &G::WORDING)
    }
}

/// A game as people see it and speak to it. See the [module documentation](self).
pub trait Front: Game {
    /// The name commands take (`"connect4"`).
    const NAME: &'static str;
    /// How a position is written, for help and errors.
    const POSITION_HELP: &'static str;
    /// How a move is written, for prompts and errors.
    const MOVE_HELP: &'static str;
    /// How scores read.
    const WORDING: Wording = Wording::MOVES;

    /// The engine that thinks for this game.
    type Engine: Think<Self>;

    /// The starting position of the variant `setup` chooses.
    fn start(setup: &Setup) -> Result<Self, FrontError>;

    /// Reads a position in the game's usual notation.
    fn parse_position(text: &str, setup: &Setup) -> Result<Self, FrontError>;

    /// The board drawn as text in ASCII, for any terminal, file or page.
    fn board_text(&self) -> String;

    /// The board drawn as text with `charset`; by default [`board_text`](Front::board_text) whatever the
    /// charset, for games whose board needs nothing beyond ASCII.
    fn board_text_in(&self, charset: Charset) -> String {
        let _ = charset;
        self.board_text()
    }

    /// Writes the position so that [`parse_position`](Front::parse_position) reads it back.
    fn position_text(&self) -> String;

    /// Writes a move legal in this position.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Reads a move legal in this position. By default: the legal move [`move_text`](Front::move_text) writes
    /// as `text`, ignoring case and surrounding space.
    fn parse_move(&self, text: &str) -> Result<Self::Move, FrontError> {
        let wanted = text.trim();
        let mut moves = Vec::new();
        if self.outcome().is_none() {
            self.legal_moves(&mut moves);
        }
        moves
            .into_iter()
            .find(|&mv| self.move_text(mv).eq_ignore_ascii_case(wanted))
            .ok_or_else(|| FrontError::bad_move(text, Self::MOVE_HELP))
    }

    /// Writes a move in the coordinates engines and perft tools print (UCI's for chess); by default as
    /// [`move_text`](Front::move_text) does.
    fn coordinate_text(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    /// Writes a line of moves played one after the other from this position.
    fn line_text(&self, moves: &[Self::Move]) -> String {
        let mut game = self.clone();
        let mut words = Vec::with_capacity(moves.len());
        for &mv in moves {
            words.push(game.move_text(mv));
            game.play(mv);
        }
        words.join(" ")
    }

    /// Who is to move, in the game's words ("White", "X").
    fn side_name(&self) -> String;

    /// How the game ended, in words, or `None` while it goes on.
    fn result_text(&self) -> Option<String> {
        let side = self.side_name();
        self.outcome().map(|outcome| match outcome {
            Outcome::Draw => "Draw.".to_string(),
            Outcome::Loss => format!("{side} to move has lost."),
            Outcome::Win => format!("{side} to move has won."),
            Outcome::Margin(m) if m > 0 => format!("{side} to move has won by {m}."),
            Outcome::Margin(m) if m < 0 => format!("{side} to move has lost by {}.", -m),
            Outcome::Margin(_) => "Draw.".to_string(),
        })
    }

    /// The engine, configured.
    fn engine(config: &EngineConfig) -> Self::Engine;

    /// How long the engine thinks when the user gives no limit: one second.
    fn default_limits() -> Limits {
        Limits::time(Duration::from_secs(1))
    }

    /// Leaves of the move tree `depth` plies below, through `table` if given: the core's counters, which reach
    /// the game's own generator through its [`Game`] implementation.
    fn perft(&mut self, depth: u32, table: Option<&mut PerftTable>) -> u64 {
        match table {
            Some(table) => tabula::perft::perft_hashed(self, depth, table),
            None => tabula::perft::perft(self, depth),
        }
    }

    /// The quality report of the game's Zobrist keys ([`check`](tabula::quality::check) of its key set).
    fn key_quality() -> QualityReport;

    /// The position's key as `tabula hash` prints it.
    fn key_text(&self) -> String {
        format!("{:016x}", self.key())
    }

    /// The board as cells, for a page that draws it; `None` (the default) if the game does not say.
    fn cells(&self) -> Option<Cells> {
        None
    }

    /// Where `mv`, legal here, is drawn on [`cells`](Front::cells); `None` (the default) for moves that are not
    /// drawn on the board (a pass) and games without cells.
    fn move_cells(&self, mv: Self::Move) -> Option<MoveCells> {
        let _ = mv;
        None
    }

    /// The Zobrist features present in the position, whose keys XOR to [`key`](Game::key): a move XORs out the
    /// features it removes and XORs in those it adds, so the keys a move changes are the symmetric difference of
    /// the features before and after it. Empty (the default) if the game does not list them.
    fn key_features(&self) -> Vec<Feature> {
        Vec::new()
    }
}

/// An exact value found by a [`Solve`]r.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// The figure solve files print: the game's own convention (Pons's for Connect Four), or 1 / 0 / -1 for a
    /// win / draw / loss of the side to move.
    pub value: i32,
    /// The value in words ("win in 3 moves").
    pub words: String,
    /// A move reaching the value, if the game is not over.
    pub best: Option<M>,
    /// Nodes searched.
    pub nodes: u64,
}

/// A game small enough to solve: its exact solver, for `tabula solve` and `tabula analyze --solve`.
pub trait Solve: Front {
    /// The solver, kept across positions (its table helps the next ones).
    type Solver;

    /// A solver with this configuration.
    fn solver(config: &EngineConfig) -> Self::Solver;

    /// The exact value of `game` (`weak`: only whether it is a win, a draw or a loss).
    fn solve(solver: &mut Self::Solver, game: &Self, weak: bool) -> Solved<Self::Move>;

    /// The exact value of every legal move, from the mover's side.
    fn solve_moves(solver: &mut Self::Solver, game: &Self) -> Vec<(Self::Move, Solved<Self::Move>)>;
}

/// [`Solved`] from the core solver's [`Solution`](tabula::search::Solution): value 1 / 0 / -1.
pub fn solved_by_core<M>(solution: tabula::search::Solution<M>, wording: &Wording) -> Solved<M> {
    Solved {
        value: solution.score.signum(),
        words: describe(solution.score, true, wording),
        best: solution.best_move,
        nodes: solution.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_charset_follows_the_locale_posix_chooses_and_the_terminal() {
        let detect = |is_terminal: bool, vars: &[(&str, &str)]| {
            Charset::detect(is_terminal, |name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string()))
        };
        for utf8 in ["C.UTF-8", "en_US.utf8", "zh_TW.UTF-8@radical"] {
            assert_eq!(detect(true, &[("LANG", utf8)]), Charset::Unicode, "{utf8}");
        }
        for other in ["C", "POSIX", "zh_CN.GB18030", "en_US", "utf8"] {
            assert_eq!(detect(true, &[("LANG", other)]), Charset::Ascii, "{other}");
        }
        // LC_ALL overrides LC_CTYPE, which overrides LANG; a variable set empty counts as unset.
        assert_eq!(detect(true, &[("LC_CTYPE", "C"), ("LANG", "C.UTF-8")]), Charset::Ascii);
        assert_eq!(detect(true, &[("LC_ALL", "C.UTF-8"), ("LC_CTYPE", "C")]), Charset::Unicode);
        assert_eq!(detect(true, &[("LC_ALL", ""), ("LANG", "C.UTF-8")]), Charset::Unicode);
        assert_eq!(detect(true, &[]), Charset::Ascii);
        // Not a terminal: ASCII, whatever the locale.
        assert_eq!(detect(false, &[("LC_ALL", "C.UTF-8")]), Charset::Ascii);
    }

    #[test]
    fn settings_a_game_does_not_have_are_refused() {
        let setup = Setup { komi: Some(6.5), ..Setup::default() };
        assert_eq!(setup.allow("go", &["size", "komi"]), Ok(()));
        assert_eq!(setup.allow("chess", &[]).unwrap_err().to_string(), "chess has no komi setting");
        assert_eq!(Setup::default().allow("chess", &[]), Ok(()));
    }
}
