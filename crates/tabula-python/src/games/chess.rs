//! `tabula.chess`: chess and Chess960 with Polyglot keys, the UCI engine's search and evaluation.

use crate::errors::SetupError;
use crate::position::{game_classes, Played};
use pyo3::prelude::*;

/// The module's docstring.
pub const DOC: &str = "Chess and Chess960 with Polyglot keys, and the chess engine. Positions in FEN (X-FEN for Chess960), moves in UCI coordinates or SAN.";

/// The game.
pub type Rules = tabula_chess::Position;

game_classes!("tabula.chess", Rules, crate::analysis::by_search);

#[pymethods]
impl Position {
    /// The start position of Chess960 number `number` (0 to 959; 518 is the standard start).
    #[staticmethod]
    fn chess960(number: u32) -> PyResult<Position> {
        let game = Rules::chess960(number)
            .ok_or_else(|| SetupError::new_err(format!("no Chess960 position {number}: they are numbered 0 to 959")))?;
        Ok(Position::of(Played { game, moves: Vec::new() }))
    }

    /// The position in FEN (X-FEN for Chess960).
    fn fen(&self) -> String {
        self.get().game.to_fen()
    }

    /// The move in Standard Algebraic Notation (`Nf3`, `O-O`, `e8=Q+`).
    #[pyo3(signature = (r#move))]
    fn san(&self, r#move: &str) -> PyResult<String> {
        self.get().move_text(r#move)
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.get().game.is_check()
    }

    /// Whether the position needs Chess960's notation (castling rights on other files than a and h, or a king
    /// off the e-file): then castling is written as the king taking its own rook (`e1h1`).
    fn is_chess960(&self) -> bool {
        self.get().game.is_chess960()
    }
}
