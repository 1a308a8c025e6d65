//! The terminal's commands, written once over [`Front`] and [`Solve`]: play a game, analyze a position, solve
//! positions read one per line, count the move tree. Every game gets each command by implementing the traits;
//! the `tabula` command only maps its arguments onto these functions.
//!
//! Input comes through the [`LineReader`], so a bad byte typed or piped in is reported and reading goes on;
//! output goes to any writer, which is how the tests watch a whole game.

use crate::front::{Charset, Front, Report, Solve, Think};
use crate::lines::LineReader;
use std::io::{self, BufRead, Read, Write};
use std::time::Instant;
use tabula::perft::PerftTable;
use tabula::search::Limits;

/// Who plays a side in [`play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Moves typed at the terminal.
    Human,
    /// The engine.
    Engine,
}

/// One line of an engine's progress: depth, score, work, speed, table use and the principal variation.
pub fn progress_line<G: Front>(game: &G, report: &Report<G::Move>) -> String {
    let mut line = String::new();
    if let Some(depth) = report.depth {
        line += &format!("depth {depth:>2} ");
    }
    if let Some(sel) = report.seldepth {
        line += &format!("seldepth {sel:>2} ");
    }
    line += &format!(
        "score {:<14} {} {:>11} per s {:>10.0} time {:>7.3}s pv {}",
        report.score,
        report.unit,
        report.nodes,
        report.speed(),
        report.elapsed.as_secs_f64(),
        game.line_text(&report.pv)
    );
    line
}

/// The full account of a search, one fact per line.
pub fn summary<G: Front>(game: &G, report: &Report<G::Move>) -> Vec<String> {
    let best = report.best.map(|m| game.move_text(m)).unwrap_or_else(|| "-".into());
    let mut lines = vec![format!("best move  {best}"), format!("score      {}", report.score)];
    match (report.depth, report.seldepth) {
        (Some(d), Some(s)) => lines.push(format!("depth      {d} (seldepth {s})")),
        (Some(d), None) => lines.push(format!("depth      {d}")),
        _ => {}
    }
    lines.push(format!("pv         {}", game.line_text(&report.pv)));
    lines.push(format!("{:<10} {}", report.unit, report.nodes));
    if let Some(t) = report.table {
        lines.push(format!("table hits {:.1}% of {} probes, {} cutoffs", 100.0 * t.hit_rate(), t.probes, t.cutoffs));
    }
    lines.push(format!("time       {:.3}s", report.elapsed.as_secs_f64()));
    lines.extend(report.notes.iter().cloned());
    lines
}

/// Writes the board drawn with `charset` and, if the game is over, its result; says whether it is.
fn board_and_result<G: Front>(game: &G, charset: Charset, out: &mut impl Write) -> io::Result<bool> {
    writeln!(out, "{}\n", game.board_text_in(charset))?;
    let result = game.result_text();
    if let Some(result) = &result {
        writeln!(out, "The game is over: {result}")?;
    }
    Ok(result.is_some())
}

/// Analyzes one position: the board (drawn with `charset`), each iteration, then the [`summary`].
pub fn analyze<G: Front>(
    game: &G,
    engine: &mut G::Engine,
    limits: &Limits,
    charset: Charset,
    out: &mut impl Write,
) -> io::Result<()> {
    if board_and_result(game, charset, out)? {
        return Ok(());
    }
    let mut failed = Ok(());
    let report = engine.think(game, limits, &mut |r| {
        if failed.is_ok() {
            failed = writeln!(out, "{}", progress_line(game, r));
        }
    });
    failed?;
    writeln!(out)?;
    for line in summary(game, &report) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Solves one position exactly and gives every legal move's value, below the board drawn with `charset`.
pub fn analyze_solved<G: Solve>(
    game: &G,
    solver: &mut G::Solver,
    charset: Charset,
    out: &mut impl Write,
) -> io::Result<()> {
    if board_and_result(game, charset, out)? {
        return Ok(());
    }
    let start = Instant::now();
    let moves = G::solve_moves(solver, game);
    let mut nodes = 0;
    for (mv, solved) in &moves {
        writeln!(out, "{:<8} {:>4}  {}", game.move_text(*mv), solved.value, solved.words)?;
        nodes += solved.nodes;
    }
    // The first of the best moves, in the order the game lists them.
    if let Some((mv, best)) = moves.iter().rev().max_by_key(|(_, s)| s.value) {
        writeln!(
            out,
            "\nbest move {}: {}; {nodes} nodes, {:.3}s",
            game.move_text(*mv),
            best.words,
            start.elapsed().as_secs_f64()
        )?;
    }
    Ok(())
}

/// Plays a game at the terminal from `game`: `sides[0]` moves first; the board is drawn with `charset`. A
/// human may type `undo` (takes back their last move and the engine's answer) or `quit`; the game ends by the
/// rules or at the end of input.
pub fn play<G: Front>(
    mut game: G,
    sides: [Side; 2],
    engine: &mut G::Engine,
    limits: &Limits,
    charset: Charset,
    input: impl Read,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut lines = LineReader::new(io::BufReader::new(input));
    let mut history: Vec<G::Move> = Vec::new();
    loop {
        writeln!(out, "\n{}\n", game.board_text_in(charset))?;
        if let Some(result) = game.result_text() {
            return writeln!(out, "{result}");
        }
        let mv = match sides[history.len() % 2] {
            Side::Engine => {
                let mut failed = Ok(());
                let report = engine.think(&game, limits, &mut |r| {
                    if failed.is_ok() {
                        failed = writeln!(out, "{}", progress_line(&game, r));
                    }
                });
                failed?;
                let Some(mv) = report.best else {
                    return writeln!(out, "The engine has no move.");
                };
                let depth = report.depth.map(|d| format!("depth {d}, ")).unwrap_or_default();
                writeln!(
                    out,
                    "{} plays {} (score {}, {depth}{} {}, {:.2}s)",
                    game.side_name(),
                    game.move_text(mv),
                    report.score,
                    report.nodes,
                    report.unit,
                    report.elapsed.as_secs_f64()
                )?;
                for note in &report.notes {
                    writeln!(out, "{note}")?;
                }
                mv
            }
            Side::Human => loop {
                write!(out, "{} to move, {} (or `undo`, `quit`): ", game.side_name(), G::MOVE_HELP)?;
                out.flush()?;
                let line = match lines.read_line()? {
                    None => return Ok(()),
                    Some(Err(bad)) => {
                        writeln!(out, "{bad}")?;
                        continue;
                    }
                    Some(Ok(line)) => line,
                };
                match line.trim() {
                    "quit" | "exit" => return Ok(()),
                    "undo" => {
                        // The human's last move and the engine's answer, or as much of them as there is.
                        let back = if sides[0] == sides[1] { 1 } else { 2 };
                        for _ in 0..back {
                            if let Some(m) = history.pop() {
                                game.undo(m);
                            }
                        }
                        writeln!(out, "\n{}\n", game.board_text_in(charset))?;
                    }
                    "" => {}
                    text => match game.parse_move(text) {
                        Ok(mv) => break mv,
                        Err(e) => writeln!(out, "{e}")?,
                    },
                }
            },
        };
        game.play(mv);
        history.push(mv);
    }
}

/// The counts of [`perft_divide`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCount {
    /// Leaves in total.
    pub total: u64,
    /// Leaves below each root move, written by [`Front::coordinate_text`].
    pub divide: Vec<(String, u64)>,
}

