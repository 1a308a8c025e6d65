//! Transcripts of UCCI sessions (as ElephantEye speaks it): every command, malformed input, and the threaded
//! harness serving `isready`, `probe`, `stop` and `ponderhit` while it searches.

use std::time::Duration;
use tabula_board::testing::uci::check_bad_lines;
use tabula_protocol::server::Connection;
use tabula_xiangqi::engine::ucci::UcciSession;

#[allow(dead_code)] // the other tests use more of it
mod common;

const WAIT: Duration = Duration::from_secs(60);

fn last(lines: &[String]) -> &str {
    lines.last().map(String::as_str).unwrap_or("")
}

fn count(text: &str, word: &str) -> usize {
    text.lines().filter(|l| l.split_whitespace().next() == Some(word)).count()
}

#[test]
fn identification_and_options() {
    let mut s = UcciSession::new();
    let id = s.handle("ucci");
    assert!(id[0].starts_with("id name Tabula"));
    for option in [
        "usemillisec type check",
        "hashsize type spin",
        "threads type spin",
        "newgame type button",
        "evaluation type combo var nnue var classical default nnue",
        "evalfile type string default <embedded>",
    ] {
        assert!(id.iter().any(|l| l.starts_with(&format!("option {option}"))), "{option}");
    }
    assert_eq!(last(&id), "ucciok");
    for ok in [
        "setoption usemillisec true",
        "setoption hashsize 8",
        "setoption threads 1",
        "setoption newgame",
        "setoption ponder false",
        "setoption batch on",
        "setoption bookfiles book.dat",
        "setoption randomness small",
        "setoption evaluation classical",
        "setoption evaluation nnue",
        "setoption evalfile <embedded>",
        "",
    ] {
        assert!(s.handle(ok).is_empty(), "{ok}");
    }
    for bad in [
        "setoption",
        "setoption hashsize lots",
        "setoption usemillisec maybe",
        "setoption colour red",
        "setoption evaluation neural",
        "setoption evalfile /nonexistent/net.tbnn",
        "frob",
    ] {
        let reply = s.handle(bad);
        assert!(reply.len() == 1 && reply[0].starts_with("info string error: "), "{bad}: {reply:?}");
    }
    assert_eq!(s.handle("isready"), ["readyok"]);
    assert_eq!(s.handle("quit"), ["bye"]);
}

