//! Transcripts every game's UCI session must pass, whatever its dialect: the shared session's commands and
//! the threaded harness, run through a game's own [`UciSession`]. A game's test names what differs (its
//! moves, its positions, its own options) and adds its own checks.

use std::time::Duration;
use tabula_protocol::server::{Connection, Protocol};
use tabula_protocol::uci_session::{Dialect, UciPosition, UciSession};

/// How long a transcript waits for an answer before it fails.
pub const WAIT: Duration = Duration::from_secs(60);

/// The last line of a reply (empty if there is none).
pub fn last(lines: &[String]) -> &str {
    lines.last().map(String::as_str).unwrap_or("")
}

/// How many times `word` stands in `text`.
pub fn count(text: &str, word: &str) -> usize {
    text.matches(word).count()
}

/// `uci` names the engine and the options every session has and `options` besides; each of `good` (and the
/// commands every session takes) is answered with nothing, each of `bad` (and the malformed commands every
/// session refuses) with one `info string`; `isready` with `readyok`.
///
/// # Panics
///
/// At the first answer that differs.
pub fn check_identification_and_options<D: Dialect + Default>(options: &[&str], good: &[&str], bad: &[&str]) {
    let mut s = UciSession::<D>::new();
    let id = s.handle("uci");
    assert!(id[0].starts_with("id name Tabula") && id[1].starts_with("id author"), "{id:?}");
    for option in ["Hash", "Threads", "Clear Hash", "Move Overhead", "Ponder"].iter().chain(options) {
        assert!(id.iter().any(|l| l.starts_with(&format!("option name {option} type"))), "{option}");
    }
    assert_eq!(last(&id), "uciok");
    assert_eq!(s.handle("isready"), ["readyok"]);
    let shared_good = [
        "setoption name Hash value 8",
        "setoption name Threads value 2",
        "setoption name Threads value 1",
        "setoption name Clear Hash",
        "setoption name Move Overhead value 50",
        "setoption name Ponder value true",
        "ucinewgame",
        "debug on",
        "",
        "   ",
    ];
    for ok in shared_good.iter().chain(good) {
        assert!(s.handle(ok).is_empty(), "{ok}");
    }
    let shared_bad = [
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Threads",
        "setoption name Colour value blue",
        "setoption value 3",
        "setoption name Ponder value maybe",
        "xyzzy",
        "bench 0",
        "go perft x",
    ];
    for bad in shared_bad.iter().chain(bad) {
        let reply = s.handle(bad);
        assert!(reply.len() == 1 && reply[0].starts_with("info string "), "{bad}: {reply:?}");
    }
    assert_eq!(s.handle("isready"), ["readyok"]);
}

/// Malformed `position` commands are each answered with one `info string`; `start_move` is a legal first move
/// (written without `moves`, which makes the command malformed).
///
/// # Panics
///
/// At the first answer that differs.
pub fn check_malformed_positions<D: Dialect>(s: &mut UciSession<D>, start_move: &str) {
    let without_moves = format!("position startpos {start_move}");
    for bad in ["position", "position fen", "position fen not a fen", "position somewhere", &without_moves] {
        let reply = s.handle(bad);
        assert!(reply.len() == 1 && reply[0].starts_with("info string "), "{bad}: {reply:?}");
    }
}

/// Every kind of `go` ends with a `bestmove`, from the start: `depth` (an `info` line a depth, each with its
/// fields), `nodes`, `movetime`, a clock; `searchmoves` limited to `root` (two legal first moves); and a `go`
/// with three malformed parts (`wibble`, a bad depth, `bad_root`, an illegal first move among
/// `searchmoves`), each reported.
///
/// # Panics
///
/// At the first answer that differs.
pub fn check_go_variants<D: Dialect>(s: &mut UciSession<D>, root: [&str; 2], bad_root: &str) {
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
    // searchmoves restricts the root.
    let reply = s.handle(&format!("go depth 3 searchmoves {} {}", root[0], root[1]));
    let best = last(&reply).split_whitespace().nth(1).unwrap().to_owned();
    assert!(root.contains(&best.as_str()), "{reply:?}");
    // Malformed parts are reported, and the search still answers.
    let reply = s.handle(&format!("go depth x wibble searchmoves {bad_root} depth 2"));
    assert_eq!(reply.iter().filter(|l| l.starts_with("info string ")).count(), 3, "{reply:?}");
    assert!(last(&reply).starts_with("bestmove "));
}

