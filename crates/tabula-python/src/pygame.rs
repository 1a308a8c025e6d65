//! The core over a game written in Python: [`PyGame`] implements [`Game`] by calling the Python object's
//! `legal_moves`, `play`, `undo`, `outcome` and `key` (and [`PyEval`] its `evaluate`, if it has one), taking the
//! GIL inside each call only; [`Searcher`], [`minimax`], [`alphabeta`] and [`verify`] put the core's searches on
//! it.
//!
//! The core's moves are small copyable values; a Python game's moves are any hashable objects. The [`Bridge`]
//! numbers each distinct move the first time it sees it (at most 65,536 of them), and the search works on the
//! numbers: a number is also the move's code in the transposition table. A search clones its game for each of
//! its threads: a clone is `copy.deepcopy` of the object, so the object given is never played on.
//!
//! A Python method that raises cannot unwind through the search: the first exception is kept, the search is
//! stopped, and the game answers as if every position were a drawn end until the search has returned, when the
//! exception is raised. A Ctrl-C ends the search the same way.

use crate::analysis::{self, Callback, TableUse};
use crate::errors::Mismatch;
use crate::games::Oracle;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use tabula::game::{Evaluator, Game, Outcome};
use tabula::score::{Score, DECISIVE};
use tabula::search::{self, Limits};
use tabula::Key;

/// The most distinct moves a search can tell apart: the core codes a move in 16 bits.
const MAX_MOVES: usize = 1 << 16;

/// What the clones of one Python game share: the numbering of its moves, and the first exception raised.
pub struct Bridge {
    /// Each move object seen, by its number.
    objects: Py<PyList>,
    /// The number of each move object seen.
    numbers: Py<PyDict>,
    /// The first exception a method of the game raised (or a Ctrl-C).
    error: Mutex<Option<PyErr>>,
    /// Set with `error`: from then on the game answers without calling Python.
    failed: AtomicBool,
    /// The search's stop flag, raised on a failure.
    stop: Arc<AtomicBool>,
}

impl Bridge {
    /// A bridge numbering moves in `objects` and `numbers` (kept from search to search by a [`Searcher`]) and
    /// raising `stop` on a failure.
    fn new(py: Python<'_>, moves: &Numbering, stop: Arc<AtomicBool>) -> Arc<Bridge> {
        Arc::new(Bridge {
            objects: moves.objects.clone_ref(py),
            numbers: moves.numbers.clone_ref(py),
            error: Mutex::new(None),
            failed: AtomicBool::new(false),
            stop,
        })
    }

    /// Keeps `error` if it is the first, and stops the search.
    fn fail(&self, error: PyErr) {
        let mut kept = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if kept.is_none() {
            *kept = Some(error);
        }
        self.failed.store(true, Relaxed);
        self.stop.store(true, Relaxed);
    }

    /// Whether a method has failed (or the search was interrupted).
    fn failed(&self) -> bool {
        self.failed.load(Relaxed)
    }

    /// The exception kept, if any.
    fn take_error(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// The number of the move `object`, numbering it if it is new.
    fn number(&self, object: &Bound<'_, PyAny>) -> PyResult<u32> {
        let py = object.py();
        let numbers = self.numbers.bind(py);
        if let Some(n) = numbers.get_item(object)? {
            return n.extract();
        }
        let objects = self.objects.bind(py);
        let n = objects.len();
        if n >= MAX_MOVES {
            return Err(PyValueError::new_err(format!(
                "the game has more than {MAX_MOVES} distinct moves, which the search cannot tell apart"
            )));
        }
        numbers.set_item(object, n)?;
        objects.append(object)?;
        Ok(n as u32)
    }

    /// The move object numbered `n`.
    fn object<'py>(&self, py: Python<'py>, n: u32) -> PyResult<Bound<'py, PyAny>> {
        self.objects.bind(py).get_item(n as usize)
    }
}

/// The numbering of a game's moves: a list of the objects and a dict of their numbers.
pub struct Numbering {
    objects: Py<PyList>,
    numbers: Py<PyDict>,
}

