//! The Go engine: Monte Carlo tree search, its playouts and move predictor, and the GTP session.
//!
//! On the rules of the crate's root modules (positions, scoring, SGF):
//!
//! - [`picker`]: the [`MovePicker`](picker::MovePicker) trait behind `genmove`, and a random player.
//! - [`playout`]: a light board for fast random playouts.
//! - [`patterns`]: MoGo's 3×3 shape patterns for playouts and priors.
//! - [`predictor`]: a move predictor fitted to game records (Bradley–Terry strengths of move features).
//! - [`spatial`]: the predictor's large shapes, known by Zobrist keys in any orientation.
//! - [`mcts`]: the Monte Carlo tree search player (UCT with RAVE, transpositions, threads, time control).
//! - [`time`]: the clock settings a controller gives.
//! - [`gtp`]: the Go Text Protocol session.
//! - [`front`]: the game's [`Front`](tabula_protocol::front::Front), for the terminal and the web page.
//!
//! # Examples
//!
//! ```
//! use tabula_go::engine::mcts::{Budget, Config, Mcts};
//! use tabula_go::{Color, Position, Rules};
//!
//! // A few hundred playouts on a 5×5 board, one thread: the move chosen is legal.
//! let mut mcts = Mcts::new(Config { threads: 1, seed: 1, ..Config::default() });
//! let position = Position::new(5, Rules::default()).unwrap();
//! let analysis = mcts.search(&position, Color::Black, Budget::playouts(300));
//! assert!(analysis.playouts >= 300);
//! assert!(position.is_legal(analysis.best, Color::Black));
//! ```

pub mod front;
pub mod gtp;
pub mod mcts;
pub mod patterns;
pub mod picker;
pub mod playout;
pub mod predictor;
pub mod spatial;
pub mod time;
