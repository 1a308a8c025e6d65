//! Transcripts of UCI sessions: every command, malformed input, and the threaded driver serving `isready`,
//! `stop` and `ponderhit` while it searches. The Stockfish game test runs only where Stockfish is installed.

use std::time::Duration;
use tabula_board::testing::uci::{
    check_bad_input, check_go_variants, check_identification_and_options, check_malformed_positions,
    check_served_while_searching, count, last, WAIT,
};
use tabula_chess::engine::strength::ELO_RANGE;
use tabula_chess::engine::uci::{Chess, UciSession};
use tabula_chess::Position;
use tabula_protocol::server::Connection;

mod common;

#[test]
fn identification_and_options() {
    check_identification_and_options::<Chess>(
        &["OwnBook", "BookFile", "Evaluation", "EvalFile"],
        &[
            "setoption name OwnBook value true",
            "setoption name ownbook value false",
            "setoption name BookFile value <empty>",
            "setoption name Evaluation value tapered",
            "setoption name evaluation value NNUE",
            "setoption name EvalFile value <embedded>",
        ],
        &[
            "setoption name OwnBook value maybe",
            "setoption name BookFile value /nonexistent/book.bin",
            "setoption name Evaluation value neural",
            "setoption name EvalFile value /nonexistent/net.tbnn",
            "setoption name EvalFile value Cargo.toml",
        ],
    );
}

