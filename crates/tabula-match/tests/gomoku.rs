//! Gomoku matches over the Gomocup protocol against scripted fake engines, refereed by the Gomoku rules.
//! Matches between Tabula's own engines are in `tabula-cli`'s tests (`tests/matches.rs`), which run
//! `pbrain-tabula`.

use std::time::Duration;
use tabula_gomoku::Rule;
use tabula_match::gomoku::Gomoku;
use tabula_match::{run, MatchConfig, MatchGame, TimeControl};

const FAKE: &str = env!("CARGO_BIN_EXE_tabula-fake-engine");

fn fake(mode: &str, after: usize) -> String {
    format!("{FAKE} --protocol gomocup --mode {mode} --after {after}")
}

fn config(engines: [String; 2], games: usize) -> MatchConfig {
    // A generous margin: the tests share two cores with the rest of the suite.
    let tc = TimeControl {
        movetime: Some(Duration::from_millis(100)),
        margin: Duration::from_millis(1500),
        ..TimeControl::default()
    };
    MatchConfig { engines, tc: [tc; 2], games: Some(games), ..MatchConfig::default() }
}

#[test]
fn failures_lose_and_the_match_goes_on() {
    let game = Gomoku { size: 9, rule: Rule::Freestyle };
    let openings = game.parse_openings("e5 d4 f6\n", "test").unwrap();
    for (mode, reason) in [("crash", "crash"), ("hang", "on time"), ("illegal", "illegal move"), ("garbage", "garbage")]
    {
        let summary = run(
            &game,
            openings.clone(),
            &config([fake(mode, 1), fake("random", 0)], 2),
            &mut Vec::new(),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(summary.results.losses, 2, "{mode}: {summary}");
        assert_eq!(summary.starts[0], 2, "{mode}");
        assert!(summary.games.iter().all(|g| g.finished.reason.contains(reason)), "{mode}: {:?}", summary.games);
    }
}

/// An engine that answers the `INFO` lines it does not take with `ERROR` (as Rapfi does `INFO time_left`)
/// still plays: the line is the engine's complaint about the option, not its move.
#[test]
fn error_lines_about_options_are_not_moves() {
    let game = Gomoku { size: 9, rule: Rule::Freestyle };
    let mut config = config([fake("complain", 0), fake("random", 0)], 4);
    // A clock, so that `INFO time_left` goes before every move.
    config.tc = [TimeControl {
        base: Some(Duration::from_secs(20)),
        margin: Duration::from_millis(1500),
        ..TimeControl::default()
    }; 2];
    let summary = run(&game, Vec::new(), &config, &mut Vec::new(), &mut Vec::new()).unwrap();
    assert_eq!(summary.forfeits, [0, 0], "{:?}", summary.games);
    assert_eq!(summary.results.games(), 4);
}

/// Random engines must follow the referee's board exactly (empty points only, the referee's rule for wins),
/// or they lose games by "illegal move" that nobody asked them to play.
#[test]
fn random_engines_stay_in_step_with_the_referee() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        let game = Gomoku { size: 9, rule };
        let summary = run(
            &game,
            Vec::new(),
            &config([fake("random", 0), fake("random", 0)], 12),
            &mut Vec::new(),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(summary.forfeits, [0, 0], "{rule:?}: {:?}", summary.games);
        assert_eq!(summary.results.games(), 12);
    }
}

#[test]
fn options_reach_the_engine() {
    // The fake engine takes its mode from `INFO mode ...`.
    let (_, option) = tabula_match::EngineOption::parse_targeted("1:mode=garbage").unwrap();
    let game = Gomoku { size: 9, rule: Rule::Freestyle };
    let config =
        MatchConfig { options: [vec![option], Vec::new()], ..config([fake("random", 0), fake("random", 0)], 2) };
    let summary = run(&game, Vec::new(), &config, &mut Vec::new(), &mut Vec::new()).unwrap();
    assert_eq!(summary.results.losses, 2, "{summary}");
    assert!(summary.games.iter().all(|g| g.finished.reason.contains("garbage")), "{:?}", summary.games);
}
