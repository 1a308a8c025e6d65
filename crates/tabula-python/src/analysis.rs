//! Searches run from Python: limits from keyword arguments, the work on a thread of its own with the GIL
//! released (stopped by a flag that another thread sets, or by a Ctrl-C that the calling thread sees), and what
//! an engine reports ([`Analysis`]).
//!
//! Python runs signal handlers on its main thread only, between bytecodes: a search that held that thread in Rust
//! would make Ctrl-C wait for its end. So the search runs on a worker thread, and the calling thread, with the GIL
//! released, wakes every `POLL` to let Python look at its signals; a `KeyboardInterrupt` raises the search's stop
//! flag, the search ends at its next check, and the exception is raised once it has.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;
use tabula::game::{Evaluator, Game};
use tabula::score::Score;
use tabula::search::{Engine, Iteration, Limits, Playable, SearchResult, Searcher};
use tabula_protocol::front::{Front, Report, Think};

/// How often the calling thread looks at Python's signals while a search runs.
const POLL: Duration = Duration::from_millis(20);

/// The limits that keyword arguments give (`time` in seconds), or `default()` if they give none; `stop` is the
/// flag that ends the search early.
///
/// # Errors
///
/// A time that is negative or not a number.
pub fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    stop: Arc<AtomicBool>,
    default: impl FnOnce() -> Limits,
) -> PyResult<Limits> {
    if let Some(t) = time {
        if !(t.is_finite() && t >= 0.0) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "time must be a number of seconds, 0 or more, not {t}"
            )));
        }
    }
    let limits = if depth.is_none() && nodes.is_none() && time.is_none() {
        default()
    } else {
        Limits {
            depth,
            nodes,
            soft_time: time.map(Duration::from_secs_f64),
            hard_time: time.map(Duration::from_secs_f64),
            ..Limits::default()
        }
    };
    Ok(limits.with_stop(stop))
}

/// Runs `work` on a worker thread with the GIL released, and returns what it returns. A Ctrl-C while it runs
/// calls `on_interrupt` (which raises the search's stop flag); the `KeyboardInterrupt` is then returned once
/// `work` has ended. With `attached`, the worker
/// keeps a Python thread state for the whole of `work`, so that callbacks into Python from it (a Python-defined
/// game's methods) take the GIL without making a new thread state each time.
///
/// # Errors
///
/// The `KeyboardInterrupt` (or any other exception a signal handler raised).
pub fn run_released<T: Send>(
    py: Python<'_>,
    on_interrupt: &(dyn Fn() + Sync),
    attached: bool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel();
            let worker = scope.spawn(move || {
                let out = if attached { Python::attach(|py| py.detach(work)) } else { work() };
                // The receiver waits until the end of the scope.
                let _ = done.send(());
                out
            });
            let mut interrupted = None;
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(POLL) {
                if interrupted.is_none() {
                    if let Err(error) = Python::attach(|py| py.check_signals()) {
                        on_interrupt();
                        interrupted = Some(error);
                    }
                }
            }
            let out = worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            interrupted.map_or(Ok(out), Err)
        })
    })
}

/// A Python callable called from a search (`on_iteration`): its first exception stops the search and is kept to
/// be raised when the search has ended.
pub struct Callback<'a> {
    function: Option<Py<PyAny>>,
    stop: &'a AtomicBool,
    error: Mutex<Option<PyErr>>,
}

impl<'a> Callback<'a> {
    /// `function` (if any), which raises `stop` when it fails.
    pub fn new(function: Option<Py<PyAny>>, stop: &'a AtomicBool) -> Self {
        Callback { function, stop, error: Mutex::new(None) }
    }

    /// Calls the function with what `argument` makes, taking the GIL for it; nothing after a failure.
    pub fn call<T: for<'py> IntoPyObject<'py>>(&self, argument: impl FnOnce() -> T) {
        let Some(function) = &self.function else { return };
        let mut error = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if error.is_some() {
            return;
        }
        if let Err(e) = Python::attach(|py| function.call1(py, (argument(),))) {
            *error = Some(e);
            self.stop.store(true, Relaxed);
        }
    }

    /// `result`, or the function's exception if it raised one.
    ///
    /// # Errors
    ///
    /// The function's exception.
    pub fn finish<T>(self, result: T) -> PyResult<T> {
        match self.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(error) => Err(error),
            None => Ok(result),
        }
    }
}

/// How much a search used its transposition table.
#[pyclass(frozen, get_all, module = "tabula")]
#[derive(Clone, Copy, Debug)]
pub struct TableUse {
    /// Probes made.
    pub probes: u64,
    /// Probes that found their position.
    pub hits: u64,
    /// Hits whose stored bound settled the node without a search.
    pub cutoffs: u64,
}

#[pymethods]
impl TableUse {
    /// Hits as a fraction of probes (0 when there were none).
    #[getter]
    fn hit_rate(&self) -> f64 {
        self.hits as f64 / self.probes.max(1) as f64
    }

    fn __repr__(&self) -> String {
        format!("TableUse(probes={}, hits={}, cutoffs={})", self.probes, self.hits, self.cutoffs)
    }
}

impl From<tabula::search::TableUse> for TableUse {
    fn from(t: tabula::search::TableUse) -> TableUse {
        TableUse { probes: t.probes, hits: t.hits, cutoffs: t.cutoffs }
    }
}

