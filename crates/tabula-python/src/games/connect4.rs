//! `tabula.connect4`: Connect Four 7×6, its engine and its perfect solver (values in Pascal Pons's convention).

use crate::position::{game_classes, solver_class};
use pyo3::prelude::*;

/// The module's docstring.
pub const DOC: &str = "Connect Four 7×6, its engine and its perfect solver (values in Pascal Pons's convention). Moves are the columns 1 to 7.";

/// The game.
pub type Rules = tabula_connect4::Standard;

game_classes!("tabula.connect4", Rules, crate::analysis::by_search);
solver_class!("tabula.connect4", Rules);
