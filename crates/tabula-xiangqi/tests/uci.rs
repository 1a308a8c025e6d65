//! Transcripts of xiangqi UCI sessions (as Pikafish speaks it): every command, malformed input, and the
//! threaded harness serving `isready`, `stop` and `ponderhit` while it searches.

use tabula_board::testing::uci::{
    check_bad_input, check_go_variants, check_identification_and_options, check_malformed_positions,
    check_served_while_searching, last,
};
use tabula_xiangqi::engine::uci::{Pikafish, UciSession};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
#[test]
fn identification_and_options() {
    check_identification_and_options::<Pikafish>(
        &["Evaluation", "EvalFile"],
        &[
            "setoption name Evaluation value classical",
            "setoption name Evaluation value nnue",
            "setoption name EvalFile value <embedded>",
        ],
        &[
            "setoption name Colour value red",
            "setoption name Evaluation value neural",
            "setoption name EvalFile value /nonexistent/net.tbnn",
            "setoption name EvalFile value Cargo.toml",
        ],
    );
    let id = UciSession::new().handle("uci");
    // A network is embedded: the engine evaluates with it unless told otherwise.
    assert!(id.contains(&"option name Evaluation type combo default nnue var nnue var classical".to_owned()));
    assert!(id.contains(&"option name EvalFile type string default <embedded>".to_owned()));
}

/// The bench line naming the evaluation, and the nodes.
fn bench(s: &mut UciSession) -> (String, String) {
    let reply = s.handle("bench 3");
    let find = |prefix: &str| reply.iter().find(|l| l.starts_with(prefix)).cloned().unwrap_or_default();
    (find("info string bench"), find("Nodes searched"))
}

#[test]
fn a_network_given_as_a_file_evaluates_and_plays() {
    let net = common::random_network_file("uci");
    let mut s = UciSession::new();
    // The embedded network by default; the classical evaluation searches another tree.
    let (embedded, embedded_nodes) = bench(&mut s);
    assert!(embedded.ends_with("evaluation nnue"), "{embedded}");
    assert!(s.handle("setoption name Evaluation value classical").is_empty());
    let (classical, classical_nodes) = bench(&mut s);
    assert!(classical.ends_with("evaluation classical"), "{classical}");
    assert_ne!(classical_nodes, embedded_nodes, "the network searches as the classical evaluation does");
    s.handle("position startpos moves h2e2 h9g7");
    common::assert_legal_answer(
        &s.handle("go depth 3"),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w",
    );
    // A file loaded while the classical evaluation is chosen changes nothing until the network is asked for.
    assert_eq!(
        s.handle(&format!("setoption name EvalFile value {}", net.name())),
        [format!("info string network {} loaded", net.name())]
    );
    assert_eq!(bench(&mut s).1, classical_nodes);
    assert!(s.handle("setoption name Evaluation value nnue").is_empty());
    let (nnue, nnue_nodes) = bench(&mut s);
    assert!(nnue.ends_with("evaluation nnue"), "{nnue}");
    assert_ne!(nnue_nodes, embedded_nodes, "the file's network searches as the embedded one does");
    for (position, fen) in [
        ("startpos moves h2e2 h9g7", "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w"),
        ("fen 2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1", "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w"),
    ] {
        assert!(s.handle(&format!("position {position}")).is_empty());
        let reply = s.handle("go depth 4");
        assert!(reply.iter().any(|l| l.starts_with("info depth 4 ")), "{reply:?}");
        common::assert_legal_answer(&reply, fen);
    }
    // A chess network is refused with the loader's message; the xiangqi network stays and the session goes on.
    let chess = common::chess_shaped_file("uci-chess");
    let reply = s.handle(&format!("setoption name EvalFile value {}", chess.name()));
    assert!(reply.len() == 1 && reply[0].contains("768") && reply[0].contains("1260"), "{reply:?}");
    assert_eq!(bench(&mut s).1, nnue_nodes);
    assert_eq!(s.handle("isready"), ["readyok"]);
    // Back to the embedded network.
    assert!(s.handle("setoption name EvalFile value <embedded>").is_empty());
    assert_eq!(bench(&mut s).1, embedded_nodes);
}

