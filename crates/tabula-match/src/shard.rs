//! A match in shards: each shard plays a range of the schedule's pairs, and the merge of their results gives the
//! table one process playing the same games prints.
//!
//! The schedule ([`pair_schedule`](crate::runner::pair_schedule)) is the whole match's, drawn from the match's
//! seed; shard `K/N` plays the pairs `P·K/N .. P·(K+1)/N` of it ([`MatchConfig::pairs`](crate::MatchConfig)),
//! game numbers, openings and seats as one process would play them, and plays them all: the SPRT is the
//! merge's to decide. With engines that play the same move in the same position whatever they played before
//! (a fixed node count, one thread, the table cleared between games), a game is the same in a shard as in one
//! process.
//!
//! A shard's **body** ([`MatchShard::body`]) is text, version 1:
//!
//! ```text
//! tabula-match-shard 1
//! game chess
//! engine1 tabula uci
//! engine2 ./half-nodes
//! games 800                                   (the whole match's)
//! pairs 40..60                                (this shard's)
//! sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 pentanomial     (or `sprt none`)
//! results wins 9 draws 22 losses 9 pairs 1 4 11 3 1 forfeits 0 0
//! game 80 pair 40 opening 40 seat 0 result win0 reason 9 record 1234
//! <the reason, 9 bytes><the record, 1,234 bytes>
//! game 81 ...
//! ```
//!
//! `seat` is engine 1's seat (0: it moves first), `result` is `win0`, `win1` (by seat) or `draw`; the reason and
//! the record (PGN, SGF or the Gomocup move list, as the referee wrote it) follow their line, their lengths in
//! bytes given. `results` are the shard's W/D/L, pentanomial pair counts and forfeits, checked against its games.
//! The **measured** part holds each engine's starts (`starts 1 1`) and the time report, each move's time in
//! microseconds by seat (`spent 80 412000,380511 / 401230`).
//!
//! [`merge`] counts the games in schedule order, from the first game up to the first one missing, as one
//! process counts them after each game (with one game at a time); an SPRT that decides stops the count there,
//! and the games landed after it are named, not counted. So every merged table is one process's table of the
//! same games, with the same verdict, counts and records; only the engines' start counts (one pair of processes
//! a shard) and the clocks' readings differ.
//!
//! # Examples
//!
//! ```
//! use tabula_match::shard::{merge, MatchShard};
//!
//! // Two shards of a match of four games, as bodies read back.
//! let body = |pairs: &str, games: &str| {
//!     format!("tabula-match-shard 1\ngame chess\nengine1 a\nengine2 b\ngames 4\npairs {pairs}\nsprt none\n{games}")
//! };
//! let game = |n: usize, result: &str| format!("game {n} pair {} opening 0 seat {} result {result} reason 1 record 0\nx", n / 2, n % 2);
//! let first = body("0..1", &(game(0, "win0") + &game(1, "draw")));
//! let second = body("1..2", &(game(2, "win1") + &game(3, "win1")));
//! let results = |b: &str, w, d, l, p: &str| b.replacen("sprt none\n", &format!("sprt none\nresults wins {w} draws {d} losses {l} pairs {p} forfeits 0 0\n"), 1);
//! let shards = [
//!     MatchShard::parse(&results(&first, 1, 1, 0, "0 0 0 1 0"), "starts 1 1\n").unwrap(),
//!     MatchShard::parse(&results(&second, 1, 0, 1, "0 0 1 0 0"), "starts 1 1\n").unwrap(),
//! ];
//! let merged = merge(shards).unwrap();
//! assert_eq!((merged.summary.results.wins, merged.summary.results.draws, merged.summary.results.losses), (2, 1, 1));
//! assert_eq!(merged.summary.results.pairs, [0, 0, 1, 1, 0]);
//! assert_eq!(merged.summary.starts, [2, 2]);
//! ```

use crate::runner::{Job, OpenPairs, Played, Summary};
use crate::stats::{Results, Sprt};
use crate::{Finished, GameResult};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::time::Duration;

/// The kind's name in result files and job files.
pub const KIND: &str = "match";

/// The body's first line.
pub const FORMAT: &str = "tabula-match-shard 1";

