//! Connect Four's [`Front`]: positions as the columns played (`4453`, columns 1 to 7), scores in the winner's
//! moves, solved exactly by the [`Solver`] with values in Pascal Pons's convention.

use crate::board::{Column, Standard, KEYS};
use crate::eval::Threats;
use crate::solver::Solver;
use tabula::quality::QualityReport;
use tabula::search::{SearchOptions, Searcher};
use tabula::Game;
use tabula_protocol::front::{
    CellStyle, Cells, EngineConfig, Feature, Front, FrontError, MoveCells, Setup, Solve, Solved,
};

const WIDTH: usize = 7;
const HEIGHT: usize = 6;

impl Front for Standard {
    const NAME: &'static str = "connect4";
    const POSITION_HELP: &'static str = "the columns played, 1 to 7 (`4453`)";
    const MOVE_HELP: &'static str = "a column from 1 to 7";
    type Engine = Searcher<Standard, Threats>;

    fn start(setup: &Setup) -> Result<Standard, FrontError> {
        setup.allow(Self::NAME, &[])?;
        Ok(Standard::new())
    }

    fn parse_position(text: &str, setup: &Setup) -> Result<Standard, FrontError> {
        setup.allow(Self::NAME, &[])?;
        text.parse().map_err(|e| FrontError::position(text, e))
    }

    fn board_text(&self) -> String {
        self.to_string()
    }

    /// A sequence of columns that reaches the position without passing a finished game: the board keeps no
    /// history, so the stones are taken off the top again, the last mover's first.
    fn position_text(&self) -> String {
        let mut grid = [[None; HEIGHT]; WIDTH];
        for (col, column) in grid.iter_mut().enumerate() {
            for (row, cell) in column.iter_mut().enumerate() {
                *cell = self.cell(col, row);
            }
        }
        let mut columns = Vec::new();
        if take_off(&mut grid, self.moves() as usize, &mut columns) {
            columns.iter().rev().map(|c| char::from(b'1' + *c as u8)).collect()
        } else {
            String::from("?")
        }
    }

    fn move_text(&self, col: Column) -> String {
        (col + 1).to_string()
    }

    fn side_name(&self) -> String {
        if self.moves() % 2 == 0 { "X" } else { "O" }.into()
    }

    /// The core searcher ordered by threats: killers and history only get in its way here (they cost 1.8 times
    /// the nodes on the bench's depth-14 search).
    fn engine(config: &EngineConfig) -> Self::Engine {
        config.searcher_with(Threats, SearchOptions::default().with_killers(false).with_history(false))
    }

    fn key_quality() -> QualityReport {
        tabula::quality::check(KEYS.as_slice())
    }

    /// The top row first; `x` for the first player's discs, `o` for the second's.
    fn cells(&self) -> Option<Cells> {
        let mut marks = Vec::with_capacity(WIDTH * HEIGHT);
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                marks.push(self.cell(col, row).map_or(String::new(), |c| ["x", "o"][c as usize].to_string()));
            }
        }
        Some(Cells { width: WIDTH, height: HEIGHT, marks, style: CellStyle::Boxes, drop: true })
    }

    /// The cell the disc falls to.
    fn move_cells(&self, col: Column) -> Option<MoveCells> {
        let col = col as usize;
        let row = (0..HEIGHT).find(|&row| self.cell(col, row).is_none())?;
        Some(MoveCells { from: None, to: (HEIGHT - 1 - row) * WIDTH + col })
    }

    /// A disc of either player on each cell (the key is the board's alone: the side to move follows from it).
    fn key_features(&self) -> Vec<Feature> {
        let mut features = Vec::new();
        for col in 0..WIDTH {
            for row in 0..HEIGHT {
                if let Some(colour) = self.cell(col, row) {
                    let name = format!("{} in column {}, row {}", ["X", "O"][colour as usize], col + 1, row + 1);
                    features.push(Feature::new(name, KEYS[2 * (col * (HEIGHT + 1) + row) + colour as usize]));
                }
            }
        }
        features
    }
}

