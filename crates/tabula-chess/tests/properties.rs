//! Property tests: FEN and UCI round trips on positions reached by random games, make/undo restoring
//! everything, and each move's change of placement turning one board into the next. The evaluation's
//! properties are in `evaluation.rs`.

use proptest::prelude::*;
use tabula_board::testing::{check_fen_round_trip, check_placement_changes, check_undo_restores, random_game, Rules};
use tabula_chess::{Color, Move, Position, Square};

const RULES: Rules<Position> = Rules {
    from_fen: |fen| Position::from_fen(fen).unwrap(),
    to_fen: Position::to_fen,
    key_from_scratch: Position::key_from_scratch,
};

/// The same from Chess960 start position `number % 960`.
fn random_chess960_game(number: u32, choices: &[usize]) -> Position {
    random_game(Position::chess960(number % 960).unwrap(), choices)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn fen_round_trips(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        check_fen_round_trip(&RULES, &random_game(Position::startpos(), &choices), |_, _| {});
    }

    #[test]
    fn uci_and_san_round_trip(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let pos = random_game(Position::startpos(), &choices);
        for &mv in pos.legal_moves().iter() {
            if !mv.is_castling() {
                prop_assert_eq!(Move::from_uci(&mv.to_uci()), Ok(mv));
            }
            prop_assert_eq!(pos.parse_uci(&mv.to_uci()), Ok(mv));
            prop_assert_eq!(pos.parse_uci(&mv.to_uci_chess960()), Ok(mv));
            prop_assert_eq!(pos.parse_san(&pos.san(mv)), Ok(mv), "{} {}", pos.to_fen(), pos.san(mv));
        }
    }

    #[test]
    fn chess960_games_round_trip(number in 0u32..960, choices in prop::collection::vec(any::<usize>(), 0..100)) {
        let pos = random_chess960_game(number, &choices);
        check_fen_round_trip(&RULES, &pos, |_, _| {});
        let fen = pos.to_fen();
        for &mv in pos.legal_moves().iter() {
            // The notation of Chess960 names castling unambiguously; SAN too.
            prop_assert_eq!(pos.parse_uci(&mv.to_uci_chess960()), Ok(mv), "{} {}", fen, mv.to_uci_chess960());
            prop_assert_eq!(pos.parse_san(&pos.san(mv)), Ok(mv), "{} {}", fen, pos.san(mv));
        }
        check_undo_restores(&RULES, &pos, |_, _| {});
    }

    #[test]
    fn attack_maps_agree_with_the_attackers_of_each_square(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let pos = random_game(Position::startpos(), &choices);
        let board = pos.board();
        // With the board's own blockers and with a few taken away (as exchanges open lines).
        let mut occupied = board.occupied();
        for _ in 0..3 {
            for color in Color::ALL {
                let map = board.attacks_by(color, occupied);
                for sq in Square::ALL {
                    let attacked = (board.attackers_to(sq, occupied) & board.by_color(color)).any();
                    prop_assert_eq!(map.contains(sq), attacked, "{} {:?} {:?}", pos.to_fen(), color, sq);
                }
            }
            if let Some(sq) = occupied.first() {
                occupied = occupied.without(sq);
            }
        }
    }

    #[test]
    fn placement_changes_turn_each_board_into_the_next(
        number in 0u32..960,
        choices in prop::collection::vec(any::<usize>(), 0..120),
    ) {
        // Chess960 starts too, for castling with the king or rook on its own destination.
        for start in [Position::startpos(), Position::chess960(number).unwrap()] {
            check_placement_changes(&RULES, start, &choices, |pos| (**pos.board()).clone(), |pos| {
                pos.placement_change(pos.history_len() - 1)
            });
        }
    }

    #[test]
    fn undo_restores_the_position(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let same_checkers = |a: &Position, b: &Position| assert_eq!(a.checkers(), b.checkers());
        check_undo_restores(&RULES, &random_game(Position::startpos(), &choices), same_checkers);
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,80}") {
        let _ = Position::from_fen(&text);
        let _ = tabula_chess::Epd::parse(&text);
        let _ = Move::from_uci(&text);
        let pos = Position::startpos();
        let _ = pos.parse_uci(&text);
        let _ = pos.parse_san(&text);
    }

    #[test]
    fn fen_like_strings_never_panic(
        placement in "[pnbrqkPNBRQK1-9/]{0,70}",
        side in "[wbx-]{0,2}",
        castling in "[KQkqA-Ha-h-]{0,5}",
        ep in "[a-i1-9-]{0,3}",
    ) {
        let fen = format!("{placement} {side} {castling} {ep} 0 1");
        if let Ok(pos) = Position::from_fen(&fen) {
            let _ = pos.legal_moves();
            prop_assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
        }
    }
}
