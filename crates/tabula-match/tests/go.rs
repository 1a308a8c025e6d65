//! Go matches over GTP against scripted fake engines, refereed by the Go rules. Matches of Tabula's own
//! engine, against itself and GNU Go, are in `tabula-cli`'s tests (`tests/matches.rs`), which run the
//! `tabula` binary.

use std::time::Duration;
use tabula_go::scoring::area_score;
use tabula_go::sgf::GameRecord;
use tabula_go::Rules;
use tabula_match::go::Go;
use tabula_match::{run, EngineOption, MatchConfig, MatchGame, Summary, TimeControl};

const FAKE: &str = env!("CARGO_BIN_EXE_tabula-fake-engine");

fn fake(mode: &str, after: usize) -> String {
    format!("{FAKE} --protocol gtp --mode {mode} --after {after}")
}

fn movetime(ms: u64) -> TimeControl {
    TimeControl {
        movetime: Some(Duration::from_millis(ms)),
        margin: Duration::from_millis(200),
        ..TimeControl::default()
    }
}

/// A match of two engines that play random legal moves.
fn random_movers() -> MatchConfig {
    MatchConfig { engines: [fake("random", 0), fake("random", 0)], ..MatchConfig::default() }
}

fn play(go: &Go, openings: &str, config: MatchConfig) -> (Summary, String) {
    let openings = go.parse_openings(openings, "test").unwrap();
    let mut records = Vec::new();
    let mut live = Vec::new();
    let summary = run(go, openings, &config, &mut records, &mut live).unwrap();
    assert_eq!(String::from_utf8(live).unwrap().lines().count(), summary.games.len());
    (summary, String::from_utf8(records).unwrap())
}

/// The SGF games of a record stream, each read back and replayed under the rules.
fn games(records: &str) -> Vec<GameRecord> {
    records
        .split("\n\n")
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            let record = GameRecord::parse(t).unwrap_or_else(|e| panic!("{e}: {t}"));
            record.replay(Rules::default(), None).unwrap_or_else(|e| panic!("{e}: {t}"));
            record
        })
        .collect()
}

/// Engine 0 misbehaves from its third move: it loses both games of the pair with `reason` and `re` (`F`,
/// `T` or `R`) in the record, and is restarted after each forfeit.
fn loses_every_game(mode: &str, reason: &str, re: &str, tc: TimeControl) {
    let go = Go::new(9, 7.0).unwrap();
    let config = MatchConfig {
        engines: [fake(mode, 2), fake("random", 0)],
        tc: [tc; 2],
        games: Some(2),
        ..MatchConfig::default()
    };
    let (summary, records) = play(&go, "E5 C3\n", config);
    assert_eq!(summary.results.losses, 2, "{mode}: {summary}\n{records}");
    for played in &summary.games {
        assert!(played.finished.reason.contains(reason), "{mode}: {}", played.finished.reason);
    }
    let read = games(&records);
    assert_eq!(read.len(), 2);
    // Engine 0 moves first (as Black, after the opening's two moves) in game 1, second in game 2.
    assert_eq!(read[0].result.as_deref(), Some(format!("W+{re}").as_str()), "{records}");
    assert_eq!(read[1].result.as_deref(), Some(format!("B+{re}").as_str()), "{records}");
    assert!(read.iter().all(|r| r.comment.as_deref().is_some_and(|c| c.contains(reason))), "{records}");
    if re == "R" {
        assert_eq!(summary.forfeits, [0, 0], "{mode}");
    } else {
        assert_eq!(summary.forfeits, [2, 0], "{mode}");
        assert_eq!(summary.starts[0], 2, "{mode}: restarted for the second game");
    }
}

