//! The game-generic verbs of the command, written once over a game's [`Front`] (and [`Solve`]) on top of
//! [`tabula_protocol::terminal`]: reading a position, play, analyze, perft with a progress bar, and the solver's
//! verbs.

use crate::args::{GameArgs, SetupArgs};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::marker::PhantomData;
use std::path::Path;
use std::time::Instant;
use tabula::quality::QualityReport;
use tabula_protocol::front::{EngineConfig, Front, Setup, Solve};
use tabula_protocol::terminal::{self, Side, SolveKind};

/// The verbs every game has, on its [`Front`] (written once for all games below, by [`Terminal`]).
pub trait Verbs {
    /// `tabula play`: from `start` (the start position if empty), each side played as `sides` says.
    fn play(&self, start: &str, sides: [Side; 2], args: &GameArgs) -> Result<()>;
    /// `tabula analyze`.
    fn analyze(&self, position: &str, args: &GameArgs) -> Result<()>;
    /// `tabula hash`: the position's key as the game writes it.
    fn hash(&self, position: &str, setup: &SetupArgs) -> Result<String>;
    /// `tabula perft`.
    fn perft(&self, position: &str, depth: u32, divide: bool, hash: Option<usize>, setup: &SetupArgs) -> Result<()>;
    /// `tabula keys`: the key set's quality.
    fn keys(&self) -> QualityReport;
    /// The game on the web page's catalogue, with `settings`.
    fn add_to(&self, catalog: tabula_web::Catalog, settings: &[(&'static str, &[&'static str])])
        -> tabula_web::Catalog;
}

/// The exact solver's verbs, on a [`Solve`] front (written once for all games below, by [`Solver`]).
pub trait SolveVerbs {
    /// `tabula solve`: positions one per line from `file` (standard input when absent).
    fn solve(&self, file: Option<&Path>, weak: bool, stats: bool, config: &EngineConfig) -> Result<()>;
    /// `tabula analyze --solve`: every move's exact value.
    fn analyze(&self, position: &str, args: &GameArgs) -> Result<()>;
}

/// The position text: the argument, or the contents of the file it names (SGF games, FEN files).
fn position_text(arg: &str) -> Result<String> {
    let path = Path::new(arg);
    if !arg.is_empty() && path.is_file() {
        Ok(tabula_protocol::lines::read_text_file(path)?)
    } else {
        Ok(arg.to_string())
    }
}

/// The position `arg` gives (the start position if it is empty), in the variant `setup` gives.
pub fn position<G: Front>(arg: &str, setup: &SetupArgs) -> Result<G> {
    let setup = setup.setup();
    Ok(if arg.trim().is_empty() { G::start(&setup)? } else { G::parse_position(&position_text(arg)?, &setup)? })
}

/// The [`Verbs`] of the game whose front is `G`.
pub struct Terminal<G>(pub PhantomData<G>);

impl<G: Front + 'static> Verbs for Terminal<G> {
    fn play(&self, start: &str, sides: [Side; 2], args: &GameArgs) -> Result<()> {
        let game = position::<G>(start, &args.setup)?;
        let mut thinker = G::engine(&args.engine.config());
        let limits = args.engine.limits::<G>()?;
        let stdout = &mut std::io::stdout();
        Ok(terminal::play(game, sides, &mut thinker, &limits, args.draw.charset(), std::io::stdin(), stdout)?)
    }

    fn analyze(&self, text: &str, args: &GameArgs) -> Result<()> {
        let game = position::<G>(text, &args.setup)?;
        let mut thinker = G::engine(&args.engine.config());
        let limits = args.engine.limits::<G>()?;
        Ok(terminal::analyze(&game, &mut thinker, &limits, args.draw.charset(), &mut std::io::stdout())?)
    }

    fn hash(&self, text: &str, setup: &SetupArgs) -> Result<String> {
        Ok(position::<G>(text, setup)?.key_text())
    }

    fn perft(&self, text: &str, depth: u32, divide: bool, hash: Option<usize>, setup: &SetupArgs) -> Result<()> {
        perft(&position::<G>(text, setup)?, depth, divide, hash)
    }

    fn keys(&self) -> QualityReport {
        G::key_quality()
    }

    fn add_to(
        &self,
        catalog: tabula_web::Catalog,
        settings: &[(&'static str, &[&'static str])],
    ) -> tabula_web::Catalog {
        catalog.with::<G>(settings)
    }
}

/// The [`SolveVerbs`] of the game whose front is `G`.
pub struct Solver<G>(pub PhantomData<G>);

impl<G: Solve + 'static> SolveVerbs for Solver<G> {
    /// A bad line is reported on standard error with its number and the reason, and the rest go on; the exit
    /// status is non-zero if any line was bad.
    fn solve(&self, file: Option<&Path>, weak: bool, stats: bool, config: &EngineConfig) -> Result<()> {
        let mut solver = G::solver(config);
        let out = &mut std::io::stdout().lock();
        let setup = Setup::default();
        let kind = SolveKind { weak, stats };
        let bad = match file {
            Some(path) => {
                let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
                let lines = bytes.split(|&b| b == b'\n').filter(|l| !l.trim_ascii().is_empty()).count() as u64;
                let bar = progress_bar(lines, "{bar:40} {pos}/{len} positions, {per_sec}, eta {eta}");
                let report = |e: String| bar.suspend(|| eprintln!("{e}"));
                let bad =
                    terminal::solve_lines::<G>(&bytes[..], &setup, kind, &mut solver, out, report, || bar.inc(1))?;
                bar.finish_and_clear();
                bad
            }
            None => {
                let input = std::io::stdin().lock();
                terminal::solve_lines::<G>(input, &setup, kind, &mut solver, out, |e| eprintln!("{e}"), || {})?
            }
        };
        anyhow::ensure!(bad == 0, "{bad} line(s) could not be solved");
        Ok(())
    }

    fn analyze(&self, text: &str, args: &GameArgs) -> Result<()> {
        let game = position::<G>(text, &args.setup)?;
        let mut solver = G::solver(&args.engine.config());
        Ok(terminal::analyze_solved(&game, &mut solver, args.draw.charset(), &mut std::io::stdout().lock())?)
    }
}

/// A progress bar on standard error when it is a terminal, hidden otherwise.
fn progress_bar(len: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    bar
}

/// `tabula perft`, root move by root move (for `--divide` and a progress bar on a terminal).
pub fn perft<G: Front>(game: &G, depth: u32, divide: bool, hash: Option<usize>) -> Result<()> {
    let start = Instant::now();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let bar = if depth >= 5 {
        progress_bar(moves.len() as u64, "{bar:40} {pos}/{len} root moves, {elapsed}")
    } else {
        ProgressBar::hidden()
    };
    let count = terminal::perft_divide(game, depth, hash, |mv, n| {
        bar.inc(1);
        if divide {
            bar.suspend(|| println!("{mv}: {n}"));
        }
    });
    bar.finish_and_clear();
    if divide {
        println!();
    }
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {}", count.total);
    eprintln!("time {secs:.3}s, {:.0} nodes/s", count.total as f64 / secs.max(1e-9));
    Ok(())
}
