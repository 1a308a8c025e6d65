//! The renju rules through the board that asks them: forbidden points found by position, as a game would
//! meet them.

use crate::{Board, Rule};

/// Builds a renju position from black and white stone lists (black to move: equal counts, padded with
/// far white stones if needed) and asks whether `point` is forbidden for black.
fn forbidden(black: &str, white: &str, point: &str) -> bool {
    let probe = Board::new(15, 15, Rule::Renju).unwrap();
    let b = probe.parse_moves(black).unwrap();
    let mut w = probe.parse_moves(white).unwrap();
    let fillers = ["a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a3", "o3", "a5", "o5"];
    let mut f = fillers.iter();
    while w.len() < b.len() {
        w.push(probe.parse_point(f.next().unwrap()).unwrap());
    }
    let mut board = Board::new(15, 15, Rule::Renju).unwrap();
    for k in 0..b.len() {
        board.play_unchecked(b[k]);
        board.play_unchecked(w[k]);
    }
    let p = board.parse_point(point).unwrap();
    assert!(board.is_empty_point(p));
    // The filtered check and the exact one agree.
    let exact = super::is_forbidden(&board.cells, p.index());
    assert_eq!(!board.is_legal(p), exact, "{black} / {white} / {point}");
    exact
}

#[test]
fn double_three_is_forbidden() {
    assert!(forbidden("h8 i8 j9 j10", "", "j8"));
    // Diagonal and vertical threes crossing.
    assert!(forbidden("f6 g7 h9 h10", "", "h8"));
    // A split three counts: h8 . j8 [k8] makes h8 . j8 k8, and l8 l9 l10 ... column l.
    assert!(forbidden("h8 j8 k9 k10", "", "k8"));
    // Two twos that only become threes later are not a double three.
    assert!(!forbidden("g8 j10 j11", "", "j8"));
}

#[test]
fn blocked_three_is_not_a_three() {
    // White at g8 blocks one end, white at l8 the other far end: h8 i8 j8 cannot become a straight four.
    assert!(!forbidden("h8 i8 j9 j10", "g8 l8", "j8"));
    // One far end blocked only: g8 open, k8 open, l8 white: .XXX.O → straight four g8..j8 possible.
    assert!(forbidden("h8 i8 j9 j10", "l8", "j8"));
}

#[test]
fn double_four_is_forbidden_even_on_one_line() {
    // Two fours on two lines (each blocked on one side, so no three is involved).
    assert!(forbidden("h8 i8 j8 k9 k10 k11", "g8 k12", "k8"));
    // X.XXX.X on one line: playing the middle of h8 . j8 [k8] l8 . n8.
    assert!(forbidden("h8 j8 l8 n8", "", "k8"));
}

#[test]
fn overline_is_forbidden_but_five_takes_precedence() {
    assert!(forbidden("c8 d8 e8 g8 h8", "", "f8"));
    // Exactly five beside a double four is allowed.
    assert!(!forbidden("d8 e8 f8 g8 h10 h11 h12", "c8 h13", "h8"));
    // Four-three is allowed, with a closed four or a straight one (the four's line is no three).
    assert!(!forbidden("h8 i8 j8 k9 k10", "g8", "k8"));
    assert!(!forbidden("h8 i8 j8 k9 k10", "", "k8"));
}

#[test]
fn four_three_from_real_games_is_allowed() {
    // Two points Rapfi (a renju engine) played as black, each a straight four with a split three.
    // k11: i13 j12 [k11] l10 open on h14 and m9, and h8 . j10 [k11] open on g7 and l12.
    assert!(!forbidden("f10 j8 j10 k9 i6 d6 j9 h12 i13 l10 h8 j12", "h10 g6 h6 f6 e6 h9 j7 i11 g11 h7 i7 j11", "k11"));
    // j8: h6 i7 [j8] k9 open on g5 and l10, and g11 . i9 [j8] open on f12 and k7.
    assert!(!forbidden("f7 i7 f8 h7 g6 i8 i6 i9 h6 k9 g11", "g8 j7 f9 g7 g9 f5 i5 i10 f6 g10 h9", "j8"));
}

#[test]
fn recursive_non_three() {
    // Row 8: black f8 g8, white d8, so after h8 the row's only straight-four point is i8 (e8 would leave
    // d8 white at the end). Column h: black h9 h10, so h8 also makes an open three there.
    assert!(forbidden("f8 g8 h9 h10", "d8", "h8"));
    // Give i8 a second four along column i (black i9 i10 i11, white i12): i8 becomes a double-four
    // point once h8 is down, the row is then no three, and h8 makes a single three: allowed.
    assert!(forbidden("f8 g8 h8 h9 h10 i9 i10 i11", "d8 i12", "i8"));
    assert!(!forbidden("f8 g8 h9 h10 i9 i10 i11", "d8 i12", "h8"));
}
