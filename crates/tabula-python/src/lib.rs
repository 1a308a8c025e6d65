//! Tabula from Python: the native half of the `tabula` package (the module `tabula._tabula`), built by maturin.
//!
//! - [`games`]: one module per game (`tabula.chess`, `tabula.connect4`, ...), each with its `Position` (the
//!   rules, notation, keys, perft, the board as text) and `Engine` classes, made once for every game by
//!   `position::game_classes!` over the game's [`Front`](tabula_protocol::front::Front), and what only that game
//!   has (Connect Four's solver, Gomoku's threat search).
//! - [`analysis`]: searches run from Python, with the GIL released and a stop from another thread or a Ctrl-C;
//!   what an engine reports.
//! - [`pygame`]: the core's searcher, minimax, alpha-beta and `verify` over a game written in Python.
//! - [`kmc`]: the energy of a structure as the kinetic Monte Carlo computes it.
//! - [`errors`]: the package's exceptions.
//!
//! The Python half (`python/tabula`) adds the PettingZoo environment, the python-chess and ASE adapters, and
//! the type stubs.
#![deny(missing_docs)]

pub mod analysis;
pub mod errors;
pub mod games;
pub mod kmc;
pub mod position;
pub mod pygame;

use pyo3::prelude::*;

/// The module `tabula._tabula`: what the package `tabula` re-exports.
#[pymodule]
fn _tabula(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    analysis::register(m)?;
    position::register(m)?;
    pygame::register(m)?;
    games::register(m)?;
    let kmc = PyModule::new(m.py(), "kmc")?;
    kmc.setattr("__doc__", kmc::DOC)?;
    kmc::register(&kmc)?;
    m.add_submodule(&kmc)?;
    m.add("WIN", tabula::score::WIN)?;
    m.add("FORCED", tabula::score::FORCED)?;
    m.add("DECISIVE", tabula::score::DECISIVE)?;
    m.add("MAX_PLY", tabula::score::MAX_PLY)?;
    Ok(())
}