/// A shard of a match: what it played and how the whole match is set.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchShard {
    /// The game (`chess`, `xiangqi`, `go`, `gomoku`).
    pub game: String,
    /// The engines' names.
    pub names: [String; 2],
    /// Games in the whole match.
    pub games: usize,
    /// The pairs this shard plays.
    pub pairs: Range<usize>,
    /// The match's SPRT, if any, and whether it counts pairs.
    pub sprt: Option<(Sprt, bool)>,
    /// The games it played, in game order.
    pub played: Vec<Played>,
    /// Times each engine was started.
    pub starts: [u32; 2],
}

/// A shard body or measured part that cannot be read, or shards that do not belong together.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ShardError(pub String);

fn error(message: impl Into<String>) -> ShardError {
    ShardError(message.into())
}

/// Engine 1's score in a game that ended `result` with engine 1 in `seat`.
fn score(result: GameResult, seat: usize) -> f64 {
    match result {
        GameResult::Draw => 0.5,
        GameResult::Win(s) if s == seat => 1.0,
        GameResult::Win(_) => 0.0,
    }
}

fn sprt_text(sprt: &Option<(Sprt, bool)>) -> String {
    match sprt {
        None => "none".to_string(),
        Some((s, pentanomial)) => format!(
            "elo0={} elo1={} alpha={} beta={} {}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            if *pentanomial { "pentanomial" } else { "trinomial" }
        ),
    }
}

fn results_text(results: &Results, forfeits: [usize; 2]) -> String {
    let p = results.pairs;
    format!(
        "wins {} draws {} losses {} pairs {} {} {} {} {} forfeits {} {}",
        results.wins, results.draws, results.losses, p[0], p[1], p[2], p[3], p[4], forfeits[0], forfeits[1]
    )
}

/// The W/D/L, pairs and forfeits of `played`, counted as the runner counts them.
fn tally(played: &[Played]) -> Summary {
    let mut summary = Summary::new([String::new(), String::new()], None);
    let mut open = OpenPairs::new();
    for game in played {
        summary.count(game, &mut open, false);
    }
    summary
}

impl MatchShard {
    /// The shard of a match of `games` games (of `game`) that played `pairs` and ended as `summary`.
    pub fn new(
        game: &str,
        games: usize,
        pairs: Range<usize>,
        sprt: Option<(Sprt, bool)>,
        summary: Summary,
    ) -> MatchShard {
        let mut played = summary.games;
        played.sort_by_key(|p| p.job.game);
        MatchShard { game: game.to_string(), names: summary.names, games, pairs, sprt, played, starts: summary.starts }
    }

    /// The body: the same bits whenever the shard's games are the same.
    pub fn body(&self) -> String {
        let tally = tally(&self.played);
        let mut text = format!(
            "{FORMAT}\ngame {}\nengine1 {}\nengine2 {}\ngames {}\npairs {}..{}\nsprt {}\nresults {}\n",
            self.game,
            self.names[0],
            self.names[1],
            self.games,
            self.pairs.start,
            self.pairs.end,
            sprt_text(&self.sprt),
            results_text(&tally.results, tally.forfeits)
        );
        for p in &self.played {
            let result = match p.finished.result {
                GameResult::Win(seat) => format!("win{seat}"),
                GameResult::Draw => "draw".to_string(),
            };
            text.push_str(&format!(
                "game {} pair {} opening {} seat {} result {result} reason {} record {}\n{}{}",
                p.job.game,
                p.job.pair,
                p.job.opening,
                p.job.engine0_seat,
                p.finished.reason.len(),
                p.finished.record.len(),
                p.finished.reason,
                p.finished.record
            ));
        }
        text
    }

    /// The measured part: the engines' starts and each move's time.
    pub fn measured(&self) -> String {
        let mut text = format!("starts {} {}\n", self.starts[0], self.starts[1]);
        for p in &self.played {
            let times = |seat: usize| {
                let spent = &p.finished.spent[seat];
                if spent.is_empty() {
                    "-".to_string()
                } else {
                    spent.iter().map(|d| d.as_micros().to_string()).collect::<Vec<_>>().join(",")
                }
            };
            text.push_str(&format!("spent {} {} / {}\n", p.job.game, times(0), times(1)));
        }
        text
    }

