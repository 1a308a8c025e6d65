//! Property tests: FEN and ICCS round trips on positions reached by random games, WXF and Chinese notation
//! unique and read back for every legal move, the legality test of one move agreeing with generation, make/undo
//! restoring everything, each move's change of placement turning one board into the next, parsers that never
//! panic.

use proptest::prelude::*;
use std::collections::HashSet;
use tabula_board::testing::{check_fen_round_trip, check_placement_changes, check_undo_restores, random_game, Rules};
use tabula_xiangqi::{Move, Position, Square};

const RULES: Rules<Position> = Rules {
    from_fen: |fen| Position::from_fen(fen).unwrap(),
    to_fen: Position::to_fen,
    key_from_scratch: Position::key_from_scratch,
};

/// Both positions have the same pieces giving check (state that equality leaves out).
fn same_checkers(a: &Position, b: &Position) {
    assert_eq!(a.checkers(), b.checkers());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fen_round_trips(choices in prop::collection::vec(any::<usize>(), 0..200)) {
        check_fen_round_trip(&RULES, &random_game(Position::startpos(), &choices), same_checkers);
    }

    #[test]
    fn coordinates_round_trip(choices in prop::collection::vec(any::<usize>(), 0..200)) {
        let pos = random_game(Position::startpos(), &choices);
        for &mv in pos.legal_moves().iter() {
            prop_assert_eq!(Move::from_iccs(&mv.to_iccs()), Ok(mv));
            prop_assert_eq!(pos.parse_iccs(&mv.to_iccs()), Ok(mv));
            prop_assert_eq!(pos.parse_fairy(&mv.to_fairy()), Ok(mv));
        }
    }

    #[test]
    fn notation_is_unique_and_reads_back(choices in prop::collection::vec(any::<usize>(), 0..200)) {
        let pos = random_game(Position::startpos(), &choices);
        let moves = pos.legal_moves();
        let wxf: HashSet<String> = moves.iter().map(|&mv| pos.wxf(mv)).collect();
        let chinese: HashSet<String> = moves.iter().map(|&mv| pos.chinese(mv)).collect();
        prop_assert_eq!(wxf.len(), moves.len(), "{}", pos.to_fen());
        prop_assert_eq!(chinese.len(), moves.len(), "{}", pos.to_fen());
        for &mv in moves.iter() {
            prop_assert_eq!(pos.parse_notation(&pos.wxf(mv)), Ok(mv), "{} {}", pos.to_fen(), pos.wxf(mv));
            prop_assert_eq!(pos.parse_notation(&pos.chinese(mv)), Ok(mv), "{} {}", pos.to_fen(), pos.chinese(mv));
        }
    }

    #[test]
    fn is_legal_agrees_with_generation(choices in prop::collection::vec(any::<usize>(), 0..200)) {
        let pos = random_game(Position::startpos(), &choices);
        let legal: HashSet<Move> = pos.legal_moves().iter().copied().collect();
        for from in Square::ALL {
            for to in Square::ALL {
                if from != to {
                    let mv = Move::new(from, to);
                    prop_assert_eq!(pos.is_legal(mv), legal.contains(&mv), "{} {}", pos.to_fen(), mv);
                }
            }
        }
    }

    #[test]
    fn placement_changes_turn_each_board_into_the_next(choices in prop::collection::vec(any::<usize>(), 0..200)) {
        check_placement_changes(&RULES, Position::startpos(), &choices, |pos| (**pos.board()).clone(), |pos| {
            pos.placement_change(pos.history_len() - 1)
        });
    }

    #[test]
    fn undo_restores_the_position(choices in prop::collection::vec(any::<usize>(), 0..200)) {
        check_undo_restores(&RULES, &random_game(Position::startpos(), &choices), same_checkers);
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,80}") {
        let _ = Position::from_fen(&text);
        let _ = Move::from_iccs(&text);
        let _ = Move::from_fairy(&text);
        let pos = Position::startpos();
        let _ = pos.parse_iccs(&text);
        let _ = pos.parse_fairy(&text);
        let _ = pos.parse_notation(&text);
    }

    #[test]
    fn fen_like_strings_never_panic(
        placement in "[kabnrcpehKABNRCPEH1-9/]{0,100}",
        side in "[wrbx-]{0,2}",
        rest in "[-0-9 ]{0,8}",
    ) {
        let fen = format!("{placement} {side} {rest}");
        if let Ok(pos) = Position::from_fen(&fen) {
            let _ = pos.legal_moves();
            prop_assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
        }
    }
}
