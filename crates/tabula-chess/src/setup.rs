//! [`Setup`]: a position as FEN describes it, before it is checked for legality, and the standard and Chess960
//! start positions. A leaf below the position: [`Position::from_setup`](crate::Position::from_setup)
//! validates a setup, the [`fen`](crate::fen) module reads and writes one.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{Position, Setup};
//!
//! let setup = Setup::chess960(518).unwrap();
//! assert_eq!(setup, Setup::startpos());
//! assert_eq!(Position::from_setup(&setup).unwrap(), Position::startpos());
//! ```

use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::types::{Color, File, Role, Square};

/// A position as FEN describes it, not yet checked for legality. [`Position::from_setup`](crate::Position::from_setup)
/// validates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Where the pieces stand.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The castling rights claimed.
    pub castling: CastlingRights,
    /// The en-passant square given, if any.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number.
    pub fullmove_number: u32,
}

impl Setup {
    /// The standard starting position.
    pub fn startpos() -> Setup {
        Setup {
            board: Board::startpos(),
            turn: Color::White,
            castling: CastlingRights::ALL,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// Start position number `number` (0 to 959) of Chess960 in the standard numbering (518 is the starting
    /// position of chess), with all four castling rights. `None` past 959.
    ///
    /// The number picks, in turn, the file of the light-squared bishop (`number % 4` of b, d, f, h), of the
    /// dark-squared one (the next base-4 digit, of a, c, e, g), the queen's square among the six left (a base-6
    /// digit), the knights' two squares among the five left (the remaining 0 to 9, pairs in lexicographic order),
    /// and the last three squares take rook, king, rook.
    pub fn chess960(number: u32) -> Option<Setup> {
        if number >= 960 {
            return None;
        }
        let mut back: [Option<Role>; 8] = [None; 8];
        let mut n = number as usize;
        back[2 * (n % 4) + 1] = Some(Role::Bishop);
        n /= 4;
        back[2 * (n % 4)] = Some(Role::Bishop);
        n /= 4;
        let free = |back: &[Option<Role>; 8], i: usize| (0..8).filter(|&f| back[f].is_none()).nth(i).expect("free");
        let queen = free(&back, n % 6);
        back[queen] = Some(Role::Queen);
        n /= 6;
        const KNIGHTS: [(usize, usize); 10] =
            [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
        let (a, b) = KNIGHTS[n];
        let (a, b) = (free(&back, a), free(&back, b));
        back[a] = Some(Role::Knight);
        back[b] = Some(Role::Knight);
        for role in [Role::Rook, Role::King, Role::Rook] {
            let f = free(&back, 0);
            back[f] = Some(role);
        }
        let back = back.map(|r| r.expect("every file filled"));
        let board = Board::with_back_rank(&back);
        let mut castling = CastlingRights::NONE;
        let rooks: Vec<File> = (0..8).filter(|&f| back[f] == Role::Rook).map(|f| File::ALL[f]).collect();
        for color in Color::ALL {
            castling = castling.with_rook(color, CastlingSide::QueenSide, Some(rooks[0])).with_rook(
                color,
                CastlingSide::KingSide,
                Some(rooks[1]),
            );
        }
        Some(Setup { board, turn: Color::White, castling, ep_square: None, halfmove_clock: 0, fullmove_number: 1 })
    }
}
