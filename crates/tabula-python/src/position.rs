//! What every game's classes share, written once over the game's [`Front`]: [`Played`], a position with the
//! moves played on it, and [`Thinking`], an engine that a search from Python can stop; the `game_classes!`
//! macro makes of them each game's `Position` and `Engine` classes (a Python class cannot be generic), which only
//! forward to them.

use crate::analysis::{self, Analysis, Callback};
use crate::errors::{front_error, MoveError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use tabula::game::{Game, Outcome};
use tabula::perft::PerftTable;
use tabula_protocol::front::{Charset, EngineConfig, Front, Setup};

/// A position and the moves played on it since it was made (which [`undo`](Played::undo) takes back), each
/// with its coordinates.
#[derive(Clone)]
pub struct Played<G: Front> {
    /// The position.
    pub game: G,
    /// The moves played, oldest first.
    pub moves: Vec<(G::Move, String)>,
}

/// An outcome as Python sees it: `"win"`, `"loss"`, `"draw"`, or a margin as an integer.
pub fn outcome_object(py: Python<'_>, outcome: Option<Outcome>) -> Py<PyAny> {
    match outcome {
        None => py.None(),
        Some(Outcome::Win) => PyString::new(py, "win").into_any().unbind(),
        Some(Outcome::Loss) => PyString::new(py, "loss").into_any().unbind(),
        Some(Outcome::Draw) => PyString::new(py, "draw").into_any().unbind(),
        Some(Outcome::Margin(m)) => m.into_pyobject(py).expect("an int").into_any().unbind(),
    }
}

impl<G: Front> Played<G> {
    /// The position `position` reads as (the start when `None`) in the variant `setup` gives.
    ///
    /// # Errors
    ///
    /// The game's refusal, as `PositionError` or `SetupError`.
    pub fn new(position: Option<&str>, setup: &Setup) -> PyResult<Self> {
        let game = match position {
            None => G::start(setup),
            Some(text) => G::parse_position(text, setup),
        }
        .map_err(front_error)?;
        Ok(Played { game, moves: Vec::new() })
    }

    /// The legal moves (none once the game is over).
    pub fn legal(&self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        if !self.game.is_over() {
            self.game.legal_moves(&mut moves);
        }
        moves
    }

    /// The legal moves in coordinates.
    pub fn legal_moves(&self) -> Vec<String> {
        self.legal().into_iter().map(|mv| self.game.coordinate_text(mv)).collect()
    }

    /// The legal move `text` names, in any notation the game reads.
    ///
    /// # Errors
    ///
    /// `MoveError` with the game's reason.
    pub fn parse(&self, text: &str) -> PyResult<G::Move> {
        if self.game.is_over() {
            return Err(MoveError::new_err(format!("`{}` is not a legal move here (the game is over)", text.trim())));
        }
        self.game.parse_move(text).map_err(front_error)
    }

    /// Plays the move `text` names; its coordinates.
    ///
    /// # Errors
    ///
    /// `MoveError` if it is not a legal move.
    pub fn play(&mut self, text: &str) -> PyResult<String> {
        let mv = self.parse(text)?;
        let coordinates = self.game.coordinate_text(mv);
        Game::play(&mut self.game, mv);
        self.moves.push((mv, coordinates.clone()));
        Ok(coordinates)
    }

    /// Takes back the last move played on this object; its coordinates.
    ///
    /// # Errors
    ///
    /// `MoveError` if no move was played on it.
    pub fn undo(&mut self) -> PyResult<String> {
        let (mv, text) = self
            .moves
            .pop()
            .ok_or_else(|| MoveError::new_err("no move to take back: none was played on this position"))?;
        Game::undo(&mut self.game, mv);
        Ok(text)
    }

    /// The leaves of the move tree `depth` plies below, through a table of `hash_mib` MiB if given.
    pub fn perft(&self, depth: u32, hash_mib: Option<usize>) -> u64 {
        let mut table = hash_mib.map(PerftTable::with_mib);
        self.game.clone().perft(depth, table.as_mut())
    }

    /// Each root move's perft count `depth - 1` plies below it, in coordinates.
    pub fn divide(&self, depth: u32, hash_mib: Option<usize>) -> Vec<(String, u64)> {
        tabula_protocol::terminal::perft_divide(&self.game, depth, hash_mib, |_, _| {}).divide
    }

    /// The board drawn as text (Unicode: xiangqi's pieces as Chinese characters).
    pub fn board(&self, unicode: bool) -> String {
        self.game.board_text_in(if unicode { Charset::Unicode } else { Charset::Ascii })
    }

    /// The move in the game's own notation (SAN for chess, Chinese for xiangqi).
    ///
    /// # Errors
    ///
    /// `MoveError` if it is not a legal move.
    pub fn move_text(&self, text: &str) -> PyResult<String> {
        Ok(self.game.move_text(self.parse(text)?))
    }

    /// The cells the move leaves and reaches on [`cells`](Front::cells).
    ///
    /// # Errors
    ///
    /// `MoveError` if it is not a legal move.
    pub fn move_cells(&self, text: &str) -> PyResult<Option<(Option<usize>, usize)>> {
        Ok(self.game.move_cells(self.parse(text)?).map(|c| (c.from, c.to)))
    }
}

/// The setup of keyword arguments.
pub fn setup(size: Option<usize>, rule: Option<String>, komi: Option<f64>) -> Setup {
    Setup { size, rule, komi }
}

/// An engine, its configuration, and the flag that stops its search.
pub struct Thinking<E> {
    /// The engine; a search holds it (with the GIL released) for as long as it runs.
    pub engine: Mutex<E>,
    /// How it was built, to build it anew on [`clear`](Thinking::clear).
    pub config: EngineConfig,
    /// Raised to stop the search under way.
    pub stop: Arc<AtomicBool>,
}

impl<E: Send> Thinking<E> {
    /// The engine `make` builds from `config`.
    pub fn new(config: EngineConfig, make: impl FnOnce(&EngineConfig) -> E) -> Self {
        Thinking { engine: Mutex::new(make(&config)), config, stop: Arc::new(AtomicBool::new(false)) }
    }

    /// Runs `work` on the engine with the GIL released; see [`analysis::run_released`].
    ///
    /// # Errors
    ///
    /// A `KeyboardInterrupt`.
    pub fn run<T: Send>(&self, py: Python<'_>, attached: bool, work: impl FnOnce(&mut E) -> T + Send) -> PyResult<T> {
        let stop = &self.stop;
        let engine = &self.engine;
        analysis::run_released(py, &|| stop.store(true, Relaxed), attached, move || {
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            stop.store(false, Relaxed);
            work(&mut engine)
        })
    }

    /// Stops the search under way, if any (it returns what it found so far).
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Forgets everything learnt: the engine is built anew.
    pub fn clear(&self, py: Python<'_>, make: impl FnOnce(&EngineConfig) -> E + Send) {
        let fresh = make(&self.config);
        py.detach(|| *self.engine.lock().unwrap_or_else(|e| e.into_inner()) = fresh);
    }
}

/// The analysis of `played` by the engine of `thinking` within the limits given, reporting each iteration to
/// `on_iteration`.
///
/// # Errors
///
/// A bad time, a `KeyboardInterrupt`, or what `on_iteration` raised.
#[allow(clippy::too_many_arguments)]
pub fn analyse<G: Front>(
    py: Python<'_>,
    thinking: &Thinking<G::Engine>,
    played: &Played<G>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    on_iteration: Option<Py<PyAny>>,
    by: analysis::By<G>,
) -> PyResult<Analysis>
where
    G::Engine: Send,
{
    let limits = analysis::limits(depth, nodes, time, thinking.stop.clone(), G::default_limits)?;
    let game = played.game.clone();
    let callback = Callback::new(on_iteration, &thinking.stop);
    let progress = &callback;
    let result = thinking.run(py, false, move |engine| by(engine, &game, limits, &mut |make| progress.call(make)))?;
    callback.finish(result)
}

/// Makes a game's `Position` and `Engine` classes for the module `$module`, over the game `$G` (a [`Front`]),
/// its engine analysing through `$by` ([`analysis::by_search`] or [`analysis::by_think`]).
macro_rules! game_classes {
    ($module:literal, $G:ty, $by:expr) => {
        /// A position of the game, with the moves played on it. Moves are strings: the legal moves come in the
        /// game's coordinates, and `play` reads any notation the game knows.
        // (Frozen, its position behind a lock: some games keep a cache that is not `Sync`.)
        #[pyclass(frozen, module = $module)]
        pub struct Position {
            pub(crate) played: std::sync::Mutex<$crate::position::Played<$G>>,
        }

        impl Position {
            /// A position of the game.
            pub(crate) fn of(played: $crate::position::Played<$G>) -> Position {
                Position { played: std::sync::Mutex::new(played) }
            }

            /// The position, locked.
            pub(crate) fn get(&self) -> std::sync::MutexGuard<'_, $crate::position::Played<$G>> {
                self.played.lock().unwrap_or_else(|e| e.into_inner())
            }
        }

        #[pymethods]
        impl Position {
            /// The position `position` reads as in the game's usual notation, or the start position; `size`,
            /// `rule` and `komi` choose a variant where the game has them (Gomoku, Go).
            #[new]
            #[pyo3(signature = (position = None, *, size = None, rule = None, komi = None))]
            fn new(
                position: Option<&str>,
                size: Option<usize>,
                rule: Option<String>,
                komi: Option<f64>,
            ) -> PyResult<Self> {
                let setup = $crate::position::setup(size, rule, komi);
                Ok(Position::of($crate::position::Played::new(position, &setup)?))
            }

            /// The game's name (`chess`).
            #[classattr]
            const NAME: &'static str = <$G as tabula_protocol::front::Front>::NAME;
            /// How a position is written.
            #[classattr]
            const POSITION_HELP: &'static str = <$G as tabula_protocol::front::Front>::POSITION_HELP;
            /// How a move is written.
            #[classattr]
            const MOVE_HELP: &'static str = <$G as tabula_protocol::front::Front>::MOVE_HELP;
            /// An upper bound on `move_code` (exclusive).
            #[classattr]
            const MOVE_CODES: usize = <$G as tabula::Game>::MOVE_CODES;

            /// The legal moves in the game's coordinates (UCI for chess, ICCS for xiangqi); none once the game
            /// is over.
            fn legal_moves(&self) -> Vec<String> {
                self.get().legal_moves()
            }

            /// Plays `move`, written in any notation the game reads; returns it in coordinates. Raises
            /// `MoveError` with the game's reason if it is not legal.
            #[pyo3(signature = (r#move))]
            fn play(&self, r#move: &str) -> PyResult<String> {
                self.get().play(r#move)
            }

            /// Takes back the last move played on this object; returns it in coordinates.
            fn undo(&self) -> PyResult<String> {
                self.get().undo()
            }

            /// The moves played on this object, oldest first, in coordinates.
            #[getter]
            fn moves(&self) -> Vec<String> {
                self.get().moves.iter().map(|(_, text)| text.clone()).collect()
            }

            /// The move `text` names, in coordinates (a check that it is legal, and a translation).
            fn parse_move(&self, text: &str) -> PyResult<String> {
                let played = self.get();
                Ok(tabula_protocol::front::Front::coordinate_text(&played.game, played.parse(text)?))
            }

            /// The move in the game's own notation (SAN for chess, Chinese for xiangqi).
            #[pyo3(signature = (r#move))]
            fn move_text(&self, r#move: &str) -> PyResult<String> {
                self.get().move_text(r#move)
            }

            /// The result for the side to move once the game is over: `"win"`, `"loss"`, `"draw"`, or the
            /// margin (Go: points ahead, negative if behind); `None` while it goes on.
            fn outcome(&self, py: Python<'_>) -> Py<PyAny> {
                $crate::position::outcome_object(py, tabula::Game::outcome(&self.get().game))
            }

            /// Whether play has ended.
            fn is_over(&self) -> bool {
                tabula::Game::is_over(&self.get().game)
            }

            /// How the game ended, in words, or `None` while it goes on.
            fn result(&self) -> Option<String> {
                tabula_protocol::front::Front::result_text(&self.get().game)
            }

            /// Who is to move, in the game's words (`White`, `Red`, `X`).
            fn side_to_move(&self) -> String {
                tabula_protocol::front::Front::side_name(&self.get().game)
            }

            /// The Zobrist key (for chess, Polyglot's).
            fn key(&self) -> u64 {
                tabula::Game::key(&self.get().game).0
            }

            /// The move's code: below `MOVE_CODES`, distinct among the legal moves of a position.
            #[pyo3(signature = (r#move))]
            fn move_code(&self, r#move: &str) -> PyResult<u16> {
                Ok(<$G as tabula::Game>::move_code(self.get().parse(r#move)?))
            }

            /// The position in the game's usual notation (FEN for chess and xiangqi, the moves played for the
            /// others), as the constructor reads it.
            fn text(&self) -> String {
                tabula_protocol::front::Front::position_text(&self.get().game)
            }

            /// The board drawn as text; `unicode`: with the characters beyond ASCII a game draws with
            /// (xiangqi's pieces in Chinese).
            #[pyo3(signature = (unicode = false))]
            fn board(&self, unicode: bool) -> String {
                self.get().board(unicode)
            }

            /// The leaves of the move tree `depth` plies below (perft), through a table of `hash_mib` MiB if
            /// given; the GIL is released meanwhile.
            #[pyo3(signature = (depth, hash_mib = None))]
            fn perft(&self, py: Python<'_>, depth: u32, hash_mib: Option<usize>) -> u64 {
                let played = self.get().clone();
                py.detach(move || played.perft(depth, hash_mib))
            }

            /// Each legal move's perft count below it, in coordinates.
            #[pyo3(signature = (depth, hash_mib = None))]
            fn divide(&self, py: Python<'_>, depth: u32, hash_mib: Option<usize>) -> Vec<(String, u64)> {
                let played = self.get().clone();
                py.detach(move || played.divide(depth, hash_mib))
            }

            /// The board as cells, row by row from the top left: `(width, height, marks, drop)`, each mark empty
            /// or a short string (FEN letters for chess, `x`/`o`, `b`/`w`, xiangqi's characters); `drop`: a
            /// stone falls to the lowest free cell of its column. `None` if the game does not say.
            fn cells(&self) -> Option<(usize, usize, Vec<String>, bool)> {
                tabula_protocol::front::Front::cells(&self.get().game).map(|c| (c.width, c.height, c.marks, c.drop))
            }

            /// The cells (as in `cells`) that `move` leaves (`None` for a stone put down) and reaches; `None` for
            /// a move not drawn on the board (a pass).
            #[pyo3(signature = (r#move))]
            fn move_cells(&self, r#move: &str) -> PyResult<Option<(Option<usize>, usize)>> {
                self.get().move_cells(r#move)
            }

            /// A copy, with its own moves to take back.
            fn copy(&self) -> Self {
                Position::of(self.get().clone())
            }

            fn __copy__(&self) -> Self {
                self.copy()
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
                self.copy()
            }

            fn __str__(&self) -> String {
                self.get().board(false)
            }

            fn __repr__(&self) -> String {
                let text = tabula_protocol::front::Front::position_text(&self.get().game);
                format!("{}.Position({})", $module, $crate::analysis::quoted(&text))
            }
        }

        /// The game's engine. A search releases the GIL, and `stop()` from another thread (or a Ctrl-C) ends it.
        #[pyclass(frozen, module = $module)]
        pub struct Engine {
            pub(crate) thinking: $crate::position::Thinking<<$G as tabula_protocol::front::Front>::Engine>,
        }

        #[pymethods]
        impl Engine {
            /// An engine with a table of `hash_mib` MiB, searching on `threads` threads, with its table or
            /// (`table=False`) without it.
            #[new]
            #[pyo3(signature = (hash_mib = 64, threads = 1, table = true))]
            fn new(hash_mib: usize, threads: usize, table: bool) -> Self {
                let config = tabula_protocol::front::EngineConfig { hash_mib, threads, table };
                Engine {
                    thinking: $crate::position::Thinking::new(config, <$G as tabula_protocol::front::Front>::engine),
                }
            }

            /// Analyses `position` to `depth` plies, `nodes` nodes or `time` seconds (whichever ends first; one
            /// second if none is given), calling `on_iteration` with each iteration's `Analysis`.
            #[pyo3(signature = (position, *, depth = None, nodes = None, time = None, on_iteration = None))]
            fn analyse(
                &self,
                py: Python<'_>,
                position: PyRef<'_, Position>,
                depth: Option<u32>,
                nodes: Option<u64>,
                time: Option<f64>,
                on_iteration: Option<Py<PyAny>>,
            ) -> PyResult<$crate::analysis::Analysis> {
                let played = position.get().clone();
                drop(position);
                $crate::position::analyse(py, &self.thinking, &played, depth, nodes, time, on_iteration, $by)
            }

            /// Stops the search under way (from another thread); it returns what it has found.
            fn stop(&self) {
                self.thinking.stop();
            }

            /// Forgets everything learnt (the table), as a new engine would.
            fn clear(&self, py: Python<'_>) {
                self.thinking.clear(py, <$G as tabula_protocol::front::Front>::engine);
            }
        }
    };
}

pub(crate) use game_classes;

/// An exact value found by a game's solver.
#[pyclass(frozen, get_all, module = "tabula")]
#[derive(Clone, Debug)]
pub struct Solved {
    /// The figure solve files print: the game's own convention (Pons's for Connect Four: positive for a win of
    /// the side to move, the more stones it has left the larger), or 1 / 0 / -1 for a win / draw / loss.
    pub value: i32,
    /// The value in words (`win in 3 moves`).
    pub words: String,
    /// A move that reaches the value, in coordinates (`None` once the game is over).
    pub best: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
}

#[pymethods]
impl Solved {
    fn __repr__(&self) -> String {
        let best = self.best.as_deref().map_or_else(|| "None".into(), analysis::quoted);
        format!(
            "Solved(value={}, words={}, best={best}, nodes={})",
            self.value,
            analysis::quoted(&self.words),
            self.nodes
        )
    }
}

impl Solved {
    /// The solver's value, its move in `game`'s coordinates.
    pub fn of<G: Front>(game: &G, solved: tabula_protocol::front::Solved<G::Move>) -> Solved {
        Solved {
            value: solved.value,
            words: solved.words,
            best: solved.best.map(|mv| game.coordinate_text(mv)),
            nodes: solved.nodes,
        }
    }
}

/// Makes a `Solver` class for the module `$module` over `$G`, a game small enough to solve (a
/// [`Solve`](tabula_protocol::front::Solve)), whose `Position` class is in scope.
macro_rules! solver_class {
    ($module:literal, $G:ty) => {
        /// The game's exact solver. It keeps its table from position to position; the GIL is released while it
        /// solves.
        #[pyclass(frozen, module = $module)]
        pub struct Solver {
            thinking: $crate::position::Thinking<<$G as tabula_protocol::front::Solve>::Solver>,
        }

        #[pymethods]
        impl Solver {
            /// A solver with a table of `hash_mib` MiB on `threads` threads.
            #[new]
            #[pyo3(signature = (hash_mib = 64, threads = 1))]
            fn new(hash_mib: usize, threads: usize) -> Self {
                let config = tabula_protocol::front::EngineConfig { hash_mib, threads, table: true };
                Solver {
                    thinking: $crate::position::Thinking::new(config, <$G as tabula_protocol::front::Solve>::solver),
                }
            }

            /// The exact value of `position` (`weak`: only whether the side to move wins, draws or loses).
            #[pyo3(signature = (position, weak = false))]
            fn solve(
                &self,
                py: Python<'_>,
                position: PyRef<'_, Position>,
                weak: bool,
            ) -> PyResult<$crate::position::Solved> {
                let game = position.get().game.clone();
                drop(position);
                self.thinking.run(py, false, move |solver| {
                    let solved = <$G as tabula_protocol::front::Solve>::solve(solver, &game, weak);
                    $crate::position::Solved::of(&game, solved)
                })
            }

            /// The exact value of every legal move, for the side to move, as `(move, Solved)` pairs.
            fn solve_moves(
                &self,
                py: Python<'_>,
                position: PyRef<'_, Position>,
            ) -> PyResult<Vec<(String, $crate::position::Solved)>> {
                let game = position.get().game.clone();
                drop(position);
                self.thinking.run(py, false, move |solver| {
                    <$G as tabula_protocol::front::Solve>::solve_moves(solver, &game)
                        .into_iter()
                        .map(|(mv, solved)| {
                            let text = tabula_protocol::front::Front::coordinate_text(&game, mv);
                            (text, $crate::position::Solved::of(&game, solved))
                        })
                        .collect()
                })
            }

            /// Forgets everything learnt (the table).
            fn clear(&self, py: Python<'_>) {
                self.thinking.clear(py, <$G as tabula_protocol::front::Solve>::solver);
            }
        }
    };
}

pub(crate) use solver_class;

/// Adds the shared classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solved>()?;
    Ok(())
}