/// The threaded harness, after `position startpos moves <first_move>`: `isready` is served during an infinite
/// search, which answers only after `stop`; a pondering search answers only after `ponderhit`; a timed search
/// ends by itself and a new command waits for it; an infinite search is stopped by the next command, which is
/// served; `quit` during a search ends the session after its `bestmove`. `start_fen` is the start's FEN,
/// which `d` shows.
///
/// # Panics
///
/// At the first answer that differs, or one that does not come within [`WAIT`].
pub fn check_served_while_searching<D: Dialect + Default>(first_move: &str, start_fen: &str) {
    let engine = Connection::open(UciSession::<D>::new());
    engine.send_line(&format!("position startpos moves {first_move}"));
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
    assert!(out.rfind("bestmove").unwrap() < out.find(&format!("Fen: {start_fen}")).unwrap());
    // A plain infinite search is stopped by the next command, which is then served.
    engine.send_line("go infinite");
    engine.send_line("d");
    assert!(engine.wait_until(WAIT, |o| count(o, "Fen: ") == 2));
    assert_eq!(count(&engine.output(), "bestmove"), 4);
    engine.send_line("go wtime 50 btime 50");
    engine.send_line("quit");
    assert!(engine.wait_until(WAIT, |_| engine.is_closed()));
    let (_, out) = engine.close();
    assert_eq!(count(&out, "bestmove"), 5);
}

/// Bad bytes, a NUL, a 1 MiB line, CRLF and the end of input during a search, for a session of any protocol of
/// the UCI family greeted by `hello` (`uci`, `ucci`, answered by `<hello>ok`): each bad line is answered with
/// `info string error: ...` and the next good command is served. `tail` is the rest of the input, CRLF lines
/// ending with an infinite search; returns the output for the game's own checks on them.
///
/// # Panics
///
/// At the first answer that differs.
pub fn check_bad_lines<P: Protocol + Send + 'static>(session: P, hello: &str, tail: &str) -> String {
    let engine = Connection::open(session);
    let mut before = format!("{hello}\r\n").into_bytes();
    before.extend_from_slice(b"\xff\xfe\nisready\nposition\0 startpos\nisready\n");
    engine.send_with_long_line(&before, b'x', format!("\r\n{tail}").as_bytes());
    assert!(engine.wait_until(WAIT, |o| o.contains("info depth 1 ")));
    let (_, out) = engine.close();
    let lines: Vec<&str> = out.lines().collect();
    let at =
        |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}: {out}"));
    assert!(at(&format!("{hello}ok")) < at("info string error: line 2 is not valid UTF-8 (byte 0xff at column 1)"));
    assert!(at("info string error: line 2") < at("readyok"));
    let nul = at("info string error: line 4 holds a NUL byte at column 9");
    assert_eq!(lines[nul + 1], "readyok");
    assert!(at("info string error: line 6 is 1048576 bytes long") > nul);
    out
}

/// [`check_bad_lines`] for a UCI session: the CRLF lines `position startpos moves <first_move>` and `d` show
/// `fen_after`, and the end of input stops the infinite search, which answers.
///
/// # Panics
///
/// At the first answer that differs.
pub fn check_bad_input<D: Dialect + Default>(first_move: &str, fen_after: &str) {
    let tail = format!("position startpos moves {first_move}\r\nd\r\ngo infinite\r\n");
    let out = check_bad_lines(UciSession::<D>::new(), "uci", &tail);
    let lines: Vec<&str> = out.lines().collect();
    // CRLF lines are read as the same commands.
    assert!(lines.contains(&format!("Fen: {fen_after}").as_str()), "{out}");
    // The end of input stopped the infinite search, which answered.
    assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
}

/// The FEN of the session's position.
pub fn fen<D: Dialect>(s: &UciSession<D>) -> String {
    s.position().to_fen()
}
