//! Gomoku's [`Front`]: the rule (freestyle, standard, renju) and board size chosen by the [`Setup`] (15×15
//! freestyle by default), positions as the moves played (`h8 i9` or `7,7 8,8`), the engine of
//! [`engine`](crate::engine) (threat-space search, then alpha-beta), a forced win said with its line.

use crate::board::{Board, Color, Point, Rule, KEYS, LAYOUT};
use crate::engine::Engine;
use tabula::quality::QualityReport;
use tabula::score::describe;
use tabula::search::Limits;
use tabula_protocol::front::{
    CellStyle, Cells, EngineConfig, Feature, Front, FrontError, MoveCells, Report, Setup, Think,
};

fn board_for(setup: &Setup) -> Result<Board, FrontError> {
    setup.allow(<Board as Front>::NAME, &["size", "rule"])?;
    let rule: Rule = match &setup.rule {
        Some(text) => text.parse().map_err(|e| FrontError::Setup(format!("bad rule `{text}`: {e}")))?,
        None => Rule::Freestyle,
    };
    let size = setup.size.unwrap_or(15);
    Board::new(size, size, rule).map_err(|e| FrontError::Setup(e.to_string()))
}

impl Front for Board {
    const NAME: &'static str = "gomoku";
    const POSITION_HELP: &'static str = "the moves played (`h8 i9` or `7,7 8,8`)";
    const MOVE_HELP: &'static str = "a point (`h8` or `7,7`)";
    type Engine = Engine;

    fn start(setup: &Setup) -> Result<Board, FrontError> {
        board_for(setup)
    }

    fn parse_position(text: &str, setup: &Setup) -> Result<Board, FrontError> {
        let mut board = board_for(setup)?;
        for p in board.parse_moves(text).map_err(|e| FrontError::position(text, e))? {
            board.play(p).map_err(|e| FrontError::position(text, e))?;
        }
        Ok(board)
    }

    fn board_text(&self) -> String {
        self.to_string()
    }

    fn position_text(&self) -> String {
        self.format_moves(self.moves())
    }

    fn move_text(&self, p: Point) -> String {
        self.format_point(p)
    }

    fn parse_move(&self, text: &str) -> Result<Point, FrontError> {
        let p = self.parse_point(text).map_err(|e| FrontError::bad_move(text, e))?;
        let mut trial = self.clone();
        trial.play(p).map_err(|e| FrontError::bad_move(text, e))?;
        Ok(p)
    }

    fn side_name(&self) -> String {
        format!("{:?}", self.side_to_move())
    }

    fn result_text(&self) -> Option<String> {
        match self.winner() {
            Some(Color::Black) => Some("Black wins.".into()),
            Some(Color::White) => Some("White wins.".into()),
            None => self.is_full().then(|| "Draw: the board is full.".into()),
        }
    }

    fn engine(config: &EngineConfig) -> Engine {
        let mut engine = Engine::new(config.hash_mib);
        engine.set_threads(config.threads.max(1));
        engine.set_table_use(config.table);
        engine
    }

    fn key_quality() -> QualityReport {
        tabula::quality::check(KEYS.as_slice())
    }

    /// Row `y = 0` at the top, as Gomocup counts; `b` and `w` for the stones.
    fn cells(&self) -> Option<Cells> {
        let mut marks = Vec::with_capacity(self.width() * self.height());
        for y in 0..self.height() {
            for x in 0..self.width() {
                let stone = self.stone(Point::new(x as u8, y as u8));
                marks.push(stone.map_or(String::new(), |c| if c == Color::Black { "b" } else { "w" }.to_string()));
            }
        }
        Some(Cells {
            width: self.width(),
            height: self.height(),
            marks,
            style: CellStyle::Points,
            drop: false,
            notes: Vec::new(),
        })
    }

    fn move_cells(&self, p: Point) -> Option<MoveCells> {
        Some(MoveCells { from: None, to: p.y as usize * self.width() + p.x as usize })
    }

    /// A stone of either colour on each point, and White to move.
    fn key_features(&self) -> Vec<Feature> {
        let mut features = Vec::new();
        for y in 0..self.height() {
            for x in 0..self.width() {
                let p = Point::new(x as u8, y as u8);
                if let Some(c) = self.stone(p) {
                    let name = format!("{c:?} stone on {}", self.format_point(p));
                    features.push(Feature::new(name, KEYS[LAYOUT.feature(p.code() as usize, c.index())]));
                }
            }
        }
        if self.side_to_move() == Color::White {
            features.push(Feature::new("White to move", KEYS[LAYOUT.extra(0)]));
        }
        features
    }
}

impl Think<Board> for Engine {
    fn think(&mut self, board: &Board, limits: &Limits, progress: &mut dyn FnMut(&Report<Point>)) -> Report<Point> {
        let wording = <Board as Front>::WORDING;
        // The table's use as of the last completed iteration (the threat search keeps its own cache).
        let mut table = None;
        let thought = self.think_with(board, limits, |it| {
            table = Some(it.table);
            progress(&Report::from_iteration(it, &wording))
        });
        let mut notes = Vec::new();
        if let Some(win) = &thought.win {
            notes.push(format!("forced win: {}", board.line_text(win)));
        }
        Report {
            best: thought.best,
            score: describe(thought.score, false, &wording),
            depth: Some(thought.depth),
            nodes: thought.nodes,
            pv: thought.pv,
            elapsed: thought.elapsed,
            table,
            notes,
            ..Report::empty()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_and_positions() {
        let setup = Setup { size: Some(9), rule: Some("renju".into()), ..Setup::default() };
        let board = Board::parse_position("e5 e6 f5", &setup).unwrap();
        assert_eq!((board.width(), board.rule()), (9, Rule::Renju));
        assert_eq!(Board::parse_position(&board.position_text(), &setup).unwrap().moves(), board.moves());
        assert!(Board::parse_position("e5 e5", &setup).is_err());
        assert!(board.parse_move("e5").is_err());
        assert!(Board::start(&Setup { komi: Some(1.0), ..Setup::default() }).is_err());
        assert!(Board::start(&Setup { rule: Some("chess".into()), ..Setup::default() }).is_err());
    }
}
