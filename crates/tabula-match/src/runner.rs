//! The match: openings in pairs with colours swapped, several games at once, engines restarted after a
//! failure, a live line after each game, the SPRT stop and the final table.
//!
//! Engine 0 is the one the statistics are about: its score, its Elo against engine 1.
//!
//! # Examples
//!
//! ```
//! use tabula_match::runner::pair_schedule;
//!
//! // Two openings, one round: each opening twice, engine 0 first, then engine 1 first.
//! let jobs = pair_schedule(2, 1, None, None);
//! let seats: Vec<(usize, usize)> = jobs.iter().map(|j| (j.opening, j.engine0_seat)).collect();
//! assert_eq!(seats, [(0, 0), (0, 1), (1, 0), (1, 1)]);
//! assert_eq!(pair_schedule(1, 1, Some(5), None).len(), 5);
//! ```

use crate::stats::{Results, Sprt, SprtDecision};
use crate::{today, EngineOption, Finished, GameInfo, GameResult, MatchGame, Player, TimeControl};
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{mpsc, Mutex};
use std::time::Duration;
use tabula::rng::Rng;
use tabula_protocol::process::{split_command, EngineError, Process};
use thiserror::Error;

/// Why a match could not run.
#[derive(Debug, Error)]
pub enum MatchError {
    /// An engine command that is empty, malformed or cannot start.
    #[error("engine {index}: {error}")]
    Engine {
        /// Which engine (1 or 2).
        index: usize,
        /// What went wrong.
        error: EngineError,
    },
    /// No opening to play.
    #[error("no openings to play")]
    NoOpenings,
    /// Writing a record or the live line failed.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
}

/// The settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines' command lines.
    pub engines: [String; 2],
    /// Names for records and tables (default: the command lines, numbered if equal).
    pub names: Option<[String; 2]>,
    /// Each engine's options.
    pub options: [Vec<EngineOption>; 2],
    /// Each engine's time control: the same for both, or different for a match at time odds.
    pub tc: [TimeControl; 2],
    /// Move-limit adjudication (see [`GameInfo::max_moves`]).
    pub max_moves: Option<u32>,
    /// Games played at once, each with its own pair of engine processes.
    pub concurrency: usize,
    /// How many times the opening list is played (each opening as a pair of games).
    pub rounds: usize,
    /// Stop after this many games, if set.
    pub games: Option<usize>,
    /// Shuffle the openings with this seed, if set.
    pub shuffle: Option<u64>,
    /// The SPRT to stop on, if any.
    pub sprt: Option<Sprt>,
    /// Use game pairs (pentanomial) rather than single games (trinomial) for the SPRT.
    pub pentanomial: bool,
    /// Play only these pairs of the schedule (a shard of the match; see [`crate::shard`]), if set.
    pub pairs: Option<std::ops::Range<usize>>,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            engines: [String::new(), String::new()],
            names: None,
            options: [Vec::new(), Vec::new()],
            tc: [TimeControl::default(); 2],
            max_moves: None,
            concurrency: 1,
            rounds: 1,
            games: None,
            shuffle: None,
            sprt: None,
            pentanomial: false,
            pairs: None,
        }
    }
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Game number from 0.
    pub game: usize,
    /// Pair number from 0 (two games per pair).
    pub pair: usize,
    /// Index into the opening list.
    pub opening: usize,
    /// The seat of engine 0 (0: it moves first).
    pub engine0_seat: usize,
}

/// The games of a match: each opening (in order, or shuffled by `shuffle`) as a pair with engine 0 first,
/// then engine 1 first, for `rounds` passes (more if `games` needs them), cut at `games`.
pub fn pair_schedule(openings: usize, rounds: usize, games: Option<usize>, shuffle: Option<u64>) -> Vec<Job> {
    let mut order: Vec<usize> = (0..openings).collect();
    let mut jobs = Vec::new();
    // A game count beyond one pass over the openings asks for more passes.
    let rounds = rounds.max(games.map_or(0, |g| g.div_ceil(2 * openings.max(1))));
    let mut rng = Rng::new(shuffle.unwrap_or(0));
    for _ in 0..rounds {
        if shuffle.is_some() {
            rng.shuffle(&mut order);
        }
        for &opening in &order {
            for seat in 0..2 {
                let game = jobs.len();
                jobs.push(Job { game, pair: game / 2, opening, engine0_seat: seat });
            }
        }
    }
    jobs.truncate(games.unwrap_or(usize::MAX));
    jobs
}

