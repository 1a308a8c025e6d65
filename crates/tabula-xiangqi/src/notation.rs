//! WXF and Chinese notation: how xiangqi books and players name a move, by the piece, its file, its direction
//! and a number (炮二平五, `C2=5`: the cannon on file 2 moves sideways to file 5).
//!
//! Files are numbered 1–9 from each player's right: Red's file 1 is file `i`, Black's file 1 is file `a`.
//! The direction is forward (进, `+`), backward (退, `-`) or sideways (平, `=`). The number is the destination
//! file for a sideways move and for the pieces that move diagonally (advisor, elephant, horse), and otherwise
//! the number of ranks moved. Chinese notation writes Red's numbers as Chinese numerals (一 to 九) and
//! Black's as digits (full-width here, １ to ９, as Chinese texts print them).
//!
//! Two pieces of a kind on one file are told apart as front (前, `+`) and rear (后, `-`), front being the one
//! nearer the opponent, in place of the file number: 前炮平五, `C+=5`. Three pawns on a file are front, middle
//! (中; WXF keeps the file number) and rear; four or five are numbered from the front (前, 二, 三, 四, 后; WXF
//! `++`, `P+`, `P3`, `P-`, `--`). When pawns stand two or more on each of two files, the file number replaces the
//! piece name: 前三平四, `3+=4`. Advisors and elephants sharing a file need no such mark: one can only move
//! forward and the other only backward.
//!
//! [`Position::parse_notation`] reads either notation back, in simplified or traditional characters (帥 俥 傌 砲
//! 進 後 and the rest), with ASCII, full-width or Chinese numerals for either side, `.` for `=`, and without the
//! front/rear mark when only one piece fits.
//!
//! # Examples
//!
//! ```
//! use tabula_xiangqi::Position;
//!
//! let pos = Position::startpos();
//! let mv = pos.parse_iccs("b0c2").unwrap();
//! assert_eq!((pos.wxf(mv), pos.chinese(mv)), ("H8+7".to_owned(), "马八进七".to_owned()));
//! assert_eq!(pos.parse_notation("H8+7"), Ok(mv));
//! assert_eq!(pos.parse_notation("傌八進七"), Ok(mv));
//!
//! // Two red cannons on file 5: front and rear.
//! let pos = Position::from_fen("5k3/9/9/9/9/9/9/4C4/9/3KC4 w").unwrap();
//! let front = pos.parse_iccs("e2e5").unwrap();
//! assert_eq!((pos.wxf(front), pos.chinese(front)), ("C++3".to_owned(), "前炮进三".to_owned()));
//! ```

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, File, Role, Square};
use tabula_board::MoveError;

/// Which way a move goes, seen from the side that makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// How the notation names the piece that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// By its file number.
    File(u8),
    /// By its place among the `count` pieces of its kind on file `file`, 0 the front one; `crowded` when pawns
    /// stand two or more on several files, so that the file must be named too.
    Tandem { index: usize, count: usize, file: u8, crowded: bool },
}

/// A move as the notation sees it.
#[derive(Clone, Copy, Debug)]
struct Description {
    color: Color,
    role: Role,
    origin: Origin,
    direction: Direction,
    number: u8,
}

/// The number of file `file` from `color`'s right, 1 to 9.
fn file_number(file: File, color: Color) -> u8 {
    match color {
        Color::Red => 9 - file.index() as u8,
        Color::Black => file.index() as u8 + 1,
    }
}

/// The name of `file` in `color`'s Chinese notation: Red's files 一 to 九 and Black's １ to ９ (full-width
/// digits), each counted from that side's right, so that Red's 一 is file i and Black's １ is file a.
///
/// # Examples
///
/// ```
/// use tabula_xiangqi::notation::file_name;
/// use tabula_xiangqi::{Color, File};
///
/// assert_eq!(file_name(File::H, Color::Red), '二');
/// assert_eq!(file_name(File::H, Color::Black), '８');
/// ```
pub fn file_name(file: File, color: Color) -> char {
    numeral(file_number(file, color), color)
}

const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn numeral(n: u8, color: Color) -> char {
    match color {
        Color::Red => CHINESE_NUMERALS[n as usize - 1],
        Color::Black => FULL_WIDTH_DIGITS[n as usize - 1],
    }
}

