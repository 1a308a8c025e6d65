//! The games the command line knows, behind one trait so that play and analyze are written once.

use anyhow::{anyhow, Result};
use std::fmt::Display;
use tabula::game::{Evaluator, Game};
use tabula::score::Wording;
use tabula::zobrist::Key;
use tabula_connect4::{Standard, Threats};
use tabula_tictactoe::{Heuristic, TicTacToe};

/// A game the command line can play and analyze.
pub trait CliGame: Game + Display + Default + Sync {
    /// The evaluator its engine uses.
    type Eval: Evaluator<Self> + Default + Clone + Send;
    /// How a human writes a move, for prompts.
    const MOVE_HELP: &'static str;
    /// How scores read.
    const WORDING: Wording;
    /// Reads a position.
    fn parse_position(text: &str) -> Result<Self>;
    /// Reads a move legal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move>;
    /// Writes a move.
    fn format_move(mv: Self::Move) -> String;
    /// The game's Zobrist keys.
    fn keys() -> &'static [Key];
    /// A label for the side to move.
    fn side_to_move(&self) -> &'static str;
}

fn legal<G: Game>(game: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    if game.outcome().is_none() {
        game.legal_moves(&mut moves);
    }
    moves
}

impl CliGame for TicTacToe {
    type Eval = Heuristic;
    const MOVE_HELP: &'static str = "a cell from 1 to 9 (1 2 3 is the top row)";
    const WORDING: Wording = Wording::MOVES;

    fn parse_position(text: &str) -> Result<Self> {
        text.parse().map_err(|e| anyhow!("bad tic-tac-toe position `{text}`: {e}"))
    }

    fn parse_move(&self, text: &str) -> Result<u8> {
        let cell: u8 = text.trim().parse().map_err(|_| anyhow!("`{text}` is not a cell: expected 1 to 9"))?;
        let mv = cell.wrapping_sub(1);
        legal(self).contains(&mv).then_some(mv).ok_or_else(|| anyhow!("cell {cell} is not a legal move here"))
    }

    fn format_move(mv: u8) -> String {
        tabula_tictactoe::move_to_string(mv)
    }

    fn keys() -> &'static [Key] {
        tabula_tictactoe::KEYS.as_slice()
    }

    fn side_to_move(&self) -> &'static str {
        match TicTacToe::side_to_move(self) {
            tabula_tictactoe::Mark::X => "x",
            tabula_tictactoe::Mark::O => "o",
        }
    }
}

impl CliGame for Standard {
    type Eval = Threats;
    const MOVE_HELP: &'static str = "a column from 1 to 7";
    const WORDING: Wording = Wording::MOVES;

    fn parse_position(text: &str) -> Result<Self> {
        text.parse().map_err(|e| anyhow!("bad Connect Four position `{text}`: {e}"))
    }

    fn parse_move(&self, text: &str) -> Result<u8> {
        let col: u8 = text.trim().parse().map_err(|_| anyhow!("`{text}` is not a column: expected 1 to 7"))?;
        let mv = col.wrapping_sub(1);
        legal(self).contains(&mv).then_some(mv).ok_or_else(|| anyhow!("column {col} is not a legal move here"))
    }

    fn format_move(mv: u8) -> String {
        (mv + 1).to_string()
    }

    fn keys() -> &'static [Key] {
        tabula_connect4::KEYS.as_slice()
    }

    fn side_to_move(&self) -> &'static str {
        if self.moves() % 2 == 0 {
            "X"
        } else {
            "O"
        }
    }
}

/// Formats a principal variation.
pub fn format_pv<G: CliGame>(pv: &[G::Move]) -> String {
    pv.iter().map(|&m| G::format_move(m)).collect::<Vec<_>>().join(" ")
}
