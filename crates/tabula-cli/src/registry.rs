//! The games of the `tabula` command, each named once. [`games`] lists them; every verb comes from a game's
//! [`Entry`]: `play`, `analyze`, `hash`, `perft` and `keys` through its [`Front`], `solve` and `analyze --solve`
//! for the games small enough, its rows of `bench`, the protocols it speaks, and its place on the web page.
//!
//! A new game is one more line of [`games`]: its front type, its name for people, and what else it offers.

use crate::bench::{self, BenchRun};
use crate::matches::{self, MatchArgs};
use crate::terminal_verbs::{SolveVerbs, Solver, Terminal, Verbs};
use anyhow::Result;
use std::marker::PhantomData;
use tabula_protocol::front::{Front, Solve};

/// A protocol that serves an engine on standard input and output.
pub type Serve = fn() -> std::io::Result<()>;

/// The Go Text Protocol's engine settings from the command line.
#[derive(Clone, Copy, Debug)]
pub struct GtpSettings {
    /// Search threads (all cores when absent).
    pub threads: Option<usize>,
    /// A fixed number of playouts per move.
    pub playouts: Option<u64>,
    /// Seconds per move when the controller sends no time settings.
    pub move_time: f64,
}

/// Every game the command knows, in the order the help and the web page list them.
pub fn games() -> Vec<Entry> {
    vec![
        Entry::of::<tabula_tictactoe::TicTacToe>("Tic-tac-toe").solvable().bench(bench::tictactoe).done(),
        Entry::of::<tabula_connect4::Standard>("Connect Four, 7×6 (solved values in Pons's convention)")
            .solvable()
            .bench(bench::connect4)
            .done(),
        Entry::of::<tabula_chess::Position>("Chess")
            .uci(tabula_chess::engine::uci::run_stdio)
            .referee(matches::chess)
            .bench(bench::chess)
            .done(),
        Entry::of::<tabula_gomoku::Board>("Gomoku (five in a row): freestyle, standard or renju")
            .gomocup(tabula_gomoku::engine::gomocup::run_stdio)
            .referee(matches::gomoku)
            .web(&[("size", &["15", "19", "9"]), ("rule", &["freestyle", "standard", "renju"])])
            .bench(bench::gomoku)
            .done(),
        Entry::of::<tabula_go::Position>("Go, with area scoring and positional superko")
            .gtp(gtp)
            .referee(matches::go)
            .web(&[("size", &["9", "13", "19"]), ("komi", &["7", "6.5", "0.5"])])
            .bench(bench::go)
            .done(),
        Entry::of::<tabula_xiangqi::Position>("Xiangqi (Chinese chess)")
            .uci(tabula_xiangqi::engine::uci::run_stdio)
            .ucci(tabula_xiangqi::engine::ucci::run_stdio)
            .referee(matches::xiangqi)
            .bench(bench::xiangqi)
            .done(),
    ]
}

/// The entry of the game named `name`.
///
/// # Errors
///
/// No game has that name.
pub fn find(name: &str) -> Result<Entry> {
    let names = || games().iter().map(|e| e.name).collect::<Vec<_>>().join(", ");
    games().into_iter().find(|e| e.name == name).ok_or_else(|| anyhow::anyhow!("no game {name}: {}", names()))
}

/// One game of the command.
pub struct Entry {
    /// The game's name on the command line and the web page.
    pub name: &'static str,
    /// What people call it.
    pub about: &'static str,
    verbs: Box<dyn Verbs>,
    solver: Option<Box<dyn SolveVerbs>>,
    web: &'static [(&'static str, &'static [&'static str])],
    bench: Option<fn(usize) -> Vec<BenchRun>>,
    uci: Option<Serve>,
    ucci: Option<Serve>,
    gomocup: Option<Serve>,
    gtp: Option<fn(&GtpSettings) -> Result<()>>,
    referee: Option<Referee>,
}

/// A game's `tabula match`: two engines refereed by the game's rules.
pub type Referee = fn(&MatchArgs) -> Result<()>;