/// Takes the `stones` stones off `grid` in an order that could have been played, pushing each column, or says
/// there is none.
fn take_off(grid: &mut [[Option<u8>; HEIGHT]; WIDTH], stones: usize, columns: &mut Vec<usize>) -> bool {
    if stones == 0 {
        return true;
    }
    let mover = ((stones - 1) % 2) as u8;
    for col in 0..WIDTH {
        let Some(row) = grid[col].iter().rposition(Option::is_some) else { continue };
        if grid[col][row] != Some(mover) {
            continue;
        }
        grid[col][row] = None;
        // The position before this stone must not already be won.
        if !has_four(grid) {
            columns.push(col);
            if take_off(grid, stones - 1, columns) {
                return true;
            }
            columns.pop();
        }
        grid[col][row] = Some(mover);
    }
    false
}

fn has_four(grid: &[[Option<u8>; HEIGHT]; WIDTH]) -> bool {
    let at = |c: i32, r: i32| {
        (0..WIDTH as i32).contains(&c) && (0..HEIGHT as i32).contains(&r) && grid[c as usize][r as usize].is_some()
    };
    for c in 0..WIDTH as i32 {
        for r in 0..HEIGHT as i32 {
            let Some(stone) = grid[c as usize][r as usize] else { continue };
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                if (1..4).all(|k| {
                    at(c + k * dc, r + k * dr) && grid[(c + k * dc) as usize][(r + k * dr) as usize] == Some(stone)
                }) {
                    return true;
                }
            }
        }
    }
    false
}

/// Pons's value in words: the winner's moves from here, the last one included.
fn words(board: &Standard, value: i32) -> String {
    if value == 0 {
        return "draw".into();
    }
    let winner_stones = (WIDTH * HEIGHT) as i32 / 2 + 1 - value.abs();
    let played = board.moves() as i32;
    let (already, what) = if value > 0 { (played / 2, "win") } else { ((played + 1) / 2, "loss") };
    let n = winner_stones - already;
    format!("{what} in {n} move{}", if n == 1 { "" } else { "s" })
}

impl Solve for Standard {
    type Solver = Solver<WIDTH, HEIGHT>;

    fn solver(config: &EngineConfig) -> Self::Solver {
        let mut solver = Solver::new(config.hash_mib.max(1));
        let options = solver.searcher().options().clone().with_threads(config.threads.max(1));
        solver.searcher().set_options(options);
        solver
    }

    fn solve(solver: &mut Self::Solver, board: &Standard, weak: bool) -> Solved<Column> {
        let s = if weak { solver.solve_weak(board) } else { solver.solve(board) };
        let words =
            if weak { ["loss", "draw", "win"][(s.score.signum() + 1) as usize].into() } else { words(board, s.score) };
        Solved { value: s.score, words, best: s.best_move, nodes: s.nodes }
    }

    fn solve_moves(solver: &mut Self::Solver, board: &Standard) -> Vec<(Column, Solved<Column>)> {
        let mut moves = Vec::new();
        if board.outcome().is_none() {
            board.legal_moves(&mut moves);
        }
        let scores = solver.analyze(board);
        moves
            .into_iter()
            .filter_map(|col| {
                let value = scores[col as usize]?;
                Some((col, Solved { value, words: words(board, value), best: Some(col), nodes: 0 }))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_written_as_a_sequence_that_reads_back() {
        for text in ["", "4", "4453", "44444433333", "1234567123456712345"] {
            let board: Standard = text.parse().unwrap();
            let written = board.position_text();
            assert_eq!(Standard::parse_position(&written, &Setup::default()).unwrap(), board, "{text} -> {written}");
        }
    }

    #[test]
    fn a_win_is_said_as_a_win() {
        // From Pons's end set: score 2, the side to move wins with its 20th stone.
        let board: Standard = "427767763612342422427365534134136761".parse().unwrap();
        let mut solver = Standard::solver(&EngineConfig { hash_mib: 4, ..EngineConfig::default() });
        let solved = Standard::solve(&mut solver, &board, false);
        assert_eq!((solved.value, solved.words.as_str()), (2, "win in 2 moves"));
        let moves = Standard::solve_moves(&mut solver, &board);
        assert_eq!(moves.iter().map(|(_, s)| s.value).max(), Some(2), "{moves:?}");
        assert!(moves.iter().all(|(_, s)| s.value != 0 || s.words == "draw"));
    }
}
