//! Chess matches against scripted fake engines, refereed by the chess rules. Matches between Tabula's own
//! engines are in `tabula-cli`'s tests (`tests/matches.rs`), which run the `tabula` binary.

use std::time::Duration;
use tabula_match::chess::Chess;
use tabula_match::stats::{Sprt, SprtDecision};
use tabula_match::{run, MatchConfig, MatchGame, Summary, TimeControl};

const FAKE: &str = env!("CARGO_BIN_EXE_tabula-fake-engine");

fn fake(protocol: &str, mode: &str, after: usize) -> String {
    format!("{FAKE} --protocol {protocol} --mode {mode} --after {after}")
}

fn play(engines: [String; 2], tc: TimeControl, games: usize, max_moves: u32) -> (Summary, String) {
    let config =
        MatchConfig { engines, tc: [tc; 2], max_moves: Some(max_moves), games: Some(games), ..MatchConfig::default() };
    let mut records = Vec::new();
    let mut live = Vec::new();
    let openings =
        Chess.parse_openings("startpos\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n", "test").unwrap();
    let summary = run(&Chess, openings, &config, &mut records, &mut live).unwrap();
    assert_eq!(String::from_utf8(live).unwrap().lines().count(), summary.games.len());
    (summary, String::from_utf8(records).unwrap())
}

fn movetime(ms: u64) -> TimeControl {
    TimeControl {
        movetime: Some(Duration::from_millis(ms)),
        margin: Duration::from_millis(200),
        ..TimeControl::default()
    }
}

/// Engine 0 misbehaves from its second move: it loses both games of the pair with `reason`, and is restarted.
/// (From its third, its two random moves could walk into a fool's mate before it misbehaves: no mate comes
/// sooner, from the start position or after 1. e4.)
fn loses_every_game(mode: &str, reason: &str, tc: TimeControl) {
    let (summary, records) = play([fake("uci", mode, 1), fake("uci", "random", 0)], tc, 2, 40);
    assert_eq!(summary.results.losses, 2, "{mode}: {summary}\n{records}");
    assert_eq!(summary.forfeits, [2, 0], "{mode}: {summary}\n{records}");
    assert_eq!(summary.starts[0], 2, "{mode}: restarted for the second game");
    for played in &summary.games {
        assert!(played.finished.reason.contains(reason), "{mode}: {}", played.finished.reason);
    }
    assert!(records.contains("[Termination "), "{records}");
}

/// Every way of misbehaving loses: a crash, a hang or a slow answer (on time, with a move time or a clock), an
/// illegal move, garbage.
#[test]
fn misbehaving_loses_every_game() {
    let clock =
        TimeControl { margin: Duration::from_millis(100), ..TimeControl::parse_base_increment("0.3+0").unwrap() };
    for (mode, reason, tc) in [
        ("crash", "engine exited (crash)", movetime(100)),
        ("hang", "loses on time", movetime(100)),
        ("slow", "loses on time", clock),
        ("illegal", "illegal move", movetime(100)),
        ("garbage", "garbage", movetime(100)),
    ] {
        loses_every_game(mode, reason, tc);
    }
}

/// A match under an SPRT that engine 0 wins game after game: engine 1 plays an illegal first move in each.
fn lopsided_sprt_match() -> MatchConfig {
    MatchConfig {
        engines: [fake("uci", "random", 0), fake("uci", "illegal", 0)],
        tc: [TimeControl { depth: Some(1), ..TimeControl::default() }; 2],
        max_moves: Some(60),
        rounds: 100,
        sprt: Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap()),
        ..MatchConfig::default()
    }
}

/// Engine 0 wins every game, and the SPRT stops the match early.
#[test]
fn sprt_stops_a_lopsided_match() {
    let config = MatchConfig { concurrency: 2, ..lopsided_sprt_match() };
    let summary = run(&Chess, Vec::new(), &config, &mut Vec::new(), &mut Vec::new()).unwrap();
    let (sprt, llr, decision) = summary.sprt.unwrap();
    assert_eq!(decision, SprtDecision::AcceptH1, "{summary}");
    // The decision and its ratio stand as they were when the test stopped the match, whatever the game
    // still under way on the other thread did.
    assert!(llr >= sprt.bounds().1, "{summary}");
    assert!(summary.decided_at.is_some_and(|n| n <= summary.results.games()), "{summary}");
    assert!(summary.results.games() < 60, "{summary}");
    assert!(summary.to_string().contains("H1 accepted"));
}

/// One game at a time, the match stops at the game that decides: no game starts while the last one is
/// counted, so that its table is the one a merge of the same games in shards gives.
#[test]
fn sprt_at_concurrency_one_plays_no_game_past_the_decision() {
    let config = lopsided_sprt_match();
    for _ in 0..5 {
        let summary = run(&Chess, Vec::new(), &config, &mut Vec::new(), &mut Vec::new()).unwrap();
        assert_eq!(summary.decided_at, Some(summary.results.games()), "{summary}");
        assert_eq!(summary.games.len() as u64, summary.results.games());
    }
}

#[test]
fn bad_commands_are_named() {
    let config =
        MatchConfig { engines: ["/no/such/engine".into(), fake("uci", "random", 0)], ..MatchConfig::default() };
    let err = run(&Chess, Vec::new(), &config, &mut Vec::new(), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("engine 1") && err.to_string().contains("/no/such/engine"), "{err}");
    let config = MatchConfig { engines: [fake("uci", "random", 0), "'unclosed".into()], ..MatchConfig::default() };
    assert!(run(&Chess, Vec::new(), &config, &mut Vec::new(), &mut Vec::new())
        .unwrap_err()
        .to_string()
        .contains("engine 2"));
}

#[test]
fn options_reach_the_engine() {
    // The fake engine takes its mode from `setoption name Mode value ...`.
    let (engines, option) = tabula_match::EngineOption::parse_targeted("1:Mode=garbage").unwrap();
    let mut options = [Vec::new(), Vec::new()];
    options[engines[0]].push(option);
    let config = MatchConfig {
        engines: [fake("uci", "random", 0), fake("uci", "random", 0)],
        options,
        tc: [movetime(100); 2],
        games: Some(2),
        ..MatchConfig::default()
    };
    let summary = run(&Chess, Vec::new(), &config, &mut Vec::new(), &mut Vec::new()).unwrap();
    assert_eq!(summary.results.losses, 2, "{summary}");
    assert!(summary.games.iter().all(|g| g.finished.reason.contains("garbage")), "{:?}", summary.games);
}
