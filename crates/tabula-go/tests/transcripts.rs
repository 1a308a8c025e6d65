//! Scripted GTP sessions: every `transcripts/*.gtp` file alternates input lines (prefixed `> `) with the
//! exact response expected, blank line included. Lines the engine must ignore have no response at all.

use std::fs;
use std::path::{Path, PathBuf};
use tabula_go::engine::gtp::GtpSession;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts")
}

fn run_transcript(path: &Path) {
    let text = fs::read_to_string(path).unwrap();
    let mut session = GtpSession::new();
    let base = dir();
    session.set_sgf_loader(move |name| fs::read_to_string(base.join(name)));
    let mut lines = text.lines().peekable();
    let mut checked = 0;
    while let Some(line) = lines.next() {
        let input = line
            .strip_prefix("> ")
            .or(line.strip_prefix(">"))
            .unwrap_or_else(|| panic!("{}: expected an input line starting with '> ', found {line:?}", path.display()));
        let mut expected = String::new();
        while let Some(next) = lines.peek() {
            if next.starts_with('>') {
                break;
            }
            expected.push_str(next);
            expected.push('\n');
            lines.next();
        }
        let input = input.replace("\\t", "\t");
        let actual = session.handle(&input);
        assert_eq!(actual, expected, "{}: response to {input:?}", path.display());
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn all_transcripts() {
    let mut files: Vec<PathBuf> = fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gtp"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "transcripts found: {files:?}");
    for f in files {
        run_transcript(&f);
    }
}

#[test]
fn control_characters_are_dropped_and_quit_ends_the_session() {
    let mut session = GtpSession::new();
    assert_eq!(session.handle("proto\x01col_version\r\n"), "= 2\n\n");
    assert_eq!(session.handle("\tname\t"), "= Tabula\n\n");
    assert_eq!(session.handle("  \x07 "), "");
    assert_eq!(session.handle("42"), "?42 syntax error\n\n");
    assert!(!session.is_finished());
    assert_eq!(session.handle("9 quit"), "=9\n\n");
    assert!(session.is_finished());
}

#[test]
fn genmove_plays_legal_moves_until_both_pass() {
    let mut session = GtpSession::random(0);
    session.handle("boardsize 7");
    let mut passes = 0;
    for ply in 0..400 {
        let color = if ply % 2 == 0 { "black" } else { "white" };
        let response = session.handle(&format!("genmove {color}"));
        assert!(response.starts_with("= ") && response.ends_with("\n\n"), "{response:?}");
        passes = if response == "= PASS\n\n" { passes + 1 } else { 0 };
        if passes == 2 {
            break;
        }
    }
    assert_eq!(passes, 2, "random play ends");
    assert!(session.position().is_over());
    let score = session.handle("final_score");
    assert!(score.starts_with("= B+") || score.starts_with("= W+") || score == "= 0\n\n", "{score}");
}

/// Bad bytes, a NUL, a 1 MiB line, CRLF and the end of input during `genmove`, through the serving harness:
/// each bad line is answered `? ...` (with its id when it has one) and the next command is served.
#[test]
fn bad_input_is_answered_and_serving_goes_on() {
    use tabula_go::engine::mcts::{Config, Mcts};
    use tabula_go::Rules;
    use tabula_protocol::server::Connection;
    let picker = Mcts::new(Config { threads: 1, playouts: Some(20_000), ..Config::default() });
    let engine = Connection::open(GtpSession::with_picker(picker, Rules::default()));
    let before = b"1 boardsize 9\r\n2 play b \xe9\xe9\n3 name\nplay\0 b e5\r\n4 version\n";
    engine.send_with_long_line(before, b'#', b"\n5 play b e5\r\n6 genmove w\n");
    let (session, out) = engine.close();
    let responses: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 8, "{out}");
    assert_eq!(responses[0], "=1");
    assert_eq!(responses[1], "?2 line 2 is not valid UTF-8 (byte 0xe9 at column 10)");
    assert_eq!(responses[2], "=3 Tabula");
    assert_eq!(responses[3], "? line 4 holds a NUL byte at column 5");
    assert!(responses[4].starts_with("=4 "));
    assert_eq!(responses[5], "? line 6 is 1048576 bytes long, more than the 65536 allowed");
    assert_eq!(responses[6], "=5");
    // The end of input came while genmove thought: it still answered, with a move played on the board.
    assert!(responses[7].starts_with("=6 ") && responses[7].len() > 4, "{out}");
    assert_eq!(session.position().move_count(), 2);
}
