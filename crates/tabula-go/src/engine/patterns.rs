//! MoGo's 3×3 shape patterns (hane, cut, and the edge shapes of Gelly, Wang, Munos & Teytaud, 2006), as a
//! table over the 16-bit neighbourhood code of [`PlayoutBoard::neighborhood`](crate::engine::playout::PlayoutBoard::neighborhood).
//!
//! A pattern is three rows around the empty centre where the player to move would play: `X` a stone of
//! the player to move, `O` an opponent stone, `.` empty, `x` not `O`, `o` not `X`, `#` off the board, `?`
//! anything. Every pattern also matches rotated, mirrored and with the colours swapped (a vital point for
//! one side is one for the other). The table is built when a [`Patterns`] is made, about 64 KiB.
//!
//! # Examples
//!
//! ```
//! use tabula_go::engine::patterns::{code_of, Patterns};
//!
//! let patterns = Patterns::new();
//! // Hane under an opponent stone that our two stones enclose.
//! assert!(patterns.matches(code_of(["XOX", "...", "..."])));
//! assert!(!patterns.matches(code_of(["...", "...", "..."])));
//! ```

/// The MoGo patterns, rows top to bottom.
const SOURCE: &[[&str; 3]] = &[
    ["XOX", "...", "???"], // hane: enclosing
    ["XO.", "...", "?.?"], // hane: non-cutting
    ["XO?", "X..", "x.?"], // hane: magari
    ["XOO", "...", "?.?"], // hane: thin
    ["XO?", "O.o", "?o?"], // cut: unprotected
    ["XO?", "O.X", "???"], // cut: peeped
    ["?X?", "O.O", "ooo"], // cut: de
    ["X.?", "O.?", "###"], // edge: chase
    ["OX?", "X.O", "###"], // edge: block the cut
    ["?X?", "x.O", "###"], // edge: block the connection
    ["?XO", "x.x", "###"], // edge: sweep
];

/// The cells of the code in order (row, column), centre excluded: the order of
/// [`PlayoutBoard::neighborhood`](crate::engine::playout::PlayoutBoard::neighborhood) with row 0 below.
const CELLS: [(usize, usize); 8] = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)];

/// The neighbourhood code of a pattern written without wildcards (`X`, `O`, `.`, `#`).
///
/// # Panics
///
/// On any other character.
pub fn code_of(rows: [&str; 3]) -> u16 {
    CELLS.iter().fold(0u16, |code, &(r, c)| {
        let v = match rows[r].as_bytes()[c] {
            b'.' => 0,
            b'X' => 1,
            b'O' => 2,
            b'#' => 3,
            other => panic!("code_of: {} is not X, O, . or #", other as char),
        };
        code << 2 | v
    })
}

/// Which neighbourhood codes match a pattern.
#[derive(Clone)]
pub struct Patterns {
    table: Box<[bool]>,
}

impl Default for Patterns {
    fn default() -> Self {
        Patterns::new()
    }
}

impl std::fmt::Debug for Patterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Patterns({} codes)", self.table.iter().filter(|&&m| m).count())
    }
}

impl Patterns {
    /// The MoGo patterns in all their symmetries and both colours.
    pub fn new() -> Patterns {
        let mut table = vec![false; 1 << 16].into_boxed_slice();
        for rows in SOURCE {
            let grid: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().collect()).collect();
            for symmetry in 0..8 {
                for swap in [false, true] {
                    let cells: Vec<u8> = CELLS
                        .iter()
                        .map(|&(r, c)| {
                            let (r, c) = transform(r, c, symmetry);
                            let ch = grid[r][c];
                            match (swap, ch) {
                                (true, b'X') => b'O',
                                (true, b'O') => b'X',
                                (true, b'x') => b'o',
                                (true, b'o') => b'x',
                                _ => ch,
                            }
                        })
                        .collect();
                    expand(&cells, 0, &mut table);
                }
            }
        }
        Patterns { table }
    }

    /// Whether the neighbourhood `code` matches a pattern.
    #[inline(always)]
    pub fn matches(&self, code: u16) -> bool {
        self.table[code as usize]
    }
}

/// One of the eight symmetries of the square applied to (row, column) around the centre.
fn transform(r: usize, c: usize, symmetry: usize) -> (usize, usize) {
    let (r, c) = if symmetry & 1 != 0 { (c, r) } else { (r, c) };
    let r = if symmetry & 2 != 0 { 2 - r } else { r };
    let c = if symmetry & 4 != 0 { 2 - c } else { c };
    (r, c)
}

/// Marks every code the wildcard cells allow.
fn expand(cells: &[u8], code: u16, table: &mut [bool]) {
    let Some((&first, rest)) = cells.split_first() else {
        table[code as usize] = true;
        return;
    };
    let values: &[u16] = match first {
        b'.' => &[0],
        b'X' => &[1],
        b'O' => &[2],
        b'#' => &[3],
        b'x' => &[0, 1],
        b'o' => &[0, 2],
        _ => &[0, 1, 2, 3],
    };
    for &v in values {
        expand(rest, code << 2 | v, table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_and_colours_match() {
        let p = Patterns::new();
        assert!(p.matches(code_of(["...", "...", "XOX"])));
        assert!(p.matches(code_of(["OXO", "...", "..."])));
        assert!(p.matches(code_of(["X..", "O..", "X.."])));
        // Edge chase on the left edge.
        assert!(p.matches(code_of(["#OX", "#..", "#.."])));
        assert!(!p.matches(code_of(["X..", "...", "..O"])));
    }

    #[test]
    fn the_table_is_closed_under_the_colour_swap() {
        // The playouts look codes up from black's side for both players, which this makes right.
        let p = Patterns::new();
        let swap = |code: u16| ((code & 0x5555) << 1) | ((code >> 1) & 0x5555);
        assert_eq!(swap(code_of(["X.O", "#.X", "O.#"])), code_of(["O.X", "#.O", "X.#"]));
        assert!((0..=u16::MAX).all(|code| p.matches(code) == p.matches(swap(code))));
    }
}
