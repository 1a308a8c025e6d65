//! `tabula.xiangqi`: xiangqi with the Asian repetition rules, its engine; moves in ICCS, WXF or Chinese.

use crate::position::game_classes;
use pyo3::prelude::*;

/// The module's docstring.
pub const DOC: &str =
    "Xiangqi with the Asian repetition rules, and its engine. Positions in FEN, moves in ICCS, WXF or Chinese.";

/// The game.
pub type Rules = tabula_xiangqi::Position;

game_classes!("tabula.xiangqi", Rules, crate::analysis::by_search);

#[pymethods]
impl Position {
    /// The position in FEN.
    fn fen(&self) -> String {
        self.get().game.to_fen()
    }

    /// The move in WXF notation (`C2=5`).
    #[pyo3(signature = (r#move))]
    fn wxf(&self, r#move: &str) -> PyResult<String> {
        let played = self.get();
        Ok(played.game.wxf(played.parse(r#move)?))
    }

    /// The move in Chinese notation (`炮二平五`).
    #[pyo3(signature = (r#move))]
    fn chinese(&self, r#move: &str) -> PyResult<String> {
        let played = self.get();
        Ok(played.game.chinese(played.parse(r#move)?))
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.get().game.is_check()
    }
}
