//! The board: two bitboards, Zobrist keys for the board and its mirror image, and the game's tactics.
//!
//! Bit `column * (H + 1) + row` stands for a cell (row 0 at the bottom); each column has one spare bit on
//! top so that vertical shifts never wrap into the next column. `current` holds the stones of the side to
//! move, `mask` all stones: the opponent's are `current ^ mask`.

use std::fmt;
use std::str::FromStr;
use tabula::game::{Game, Hooks, Outcome, Remaining, Symmetries, Symmetry, TableKey, Winners, WinningMove};
use tabula::zobrist::{Key, ZobristKeys};

/// Keys per (bit, colour) for boards of up to 64 bits; colour 0 is the first player.
pub const KEYS: ZobristKeys<Key, 128> = ZobristKeys::<Key, 128>::generate(0xC0_4E_C7_F0);

/// A column index, 0 on the left.
pub type Column = u8;

/// The symmetry of a position stored under its mirror image's key.
const MIRROR: Symmetry = Symmetry(1);

/// A Connect Four position on a board `W` columns wide and `H` rows high (`W * (H + 1) <= 64`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board<const W: usize = 7, const H: usize = 6> {
    current: u64,
    mask: u64,
    moves: u32,
    key: Key,
    mirror_key: Key,
}

/// The standard 7×6 board.
pub type Standard = Board<7, 6>;

/// Why a move or a position was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// A character that is not a column number 1..=W.
    InvalidColumn {
        /// 1-based position of the move in the sequence.
        index: usize,
        /// The character found.
        found: char,
    },
    /// The column is full.
    FullColumn {
        /// 1-based position of the move in the sequence.
        index: usize,
        /// The 1-based column.
        column: u8,
    },
    /// The game was already won or drawn before this move.
    GameOver {
        /// 1-based position of the move in the sequence.
        index: usize,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveError::InvalidColumn { index, found } => {
                write!(f, "move {index}: `{found}` is not a column (expected a digit from 1 to the board's width)")
            }
            MoveError::FullColumn { index, column } => write!(f, "move {index}: column {column} is full"),
            MoveError::GameOver { index } => write!(f, "move {index}: the game is already over"),
        }
    }
}

impl std::error::Error for MoveError {}

impl<const W: usize, const H: usize> Default for Board<W, H> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const H: usize> Board<W, H> {
    const FITS: () = assert!(W >= 1 && H >= 1 && W * (H + 1) <= 64 && W <= 9, "board too large for 64 bits");
    /// Number of cells.
    pub const CELLS: u32 = (W * H) as u32;
    const BOTTOM: u64 = {
        let mut b = 0;
        let mut c = 0;
        while c < W {
            b |= 1 << (c * (H + 1));
            c += 1;
        }
        b
    };
    const BOARD: u64 = Self::BOTTOM * ((1 << H) - 1);
    /// Columns from the centre outwards: the usual best-first order.
    pub const CENTRE_FIRST: [Column; W] = {
        let mut order = [0; W];
        let mut i = 0;
        while i < W {
            // W/2, then alternately left and right of it.
            let offset = (i as isize + 1) / 2;
            let c = if i % 2 == 1 { W as isize / 2 - offset } else { W as isize / 2 + offset };
            // For even widths the order starts right of centre and still covers every column.
            order[i] = c as Column;
            i += 1;
        }
        order
    };