/// One played game, as the summary keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The job.
    pub job: Job,
    /// Engine 0's score: 1, ½ or 0.
    pub score: f64,
    /// The game as the referee ended it.
    pub finished: Finished,
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The engines' names.
    pub names: [String; 2],
    /// Engine 0's results.
    pub results: Results,
    /// The games in the order they finished.
    pub games: Vec<Played>,
    /// The SPRT, its log-likelihood ratio and decision, if one ran: as they stood when the test decided
    /// (the games still being played then are counted in `results`, not in the test), else after the last
    /// game.
    pub sprt: Option<(Sprt, f64, SprtDecision)>,
    /// How many games had finished when the SPRT decided, if it did.
    pub decided_at: Option<u64>,
    /// Games each engine lost by failure (crash, timeout, illegal move, garbage).
    pub forfeits: [usize; 2],
    /// Times each engine was started.
    pub starts: [u32; 2],
}

/// The stretches of a game the time report averages over, in each engine's own moves counted from its first
/// (after the opening): 1–10, 11–20, 21–40, 41 on.
pub const TIME_STRETCHES: [(usize, usize); 4] = [(1, 10), (11, 20), (21, 40), (41, usize::MAX)];

/// How an engine spent its clock over a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeUse {
    /// The mean time of its moves in each of [`TIME_STRETCHES`], over every game that reached it.
    pub per_move: [Option<Duration>; 4],
    /// The median over the games of the time it spent in a game.
    pub per_game: Duration,
}

/// The first engine's points so far in each pair of games not yet complete, by pair number.
pub type OpenPairs = HashMap<usize, (f64, u32)>;

impl Summary {
    /// The summary before any game: engines `names`, the SPRT `sprt` if one runs.
    pub fn new(names: [String; 2], sprt: Option<Sprt>) -> Summary {
        Summary {
            names,
            results: Results::default(),
            games: Vec::new(),
            sprt: sprt.map(|s| (s, 0.0, SprtDecision::Continue)),
            decided_at: None,
            forfeits: [0; 2],
            starts: [0; 2],
        }
    }

    /// Counts a finished game: its score, its pair once both games are in (`open` keeps the pairs under way),
    /// a forfeit, and the SPRT over games (or pairs, if `pentanomial`) until it decides; returns whether it
    /// decided with this game. A decided test stands: later games are counted in the results, not in the test.
    /// The game itself is not kept (push it onto `games`).
    pub fn count(&mut self, played: &Played, open: &mut OpenPairs, pentanomial: bool) -> bool {
        self.results.add_game(played.score);
        let pair = open.entry(played.job.pair).or_default();
        pair.0 += played.score;
        pair.1 += 1;
        if pair.1 == 2 {
            self.results.add_pair(pair.0);
            open.remove(&played.job.pair);
        }
        if let GameResult::Win(winner) = played.finished.result {
            if played.finished.reason.contains(" loses") {
                let loser_is_engine0 = winner != played.job.engine0_seat;
                self.forfeits[usize::from(!loser_is_engine0)] += 1;
            }
        }
        let undecided = self.decided_at.is_none();
        if let Some((sprt, llr, decision)) = self.sprt.as_mut().filter(|_| undecided) {
            *llr = if pentanomial { sprt.llr_pentanomial(&self.results) } else { sprt.llr_trinomial(&self.results) };
            *decision = sprt.decide(*llr);
            if *decision != SprtDecision::Continue {
                self.decided_at = Some(self.results.games());
                return true;
            }
        }
        false
    }

