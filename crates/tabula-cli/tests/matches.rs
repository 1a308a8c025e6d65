//! Matches between Tabula's own engines, run as a user runs them (`tabula uci`, `tabula uci --game
//! xiangqi`, `tabula gtp`, `pbrain-tabula`) and refereed by `tabula_match` on the games' rules. The
//! referee's own tests, against scripted misbehaving engines, are in `tabula-match`.

use std::time::Duration;
use tabula_go::sgf::{game_trees, GameRecord};
use tabula_go::Rules;
use tabula_gomoku::Rule;
use tabula_match::chess::Chess;
use tabula_match::go::Go;
use tabula_match::gomoku::Gomoku;
use tabula_match::xiangqi::Xiangqi;
use tabula_match::{run, MatchConfig, MatchGame, Summary, TimeControl};

const TABULA: &str = env!("CARGO_BIN_EXE_tabula");
const GNUGO: &str = "/usr/games/gnugo";

/// The chess engine.
fn uci() -> String {
    format!("{TABULA} uci")
}

/// The Go engine with one thread and `playouts` per move.
fn gtp(playouts: u64) -> String {
    format!("{TABULA} gtp --threads 1 --playouts {playouts}")
}

/// The match of `config` from `openings`, with its records; every finished game had its live line.
fn play<G: MatchGame>(game: &G, openings: &str, config: &MatchConfig) -> (Summary, String) {
    let openings = game.parse_openings(openings, "test").unwrap();
    let (mut records, mut live) = (Vec::new(), Vec::new());
    let summary = run(game, openings, config, &mut records, &mut live).unwrap();
    assert_eq!(String::from_utf8(live).unwrap().lines().count(), summary.games.len());
    (summary, String::from_utf8(records).unwrap())
}

