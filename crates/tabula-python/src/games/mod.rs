//! One module per game: its classes, made by `position::game_classes!`, and what only it
//! has; [`register`] adds them all. Each module names its game's crate in as few places as it can.

pub mod chess;
pub mod connect4;
pub mod go;
pub mod gomoku;
pub mod tictactoe;
pub mod xiangqi;

use pyo3::prelude::*;
use tabula::game::{Evaluator, Game};
use tabula::score::Score;
use tabula::search::{self, Counted};

/// Every leaf worth 0: the rules alone, for the oracles run on the package's games.
struct Blind;

impl<G: Game> Evaluator<G> for Blind {
    fn evaluate(&self, _: &G) -> Score {
        0
    }
}

/// Which oracle to run.
#[derive(Clone, Copy, Debug)]
pub enum Oracle {
    /// [`search::minimax`].
    Minimax,
    /// [`search::alphabeta`].
    Alphabeta,
}

impl Oracle {
    /// The oracle's value of `game` to `depth` with `evaluator`.
    pub fn run<G: Game, E: Evaluator<G>>(self, game: &mut G, evaluator: &E, depth: u32) -> Counted {
        match self {
            Oracle::Minimax => search::minimax(game, evaluator, depth),
            Oracle::Alphabeta => search::alphabeta(game, evaluator, depth),
        }
    }
}

/// `oracle` run in Rust to `depth` on `object`, if it is a position of one of the package's games; `None` for
/// any other object.
pub fn on_native(py: Python<'_>, object: &Bound<'_, PyAny>, oracle: Oracle, depth: u32) -> Option<Counted> {
    macro_rules! each {
        ($($game:ident),*) => {
            $(
                if let Ok(position) = object.cast::<$game::Position>() {
                    let game = position.get().get().game.clone();
                    return Some(py.detach(move || oracle.run(&mut { game }, &Blind, depth)));
                }
            )*
        };
    }
    each!(tictactoe, connect4, chess, gomoku, go, xiangqi);
    None
}

/// Adds each game's module to `parent`, as `tabula._tabula.<game>`: its `Position` and `Engine`, then the classes
/// only it has.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = parent.py();
    macro_rules! each {
        ($($game:ident [$($class:ident),*]),*) => {
            $(
                let module = PyModule::new(py, stringify!($game))?;
                module.setattr("__doc__", $game::DOC)?;
                module.add_class::<$game::Position>()?;
                module.add_class::<$game::Engine>()?;
                $(module.add_class::<$game::$class>()?;)*
                parent.add_submodule(&module)?;
            )*
        };
    }
    each!(tictactoe [Solver], connect4 [Solver], chess [], gomoku [ThreatSolver], go [], xiangqi []);
    Ok(())
}