#[test]
fn positions_moves_and_errors() {
    let mut s = UciSession::new();
    assert!(s.handle("position startpos moves e2e4 e7e5 g1f3").is_empty());
    assert_eq!(s.position().position().to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert!(s.handle(&format!("position fen {fen} moves e1g1")).is_empty());
    assert_eq!(s.position().position().to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // An illegal move is reported; the position keeps the moves before it.
    let reply = s.handle("position startpos moves e2e4 e2e4 d2d4");
    assert!(reply[0].starts_with("info string illegal move 'e2e4'"), "{reply:?}");
    assert_eq!(s.position().position().to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    check_malformed_positions(&mut s, "e2e4");
    let d = s.handle("d");
    assert!(d.iter().any(|l| l == "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{d:?}");
    assert!(d.iter().any(|l| l.starts_with("Key: ")));
    s.handle("ucinewgame");
    assert_eq!(s.position().position().to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn go_variants_end_with_bestmove() {
    let mut s = UciSession::new();
    check_go_variants(&mut s, ["a2a3", "h2h3"], "e2e5");
    // A mate in one found within `go mate 2`, and reported as such.
    s.handle("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1");
    let reply = s.handle("go mate 2");
    assert!(reply.iter().any(|l| l.contains("score mate 1")), "{reply:?}");
    assert_eq!(last(&reply), "bestmove h1h8");
    // No legal move: `bestmove (none)`.
    s.handle("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(last(&s.handle("go depth 3")), "bestmove (none)");
    // Drawn by rule but not over: the fifty-move rule is claimed and a dead position declared by the players or
    // their GUI, so the engine still answers with a legal move (as Stockfish does), scored a draw.
    for fen in ["8/K7/8/4Q3/8/8/3k4/8 b - - 100 51", "8/8/8/4k3/8/8/3K4/8 w - - 0 51"] {
        s.handle(&format!("position fen {fen}"));
        let reply = s.handle("go nodes 1000");
        let best = last(&reply).strip_prefix("bestmove ").unwrap_or_else(|| panic!("{fen}: {reply:?}"));
        let legal: Vec<String> = Position::from_fen(fen).unwrap().legal_moves().iter().map(|m| m.to_uci()).collect();
        assert!(legal.iter().any(|m| m == best), "{fen}: {best} not among {legal:?}");
        assert!(reply.iter().any(|l| l.contains(" score cp 0 ")), "{fen}: {reply:?}");
    }
}

/// The words after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let at = line.find(&format!(" {key} ")).unwrap_or_else(|| panic!("no {key} in {line}")) + key.len() + 2;
    line[at..].split(' ').next().unwrap()
}

/// The centipawns of an `info` line's score, mates as ±100,000 less the moves.
fn centipawns(line: &str) -> i64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").unwrap();
    let n: i64 = words[at + 2].parse().unwrap();
    match words[at + 1] {
        "cp" => n,
        "mate" => n.signum() * 100_000 - n,
        other => panic!("score {other} in {line}"),
    }
}

/// MultiPV as an analysis board sets it: at every depth one `info` line per line, tagged `multipv 1..N` in
/// order, best first, each on another root move; the best move is the first line's; `MultiPV 1` is plain.
#[test]
fn multi_pv_reports_the_best_lines_at_every_depth() {
    let mut s = UciSession::new();
    let id = s.handle("uci");
    assert!(id.contains(&"option name MultiPV type spin default 1 min 1 max 256".to_owned()), "{id:?}");
    assert!(s.handle("setoption name MultiPV value 3").is_empty());
    s.handle("ucinewgame");
    s.handle("position startpos moves e2e4 e7e5");
    let reply = s.handle("go depth 5");
    let infos: Vec<&String> = reply.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 15, "{reply:?}");
    for (depth, group) in infos.chunks(3).enumerate() {
        let mut firsts = Vec::new();
        for (k, line) in group.iter().enumerate() {
            assert!(line.starts_with(&format!("info depth {} seldepth ", depth + 1)), "{line}");
            assert_eq!(field(line, "multipv"), (k + 1).to_string(), "{line}");
            firsts.push(field(line, "pv"));
        }
        assert!(centipawns(group[0]) >= centipawns(group[1]) && centipawns(group[1]) >= centipawns(group[2]));
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "{group:?}");
    }
    assert_eq!(last(&reply).split_whitespace().nth(1), Some(field(infos[12], "pv")));

    // Two mates in one, then the rest: the mates come first.
    s.handle("position fen 6k1/5ppp/8/8/8/8/5PPP/R3R1K1 w - - 0 1");
    let reply = s.handle("go depth 3");
    let deepest: Vec<&String> = reply.iter().filter(|l| l.starts_with("info depth 3 ")).collect();
    let mut mates: Vec<&str> = deepest[..2].iter().map(|l| field(l, "pv")).collect();
    mates.sort_unstable();
    assert_eq!(mates, ["a1a8", "e1e8"], "{reply:?}");
    assert!(deepest.iter().take(2).all(|l| l.contains(" score mate 1 ")) && !deepest[2].contains(" mate "));

    // Fewer legal moves than lines: as many lines as moves. searchmoves: only those.
    s.handle("position fen 7k/8/8/8/8/8/6q1/K7 w - - 0 1");
    let reply = s.handle("go depth 2");
    assert_eq!(reply.iter().filter(|l| l.starts_with("info depth 2 ")).count(), 1, "{reply:?}");
    s.handle("position startpos");
    let reply = s.handle("go depth 3 searchmoves a2a3 h2h3 b1a3 g1h3");
    let deepest: Vec<&str> = reply.iter().filter(|l| l.starts_with("info depth 3 ")).map(|l| field(l, "pv")).collect();
    assert_eq!(deepest.len(), 3, "{reply:?}");
    assert!(deepest.iter().all(|m| ["a2a3", "h2h3", "b1a3", "g1h3"].contains(m)), "{reply:?}");

    // Bad values are reported and change nothing; back to one line, no tag.
    for bad in ["value 0", "value 257", "value three", "value", ""] {
        let reply = s.handle(&format!("setoption name MultiPV {bad}"));
        assert!(reply.len() == 1 && reply[0].starts_with("info string 'MultiPV' expects"), "{bad}: {reply:?}");
    }
    assert_eq!(s.handle("go depth 2").iter().filter(|l| l.contains(" multipv 3 ")).count(), 2);
    assert!(s.handle("setoption name multipv value 1").is_empty());
    let reply = s.handle("go depth 3");
    assert!(reply.iter().all(|l| !l.contains("multipv")) && reply.len() == 4, "{reply:?}");
}

/// The `wdl` of an `info` line: wins, draws and losses in per mille.
fn wdl(line: &str) -> [u32; 3] {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "wdl").unwrap_or_else(|| panic!("no wdl in {line}"));
    [1, 2, 3].map(|k| words[at + k].parse().unwrap())
}

/// `UCI_ShowWDL` as python-chess and Stockfish use it: `score ... wdl W D L` on every line, adding up to 1000,
/// the side with the better score the likelier winner, a mate a certain result; per line under MultiPV.
#[test]
fn show_wdl_gives_the_chances_with_every_score() {
    let mut s = UciSession::new();
    let id = s.handle("uci");
    for option in ["UCI_ShowWDL type check default false", "UCI_AnalyseMode type check default false"] {
        assert!(id.contains(&format!("option name {option}")), "{option}: {id:?}");
    }
    assert!(s.handle("go depth 2").iter().all(|l| !l.contains(" wdl ")));
    assert!(s.handle("setoption name UCI_ShowWDL value true").is_empty());
    // White is a rook up, every other piece on the board.
    s.handle("position fen rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1");
    let reply = s.handle("go depth 4");
    for line in reply.iter().filter(|l| l.starts_with("info depth")) {
        let [w, d, l] = wdl(line);
        assert_eq!(w + d + l, 1000, "{line}");
        assert!(centipawns(line) > 300 && w > 500 && l < 50, "{line}");
        assert!(line.contains(&format!(" score cp {} wdl ", centipawns(line))), "wdl follows the score: {line}");
    }
    // Black to move in the same position: the chances turn around.
    s.handle("position fen rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQq - 0 1");
    let reply = s.handle("go depth 4");
    let [w, _, l] = wdl(reply.iter().rfind(|l| l.starts_with("info depth")).unwrap());
    assert!(l > 500 && w < 50, "{reply:?}");
    // A mate, and several lines.
    s.handle("setoption name MultiPV value 3");
    s.handle("position fen 6k1/5ppp/8/8/8/8/5PPP/R3R1K1 w - - 0 1");
    let reply = s.handle("go depth 3");
    let deepest: Vec<&String> = reply.iter().filter(|l| l.starts_with("info depth 3 ")).collect();
    assert_eq!(deepest.len(), 3, "{reply:?}");
    assert_eq!(wdl(deepest[0]), [1000, 0, 0]);
    assert_eq!(wdl(deepest[1]), [1000, 0, 0]);
    // The third line is no mate but two rooks up: well ahead (few pieces left, so the model wants a big score
    // for a sure win; the network scores it about 950 centipawns).
    let [w, _, l] = wdl(deepest[2]);
    assert!(!deepest[2].contains(" mate ") && w > 600 && l < 50, "{reply:?}");
    for bad in ["value maybe", "value", ""] {
        let reply = s.handle(&format!("setoption name UCI_ShowWDL {bad}"));
        assert!(reply.len() == 1 && reply[0].starts_with("info string 'UCI_ShowWDL' expects"), "{reply:?}");
    }
    s.handle("setoption name UCI_ShowWDL value false");
    assert!(s.handle("go depth 2").iter().all(|l| !l.contains(" wdl ")));
}

/// `UCI_AnalyseMode`: with a book loaded the engine answers the start position from it in play, and
/// searches it when the GUI analyses.
#[test]
fn analyse_mode_searches_instead_of_reading_the_book() {
    let mut s = UciSession::new();
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay.bin");
    assert!(s.handle(&format!("setoption name BookFile value {book}"))[0].contains("loaded"));
    s.handle("setoption name OwnBook value true");
    s.handle("position startpos");
    let reply = s.handle("go depth 3");
    assert!(reply[0].starts_with("info string book move "), "{reply:?}");
    assert!(s.handle("setoption name UCI_AnalyseMode value true").is_empty());
    let reply = s.handle("go depth 3");
    assert!(reply[0].starts_with("info depth 1 ") && last(&reply).starts_with("bestmove "), "{reply:?}");
    let reply = s.handle("setoption name UCI_AnalyseMode value 1");
    assert!(reply.len() == 1 && reply[0].starts_with("info string 'UCI_AnalyseMode' expects"), "{reply:?}");
    s.handle("setoption name UCI_AnalyseMode value false");
    assert!(s.handle("go depth 3")[0].starts_with("info string book move "));
}

/// `Skill Level`, and `UCI_Elo` under `UCI_LimitStrength`, as a GUI offers them to a human: a small node
/// budget, a move chosen among the four best within the noise (so not always the same), a mate still taken;
/// values out of range refused.
#[test]
fn limited_strength_chooses_among_the_best_moves() {
    let mut s = UciSession::new();
    let id = s.handle("uci");
    let (low, high) = (ELO_RANGE.start(), ELO_RANGE.end());
    for option in [
        "Skill Level type spin default 20 min 0 max 20".to_owned(),
        "UCI_LimitStrength type check default false".to_owned(),
        format!("UCI_Elo type spin default {} min {low} max {high}", (low + high) / 2),
    ] {
        assert!(id.contains(&format!("option name {option}")), "{option}: {id:?}");
    }
    assert!(s.handle("setoption name Skill Level value 0").is_empty());
    s.handle("setoption name MultiPV value 4");
    let mut chosen = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let reply = s.handle("go depth 30");
        let depth = field(reply.iter().rfind(|l| l.starts_with("info depth")).unwrap(), "depth");
        let deepest: Vec<&String> = reply.iter().filter(|l| l.starts_with(&format!("info depth {depth} "))).collect();
        assert_eq!(deepest.len(), 4, "{reply:?}");
        let words: Vec<&str> = last(&reply).split_whitespace().collect();
        let line = deepest.iter().find(|l| field(l, "pv") == words[1]).unwrap_or_else(|| panic!("{reply:?}"));
        assert!(centipawns(deepest[0]) - centipawns(line) <= 250, "{reply:?}");
        // The node budget of level 0 (checked every 1,024 nodes) keeps the search shallow.
        assert!(field(deepest[0], "nodes").parse::<u64>().unwrap() < 4_000 && depth.parse::<u32>().unwrap() < 8);
        chosen.insert(words[1].to_owned());
    }
    assert!(chosen.len() >= 2, "always {chosen:?}");
    // A mate in one is never passed over.
    s.handle("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    for _ in 0..8 {
        assert!(last(&s.handle("go depth 30")).starts_with("bestmove a1a8"));
    }
    // UCI_Elo takes over from Skill Level when UCI_LimitStrength is on; back to full strength without it.
    s.handle("setoption name Skill Level value 20");
    s.handle("setoption name UCI_LimitStrength value true");
    s.handle(&format!("setoption name UCI_Elo value {low}"));
    s.handle("position startpos");
    let reply = s.handle("go depth 30");
    assert!(!reply.iter().any(|l| l.starts_with("info depth 9 ")), "{reply:?}");
    for bad in ["Skill Level value 21", "Skill Level value -1", "UCI_Elo value 100", "UCI_Elo value 9000"] {
        let reply = s.handle(&format!("setoption name {bad}"));
        assert!(reply.len() == 1 && reply[0].starts_with("info string "), "{bad}: {reply:?}");
    }
    s.handle("setoption name UCI_LimitStrength value false");
    s.handle("setoption name MultiPV value 1");
    let reply = s.handle("go depth 5");
    assert!(reply.iter().any(|l| l.starts_with("info depth 5 ")), "{reply:?}");
}

#[test]
fn perft_and_bench() {
    let mut s = UciSession::new();
    let reply = s.handle("go perft 3");
    assert_eq!(reply.len(), 22);
    assert!(reply.contains(&"e2e4: 600".to_owned()));
    assert_eq!(last(&reply), "Nodes searched: 8902");
    let a = s.handle("bench 3");
    let b = s.handle("bench 3");
    let nodes = |r: &[String]| r.iter().find(|l| l.starts_with("Nodes searched")).cloned().unwrap();
    assert_eq!(nodes(&a), nodes(&b), "bench is deterministic");
    // The bench searches with the session's evaluation.
    assert!(a[0].ends_with("evaluation nnue"), "{a:?}");
    s.handle("setoption name Evaluation value tapered");
    let c = s.handle("bench 3");
    assert!(c[0].ends_with("evaluation tapered"), "{c:?}");
    let tapered =
        tabula_chess::engine::Engine::bench_with(3, tabula_chess::engine::eval::EngineEvaluation::classical).0;
    assert_eq!(nodes(&c), format!("Nodes searched  : {tapered}"));
    assert_ne!(nodes(&a), nodes(&c), "the two evaluations search different trees");
}

#[test]
fn stop_and_quit_outside_a_search_are_harmless() {
    let mut s = UciSession::new();
    assert!(s.handle("stop").is_empty());
    assert!(s.handle("ponderhit").is_empty());
    assert!(s.handle("quit").is_empty());
}

#[test]
fn served_while_searching() {
    check_served_while_searching::<Chess>("e2e4", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

/// The lines of `out` from the `n`-th `bestmove` on (0: all), and the words of that `bestmove`.
fn nth_bestmove(out: &str, n: usize) -> Vec<String> {
    let line = out.lines().filter(|l| l.starts_with("bestmove")).nth(n).unwrap_or_else(|| panic!("{n}: {out}"));
    line.split_whitespace().map(str::to_owned).collect()
}

/// Checks that `words` (`bestmove X ponder Y`) are legal moves after `moves` from the start, and returns them.
fn legal_pair(moves: &[String], words: &[String]) -> (String, String) {
    assert!(words.len() == 4 && words[2] == "ponder", "{words:?}");
    let mut pos = tabula_chess::Position::startpos();
    for mv in moves.iter().chain(&words[1..2]).chain(&words[3..4]) {
        pos.play(pos.parse_uci(mv).unwrap_or_else(|_| panic!("{mv} after {moves:?}"))).unwrap();
    }
    (words[1].clone(), words[3].clone())
}

/// Cute Chess's pondering, line for line: `setoption name Ponder value true` after `ucinewgame`; after each
/// `bestmove X ponder Y`, `position ... X Y`, `isready` and `go ponder` with the clocks; `ponderhit` when
/// the opponent plays Y, else `stop` and `isready`, the answer ignored, then the real position and `go`.
#[test]
fn pondering_as_cute_chess_drives_it() {
    let engine = Connection::open(UciSession::new());
    engine.send_line("uci");
    assert!(engine.wait_until(WAIT, |o| o.contains("uciok")));
    assert!(engine.output().contains("option name Ponder type check default false"));
    engine.send_line("isready");
    engine.send_line("ucinewgame");
    engine.send_line("setoption name Ponder value true");
    engine.send_line("position startpos");
    engine.send_line("isready");
    engine.send_line("go wtime 2000 btime 2000 winc 50 binc 50");
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 1));
    let mut moves = Vec::new();
    let (best, reply) = legal_pair(&moves, &nth_bestmove(&engine.output(), 0));
    moves.extend([best, reply]);

    // The opponent plays the expected reply: ponderhit, and the answer comes by itself.
    engine.send_line(&format!("position startpos moves {}", moves.join(" ")));
    engine.send_line("isready");
    engine.send_line("go ponder wtime 1950 btime 2000 winc 50 binc 50");
    std::thread::sleep(Duration::from_millis(300));
    let out = engine.output();
    assert_eq!(count(&out, "bestmove"), 1, "no answer while pondering: {out}");
    assert_eq!(count(&out, "readyok"), 3);
    engine.send_line("ponderhit");
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 2));
    let (best, reply) = legal_pair(&moves, &nth_bestmove(&engine.output(), 1));
    moves.extend([best, reply]);

    // Another move: stop, isready; the answer to the ponder search is discarded; then the real search.
    engine.send_line(&format!("position startpos moves {}", moves.join(" ")));
    engine.send_line("isready");
    engine.send_line("go ponder wtime 1900 btime 1950 winc 50 binc 50");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(count(&engine.output(), "bestmove"), 2);
    engine.send_line("stop");
    engine.send_line("isready");
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 3 && count(o, "readyok") == 5));
    moves.pop();
    let mut pos = tabula_chess::Position::startpos();
    for mv in &moves {
        pos.play(pos.parse_uci(mv).unwrap()).unwrap();
    }
    let other = pos.legal_moves().iter().map(|m| m.to_string()).find(|m| *m != nth_bestmove(&engine.output(), 1)[3]);
    moves.push(other.unwrap());
    engine.send_line(&format!("position startpos moves {}", moves.join(" ")));
    engine.send_line("isready");
    engine.send_line("go wtime 1900 btime 1950 winc 50 binc 50");
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 4));
    legal_pair(&moves, &nth_bestmove(&engine.output(), 3));
    engine.send_line("quit");
    assert!(engine.wait_until(WAIT, |_| engine.is_closed()));
}