    /// The empty board.
    pub const fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::FITS;
        Self { current: 0, mask: 0, moves: 0, key: Key::ZERO, mirror_key: Key::ZERO }
    }

    #[inline(always)]
    const fn column_mask(col: usize) -> u64 {
        ((1 << H) - 1) << (col * (H + 1))
    }

    #[inline(always)]
    const fn top_mask(col: usize) -> u64 {
        1 << (H - 1 + col * (H + 1))
    }

    /// Number of stones played.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Whether a stone can be dropped in `col`.
    #[inline(always)]
    pub fn can_play(&self, col: Column) -> bool {
        (col as usize) < W && self.mask & Self::top_mask(col as usize) == 0
    }

    /// Cells where a stone can be dropped now.
    #[inline(always)]
    fn possible(&self) -> u64 {
        (self.mask + Self::BOTTOM) & Self::BOARD
    }

    /// Empty cells that would complete four for the stones `position`.
    #[inline(always)]
    fn winning_cells(position: u64, mask: u64) -> u64 {
        let h = H as u32;
        // Vertical: three stacked stones, the cell above them.
        let mut r = (position << 1) & (position << 2) & (position << 3);
        for shift in [h + 1, h, h + 2] {
            // Horizontal (h + 1) and the two diagonals (h, h + 2).
            let p = (position << shift) & (position << (2 * shift));
            r |= p & (position << (3 * shift));
            r |= p & (position >> shift);
            let p = (position >> shift) & (position >> (2 * shift));
            r |= p & (position << shift);
            r |= p & (position >> (3 * shift));
        }
        r & (Self::BOARD ^ mask)
    }

    #[inline(always)]
    fn has_four(position: u64) -> bool {
        let h = H as u32;
        for shift in [1, h, h + 1, h + 2] {
            let m = position & (position >> shift);
            if m & (m >> (2 * shift)) != 0 {
                return true;
            }
        }
        false
    }

    /// Cells where the side to move would complete four.
    #[inline(always)]
    pub fn own_threats(&self) -> u64 {
        Self::winning_cells(self.current, self.mask)
    }

    /// Cells where the opponent would complete four.
    #[inline(always)]
    pub fn opponent_threats(&self) -> u64 {
        Self::winning_cells(self.current ^ self.mask, self.mask)
    }

    /// The bit a stone dropped in `col` would occupy.
    #[inline(always)]
    fn drop_bit(&self, col: usize) -> u64 {
        (self.mask + (1 << (col * (H + 1)))) & Self::column_mask(col)
    }

    /// The number of cells where the side to move would complete four after dropping in `col`: Pons's
    /// move-ordering measure.
    #[inline(always)]
    pub fn threats_after(&self, col: Column) -> u32 {
        let bit = self.drop_bit(col as usize);
        Self::winning_cells(self.current | bit, self.mask | bit).count_ones()
    }

    /// Playable cells after which the opponent cannot win at once (empty if every move loses at once).
    #[inline(always)]
    fn non_losing_cells(&self) -> u64 {
        let mut possible = self.possible();
        let threats = self.opponent_threats();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0; // two threats to parry at once
            }
            possible = forced;
        }
        // Never play just below an opponent's winning cell.
        possible & !(threats >> 1)
    }

    /// `MIRROR_KEYS[2 * bit + colour]`: the key of a stone of `colour` on `bit` in the mirror image, that is
    /// the key of the same stone on the mirrored bit.
    const MIRROR_KEYS: [Key; 128] = {
        let keys = KEYS.as_slice();
        let mut mirrored = [Key::ZERO; 128];
        let mut index = 0;
        while index < W * (H + 1) {
            let (col, row) = (index / (H + 1), index % (H + 1));
            let mirror = (W - 1 - col) * (H + 1) + row;
            mirrored[2 * index] = keys[2 * mirror];
            mirrored[2 * index + 1] = keys[2 * mirror + 1];
            index += 1;
        }
        mirrored
    };

    /// The keys of a stone of `colour` on bit `index`: for the board and for its mirror image.
    #[inline(always)]
    fn stone_keys(index: usize, colour: usize) -> (Key, Key) {
        let i = (2 * index + colour) & 127;
        (KEYS[i], Self::MIRROR_KEYS[i])
    }

    /// The key and the mirrored key after dropping a stone in `col`.
    #[inline(always)]
    fn keys_after(&self, col: usize) -> (Key, Key) {
        let index = self.drop_bit(col).trailing_zeros() as usize;
        let (key, mirror) = Self::stone_keys(index, (self.moves & 1) as usize);
        (self.key ^ key, self.mirror_key ^ mirror)
    }

    /// Drops a stone in `col`, updating both keys.
    #[inline(always)]
    fn drop(&mut self, col: usize) {
        let bit = self.drop_bit(col);
        debug_assert!(bit != 0, "column {col} is full");
        let (key, mirror) = Self::stone_keys(bit.trailing_zeros() as usize, (self.moves & 1) as usize);
        self.key ^= key;
        self.mirror_key ^= mirror;
        self.current ^= self.mask;
        self.mask |= bit;
        self.moves += 1;
    }

    /// Takes the top stone out of `col`, updating both keys.
    #[inline(always)]
    fn lift(&mut self, col: usize) {
        let column = self.mask & Self::column_mask(col);
        debug_assert!(column != 0, "column {col} is empty");
        let bit = 1 << (63 - column.leading_zeros());
        self.mask ^= bit;
        self.current ^= self.mask;
        self.moves -= 1;
        let (key, mirror) = Self::stone_keys(bit.trailing_zeros() as usize, (self.moves & 1) as usize);
        self.key ^= key;
        self.mirror_key ^= mirror;
    }

    /// Plays column `col` (0-based) after checking it.
    ///
    /// # Errors
    ///
    /// If the column is out of range or full, or the game is over (`index` 1 in the error).
    pub fn try_play(&mut self, col: Column) -> Result<(), MoveError> {
        if col as usize >= W {
            return Err(MoveError::InvalidColumn { index: 1, found: char::from(b'1' + col) });
        }
        if self.outcome().is_some() {
            return Err(MoveError::GameOver { index: 1 });
        }
        if !self.can_play(col) {
            return Err(MoveError::FullColumn { index: 1, column: col + 1 });
        }
        self.drop(col as usize);
        Ok(())
    }

    /// Plays a sequence of 1-based column digits such as `"4453"`.
    ///
    /// # Errors
    ///
    /// The first bad move, with its 1-based index in the sequence; the board is left unchanged.
    pub fn play_sequence(&mut self, sequence: &str) -> Result<(), MoveError> {
        let mut next = self.clone();
        for (i, ch) in sequence.chars().enumerate() {
            let index = i + 1;
            let col = match ch.to_digit(10) {
                Some(d) if d >= 1 && d as usize <= W => (d - 1) as Column,
                _ => return Err(MoveError::InvalidColumn { index, found: ch }),
            };
            next.try_play(col).map_err(|e| match e {
                MoveError::FullColumn { column, .. } => MoveError::FullColumn { index, column },
                MoveError::GameOver { .. } => MoveError::GameOver { index },
                MoveError::InvalidColumn { found, .. } => MoveError::InvalidColumn { index, found },
            })?;
        }
        *self = next;
        Ok(())
    }

    /// The key computed from scratch, for tests of the incremental update.
    pub fn key_from_scratch(&self) -> (Key, Key) {
        let mut key = Key::ZERO;
        let mut mirror = Key::ZERO;
        // The side to move owns `current`; colour 0 moved first.
        let to_move = (self.moves & 1) as usize;
        for c in 0..W {
            for row in 0..H {
                let index = c * (H + 1) + row;
                let bit = 1u64 << index;
                if self.mask & bit != 0 {
                    let colour = if self.current & bit != 0 { to_move } else { to_move ^ 1 };
                    key ^= KEYS[2 * index + colour];
                    mirror ^= KEYS[2 * ((W - 1 - c) * (H + 1) + row) + colour];
                }
            }
        }
        (key, mirror)
    }

    /// The stone at `col`, `row` (0 = bottom): `Some(0)` for the first player, `Some(1)` for the second.
    pub fn cell(&self, col: usize, row: usize) -> Option<u8> {
        let bit = 1u64 << (col * (H + 1) + row);
        if self.mask & bit == 0 {
            return None;
        }
        let to_move = (self.moves & 1) as u8;
        Some(if self.current & bit != 0 { to_move } else { to_move ^ 1 })
    }

    /// Converts a search score at this position into Pascal Pons's convention: a win is positive, worth the
    /// number of the winner's stones left in hand at the end plus one (`W*H/2 + 1 - stones the winner played`),
    /// a loss the negative of the opponent's, a draw 0.
    pub fn pons_score(&self, score: tabula::Score) -> i32 {
        match tabula::score::plies_to_end(score) {
            None => 0,
            Some(p) => {
                let total = self.moves as i32 + p.abs();
                let winner_stones = (total + 1) / 2;
                let value = (W * H) as i32 / 2 + 1 - winner_stones;
                if p > 0 {
                    value
                } else {
                    -value
                }
            }
        }
    }
}

