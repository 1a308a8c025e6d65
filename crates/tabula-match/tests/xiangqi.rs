//! Xiangqi matches between two of Tabula's engines, refereed by the xiangqi rules.

use tabula_match::xiangqi::Xiangqi;
use tabula_match::{run, MatchConfig, MatchGame, TimeControl};

const FAKE: &str = env!("CARGO_BIN_EXE_tabula-fake-engine");

#[test]
fn tabula_against_tabula() {
    let engine = format!("{FAKE} --protocol uci-xiangqi --mode tabula");
    let tc = TimeControl { depth: Some(3), ..TimeControl::default() };
    let config = MatchConfig {
        engines: [engine.clone(), engine],
        tc,
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
