//! The Universal Chess Interface: [`UciSession`], the protocol's logic (a line in, the lines to answer out),
//! served by the shared harness ([`run_stdio`]), which runs searches on a thread so that `stop`, `ponderhit` and
//! `isready` are served while the engine thinks.
//!
//! Commands: `uci`, `isready`, `setoption name <id> [value <x>]` (options `Hash`, `Threads`, `Clear Hash`,
//! `Move Overhead`, `OwnBook`, `BookFile`, `Ponder`, `UCI_Chess960`, `MultiPV`, `UCI_ShowWDL`,
//! `UCI_AnalyseMode`, `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`, `Evaluation`, `EvalFile`), `ucinewgame`,
//! `position startpos|fen <fen> [moves ...]`, `go` with `wtime btime winc binc movestogo depth nodes movetime
//! mate infinite ponder searchmoves`, `stop`, `ponderhit`, `quit`, and the extras `go perft <depth>`, `d` (show
//! the position) and `bench [depth]`. An unknown or malformed command is answered with `info string ...` and
//! otherwise ignored; a `go` always ends with a `bestmove`, with `ponder <move>` when the engine expects a
//! reply.
//!
//! Pondering: the GUI plays the expected reply itself (`position ... moves <best> <reply>`) and sends
//! `go ponder` with the clocks; the engine searches that position without a time limit and does not answer.
//! `ponderhit` (the opponent played the reply) makes it a normal search whose time counts from `go ponder`,
//! so that a search already past its share answers at once; `stop` (another move) makes it answer, and the
//! GUI ignores that answer. `MultiPV` N reports the N best moves at each depth, one `info ... multipv K`
//! line each. `UCI_ShowWDL` adds `wdl W D L` to each score: the chances of a win, a draw and a loss in per
//! mille by the model of [`wdl`](crate::engine::wdl). `UCI_AnalyseMode` says the GUI analyses: the book does not
//! answer then.
//!
//! `Evaluation` chooses the evaluation, `nnue` (the network, the default) or `tapered` (the hand-written one);
//! `EvalFile` loads another network's weights file (see [`nnue`](crate::engine::eval::nnue) for the format; the value
//! `<embedded>` goes back to the network built in). A file that cannot be used is reported and changes
//! nothing.
//!
//! Chess960: positions with X-FEN or Shredder-FEN castling rights are accepted whatever the options say, and
//! castling is read in either notation; with `UCI_Chess960` on, the engine writes castling as the king taking
//! its rook (`e1h1`), as the protocol asks, and otherwise as the king's move (`e1g1`).
//!
//! # Examples
//!
//! ```
//! use tabula_chess::engine::uci::UciSession;
//!
//! let mut session = UciSession::new();
//! assert_eq!(session.handle("isready"), ["readyok"]);
//! session.handle("position startpos moves e2e4 e7e5");
//! let reply = session.handle("go depth 3");
//! assert!(reply[0].starts_with("info depth 1 "));
//! assert!(reply.last().unwrap().starts_with("bestmove "));
//! assert!(session.handle("frobnicate")[0].starts_with("info string unknown command"));
//! ```
//!
//! A binary serves the protocol on standard input and output with [`run_stdio`]: the session runs in the
//! shared harness of `tabula_protocol::server`, which searches on an engine thread and keeps reading, so that
//! `isready`, `stop`, `ponderhit` and `quit` are served while the engine thinks; any other command waits for
//! the search to end (an infinite or pondering search is stopped first). A line that is not text (bad
//! UTF-8, a NUL byte, more than 64 KiB) is answered with `info string error: ...` (UCI has no error reply)
//! and the session goes on; the end of input stops a running search, which still answers `bestmove`.
//!
//! ```
//! use tabula_chess::engine::uci::UciSession;
//! use tabula_protocol::server::Connection;
//!
//! let engine = Connection::open(UciSession::new());
//! engine.send(b"uci\n\xff\nisready\ngo infinite\n");
//! let (_, out) = engine.close(); // the end of input stops the search
//! assert!(out.contains("uciok\ninfo string error: line 2 is not valid UTF-8"));
//! assert!(out.contains("readyok") && out.contains("bestmove"));
//! ```