impl<const W: usize, const H: usize> Game for Board<W, H> {
    type Move = Column;
    const MOVE_CODES: usize = W;

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Column>) {
        moves.extend(Self::CENTRE_FIRST.iter().copied().filter(|&c| self.mask & Self::top_mask(c as usize) == 0));
    }

    #[inline(always)]
    fn play(&mut self, col: Column) {
        self.drop(col as usize);
    }

    #[inline(always)]
    fn undo(&mut self, col: Column) {
        self.lift(col as usize);
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        if Self::has_four(self.current ^ self.mask) {
            Some(Outcome::Loss)
        } else if self.moves == Self::CELLS {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline(always)]
    fn key(&self) -> Key {
        self.key
    }

    #[inline(always)]
    fn move_code(col: Column) -> u16 {
        col as u16
    }

    /// Wins and safe moves one ply ahead, who can still win, the mirror symmetry with children's keys ahead
    /// of time, and the cells left.
    const HOOKS: Hooks<Self> = Hooks {
        winning_move: Some(Self::win_now),
        non_losing_moves: Some(Self::safe_moves),
        possible_winners: Some(Self::winners),
        symmetry: Some(Symmetries {
            table_key: Self::canonical_key,
            canonical_move_code: Self::mirror_code,
            actual_move_code: Self::mirror_code,
        }),
        child_table_key: Some(Self::child_key),
        remaining: Some(Self::plies_left),
        ..Hooks::NONE
    };
}

