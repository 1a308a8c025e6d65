//! Exact solving: [`Searcher::solve`] (the exact score, by null-window bisection over the scores the game
//! allows, with a best move and a principal variation), [`Searcher::solve_score`] (the same without the
//! variation: the fastest), [`Searcher::solve_weak`] (win, draw or loss) and [`Searcher::solve_moves`] (every
//! root move's exact value). Each null-window test is a [proof search](super::prove) to the end of the game; with more
//! than one thread, a solve that outgrows [`PARALLEL_AFTER`] nodes continues on all of them, sharing the table
//! and deferring positions another thread is searching.

use super::limits::Limits;
use super::options::SearchOptions;
use super::result::Solution;
use super::searcher::Searcher;
use super::shared::Shared;
use super::threads::ThreadData;
use super::worker::{Context, Worker};
use crate::game::{Evaluator, Game, HookedGame, Remaining};
use crate::score::{self, loss_by, loss_in, win_by, win_in, Score, DRAW};
use crate::tt::TranspositionTable;
use std::time::Instant;

/// A multi-threaded solve switches from one thread to all of them after this many nodes: below it, starting
/// threads costs more than they save.
pub const PARALLEL_AFTER: u64 = 50_000;

/// Every score a game with `remaining` left can end with, lowest first: losses in plies, losses by a margin, a
/// draw, wins by a margin, wins in plies.
fn possible_scores(remaining: Remaining) -> Vec<Score> {
    let (plies, margin) = (remaining.plies.max(1), remaining.margin);
    let mut scores: Vec<Score> = (1..=plies).map(loss_in).collect();
    scores.extend((1..=margin).rev().map(loss_by));
    scores.push(DRAW);
    scores.extend((1..=margin).map(win_by));
    scores.extend((1..=plies).rev().map(win_in));
    debug_assert!(scores.windows(2).all(|w| w[0] < w[1]));
    scores
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// The exact score of `game`, with a move that achieves it and a principal variation: the line on which
    /// both sides keep the score, each move found by one more null-window proof (cheap: the table holds most of
    /// the answers). See [`solve_score`](Self::solve_score) for the score alone.
    ///
    /// # Panics
    ///
    /// If the game does not bound what remains of it ([`remaining`](crate::game::HookedGame::remaining) is `None`).
    pub fn solve(&mut self, game: &G) -> Solution<G::Move> {
        let mut solution = self.solve_score(game);
        if let Some(first) = solution.best_move {
            solution.pv = self.exact_line(game, solution.score, first, &mut solution.nodes);
        }
        solution
    }

    /// The exact score of `game`, with a move that achieves it (the principal variation holds that move only),
    /// by null-window bisection over the scores the game allows ([`remaining`](crate::game::HookedGame::remaining)), each test searched to
    /// the end of the game. Scores near a draw are tested first: proving a quick win or loss costs more than
    /// proving the result.
    ///
    /// # Panics
    ///
    /// If the game does not bound what remains of it ([`remaining`](crate::game::HookedGame::remaining) is `None`).
    pub fn solve_score(&mut self, game: &G) -> Solution<G::Move> {
        let remaining = game.remaining().expect("solve needs Game::remaining");
        self.table.new_search();
        if let Some(outcome) = game.outcome() {
            return Solution { score: outcome.score_at(0), best_move: None, pv: Vec::new(), nodes: 0, searches: 0 };
        }
        let scores = possible_scores(remaining);
        // Ranks: indices into `scores` counted from the draw, so that the bisection can lean towards it.
        let zero = scores.iter().position(|&s| s == DRAW).expect("a draw is possible") as i32;
        let score_of = |rank: i32| scores[(rank + zero) as usize];
        // The highest rank whose score is at most `s`, and the lowest whose score is at least `s`.
        let floor_rank = |s: Score| scores.partition_point(|&x| x <= s) as i32 - 1 - zero;
        let ceil_rank = |s: Score| scores.partition_point(|&x| x < s) as i32 - zero;
        let (mut lo, mut hi) = (-zero, scores.len() as i32 - 1 - zero);
        let (mut searches, mut nodes) = (0, 0);
        let mut best_move = None;
        let depth = remaining.plies as i32;
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let threshold = score_of(med);
            let (r, root_best) = self.window_search(game, depth, threshold, threshold + 1, &mut nodes);
            searches += 1;
            if r <= threshold {
                hi = floor_rank(r).min(med).max(lo);
            } else {
                lo = ceil_rank(r).max(med + 1).min(hi);
                best_move = root_best.or(best_move);
            }
        }
        self.solution(game, score_of(lo), best_move, nodes, searches)
    }

    /// Whether `game` is won, drawn or lost (a positive, zero or negative score), with a move that achieves
    /// it, by two null-window searches around a draw. Requires [`remaining`](crate::game::HookedGame::remaining); uses threads as
    /// [`solve`](Self::solve) does.
    ///
    /// # Panics
    ///
    /// If the game does not bound what remains of it.
    pub fn solve_weak(&mut self, game: &G) -> Solution<G::Move> {
        let remaining = game.remaining().expect("solve_weak needs Game::remaining");
        self.table.new_search();
        if let Some(outcome) = game.outcome() {
            let score = outcome.score_at(0).signum();
            return Solution { score, best_move: None, pv: Vec::new(), nodes: 0, searches: 0 };
        }
        let mut nodes = 0;
        let depth = remaining.plies as i32;
        // Two null windows prune more than one window (-1, 1): first win or not, then draw or loss.
        let (r, best) = self.window_search(game, depth, DRAW, DRAW + 1, &mut nodes);
        if r > DRAW {
            return self.solution(game, 1, best, nodes, 1);
        }
        let (r, best) = self.window_search(game, depth, DRAW - 1, DRAW, &mut nodes);
        let score = if r >= DRAW { 0 } else { -1 };
        self.solution(game, score, best.filter(|_| score == 0), nodes, 2)
    }

    /// The exact value of every legal move of `game` for the side to move, in the order
    /// [`legal_moves`](Game::legal_moves) gives them: each solution's score is the game's after that move,
    /// its principal variation starts with the move. Requires [`remaining`](crate::game::HookedGame::remaining); empty if the game is over.
    ///
    /// # Panics
    ///
    /// If the game does not bound what remains of it.
    pub fn solve_moves(&mut self, game: &G) -> Vec<Solution<G::Move>> {
        let mut moves = Vec::new();
        if game.outcome().is_none() {
            game.legal_moves(&mut moves);
        }
        let mut next = game.clone();
        moves
            .into_iter()
            .map(|mv| {
                next.play(mv);
                let child = self.solve(&next);
                next.undo(mv);
                let mut pv = vec![mv];
                pv.extend(child.pv);
                // The child's score is from the other side, one ply further on.
                let score = -score::from_table(child.score, 1);
                Solution { score, best_move: Some(mv), pv, nodes: child.nodes, searches: child.searches }
            })
            .collect()
    }

    /// A solution of `game` with `score`, completing the best move.
    fn solution(
        &self,
        game: &G,
        score: Score,
        best_move: Option<G::Move>,
        nodes: u64,
        searches: u32,
    ) -> Solution<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        // No test failed high: every move is as bad as the lowest score, so any is best.
        let best_move = best_move.or(moves.first().copied());
        Solution { score, best_move, pv: best_move.into_iter().collect(), nodes, searches }
    }

    /// `first` (a move of `game` that keeps its exact `score`), then for each position after it a move that
    /// keeps its value, found by a null-window proof just under that value: the move that fails high.
    fn exact_line(&mut self, game: &G, score: Score, first: G::Move, nodes: &mut u64) -> Vec<G::Move> {
        let mut line = vec![first];
        let mut position = game.clone();
        position.play(first);
        // The value from the side to move after each move: the other side's, one ply further on.
        let mut value = score::to_table(-score, 1);
        while let (None, Some(left)) = (position.outcome(), position.remaining()) {
            let (r, best) = self.window_search(&position, left.plies as i32, value - 1, value, nodes);
            let Some(mv) = best.filter(|_| r >= value) else {
                break;
            };
            position.play(mv);
            line.push(mv);
            value = score::to_table(-value, 1);
        }
        line
    }

    /// One proof search of the root on (`alpha`, `beta`) to `depth`: single-threaded while `nodes` (the solve's
    /// running total, updated here) is below [`PARALLEL_AFTER`], on all threads after.
    fn window_search(&mut self, game: &G, depth: i32, alpha: Score, beta: Score, nodes: &mut u64) -> Answer<G::Move> {
        let options = self.options.clone();
        let threads = options.threads.max(1);
        if threads == 1 || *nodes < PARALLEL_AFTER {
            self.prepare_threads(1, &options, &[]);
            let limits = Limits { nodes: (threads > 1).then(|| PARALLEL_AFTER - *nodes), ..Limits::default() };
            let shared = Shared::new(&limits, Instant::now(), 0);
            let cx = proof_context(&self.evaluator, &self.table, &options, &shared);
            let (answer, searched) = prove_root(&mut self.threads[0], game.clone(), cx, true, depth, alpha, beta);
            *nodes += searched;
            if let Some(answer) = answer {
                return answer;
            }
        }
        self.prepare_threads(threads, &options, &[]);
        let shared = Shared::new(&Limits::default(), Instant::now(), 0).with_busy_slots();
        let answer = std::sync::Mutex::new(None);
        let cx = proof_context(&self.evaluator, &self.table, &options, &shared);
        let searched: u64 = std::thread::scope(|scope| {
            let handles: Vec<_> = self.threads[..threads]
                .iter_mut()
                .enumerate()
                .map(|(i, td)| {
                    let (game, answer) = (game.clone(), &answer);
                    scope.spawn(move || {
                        let (found, searched) = prove_root(td, game, cx, i == 0, depth, alpha, beta);
                        if let Some(found) = found {
                            answer.lock().expect("no thread panics holding it").get_or_insert(found);
                            cx.shared.stop.store(true, std::sync::atomic::Ordering::Relaxed);
                        }
                        searched
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("search thread")).sum()
        });
        *nodes += searched;
        answer.into_inner().expect("no thread panics holding it").expect("one thread finishes")
    }
}

/// A proof search's answer: the score and, on a fail high, the root move that caused it.
type Answer<M> = (Score, Option<M>);

/// The context of a proof search: the whole root, one line.
fn proof_context<'a, G: Game, E>(
    evaluator: &'a E,
    table: &'a TranspositionTable,
    options: &'a SearchOptions,
    shared: &'a Shared<G::Move>,
) -> Context<'a, G, E> {
    Context { evaluator, table, options, shared, root_moves: &[], lines: 1 }
}