impl Numbering {
    /// An empty numbering.
    pub fn new(py: Python<'_>) -> Numbering {
        Numbering { objects: PyList::empty(py).unbind(), numbers: PyDict::new(py).unbind() }
    }
}

/// A game written in Python, as the core sees it. See the [module documentation](self).
pub struct PyGame {
    object: Py<PyAny>,
    legal_moves: Py<PyAny>,
    play: Py<PyAny>,
    undo: Py<PyAny>,
    outcome: Py<PyAny>,
    key: Py<PyAny>,
    evaluate: Option<Py<PyAny>>,
    bridge: Arc<Bridge>,
    /// Moves played after a failure, which Python never saw (their `undo` is not passed on either).
    skipped: u32,
}

impl PyGame {
    /// `object` as a game, its methods looked up once.
    ///
    /// # Errors
    ///
    /// An `AttributeError` naming the method missing.
    fn wrap(object: &Bound<'_, PyAny>, bridge: Arc<Bridge>) -> PyResult<PyGame> {
        let py = object.py();
        let method = |name: &str| -> PyResult<Py<PyAny>> {
            object.getattr(name).map(Bound::unbind).map_err(|_| {
                pyo3::exceptions::PyAttributeError::new_err(format!(
                    "a game needs a method {name}(): legal_moves, play, undo, outcome and key (evaluate is optional)"
                ))
            })
        };
        let evaluate = object.getattr(intern!(py, "evaluate")).ok().map(Bound::unbind);
        Ok(PyGame {
            object: object.clone().unbind(),
            legal_moves: method("legal_moves")?,
            play: method("play")?,
            undo: method("undo")?,
            outcome: method("outcome")?,
            key: method("key")?,
            evaluate,
            bridge,
            skipped: 0,
        })
    }

    /// Calls Python through `f` unless a call has failed; the first failure is kept and `fallback` returned.
    #[inline]
    fn call<T>(&self, fallback: T, f: impl FnOnce(Python<'_>) -> PyResult<T>) -> T {
        if self.bridge.failed() {
            return fallback;
        }
        Python::attach(|py| match f(py) {
            Ok(value) => value,
            Err(error) => {
                self.bridge.fail(error);
                fallback
            }
        })
    }

    /// The position's evaluation for the side to move: the game's `evaluate()`, clamped within the heuristic
    /// range, or 0 without one.
    fn evaluate(&self) -> Score {
        let Some(evaluate) = &self.evaluate else { return 0 };
        self.call(0, |py| {
            let value = evaluate.call0(py)?;
            let value = value.bind(py);
            let score = match value.extract::<i64>() {
                Ok(v) => v,
                Err(_) => value.extract::<f64>().map_err(|_| type_error("evaluate", "a number", value))?.round() as i64,
            };
            Ok(score.clamp(-(DECISIVE as i64) + 1, DECISIVE as i64 - 1) as Score)
        })
    }
}

/// A `TypeError` for a method that returned something else than `expected`.
fn type_error(method: &str, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let shown = got.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
    PyTypeError::new_err(format!("{method}() must return {expected}, not {shown}"))
}

impl Clone for PyGame {
    /// A deep copy of the Python object (`copy.deepcopy`), sharing the bridge.
    fn clone(&self) -> PyGame {
        Python::attach(|py| {
            let copy = py
                .import(intern!(py, "copy"))
                .and_then(|copy| copy.call_method1(intern!(py, "deepcopy"), (self.object.bind(py),)))
                .and_then(|copy| PyGame::wrap(&copy, self.bridge.clone()));
            match copy {
                Ok(mut game) => {
                    game.skipped = self.skipped;
                    game
                }
                Err(error) => {
                    self.bridge.fail(error);
                    PyGame {
                        object: self.object.clone_ref(py),
                        legal_moves: self.legal_moves.clone_ref(py),
                        play: self.play.clone_ref(py),
                        undo: self.undo.clone_ref(py),
                        outcome: self.outcome.clone_ref(py),
                        key: self.key.clone_ref(py),
                        evaluate: self.evaluate.as_ref().map(|e| e.clone_ref(py)),
                        bridge: self.bridge.clone(),
                        skipped: self.skipped,
                    }
                }
            }
        })
    }
}

impl Game for PyGame {
    type Move = u32;

