//! Chess960: the numbered start positions, X-FEN and Shredder-FEN castling rights, castling where king and rook
//! start anywhere, and the engine's protocol under `UCI_Chess960`. The perft counts of the Chess960 suite are
//! checked in `perft_suite.rs`.

use std::collections::HashSet;
use tabula_chess::engine::uci::UciSession;

mod common;
use tabula_chess::{CastlingSide, Color, File, Position, Rank, Role, Setup, Square};

fn back_rank(pos: &Position) -> String {
    File::ALL.iter().map(|&f| pos.board().piece_at(Square::from_coords(f, Rank::First)).unwrap().to_char()).collect()
}

#[test]
fn start_positions_follow_the_standard_numbering() {
    // 518 is chess itself, written with plain KQkq rights; 0 and 959 open and close the numbering.
    assert_eq!(Position::chess960(518).unwrap(), Position::startpos());
    assert_eq!(Position::chess960(518).unwrap().to_fen(), Position::startpos().to_fen());
    assert_eq!(back_rank(&Position::chess960(0).unwrap()), "BBQNNRKR");
    assert_eq!(back_rank(&Position::chess960(959).unwrap()), "RKRNNQBB");
    assert!(Position::chess960(960).is_none());
    let mut seen = HashSet::new();
    for n in 0..960 {
        let pos = Position::chess960(n).unwrap();
        let rank = back_rank(&pos);
        assert!(seen.insert(rank.clone()), "{n} repeats {rank}");
        // Bishops on squares of both colours, the king between the rooks, all four rights.
        let bishops: Vec<usize> = rank.match_indices('B').map(|(i, _)| i % 2).collect();
        assert_ne!(bishops[0], bishops[1], "{n}: {rank}");
        let (r1, k, r2) = (rank.find('R').unwrap(), rank.find('K').unwrap(), rank.rfind('R').unwrap());
        assert!(r1 < k && k < r2, "{n}: {rank}");
        assert_eq!(pos.castling().bits(), 15);
        // Castling is that of chess exactly when king and rooks stand where they do in chess.
        let as_in_chess = rank.starts_with('R') && rank.ends_with('R') && k == 4;
        assert_eq!(pos.is_chess960(), !as_in_chess, "{n}: {rank}");
        assert_eq!(pos.legal_moves().len(), pos.count_legal_moves() as usize);
    }
}

#[test]
fn x_fen_and_shredder_fen() {
    // Shredder-FEN names the rooks' files; X-FEN writes KQkq for the outermost rooks.
    let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let x_fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
    let pos = Position::from_fen(shredder).unwrap();
    assert_eq!(pos, Position::from_fen(x_fen).unwrap());
    assert_eq!(pos.to_fen(), x_fen);
    assert_eq!(pos.castling().rook_file(Color::White, CastlingSide::QueenSide), Some(File::F));
    // An inner rook gets its file in X-FEN too.
    let inner = "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1";
    let pos = Position::from_fen(inner).unwrap();
    assert_eq!(pos.to_fen(), inner);
    assert_eq!(pos.castling().rook_file(Color::White, CastlingSide::QueenSide), Some(File::C));
    // Castling with the c1 rook: the king lands on c1, the rook on d1, the a1 rook stays.
    let mut castled = pos.clone();
    castled.play(pos.parse_san("O-O-O").unwrap()).unwrap();
    assert_eq!(castled.to_fen(), "4k3/8/8/8/8/8/8/R1KR4 b - - 1 1");
    // Errors: a right twice, a rook on the king's file, a right without its rook.
    for bad in ["4k3/8/8/8/8/8/8/4K2R w HK - 0 1", "4k3/8/8/8/8/8/8/4K3 w E - 0 1"] {
        assert!(Setup::from_fen(bad).is_err(), "{bad}");
    }
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K1R1 w H - 0 1").is_err());
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/2R1K3 w G - 0 1").is_err());
}

#[test]
fn castling_in_chess960() {
    // King g1 and rook h1: castling king side moves only the rook; written g1h1, or O-O.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/6KR w H - 0 1").unwrap();
    let castle = pos.parse_san("O-O").unwrap();
    assert_eq!(castle.to_uci_chess960(), "g1h1");
    assert_eq!(pos.parse_uci("g1h1"), Ok(castle));
    let mut after = pos.clone();
    after.play_unchecked(castle);
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    assert_eq!(after.undo(), Some(castle));
    assert_eq!(after, pos);

    // King f1, rook g1: king and rook swap squares.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1").unwrap();
    let mut after = pos.clone();
    after.play(pos.parse_uci("f1g1").unwrap()).unwrap();
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");

    // King b1, rook a1 castling queen side: the king moves right, to c1.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1").unwrap();
    let mut after = pos.clone();
    after.play(pos.parse_san("O-O-O").unwrap()).unwrap();
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");

    // The castling rook on b1 shields c1 from the queen on a1 only until it moves: no castling.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/qR2K3 w B - 0 1").unwrap();
    assert!(pos.legal_moves().iter().all(|mv| !mv.is_castling()));
    // A square the king passes is attacked: no castling; only the rook's path attacked: castling is fine.
    let pos = Position::from_fen("3rk3/8/8/8/8/8/8/1R2K3 w B - 0 1").unwrap();
    assert!(pos.legal_moves().iter().all(|mv| !mv.is_castling()));
    let pos = Position::from_fen("1r2k3/8/8/8/8/8/8/1R2K3 w B - 0 1").unwrap();
    assert!(pos.legal_moves().iter().any(|mv| mv.is_castling()));
    // Only the squares king and rook cross or land on must be empty: pieces elsewhere on the rank do not
    // matter, a piece on the king's way does.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/1RK2B2 w B - 0 1").unwrap();
    assert!(pos.legal_moves().iter().any(|mv| mv.is_castling()));
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/RK2B3 w A - 0 1").unwrap();
    assert!(pos.legal_moves().iter().any(|mv| mv.is_castling()));
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/1K1B2R1 w G - 0 1").unwrap();
    assert!(pos.legal_moves().iter().all(|mv| !mv.is_castling()));
    // Moving the rook or the king loses the right; capturing the rook on its square takes it away too.
    let mut pos = Position::chess960(0).unwrap(); // BBQNNRKR
    pos.play(pos.parse_uci("h2h4").unwrap()).unwrap();
    pos.play(pos.parse_uci("a7a6").unwrap()).unwrap();
    pos.play(pos.parse_uci("h1h3").unwrap()).unwrap();
    assert!(!pos.castling().has(Color::White, CastlingSide::KingSide));
    assert!(pos.castling().has(Color::White, CastlingSide::QueenSide));
    assert_eq!(pos.board().piece_at(Square::from_coords(File::H, Rank::Third)).map(|p| p.role), Some(Role::Rook));
}

