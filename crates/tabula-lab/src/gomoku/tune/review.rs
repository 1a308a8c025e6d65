//! `review`: one player's moves in the games of a `tabula match` record, valued by an outside engine before
//! and after each, to find where games are lost:
//!
//! ```text
//! gomoku tune review GAMES --player NAME --engine CMD [--ms MS] [--opening N] [--lost] [--rule R] [--threads N]
//! ```
//!
//! `GAMES` is a record as `tabula match -o` writes it for Gomoku (15×15; see [`records`](super::records)). At
//! each move of `--player` after the opening's `--opening` stones (4), the outside engine (a Gomocup
//! command, `--ms` milliseconds a position, 1,000 by default; see [`gomocup`](super::gomocup)) is asked for the
//! position before the move (its value for the player and its own choice) and after it (its value for the
//! opponent). Standard output gets a line per move with the change, marking a forced win let go and a move
//! into a forced loss, and a summary by colour. A game is followed until the player's position is a forced
//! loss. Games are reviewed on `--threads` (1) engines at once, each game's lines printed together.

use super::gomocup::{GomocupEngine, MATE_VALUE};
use super::records::{Record, Selection};
use anyhow::{bail, Context};
use std::sync::atomic::AtomicUsize;
use std::sync::Mutex;
use tabula::tune::{next_block, on_threads};
use tabula_gomoku::Board;

/// What `review` looks at and how.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    selection: Selection,
    /// The reviewing engine's command line.
    #[arg(long)]
    engine: String,
    /// Milliseconds a position.
    #[arg(long, default_value_t = 1000)]
    ms: u64,
    /// Engines run at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// What the review of one game found.
#[derive(Default)]
struct Findings {
    /// The player's seat: 0 black, 1 white.
    seat: usize,
    moves: usize,
    /// The player's value before its first reviewed move.
    start: Option<i32>,
    /// The changes of the moves whose values are both short of a forced result.
    changes: Vec<i32>,
    /// Moves that let a forced win go where the outside engine chose another move.
    wins_let_go: usize,
    /// Moves into a forced loss where the outside engine chose another move, and the first of them.
    into_loss: usize,
    first_into_loss: Option<usize>,
}

/// `review`: the player's moves in each game, valued by an outside engine before and after.
pub fn run(options: &Args) -> anyhow::Result<()> {
    let games = options.selection.read()?;
    let next = AtomicUsize::new(0);
    let all = Mutex::new(Vec::new());
    on_threads(options.threads, || -> anyhow::Result<()> {
        let mut judge = GomocupEngine::start(&options.engine, options.ms, options.selection.rule)?;
        while let Some((_, block)) = next_block(&games, &next, 1) {
            let (record, seat) = &block[0];
            let (report, findings) = review_game(&mut judge, record, *seat, &options.selection)?;
            print!("{report}");
            all.lock().expect("no panic while held").push(findings);
        }
        Ok(())
    })?;
    let all = all.into_inner().expect("no panic while held");
    for (seat, colour) in ["black", "white"].iter().enumerate() {
        let of: Vec<&Findings> = all.iter().filter(|f| f.seat == seat).collect();
        if !of.is_empty() {
            println!("as {colour}: {}", summary(&of));
        }
    }
    Ok(())
}

/// One line on the findings of several games.
fn summary(games: &[&Findings]) -> String {
    let median = |mut v: Vec<i32>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    };
    let starts: Vec<i32> = games.iter().filter_map(|f| f.start).collect();
    let changes: Vec<i32> = games.iter().flat_map(|f| f.changes.iter().copied()).collect();
    let firsts: Vec<i32> = games.iter().filter_map(|f| f.first_into_loss).map(|p| p as i32).collect();
    let mean_change = changes.iter().map(|&x| f64::from(x)).sum::<f64>() / changes.len().max(1) as f64;
    format!(
        "{} games, {} moves; the value at the first move {:+} (median); a move's change {:+.0} (mean of the {} \
         short of a forced result); {} forced wins let go, in {} games; {} moves into a forced loss, in {} games{}",
        games.len(),
        games.iter().map(|f| f.moves).sum::<usize>(),
        median(starts),
        mean_change,
        changes.len(),
        games.iter().map(|f| f.wins_let_go).sum::<usize>(),
        games.iter().filter(|f| f.wins_let_go > 0).count(),
        games.iter().map(|f| f.into_loss).sum::<usize>(),
        firsts.len(),
        if firsts.is_empty() { String::new() } else { format!(" (the first at move {}, median)", median(firsts)) },
    )
}

/// One game's review, as text, and what it found. A forced win let go or a forced loss entered by the move
/// the outside engine chose as well is marked but not counted: its own search had not seen it yet.
fn review_game(
    judge: &mut GomocupEngine,
    record: &Record,
    seat: usize,
    selection: &Selection,
) -> anyhow::Result<(String, Findings)> {
    let (opening, rule) = (selection.opening, selection.rule);
    let board = Board::from_moves(15, 15, rule, &record.moves)
        .with_context(|| format!("{}: the moves are not a {rule} game", record.at))?;
    let moves = board.moves().to_vec();
    let colour = ["black", "white"][seat];
    let mut report = format!("# Round {}: {} as {colour}, {}\n", record.round, record.names[seat], record.result);
    let mut findings = Findings { seat, ..Findings::default() };
    let mut position = Board::new(15, 15, rule)?;
    for (ply, &played) in moves.iter().enumerate() {
        let reviewed = ply >= opening && ply % 2 == seat && ply + 1 < moves.len();
        let asked = |judge: &mut GomocupEngine, position: &Board, ply: usize| {
            judge.ask(position).with_context(|| format!("{}: ply {}", record.at, ply + 1))
        };
        let before = if reviewed { Some(asked(judge, &position, ply)?) } else { None };
        position.play(played)?;
        let Some((best, before)) = before else { continue };
        let (_, after) = asked(judge, &position, ply + 1)?;
        let (Some(before), Some(after)) = (before, after.map(|v| -v)) else {
            bail!("{}: the engine reports no value (`MESSAGE ... Eval V`)", record.at);
        };
        findings.moves += 1;
        findings.start.get_or_insert(before);
        let own = best == played;
        let event = if before == MATE_VALUE && after < MATE_VALUE {
            findings.wins_let_go += usize::from(!own);
            Some("a forced win let go")
        } else if before > -MATE_VALUE && after == -MATE_VALUE {
            if !own {
                findings.into_loss += 1;
                findings.first_into_loss.get_or_insert(ply + 1);
            }
            Some("into a forced loss")
        } else {
            if before.abs() < MATE_VALUE && after.abs() < MATE_VALUE {
                findings.changes.push(after - before);
            }
            None
        };
        let note = match event {
            Some(event) if own => format!("  {event}, by its choice too"),
            Some(event) => format!("  {event}"),
            None => String::new(),
        };
        let (p, b) = (board.format_point(played), board.format_point(best));
        report += &format!("{:>4} {p:<4} {before:>6} -> {after:>6}  (its choice {b}){note}\n", ply + 1);
        if before == -MATE_VALUE {
            break;
        }
    }
    Ok((report, findings))
}