/// python-chess sends the next position, `go ponder` and at once `ponderhit` (or `stop`) the moment it reads
/// `bestmove`, when the search thread may not have ended yet: they are for the new search, which answers.
#[test]
fn ponderhit_and_stop_right_after_bestmove_reach_the_ponder_search() {
    let engine = Connection::open(UciSession::new());
    engine.send_line("setoption name Ponder value true");
    for (k, word) in ["ponderhit", "stop", "ponderhit", "stop"].into_iter().enumerate() {
        // The whole exchange in one write: the search before is still ending when the ponder lines come.
        engine.send(
            format!(
                "position startpos\ngo depth 3\nposition startpos moves e2e4 e7e5\ngo ponder wtime 60000 btime 60000\n{word}\n"
            )
            .as_bytes(),
        );
        assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 2 * (k + 1)), "{word}: {}", engine.output());
        legal_pair(&["e2e4".to_owned(), "e7e5".to_owned()], &nth_bestmove(&engine.output(), 2 * k + 1));
    }
    engine.send_line("quit");
    assert!(engine.wait_until(WAIT, |_| engine.is_closed()));
}

/// python-chess's pondering: the same, without `isready` before `go ponder`, the clock lowered by the time
/// used; and the time spent pondering counts at `ponderhit`: a search pondered past its share of a minute
/// answers at once, a search hit early goes on thinking and answers by itself.
#[test]
fn ponderhit_counts_the_time_spent_pondering() {
    let engine = Connection::open(UciSession::new());
    engine.send_line("setoption name Ponder value true");
    engine.send_line("ucinewgame");
    engine.send_line("isready");
    engine.send_line("position startpos moves e2e4 e7e5");
    // A minute each: a share of about two seconds, of which the soft limit is a little more than a second.
    engine.send_line("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(3000));
    assert_eq!(count(&engine.output(), "bestmove"), 0);
    engine.send_line("ponderhit");
    let hit = std::time::Instant::now();
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 1));
    assert!(hit.elapsed() < Duration::from_millis(1000), "answered {:?} after ponderhit", hit.elapsed());
    legal_pair(&["e2e4".into(), "e7e5".into()], &nth_bestmove(&engine.output(), 0));

    // Hit at once: the search goes on after ponderhit, and ends without a stop.
    engine.send_line("position startpos moves e2e4 e7e5 g1f3 b8c6");
    engine.send_line("go ponder wtime 60000 btime 60000");
    engine.send_line("ponderhit");
    let hit = std::time::Instant::now();
    assert!(engine.wait_until(WAIT, |o| count(o, "bestmove") == 2));
    let out = engine.output();
    let after = &out[out.find("bestmove").unwrap()..];
    assert!(after.contains("info depth 5 "), "the search went on after ponderhit: {out}");
    assert!(hit.elapsed() < Duration::from_secs(30));
    let (_, out) = engine.close();
    assert_eq!(count(&out, "bestmove"), 2);
}

