//! Tic-tac-toe's [`Front`]: cells numbered 1 to 9 from the top left, positions as the cells played (`519`) or
//! a board (`x...o...x`), scores in the winner's moves; small enough to solve.

use crate::{Heuristic, Mark, TicTacToe, KEYS, LAYOUT};
use tabula::quality::QualityReport;
use tabula::search::Searcher;
use tabula_protocol::front::{
    solved_by_core, CellStyle, Cells, EngineConfig, Feature, Front, FrontError, MoveCells, Setup, Solve, Solved,
};

impl Front for TicTacToe {
    const NAME: &'static str = "tictactoe";
    const POSITION_HELP: &'static str = "the cells played (`519`, 1 2 3 is the top row) or a board (`x...o...x`)";
    const MOVE_HELP: &'static str = "a cell from 1 to 9 (1 2 3 is the top row)";
    type Engine = Searcher<TicTacToe, Heuristic>;

    fn start(setup: &Setup) -> Result<TicTacToe, FrontError> {
        setup.allow(Self::NAME, &[])?;
        Ok(TicTacToe::new())
    }

    fn parse_position(text: &str, setup: &Setup) -> Result<TicTacToe, FrontError> {
        setup.allow(Self::NAME, &[])?;
        text.parse().map_err(|e| FrontError::position(text, e))
    }

    fn board_text(&self) -> String {
        self.to_string()
    }

    fn position_text(&self) -> String {
        (0..9)
            .map(|cell| match self.get(cell) {
                Some(Mark::X) => 'x',
                Some(Mark::O) => 'o',
                None => '.',
            })
            .collect()
    }

    fn move_text(&self, cell: u8) -> String {
        crate::move_to_string(cell)
    }

    fn side_name(&self) -> String {
        match self.side_to_move() {
            Mark::X => "X".into(),
            Mark::O => "O".into(),
        }
    }

    fn engine(config: &EngineConfig) -> Self::Engine {
        config.searcher(Heuristic)
    }

    fn key_quality() -> QualityReport {
        tabula::quality::check(KEYS.as_slice())
    }

    fn cells(&self) -> Option<Cells> {
        let marks =
            self.position_text().chars().map(|c| if c == '.' { String::new() } else { c.to_string() }).collect();
        Some(Cells { width: 3, height: 3, marks, style: CellStyle::Boxes, drop: false, notes: Vec::new() })
    }

    fn move_cells(&self, cell: u8) -> Option<MoveCells> {
        Some(MoveCells { from: None, to: cell as usize })
    }

    /// A mark on a cell, one key each (the key the game keeps is the board as it stands, not a symmetry of it).
    fn key_features(&self) -> Vec<Feature> {
        (0..9)
            .filter_map(|cell| {
                let mark = self.get(cell)?;
                Some(Feature::new(
                    format!("{mark:?} on {}", cell + 1),
                    KEYS[LAYOUT.feature(cell as usize, mark as usize)],
                ))
            })
            .collect()
    }
}

impl Solve for TicTacToe {
    type Solver = Searcher<TicTacToe, Heuristic>;

    fn solver(config: &EngineConfig) -> Self::Solver {
        config.searcher(Heuristic)
    }

    fn solve(solver: &mut Self::Solver, game: &TicTacToe, weak: bool) -> Solved<u8> {
        let solution = if weak { solver.solve_weak(game) } else { solver.solve(game) };
        solved_by_core(solution, &Self::WORDING)
    }

    fn solve_moves(solver: &mut Self::Solver, game: &TicTacToe) -> Vec<(u8, Solved<u8>)> {
        solver
            .solve_moves(game)
            .into_iter()
            .filter_map(|s| Some((*s.pv.first()?, solved_by_core(s, &Self::WORDING))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_protocol::front::Charset;
    use tabula_protocol::terminal;

    #[test]
    fn the_empty_board_analyses_as_a_draw() {
        let game = TicTacToe::start(&Setup::default()).unwrap();
        let mut out = Vec::new();
        let mut engine = TicTacToe::engine(&EngineConfig::default());
        terminal::analyze(&game, &mut engine, &tabula::Limits::depth(9), Charset::Ascii, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("score      draw"), "{text}");
    }

    #[test]
    fn every_first_move_solves_to_a_draw_and_positions_round_trip() {
        let game = TicTacToe::parse_position("5 1", &Setup::default()).unwrap();
        assert_eq!(TicTacToe::parse_position(&game.position_text(), &Setup::default()).unwrap(), game);
        let mut solver = TicTacToe::solver(&EngineConfig::default());
        let start = TicTacToe::new();
        let moves = TicTacToe::solve_moves(&mut solver, &start);
        assert_eq!(moves.len(), 9);
        assert!(moves.iter().all(|(_, s)| s.value == 0 && s.words == "draw"), "{moves:?}");
        assert!(TicTacToe::parse_position("55", &Setup::default()).is_err());
        assert!(TicTacToe::start(&Setup { size: Some(4), ..Setup::default() }).is_err());
    }
}
