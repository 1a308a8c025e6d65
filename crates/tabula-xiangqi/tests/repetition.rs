//! The repetition rules on hand-made positions: perpetual check, perpetual chase (of an unprotected piece, and
//! of a protected rook by a horse), checks mixed with chases, a mutual chase, idle repetitions, the chases by
//! kings and pawns that do not count, and the 60-move rule.

use tabula_board::testing::play_line;
use tabula_xiangqi::repetition::{self, Ending, Repetition, Ruling, Verdict, Violation, MOVE_LIMIT_PLIES};
use tabula_xiangqi::{Color, Position};

/// The position `fen` after `moves` (ICCS), each checked legal.
fn play(fen: &str, moves: &[&str]) -> Position {
    play_line(Position::from_fen(fen).unwrap(), moves, |pos, iccs| {
        pos.parse_iccs(iccs).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// The repetition reached by playing `moves` from `fen`.
fn repeated(fen: &str, moves: &[&str]) -> Repetition {
    let pos = play(fen, moves);
    repetition::repetition(&pos).unwrap_or_else(|| panic!("no repetition in {pos}"))
}

fn loss(offender: Color, violation: Violation) -> Ruling {
    Ruling::Loss { offender, violation }
}

#[test]
fn perpetual_check_loses() {
    // The red rook checks from a8 and a9 while the black king steps between e8 and e9.
    let found = repeated("9/4k4/9/9/9/9/9/9/9/R2K5 w", &["a0a8", "e8e9", "a8a9", "e9e8", "a9a8"]);
    assert_eq!((found.occurrences, found.cycle), (2, 4));
    assert_eq!(found.forcing, [Some(Violation::PerpetualCheck), None]);
    assert_eq!(found.ruling(), loss(Color::Red, Violation::PerpetualCheck));
}

#[test]
fn perpetual_chase_of_an_unprotected_piece_loses() {
    // The red rook follows the black horse between g5 and i6, attacking it on every move.
    let moves = ["i1g1", "g5i6", "g1i1", "i6g5", "i1g1"];
    let found = repeated("4k4/9/9/9/6n2/9/9/9/8R/3K5 w", &moves);
    assert_eq!(found.forcing, [Some(Violation::PerpetualChase), None]);
    assert_eq!(found.chased[Color::Red.index()], "g5".parse::<tabula_xiangqi::Square>().unwrap().into());
    assert_eq!(found.ruling(), loss(Color::Red, Violation::PerpetualChase));
}

/// Chases and checks that are allowed, forbidden or mutual: each case the position, the moves, what each side
/// forced (Red's, Black's) and the ruling, with what it tries in a comment.
#[test]
fn chases_and_checks_are_ruled() {
    let cases = [
        // The same chase with the black rook on g6 guarding g5 and i6: an idle repetition. (When the horse leaves
        // g5 the rooks face each other on the g-file: an offer to exchange, not a chase either.)
        ("4k4/9/9/6r2/6n2/9/9/9/8R/3K5 w", ["i1g1", "g5i6", "g1i1", "i6g5", "i1g1"], [None, None], Ruling::Draw),
        // The red horse attacks the black rook on d7 and d6 in turn; the rook on d9 guards it, which does not help.
        (
            "3rk4/9/3r5/9/9/2N6/9/9/9/5K3 w",
            ["c4e5", "d7d6", "e5c4", "d6d7", "c4e5"],
            [Some(Violation::PerpetualChase), None],
            loss(Color::Red, Violation::PerpetualChase),
        ),
        // The red rook attacks the unprotected cannon on a9 from a3, then checks the king on e9 from e3.
        (
            "c2k5/9/9/9/9/9/4R4/5K3/9/9 w",
            ["e3a3", "d9e9", "a3e3", "e9d9", "e3a3"],
            [Some(Violation::CheckAndChase), None],
            loss(Color::Red, Violation::CheckAndChase),
        ),
        // The red cannons take turns screening each other onto the black rook on i9; the black rook on g7/i7,
        // running from the cannon on g8/i8, attacks the unprotected red cannons on every move. Both break the rule.
        (
            "8r/3k2C2/6r2/9/9/9/8C/9/9/5K3 w",
            ["g8i8", "g7i7", "i8g8", "i7g7", "g8i8"],
            [Some(Violation::PerpetualChase), Some(Violation::PerpetualChase)],
            Ruling::Draw,
        ),
        // The red pawn on c7/d7, guarded by the rook on i7, attacks the black rook on c8/d8 on every move.
        ("4k4/2r6/3P4R/9/9/9/9/9/9/5K3 w", ["d7c7", "c8d8", "c7d7", "d8c8", "d7c7"], [None, None], Ruling::Draw),
        // The red king on d2/e2 attacks the unprotected black pawn on d1/e1 on every move.
        ("5k3/9/9/9/9/9/9/3K5/4p4/9 w", ["d2e2", "e1d1", "e2d2", "d1e1", "d2e2"], [None, None], Ruling::Draw),
    ];
    for (fen, moves, forcing, ruling) in cases {
        let found = repeated(fen, &moves);
        assert_eq!(found.forcing, forcing, "{fen}");
        assert_eq!(found.ruling(), ruling, "{fen}");
    }
}

#[test]
fn idle_repetition_is_a_draw_and_counts_occurrences() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let shuffle = ["b0c2", "b9c7", "c2b0", "c7b9"];
    let once = repeated(start, &shuffle);
    assert_eq!((once.occurrences, once.forcing, once.ruling()), (2, [None, None], Ruling::Draw));
    let twice = repeated(start, &[shuffle, shuffle].concat());
    assert_eq!(twice.occurrences, 3);
    // A capture ends the window: the positions before it cannot recur.
    let pos = play(start, &["b0c2", "b9c7", "c2b0", "c7b9", "h2h9"]);
    assert!(!repetition::is_repetition(&pos));
    assert_eq!(repetition::repetition(&pos), None);
    assert!(repetition::is_repetition(&play(start, &shuffle)));
}

#[test]
fn adjudication() {
    // A repetition is ruled once it has occurred as often as asked.
    let pos = play("9/4k4/9/9/9/9/9/9/9/R2K5 w", &["a0a8", "e8e9", "a8a9", "e9e8", "a9a8"]);
    assert_eq!(repetition::adjudicate(&pos, 3), None);
    let verdict = repetition::adjudicate(&pos, 2).unwrap();
    assert_eq!(verdict.winner, Some(Color::Black));
    assert!(matches!(verdict.ending, Ending::Repetition(_)));
    // No legal move loses, in check or not.
    let mated = Position::from_fen("3R1k3/9/9/9/9/9/9/9/9/3K1R3 b").unwrap();
    assert!(mated.is_checkmate());
    let verdict = repetition::adjudicate(&mated, 3);
    assert_eq!(verdict, Some(Verdict { winner: Some(Color::Red), ending: Ending::NoLegalMove }));
    let stalemated = Position::from_fen("3k5/4P4/9/9/9/9/9/9/9/4K4 b").unwrap();
    assert!(stalemated.is_stalemate());
    assert_eq!(repetition::adjudicate(&stalemated, 3).unwrap().winner, Some(Color::Red));
    // The 60-move rule.
    let limit = format!("4k4/9/9/9/9/9/9/9/9/R2K5 w - - {} 80", MOVE_LIMIT_PLIES);
    let verdict = repetition::adjudicate(&Position::from_fen(&limit).unwrap(), 3);
    assert_eq!(verdict, Some(Verdict { winner: None, ending: Ending::MoveLimit }));
    let before = format!("4k4/9/9/9/9/9/9/9/9/R2K5 w - - {} 80", MOVE_LIMIT_PLIES - 1);
    assert_eq!(repetition::adjudicate(&Position::from_fen(&before).unwrap(), 3), None);
}