    /// Reads a shard's body and measured part.
    ///
    /// # Errors
    ///
    /// [`ShardError`] saying what is wrong: a line of another form, a count that disagrees with the games.
    pub fn parse(body: &str, measured: &str) -> Result<MatchShard, ShardError> {
        let mut body = Cursor { rest: body };
        if body.line("its format line")? != FORMAT {
            return Err(error(format!("the body does not start with `{FORMAT}`")));
        }
        let game = body.field("game")?.to_string();
        let names = [body.field("engine1")?.to_string(), body.field("engine2")?.to_string()];
        let games = number(body.field("games")?, "game count")?;
        let pairs_text = body.field("pairs")?;
        let (a, b) = pairs_text.split_once("..").ok_or_else(|| error(format!("bad pairs `{pairs_text}`")))?;
        let pairs = number(a, "pair")?..number(b, "pair")?;
        let sprt = match body.field("sprt")? {
            "none" => None,
            text => {
                let (params, kind) = text.rsplit_once(' ').ok_or_else(|| error(format!("bad sprt `{text}`")))?;
                let sprt = Sprt::parse([params]).map_err(|e| error(e.to_string()))?;
                Some((sprt, kind == "pentanomial"))
            }
        };
        let results = body.field("results")?.to_string();
        let mut played = Vec::new();
        while !body.rest.is_empty() {
            played.push(body.game(&pairs)?);
        }
        if played.windows(2).any(|w| w[0].job.game >= w[1].job.game) {
            return Err(error("the games are not in order"));
        }
        let tally = tally(&played);
        if results != results_text(&tally.results, tally.forfeits) {
            return Err(error(format!("the results line `{results}` does not match the games")));
        }
        let mut shard = MatchShard { game, names, games, pairs, sprt, played, starts: [0; 2] };
        shard.read_measured(measured)?;
        Ok(shard)
    }

    fn read_measured(&mut self, measured: &str) -> Result<(), ShardError> {
        let by_game: BTreeMap<usize, usize> = self.played.iter().enumerate().map(|(i, p)| (p.job.game, i)).collect();
        for line in measured.lines() {
            let bad = || error(format!("bad measured line `{line}`"));
            if let Some(rest) = line.strip_prefix("starts ") {
                let (a, b) = rest.split_once(' ').ok_or_else(bad)?;
                self.starts = [a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?];
            } else if let Some(rest) = line.strip_prefix("spent ") {
                let (game, times) = rest.split_once(' ').ok_or_else(bad)?;
                let index = game.parse().ok().and_then(|g: usize| by_game.get(&g).copied()).ok_or_else(bad)?;
                let (first, second) = times.split_once(" / ").ok_or_else(bad)?;
                let read = |list: &str| -> Result<Vec<Duration>, ShardError> {
                    if list == "-" {
                        return Ok(Vec::new());
                    }
                    list.split(',').map(|t| t.parse().map(Duration::from_micros).map_err(|_| bad())).collect()
                };
                self.played[index].finished.spent = [read(first)?, read(second)?];
            }
        }
        Ok(())
    }
}

fn number(text: &str, what: &str) -> Result<usize, ShardError> {
    text.parse::<usize>().map_err(|_| error(format!("bad {what} `{text}`")))
}

/// A shard body, read from the front.
struct Cursor<'a> {
    rest: &'a str,
}

impl<'a> Cursor<'a> {
    fn line(&mut self, what: &str) -> Result<&'a str, ShardError> {
        let (line, after) = self.rest.split_once('\n').ok_or_else(|| error(format!("the body ends before {what}")))?;
        self.rest = after;
        Ok(line)
    }

    /// The value of the next line, which must be `key VALUE`.
    fn field(&mut self, key: &str) -> Result<&'a str, ShardError> {
        let text = self.line(key)?;
        text.strip_prefix(key)
            .and_then(|v| v.strip_prefix(' '))
            .ok_or_else(|| error(format!("expected `{key} ...`, found `{text}`")))
    }

    fn take(&mut self, n: usize, game: &str) -> Result<String, ShardError> {
        let text = self.rest.get(..n).ok_or_else(|| error(format!("game {game}'s text is cut short")))?;
        self.rest = &self.rest[n..];
        Ok(text.to_string())
    }

    /// A game: its line, its reason and its record.
    fn game(&mut self, pairs: &Range<usize>) -> Result<Played, ShardError> {
        let header = self.line("a game")?;
        let words: Vec<&str> = header.split(' ').collect();
        let ["game", g, "pair", pair, "opening", opening, "seat", seat, "result", result, "reason", reason, "record", record] =
            words[..]
        else {
            return Err(error(format!("expected a `game ...` line, found `{header}`")));
        };
        let result = match result {
            "win0" => GameResult::Win(0),
            "win1" => GameResult::Win(1),
            "draw" => GameResult::Draw,
            other => return Err(error(format!("bad result `{other}` of game {g}"))),
        };
        let (reason, record) = (self.take(number(reason, "length")?, g)?, self.take(number(record, "length")?, g)?);
        let job = Job {
            game: number(g, "game")?,
            pair: number(pair, "pair")?,
            opening: number(opening, "opening")?,
            engine0_seat: number(seat, "seat")?,
        };
        if job.engine0_seat > 1 || !pairs.contains(&job.pair) {
            return Err(error(format!(
                "game {} is not of this shard's pairs {}..{}",
                job.game, pairs.start, pairs.end
            )));
        }
        let finished = Finished { result, reason, record, spent: [Vec::new(), Vec::new()] };
        Ok(Played { job, score: score(result, job.engine0_seat), finished })
    }
}

