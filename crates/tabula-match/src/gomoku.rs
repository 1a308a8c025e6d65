//! Gomoku over the Gomocup (Piskvork) protocol: the driver (`START`, `INFO`, `BEGIN` / `BOARD` ... `DONE` /
//! `TURN x,y`), the referee on [`tabula_gomoku::Board`] (five, renju forbidden points, full board, optional
//! move limit) and move-list records.
//!
//! Openings are move lists, one per line (`h8 i9 j8` or `7,7 8,8`).
//!
//! # Examples
//!
//! ```
//! use tabula_gomoku::Rule;
//! use tabula_match::gomoku::Gomoku;
//! use tabula_match::MatchGame;
//!
//! let game = Gomoku { size: 15, rule: Rule::Freestyle };
//! assert_eq!(game.parse_openings("h8 i9\nh8\n", "o.txt").unwrap().len(), 2);
//! let err = game.parse_openings("h8 h8\n", "o.txt").unwrap_err();
//! assert!(err.to_string().starts_with("o.txt, line 1"));
//! ```

use crate::{
    forfeit, opening_lines, Clock, EngineOption, Finished, GameInfo, GameResult, MatchGame, OpeningError, Player,
    TimeControl,
};
use std::time::Instant;
use tabula_gomoku::{Board, Point, Rule};
use tabula_protocol::process::{EngineError, Process};

/// Gomoku matches over the Gomocup protocol.
#[derive(Clone, Copy, Debug)]
pub struct Gomoku {
    /// Board side.
    pub size: usize,
    /// The rule.
    pub rule: Rule,
}

/// Whether a line is chatter the protocol allows around a move. `ERROR` is among them: an engine answers with it
/// a command it cannot carry out, and an `INFO` line it does not take (some engines refuse `INFO time_left`)
/// has no other answer, so the engine's move still follows; if none does, the move's time runs out.
fn is_chatter(line: &str) -> bool {
    let upper = line.trim().to_ascii_uppercase();
    upper.is_empty() || ["MESSAGE", "DEBUG", "SUGGEST", "UNKNOWN", "ERROR", "OK"].iter().any(|p| upper.starts_with(p))
}

impl Gomoku {
    fn new_board(&self) -> Board {
        Board::new(self.size, self.size, self.rule)
            .unwrap_or_else(|_| Board::new(15, 15, self.rule).expect("15×15 is always a valid board"))
    }

    /// `START`, the rule, the options as `INFO` and the time control.
    fn start(
        &self,
        process: &mut Process,
        options: &[EngineOption],
        tc: &TimeControl,
        allowed: std::time::Duration,
    ) -> Result<(), EngineError> {
        process.send(&format!("START {}", self.size))?;
        let deadline = Instant::now() + allowed;
        let line = process.wait_for(deadline, allowed, |l| {
            !l.trim().is_empty()
                && !l.to_ascii_uppercase().starts_with("MESSAGE")
                && !l.to_ascii_uppercase().starts_with("DEBUG")
        })?;
        if !line.trim().eq_ignore_ascii_case("OK") {
            return Err(EngineError::Garbage(line));
        }
        process.send(&format!("INFO rule {}", self.rule.gomocup_code()))?;
        for option in options {
            process.send(&format!("INFO {}", option.joined(" ")))?;
        }
        if let Some(t) = tc.movetime {
            process.send(&format!("INFO timeout_turn {}", t.as_millis()))?;
        }
        if let Some(base) = tc.base {
            // Gomocup knows no increment and reads `timeout_turn 0` as "play as fast as you can": a move may
            // take the whole clock, and `time_left` before each move says what that is.
            process.send(&format!("INFO timeout_match {}", base.as_millis()))?;
            if tc.movetime.is_none() {
                process.send(&format!("INFO timeout_turn {}", base.as_millis()))?;
            }
        }
        Ok(())
    }
}

impl MatchGame for Gomoku {
    type Opening = Vec<Point>;

