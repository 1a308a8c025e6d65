//! Go's [`Front`]: board size and komi from the [`Setup`] (9×9, komi 7 by default), positions as SGF or as
//! the moves played in GTP coordinates (`d4 e5 pass`), the Monte Carlo tree search of [`mcts`](crate::engine::mcts)
//! thinking within the core's limits (nodes count playouts), scores as win rates.

use crate::board::{stone_key, IllegalMove, KEYS, WHITE_TO_MOVE};
use crate::coords::{Color, Move, Point, MAX_POINTS};
use crate::engine::mcts::{Budget, Config, Mcts};
use crate::position::{Position, Rules, SEARCH_KEYS};
use crate::scoring::area_score;
use crate::sgf::GameRecord;
use std::time::{Duration, Instant};
use tabula::quality::QualityReport;
use tabula::search::Limits;
use tabula_protocol::front::{
    CellStyle, Cells, EngineConfig, Feature, Front, FrontError, MoveCells, Report, Setup, Think,
};

/// The Go engine as the terminal commands drive it: Monte Carlo tree search on the configured threads.
pub struct GoEngine {
    mcts: Mcts,
}

impl Think<Position> for GoEngine {
    /// A node limit is a playout budget; otherwise the soft time limit, extended up to the hard one while the
    /// best move is in doubt, either alone, or one second.
    fn think(&mut self, position: &Position, limits: &Limits, _: &mut dyn FnMut(&Report<Move>)) -> Report<Move> {
        let budget = match (limits.nodes, limits.soft_time, limits.hard_time) {
            (Some(n), _, _) => Budget::playouts(n),
            (None, Some(soft), Some(hard)) => Budget::extensible(soft, hard),
            (None, Some(t), None) | (None, None, Some(t)) => Budget::time(t),
            (None, None, None) => Budget::time(Duration::from_secs(1)),
        };
        let start = Instant::now();
        let a = self.mcts.search(position, position.to_move(), budget);
        let mut notes: Vec<String> = a
            .candidates
            .iter()
            .take(5)
            .map(|c| format!("  {:<5} {:>7} visits  {:>5.1}%", c.mv.to_string(), c.visits, 100.0 * c.win_rate))
            .collect();
        if a.resign {
            notes.push(format!("{:?} would resign.", position.to_move()));
        }
        Report {
            best: Some(a.best),
            score: format!("win rate {:.1}%", 100.0 * a.win_rate),
            nodes: a.playouts,
            unit: "playouts",
            pv: a.pv,
            elapsed: start.elapsed(),
            notes,
            ..Report::empty()
        }
    }
}

fn empty(setup: &Setup) -> Result<Position, FrontError> {
    setup.allow(<Position as Front>::NAME, &["size", "komi"])?;
    let mut position =
        Position::new(setup.size.unwrap_or(9), Rules::default()).map_err(|e| FrontError::Setup(e.to_string()))?;
    position.set_komi(setup.komi.unwrap_or(7.0));
    Ok(position)
}

impl Front for Position {
    const NAME: &'static str = "go";
    const POSITION_HELP: &'static str = "an SGF game (its last position), or the moves played (`d4 e5 pass`)";
    const MOVE_HELP: &'static str = "a point (`d4`) or `pass`";
    type Engine = GoEngine;

    fn start(setup: &Setup) -> Result<Position, FrontError> {
        empty(setup)
    }

    /// SGF (the size and komi of the record, the setup's komi if given), or GTP moves from the empty board.
    fn parse_position(text: &str, setup: &Setup) -> Result<Position, FrontError> {
        if text.trim_start().starts_with('(') {
            setup.allow(Self::NAME, &["komi"])?;
            let record = GameRecord::parse(text).map_err(|e| FrontError::position("SGF", e))?;
            let mut position = record.replay(Rules::default(), None).map_err(|e| FrontError::position("SGF", e))?;
            if let Some(komi) = setup.komi {
                position.set_komi(komi);
            }
            return Ok(position);
        }
        let mut position = empty(setup)?;
        for word in text.split_whitespace() {
            let mv = Move::from_gtp(word, position.size()).map_err(|e| FrontError::position(text, e))?;
            let color = position.to_move();
            position.play(mv, color).map_err(|e| FrontError::position(text, format!("{word}: {e}")))?;
        }
        Ok(position)
    }

