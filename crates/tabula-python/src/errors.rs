//! The package's exceptions, and the library's errors turned into them with the library's own message.

use pyo3::create_exception;
use pyo3::exceptions::{PyAssertionError, PyValueError};
use pyo3::prelude::*;
use tabula_protocol::front::FrontError;

create_exception!(tabula, Error, PyValueError, "What Tabula refused: a position, a move or a setting it cannot take.");
create_exception!(tabula, PositionError, Error, "A position that cannot be read.");
create_exception!(tabula, MoveError, Error, "A move that cannot be read or is not legal in the position.");
create_exception!(tabula, SetupError, Error, "A setting the game does not have, or a value it does not accept.");
create_exception!(tabula, Mismatch, PyAssertionError, "A search that disagreed with minimax (`tabula.verify`).");

/// The exception for `error`, with its message.
pub fn front_error(error: FrontError) -> PyErr {
    let message = error.to_string();
    match error {
        FrontError::Position { .. } => PositionError::new_err(message),
        FrontError::Move { .. } => MoveError::new_err(message),
        FrontError::Setup(_) => SetupError::new_err(message),
    }
}

/// Adds the exceptions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("Mismatch", py.get_type::<Mismatch>())?;
    Ok(())
}