/// Shards merged: the summary of the games counted, and what was left out.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The game.
    pub game: String,
    /// The table of the games counted, as one process prints it (`Display`); `games` in game order.
    pub summary: Summary,
    /// Games in the whole match.
    pub total: usize,
    /// Games landed (counted or not).
    pub landed: usize,
    /// Games landed after the SPRT decided, not counted.
    pub past_decision: usize,
    /// Games landed after a game still missing, not counted yet.
    pub waiting: usize,
    /// Whether the SPRT counts pairs.
    pub pentanomial: bool,
}

impl Merged {
    /// The records of the games counted, in game order.
    pub fn records(&self) -> String {
        self.summary.games.iter().map(|p| p.finished.record.as_str()).collect()
    }

    /// The progress line: games counted of the match, score, Elo, draws, LOS and the LLR.
    pub fn live_line(&self) -> String {
        self.summary.live_line(self.total)
    }
}

/// The table, then what was not counted.
impl fmt::Display for Merged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.summary)?;
        let counted = self.summary.results.games();
        writeln!(f, "games counted {counted} of {}, in order from the first; landed {}", self.total, self.landed)?;
        if self.past_decision > 0 {
            writeln!(f, "{} games landed after the SPRT decided, not counted", self.past_decision)?;
        }
        if self.waiting > 0 {
            writeln!(f, "{} games wait for the games before them", self.waiting)?;
        }
        Ok(())
    }
}

/// Merges shards of one match (any set, in any order): counts their games in game order up to the first game
/// missing, stopping where the SPRT decides.
///
/// # Errors
///
/// [`ShardError`] when the shards are of different matches (game, engines, length, SPRT) or two hold the
/// same game.
pub fn merge(shards: impl IntoIterator<Item = MatchShard>) -> Result<Merged, ShardError> {
    let mut shards = shards.into_iter();
    let first = shards.next().ok_or_else(|| error("no shard to merge"))?;
    let key = |s: &MatchShard| (s.game.clone(), s.names.clone(), s.games, sprt_text(&s.sprt));
    let expected = key(&first);
    let (sprt, pentanomial) = first.sprt.map_or((None, false), |(s, p)| (Some(s), p));
    let mut summary = Summary::new(first.names.clone(), sprt);
    let mut games = BTreeMap::new();
    let mut landed = 0;
    for shard in std::iter::once(first).chain(shards) {
        if key(&shard) != expected {
            return Err(error(format!(
                "the shard of pairs {}..{} is of another match ({} {:?}, {} games, SPRT {}) than the first ({} {:?}, {} \
                 games, SPRT {})",
                shard.pairs.start,
                shard.pairs.end,
                shard.game,
                shard.names,
                shard.games,
                sprt_text(&shard.sprt),
                expected.0,
                expected.1,
                expected.2,
                expected.3
            )));
        }
        summary.starts[0] += shard.starts[0];
        summary.starts[1] += shard.starts[1];
        for played in shard.played {
            landed += 1;
            let game = played.job.game;
            if games.insert(game, played).is_some() {
                return Err(error(format!("game {game} is in two shards")));
            }
        }
    }
    let mut open = OpenPairs::new();
    let mut past_decision = 0;
    for (next, (game, played)) in games.into_iter().enumerate() {
        if game != next {
            break;
        }
        if summary.decided_at.is_some() {
            past_decision += 1;
            continue;
        }
        summary.count(&played, &mut open, pentanomial);
        summary.games.push(played);
    }
    let counted = summary.games.len();
    Ok(Merged {
        game: expected.0,
        summary,
        total: expected.2,
        landed,
        past_decision,
        waiting: landed - counted - past_decision,
        pentanomial,
    })
}

