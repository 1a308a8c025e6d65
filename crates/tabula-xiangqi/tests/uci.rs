//! Transcripts of xiangqi UCI sessions (as Pikafish speaks it): every command, malformed input, and the
//! threaded harness serving `isready`, `stop` and `ponderhit` while it searches.

use std::time::Duration;
use tabula_protocol::server::Connection;
use tabula_xiangqi::engine::uci::UciSession;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const WAIT: Duration = Duration::from_secs(60);

fn last(lines: &[String]) -> &str {
    lines.last().map(String::as_str).unwrap_or("")
}

fn count(text: &str, word: &str) -> usize {
    text.matches(word).count()
}

#[test]
fn identification_and_options() {
    let mut s = UciSession::new();
    let id = s.handle("uci");
    assert!(id[0].starts_with("id name Tabula") && id[1].starts_with("id author"));
    for option in ["Hash", "Threads", "Clear Hash", "Move Overhead", "Ponder"] {
        assert!(id.iter().any(|l| l.starts_with(&format!("option name {option} type"))), "{option}");
    }
    assert_eq!(last(&id), "uciok");
    for ok in [
        "setoption name Hash value 8",
        "setoption name Threads value 2",
        "setoption name Threads value 1",
        "setoption name Clear Hash",
        "setoption name Move Overhead value 50",
        "setoption name Ponder value true",
        "ucinewgame",
        "debug on",
        "",
    ] {
        assert!(s.handle(ok).is_empty(), "{ok}");
    }
    for bad in [
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Colour value red",
        "setoption value 3",
        "setoption name Ponder value maybe",
        "xyzzy",
        "bench 0",
        "go perft x",
    ] {
        let reply = s.handle(bad);
        assert!(reply.len() == 1 && reply[0].starts_with("info string "), "{bad}: {reply:?}");
    }
    assert_eq!(s.handle("isready"), ["readyok"]);
}

#[test]
fn positions_moves_and_errors() {
    let mut s = UciSession::new();
    assert!(s.handle("position startpos moves h2e2 h9g7").is_empty());
    assert_eq!(s.position().to_fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    assert_eq!(s.position().history_len(), 2);
    // `r` for Red to move, as some tools write.
    assert!(s.handle("position fen 4k4/9/9/9/9/9/9/9/9/3K5 r moves d0d1").is_empty());
    assert_eq!(s.position().to_fen(), "4k4/9/9/9/9/9/9/9/3K5/9 b - - 1 1");
    // An illegal move is reported; the position keeps the moves before it.
    let reply = s.handle("position startpos moves h2e2 h2e2 h9g7");
    assert!(reply[0].starts_with("info string illegal move 'h2e2'"), "{reply:?}");
    assert_eq!(s.position().history_len(), 1);
    for bad in ["position", "position fen", "position fen not a fen", "position somewhere", "position startpos h2e2"] {
        let reply = s.handle(bad);
        assert!(reply.len() == 1 && reply[0].starts_with("info string "), "{bad}: {reply:?}");
    }
    s.handle("position startpos");
    let d = s.handle("d");
    assert!(d.contains(&format!("Fen: {START}")), "{d:?}");
    assert!(d.iter().any(|l| l.starts_with("Key: ")));
    assert_eq!(d[0], "9 r n b a k a b n r");
}

#[test]
fn go_variants_end_with_bestmove() {
    let mut s = UciSession::new();
    s.handle("position startpos");
    let reply = s.handle("go depth 4");
    assert_eq!(reply.len(), 5, "{reply:?}");
    for (i, line) in reply[..4].iter().enumerate() {
        assert!(line.starts_with(&format!("info depth {} seldepth ", i + 1)), "{line}");
        for field in [" score cp ", " nodes ", " nps ", " hashfull ", " time ", " pv "] {
            assert!(line.contains(field), "{line} lacks{field}");
        }
    }
    assert!(last(&reply).starts_with("bestmove "));
    assert!(last(&s.handle("go nodes 2000")).starts_with("bestmove "));
    assert!(last(&s.handle("go movetime 50")).starts_with("bestmove "));
    assert!(last(&s.handle("go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5")).starts_with("bestmove "));
    let reply = s.handle("go depth 3 searchmoves a3a4 i3i4");
    let best = last(&reply).split_whitespace().nth(1).unwrap().to_owned();
    assert!(best == "a3a4" || best == "i3i4", "{reply:?}");
    let reply = s.handle("go depth x wibble searchmoves e3e5 depth 2");
    assert_eq!(reply.iter().filter(|l| l.starts_with("info string ")).count(), 3, "{reply:?}");
    assert!(last(&reply).starts_with("bestmove "));
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
    assert_eq!(s.position().history_len(), 4);
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
    let engine = Connection::open(UciSession::new());
    engine.send_line("position startpos moves h2e2");
    engine.send_line("go infinite");
    assert!(engine.wait_until(WAIT, |o| o.contains("info depth 2 ")));
    engine.send_line("isready");
    assert!(engine.wait_until(WAIT, |o| o.contains("readyok")));
    assert_eq!(count(&engine.output(), "bestmove"), 0, "no bestmove before stop in infinite mode");
    engine.send_line("stop");
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 1));
    // Pondering: no bestmove until ponderhit, then the clock applies.
    engine.send_line("go ponder wtime 300 btime 300");
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(count(&engine.output(), "bestmove"), 1);
    engine.send_line("ponderhit");
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 2));
    // A timed search ends by itself; a new command waits for it.
    engine.send_line("go movetime 100");
    engine.send_line("position startpos");
    engine.send_line("d");
    assert!(engine.wait_until(WAIT, |o| count(o, "Fen: ") == 1));
    let out = engine.output();
    assert_eq!(count(&out, "bestmove"), 3);
    assert!(out.rfind("bestmove").unwrap() < out.find(&format!("Fen: {START}")).unwrap());
    engine.send_line("go wtime 50 btime 50");
    engine.send_line("quit");
    assert!(engine.wait_until(WAIT, |_| engine.is_closed()));
    let (_, out) = engine.close();
    assert_eq!(count(&out, "bestmove"), 4);
}

/// Bad bytes, a NUL, a 1 MiB line, CRLF and the end of input during a search: each bad line is answered with
/// `info string error: ...` and the next good command is served.
#[test]
fn bad_input_is_reported_and_serving_goes_on() {
    let engine = Connection::open(UciSession::new());
    let mut input = b"uci\r\n\xff\xfe\nisready\nposition\0 startpos\nisready\n".to_vec();
    input.extend(std::iter::repeat(b'x').take(1 << 20));
    input.extend_from_slice(b"\r\nposition startpos moves h2e2\r\nd\r\ngo infinite\r\n");
    engine.send(&input);
    assert!(engine.wait_until(WAIT, |o| o.contains("info depth 1 ")));
    let (_, out) = engine.close();
    let lines: Vec<&str> = out.lines().collect();
    let at =
        |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}: {out}"));
    assert!(at("uciok") < at("info string error: line 2 is not valid UTF-8 (byte 0xff at column 1)"));
    assert!(at("info string error: line 2") < at("readyok"));
    let nul = at("info string error: line 4 holds a NUL byte at column 9");
    assert_eq!(lines[nul + 1], "readyok");
    assert!(at("info string error: line 6 is 1048576 bytes long") > nul);
    assert!(lines.contains(&"Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"), "{out}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
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