/// Every way of misbehaving loses: a crash, a hang or a slow answer (on time, with a move time or a clock), an
/// illegal move, garbage, a refused `genmove`; resigning loses too, without a forfeit.
#[test]
fn misbehaving_loses_every_game() {
    let clock =
        TimeControl { margin: Duration::from_millis(100), ..TimeControl::parse_base_increment("0.3+0").unwrap() };
    for (mode, reason, re, tc) in [
        ("crash", "engine exited (crash)", "F", movetime(100)),
        ("hang", "loses on time", "T", movetime(100)),
        ("slow", "loses on time", "T", clock),
        ("illegal", "is occupied", "F", movetime(100)),
        ("garbage", "garbage", "F", movetime(100)),
        ("refuse", "refused `genmove", "F", movetime(100)),
        ("resign", "resigns", "R", movetime(100)),
    ] {
        loses_every_game(mode, reason, re, tc);
    }
}

#[test]
fn random_games_end_by_two_passes_and_are_scored_by_area() {
    let go = Go::new(7, 0.5).unwrap();
    let config =
        MatchConfig { games: Some(4), tc: [TimeControl::parse_base_increment("30+0").unwrap(); 2], ..random_movers() };
    let (summary, records) = play(&go, "", config);
    assert_eq!(summary.forfeits, [0, 0], "{summary}\n{records}");
    assert_eq!(summary.results.games(), 4);
    for (record, played) in games(&records).iter().zip(&summary.games) {
        let end = record.replay(Rules::default(), None).unwrap();
        assert!(end.is_over(), "{records}");
        let score = area_score(end.board()).result(0.5);
        assert_eq!(record.result.as_deref(), Some(score.as_str()));
        assert_eq!(played.finished.reason, format!("two passes, area score {score}"));
        assert!(records.contains("SZ[7]KM[0.5]") && records.contains("TM[30]"), "{records}");
    }
}

#[test]
fn move_limit_adjudicates_by_area() {
    let go = Go::new(9, 7.0).unwrap();
    let config = MatchConfig { games: Some(2), max_moves: Some(5), ..random_movers() };
    let (summary, records) = play(&go, "E5\n", config);
    for (record, played) in games(&records).iter().zip(&summary.games) {
        assert_eq!(record.moves.len(), 11, "the opening move and five moves each");
        assert!(played.finished.reason.starts_with("adjudicated: move limit, area score"), "{records}");
    }
}

#[test]
fn sgf_openings_with_setup_stones_and_komi() {
    let go = Go::new(9, 7.0).unwrap();
    let openings = "(;GM[1]FF[4]SZ[9]KM[5.5]HA[2]AB[cc][gg])\n(;SZ[9]AB[ee]AW[dd]PL[B];B[cd])\n";
    let config = MatchConfig { max_moves: Some(10), ..random_movers() };
    let (summary, records) = play(&go, openings, config);
    assert_eq!(summary.results.games(), 4);
    assert_eq!(summary.forfeits, [0, 0], "{summary}\n{records}");
    let read = games(&records);
    assert_eq!(read[0].komi, 5.5);
    assert_eq!(read[0].setup.len(), 2);
    assert_eq!(read[0].moves[0].color, tabula_go::Color::White, "white moves first after the handicap");
    assert_eq!(read[2].komi, 7.0);
    assert_eq!(read[2].setup.len(), 2);
    assert_eq!(read[2].moves[0].mv.to_sgf(9), "cd");
}

#[test]
fn options_reach_the_engine_and_refusals_stop_the_match() {
    let go = Go::new(9, 7.0).unwrap();
    let (_, option) = EngineOption::parse_targeted("1:mode=garbage").unwrap();
    let config =
        MatchConfig { options: [vec![option], Vec::new()], games: Some(2), tc: [movetime(100); 2], ..random_movers() };
    let (summary, _) = play(&go, "", config);
    assert_eq!(summary.results.losses, 2, "{summary}");
    assert!(summary.games.iter().all(|g| g.finished.reason.contains("garbage")));

    let (_, option) = EngineOption::parse_targeted("2:levle=3").unwrap();
    let config = MatchConfig { options: [Vec::new(), vec![option]], ..random_movers() };
    let err = run(&go, Vec::new(), &config, &mut Vec::new(), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("engine 2: refused `levle 3`"), "{err}");
}