/// What an engine says about a position: the best move, the score in the game's words, the line, the work.
#[pyclass(frozen, get_all, module = "tabula")]
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The move to play, in the game's coordinates (`None` only if the game is over).
    pub best: Option<String>,
    /// The score in the game's words: `mate in 3`, `+35 cp`, `win in 5 plies`, `win rate 54.1%`.
    pub score: String,
    /// The score as a number where the engine gives one (the alpha-beta engines): centipawns or the game's
    /// units, and beyond `tabula.DECISIVE` a forced result (`tabula.WIN` less the plies to it); else `None`.
    pub value: Option<Score>,
    /// Depth of the last completed iteration (`None` for searches without depths, such as Go's).
    pub depth: Option<u32>,
    /// Deepest ply reached.
    pub seldepth: Option<u32>,
    /// Work done: nodes, or playouts for Go's Monte Carlo search.
    pub nodes: u64,
    /// What `nodes` counts: `nodes` or `playouts`.
    pub unit: String,
    /// The principal variation, in the game's coordinates.
    pub pv: Vec<String>,
    /// The principal variation in the game's own notation (SAN for chess, Chinese for xiangqi).
    pub line: String,
    /// Transposition-table use, for searches with a table.
    pub table: Option<TableUse>,
    /// Time spent, in seconds.
    pub elapsed: f64,
    /// Anything else the engine said, one line each (a forced win found by threat search, candidate moves).
    pub notes: Vec<String>,
}

#[pymethods]
impl Analysis {
    fn __repr__(&self) -> String {
        let pv: Vec<String> = self.pv.iter().map(|m| quoted(m)).collect();
        format!(
            "Analysis(best={}, score={}, depth={}, nodes={}, pv=[{}])",
            self.best.as_deref().map_or_else(|| "None".into(), quoted),
            quoted(&self.score),
            self.depth.map_or_else(|| "None".into(), |d| d.to_string()),
            self.nodes,
            pv.join(", ")
        )
    }
}

/// `text` as Python writes a string.
pub fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

impl Analysis {
    /// The analysis of `report`, an engine's report on `game`, with the score `value` if known.
    pub fn of<G: Front>(game: &G, report: &Report<G::Move>, value: Option<Score>) -> Analysis {
        Analysis {
            best: report.best.map(|mv| game.coordinate_text(mv)),
            score: report.score.clone(),
            value,
            depth: report.depth,
            seldepth: report.seldepth,
            nodes: report.nodes,
            unit: report.unit.to_string(),
            line: game.line_text(&report.pv),
            pv: coordinates(game, &report.pv),
            table: report.table.map(TableUse::from),
            elapsed: report.elapsed.as_secs_f64(),
            notes: report.notes.clone(),
        }
    }
}

/// A core search with its result: the [`Searcher`], and the [`Engine`] that a game plays with.
pub trait Searches<G: Game> {
    /// Searches `game` within `limits`, calling `on_iteration` after each iteration.
    fn search_within(
        &mut self,
        game: &G,
        limits: Limits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move>;
}

impl<G: Game + Sync, E: Evaluator<G>> Searches<G> for Searcher<G, E> {
    fn search_within(
        &mut self,
        game: &G,
        limits: Limits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        self.search(game, limits, on_iteration)
    }
}

impl<G: Playable + Sync> Searches<G> for Engine<G> {
    fn search_within(
        &mut self,
        game: &G,
        limits: Limits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        self.search(game, limits, on_iteration)
    }
}

/// The engine of a game that plays with a network (chess, xiangqi) searches a position of its own, which
/// carries the network's accumulators beside the rules.
impl<P: tabula_nnue::NetGame + Clone> Searches<P> for Engine<tabula_nnue::EnginePosition<P>> {
    fn search_within(
        &mut self,
        game: &P,
        limits: Limits,
        on_iteration: &mut dyn FnMut(&Iteration<P::Move>),
    ) -> SearchResult<P::Move> {
        self.search(&tabula_nnue::EnginePosition::new(game.clone()), limits, on_iteration)
    }
}

/// Where an engine reports each iteration: given a way to make its [`Analysis`] (made only if wanted).
pub type Progress<'a> = &'a mut dyn FnMut(&dyn Fn() -> Analysis);

/// How a game's engine analyses a position: [`by_search`] or [`by_think`].
pub type By<G> = fn(&mut <G as Front>::Engine, &G, Limits, Progress<'_>) -> Analysis;

/// An engine's analysis of `game`, for engines that are a core search: the score comes as a number too.
pub fn by_search<G: Front, S: Searches<G>>(
    engine: &mut S,
    game: &G,
    limits: Limits,
    progress: Progress<'_>,
) -> Analysis {
    let result = engine.search_within(game, limits, &mut |it| {
        progress(&|| Analysis::of(game, &Report::from_iteration(it, &G::WORDING), Some(it.score)))
    });
    let value = result.score;
    Analysis::of(game, &Report::from_result(result, &G::WORDING), Some(value))
}

/// An engine's analysis of `game` through its [`Think`] (Gomoku's threats and alpha-beta, Go's Monte Carlo):
/// the score in words only.
pub fn by_think<G: Front>(engine: &mut G::Engine, game: &G, limits: Limits, progress: Progress<'_>) -> Analysis {
    let report = engine.think(game, &limits, &mut |r| progress(&|| Analysis::of(game, r, None)));
    Analysis::of(game, &report, None)
}

/// The moves of `line`, played one after the other from `game`, in coordinates.
pub fn coordinates<G: Front>(game: &G, line: &[G::Move]) -> Vec<String> {
    let mut walk = game.clone();
    line.iter()
        .map(|&mv| {
            let text = walk.coordinate_text(mv);
            walk.play(mv);
            text
        })
        .collect()
}

/// Adds the classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Analysis>()?;
    m.add_class::<TableUse>()?;
    Ok(())
}