    fn legal_moves(&self, moves: &mut Vec<u32>) {
        self.call((), |py| {
            let list = self.legal_moves.call0(py)?;
            for object in list.bind(py).try_iter()? {
                moves.push(self.bridge.number(&object?)?);
            }
            Ok(())
        });
    }

    fn play(&mut self, mv: u32) {
        if self.bridge.failed() {
            self.skipped += 1;
            return;
        }
        let bridge = self.bridge.clone();
        let played = self.call(false, |py| {
            self.play.call1(py, (bridge.object(py, mv)?,))?;
            Ok(true)
        });
        if !played {
            self.skipped += 1;
        }
    }

    fn undo(&mut self, mv: u32) {
        if self.skipped > 0 {
            self.skipped -= 1;
            return;
        }
        // Taken back even after a failure, so that the object is left as it was found where it can be.
        let bridge = self.bridge.clone();
        Python::attach(|py| {
            if let Err(error) = bridge.object(py, mv).and_then(|m| self.undo.call1(py, (m,))) {
                bridge.fail(error);
            }
        });
    }

    fn outcome(&self) -> Option<Outcome> {
        self.call(Some(Outcome::Draw), |py| {
            let value = self.outcome.call0(py)?;
            let value = value.bind(py);
            if value.is_none() {
                return Ok(None);
            }
            let text = value.cast::<PyString>().ok().and_then(|s| s.to_cow().ok());
            match text.as_deref() {
                Some("win") => Ok(Some(Outcome::Win)),
                Some("loss") => Ok(Some(Outcome::Loss)),
                Some("draw") => Ok(Some(Outcome::Draw)),
                _ => Err(type_error("outcome", "None, 'win', 'loss' or 'draw' (for the side to move)", value)),
            }
        })
    }

    fn key(&self) -> Key {
        self.call(Key(0), |py| {
            let value = self.key.call0(py)?;
            let value = value.bind(py);
            let key = match value.extract::<u64>() {
                Ok(k) => k,
                Err(_) => value.extract::<i64>().map_err(|_| type_error("key", "a 64-bit integer", value))? as u64,
            };
            Ok(Key(key))
        })
    }

    fn move_code(mv: u32) -> u16 {
        mv as u16
    }
}

/// The evaluation of a Python game: its `evaluate()` method, or 0 for every position without one.
#[derive(Clone, Copy, Debug, Default)]
pub struct PyEval;

impl Evaluator<PyGame> for PyEval {
    fn evaluate(&self, game: &PyGame) -> Score {
        game.evaluate()
    }
}

/// A Python game ready to search: the wrapped game, and how to stop it.
struct Prepared {
    game: PyGame,
    bridge: Arc<Bridge>,
    stop: Arc<AtomicBool>,
}

impl Prepared {
    fn new(object: &Bound<'_, PyAny>, moves: &Numbering, stop: Arc<AtomicBool>) -> PyResult<Prepared> {
        let bridge = Bridge::new(object.py(), moves, stop.clone());
        // The root is a copy too: the search never plays on the caller's object.
        let game = PyGame::wrap(object, bridge.clone())?.clone();
        if let Some(error) = bridge.take_error() {
            return Err(error);
        }
        Ok(Prepared { game, bridge, stop })
    }