    /// How `engine` (0 or 1) spent its clock, if it made a move.
    pub fn time_use(&self, engine: usize) -> Option<TimeUse> {
        let mut sums = [(Duration::ZERO, 0u32); 4];
        let mut totals = Vec::new();
        for played in &self.games {
            let seat = if engine == 0 { played.job.engine0_seat } else { 1 - played.job.engine0_seat };
            let moves = &played.finished.spent[seat];
            if moves.is_empty() {
                continue;
            }
            for (i, &t) in moves.iter().enumerate() {
                let stretch = TIME_STRETCHES.iter().position(|&(from, to)| (from..=to).contains(&(i + 1)));
                let (sum, count) = &mut sums[stretch.expect("the stretches cover every move")];
                *sum += t;
                *count += 1;
            }
            totals.push(moves.iter().sum::<Duration>());
        }
        if totals.is_empty() {
            return None;
        }
        totals.sort();
        let mid = totals.len() / 2;
        let per_game = if totals.len() % 2 == 1 { totals[mid] } else { (totals[mid - 1] + totals[mid]) / 2 };
        Some(TimeUse { per_move: sums.map(|(sum, count)| (count > 0).then(|| sum / count)), per_game })
    }

    /// The live line: games, score, Elo with error, draw rate, LOS, and the LLR if an SPRT runs.
    pub fn live_line(&self, total: usize) -> String {
        let r = &self.results;
        let elo = r.elo().map_or("-".to_string(), |e| e.to_string());
        let mut line = format!(
            "games {}/{total}  score {}-{} (+{} ={} -{})  elo {elo}  draws {:.1}%  LOS {:.1}%",
            r.games(),
            r.points(),
            r.games() as f64 - r.points(),
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.draw_rate(),
            100.0 * r.los()
        );
        if let Some((sprt, llr, _)) = self.sprt {
            let (lower, upper) = sprt.bounds();
            line.push_str(&format!("  LLR {llr:.2} ({lower:.2}, {upper:.2})"));
        }
        line
    }
}

/// The final table.
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.results;
        let width = self.names.iter().map(String::len).max().unwrap_or(0).max(15);
        writeln!(
            f,
            "{:width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6}  {:>8}  {:>6}",
            "engine", "games", "wins", "draws", "losses", "score", "forfeits", "starts"
        )?;
        let rows = [(r.wins, r.losses), (r.losses, r.wins)];
        for (i, (wins, losses)) in rows.into_iter().enumerate() {
            let points = wins as f64 + r.draws as f64 / 2.0;
            writeln!(
                f,
                "{:width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6.1}  {:>8}  {:>6}",
                self.names[i],
                r.games(),
                wins,
                r.draws,
                losses,
                points,
                self.forfeits[i],
                self.starts[i]
            )?;
        }
        let uses = [self.time_use(0), self.time_use(1)];
        if uses.iter().any(Option::is_some) {
            writeln!(
                f,
                "{:width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>7}",
                "time a move (s)", "1-10", "11-20", "21-40", "41-", "a game"
            )?;
            for (name, time) in self.names.iter().zip(uses) {
                let Some(time) = time else { continue };
                let cell = |t: Option<Duration>| t.map_or("-".to_string(), |t| format!("{:.3}", t.as_secs_f64()));
                let [a, b, c, d] = time.per_move.map(cell);
                let game = time.per_game.as_secs_f64();
                writeln!(f, "{name:width$}  {a:>6}  {b:>6}  {c:>6}  {d:>6}  {game:>7.2}")?;
            }
        }
        match r.elo() {
            Some(elo) => writeln!(
                f,
                "elo of {} against {}: {elo}, LOS {:.1}%, draws {:.1}%",
                self.names[0],
                self.names[1],
                100.0 * r.los(),
                100.0 * r.draw_rate()
            )?,
            None => writeln!(f, "no games played")?,
        }
        if let Some((sprt, llr, decision)) = self.sprt {
            let (lower, upper) = sprt.bounds();
            writeln!(
                f,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lower:.2}, {upper:.2}): {}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                match (decision, self.decided_at) {
                    (SprtDecision::Continue, _) => "no decision".to_string(),
                    (d, Some(n)) if n < r.games() => format!("{d} after {n} games (the rest were under way)"),
                    (d, _) => d.to_string(),
                }
            )?;
        }
        Ok(())
    }
}