use crate::book::Book;
use crate::engine::strength::{self, ELO_RANGE};
use crate::engine::wdl::MODEL;
use crate::engine::{Engine, EnginePosition};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{File, Rank, Square};
use std::sync::Mutex;
use std::time::Duration;
use tabula::rng::Rng;
use tabula::search::skill::{Skill, MAX_LEVEL};
use tabula::search::{Iteration, Request};
use tabula_nnue::EvalOptions;
use tabula_protocol::server;
pub use tabula_protocol::uci::CommandError;
pub use tabula_protocol::uci::SearchControl;
use tabula_protocol::uci::{self as shared, check_value, number_value, GoLimits, InfoStyle};
use tabula_protocol::uci_session::Dialect;
pub use tabula_protocol::uci_session::UNLIMITED_DEPTH;

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("Tabula ", env!("CARGO_PKG_VERSION"));
/// Depth of the `bench` command without an argument.
pub const BENCH_DEPTH: u32 = 7;
/// The most lines `MultiPV` may ask for (more than any position has moves).
const MAX_MULTI_PV: usize = 256;
/// `UCI_Elo` before it is set: the middle of the range.
const DEFAULT_ELO: u32 = (*ELO_RANGE.start() + *ELO_RANGE.end()) / 2;

/// The state of a UCI conversation: the shared session on chess's [`Chess`] dialect.
pub type UciSession = tabula_protocol::uci_session::UciSession<Chess>;

/// A search for [`run_search`] to run: what `go` asked for, with chess's [`Settings`].
pub type SearchJob = tabula_protocol::uci_session::SearchJob<EnginePosition, Settings>;

/// What a chess search takes along of the session's options.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Whether to write moves in the notation of Chess960 (`UCI_Chess960`).
    pub chess960: bool,
    /// How many best moves to report (`MultiPV`): above one, each iteration's lines are tagged `multipv <k>`.
    pub multi_pv: usize,
    /// Whether `info` lines give the chances of a win, a draw and a loss (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// Play below full strength (`Skill Level`, `UCI_LimitStrength`): a node budget, and a move chosen
    /// among the best with noise.
    pub skill: Option<Skill>,
    /// Random bits for the choice of a limited strength's move.
    pub seed: u64,
}

/// Chess's options beyond the protocol's: the book, Chess960 notation, `MultiPV`, WDL, the strength limiter
/// and the evaluation.
pub struct Chess {
    own_book: bool,
    book_file: String,
    book: Option<Book>,
    chess960: bool,
    multi_pv: usize,
    show_wdl: bool,
    /// `Skill Level`, 0 to 20 (full strength).
    skill_level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (which then overrides `Skill Level`).
    limit_strength: bool,
    elo: u32,
    /// `UCI_AnalyseMode`: the GUI analyses rather than plays, so the book does not answer.
    analyse_mode: bool,
    /// `Evaluation` and `EvalFile`.
    eval: EvalOptions<Position>,
    rng: Rng,
}

impl Default for Chess {
    fn default() -> Chess {
        Chess {
            own_book: false,
            book_file: String::new(),
            book: None,
            chess960: false,
            multi_pv: 1,
            show_wdl: false,
            skill_level: MAX_LEVEL,
            limit_strength: false,
            elo: DEFAULT_ELO,
            analyse_mode: false,
            eval: EvalOptions::default(),
            rng: Rng::from_clock(),
        }
    }
}

fn file_error(e: impl std::error::Error + Send + Sync + 'static) -> CommandError {
    CommandError::File(Box::new(e))
}

impl Chess {
    /// The strength the options ask for: `UCI_Elo` with `UCI_LimitStrength`, else `Skill Level`; `None` at
    /// full strength.
    fn skill(&self) -> Option<Skill> {
        if self.limit_strength {
            strength::skill(strength::level_for_elo(self.elo))
        } else {
            strength::skill(self.skill_level as f64)
        }
    }
}

impl Dialect for Chess {
    type Position = EnginePosition;
    type Extra = Settings;
    const NAME: &'static str = ENGINE_NAME;
    const FAILED_BESTMOVE: &'static str = "bestmove 0000";

