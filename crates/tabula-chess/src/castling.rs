//! Castling: [`CastlingSide`] and the [`CastlingRights`] a position carries, standard or Chess960. A leaf
//! module: it needs only the square types, so the board, the keys, moves, FEN and the position all use it
//! without using each other.
//!
//! # Examples
//!
//! ```
//! use tabula_chess::{CastlingRights, CastlingSide, Color, File};
//!
//! let rights = CastlingRights::ALL.with(Color::Black, CastlingSide::QueenSide, false);
//! assert!(rights.has(Color::Black, CastlingSide::KingSide));
//! assert_eq!(rights.rook_file(Color::Black, CastlingSide::QueenSide), None);
//! assert_eq!(format!("{rights:?}"), "CastlingRights(KQk)");
//! assert_eq!(CastlingSide::QueenSide.king_to_file(), File::C);
//! ```

use crate::types::{Color, File};

/// Which way a king castles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (O-O).
    KingSide = 0,
    /// Towards the a-file (O-O-O).
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];
    /// Number of sides.
    pub const COUNT: usize = 2;

    /// 0 for the king side, 1 for the queen side.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file the king lands on.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook lands on.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The file the rook starts from in standard chess.
    pub const fn rook_from_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::H,
            CastlingSide::QueenSide => File::A,
        }
    }
}

/// The castling rights: for each colour and side, whether it may still castle and with the rook on which file
/// of its back rank. In standard chess the rooks start on the a- and h-files; in Chess960 on any files either
/// side of the king.
///
/// Packed in 16 bits: the four rights in bits 0–3 (`1 << (2 * color + side)`), the four rook files in three
/// bits each from bit 4. The file of a right not held is kept at its standard value, so equal rights compare
/// equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CastlingRights(u16);

impl CastlingRights {
    /// No right at all.
    pub const NONE: CastlingRights = CastlingRights(CastlingRights::STANDARD_FILES);
    /// All four rights of standard chess (rooks on the a- and h-files).
    pub const ALL: CastlingRights = CastlingRights(CastlingRights::STANDARD_FILES | 15);
    /// The file bits of standard chess: h for the king side, a for the queen side.
    const STANDARD_FILES: u16 = {
        let h = File::H as u16;
        let a = File::A as u16;
        h << 4 | a << 7 | h << 10 | a << 13
    };

    #[inline(always)]
    const fn bit(color: Color, side: CastlingSide) -> usize {
        2 * color.index() + side.index()
    }

    /// Whether `color` may still castle on `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 >> CastlingRights::bit(color, side) & 1 != 0
    }

    /// These rights plus (`allowed`) or minus one, with the rook of standard chess.
    #[inline(always)]
    pub const fn with(self, color: Color, side: CastlingSide, allowed: bool) -> CastlingRights {
        self.with_rook(color, side, if allowed { Some(side.rook_from_file()) } else { None })
    }

    /// These rights with one right set to castle with the rook on `rook` (`Some`), or removed (`None`).
    #[inline(always)]
    pub const fn with_rook(self, color: Color, side: CastlingSide, rook: Option<File>) -> CastlingRights {
        let bit = CastlingRights::bit(color, side);
        let shift = 4 + 3 * bit;
        let cleared = self.0 & !(1 << bit) & !(7 << shift);
        match rook {
            Some(file) => CastlingRights(cleared | 1 << bit | (file as u16) << shift),
            None => CastlingRights(cleared | (side.rook_from_file() as u16) << shift),
        }
    }

    /// The file of the rook `color` castles with on `side`, if it still may.
    #[inline(always)]
    pub const fn rook_file(self, color: Color, side: CastlingSide) -> Option<File> {
        if self.has(color, side) {
            let shift = 4 + 3 * CastlingRights::bit(color, side);
            File::new((self.0 >> shift & 7) as u32)
        } else {
            None
        }
    }

    /// Whether no right is left.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 & 15 == 0
    }

    /// The rights as four bits (white short, white long, black short, black long from bit 0), the rook files
    /// left out.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        (self.0 & 15) as u8
    }

    /// These rights with those in `lost` (bits as in [`bits`](CastlingRights::bits)) removed.
    #[inline(always)]
    pub(crate) const fn without_bits(self, lost: u8) -> CastlingRights {
        let mut rights = self;
        let mut bit = 0;
        while bit < 4 {
            if lost >> bit & 1 != 0 {
                rights = rights.with_rook(Color::ALL[bit / 2], CastlingSide::ALL[bit % 2], None);
            }
            bit += 1;
        }
        rights
    }

    /// Whether every right held uses the rook of standard chess (a king on the e-file is checked by the
    /// position). Rights with other rooks exist only in Chess960.
    pub const fn is_standard(self) -> bool {
        let mut bit = 0;
        while bit < 4 {
            let shift = 4 + 3 * bit;
            let standard = CastlingSide::ALL[bit % 2].rook_from_file() as u16;
            if self.0 >> bit & 1 != 0 && (self.0 >> shift & 7) != standard {
                return false;
            }
            bit += 1;
        }
        true
    }
}

impl Default for CastlingRights {
    fn default() -> CastlingRights {
        CastlingRights::NONE
    }
}

impl CastlingRights {
    /// The FEN castling field: `KQkq`, a subset in that order, or `-`, a right whose rook `outermost` says is
    /// not the outermost on its side of the king written as the rook's file (X-FEN: `G`, `b`).
    pub(crate) fn field(self, outermost: impl Fn(Color, CastlingSide, File) -> bool) -> String {
        let mut out = String::new();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(file) = self.rook_file(color, side) else {
                    continue;
                };
                let c = match (outermost(color, side, file), side) {
                    (true, CastlingSide::KingSide) => 'k',
                    (true, CastlingSide::QueenSide) => 'q',
                    (false, _) => file.to_char(),
                };
                out.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }
}

/// The rights as FEN writes them without a board: any rook off the standard a- and h-files by its file.
impl std::fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CastlingRights({})", self.field(|_, side, file| file == side.rook_from_file()))
    }
}