    fn name(&self) -> &'static str {
        "gomoku"
    }

    fn parse_openings(&self, text: &str, source: &str) -> Result<Vec<Vec<Point>>, OpeningError> {
        opening_lines(text)
            .map(|(line, l)| {
                let error = |message: String| OpeningError { source_name: source.to_string(), line, message };
                let mut board = self.new_board();
                let moves = board.parse_moves(l).map_err(|e| error(e.to_string()))?;
                for &p in &moves {
                    board.play(p).map_err(|e| error(format!("{}: {e}", board.format_point(p))))?;
                }
                if board.winner().is_some() || board.is_full() {
                    return Err(error("the opening ends the game".to_string()));
                }
                Ok(moves)
            })
            .collect()
    }

    fn default_opening(&self) -> Vec<Point> {
        Vec::new()
    }

    /// Nothing: Gomocup has no greeting, and its options go with `START` at each game.
    fn handshake(&self, _: &mut Process, _: &[EngineOption]) -> Result<(), EngineError> {
        Ok(())
    }

    fn play(&self, mut players: [&mut Player; 2], opening: &Vec<Point>, info: &GameInfo) -> Finished {
        let mut board = self.new_board();
        for &p in opening {
            board.play_unchecked(p);
        }
        let mut clock = Clock::seated(&info.tc);
        let mut synced = [false; 2];
        let mut plies = 0usize;
        let (result, reason) = loop {
            let seat = plies % 2;
            let step = (|| -> Result<Point, EngineError> {
                let allowed = clock.allowance(seat).max(std::time::Duration::from_secs(5));
                let options = players[seat].options.clone();
                let process = players[seat].ensure(|_, _| Ok(()))?;
                if !synced[seat] {
                    self.start(process, &options, clock.control(seat), allowed)?;
                }
                if let Some(left) = clock.left(seat) {
                    process.send(&format!("INFO time_left {}", left.as_millis()))?;
                }
                let started = Instant::now();
                match (synced[seat], board.moves().last()) {
                    (true, Some(last)) => process.send(&format!("TURN {last}"))?,
                    (_, None) => process.send("BEGIN")?,
                    (false, Some(_)) => process.send(&board.gomocup_board())?,
                }
                synced[seat] = true;
                let allowed = clock.allowance(seat);
                let line = process.wait_for(started + allowed, allowed, |l| !is_chatter(l))?;
                clock.charge(seat, started.elapsed())?;
                if !line.contains(',') {
                    return Err(EngineError::Garbage(line));
                }
                let p = board.parse_point(&line).map_err(|_| EngineError::Illegal(line.trim().to_string()))?;
                board.play(p).map_err(|e| EngineError::Illegal(format!("{} ({e})", line.trim())))?;
                Ok(p)
            })();
            match step {
                Err(e) => break forfeit(&mut players, seat, &e),
                Ok(_) => {
                    plies += 1;
                    if board.winner().is_some() {
                        break (GameResult::Win(seat), "five in a row".to_string());
                    }
                    if board.is_full() {
                        break (GameResult::Draw, "full board".to_string());
                    }
                    if info.max_moves.is_some_and(|m| plies >= 2 * m as usize) {
                        break (GameResult::Draw, "adjudicated: move limit".to_string());
                    }
                }
            }
        };
        // Seat 0 moves first after the opening: Black when the opening has an even number of stones.
        let black_seat = if opening.len() % 2 == 0 { 0 } else { 1 };
        let token = match result {
            GameResult::Draw => "1/2-1/2",
            GameResult::Win(s) if s == black_seat => "1-0",
            GameResult::Win(_) => "0-1",
        };
        let record = format!(
            "# Round {} Black \"{}\" White \"{}\" Result {token} ({reason})\n{}\n\n",
            info.round,
            info.names[black_seat],
            info.names[1 - black_seat],
            board.format_moves(board.moves())
        );
        Finished { result, reason, record, spent: clock.take_spent() }
    }
}
