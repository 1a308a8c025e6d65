//! `tabula.tictactoe`: tic-tac-toe, solved by the core's searcher.

use crate::position::{game_classes, solver_class};
use pyo3::prelude::*;

/// The module's docstring.
pub const DOC: &str = "Tic-tac-toe, solved by the core's searcher.";

/// The game.
pub type Rules = tabula_tictactoe::TicTacToe;

game_classes!("tabula.tictactoe", Rules, crate::analysis::by_search);
solver_class!("tabula.tictactoe", Rules);