    /// Runs `work` on the game with the GIL released (see [`analysis::run_released`]); a Ctrl-C fails the game.
    fn run<T: Send>(self, py: Python<'_>, work: impl FnOnce(PyGame) -> T + Send) -> PyResult<T> {
        let (bridge, stop) = (self.bridge.clone(), self.stop.clone());
        let on_interrupt = || {
            bridge.failed.store(true, Relaxed);
            stop.store(true, Relaxed);
        };
        let game = self.game;
        let out = analysis::run_released(py, &on_interrupt, true, move || work(game))?;
        match self.bridge.take_error() {
            Some(error) => Err(error),
            None => Ok(out),
        }
    }
}

/// A search's result on a Python game.
#[pyclass(frozen, get_all, module = "tabula")]
pub struct SearchResult {
    /// The best move (one of the objects `legal_moves()` gave), `None` only if the game is over.
    pub best_move: Option<Py<PyAny>>,
    /// Its score for the side to move: the game's evaluation, or beyond `tabula.DECISIVE` a forced result
    /// (`tabula.WIN` less the plies to a win, its negative for a loss).
    pub score: Score,
    /// Whether the score is proved (no line was cut short by the horizon).
    pub exact: bool,
    /// Depth of the deepest completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The principal variation.
    pub pv: Vec<Py<PyAny>>,
    /// Nodes searched.
    pub nodes: u64,
    /// Transposition-table use.
    pub table: TableUse,
    /// Time taken, in seconds.
    pub elapsed: f64,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self, py: Python<'_>) -> String {
        let show = |o: &Py<PyAny>| o.bind(py).repr().map_or_else(|_| "?".into(), |r| r.to_string());
        let pv: Vec<String> = self.pv.iter().map(show).collect();
        format!(
            "SearchResult(best_move={}, score={}, depth={}, nodes={}, pv=[{}])",
            self.best_move.as_ref().map_or_else(|| "None".into(), show),
            self.score,
            self.depth,
            self.nodes,
            pv.join(", ")
        )
    }
}

/// One iteration of a search on a Python game, as `on_iteration` receives it.
#[pyclass(frozen, get_all, module = "tabula")]
pub struct Iteration {
    /// Depth of the iteration.
    pub depth: u32,
    /// Score of the root for the side to move.
    pub score: Score,
    /// Whether the score is proved.
    pub exact: bool,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Py<PyAny>>,
}

/// The objects of the moves numbered `line`.
fn objects(py: Python<'_>, bridge: &Bridge, line: &[u32]) -> PyResult<Vec<Py<PyAny>>> {
    line.iter().map(|&mv| bridge.object(py, mv).map(Bound::unbind)).collect()
}

/// Tabula's searcher (iterative deepening alpha-beta with the transposition table) over a game written in
/// Python. The game is any object with `legal_moves()`, `play(move)`, `undo(move)`, `outcome()` and `key()`,
/// and optionally `evaluate()`; moves are any hashable objects.
#[pyclass(frozen, module = "tabula")]
pub struct Searcher {
    searcher: Mutex<search::Searcher<PyGame, PyEval>>,
    moves: Numbering,
    stop: Arc<AtomicBool>,
}