/// Perft from `game` to `depth` by [`Front::perft`], root move by root move, calling `each` after each one (for
/// progress and printing as it goes); through a table of `hash_mib` MiB if given.
pub fn perft_divide<G: Front>(
    game: &G,
    depth: u32,
    hash_mib: Option<usize>,
    mut each: impl FnMut(&str, u64),
) -> PerftCount {
    let mut table = hash_mib.map(PerftTable::with_mib);
    let mut root = game.clone();
    if depth == 0 {
        return PerftCount { total: 1, divide: Vec::new() };
    }
    let mut divide = Vec::new();
    // (The root's moves as perft counts them below it: through draws by the move counters where the game says so.)
    let mut moves = Vec::new();
    root.perft_moves(&mut moves);
    for mv in moves {
        let text = root.coordinate_text(mv);
        root.play(mv);
        let n = root.perft(depth - 1, table.as_mut());
        root.undo(mv);
        each(&text, n);
        divide.push((text, n));
    }
    PerftCount { total: divide.iter().map(|(_, n)| n).sum(), divide }
}

/// What [`solve_lines`] finds and writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveKind {
    /// Only win, draw or loss (1, 0, -1), which is faster.
    pub weak: bool,
    /// Nodes and microseconds after each value.
    pub stats: bool,
}

/// Solves positions read one per line (`position` or `position anything`, the benchmark files' form) and
/// writes `position value` (and, with `stats`, nodes and microseconds) per line. A line that cannot be read or
/// solved goes to `report` with its number and the reason, and the rest go on; `solved` is called after each
/// position. Returns how many lines were refused; stops quietly when `out` is closed (`| head`).
pub fn solve_lines<G: Solve>(
    input: impl BufRead,
    setup: &crate::front::Setup,
    SolveKind { weak, stats }: SolveKind,
    solver: &mut G::Solver,
    out: &mut impl Write,
    mut report: impl FnMut(String),
    mut solved: impl FnMut(),
) -> io::Result<usize> {
    let mut bad = 0;
    let mut reader = LineReader::new(input);
    while let Some(line) = reader.read_line()? {
        let number = reader.line_number();
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                report(e.to_string());
                bad += 1;
                continue;
            }
        };
        let Some(text) = line.split_whitespace().next() else { continue };
        let game = match G::parse_position(text, setup) {
            Ok(game) => game,
            Err(e) => {
                report(format!("line {number}: {e}"));
                bad += 1;
                continue;
            }
        };
        if game.result_text().is_some() {
            report(format!("line {number}: `{text}`: the game is already over"));
            bad += 1;
            continue;
        }
        let start = Instant::now();
        let s = G::solve(solver, &game, weak);
        let micros = start.elapsed().as_micros();
        let written = if stats {
            writeln!(out, "{text} {} {} {micros}", s.value, s.nodes)
        } else {
            writeln!(out, "{text} {}", s.value)
        };
        if written.is_err() {
            break;
        }
        solved();
    }
    Ok(bad)
}