/// How many SGF games a record stream holds, each read back and replayed under the rules.
fn go_games(records: &str) -> usize {
    let mut games = 0;
    for tree in game_trees(records) {
        let text = tree.unwrap_or_else(|at| panic!("no game tree at byte {at}: {records}")).text;
        let record = GameRecord::parse(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        record.replay(Rules::default(), None).unwrap_or_else(|e| panic!("{e}: {text}"));
        games += 1;
    }
    games
}

#[test]
fn chess_tabula_against_tabula_at_depth_two() {
    let tc = TimeControl { depth: Some(2), ..TimeControl::default() };
    let config = MatchConfig {
        engines: [uci(), uci()],
        tc: [tc; 2],
        max_moves: Some(30),
        games: Some(4),
        ..MatchConfig::default()
    };
    let openings = "startpos\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
    let (summary, records) = play(&Chess, openings, &config);
    assert_eq!(summary.results.games(), 4);
    assert_eq!(summary.forfeits, [0, 0]);
    assert_eq!(summary.starts, [1, 1]);
    assert_eq!(records.matches("[Event ").count(), 4);
    assert_eq!(records.matches("[SetUp \"1\"]").count(), 2, "{records}");
    assert!(records.contains("1. "), "{records}");
    // Every move carries the mover's score at depth 2 and its time.
    // (Lines are wrapped at 79 columns, within comments too.)
    let flat = records.split_whitespace().collect::<Vec<_>>().join(" ");
    let comments = flat.matches("/2 0.").count();
    assert!(comments >= 4 * 10 && comments == flat.matches("s}").count(), "{records}");
    // The clock kept each move's time: as many as the record's comments, and the report shows them.
    let spent: usize = summary.games.iter().map(|g| g.finished.spent[0].len() + g.finished.spent[1].len()).sum();
    assert_eq!(spent, comments, "{records}");
    assert!(summary.time_use(0).is_some() && summary.time_use(1).is_some());
    assert!(summary.to_string().contains("time a move (s)"), "{summary}");
}

#[test]
fn chess_at_time_odds_gives_each_engine_its_own_clock() {
    let [long, short] = ["2+0.02", "0.5+0.005"].map(|t| TimeControl::parse_base_increment(t).unwrap());
    let config = MatchConfig {
        engines: [uci(), uci()],
        tc: [long, short],
        max_moves: Some(20),
        games: Some(2),
        ..MatchConfig::default()
    };
    let (summary, records) = play(&Chess, "startpos\n", &config);
    assert_eq!((summary.results.games(), summary.forfeits), (2, [0, 0]), "{records}");
    // Each game's tags say whose clock was whose: the first engine had the long one, as White then as Black.
    assert!(records.contains("[WhiteTimeControl \"2+0.02\"]\n[BlackTimeControl \"0.5+0.005\"]"), "{records}");
    assert!(records.contains("[WhiteTimeControl \"0.5+0.005\"]\n[BlackTimeControl \"2+0.02\"]"), "{records}");
    // The engine budgets from the clock it is sent, so the one with four times the clock thinks longer.
    let per_game = |engine| summary.time_use(engine).unwrap().per_game;
    assert!(per_game(0) > 2 * per_game(1), "{:?} against {:?}", per_game(0), per_game(1));
}

#[test]
fn chess960_between_two_tabula_engines() {
    let openings: String =
        [0, 959].iter().map(|&n| tabula_chess::Position::chess960(n).unwrap().to_fen() + "\n").collect();
    let openings = Chess.parse_openings(&openings, "960").unwrap();
    let tc = TimeControl { depth: Some(2), ..TimeControl::default() };
    let config = MatchConfig { engines: [uci(), uci()], tc: [tc; 2], max_moves: Some(40), ..MatchConfig::default() };
    let mut records = Vec::new();
    let summary = run(&Chess, openings, &config, &mut records, &mut Vec::new()).unwrap();
    let records = String::from_utf8(records).unwrap();
    assert_eq!(summary.results.games(), 4);
    assert_eq!(summary.forfeits, [0, 0], "{records}");
    assert_eq!(records.matches("[Variant \"Chess960\"]").count(), 4, "{records}");
}

#[test]
fn xiangqi_tabula_against_tabula() {
    let engine = format!("{TABULA} uci --game xiangqi");
    let tc = TimeControl { depth: Some(3), ..TimeControl::default() };
    let config = MatchConfig {
        engines: [engine.clone(), engine],
        tc: [tc; 2],
        max_moves: Some(40),
        games: Some(2),
        ..MatchConfig::default()
    };
    let text = include_str!("../../tabula-xiangqi/tests/data/openings.txt");
    let openings = Xiangqi.parse_openings(text, "openings.txt").unwrap();
    assert_eq!(openings.len(), 60);
    let (mut records, mut live) = (Vec::new(), Vec::new());
    let summary = run(&Xiangqi, openings, &config, &mut records, &mut live).unwrap();
    let records = String::from_utf8(records).unwrap();
    assert_eq!(summary.games.len(), 2, "{records}");
    assert_eq!(summary.forfeits, [0, 0], "{records}");
    assert_eq!(records.matches("[Variant \"xiangqi\"]").count(), 2, "{records}");
    // Every move carries the mover's score at depth 3 and its time.
    // (Lines are wrapped at 79 columns, within comments too.)
    let flat = records.split_whitespace().collect::<Vec<_>>().join(" ");
    let comments = flat.matches("/3 ").count();
    assert!(comments >= 2 * 10 && comments == flat.matches("s}").count(), "{records}");
    // The same opening with colours swapped: the first game's Red is the second game's Black.
    assert_eq!(records.matches("[FEN \"rnbakabnr/9/1c7/p1p1p2Cp/6p2/9/P1c1P1P1P/2N3C2/9/R1BAKABNR w").count(), 2);
    for played in &summary.games {
        let reason = &played.finished.reason;
        assert!(
            ["checkmate", "stalemate", "repetition", "perpetual", "60-move", "adjudicated"]
                .iter()
                .any(|r| reason.contains(r)),
            "{reason}"
        );
    }
}

#[test]
fn gomoku_tabula_against_tabula() {
    let game = Gomoku { size: 9, rule: Rule::Freestyle };
    let pbrain = env!("CARGO_BIN_EXE_pbrain-tabula").to_string();
    // A generous margin: the tests share two cores with the rest of the suite.
    let tc = TimeControl {
        movetime: Some(Duration::from_millis(100)),
        margin: Duration::from_millis(1500),
        ..TimeControl::default()
    };
    let config =
        MatchConfig { engines: [pbrain.clone(), pbrain], tc: [tc; 2], games: Some(2), ..MatchConfig::default() };
    let mut records = Vec::new();
    let summary = run(&game, Vec::new(), &config, &mut records, &mut Vec::new()).unwrap();
    assert_eq!(summary.forfeits, [0, 0], "{summary}");
    assert_eq!(summary.results.games(), 2, "{summary}");
    let records = String::from_utf8(records).unwrap();
    assert_eq!(records.matches("# Round").count(), 2, "{records}");
}

#[test]
fn go_tabula_against_tabula() {
    let go = Go::new(9, 7.0).unwrap();
    let config =
        MatchConfig { engines: [gtp(64), gtp(256)], games: Some(2), max_moves: Some(40), ..MatchConfig::default() };
    let (summary, records) = play(&go, "", &config);
    assert_eq!(summary.forfeits, [0, 0], "{summary}\n{records}");
    assert_eq!(summary.starts, [1, 1]);
    assert_eq!(go_games(&records), 2);
}

#[test]
fn go_tabula_against_gnu_go() {
    if !std::path::Path::new(GNUGO).exists() {
        println!("skipped: GNU Go is not installed at {GNUGO}");
        return;
    }
    let go = Go::new(9, 7.0).unwrap();
    // No clock: given time, GNU Go thinks for most of a second a move whatever its level.
    let config = MatchConfig {
        engines: [gtp(128), format!("{GNUGO} --mode gtp --level 1")],
        games: Some(1),
        max_moves: Some(60),
        ..MatchConfig::default()
    };
    let (summary, records) = play(&go, "", &config);
    assert_eq!(summary.forfeits, [0, 0], "{summary}\n{records}");
    assert_eq!(go_games(&records), 1);
}