/// The engines' names in records and tables: the config's, else the command lines, numbered when equal.
pub fn engine_names(config: &MatchConfig) -> [String; 2] {
    config.names.clone().unwrap_or_else(|| default_names(&config.engines))
}

/// Names from the command lines: the commands themselves, numbered when equal.
fn default_names(engines: &[String; 2]) -> [String; 2] {
    if engines[0] == engines[1] {
        [format!("{} #1", engines[0]), format!("{} #2", engines[1])]
    } else {
        engines.clone()
    }
}

/// Plays a match of `game` over `openings` (the game's default opening if empty), writing each record to
/// `records` and the live line to `live` after each game; returns the summary (whose `Display` is the
/// final table).
///
/// # Errors
///
/// [`MatchError::Engine`] when an engine command is malformed, cannot start at all or fails the game's
/// handshake with its options (later failures lose games instead), [`MatchError::Io`] when the output
/// cannot be written.
pub fn run<G: MatchGame>(
    game: &G,
    openings: Vec<G::Opening>,
    config: &MatchConfig,
    records: &mut dyn Write,
    live: &mut dyn Write,
) -> Result<Summary, MatchError> {
    let openings = if openings.is_empty() { vec![game.default_opening()] } else { openings };
    let mut commands = Vec::new();
    for (i, line) in config.engines.iter().enumerate() {
        let engine_error = |error| MatchError::Engine { index: i + 1, error };
        let command = split_command(line).map_err(engine_error)?;
        // Fail early, with the engine named, when the program cannot start or refuses its options.
        let mut process = Process::spawn(&command).map_err(engine_error)?;
        game.handshake(&mut process, &config.options[i]).map_err(engine_error)?;
        drop(process);
        commands.push(command);
    }
    let names = engine_names(config);
    let mut jobs = pair_schedule(openings.len(), config.rounds.max(1), config.games, config.shuffle);
    if let Some(pairs) = &config.pairs {
        jobs.retain(|job| pairs.contains(&job.pair));
    }
    let total = jobs.len();
    if total == 0 {
        return Err(MatchError::NoOpenings);
    }
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>());
    let stop = AtomicBool::new(false);
    let date = today();
    let mut summary = Summary::new(names.clone(), config.sprt);
    // A game goes to the counting thread with a way to say it was counted: its worker waits for that before
    // taking the next game, so that a test that decides stops the workers before games they would otherwise
    // start in between (one process at concurrency 1 then plays exactly the games up to the decision, as a
    // merge of shards counts them).
    let (sender, finished) = mpsc::channel::<Result<(Played, mpsc::Sender<()>), [u32; 2]>>();
    let mut output: Result<(), MatchError> = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, total) {
            let sender = sender.clone();
            let (queue, stop, openings, commands, names, date) = (&queue, &stop, &openings, &commands, &names, &date);
            scope.spawn(move || {
                let (counted, was_counted) = mpsc::channel::<()>();
                let mut players = [0, 1].map(|i| {
                    Player::new(names[i].clone(), commands[i].clone()).with_options(config.options[i].clone())
                });
                loop {
                    if stop.load(Relaxed) {
                        break;
                    }
                    let Some(job) = queue.lock().map(|mut q| q.pop_front()).unwrap_or(None) else { break };
                    let seat0 = if job.engine0_seat == 0 { 0 } else { 1 };
                    let info = GameInfo {
                        names: [names[seat0].clone(), names[1 - seat0].clone()],
                        round: job.game + 1,
                        tc: [config.tc[seat0], config.tc[1 - seat0]],
                        max_moves: config.max_moves,
                        date: date.clone(),
                    };
                    let [a, b] = &mut players;
                    let seated = if seat0 == 0 { [a, b] } else { [b, a] };
                    let finished = game.play(seated, &openings[job.opening], &info);
                    let score = match finished.result {
                        GameResult::Draw => 0.5,
                        GameResult::Win(seat) if seat == job.engine0_seat => 1.0,
                        GameResult::Win(_) => 0.0,
                    };
                    if sender.send(Ok((Played { job, score, finished }, counted.clone()))).is_err()
                        || was_counted.recv().is_err()
                    {
                        break;
                    }
                }
                let _ = sender.send(Err([players[0].starts, players[1].starts]));
            });
        }
        drop(sender);
        let mut open = OpenPairs::new();
        for message in finished {
            let (played, counted) = match message {
                Ok(message) => message,
                Err(starts) => {
                    summary.starts[0] += starts[0];
                    summary.starts[1] += starts[1];
                    continue;
                }
            };
            if summary.count(&played, &mut open, config.pentanomial) {
                stop.store(true, Relaxed);
            }
            if output.is_ok() {
                // Flushed game by game, so that a match cut short keeps every finished game.
                output = records
                    .write_all(played.finished.record.as_bytes())
                    .and_then(|()| records.flush())
                    .and_then(|()| writeln!(live, "{}", summary.live_line(total)))
                    .map_err(MatchError::from);
                if output.is_err() {
                    stop.store(true, Relaxed);
                }
            }
            summary.games.push(played);
            let _ = counted.send(());
        }
    });
    output?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// A drawn game with `engine0_seat` and each seat's move times.
    fn played(engine0_seat: usize, spent: [Vec<Duration>; 2]) -> Played {
        let job = Job { game: 0, pair: 0, opening: 0, engine0_seat };
        let finished = Finished { result: GameResult::Draw, reason: "draw".into(), record: String::new(), spent };
        Played { job, score: 0.5, finished }
    }

    #[test]
    fn time_use_follows_each_engine_through_its_seats() {
        let summary = Summary {
            names: ["a".into(), "b".into()],
            results: Results::default(),
            games: vec![
                // Engine 0 moves first: 12 moves of 100 ms against 12 of 300 ms.
                played(0, [vec![ms(100); 12], vec![ms(300); 12]]),
                // Engine 0 second: 45 moves of 200 ms against 45 of 50 ms; then a third game of one move each.
                played(1, [vec![ms(50); 45], vec![ms(200); 45]]),
                played(0, [vec![ms(400)], vec![ms(10)]]),
            ],
            sprt: None,
            decided_at: None,
            forfeits: [0; 2],
            starts: [0; 2],
        };
        let a = summary.time_use(0).unwrap();
        // Moves 1-10: ten of 100, ten of 200 and one of 400 ms.
        assert_eq!(a.per_move[0], Some((ms(1000) + ms(2000) + ms(400)) / 21));
        // Moves 11-20: two of 100 and ten of 200 ms; 21-40 and 41 on from the long game alone.
        assert_eq!(a.per_move[1], Some((ms(200) + ms(2000)) / 12));
        assert_eq!((a.per_move[2], a.per_move[3]), (Some(ms(200)), Some(ms(200))));
        // Game totals 1.2 s, 9 s and 0.4 s: the median is 1.2 s.
        assert_eq!(a.per_game, ms(1200));
        let b = summary.time_use(1).unwrap();
        assert_eq!(b.per_move[3], Some(ms(50)));
        assert_eq!(b.per_game, ms(2250));
        let table = summary.to_string();
        assert!(table.contains("time a move (s)"), "{table}");
        assert!(table.lines().any(|l| l.starts_with('a') && l.ends_with("1.20")), "{table}");
        // Without a move, no report.
        let empty = Summary { games: vec![played(0, [vec![], vec![]])], ..summary };
        assert_eq!(empty.time_use(0), None);
        assert!(!empty.to_string().contains("time a move"));
    }
}
