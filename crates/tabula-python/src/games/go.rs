//! `tabula.go`: Go with area scoring and superko, its Monte Carlo tree search.

use crate::position::game_classes;
use pyo3::prelude::*;

/// The module's docstring.
pub const DOC: &str =
    "Go with area scoring and superko, and its Monte Carlo tree search (`Analysis.nodes` counts playouts).";

/// The game.
pub type Rules = tabula_go::Position;

game_classes!("tabula.go", Rules, crate::analysis::by_think::<Rules>);