impl Position {
    /// How the notation describes `mv`; `plain` names every piece by its file, without front/rear marks.
    fn describe(&self, mv: Move, plain: bool) -> Description {
        let b = self.board();
        let (from, to) = (mv.from(), mv.to());
        let piece = b.piece_at(from).expect("a piece on the move's origin");
        let color = piece.color;
        let advance = (to.rank().index() as i32 - from.rank().index() as i32) * color.forward();
        let direction = match advance {
            0 => Direction::Sideways,
            a if a > 0 => Direction::Forward,
            _ => Direction::Backward,
        };
        let diagonal = matches!(piece.role, Role::Advisor | Role::Elephant | Role::Horse);
        let number = if diagonal || direction == Direction::Sideways {
            file_number(to.file(), color)
        } else {
            advance.unsigned_abs() as u8
        };
        let same_kind = b.by_piece(piece);
        let on_file = |file: File| same_kind.into_iter().filter(move |s| s.file() == file);
        let file = file_number(from.file(), color);
        let origin =
            if plain || matches!(piece.role, Role::Advisor | Role::Elephant) || on_file(from.file()).count() < 2 {
                Origin::File(file)
            } else {
                let mut column: Vec<Square> = on_file(from.file()).collect();
                // Front first: the furthest advanced from the mover's side.
                column.sort_by_key(|s| std::cmp::Reverse(s.rank().relative_to(color)));
                let index = column.iter().position(|&s| s == from).expect("the moving piece is on its file");
                let crowded_files = File::ALL.into_iter().filter(|&f| on_file(f).count() >= 2).count();
                Origin::Tandem { index, count: column.len(), file, crowded: crowded_files > 1 }
            };
        Description { color, role: piece.role, origin, direction, number }
    }

    /// `mv` in WXF notation: `C2=5`, `H8+7`, `R+-2`, `P3=4` (sideways as `=`).
    ///
    /// # Panics
    ///
    /// If no piece stands on the move's origin.
    pub fn wxf(&self, mv: Move) -> String {
        wxf_text(&self.describe(mv, false))
    }

    /// `mv` in Chinese notation, simplified characters: 炮二平五, 马８进７, 前车退二.
    ///
    /// # Panics
    ///
    /// If no piece stands on the move's origin.
    pub fn chinese(&self, mv: Move) -> String {
        chinese_text(&self.describe(mv, false))
    }

