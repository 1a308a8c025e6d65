//! Static exchange evaluation and the capture order built on it.
//!
//! [`see`] plays out the exchange a capture starts on its destination square: each side recaptures with its
//! least valuable attacker, and either side may stop when going on would lose. The exchange is played on a copy
//! of the board, so that the lines change as pieces leave them: a rook behind a rook joins in, and a cannon
//! gains or loses its screen as the pieces between it and the square come and go. Pins are ignored; a king
//! does not capture onto a square the other side still attacks.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::engine::see::{see, SEE_VALUE};
//! use tabula_xiangqi::{Position, Role};
//!
//! // The rook takes a pawn defended by a horse: it wins a pawn and loses the rook.
//! let pos = Position::from_fen("5k3/9/9/3n5/9/4p4/9/9/9/3KR4 w - - 0 1").unwrap();
//! let mv = pos.parse_iccs("e0e4").unwrap();
//! assert_eq!(see(&pos, mv), SEE_VALUE[Role::Pawn as usize] - SEE_VALUE[Role::Rook as usize]);
//! ```

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};
use crate::Board;
use tabula::game::PRIORITY;
use tabula::score::Score;

/// Piece values for exchanges, by [`Role`] index: king, advisor, elephant, horse, rook, cannon, pawn.
pub const SEE_VALUE: [Score; Role::COUNT] = [10_000, 200, 200, 400, 900, 450, 100];

/// Roles from the least valuable, the order in which attackers join an exchange.
const CHEAPEST_FIRST: [Role; Role::COUNT] =
    [Role::Pawn, Role::Advisor, Role::Elephant, Role::Horse, Role::Cannon, Role::Rook, Role::King];

/// The material balance for the side to move of `mv` (a legal move here) followed by the best sequence of
/// recaptures on its destination, least valuable attacker first. 0 for a quiet move that no one can take.
pub fn see(pos: &Position, mv: Move) -> Score {
    let mut board = pos.board().clone();
    let to = mv.to();
    let Some(mover) = board.remove(mv.from()) else {
        return 0;
    };
    let mut gain = [0 as Score; 32];
    gain[0] = board.remove(to).map_or(0, |p| SEE_VALUE[p.role.index()]);
    board.put(to, mover);
    let mut on_square = mover.role;
    let mut turn = mover.color.flip();
    let mut depth = 0;
    while depth + 1 < gain.len() {
        let Some(from) = cheapest_attacker(&board, to, turn) else {
            break;
        };
        let attacker = board.remove(from).expect("an attacker on its square");
        board.remove(to);
        board.put(to, attacker);
        if attacker.role == Role::King && board.attackers_to(to, turn.flip()).any() {
            // The king cannot capture onto a square still attacked: the exchange ends before it.
            break;
        }
        depth += 1;
        gain[depth] = SEE_VALUE[on_square.index()] - gain[depth - 1];
        on_square = attacker.role;
        turn = turn.flip();
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

/// The least valuable piece of `by` that attacks `sq` by its move rules.
fn cheapest_attacker(board: &Board, sq: Square, by: Color) -> Option<Square> {
    let attackers = board.attackers_to(sq, by);
    if !attackers.any() {
        return None;
    }
    CHEAPEST_FIRST.iter().find_map(|&role| (attackers & board.by_role(role)).first())
}

/// The ordering hint for `mv`: captures that do not lose material by [`see`] beyond
/// [`PRIORITY`] (tried before killers), by most valuable victim then least valuable
/// attacker; losing captures below `-PRIORITY` (after every quiet move); quiet moves 0.
pub fn capture_order(pos: &Position, mv: Move) -> i32 {
    let board = pos.board();
    let Some(victim) = board.piece_at(mv.to()) else {
        return 0;
    };
    let attacker = board.piece_at(mv.from()).map_or(Role::King, |p| p.role);
    let mvv_lva = 16 * SEE_VALUE[victim.role.index()].min(1000) - SEE_VALUE[attacker.index()].min(1000) / 10;
    if SEE_VALUE[victim.role.index()] >= SEE_VALUE[attacker.index()] || see(pos, mv) >= 0 {
        PRIORITY + mvv_lva
    } else {
        -PRIORITY + mvv_lva
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, iccs: &str) -> Score {
        let pos = Position::from_fen(fen).unwrap();
        see(&pos, pos.parse_iccs(iccs).unwrap())
    }

    #[test]
    fn exchanges() {
        // An undefended horse.
        assert_eq!(see_of("5k3/9/9/4n4/9/9/9/9/9/3KR4 w - - 0 1", "e0e6"), 400);
        // A cannon takes a rook defended by a rook: rook for cannon.
        assert_eq!(see_of("5k3/4r4/9/4r4/9/4p4/9/9/9/3KC4 w - - 0 1", "e0e6"), 900 - 450);
        // A pawn defended by a rook from afar.
        assert_eq!(see_of("4rk3/9/9/9/9/4p4/9/9/9/3KR4 w - - 0 1", "e0e4"), 100 - 900);
        // A cannon behind a screen defends: the rook takes a pawn, the cannon jumps over the horse.
        assert_eq!(see_of("4ck3/9/9/4n4/9/4p4/9/9/9/3KR4 w - - 0 1", "e0e4"), 100 - 900);
        // A cannon right behind the pawn it screened has no screen left to take back over.
        assert_eq!(see_of("5k3/9/9/4c4/9/4p4/9/9/9/3KR4 w - - 0 1", "e0e4"), 100);
        // A quiet move to an attacked square loses the piece.
        assert_eq!(see_of("4k4/9/9/9/9/4r4/9/9/9/3K1R3 w - - 0 1", "f0f4"), -900);
    }

    #[test]
    fn capture_order_bands() {
        let pos = Position::from_fen("5k3/9/9/3n5/9/4p4/9/9/9/3KR4 w - - 0 1").unwrap();
        let bad = pos.parse_iccs("e0e4").unwrap();
        let quiet = pos.parse_iccs("e0f0").unwrap();
        assert!(capture_order(&pos, bad) < -PRIORITY / 2);
        assert_eq!(capture_order(&pos, quiet), 0);
        let pos = Position::from_fen("5k3/9/9/4n4/9/9/9/9/9/3KR4 w - - 0 1").unwrap();
        assert!(capture_order(&pos, pos.parse_iccs("e0e6").unwrap()) > PRIORITY);
    }
}
