//! # Writing a game
//!
//! This guide takes a game from nothing to an exact solver and a terminal front, in the order the work pays.
//! Its running example is Othello, in `examples/othello.rs` (about 400 lines, written from these pages alone):
//! a game won by a disc margin, with forced passes, which exercises every part of the core.
//!
//! ## 1. The rules: six required items
//!
//! [`Game`](crate::Game) needs `legal_moves`, `play`, `undo`, `outcome`, `key` and `move_code`.
//!
//! - **Undo information lives in the game.** `undo(mv)` receives only the last move played; whatever it needs
//!   to restore (the discs a move turned, a captured piece, castling rights, a ko point) the game keeps itself,
//!   usually on a stack that `play` pushes and `undo` pops. Othello keeps a `Vec<u64>` of turned-disc masks.
//! - **A forced pass is an ordinary move.** When the side to move has no other move but the game goes on
//!   (Othello, Go), `legal_moves` returns a pass move. [`Game::null_move`](crate::Game::null_move) is something
//!   else: a pass that the rules do not allow, which searches only use to prune.
//! - **The outcome is the side to move's.** [`Outcome::Loss`](crate::Outcome::Loss) when the player who just
//!   moved has won. A game won by a score (Othello's discs, Go's points) says
//!   [`Outcome::Margin`](crate::Outcome::Margin)`(m)`; solvers then find the exact margin, not just the fastest
//!   win, and [`score::describe`](crate::score::describe) writes "win by 12 discs".
//! - **Keys are XOR-updated.** One [`ZobristKeys`](crate::zobrist::ZobristKeys) entry per (square, piece)
//!   feature and one for the side to move; `play` and `undo` XOR the features that change. Test incremental
//!   against from-scratch keys on random games, and check the key set with
//!   [`quality::check`](crate::quality::check).
//! - **Move codes** are small and distinct within a position: the table stores the best move as its code.
//!   Say [`MOVE_CODES`](crate::Game::MOVE_CODES) when the codes are few, so history tables stay small.
//!
//! With these, [`search::minimax`](crate::search::minimax) is the oracle, and every other search must agree
//! with it: [`search::verify::check_all`](crate::search::verify::check_all) runs the core's option sets (a
//! covering array of them) against minimax on your positions. Write that test first.
//!
//! ## 2. An evaluator, then move order
//!
//! An [`Evaluator`](crate::Evaluator) scores positions that are not over, from the side to move's view, inside
//! `±DECISIVE`. Its [`move_order`](crate::Evaluator::move_order) is the next thing worth writing: the order
//! the search tries moves in is, in turn, the table's move, hints at or above
//! [`PRIORITY`](crate::game::PRIORITY) (captures, threats), killers, then the rest by hint plus history, and
//! hints at or below `-PRIORITY` last. Othello's corner-first square weights halve the nodes of an exact solve.
//! A game whose moves take a piece somewhere can also say which piece goes where
//! ([`Game::piece_to`](crate::Game::piece_to)), and the
//! [`continuation_history`](crate::search::SearchOptions::continuation_history) option then learns which
//! moves answer which: in chess, +17 Elo in self-play.
//!
//! ## 3. Hooks: facts about the rules, each measured
//!
//! Hooks are optional; each has a default that assumes nothing, and each must be exact, which `check_all`
//! tests. Add one when a measurement says it pays for your game. What they bought the games here:
//!
//! | what | measured on | gain | command |
//! |---|---|---|---|
//! | move order hints | Othello, 20 positions with 12 empties, exact solve | 2.1× fewer nodes (1,603,093 → 746,933) | `cargo run --release -p tabula --example othello -- measure 12 20` |
//! | the transposition table | the same | 3.8× fewer nodes (2,813,171 → 746,933) | the same |
//! | tactics: [`winning_move`](crate::Game::winning_move), [`non_losing_moves`](crate::Game::non_losing_moves), [`possible_winners`](crate::Game::possible_winners) | Connect Four, 100 positions of Pons's mid set, exact solve | 433× fewer nodes | `cargo run --release -p tabula-connect4 --example hooks -- crates/tabula-connect4/tests/data/mid.txt 100` |
//! | symmetry: [`table_key`](crate::Game::table_key) and the move-code pair | the same | about 1.00×: mirrored positions are rare in those lines | the same |
//! | [`child_table_key`](crate::Game::child_table_key) (bucket prefetch) | the same | about 1.02× in time | the same |
//! | [`move_orders`](crate::Evaluator::move_orders) (a node's hints at once) | chess, three middlegames, 1.5 million nodes each | 6.5 % more nodes a second, the same nodes (with the network's update compiled for AVX2): the squares the opponent attacks worked out once a node, not once a quiet move | `tabula uci`, `go nodes` |
//! | [`DEFERRED`](crate::game::DEFERRED) hints from `move_orders` | chess, `bench 15` (7.6 million nodes), the builds before and after alternated ten times | 2.7 % more nodes a second (median of the rounds; 1.9 % fewer instructions at `bench 11`), the same nodes: a quiet move onto an attacked square has its exchange evaluated only if the search reaches the quiet moves | `tabula uci`, `bench 15` |
//! | [`null_move`](crate::Game::null_move) | chess (with `with_null_move`) | part of the engine's measured options; wrong in zugzwang games, leave it out there | `tabula bench` |
//! | [`perft_moves`](crate::Game::perft_moves), [`perft_count`](crate::Game::perft_count) | chess, xiangqi perft | the end-of-game test left out, the last ply counted without a list: the core's [`perft`](crate::perft) runs their generators within 4 % of a loop of their own | `tabula perft startpos 6` |
//! | [`remaining`](crate::Game::remaining) | any game to solve | required by [`Searcher::solve`](crate::Searcher::solve) and `solve_moves`, which bound the score by it | — |
//! | [`reversible_plies`](crate::Game::reversible_plies), [`repetition_outcome`](crate::Game::repetition_outcome) | chess, xiangqi | repetitions found through the key history and ruled by the game; non-draw rulings stay out of the table | — |
//!
//! ## 4. Search settings
//!
//! [`SearchOptions`](crate::SearchOptions) has presets ([`default`](crate::SearchOptions::default),
//! [`solver`](crate::SearchOptions::solver), [`table_and_pvs`](crate::SearchOptions::table_and_pvs)) and a
//! `with_*` builder per option. The defaults suit a game with few moves whose codes name the same move
//! everywhere: history ordering without killers, and no table in the last ply before the horizon. Measure
//! before you switch one on: killers cost Connect Four 1.8 times the nodes (threat hints already order its
//! moves), while chess gains from them; a table probe one ply from a cheap evaluation costs more time than
//! the nodes it saves, but chess and xiangqi, whose frontier goes on into quiescence, probe there.
//!
//! ## 5. A front: every command of `tabula` for free
//!
//! Implement `tabula_protocol::front::Front` (notation, board drawing, score words, engine) and, for a game
//! small enough, `Solve`; the terminal's `play`, `analyze`, `solve`, `perft` and `hash` are written once over
//! them in `tabula_protocol::terminal`, and the `tabula` command only names the type.
