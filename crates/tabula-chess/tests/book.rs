//! Polyglot books made by the real `polyglot make-book` from games the engine plays against itself.
//!
//! `tests/data/selfplay.pgn` holds twelve such games and `tests/data/selfplay.bin` the book that
//! `polyglot make-book -pgn selfplay.pgn -bin selfplay.bin -max-ply 16 -min-game 1` (Debian package `polyglot`,
//! 2.0.4) made from them; every move of those games within the first 16 plies must be in the book. Where
//! `polyglot` is installed, the test also makes a fresh book from freshly played games.

use std::path::Path;
use tabula::search::Limits;
use tabula_chess::book::Book;
use tabula_chess::engine::{Engine, EnginePosition};
use tabula_chess::Position;

const MAX_PLY: usize = 16;

/// Games as SAN move lists from the starting position, read from a minimal PGN.
fn read_pgn(text: &str) -> Vec<Vec<String>> {
    let mut games = Vec::new();
    let mut current = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            continue;
        }
        for word in line.split_whitespace() {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                games.push(std::mem::take(&mut current));
            } else if !word.ends_with('.') {
                current.push(word.to_owned());
            }
        }
    }
    games
}

fn check_book_has_games(book: &Book, games: &[Vec<String>]) {
    assert!(!games.is_empty());
    for game in games {
        let mut pos = Position::startpos();
        for san in game.iter().take(MAX_PLY) {
            let mv = pos.parse_san(san).unwrap_or_else(|e| panic!("{san} in {}: {e}", pos.to_fen()));
            let moves = book.moves(&pos);
            assert!(moves.iter().any(|m| m.mv == mv), "{san} missing from the book at {}: {moves:?}", pos.to_fen());
            assert!(book.pick(&pos, 12345).is_some());
            pos.play_unchecked(mv);
        }
    }
}

#[test]
fn committed_book_made_by_polyglot() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let games = read_pgn(&std::fs::read_to_string(dir.join("selfplay.pgn")).unwrap());
    let book = Book::open(dir.join("selfplay.bin")).unwrap();
    check_book_has_games(&book, &games);
    // Castling appears in the games, so the king-takes-rook encoding is exercised.
    assert!(games.iter().any(|g| g.iter().take(MAX_PLY).any(|m| m.starts_with("O-O"))));
}

/// Self-play games with random first moves, written as PGN with SAN.
fn self_play(games: usize, seed: u64) -> String {
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut engine = Engine::new(4);
    let mut pgn = String::new();
    for g in 0..games {
        let mut pos = Position::startpos();
        let mut text = String::new();
        for ply in 0..24 {
            if tabula::game::Game::outcome(&pos).is_some() {
                break;
            }
            let mv = if ply < 4 {
                let moves = pos.legal_moves();
                moves[(next() % moves.len() as u64) as usize]
            } else {
                engine.search(&EnginePosition::new(pos.clone()), Limits::depth(2), |_| {}).best_move.unwrap()
            };
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&pos.san(mv));
            text.push(' ');
            pos.play_unchecked(mv);
        }
        // Every game a draw, so that polyglot keeps every move (it drops moves that never scored).
        pgn.push_str(&format!("[Event \"self-play {g}\"]\n[Result \"1/2-1/2\"]\n\n{text}1/2-1/2\n\n"));
    }
    pgn
}

#[test]
fn fresh_book_made_by_polyglot() {
    let polyglot = Path::new("/usr/games/polyglot");
    if !polyglot.exists() {
        eprintln!("note: polyglot is not installed (apt-get install polyglot); skipping the fresh-book test");
        return;
    }
    let dir = std::env::temp_dir().join(format!("tabula-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = self_play(12, 0x5eed);
    std::fs::write(dir.join("games.pgn"), &pgn).unwrap();
    let status = std::process::Command::new(polyglot)
        .args(["make-book", "-pgn", "games.pgn", "-bin", "book.bin", "-max-ply", "16", "-min-game", "1"])
        .current_dir(&dir)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let book = Book::open(dir.join("book.bin")).unwrap();
    check_book_has_games(&book, &read_pgn(&pgn));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Regenerates the committed fixture: `cargo test -p tabula-chess --test book -- --ignored`, then run polyglot
/// as the module documentation says.
#[test]
#[ignore = "writes the fixture PGN: cargo test -p tabula-chess --test book -- --ignored"]
fn write_fixture_pgn() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    std::fs::write(dir.join("selfplay.pgn"), self_play(12, 2024)).unwrap();
}