#[test]
fn uci_chess960_option() {
    let mut s = UciSession::new();
    assert!(s.handle("uci").iter().any(|l| l == "option name UCI_Chess960 type check default false"));
    let moves = |s: &mut UciSession| -> Vec<String> {
        let lines = s.handle("go perft 1");
        assert!(lines.iter().any(|l| l == "Nodes searched: 26"), "{lines:?}");
        lines.iter().filter_map(|l| l.split(':').next()).map(str::to_owned).collect()
    };
    // Without the option, castling is written as the king's move; with it, as the king taking the rook.
    s.handle("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let standard = moves(&mut s);
    assert!(["e1g1", "e1c1"].iter().all(|m| standard.iter().any(|l| l == m)), "{standard:?}");
    assert!(s.handle("setoption name UCI_Chess960 value true").is_empty());
    let chess960 = moves(&mut s);
    assert!(["e1h1", "e1a1"].iter().all(|m| chess960.iter().any(|l| l == m)), "{chess960:?}");
    assert!(!chess960.iter().any(|l| l == "e1g1"), "{chess960:?}");
    // `position` reads castling either way; `bestmove` follows the option.
    let fen = "1r2k3/8/8/8/8/8/8/1R2K3 w Bb - 0 1";
    for castle in ["e1b1", "e1c1"] {
        assert!(s.handle(&format!("position fen {fen} moves {castle}")).is_empty(), "{castle}");
        assert_eq!(s.position().position().to_fen(), "1r2k3/8/8/8/8/8/8/2KR4 b q - 1 1");
    }
    s.handle(&format!("position fen {fen}"));
    assert_eq!(last(&s.handle("go depth 1 searchmoves e1b1")), "bestmove e1b1");
    s.handle("setoption name UCI_Chess960 value false");
    assert_eq!(last(&s.handle("go depth 1 searchmoves e1b1")), "bestmove e1c1");
    assert!(s.handle("setoption name UCI_Chess960 value maybe")[0].starts_with("info string"));
}

fn last(lines: &[String]) -> &str {
    lines.last().map(String::as_str).unwrap_or("")
}

/// Against Stockfish (`UCI_Chess960`), where installed: along random games from Chess960 start positions, the
/// same legal moves written the same way, the same perft counts, and the same position after each move.
#[test]
fn stockfish_agrees_on_chess960() {
    let Some(mut stockfish) = common::stockfish("the Chess960 comparison with Stockfish") else {
        return;
    };
    let mut ask = |cmd: &str, until: &str| stockfish.ask(cmd, until);
    ask("setoption name UCI_Chess960 value true\nisready", "readyok");
    let mut rng = tabula::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut castled = 0;
    for _ in 0..12 {
        let start = Position::chess960(rng.below(960) as u32).unwrap();
        let mut pos = start.clone();
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..40 {
            let command = format!("position fen {} moves {}", start.to_fen(), moves.join(" "));
            let theirs = ask(&format!("{command}\ngo perft 2"), "Nodes searched");
            let mut their_moves: Vec<&str> =
                theirs.iter().filter_map(|l| l.split_once(": ")).map(|(mv, _)| mv).filter(|mv| mv.len() <= 5).collect();
            let mut our_moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci_chess960()).collect();
            their_moves.sort_unstable();
            our_moves.sort_unstable();
            assert_eq!(their_moves, our_moves, "{}", pos.to_fen());
            let total: u64 = theirs.last().unwrap().trim_start_matches("Nodes searched: ").parse().unwrap();
            assert_eq!(tabula_chess::perft::perft(&mut pos.clone(), 2), total, "{}", pos.to_fen());
            let fen = ask("d", "Checkers").into_iter().find_map(|l| l.strip_prefix("Fen: ").map(str::to_owned));
            assert_eq!(Position::from_fen(&fen.unwrap()).unwrap(), pos, "{command}");
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Castle whenever possible, so that every game tries it; otherwise a random move.
            let mv = legal.iter().copied().find(|m| m.is_castling()).unwrap_or(legal[rng.below(legal.len())]);
            castled += usize::from(mv.is_castling());
            moves.push(mv.to_uci_chess960());
            pos.play_unchecked(mv);
        }
    }
    assert!(castled >= 10, "only {castled} castlings played");
}
