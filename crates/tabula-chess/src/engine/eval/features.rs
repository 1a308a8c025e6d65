//! Where each group of features of the tapered evaluation starts in the weight table; a feature is one
//! weight pair (middlegame, endgame) and counts for white minus black.

/// Material, pawn to queen.
pub const MATERIAL: usize = 0;
/// Piece-square bonuses, `64 * role + square` from white's side (black's squares are mirrored).
pub const PST: usize = MATERIAL + 5;
/// Knight mobility by the number of safe squares reached, 0 to 8.
pub const MOBILITY_KNIGHT: usize = PST + 6 * 64;
/// Bishop mobility, 0 to 13.
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Rook mobility, 0 to 14.
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Queen mobility, 0 to 27.
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// Passed pawns by relative rank.
pub const PASSED: usize = MOBILITY_QUEEN + 28;
/// Passed pawns whose next square is free, by relative rank (on top of [`PASSED`]).
pub const PASSED_FREE: usize = PASSED + 8;
/// Pawns defended by a pawn or beside one, by relative rank.
pub const CONNECTED: usize = PASSED_FREE + 8;
/// Each extra pawn on a file.
pub const DOUBLED: usize = CONNECTED + 8;
/// Pawns with no own pawn on the adjacent files.
pub const ISOLATED: usize = DOUBLED + 1;
/// Two bishops or more.
pub const BISHOP_PAIR: usize = ISOLATED + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file without own pawns.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// The king's pawn shield: 0 to 3 own pawns in front of it.
pub const SHIELD: usize = ROOK_SEMI_OPEN + 1;
/// Danger to a king by the attack units on its zone (0 to 40; 0 unless two pieces or more attack it).
pub const KING_DANGER: usize = SHIELD + 4;
/// Pieces (not pawns) attacked by an enemy pawn.
pub const PAWN_THREAT: usize = KING_DANGER + 41;
/// Rooks and queens attacked by an enemy knight or bishop.
pub const MINOR_THREAT: usize = PAWN_THREAT + 1;
/// The side to move.
pub const TEMPO: usize = MINOR_THREAT + 1;
/// The number of features.
pub const COUNT: usize = TEMPO + 1;

/// The groups, for printing a weight table: name, first feature, length.
pub const GROUPS: [(&str, usize, usize); 20] = [
    ("material", MATERIAL, 5),
    ("pst", PST, 6 * 64),
    ("mobility_knight", MOBILITY_KNIGHT, 9),
    ("mobility_bishop", MOBILITY_BISHOP, 14),
    ("mobility_rook", MOBILITY_ROOK, 15),
    ("mobility_queen", MOBILITY_QUEEN, 28),
    ("passed", PASSED, 8),
    ("passed_free", PASSED_FREE, 8),
    ("connected", CONNECTED, 8),
    ("doubled", DOUBLED, 1),
    ("isolated", ISOLATED, 1),
    ("bishop_pair", BISHOP_PAIR, 1),
    ("rook_open", ROOK_OPEN, 1),
    ("rook_semi_open", ROOK_SEMI_OPEN, 1),
    ("shield", SHIELD, 4),
    ("king_danger", KING_DANGER, 41),
    ("pawn_threat", PAWN_THREAT, 1),
    ("minor_threat", MINOR_THREAT, 1),
    ("tempo", TEMPO, 1),
    ("end", COUNT, 0),
];