    /// Reads a move in WXF or Chinese notation and finds it among the legal moves.
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`] if the text is not four symbols of either notation, [`MoveError::Ambiguous`] if it
    /// leaves out a front/rear mark that two moves need, [`MoveError::Illegal`] if no legal move fits.
    pub fn parse_notation(&self, text: &str) -> Result<Move, MoveError> {
        let wanted = canonical(text.trim());
        if wanted.chars().count() != 4 {
            return Err(MoveError::Syntax {
                text: text.to_owned(),
                reason: "expected four symbols of WXF (C2=5) or Chinese (炮二平五) notation",
            });
        }
        let legal = self.legal_moves();
        let fits = |plain: bool| -> Vec<Move> {
            legal
                .iter()
                .copied()
                .filter(|&mv| {
                    let d = self.describe(mv, plain);
                    canonical(&wxf_text(&d)) == wanted || canonical(&chinese_text(&d)) == wanted
                })
                .collect()
        };
        let exact = fits(false);
        if let [mv] = exact[..] {
            return Ok(mv);
        }
        match fits(true)[..] {
            [mv] => Ok(mv),
            [] => Err(MoveError::Illegal { text: text.to_owned(), fen: self.to_fen() }),
            _ => Err(MoveError::Ambiguous { text: text.to_owned(), fen: self.to_fen() }),
        }
    }
}

fn wxf_text(d: &Description) -> String {
    let letter = d.role.to_wxf_char();
    let mut out = String::with_capacity(4);
    match d.origin {
        Origin::File(n) => {
            out.push(letter);
            out.push(char::from(b'0' + n));
        }
        Origin::Tandem { index, count, file, crowded } => {
            let digit = char::from(b'0' + file);
            // The piece letter leads, or the file where several files are crowded; the middle one of three or
            // five keeps its file number; the outermost of four or five are doubled marks.
            let lead = if crowded { digit } else { letter };
            let marks = match (count, index) {
                (2 | 3, 0) => [lead, '+'],
                (2, 1) | (3, 2) => [lead, '-'],
                (3, 1) | (5, 2) => [lead, digit],
                (4 | 5, 0) => ['+', '+'],
                (4 | 5, 1) => [letter, '+'],
                (4, 2) | (5, 3) => [letter, '-'],
                _ => ['-', '-'],
            };
            out.extend(marks);
        }
    }
    out.push(match d.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '=',
    });
    out.push(char::from(b'0' + d.number));
    out
}

fn chinese_text(d: &Description) -> String {
    let name = crate::types::Piece::new(d.color, d.role).to_chinese();
    let mut out = String::with_capacity(12);
    match d.origin {
        Origin::File(n) => {
            out.push(name);
            out.push(numeral(n, d.color));
        }
        Origin::Tandem { index, count, file, crowded } => {
            let words: &[char] = match count {
                2 => &['前', '后'],
                3 => &['前', '中', '后'],
                4 => &['前', '二', '三', '后'],
                _ => &['前', '二', '三', '四', '后'],
            };
            out.push(words[index]);
            out.push(if crowded { numeral(file, d.color) } else { name });
        }
    }
    out.push(match d.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    });
    out.push(numeral(d.number, d.color));
    out
}

/// One spelling for every way of writing a symbol: pieces as WXF letters, numerals as ASCII digits, directions
/// as `+ - =`, front / middle / rear as `f m r`. Two texts name the same move in one position exactly when their
/// canonical forms are equal to that of its WXF or Chinese text.
fn canonical(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '帅' | '帥' | '将' | '將' => 'K',
            '仕' | '士' => 'A',
            '相' | '象' => 'E',
            '马' | '馬' | '傌' | '碼' => 'H',
            '车' | '車' | '俥' | '伡' => 'R',
            '炮' | '砲' | '包' => 'C',
            '兵' | '卒' => 'P',
            '进' | '進' => '+',
            '退' => '-',
            '平' | '.' => '=',
            '前' => 'f',
            '中' => 'm',
            '后' | '後' => 'r',
            c => {
                if let Some(i) = CHINESE_NUMERALS.iter().position(|&n| n == c) {
                    char::from(b'1' + i as u8)
                } else if let Some(i) = FULL_WIDTH_DIGITS.iter().position(|&n| n == c) {
                    char::from(b'1' + i as u8)
                } else {
                    match c.to_ascii_uppercase() {
                        'N' => 'H',
                        'B' => 'E',
                        c => c,
                    }
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (FEN, ICCS, WXF, Chinese)
    const CASES: [(&str, &str, &str, &str); 12] = [
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "h2e2", "C2=5", "炮二平五"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "c3c4", "P7+1", "兵七进一"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "g0e2", "E3+5", "相三进五"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "f0e1", "A4+5", "仕四进五"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b", "b7e7", "C2=5", "炮２平５"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b", "b9c7", "H2+3", "马２进３"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b", "a9a8", "R1+1", "车１进１"),
        ("5k3/9/9/9/9/9/9/4C4/9/3KC4 w", "e0e1", "C-+1", "后炮进一"),
        ("5k3/9/9/9/9/9/9/4C4/9/3KC4 w", "e2d2", "C+=6", "前炮平六"),
        ("5k3/4P4/4P4/4P4/9/9/9/9/9/3K5 w", "e7d7", "P5=6", "中兵平六"),
        ("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w", "e5d5", "--=6", "后兵平六"),
        ("5k3/9/2P1P4/2P1P4/9/9/9/9/9/3K5 w", "c6b6", "7-=8", "后七平八"),
    ];

    #[test]
    fn known_moves() {
        for (fen, iccs, wxf, chinese) in CASES {
            let pos = Position::from_fen(fen).unwrap();
            let mv = pos.parse_iccs(iccs).unwrap();
            assert_eq!(pos.wxf(mv), wxf, "{fen} {iccs}");
            assert_eq!(pos.chinese(mv), chinese, "{fen} {iccs}");
            assert_eq!(pos.parse_notation(wxf), Ok(mv), "{fen} {wxf}");
            assert_eq!(pos.parse_notation(chinese), Ok(mv), "{fen} {chinese}");
        }
    }

    #[test]
    fn other_spellings_and_errors() {
        let pos = Position::startpos();
        let mv = pos.parse_iccs("h2e2").unwrap();
        for text in ["C2.5", "c2=5", " C2=5 ", "砲二平五", "炮2平5", "炮２平５", "包二平五"] {
            assert_eq!(pos.parse_notation(text), Ok(mv), "{text}");
        }
        assert!(matches!(pos.parse_notation("C2=55"), Err(MoveError::Syntax { .. })));
        assert!(matches!(pos.parse_notation(""), Err(MoveError::Syntax { .. })));
        assert!(matches!(pos.parse_notation("C2=0"), Err(MoveError::Illegal { .. })));
        assert!(matches!(pos.parse_notation("炮二进九"), Err(MoveError::Illegal { .. })));
        // Two cannons on file 5: without the front/rear mark, "forward one" fits both, "to file 6" only the
        // front one (the king stands beside the rear one).
        let pos = Position::from_fen("5k3/9/9/9/9/9/9/4C4/9/3KC4 w").unwrap();
        assert!(matches!(pos.parse_notation("C5+1"), Err(MoveError::Ambiguous { .. })));
        assert_eq!(pos.parse_notation("炮五平六"), Ok(pos.parse_iccs("e2d2").unwrap()));
    }
}