/// The hooks of [`Game::HOOKS`].
impl<const W: usize, const H: usize> Board<W, H> {
    #[inline(always)]
    fn win_now(&self) -> WinningMove<Column> {
        match self.possible() & self.own_threats() {
            0 => WinningMove::NoneExists,
            wins => WinningMove::Found((wins.trailing_zeros() as usize / (H + 1)) as Column),
        }
    }

    #[inline(always)]
    fn safe_moves(&self, moves: &mut Vec<Column>) -> Option<usize> {
        let cells = self.non_losing_cells();
        let before = moves.len();
        for c in Self::CENTRE_FIRST {
            if cells & Self::column_mask(c as usize) != 0 {
                moves.push(c);
            }
        }
        Some(moves.len() - before)
    }

    #[inline(always)]
    fn winners(&self) -> Winners {
        // A player can still win only through a line of four holding no stone of the other.
        let empty = Self::BOARD & !self.mask;
        if Self::has_four(empty) {
            // A line with no stone at all is open to both (one test instead of two, true until late).
            return Winners::BOTH;
        }
        let opponent = self.current ^ self.mask;
        Winners { side_to_move: Self::has_four(self.current | empty), opponent: Self::has_four(opponent | empty) }
    }

    #[inline(always)]
    fn canonical_key(&self) -> TableKey {
        if self.mirror_key < self.key {
            TableKey { key: self.mirror_key, symmetry: MIRROR }
        } else {
            TableKey { key: self.key, symmetry: Symmetry::IDENTITY }
        }
    }

    #[inline(always)]
    fn child_key(&self, col: Column) -> Option<Key> {
        let (key, mirror) = self.keys_after(col as usize);
        Some(key.min(mirror))
    }