    fn options(&self) -> Vec<String> {
        vec![
            "option name OwnBook type check default false".to_owned(),
            "option name BookFile type string default <empty>".to_owned(),
            "option name Ponder type check default false".to_owned(),
            "option name UCI_Chess960 type check default false".to_owned(),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"),
            "option name UCI_ShowWDL type check default false".to_owned(),
            "option name UCI_AnalyseMode type check default false".to_owned(),
            format!("option name Skill Level type spin default {MAX_LEVEL} min 0 max {MAX_LEVEL}"),
            "option name UCI_LimitStrength type check default false".to_owned(),
            format!(
                "option name UCI_Elo type spin default {DEFAULT_ELO} min {} max {}",
                ELO_RANGE.start(),
                ELO_RANGE.end()
            ),
        ]
        .into_iter()
        .chain(EvalOptions::<Position>::uci_options())
        .collect()
    }

    fn set_option(
        &mut self,
        engine: &Mutex<Engine>,
        name: &str,
        value: Option<String>,
    ) -> Result<Option<Vec<String>>, CommandError> {
        let number = |min: u64, max: u64| number_value(name, value.as_deref(), min, max);
        match name.to_ascii_lowercase().as_str() {
            "ownbook" => self.own_book = check_value(name, value.as_deref())?,
            "uci_chess960" => self.chess960 = check_value(name, value.as_deref())?,
            "uci_showwdl" => self.show_wdl = check_value(name, value.as_deref())?,
            "uci_analysemode" => self.analyse_mode = check_value(name, value.as_deref())?,
            "skill level" => self.skill_level = number(0, MAX_LEVEL as u64)? as u32,
            "uci_limitstrength" => self.limit_strength = check_value(name, value.as_deref())?,
            "uci_elo" => self.elo = number(*ELO_RANGE.start() as u64, *ELO_RANGE.end() as u64)? as u32,
            "multipv" => self.multi_pv = number(1, MAX_MULTI_PV as u64)? as usize,
            "bookfile" => {
                let file = value.unwrap_or_default();
                self.book = None;
                self.book_file = file.clone();
                if !file.is_empty() && file != "<empty>" {
                    let book = Book::open(&file).map_err(file_error)?;
                    let entries = book.len();
                    self.book = Some(book);
                    return Ok(Some(vec![format!("info string book {file} loaded with {entries} entries")]));
                }
            }
            _ => return self.eval.set_option(engine, name, value.as_deref().unwrap_or_default()),
        }
        Ok(Some(Vec::new()))
    }

    fn parse_move(&self, pos: &EnginePosition, text: &str) -> Option<Move> {
        pos.position().parse_uci(text).ok()
    }

    /// Castling as the king taking its rook with `UCI_Chess960`, else as the king's move.
    fn notation(&self, mv: Move) -> String {
        mv.to_uci_in(self.chess960)
    }

    fn clock_policy(&self, overhead: Duration) -> tabula::clock::Policy {
        crate::engine::CLOCK_POLICY.with_overhead(overhead)
    }

    fn display(&self, pos: &EnginePosition) -> Vec<String> {
        let pos = pos.position();
        let board = pos.board();
        let mut lines = vec![" +---+---+---+---+---+---+---+---+".to_owned()];
        for rank in Rank::ALL.iter().rev() {
            let mut row = String::from(" |");
            for file in File::ALL {
                let c = board.piece_at(Square::from_coords(file, *rank)).map_or(' ', |p| p.to_char());
                row.push_str(&format!(" {c} |"));
            }
            row.push_str(&format!(" {}", rank.to_char()));
            lines.push(row);
            lines.push(" +---+---+---+---+---+---+---+---+".to_owned());
        }
        lines.push("   a   b   c   d   e   f   g   h".to_owned());
        lines.extend(tabula_protocol::uci_session::position_lines(pos.to_fen(), pos.key(), pos.checkers()));
        lines
    }