/// Bad bytes, a NUL, a 1 MiB line, CRLF and the end of input during a search.
#[test]
fn bad_input_is_reported_and_serving_goes_on() {
    check_bad_input::<Chess>("e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

/// Plays two short games against Stockfish through its UCI interface, if it is installed.
#[test]
fn games_against_stockfish() {
    let Some(mut stockfish) = common::stockfish("the Stockfish game test") else {
        return;
    };
    let mut ask = |cmd: &str, until: &str| -> String { stockfish.ask(cmd, until).pop().unwrap() };
    ask("setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1320\nisready", "readyok");
    let mut session = UciSession::new();
    for we_are_white in [true, false] {
        let mut moves: Vec<String> = Vec::new();
        let mut pos = tabula_chess::Position::startpos();
        for ply in 0..120 {
            if tabula::game::Game::outcome(&pos).is_some() {
                break;
            }
            let position = format!("position startpos moves {}", moves.join(" "));
            let ours = (ply % 2 == 0) == we_are_white;
            let reply = if ours {
                session.handle(&position);
                last(&session.handle("go movetime 20")).to_owned()
            } else {
                ask(&format!("{position}\ngo movetime 20"), "bestmove")
            };
            let mv = reply.split_whitespace().nth(1).unwrap().to_owned();
            let parsed = pos.parse_uci(&mv).unwrap_or_else(|_| panic!("illegal {mv} in {}", pos.to_fen()));
            pos.play_unchecked(parsed);
            moves.push(mv);
        }
    }
}

#[test]
fn evaluation_and_network_options() {
    let score = |s: &mut UciSession| {
        s.handle("ucinewgame");
        s.handle("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let reply = s.handle("go depth 1");
        // The score and the move (node counts depend on what the table holds).
        let info = reply.iter().find(|l| l.contains(" score cp ")).cloned().unwrap_or_default();
        let words: Vec<&str> = info.split_whitespace().collect();
        let after = |key: &str| words.iter().position(|&w| w == key).map(|i| words[i + 1..].join(" "));
        (after("cp").map(|s| s.split(' ').next().unwrap_or("").to_owned()), after("pv"))
    };
    let mut s = UciSession::new();
    assert!(s.handle("setoption name Evaluation value nnue").is_empty());
    let nnue = score(&mut s);
    assert!(s.handle("setoption name Evaluation value tapered").is_empty());
    let tapered = score(&mut s);
    assert_ne!(nnue, tapered, "the two evaluations score alike");
    // A network file written out and loaded back plays as the embedded one.
    let path = std::env::temp_dir().join(format!("tabula-net-{}.tbnn", std::process::id()));
    std::fs::write(&path, tabula_chess::engine::eval::nnue::Network::embedded().to_bytes()).unwrap();
    let reply = s.handle(&format!("setoption name EvalFile value {}", path.display()));
    assert_eq!(reply, [format!("info string network {} loaded", path.display())]);
    assert_eq!(score(&mut s), tapered, "EvalFile does not change the evaluation chosen");
    s.handle("setoption name Evaluation value nnue");
    assert_eq!(score(&mut s), nnue);
    // A corrupt file (a bit flipped among the weights, which only the checksum catches) is refused, named, and the
    // network stays.
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let reply = s.handle(&format!("setoption name EvalFile value {}", path.display()));
    assert!(reply[0].starts_with("info string network file checksum"), "{reply:?}");
    assert_eq!(score(&mut s), nnue);
    let _ = std::fs::remove_file(&path);
}