/// One thread's proof search of the root of `game` on (`alpha`, `beta`) to `depth`, with its buffers `td` (`main`:
/// the thread that reports): its answer unless it was stopped, and its nodes.
#[allow(clippy::too_many_arguments)]
fn prove_root<G: Game, E: Evaluator<G>>(
    td: &mut ThreadData<G::Move>,
    game: G,
    cx: Context<'_, G, E>,
    main: bool,
    depth: i32,
    alpha: Score,
    beta: Score,
) -> (Option<Answer<G::Move>>, u64) {
    let ThreadData { stack, history, keys } = td;
    let mut worker = Worker::<G, E, false, false>::new(game, cx, history, keys, main);
    let score = worker.prove(stack.frames(), depth, 0, alpha, beta, false);
    ((!worker.stopped).then_some((score, worker.root_best)), worker.counts.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn possible_scores_are_ordered_and_complete() {
        let s = possible_scores(Remaining { plies: 3, margin: 2 });
        assert_eq!(s.len(), 2 * (3 + 2) + 1);
        assert_eq!(s.first(), Some(&loss_in(1)));
        assert_eq!(s.last(), Some(&win_in(1)));
        assert!(s.contains(&win_by(2)) && s.contains(&loss_by(1)) && s.contains(&DRAW));
    }
}
