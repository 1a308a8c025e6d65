//! The `tabula` binary, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tabula(args: &[&str], stdin: &str) -> Output {
    run(env!("CARGO_BIN_EXE_tabula"), args, stdin.as_bytes())
}

fn run(program: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn solve_reports_bad_lines_and_goes_on() {
    let out = tabula(
        &["solve", "connect4"],
        "47162476765337275374225432452161354\n448\n1111111\n12121212\n6343534131255714276174447266172 1\n",
    );
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(stdout, "47162476765337275374225432452161354 -3\n6343534131255714276174447266172 1\n");
    assert!(stderr.contains("line 2: bad position `448`: move 3: `8` is not a column"), "{stderr}");
    assert!(stderr.contains("line 3: bad position `1111111`: move 7: column 1 is full"), "{stderr}");
    assert!(stderr.contains("line 4: bad position `12121212`: move 8: the game is already over"), "{stderr}");
    assert!(!out.status.success());
}

#[test]
fn solve_with_stats_and_weak() {
    let out = tabula(&["solve", "connect4", "--weak", "--stats"], "47162476765337275374225432452161354\n");
    let stdout = text(&out.stdout);
    let fields: Vec<&str> = stdout.split_whitespace().collect();
    assert_eq!(fields.len(), 4, "{stdout}");
    assert_eq!(fields[1], "-1");
    assert!(fields[2].parse::<u64>().unwrap() > 0);
    assert!(out.status.success());
}

#[test]
fn keys_report_is_sound() {
    for game in ["tictactoe", "connect4"] {
        let out = tabula(&["keys", game], "");
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("verdict         sound"));
    }
}