/// An [`Entry`] being built for the game `G`.
pub struct Building<G> {
    entry: Entry,
    game: PhantomData<G>,
}

impl Entry {
    /// The game whose front is `G`, called `about` by people.
    fn of<G: Front + 'static>(about: &'static str) -> Building<G> {
        let entry = Entry {
            name: G::NAME,
            about,
            verbs: Box::new(Terminal::<G>(PhantomData)),
            solver: None,
            web: &[],
            bench: None,
            uci: None,
            ucci: None,
            gomocup: None,
            gtp: None,
            referee: None,
        };
        Building { entry, game: PhantomData }
    }

    /// The verbs every game has.
    pub fn verbs(&self) -> &dyn Verbs {
        &*self.verbs
    }

    /// The exact solver's verbs, for the games small enough.
    ///
    /// # Errors
    ///
    /// The game is too big to solve.
    pub fn solver(&self) -> Result<&dyn SolveVerbs> {
        self.solver
            .as_deref()
            .ok_or_else(|| anyhow::anyhow!("{} is too big to solve; analyze it with a limit instead", self.name))
    }

    /// Whether the game can be solved exactly.
    pub fn is_solvable(&self) -> bool {
        self.solver.is_some()
    }

    /// The game's rows of `tabula bench` with tables of `hash_mib`.
    pub fn bench(&self, hash_mib: usize) -> Vec<BenchRun> {
        self.bench.map_or_else(Vec::new, |bench| bench(hash_mib))
    }

    /// The game's UCI engine.
    ///
    /// # Errors
    ///
    /// The game has none.
    pub fn uci(&self) -> Result<Serve> {
        self.uci.ok_or_else(|| anyhow::anyhow!("{} has no UCI engine (UCI: {})", self.name, Self::speaking(|e| e.uci)))
    }

    /// The game's UCCI engine.
    ///
    /// # Errors
    ///
    /// The game has none.
    pub fn ucci(&self) -> Result<Serve> {
        self.ucci
            .ok_or_else(|| anyhow::anyhow!("{} has no UCCI engine (UCCI: {})", self.name, Self::speaking(|e| e.ucci)))
    }

    /// The game's Gomocup engine.
    ///
    /// # Errors
    ///
    /// The game has none.
    pub fn gomocup(&self) -> Result<Serve> {
        self.gomocup.ok_or_else(|| {
            anyhow::anyhow!("{} has no Gomocup engine (Gomocup: {})", self.name, Self::speaking(|e| e.gomocup))
        })
    }

    /// The game's GTP engine.
    ///
    /// # Errors
    ///
    /// The game has none.
    pub fn gtp(&self) -> Result<fn(&GtpSettings) -> Result<()>> {
        self.gtp.ok_or_else(|| anyhow::anyhow!("{} has no GTP engine (GTP: {})", self.name, Self::speaking(|e| e.gtp)))
    }

    /// The game's match referee.
    ///
    /// # Errors
    ///
    /// The game has none.
    pub fn referee(&self) -> Result<Referee> {
        self.referee.ok_or_else(|| {
            anyhow::anyhow!("{} has no match referee (matches: {})", self.name, Self::speaking(|e| e.referee))
        })
    }

    /// Whether two engines can play a match of the game.
    pub fn has_referee(&self) -> bool {
        self.referee.is_some()
    }

    /// The names of the games that have what `has` asks for.
    fn speaking<T>(has: impl Fn(&Entry) -> Option<T>) -> String {
        games().iter().filter(|e| has(e).is_some()).map(|e| e.name).collect::<Vec<_>>().join(", ")
    }
}

