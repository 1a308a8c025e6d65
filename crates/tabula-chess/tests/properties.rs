//! Property tests: FEN and UCI round trips on positions reached by random games, and make/undo restoring
//! everything.

use proptest::prelude::*;
use tabula_chess::{Color, Move, Position, Square};

/// Plays the moves chosen by `choices` (each taken modulo the number of legal moves) from the start position,
/// stopping early when the game is over.
fn random_game(choices: &[usize]) -> Position {
    random_game_from(Position::startpos(), choices)
}

/// [`random_game`] from Chess960 start position `number % 960`.
fn random_chess960_game(number: u32, choices: &[usize]) -> Position {
    random_game_from(Position::chess960(number % 960).unwrap(), choices)
}

fn random_game_from(mut pos: Position, choices: &[usize]) -> Position {
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[choice % moves.len()]);
    }
    pos
}

/// Static exchange on `to` by recursion, the attackers found afresh at each step: what the side `turn` gains at
/// best by capturing the piece worth `value` there (or by not capturing), least valuable attacker first, a king
/// never capturing into a defended square. The oracle of `see`, which keeps a list instead.
#[cfg(feature = "engine")]
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

    #[test]
    fn fen_round_trips(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let pos = random_game(&choices);
        let fen = pos.to_fen();
        let parsed = Position::from_fen(&fen).unwrap();
        prop_assert_eq!(&parsed, &pos);
        prop_assert_eq!(parsed.key(), pos.key());
        prop_assert_eq!(parsed.to_fen(), fen);
    }

    #[test]
    fn uci_and_san_round_trip(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let pos = random_game(&choices);
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
        let fen = pos.to_fen();
        let parsed = Position::from_fen(&fen).unwrap();
        prop_assert_eq!(&parsed, &pos);
        prop_assert_eq!(parsed.key(), pos.key());
        prop_assert_eq!(parsed.to_fen(), fen.clone());
        let mut played = pos.clone();
        for &mv in pos.legal_moves().iter() {
            // The notation of Chess960 names castling unambiguously; SAN too.
            prop_assert_eq!(pos.parse_uci(&mv.to_uci_chess960()), Ok(mv), "{} {}", fen, mv.to_uci_chess960());
            prop_assert_eq!(pos.parse_san(&pos.san(mv)), Ok(mv), "{} {}", fen, pos.san(mv));
            played.play_unchecked(mv);
            prop_assert_eq!(played.key(), played.key_from_scratch());
            prop_assert_eq!(played.undo(), Some(mv));
            prop_assert_eq!(&played, &pos);
            prop_assert_eq!(played.key(), pos.key());
        }
    }

    #[test]
    fn attack_maps_agree_with_the_attackers_of_each_square(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let pos = random_game(&choices);
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

    /// A node's moves ordered at once get the hints each gets alone, but for the quiet moves onto squares the
    /// opponent attacks, which are deferred: exactly those whose hints alone are either 0 or the losing band.
    #[test]
    #[cfg(feature = "engine")]
    fn move_hints_at_once_are_each_moves_hint(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        use tabula::game::{DEFERRED, PRIORITY};
        use tabula_chess::engine::eval::{capture_order, capture_orders};
        let pos = random_game(&choices);
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
    #[cfg(feature = "engine")]
    fn see_is_the_exchange_found_by_recursion(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        use tabula_chess::engine::eval::{see, SEE_VALUE};
        let pos = random_game(&choices);
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

    #[test]
    fn undo_restores_the_position(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let pos = random_game(&choices);
        let mut played = pos.clone();
        for &mv in pos.legal_moves().iter() {
            played.play_unchecked(mv);
            prop_assert_eq!(played.key(), played.key_from_scratch());
            prop_assert_eq!(played.undo(), Some(mv));
            prop_assert_eq!(&played, &pos);
            prop_assert_eq!(played.key(), pos.key());
            prop_assert_eq!(played.checkers(), pos.checkers());
        }
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

/// At a root the fifty-move rule has drawn, with moves left, every search of the core (and minimax, their
/// oracle) searches the moves: a capture, which resets the clock, is worth what it wins, every other move a draw.
#[test]
#[cfg(feature = "engine")] // the evaluation
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