    /// A move's code in the mirror image under [`MIRROR`], else itself; the mirror image is its own inverse.
    #[inline(always)]
    fn mirror_code(code: u16, symmetry: Symmetry) -> u16 {
        if symmetry == MIRROR {
            (W as u16 - 1) - code
        } else {
            code
        }
    }

    fn plies_left(&self) -> Option<Remaining> {
        Some(Remaining { plies: Self::CELLS - self.moves, margin: 0 })
    }
}

impl<const W: usize, const H: usize> FromStr for Board<W, H> {
    type Err = MoveError;

    /// Reads a sequence of 1-based column digits, such as `"4453"`; surrounding blanks are ignored.
    fn from_str(s: &str) -> Result<Self, MoveError> {
        let mut b = Self::new();
        b.play_sequence(s.trim())?;
        Ok(b)
    }
}

impl<const W: usize, const H: usize> fmt::Display for Board<W, H> {
    /// Rows from the top, `X` for the first player and `O` for the second, then the column numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..H).rev() {
            for col in 0..W {
                let c = match self.cell(col, row) {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None => '.',
                };
                write!(f, "{c}{}", if col + 1 < W { " " } else { "\n" })?;
            }
        }
        for col in 0..W {
            write!(f, "{}{}", col + 1, if col + 1 < W { " " } else { "" })?;
        }
        Ok(())
    }
}

impl<const W: usize, const H: usize> fmt::Debug for Board<W, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board<{W}, {H}> after {} moves\n{self}", self.moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::game::HookedGame;

    #[test]
    fn centre_first_covers_every_column() {
        assert_eq!(Standard::CENTRE_FIRST, [3, 2, 4, 1, 5, 0, 6]);
        let mut v = Board::<6, 5>::CENTRE_FIRST.to_vec();
        v.sort_unstable();
        assert_eq!(v, (0..6).collect::<Vec<_>>());
    }

    #[test]
    fn wins_in_every_direction() {
        // Horizontal, vertical, diagonal up-right and its mirror image; then the position before each win.
        for seq in ["4455667", "1212121", "12234334544", "76654554344"] {
            let b: Standard = seq.parse().unwrap();
            assert_eq!(b.outcome(), Some(Outcome::Loss), "{seq}\n{b}");
            let mut before: Standard = seq[..seq.len() - 1].parse().unwrap();
            assert_eq!(before.outcome(), None);
            let WinningMove::Found(win) = before.winning_move() else { panic!("a win in one:\n{before}") };
            before.play(win);
            assert_eq!(before.outcome(), Some(Outcome::Loss));
        }
    }

    #[test]
    fn child_keys_match_played_keys() {
        let mut b: Standard = "4453221".parse().unwrap();
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        for col in moves {
            let predicted = b.child_table_key(col);
            b.play(col);
            assert_eq!(predicted, Some(b.table_key().key));
            assert_eq!((b.key, b.mirror_key), b.key_from_scratch());
            b.undo(col);
        }
    }

    #[test]
    fn errors_name_the_move() {
        assert_eq!("448".parse::<Standard>(), Err(MoveError::InvalidColumn { index: 3, found: '8' }));
        assert_eq!("1x".parse::<Standard>(), Err(MoveError::InvalidColumn { index: 2, found: 'x' }));
        assert_eq!("1111111".parse::<Standard>(), Err(MoveError::FullColumn { index: 7, column: 1 }));
        assert_eq!("12121212".parse::<Standard>(), Err(MoveError::GameOver { index: 8 }));
    }

    #[test]
    fn pons_scores() {
        use tabula::score::{loss_in, win_in};
        let b = Standard::new();
        assert_eq!(b.pons_score(win_in(1)), 21);
        assert_eq!(b.pons_score(win_in(41)), 1);
        assert_eq!(b.pons_score(loss_in(2)), -21);
        assert_eq!(b.pons_score(0), 0);
        let b: Standard = "1".parse().unwrap();
        assert_eq!(b.pons_score(win_in(1)), 21);
        assert_eq!(b.pons_score(loss_in(2)), -20);
    }
}