    /// `bench [depth]`: the bench searches with the session's evaluation.
    fn bench(&self, args: &[&str]) -> Result<Vec<String>, CommandError> {
        let evaluation = self.eval.evaluation();
        let depth = bench_depth(args)?;
        let (nodes, time) = Engine::bench_with(depth, || evaluation.clone());
        let mut lines = vec![format!(
            "info string bench depth {depth} positions {} evaluation {}",
            crate::engine::BENCH_POSITIONS.len(),
            evaluation.kind().name_in::<Position>()
        )];
        lines.extend(tabula_protocol::uci_session::bench_lines(nodes, time));
        Ok(lines)
    }

    /// A book move, when `OwnBook` is on, a book is loaded, the GUI does not analyse and the search would end
    /// on its own over all moves.
    fn instant_move(&mut self, pos: &EnginePosition, limits: &GoLimits, root_moves: &[Move]) -> Option<Move> {
        if self.own_book && !self.analyse_mode && !limits.infinite && !limits.ponder && root_moves.is_empty() {
            return self.book.as_ref()?.pick(pos.position(), self.rng.next_u64());
        }
        None
    }

    fn extra(&mut self) -> Settings {
        Settings {
            chess960: self.chess960,
            multi_pv: self.multi_pv,
            show_wdl: self.show_wdl,
            skill: self.skill(),
            seed: self.rng.next_u64(),
        }
    }

    fn run(engine: &Mutex<Engine>, job: &SearchJob, control: &SearchControl, out: &mut dyn FnMut(String)) {
        run_search(engine, job, control, out);
    }
}

/// The depth of `bench [depth]`: [`BENCH_DEPTH`] without one.
fn bench_depth(args: &[&str]) -> Result<u32, CommandError> {
    tabula_protocol::uci_session::bench_depth(args, BENCH_DEPTH)
}

/// The `info` line for an iteration, moves in the notation of Chess960 if `chess960`.
pub fn info_line(it: &Iteration<Move>, chess960: bool) -> String {
    shared::info_line(it, |m| m.to_uci_in(chess960))
}

/// Runs `job` on `engine` under `control`, sending `info` lines and the final `bestmove` to `out`.
/// `control.pondering` starts as `job.limits.ponder` (set it before the search can be told `ponderhit`).
/// The clock, `stop` and `ponderhit` are handled as [`shared::run_timed`] says.
pub fn run_search(engine: &Mutex<Engine>, job: &SearchJob, control: &SearchControl, out: &mut dyn FnMut(String)) {
    for note in &job.notes {
        out(note.clone());
    }
    let settings = &job.extra;
    let mut engine = engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let phase = crate::engine::eval::phase(job.position.position());
    let wdl = |score| {
        let chances = MODEL.wdl(score, phase);
        [chances.win, chances.draw, chances.loss]
    };
    let style = InfoStyle { multi_pv: settings.multi_pv > 1, wdl: settings.show_wdl.then_some(&wdl) };
    let mut limits = job.limits.clone();
    let mut lines = settings.multi_pv;
    if let Some(skill) = &settings.skill {
        // A limited strength searches its node budget for a few best moves to choose from.
        limits.nodes = Some(limits.nodes.map_or(skill.nodes, |n| n.min(skill.nodes)));
        lines = lines.max(skill.lines);
    }
    let notation = |m: Move| m.to_uci_in(settings.chess960);
    let mut result = shared::run_timed(
        &limits,
        control,
        |limits, on_iteration| {
            let request = Request::new(limits.clone()).with_root_moves(&job.root_moves).with_lines(lines);
            engine.search(&job.position, request, on_iteration)
        },
        &mut |it| {
            for line in shared::info_lines(it, style, notation) {
                out(line);
            }
        },
    );
    if let Some(skill) = &settings.skill {
        if let Some(chosen) = skill.choose(&result.lines, settings.seed) {
            (result.best_move, result.score, result.pv) = (chosen.pv.first().copied(), chosen.score, chosen.pv.clone());
        }
    }
    // No legal move (mate or stalemate): `(none)`, as Stockfish says it and GUIs and python-chess read it, not
    // the null move `0000`.
    out(shared::bestmove_line(&result, notation).unwrap_or_else(|| "bestmove (none)".to_owned()));
}

/// Serves UCI on standard input and output until `quit` or the end of input.
///
/// # Errors
///
/// An error reading standard input.
pub fn run_stdio() -> std::io::Result<()> {
    server::serve_stdio(&mut UciSession::new())
}
