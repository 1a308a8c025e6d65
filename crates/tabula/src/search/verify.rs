//! Differential checks: every search configuration against plain minimax.
//!
//! A game author runs [`check_all`] on positions of a new game to catch a broken hook or key: at a fixed depth,
//! alpha-beta and the searcher under every option set of [`SearchOptions::verification`] (a covering array
//! over every option's test values: a new option joins by being declared) must return exactly [`minimax`]'s
//! root value. The evaluator must have no [noisy moves](crate::game::Evaluator::noisy_moves): quiescence on
//! them changes values by design.
//!
//! # Examples
//!
//! ```
//! # use tabula::game::{Evaluator, Game, Outcome};
//! # use tabula::score::Score;
//! # use tabula::zobrist::{Key, ZobristKeys};
//! # const KEYS: ZobristKeys<Key, 33> = ZobristKeys::<Key, 33>::generate(7);
//! # #[derive(Clone)]
//! # struct Nim { stones: usize }
//! # impl Game for Nim {
//! #     type Move = usize;
//! #     fn legal_moves(&self, moves: &mut Vec<usize>) { moves.extend((1..=3).filter(|&t| t <= self.stones)); }
//! #     fn play(&mut self, take: usize) { self.stones -= take; }
//! #     fn undo(&mut self, take: usize) { self.stones += take; }
//! #     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Loss) }
//! #     fn key(&self) -> Key { KEYS[self.stones] }
//! #     fn move_code(take: usize) -> u16 { take as u16 }
//! # }
//! # #[derive(Clone)]
//! # struct Parity;
//! # impl Evaluator<Nim> for Parity { fn evaluate(&self, g: &Nim) -> Score { (g.stones % 4) as Score } }
//! for depth in 1..8 {
//!     tabula::search::verify::check_all(&Nim { stones: 17 }, &Parity, depth).unwrap();
//! }
//! ```

use super::{alphabeta, minimax, SearchOptions, Searcher};
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
/// minimax's value for `game` at `depth`. Each searcher starts from an empty table.
///
/// # Errors
///
/// The first configuration that disagrees.
pub fn check_all<G: Game, E: Evaluator<G> + Clone>(game: &G, evaluator: &E, depth: u32) -> Result<Score, Mismatch> {
    let expected = minimax(&mut game.clone(), evaluator, depth).score;
    let got = alphabeta(&mut game.clone(), evaluator, depth).score;
    if got != expected {
        return Err(Mismatch { search: "alphabeta".into(), depth, expected, got });
    }
    for options in SearchOptions::verification() {
        let mut searcher = Searcher::with_table_size(evaluator.clone(), 1).with_options(options.clone());
        let got = searcher.search_depth(game, depth).score;
        if got != expected {
            return Err(Mismatch { search: format!("{options:?}"), depth, expected, got });
        }
    }
    Ok(expected)
}