#[test]
fn a_network_given_as_a_file_evaluates_and_plays() {
    let net = common::random_network_file("ucci");
    let mut s = UcciSession::new();
    // The classical evaluation asked for, then a network file: the network evaluates once asked for again.
    assert!(s.handle("setoption evaluation classical").is_empty());
    assert!(s.handle("position startpos").is_empty());
    let classical = s.handle("go depth 3");
    assert!(last(&classical).starts_with("bestmove "), "{classical:?}");
    // A chess network is refused with the loader's message.
    let chess = common::chess_shaped_file("ucci-chess");
    let reply = s.handle(&format!("setoption evalfile {}", chess.name()));
    assert!(reply.len() == 1 && reply[0].contains("768") && reply[0].contains("1260"), "{reply:?}");
    assert_eq!(s.handle("isready"), ["readyok"]);
    // The xiangqi file loaded and the network asked for: the searches answer legal moves.
    assert_eq!(
        s.handle(&format!("setoption evalfile {}", net.name())),
        [format!("info string network {} loaded", net.name())]
    );
    assert!(s.handle("setoption evaluation nnue").is_empty());
    let bench = s.handle("bench 2");
    assert!(bench.iter().any(|l| l.ends_with("evaluation nnue")), "{bench:?}");
    for (position, fen) in [
        ("startpos moves h2e2", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"),
        ("fen 5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w"),
    ] {
        assert!(s.handle(&format!("position {position}")).is_empty());
        let reply = s.handle("go depth 4");
        assert!(reply.iter().any(|l| l.starts_with("info depth 4 score ")), "{reply:?}");
        common::assert_legal_answer(&reply, fen);
    }
    assert!(s.handle("position startpos").is_empty());
    let scores = |reply: &[String]| reply.iter().filter(|l| l.starts_with("info depth")).cloned().collect::<Vec<_>>();
    let nnue = s.handle("go depth 3");
    assert_ne!(scores(&nnue), scores(&classical), "the network searches as the classical evaluation does");
    assert_eq!(s.handle("quit"), ["bye"]);
}

#[test]
fn go_modes_and_answers() {
    let mut s = UcciSession::new();
    s.handle("setoption usemillisec true");
    assert!(s.handle("position startpos moves h2e2 h9g7").is_empty());
    let reply = s.handle("go depth 3");
    assert!(reply[0].starts_with("info depth 1 score "), "{reply:?}");
    assert!(reply.iter().any(|l| l.starts_with("info time ") && l.contains(" nodes ")), "{reply:?}");
    assert!(last(&reply).starts_with("bestmove "), "{reply:?}");
    assert!(last(&s.handle("go nodes 3000")).starts_with("bestmove "));
    assert!(last(&s.handle("go time 2000 increment 20")).starts_with("bestmove "));
    assert!(last(&s.handle("go time 2000 movestogo 10 opptime 1000 oppmovestogo 10")).starts_with("bestmove "));
    let reply = s.handle("go depth x wibble depth 2");
    assert_eq!(reply.iter().filter(|l| l.starts_with("info string error")).count(), 2, "{reply:?}");
    assert!(last(&reply).starts_with("bestmove "));
    // Banned moves are not played; banning every move leaves nothing to play.
    s.handle("position fen 5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert!(s.handle("banmoves d0d1").is_empty());
    assert!(last(&s.handle("go depth 3")).starts_with("bestmove d0e0"));
    s.handle("banmoves d0d1 d0e0");
    assert_eq!(s.handle("go depth 3"), ["nobestmove"]);
    // A new position clears the ban.
    s.handle("position fen 5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert!(last(&s.handle("go depth 3")).starts_with("bestmove "));
    assert!(s.handle("banmoves a0a1")[0].starts_with("info string error: illegal move"));
    // No legal move: nobestmove.
    s.handle("position fen 4k4/3R5/9/9/9/9/9/9/9/3K1R3 b - - 0 1");
    assert_eq!(last(&s.handle("go depth 3")), "nobestmove");
    // Drawn by the move limit (120 plies without a capture) but not over: a referee or GUI declares that
    // draw, so the engine still answers with a legal move.
    let fen = "3k5/9/9/9/9/9/9/9/9/4K4 b - - 120 80";
    s.handle(&format!("position fen {fen}"));
    common::assert_legal_answer(&s.handle("go depth 3"), fen);
    // A mate found is scored 10000 minus its plies.
    s.handle("position fen 4k4/R8/9/9/9/9/9/9/9/3K1R3 w - - 0 1");
    let reply = s.handle("go depth 3");
    assert!(reply.iter().any(|l| l.starts_with("info depth") && l.contains(" score 9999 ")), "{reply:?}");
}

#[test]
fn draw_offers_are_taken_when_behind() {
    let mut s = UcciSession::new();
    // Red, to move, is a rook down: a draw offer is accepted.
    s.handle("position fen 3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1");
    assert!(last(&s.handle("go draw depth 3")).ends_with(" draw"));
    // Up a rook, it plays on.
    s.handle("position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    assert!(!last(&s.handle("go draw depth 3")).ends_with(" draw"));
}

#[test]
fn probe_reads_the_table() {
    let mut s = UcciSession::new();
    assert_eq!(s.handle("probe startpos"), ["pophash"]);
    s.handle("position startpos");
    let best = last(&s.handle("go depth 5")).split_whitespace().nth(1).unwrap().to_owned();
    let reply = s.handle("probe startpos");
    assert!(reply[0].starts_with(&format!("pophash bestmove {best} ")), "{reply:?}");
    assert!(reply[0].contains(" depth "), "{reply:?}");
    assert!(s.handle("probe fen nonsense")[0].starts_with("info string error"));
}

#[test]
fn served_while_searching() {
    let engine = Connection::open(UcciSession::new());
    engine.send_line("ucci");
    engine.send_line("setoption usemillisec true");
    engine.send_line("position startpos moves h2e2");
    engine.send_line("go depth infinite");
    assert!(engine.wait_until(WAIT, |o| o.contains("info depth 2 ")));
    engine.send_line("isready");
    engine.send_line("probe startpos moves h2e2");
    assert!(engine.wait_until(WAIT, |o| o.contains("readyok") && o.contains("pophash")));
    assert_eq!(count(&engine.output(), "bestmove"), 0, "no bestmove before stop in infinite mode");
    engine.send_line("stop");
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 1));
    // A ponder search that is stopped answers nobestmove; one that is hit answers bestmove.
    engine.send_line("go ponder time 300");
    std::thread::sleep(Duration::from_millis(200));
    engine.send_line("stop");
    assert!(engine.wait_until(WAIT, |o| count(o, "nobestmove") == 1));
    engine.send_line("go ponder time 300");
    std::thread::sleep(Duration::from_millis(200));
    engine.send_line("ponderhit");
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 2));
    engine.send_line("go time 100");
    engine.send_line("quit");
    assert!(engine.wait_until(WAIT, |_| engine.is_closed()));
    let (_, out) = engine.close();
    assert_eq!(count(&out, "bestmove"), 3);
    assert!(out.ends_with("bye\n"), "{out}");
}

/// Bad bytes, a NUL, a 1 MiB line, CRLF and the end of input during a search: each bad line is answered with
/// `info string error: ...` and the next good command is served.
#[test]
fn bad_input_is_reported_and_serving_goes_on() {
    let tail = "position startpos moves h2e2\r\nbanmoves h9g7\r\ngo depth infinite\r\n";
    let out = check_bad_lines(UcciSession::new(), "ucci", tail);
    let lines: Vec<&str> = out.lines().collect();
    // The CRLF commands were read: the ban held, and the end of input stopped the search, which answered.
    let best = lines.last().unwrap();
    assert!(best.starts_with("bestmove ") && !best.starts_with("bestmove h9g7"), "{out}");
}
