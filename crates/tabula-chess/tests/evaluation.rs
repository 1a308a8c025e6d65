//! Property tests of the evaluation on positions reached by random games: the move-order hints of a node, the
//! static exchange against an exchange found by recursion, and the searches at a root the fifty-move rule has
//! drawn.

use proptest::prelude::*;
use tabula_board::testing::random_game;
use tabula_chess::{Color, Position, Square};

/// Static exchange on `to` by recursion, the attackers found afresh at each step: what the side `turn` gains at
/// best by capturing the piece worth `value` there (or by not capturing), least valuable attacker first, a king
/// never capturing into a defended square. The oracle of `see`, which keeps a list instead.
fn exchange(pos: &Position, to: Square, occupied: tabula_chess::Bitboard, turn: Color, value: i32) -> i32 {
    use tabula_chess::engine::eval::SEE_VALUE;
    use tabula_chess::Role;
    let b = pos.board();
    let attackers = b.attackers_to(to, occupied) & occupied & b.by_color(turn);
    let Some((role, sq)) = Role::ALL.iter().find_map(|&r| (attackers & b.by_role(r)).first().map(|s| (r, s))) else {
        return 0;
    };
    let rest = occupied.without(sq);
    if role == Role::King && (b.attackers_to(to, rest) & rest & b.by_color(turn.flip())).any() {
        return 0;
    }
    (value - exchange(pos, to, rest, turn.flip(), SEE_VALUE[role.index()])).max(0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// A node's moves ordered at once get the hints each gets alone, but for the quiet moves onto squares the
    /// opponent attacks, which are deferred: exactly those whose hints alone are either 0 or the losing band.
    #[test]
    fn move_hints_at_once_are_each_moves_hint(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        use tabula::game::{DEFERRED, PRIORITY};
        use tabula_chess::engine::eval::{capture_order, capture_orders};
        let pos = random_game(Position::startpos(), &choices);
        let moves = pos.legal_moves();
        let mut hints = vec![7];
        capture_orders(&pos, &moves, &mut hints);
        prop_assert_eq!(hints.len(), moves.len() + 1);
        prop_assert_eq!(hints[0], 7);
        let b = pos.board();
        let threats = b.attacks_by(pos.turn().flip(), b.occupied());
        for (&mv, &hint) in moves.iter().zip(&hints[1..]) {
            let alone = capture_order(&pos, mv);
            let quiet = !mv.is_castling() && mv.promotion().is_none() && !pos.is_capture(mv);
            if quiet && threats.contains(mv.to()) {
                prop_assert_eq!(hint, DEFERRED, "{} {}", pos.to_fen(), mv);
                prop_assert!(alone == 0 || alone < -PRIORITY, "{} {} {}", pos.to_fen(), mv, alone);
            } else {
                prop_assert_eq!(hint, alone, "{} {}", pos.to_fen(), mv);
            }
        }
    }

    /// Every move's `see` (castling aside) is the recursive exchange's value.
    #[test]
    fn see_is_the_exchange_found_by_recursion(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        use tabula_chess::engine::eval::{see, SEE_VALUE};
        let pos = random_game(Position::startpos(), &choices);
        let b = pos.board();
        for &mv in pos.legal_moves().iter().filter(|&&mv| !mv.is_castling()) {
            let (from, to) = (mv.from(), mv.to());
            let mover = b.piece_at(from).unwrap();
            let mut occupied = b.occupied().without(from);
            let mut gain = b.piece_at(to).map_or(0, |p| SEE_VALUE[p.role.index()]);
            if mover.role == tabula_chess::Role::Pawn && Some(to) == pos.ep_square() {
                occupied = occupied.without(Square::from_coords(to.file(), from.rank()));
                gain = SEE_VALUE[0];
            }
            let standing = mv.promotion().unwrap_or(mover.role);
            gain += SEE_VALUE[standing.index()] - SEE_VALUE[mover.role.index()];
            let expected = gain - exchange(&pos, to, occupied, mover.color.flip(), SEE_VALUE[standing.index()]);
            prop_assert_eq!(see(&pos, mv), expected, "{} {}", pos.to_fen(), mv.to_uci());
        }
    }
}

/// At a root the fifty-move rule has drawn, with moves left, every search of the core (and minimax, their
/// oracle) searches the moves: a capture, which resets the clock, is worth what it wins, every other move a draw.
#[test]
fn a_root_drawn_by_the_fifty_move_rule_is_searched_alike() {
    use tabula::game::Game;
    use tabula::search::verify;
    // White's queen takes the rook; Black has no capture.
    for (fen, wins) in [("7r/K7/8/4Q3/8/8/3k4/8 w - - 100 51", true), ("7r/K7/8/4Q3/8/8/3k4/8 b - - 100 51", false)] {
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.outcome().is_some() && !pos.is_over(), "{fen}");
        let value = verify::check_all(&pos, &tabula_chess::engine::eval::Evaluation, 2)
            .unwrap_or_else(|m| panic!("{fen}: {m}"));
        assert_eq!(value > 0, wins, "{fen}: {value}");
        assert!(value >= 0, "{fen}: {value}");
    }
}
