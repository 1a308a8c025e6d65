//! Differential checks: every search configuration against plain minimax.
//!
//! A game author runs [`check_all`] on positions of a new game to catch a broken hook or key: at a fixed depth,
//! alpha-beta and the searcher under every option set of [`SearchOptions::verification`] (a covering array over every
//! option's test values: a new option joins by being declared) must return exactly [`minimax`]'s root value, and under
//! [several lines](super::Request::lines) each line the value [`minimax_moves`] gives its move, the lines being the best
//! moves in order. The evaluator must have no [noisy moves](crate::game::HookedEvaluator::noisy_moves): quiescence on them
//! changes values by design. Positions must be as far from the root along every path to them (as in games that add a
//! stone a move): where a position recurs at different depths, the table answers with the deeper search's value, better
//! than minimax's at the shallower depth but not equal to it.
//!
//! # Examples
//!
//! ```
//! # use tabula::game::{Evaluator, Game, Outcome};
//! # use tabula::score::Score;
//! # use tabula::zobrist::{Key, ZobristKeys};
//! # const KEYS: ZobristKeys<Key, 64> = ZobristKeys::<Key, 64>::generate(7);
//! // Nim, whose key also counts the moves made: taking 1 and 2 leaves the same heap as taking 3, one ply
//! // later, and check_all needs positions met at different depths to be different entries.
//! # #[derive(Clone)]
//! struct Nim { stones: usize, moves: usize }
//! # impl Game for Nim {
//! #     type Move = usize;
//! #     fn legal_moves(&self, moves: &mut Vec<usize>) { moves.extend((1..=3).filter(|&t| t <= self.stones)); }
//! #     fn play(&mut self, take: usize) { self.stones -= take; self.moves += 1; }
//! #     fn undo(&mut self, take: usize) { self.stones += take; self.moves -= 1; }
//! #     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//! #     fn key(&self) -> Key { KEYS[self.stones] ^ KEYS[32 + self.moves] }
//! #     fn move_code(take: usize) -> u16 { take as u16 }
//! # }
//! # #[derive(Clone)]
//! # struct Parity;
//! # impl Evaluator<Nim> for Parity { fn evaluate(&self, g: &Nim) -> Score { (g.stones % 4) as Score } }
//! for depth in 1..8 {
//!     tabula::search::verify::check_all(&Nim { stones: 17, moves: 0 }, &Parity, depth).unwrap();
//! }
//! ```

use super::{alphabeta, minimax, minimax_moves, Limits, Request, SearchOptions, Searcher};
use crate::game::{Evaluator, Game};
use crate::score::Score;
use std::fmt;

/// A search configuration that disagreed with minimax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Which search: `alphabeta` or the searcher's options.
    pub search: String,
    /// The depth searched.
    pub depth: u32,
    /// Minimax's value.
    pub expected: Score,
    /// The value the search returned.
    pub got: Score,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at depth {} returned {} where minimax returns {}",
            self.search, self.depth, self.got, self.expected
        )
    }
}

impl std::error::Error for Mismatch {}

/// Checks that alpha-beta and the searcher under every option set of [`SearchOptions::verification`] return
/// minimax's value for `game` at `depth`, and that with several lines asked for
/// ([`Request::lines`](super::Request::lines)) the lines are the best moves, best first, each with its minimax
/// value. Each searcher starts from an empty table.
///
/// # Errors
///
/// The first configuration that disagrees.
pub fn check_all<G: Game, E: Evaluator<G> + Clone>(game: &G, evaluator: &E, depth: u32) -> Result<Score, Mismatch> {
    // Each root move's value, which the lines are checked against; the root's is the best of them.
    let move_values: Vec<(u16, Score)> = if depth > 0 && !game.is_over() {
        let values = minimax_moves(&mut game.clone(), evaluator, depth);
        values.into_iter().map(|(mv, v)| (G::move_code(mv), v.score)).collect()
    } else {
        Vec::new()
    };
    let expected = match move_values.iter().map(|&(_, v)| v).max() {
        Some(best) => best,
        None => minimax(&mut game.clone(), evaluator, depth).score,
    };
    let got = alphabeta(&mut game.clone(), evaluator, depth).score;
    if got != expected {
        return Err(Mismatch { search: "alphabeta".into(), depth, expected, got });
    }
    for &(ref options, lines) in SearchOptions::verification() {
        let mut searcher = Searcher::with_table_size(evaluator.clone(), 1).with_options(options.clone());
        let result = searcher.search(game, Request::new(Limits::depth(depth)).with_lines(lines), |_| {});
        let search = || format!("{options:?} with {lines} line{}", if lines > 1 { "s" } else { "" });
        if result.score != expected {
            return Err(Mismatch { search: search(), depth, expected, got: result.score });
        }
        if lines > 1 && !move_values.is_empty() {
            check_lines(&result.lines, &move_values, lines, |m| G::move_code(*m)).map_err(
                |(what, expected, got)| Mismatch { search: format!("{what} of {}", search()), depth, expected, got },
            )?;
        }
    }
    Ok(expected)
}

/// Checks the lines of a search that asked for `wanted` of them against every root move's minimax value
/// (by move code): as many lines as asked and the root allows, each with its move's value, the values in
/// the order of the best. The error says what is wrong (the number of lines, or which line), what minimax
/// expects and what the search gave.
fn check_lines<M>(
    lines: &[super::Line<M>],
    values: &[(u16, Score)],
    wanted: usize,
    code: impl Fn(&M) -> u16,
) -> Result<(), (String, Score, Score)> {
    let mut best: Vec<Score> = values.iter().map(|&(_, v)| v).collect();
    best.sort_unstable_by(|a, b| b.cmp(a));
    best.truncate(wanted);
    if lines.len() != best.len() {
        return Err(("the number of lines".to_owned(), best.len() as Score, lines.len() as Score));
    }
    let mut seen = Vec::new();
    for (k, (line, &expected)) in lines.iter().zip(&best).enumerate() {
        let first = line.pv.first().map(&code);
        let own = values.iter().find(|&&(c, _)| Some(c) == first).map(|&(_, v)| v);
        // A line's own move has the value it reports, that value is the k-th best, and no move comes twice.
        if line.score != expected || own != Some(expected) || seen.contains(&first) {
            return Err((format!("line {}", k + 1), expected, line.score));
        }
        seen.push(first);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Line;

    fn line(score: Score, first: u16) -> Line<u16> {
        Line { score, pv: vec![first, 9] }
    }

    #[test]
    fn lines_are_checked_for_number_order_and_each_value() {
        // Moves 1, 2 and 3 worth 5, 9 and 5.
        let values = [(1, 5), (2, 9), (3, 5)];
        let code = |m: &u16| *m;
        assert_eq!(check_lines(&[line(9, 2), line(5, 3)], &values, 2, code), Ok(()));
        assert_eq!(check_lines(&[line(9, 2), line(5, 1), line(5, 3)], &values, 5, code), Ok(()));
        let wrong = |lines: &[Line<u16>], wanted| check_lines(lines, &values, wanted, code).unwrap_err().0;
        assert_eq!(wrong(&[line(9, 2)], 2), "the number of lines");
        assert_eq!(wrong(&[line(5, 1), line(9, 2)], 2), "line 1");
        // A line whose move is worth less than it says, and a move found twice.
        assert_eq!(wrong(&[line(9, 2), line(9, 1)], 2), "line 2");
        assert_eq!(wrong(&[line(9, 2), line(5, 1), line(5, 1)], 3), "line 3");
    }
}