/// The file extension of a game's records: `pgn` for chess and xiangqi, `sgf` for Go, `txt` for Gomoku's move
/// lists.
pub fn record_extension(game: &str) -> &'static str {
    match game {
        "go" => "sgf",
        "gomoku" => "txt",
        _ => "pgn",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::pair_schedule;

    /// A match of `pairs` pairs where engine 1 wins every game it starts and draws the others, played as the
    /// shards `split` says.
    fn shards(pairs: usize, split: usize, sprt: Option<(Sprt, bool)>) -> Vec<MatchShard> {
        let jobs = pair_schedule(pairs, 1, None, None);
        (0..split)
            .map(|k| {
                let range = pairs * k / split..pairs * (k + 1) / split;
                let mut summary = Summary::new(["a".into(), "b".into()], None);
                for job in jobs.iter().filter(|j| range.contains(&j.pair)) {
                    let result = if job.engine0_seat == 0 { GameResult::Win(0) } else { GameResult::Draw };
                    let record = format!("[Round \"{}\"]\n\n1. e4 {{0.{:03}s}} *\n\n", job.game + 1, job.game);
                    let spent = [vec![Duration::from_micros(1000 + job.game as u64)], vec![]];
                    let finished = Finished { result, reason: "checkmate".into(), record, spent };
                    summary.games.push(Played { job: *job, score: score(result, job.engine0_seat), finished });
                }
                summary.starts = [1, 1];
                // Finishing order is not game order in a shard that plays games at once.
                summary.games.reverse();
                MatchShard::new("chess", 2 * pairs, range, sprt, summary)
            })
            .collect()
    }

    fn read_back(shard: &MatchShard) -> MatchShard {
        MatchShard::parse(&shard.body(), &shard.measured()).unwrap()
    }

    #[test]
    fn a_shard_reads_back_as_written() {
        for shard in shards(6, 3, None) {
            let again = read_back(&shard);
            assert_eq!(again, shard);
            assert_eq!(again.body(), shard.body());
        }
    }

    #[test]
    fn merged_shards_count_as_one_process_in_any_order() {
        let whole = merge(shards(8, 1, None)).unwrap();
        let mut parts = shards(8, 4, None);
        parts.reverse();
        let merged = merge(parts.iter().map(read_back)).unwrap();
        assert_eq!(merged.summary.results, whole.summary.results);
        assert_eq!(merged.summary.results.pairs, [0, 0, 0, 8, 0]);
        assert_eq!(merged.records(), whole.records());
        assert_eq!(merged.summary.starts, [4, 4]);
        assert_eq!(merged.summary.time_use(0), whole.summary.time_use(0));
        // A gap: the games after it wait.
        let gap = merge(shards(8, 4, None).into_iter().filter(|s| s.pairs.start != 2)).unwrap();
        assert_eq!((gap.summary.results.games(), gap.waiting, gap.landed), (4, 8, 12));
        assert!(gap.to_string().contains("8 games wait for the games before them"));
    }

    #[test]
    fn the_sprt_stops_the_count_where_it_decides() {
        let sprt = Some((Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap(), false));
        let merged = merge(shards(40, 8, sprt)).unwrap();
        let decided = merged.summary.decided_at.expect("a lopsided match decides");
        assert_eq!(merged.summary.results.games(), decided);
        assert_eq!(merged.past_decision, 80 - decided as usize);
        assert!(merged.to_string().contains("H1 accepted\n"), "{merged}");
    }

    #[test]
    fn shards_of_other_matches_and_damaged_bodies_are_refused() {
        let mut parts = shards(4, 2, None);
        parts[1].names[1] = "c".into();
        let err = merge(parts).unwrap_err().to_string();
        assert!(err.contains("is of another match"), "{err}");
        let shard = &shards(4, 2, None)[0];
        let body = shard.body();
        let err = MatchShard::parse(&body.replace("result win0", "result win1"), "").unwrap_err();
        assert!(err.to_string().contains("does not match the games"), "{err}");
        let err = MatchShard::parse(&body[..body.len() - 3], "").unwrap_err();
        assert!(err.to_string().contains("cut short"), "{err}");
        let err = MatchShard::parse(&body, "spent 99 1 / 2\n").unwrap_err();
        assert!(err.to_string().contains("bad measured line"), "{err}");
    }
}