#[test]
fn analyze_shows_best_move_and_stats() {
    let out = tabula(&["analyze", "tictactoe", "519", "--depth", "6"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for field in ["best move", "score", "pv", "nodes", "table hits", "time"] {
        assert!(stdout.contains(field), "{field} missing:\n{stdout}");
    }
    // From the mid set: the side to move wins with score 8.
    let out = tabula(&["analyze", "connect4", "775463462234262", "--solve"], "");
    let stdout = text(&out.stdout);
    assert!(stdout.lines().any(|l| l.split_whitespace().nth(1) == Some("8")), "{stdout}");
    assert!(stdout.contains("best move") && stdout.contains(": win in"), "{stdout}");
    let out = tabula(&["analyze", "connect4", "448"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("bad position `448`"), "{}", text(&out.stderr));
}

#[test]
fn engine_against_engine_draws_tictactoe() {
    let out = tabula(&["play", "tictactoe", "--first", "engine", "--second", "engine", "--depth", "9"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("Draw."), "{}", text(&out.stdout));
}

#[test]
fn human_moves_are_checked() {
    let out = tabula(&["play", "tictactoe", "--depth", "9"], "0\n5\nquit\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("`0` is not a legal move here"), "{stdout}");
    assert!(stdout.contains("O plays"), "{stdout}");
}

#[test]
fn chess_hash_and_perft() {
    let out = tabula(&["hash", "chess", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4"], "");
    assert_eq!(text(&out.stdout), "5c3f9b829b279560\n");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = tabula(&["perft", kiwipete, "3", "--divide"], "");
    let stdout = text(&out.stdout);
    assert!(stdout.ends_with("nodes 97862\n"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.contains(": ")).count(), 48);
    let out = tabula(&["perft", kiwipete, "3", "--hash", "1"], "");
    assert!(text(&out.stdout).ends_with("nodes 97862\n"));
    // Perft counts on through the fifty-move rule, at the root as below it, as the published counts do.
    let drawn = kiwipete.replace(" 0 1", " 100 51");
    let out = tabula(&["perft", &drawn, "3", "--divide"], "");
    assert!(text(&out.stdout).ends_with("nodes 97862\n"), "{}", text(&out.stdout));
    // Chess960 (Shredder-FEN), castling written as the king taking its rook.
    let out = tabula(&["perft", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "3"], "");
    assert!(text(&out.stdout).ends_with("nodes 12189\n"));
    let out = tabula(&["perft", "1r2k3/8/8/8/8/8/8/1R2K3 w Bb - 0 1", "1", "--divide"], "");
    assert!(text(&out.stdout).lines().any(|l| l == "e1b1: 1"), "{}", text(&out.stdout));
    let out = tabula(&["perft", "8/8/8/8/8/8/8/8 w - - 0 1", "1"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("bad position"), "{}", text(&out.stderr));
}

#[test]
fn gtp_session_over_stdio() {
    let out = tabula(&["gtp"], "protocol_version\n7 boardsize 30\nboardsize 9\nplay b e5\nplay w e5\nquit\nname\n");
    assert_eq!(text(&out.stdout), "= 2\n\n?7 unacceptable size\n\n=\n\n=\n\n? illegal move\n\n=\n\n");
}

#[test]
fn gomoku_analysis_and_protocol() {
    let out = tabula(&["analyze", "gomoku", "h8 h9 i8 i9 j8 j9", "--depth", "2"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Black has three in a row on row 8 and wins with an open four, then five.
    assert!(stdout.contains("forced win:"), "{stdout}");
    let out = tabula(&["analyze", "gomoku", "h8 h8"], "");
    assert!(!out.status.success());
    let out = tabula(&["analyze", "gomoku", "h8", "--rule", "chess"], "");
    assert!(text(&out.stderr).contains("bad rule"), "{}", text(&out.stderr));

    let pbrain = env!("CARGO_BIN_EXE_pbrain-tabula");
    let mut child = Command::new(pbrain).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"START 15\r\nINFO timeout_turn 300\r\nBEGIN\r\nBOGUS\r\nEND\r\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    let answers: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers[0], "OK");
    assert!(answers[1].contains(','), "a move `x,y`: {stdout}");
    assert!(answers[2].starts_with("UNKNOWN"), "{stdout}");
}

#[test]
fn kmc_example_is_a_valid_config() {
    let out = tabula(&["kmc", "example"], "");
    assert!(out.status.success());
    let example = text(&out.stdout);
    assert!(example.contains("bcc"));
    let dir = std::env::temp_dir().join(format!("tabula-kmc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, example.replace("kind = \"bcc\"", "kind = \"hcp\"")).unwrap();
    let out = tabula(&["kmc", "run", bad.to_str().unwrap(), "--output", dir.to_str().unwrap()], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("kind"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn uci_and_book() {
    let out = tabula(&["uci"], "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\nbogus\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("uciok") && stdout.contains("readyok"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("bestmove ")), "{stdout}");
    assert!(stdout.contains("info string"), "{stdout}");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/../tabula-chess/tests/data/selfplay.bin");
    let out = tabula(&["book", book, "startpos"], "");
    assert!(text(&out.stdout).contains("weight"), "{}", text(&out.stdout));
    let out = tabula(&["book", "/nonexistent/book.bin", "startpos"], "");
    assert!(!out.status.success());
}

#[test]
fn go_analysis_of_an_sgf_file() {
    let dir = std::env::temp_dir().join(format!("tabula-go-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sgf = dir.join("game.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[gc];B[cg])").unwrap();
    let out = tabula(&["analyze", "go", sgf.to_str().unwrap(), "--playouts", "500"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("White to move") && stdout.contains("best move"), "{stdout}");
    std::fs::write(&sgf, "(;GM[1]SZ[9];B[ee];W[ee])").unwrap();
    let out = tabula(&["analyze", "go", sgf.to_str().unwrap()], "");
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solve_reports_lines_that_are_not_text_and_goes_on() {
    let out = run(
        env!("CARGO_BIN_EXE_tabula"),
        &["solve", "connect4"],
        b"6343534131255714276174447266172\n44\xff3\n4\x0053\r\n47162476765337275374225432452161354\r\n",
    );
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(stdout.contains("47162476765337275374225432452161354 -3\n"), "{stdout}");
    assert!(stderr.contains("line 2 is not valid UTF-8 (byte 0xff at column 3)"), "{stderr}");
    assert!(stderr.contains("line 3 holds a NUL byte at column 2"), "{stderr}");
    assert!(!out.status.success());
}

/// Each protocol binary answers a line of bad bytes in its error form, then the next command.
#[test]
fn protocols_answer_bad_bytes_and_go_on() {
    let out = run(env!("CARGO_BIN_EXE_tabula"), &["uci"], b"uci\n\xff\nisready\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("uciok\ninfo string error: line 2 is not valid UTF-8"), "{stdout}");
    assert!(stdout.ends_with("readyok\n"), "{stdout}");
    assert!(out.status.success());
    let out = run(env!("CARGO_BIN_EXE_tabula"), &["gtp", "--threads", "1"], b"1 name\n2 \xff\n3 version\n");
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("=1 Tabula\n\n?2 line 2 is not valid UTF-8"), "{stdout}");
    assert!(stdout.contains("\n\n=3 "), "{stdout}");
    let out = run(env!("CARGO_BIN_EXE_pbrain-tabula"), &[], b"START 15\r\nST\0RT\r\nABOUT\r\n");
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("OK\r\nERROR line 2 holds a NUL byte at column 3\r\nname="), "{stdout}");
}

#[test]
fn kmc_config_with_bad_bytes_names_the_line() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-kmc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("bad.toml");
    std::fs::write(&config, b"# a config\nseed = 1\nname = \"caf\xe9\"\n").unwrap();
    let out = tabula(&["kmc", "run", config.to_str().unwrap(), "--output", dir.to_str().unwrap()], "");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bad.toml: line 3 is not valid UTF-8 (byte 0xe9 at column 12)"), "{stderr}");
}

#[test]
fn a_file_that_cannot_be_read_is_named_with_the_reason_once() {
    let missing = std::env::temp_dir().join(format!("tabula-cli-missing-{}", std::process::id()));
    let potential = format!("{}.eam.alloy", missing.display());
    let book = format!("{}.bin", missing.display());
    let runs =
        [tabula(&["kmc", "energy", "--potential", &potential, "x.xyz"], ""), tabula(&["book", &book, "startpos"], "")];
    for (out, file) in runs.iter().zip([&potential, &book]) {
        assert!(!out.status.success());
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with("error: ") && stderr.contains(file.as_str()), "{stderr}");
        // The operating system's reason, once: not again as the cause of a message that already holds it.
        let reason = std::fs::read(file).unwrap_err().to_string();
        assert_eq!(stderr.matches(&reason).count(), 1, "{stderr}");
    }
}

#[test]
fn chess_is_played_and_analyzed_in_the_terminal() {
    // The human opens in SAN, the engine answers, the human goes on in UCI coordinates, then quits.
    let out = tabula(&["play", "chess", "--depth", "2"], "e4\nbogus\ng1f3\nquit\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("Black plays"), "{stdout}");
    assert!(stdout.contains("`bogus` is not a legal move here"), "{stdout}");
    assert_eq!(stdout.matches("Black plays").count(), 2, "{stdout}");
    let out = tabula(&["analyze", "chess", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", "--depth", "5"], "");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("score      mate in 2"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("pv") && l.ends_with('#')), "{stdout}");
    let out = tabula(&["analyze", "chess", "startpos", "--depth", "3"], "");
    assert!(text(&out.stdout).contains(" cp"), "{}", text(&out.stdout));
}

#[test]
fn every_game_gets_the_generic_verbs() {
    let out = tabula(&["analyze", "tictactoe", "", "--depth", "9"], "");
    assert!(text(&out.stdout).contains("score      draw"), "{}", text(&out.stdout));
    // 7^4 sequences of four stones.
    let out = tabula(&["perft", "--game", "connect4", "", "4"], "");
    assert!(text(&out.stdout).ends_with("nodes 2401\n"), "{}", text(&out.stdout));
    // Perft counts the lines exactly nine plies long: the 127,872 games that fill the board (of 255,168).
    for extra in [&[][..], &["--hash", "1"]] {
        let out = tabula(&[&["perft", "--game", "tictactoe", "", "9"], extra].concat(), "");
        assert!(text(&out.stdout).ends_with("nodes 127872\n"), "{}", text(&out.stdout));
    }
    let out = tabula(&["hash", "connect4", "4453"], "");
    assert_eq!(text(&out.stdout).trim().len(), 16);
    let out = tabula(&["hash", "chess", "startpos", "--komi", "7"], "");
    assert!(text(&out.stderr).contains("chess has no komi setting"), "{}", text(&out.stderr));
    let out = tabula(&["solve", "tictactoe"], "5\n52\n");
    assert_eq!(text(&out.stdout), "5 0\n52 1\n");
    // Xiangqi through the same door: perft 3 from the start (Fairy-Stockfish's 79,666), analysis in Chinese
    // notation.
    let out = tabula(&["perft", "--game", "xiangqi", "startpos", "3"], "");
    assert!(text(&out.stdout).ends_with("nodes 79666\n"), "{}", text(&out.stdout));
    let out = tabula(&["analyze", "xiangqi", "startpos", "--depth", "3"], "");
    assert!(text(&out.stdout).lines().any(|l| l.starts_with("best move") && !l.is_ascii()), "{}", text(&out.stdout));
    for game in ["chess", "gomoku", "go", "xiangqi"] {
        let out = tabula(&["keys", game], "");
        assert!(text(&out.stdout).contains("verdict         sound"), "{game}: {}", text(&out.stdout));
    }
}

#[test]
fn the_xiangqi_board_is_drawn_in_chinese_characters_when_asked_or_on_a_utf8_terminal() {
    let run_with = |args: &[&str], vars: &[(&str, &str)], stdin: &str| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tabula"));
        command.args(args).env_remove("TABULA_CHARSET").env("LANG", "C.UTF-8");
        command.envs(vars.iter().copied()).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().expect("tabula runs");
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        text(&child.wait_with_output().unwrap().stdout)
    };
    let analyze = ["analyze", "xiangqi", "startpos", "--depth", "1"];
    let red_back_rank = "0  俥 傌 相 仕 帥 仕 相 傌 俥";
    // A pipe gets letters, whatever the locale says.
    let piped = run_with(&analyze, &[], "");
    assert!(piped.contains("0  R N B A K A B N R") && !piped.contains(red_back_rank), "{piped}");
    // Forced by the option or the environment, either way.
    let forced = run_with(&[&analyze[..], &["--charset", "unicode"]].concat(), &[], "");
    assert!(forced.contains(red_back_rank) && forced.contains("   九 八 七 六 五 四 三 二 一"), "{forced}");
    assert_eq!(run_with(&analyze, &[("TABULA_CHARSET", "unicode")], "").lines().nth(11), forced.lines().nth(11));
    let ascii = run_with(&[&analyze[..], &["--charset", "ascii"]].concat(), &[("TABULA_CHARSET", "unicode")], "");
    assert!(ascii.contains("0  R N B A K A B N R"), "{ascii}");
    // Play draws every board the same way: the central cannon opening, then Black's reply.
    let play = run_with(&["play", "xiangqi", "--depth", "1", "--charset", "unicode"], &[], "h2e2\nquit\n");
    assert!(play.contains("2  ＋ 炮 ＋ ＋ 炮 ＋ ＋ ＋ ＋"), "{play}");
    assert!(play.contains("Black plays"), "{play}");
}