#[test]
fn positions_moves_and_errors() {
    let mut s = UciSession::new();
    assert!(s.handle("position startpos moves h2e2 h9g7").is_empty());
    assert_eq!(
        s.position().position().to_fen(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!(s.position().position().history_len(), 2);
    // `r` for Red to move, as some tools write.
    assert!(s.handle("position fen 4k4/9/9/9/9/9/9/9/9/3K5 r moves d0d1").is_empty());
    assert_eq!(s.position().position().to_fen(), "4k4/9/9/9/9/9/9/9/3K5/9 b - - 1 1");
    // An illegal move is reported; the position keeps the moves before it.
    let reply = s.handle("position startpos moves h2e2 h2e2 h9g7");
    assert!(reply[0].starts_with("info string illegal move 'h2e2'"), "{reply:?}");
    assert_eq!(s.position().position().history_len(), 1);
    check_malformed_positions(&mut s, "h2e2");
    s.handle("position startpos");
    let d = s.handle("d");
    assert!(d.contains(&format!("Fen: {START}")), "{d:?}");
    assert!(d.iter().any(|l| l.starts_with("Key: ")));
    assert_eq!(d[0], "9 r n b a k a b n r");
}

#[test]
fn go_variants_end_with_bestmove() {
    let mut s = UciSession::new();
    check_go_variants(&mut s, ["a3a4", "i3i4"], "e3e5");
    // Mate in one, found within `go mate 2`: the second rook closes the king's rank.
    s.handle("position fen 4k4/R8/9/9/9/9/9/9/9/3K1R3 w - - 0 1");
    let reply = s.handle("go mate 2");
    assert!(reply.iter().any(|l| l.contains("score mate 1")), "{reply:?}");
    // No legal move: stalemate loses in xiangqi, and there is nothing to play.
    s.handle("position fen 4k4/3R5/9/9/9/9/9/9/9/3K1R3 b - - 0 1");
    assert_eq!(last(&s.handle("go depth 3")), "bestmove (none)");
    // Drawn by the move limit (120 plies without a capture) but not over: a referee or GUI declares that
    // draw, so the engine still answers with a legal move.
    let fen = "3k5/9/9/9/9/9/9/9/9/4K4 b - - 120 80";
    s.handle(&format!("position fen {fen}"));
    common::assert_legal_answer(&s.handle("go depth 3"), fen);
}

#[test]
fn perpetual_check_is_not_a_way_out() {
    // Red has checked from a8 and a9 while the black king stepped between e8 and e9; checking from a8 again
    // would repeat the position by perpetual check, which loses at once.
    let mut s = UciSession::new();
    assert!(s.handle("position fen 9/4k4/9/9/9/9/9/9/9/R2K5 w - - 0 1 moves a0a8 e8e9 a8a9 e9e8").is_empty());
    assert_eq!(s.position().position().history_len(), 4);
    let reply = s.handle("go depth 5 searchmoves a9a8");
    assert!(reply.iter().all(|l| !l.starts_with("info depth") || l.contains(" score mate -1 ")), "{reply:?}");
    // Free to choose, the engine plays on (rook and king win against a bare king).
    let reply = s.handle("go depth 5");
    assert!(!last(&reply).starts_with("bestmove a9a8"), "{reply:?}");
    assert!(reply.iter().all(|l| !l.contains(" score mate -")), "{reply:?}");
}

#[test]
fn perft_and_bench() {
    let mut s = UciSession::new();
    let reply = s.handle("go perft 3");
    assert_eq!(reply.len(), 46);
    assert_eq!(last(&reply), "Nodes searched: 79666");
    let a = s.handle("bench 3");
    let b = s.handle("bench 3");
    let nodes = |r: &[String]| r.iter().find(|l| l.starts_with("Nodes searched")).cloned().unwrap();
    assert_eq!(nodes(&a), nodes(&b), "bench is deterministic");
}

#[test]
fn served_while_searching() {
    check_served_while_searching::<Pikafish>("h2e2", START);
}

/// Bad bytes, a NUL, a 1 MiB line, CRLF and the end of input during a search.
#[test]
fn bad_input_is_reported_and_serving_goes_on() {
    check_bad_input::<Pikafish>("h2e2", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
}

#[allow(dead_code)] // the other tests use more of it
mod common;

/// Two short games against Fairy-Stockfish through both UCI interfaces, where it is installed: every move of
/// ours must be legal by its rules and every move of its by ours.
#[test]
fn games_against_fairy_stockfish() {
    let Some(mut fairy) = common::Fairy::start("the game test against Fairy-Stockfish") else {
        return;
    };
    fairy.ask("setoption name Skill Level value 0\nisready", "readyok");
    let mut session = UciSession::new();
    for we_are_red in [true, false] {
        let mut pos = tabula_xiangqi::Position::startpos();
        let mut moves: Vec<tabula_xiangqi::Move> = Vec::new();
        for ply in 0..60 {
            if !pos.has_legal_move() {
                break;
            }
            let mv = if (ply % 2 == 0) == we_are_red {
                let line = moves.iter().map(|m| m.to_iccs()).collect::<Vec<_>>().join(" ");
                session.handle(&format!("position startpos moves {line}"));
                let reply = session.handle("go movetime 20");
                let text = last(&reply).split_whitespace().nth(1).unwrap().to_owned();
                pos.parse_iccs(&text).unwrap_or_else(|e| panic!("{e}"))
            } else {
                let fairy_moves: Vec<String> = moves.iter().map(|m| m.to_fairy()).collect();
                fairy.set_position(
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                    &fairy_moves,
                );
                let reply = fairy.ask("go movetime 20", "bestmove").pop().unwrap();
                let text = reply.split_whitespace().nth(1).unwrap().to_owned();
                pos.parse_fairy(&text).unwrap_or_else(|e| panic!("{e}"))
            };
            pos.play_unchecked(mv);
            moves.push(mv);
        }
    }
}