#[pymethods]
impl Searcher {
    /// A searcher with a table of `table_mib` MiB, used unless `table=False` (to count what it saves).
    #[new]
    #[pyo3(signature = (table_mib = 16, *, table = true))]
    fn new(py: Python<'_>, table_mib: usize, table: bool) -> Self {
        let options = search::SearchOptions::default().with_table(table);
        Searcher {
            searcher: Mutex::new(search::Searcher::with_table_size(PyEval, table_mib.max(1)).with_options(options)),
            moves: Numbering::new(py),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Searches `game` by iterative deepening to `depth` plies, `nodes` nodes or `time` seconds (whichever ends
    /// first; with none, until the value is proved or `stop()` is called), calling `on_iteration` with each
    /// completed `Iteration`. The table is kept from search to search (`clear()` empties it).
    #[pyo3(signature = (game, *, depth = None, nodes = None, time = None, on_iteration = None))]
    fn search(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        on_iteration: Option<Py<PyAny>>,
    ) -> PyResult<SearchResult> {
        self.stop.store(false, Relaxed);
        let limits = analysis::limits(depth, nodes, time, self.stop.clone(), Limits::default)?;
        let prepared = Prepared::new(game, &self.moves, self.stop.clone())?;
        let bridge = prepared.bridge.clone();
        let callback = Callback::new(on_iteration, &self.stop);
        let searcher = &self.searcher;
        let result = prepared.run(py, |game| {
            let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
            let result = searcher.search(&game, limits, |it| {
                callback.call(|| {
                    Python::attach(|py| Iteration {
                        depth: it.depth,
                        score: it.score,
                        exact: it.exact,
                        nodes: it.nodes,
                        pv: objects(py, &bridge, &it.pv).unwrap_or_default(),
                    })
                })
            });
            // A failed search may have stored what the game answered after its failure.
            if bridge.failed() {
                searcher.clear();
            }
            result
        });
        let result = callback.finish(result?)?;
        Ok(SearchResult {
            best_move: result.best_move.map(|mv| prepared_object(py, &bridge, mv)).transpose()?,
            score: result.score,
            exact: result.exact,
            depth: result.depth,
            seldepth: result.seldepth,
            pv: objects(py, &bridge, &result.pv)?,
            nodes: result.nodes,
            table: result.table.into(),
            elapsed: result.elapsed.as_secs_f64(),
        })
    }

    /// Stops the search under way (from another thread): it returns its last completed iteration.
    fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Empties the table: the next search starts as a new searcher's would.
    fn clear(&self, py: Python<'_>) {
        py.detach(|| self.searcher.lock().unwrap_or_else(|e| e.into_inner()).clear());
    }
}

fn prepared_object(py: Python<'_>, bridge: &Bridge, mv: u32) -> PyResult<Py<PyAny>> {
    bridge.object(py, mv).map(Bound::unbind)
}

/// Runs `oracle` on a Python game or, for a position of one of the package's games, on the Rust game (with
/// every leaf worth 0).
fn oracle(py: Python<'_>, game: &Bound<'_, PyAny>, depth: u32, oracle: Oracle) -> PyResult<(Score, u64)> {
    if let Some(counted) = crate::games::on_native(py, game, oracle, depth) {
        return Ok((counted.score, counted.nodes));
    }
    let prepared = Prepared::new(game, &Numbering::new(py), Arc::new(AtomicBool::new(false)))?;
    let counted = prepared.run(py, |mut game| oracle.run(&mut game, &PyEval, depth))?;
    Ok((counted.score, counted.nodes))
}

/// Plain minimax to `depth` plies, every move searched (the oracle the other searches are tested against):
/// `(score, nodes)`. A Python game's leaves are worth its `evaluate()` (0 without one); a position of the
/// package's games (`tabula.connect4.Position()`) is searched in Rust, its leaves worth 0.
#[pyfunction]
pub fn minimax(py: Python<'_>, game: &Bound<'_, PyAny>, depth: u32) -> PyResult<(Score, u64)> {
    oracle(py, game, depth, Oracle::Minimax)
}

/// Alpha-beta without a table or move ordering to `depth` plies: minimax's value from fewer nodes,
/// `(score, nodes)`. Leaves as for `minimax`.
#[pyfunction]
pub fn alphabeta(py: Python<'_>, game: &Bound<'_, PyAny>, depth: u32) -> PyResult<(Score, u64)> {
    oracle(py, game, depth, Oracle::Alphabeta)
}

/// Checks that alpha-beta and the searcher under every option set the core verifies return minimax's value for
/// `game` at `depth` (each searcher with an empty table), and returns it; raises `tabula.Mismatch` naming the
/// first search that disagrees. A broken key or an `undo` that does not restore shows here. Positions must be as
/// far from the root along every path to them (as in games that add a stone a move).
#[pyfunction]
pub fn verify(py: Python<'_>, game: &Bound<'_, PyAny>, depth: u32) -> PyResult<Score> {
    let prepared = Prepared::new(game, &Numbering::new(py), Arc::new(AtomicBool::new(false)))?;
    prepared
        .run(py, |game| search::verify::check_all(&game, &PyEval, depth))?
        .map_err(|m| Mismatch::new_err(m.to_string()))
}

/// Adds the classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Searcher>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<Iteration>()?;
    m.add_function(wrap_pyfunction!(minimax, m)?)?;
    m.add_function(wrap_pyfunction!(alphabeta, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    Ok(())
}