impl<G: Front + 'static> Building<G> {
    /// The game can be solved exactly.
    fn solvable(mut self) -> Self
    where
        G: Solve,
    {
        self.entry.solver = Some(Box::new(Solver::<G>(PhantomData)));
        self
    }

    /// The page offers these settings for the game, each with its choices (the first is the default).
    fn web(mut self, settings: &'static [(&'static str, &'static [&'static str])]) -> Self {
        self.entry.web = settings;
        self
    }

    /// Engines play matches of the game, refereed by `referee`.
    fn referee(mut self, referee: Referee) -> Self {
        self.entry.referee = Some(referee);
        self
    }

    /// The game's rows of `tabula bench`.
    fn bench(mut self, bench: fn(usize) -> Vec<BenchRun>) -> Self {
        self.entry.bench = Some(bench);
        self
    }

    /// The game's engine speaks UCI.
    fn uci(mut self, serve: Serve) -> Self {
        self.entry.uci = Some(serve);
        self
    }

    /// The game's engine speaks UCCI.
    fn ucci(mut self, serve: Serve) -> Self {
        self.entry.ucci = Some(serve);
        self
    }

    /// The game's engine speaks the Gomocup protocol.
    fn gomocup(mut self, serve: Serve) -> Self {
        self.entry.gomocup = Some(serve);
        self
    }

    /// The game's engine speaks GTP.
    fn gtp(mut self, serve: fn(&GtpSettings) -> Result<()>) -> Self {
        self.entry.gtp = Some(serve);
        self
    }

    fn done(self) -> Entry {
        self.entry
    }
}

/// The games the web page offers, with the settings it lets the user choose.
pub fn web_catalog() -> tabula_web::Catalog {
    games().iter().fold(tabula_web::Catalog::new(), |catalog, e| e.verbs().add_to(catalog, e.web))
}

/// The Go engine over GTP on standard input and output.
fn gtp(settings: &GtpSettings) -> Result<()> {
    use std::time::Duration;
    use tabula_go::engine::mcts::{Config, Mcts};
    let move_time = settings.move_time;
    anyhow::ensure!(
        move_time.is_finite() && move_time > 0.0,
        "--move-time must be a positive number of seconds, not {move_time}"
    );
    let defaults = Config::default();
    let config = Config {
        threads: settings.threads.unwrap_or(defaults.threads).max(1),
        playouts: settings.playouts,
        time_per_move: Duration::from_secs_f64(move_time),
        ..defaults
    };
    let mut session = tabula_go::GtpSession::with_picker(Mcts::new(config), tabula_go::Rules::default());
    Ok(tabula_go::engine::gtp::run_stdio(&mut session)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_named_once_and_found_by_its_name() {
        let names: Vec<&str> = games().iter().map(|e| e.name).collect();
        assert_eq!(names, ["tictactoe", "connect4", "chess", "gomoku", "go", "xiangqi"]);
        for name in &names {
            assert_eq!(find(name).unwrap().name, *name);
        }
        let error = find("checkers").err().unwrap().to_string();
        assert!(error.contains("no game checkers") && error.contains("xiangqi"), "{error}");
    }

    #[test]
    fn matches_are_refereed_for_the_games_engines_play_over_a_protocol() {
        let refereed: Vec<&str> = games().iter().filter(|e| e.has_referee()).map(|e| e.name).collect();
        assert_eq!(refereed, ["chess", "gomoku", "go", "xiangqi"]);
        let error = find("connect4").unwrap().referee().err().unwrap().to_string();
        assert_eq!(error, "connect4 has no match referee (matches: chess, gomoku, go, xiangqi)");
    }

    #[test]
    fn protocols_and_solvers_are_where_the_games_have_them() {
        let has = |name: &str| {
            let e = find(name).unwrap();
            (e.uci().is_ok(), e.ucci().is_ok(), e.gtp().is_ok(), e.gomocup().is_ok(), e.is_solvable())
        };
        assert_eq!(has("chess"), (true, false, false, false, false));
        assert_eq!(has("xiangqi"), (true, true, false, false, false));
        assert_eq!(has("go"), (false, false, true, false, false));
        assert_eq!(has("gomoku"), (false, false, false, true, false));
        assert_eq!(has("connect4"), (false, false, false, false, true));
        let error = find("go").unwrap().uci().err().unwrap().to_string();
        assert_eq!(error, "go has no UCI engine (UCI: chess, xiangqi)");
    }
}
