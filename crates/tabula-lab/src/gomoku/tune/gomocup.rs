//! An outside Gomocup engine asked for its move and value in one position after another ([`GomocupEngine`]),
//! through the engine-process driver of `tabula-protocol`: the labeller of `label`, the reviewer of `review`,
//! and the judge and the compared engines of `probe`.
//!
//! Its value is read from the search reports it prints as `MESSAGE` lines: Rapfi's `Eval V` (the value for the
//! side to move, `+M15` a win), or `pbrain-tabula`'s `score S` (`score win in 7` a win). A value is read as a
//! win rate through Rapfi's `sigmoid(value / 200)` ([`win_rate`]); a reported win or loss is [`MATE_VALUE`].

use anyhow::{bail, Context};
use std::time::Duration;
use tabula_gomoku::{Board, Point, Rule};
use tabula_protocol::process::Process;

/// The value given to a reported win (`+M15`, `win in 7`) or loss: a win rate of 1 or 0 to six decimals
/// (never scaled).
pub const MATE_VALUE: i32 = 3_000;

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A judged value as a win rate for the side it is given for.
pub fn win_rate(value: i32) -> f64 {
    sigmoid(f64::from(value) / 200.0)
}

/// The value the last `MESSAGE` line among `answer` reports: Rapfi's `Eval V` (`+M15` a win), or
/// `pbrain-tabula`'s `score S` (`score win in 7` a win); a value other than a win or loss is multiplied by
/// `scale` (Rapfi's units in one of the engine's).
fn reported_value(answer: &[String], scale: f64) -> Option<i32> {
    let value = |word: &str| word.parse::<i32>().ok().map(|v| (f64::from(v) * scale).round() as i32);
    answer.iter().rev().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(at) = words.iter().position(|&w| w == "Eval") {
            let word = *words.get(at + 1)?;
            return match word.get(..2) {
                Some("+M") => Some(MATE_VALUE),
                Some("-M") => Some(-MATE_VALUE),
                _ => value(word),
            };
        }
        let at = words.iter().position(|&w| w == "score")?;
        match *words.get(at + 1)? {
            "win" => Some(MATE_VALUE),
            "loss" => Some(-MATE_VALUE),
            word => value(word),
        }
    })
}

/// Waits until the engine takes commands again after a move. An engine may print its move a moment before it
/// is ready for the next command (Rapfi drops a command that arrives in between), so after a short pause
/// `ABOUT` is asked until it is answered.
fn settle(engine: &mut Process) -> anyhow::Result<()> {
    for attempt in 1..=20 {
        std::thread::sleep(Duration::from_millis(2 * attempt));
        match engine.ask("ABOUT", Duration::from_millis(100), |l| l.trim_start().starts_with("name=")) {
            Ok(_) => return Ok(()),
            Err(tabula_protocol::process::EngineError::Timeout(..)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    bail!("the engine does not answer ABOUT")
}

/// A Gomocup engine (15×15, one rule) asked for its move and value in one position after another, with the
/// memory a Gomocup match gives (350 MB).
pub struct GomocupEngine {
    process: Process,
    /// Rapfi's value units in one of the engine's ([`reported_value`]).
    scale: f64,
}

impl GomocupEngine {
    /// Starts `command` on `rule`, thinking `ms` milliseconds a position; its values are taken as in Rapfi's
    /// units.
    pub fn start(command: &str, ms: u64, rule: Rule) -> anyhow::Result<GomocupEngine> {
        let argv = tabula_protocol::process::split_command(command)?;
        let mut engine = Process::spawn(&argv)?;
        engine.ask("START 15", Self::PATIENCE, |l| l.trim() == "OK").context("the engine does not start")?;
        let turn = format!("INFO timeout_turn {ms}");
        let rule = format!("INFO rule {}", rule.gomocup_code());
        for info in [&rule, &turn, "INFO timeout_match 1000000000", "INFO max_memory 367001600"] {
            engine.send(info)?;
        }
        Ok(GomocupEngine { process: engine, scale: 1.0 })
    }

    /// The same engine, its values read as `scale` of Rapfi's units each.
    pub fn with_scale(mut self, scale: f64) -> GomocupEngine {
        self.scale = scale;
        self
    }

    /// Sends an `INFO` line and fails if the engine answers it with `ERROR` (asking `ABOUT` to be sure
    /// every answer has come).
    pub fn inform(&mut self, info: &str) -> anyhow::Result<()> {
        self.process.send(info)?;
        let answer = self.process.ask("ABOUT", Self::PATIENCE, |l| l.trim_start().starts_with("name="))?;
        match answer.iter().find(|l| l.starts_with("ERROR")) {
            Some(error) => bail!("{info}: {error}"),
            None => Ok(()),
        }
    }

    /// How long a position may take before the engine is given up on.
    const PATIENCE: Duration = Duration::from_secs(60);

    /// The engine's move in `board` and the value it reports for the side to move, if it reports one; a
    /// win at once is a forced win whether reported or not (an engine may play a five without searching).
    pub fn ask(&mut self, board: &Board) -> anyhow::Result<(Point, Option<i32>)> {
        let is_move = |l: &str| l.trim().split(',').all(|n| n.parse::<u8>().is_ok());
        let answer = self.process.ask(&board.gomocup_board(), Self::PATIENCE, is_move)?;
        settle(&mut self.process)?;
        let last = answer.last().map(|l| l.trim()).unwrap_or_default();
        let best = board.parse_point(last).with_context(|| format!("the engine answered {last:?}"))?;
        let mut after = board.clone();
        after.play(best).with_context(|| format!("the engine answered {last:?}"))?;
        let wins = after.winner() == Some(board.side_to_move());
        Ok((best, if wins { Some(MATE_VALUE) } else { reported_value(&answer, self.scale) }))
    }
}

impl Drop for GomocupEngine {
    fn drop(&mut self) {
        let _ = self.process.send("END");
    }
}