    fn board_text(&self) -> String {
        format!("{}\n{:?} to move, komi {}", self.board(), self.to_move(), self.komi())
    }

    fn position_text(&self) -> String {
        GameRecord::from_position(self).to_sgf()
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, FrontError> {
        let mv = Move::from_gtp(text.trim(), self.size()).map_err(|e| FrontError::bad_move(text, e))?;
        self.check(mv, self.to_move()).map_err(|e| FrontError::bad_move(text, e))?;
        Ok(mv)
    }

    fn side_name(&self) -> String {
        format!("{:?}", self.to_move())
    }

    fn result_text(&self) -> Option<String> {
        self.is_over().then(|| {
            let result = area_score(self.board()).result(self.komi());
            format!("Both players passed: {result} (area scoring, every stone counted alive).")
        })
    }

    fn engine(config: &EngineConfig) -> GoEngine {
        GoEngine { mcts: Mcts::new(Config { threads: config.threads.max(1), ..Config::default() }) }
    }

    fn key_quality() -> QualityReport {
        tabula::quality::check(KEYS.as_slice())
    }

    /// The top row (the highest number) first; `b` and `w` for the stones.
    fn cells(&self) -> Option<Cells> {
        let size = self.size();
        let mut marks = Vec::with_capacity(size * size);
        for row in (0..size).rev() {
            for column in 0..size {
                let stone = self.board().get(Point::new(column, row));
                marks.push(stone.map_or(String::new(), |c| if c == Color::Black { "b" } else { "w" }.to_string()));
            }
        }
        // Empty points the position's history forbids: the ko retaken at once, a repetition (superko).
        let mut notes = Vec::new();
        for p in self.board().points().filter(|&p| self.board().get(p).is_none()) {
            if let Err(why @ (IllegalMove::Ko(_) | IllegalMove::Superko(_))) = self.check(Move::Play(p), self.to_move())
            {
                notes.push(((size - 1 - p.row()) * size + p.column(), why.to_string()));
            }
        }
        Some(Cells { width: size, height: size, marks, style: CellStyle::Points, drop: false, notes })
    }

    fn move_cells(&self, mv: Move) -> Option<MoveCells> {
        match mv {
            Move::Pass => None,
            Move::Play(p) => Some(MoveCells { from: None, to: (self.size() - 1 - p.row()) * self.size() + p.column() }),
        }
    }

    /// The search key's features: each stone (the low half of its 128-bit key), White to move, the point a
    /// ko forbids, and one pass just played.
    fn key_features(&self) -> Vec<Feature> {
        let mut features: Vec<Feature> = self
            .board()
            .points()
            .filter_map(|p| {
                let c = self.board().get(p)?;
                Some(Feature::new(format!("{c:?} stone on {}", p.to_gtp()), stone_key(p, c).to_key()))
            })
            .collect();
        if self.to_move() == Color::White {
            features.push(Feature::new("White to move", WHITE_TO_MOVE.to_key()));
        }
        if let Some(ko) = self.board().ko() {
            features.push(Feature::new(format!("ko forbids {}", ko.to_gtp()), SEARCH_KEYS.get(ko.index())));
        }
        if self.passes() == 1 {
            features.push(Feature::new("the last move was a pass", SEARCH_KEYS.get(MAX_POINTS)));
        }
        features
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coords::Color;

    #[test]
    fn positions_from_moves_and_sgf_agree() {
        let setup = Setup { size: Some(9), ..Setup::default() };
        let position = Position::parse_position("e5 c3 pass", &setup).unwrap();
        let again = Position::parse_position(&position.position_text(), &Setup::default()).unwrap();
        assert_eq!(again.board().to_string(), position.board().to_string());
        assert_eq!(again.to_move(), Color::White);
        assert!(Position::parse_position("e5 e5", &setup).is_err());
        assert!(position.parse_move("e5").is_err());
        assert!(Position::start(&Setup { rule: Some("renju".into()), ..Setup::default() }).is_err());
        let mut engine = Position::engine(&EngineConfig::default());
        let report = engine.think(&position, &Limits::nodes(200), &mut |_| {});
        assert_eq!(report.nodes, 200);
        assert!(report.score.starts_with("win rate"));
    }
}
