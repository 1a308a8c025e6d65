//! One clock policy for every game and protocol: the time state a protocol reports ([`Clock`]) and how much
//! of it this move may use ([`Policy::budget`] → [`Budget`], a soft and a hard limit for [`Limits`]).
//!
//! Each protocol fills a [`Clock`] from its own commands: UCI's `wtime`/`btime`, `winc`/`binc`, `movestogo`
//! and `movetime`; GTP's `time_settings` and `time_left` (Canadian byo-yomi, the stones left in a period as
//! the moves to go) and KGS's Japanese byo-yomi (one stone per period, the periods left as [`Overtime`]);
//! Gomocup's `timeout_turn` (a fixed time per move) and `timeout_match`/`time_left` (the time left in the
//! match). One function turns it into this move's budget:
//!
//! - A fixed time per move ([`Clock::move_time`]) is used whole but for the [`overhead`](Policy::overhead),
//!   scaled by [`fixed`](Policy::fixed) for engines that overshoot their limits.
//! - Time on the clock ([`Clock::remaining`]) is shared out evenly over the moves to go (the protocol's
//!   count, or the game's estimate [`moves_left`](Policy::moves_left)) after keeping the overhead back for
//!   each of the next ten moves; three quarters of the increment is added. The soft limit is
//!   [`soft`](Policy::soft) times that share, the hard limit [`hard`](Policy::hard) times it, and the hard
//!   limit never exceeds 35% of the time left, or 80% when the clock is refilled after this move (moves to
//!   go 1: `movestogo 1`, the last stone of a byo-yomi period, a Japanese period).
//! - Overtime still to come after the clock runs out (byo-yomi after main time, spare Japanese periods)
//!   makes running out no loss: a move may then always take half of an overtime move's share.
//! - No move gets less than [`minimum`](Policy::minimum); with neither a clock nor a move time there is no
//!   limit at all (`None`), as for UCI `go infinite`, a GTP `time_settings` with byo-yomi time but no
//!   stones, or a Gomocup match with `timeout_match 0`.
//!
//! Games differ in how they spend, so the policy has a few parameters, each game choosing its own:
//! an iterative-deepening alpha-beta search ([`Policy::new`]'s defaults, chess) starts no iteration past
//! 0.6 of the share but may finish one up to three shares, because an iteration cut short is wasted; a
//! Monte Carlo tree search (Go) stops exactly when told and improves with every playout, so soft and hard
//! are one limit at 0.8 of the share, the rest kept against the controller's own lag; an engine that runs
//! other searches before its alpha-beta (Gomoku's threat searches) takes one limit and a fixed-time share
//! below one. The estimate of moves to go is the game's: 30 for chess, a third of the empty points for Go.
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use tabula::clock::{Clock, Overtime, Policy};
//!
//! let ms = Duration::from_millis;
//! let policy = Policy::new(ms(30));
//!
//! // A minute and half a second a move: a fraction of the clock, never more than 35% of it.
//! let clock = Clock { remaining: Some(ms(60_000)), increment: ms(500), ..Clock::default() };
//! let budget = policy.budget(&clock).unwrap();
//! assert!(budget.soft <= budget.hard && budget.hard < ms(21_000));
//!
//! // A fixed time per move is used whole, minus the overhead.
//! let budget = policy.budget(&Clock { move_time: Some(ms(1000)), ..Clock::default() }).unwrap();
//! assert_eq!((budget.soft, budget.hard), (ms(970), ms(970)));
//!
//! // The last of five stones in a byo-yomi period: most of what is left, but never all of it.
//! let clock = Clock { remaining: Some(ms(4_000)), moves_to_go: Some(1), ..Clock::default() };
//! assert!(policy.budget(&clock).unwrap().hard < ms(4_000));
//!
//! // No clock: no limit.
//! assert_eq!(policy.budget(&Clock::default()), None);
//!
//! // Main time nearly gone, byo-yomi to come: half a byo-yomi move's share is still safe to spend.
//! let overtime = Overtime { period: ms(30_000), stones: 5, periods: 1 };
//! let clock = Clock { remaining: Some(ms(100)), overtime: Some(overtime), ..Clock::default() };
//! assert_eq!(policy.budget(&clock).unwrap().hard, ms(3_000));
//! ```

use crate::search::Limits;
use std::time::Duration;

/// The side to move's clock, as a protocol reports it. Unset fields do not apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock: main time, or within an overtime period the period's time left (UCI
    /// `wtime`/`btime`, GTP `time_left`, Gomocup `time_left` in a timed match).
    pub remaining: Option<Duration>,
    /// Time added after each move (UCI `winc`/`binc`).
    pub increment: Duration,
    /// Moves to make in [`remaining`](Clock::remaining) before the clock is refilled (UCI `movestogo`, the
    /// stones left in a Canadian byo-yomi period, 1 in a Japanese period). `None`: the rest of the game.
    pub moves_to_go: Option<u32>,
    /// A fixed time for this move (UCI `movetime`, Gomocup `timeout_turn`).
    pub move_time: Option<Duration>,
    /// Overtime that starts when [`remaining`](Clock::remaining) runs out, so that running out is not a
    /// loss: byo-yomi after main time, or the spare periods of Japanese byo-yomi.
    pub overtime: Option<Overtime>,
}

/// Byo-yomi: periods of [`period`](Overtime::period) for [`stones`](Overtime::stones) moves each. Canadian
/// byo-yomi has one period that starts afresh (GTP `time_settings main period stones`); Japanese byo-yomi
/// has a number of one-stone periods, and a move that overruns one uses it up (KGS `byoyomi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overtime {
    /// The time of one period.
    pub period: Duration,
    /// Moves to make in each period (at least 1).
    pub stones: u32,
    /// How many periods are left after the clock runs out: 0 says there is no overtime after all (the
    /// last Japanese period is under way).
    pub periods: u32,
}

impl Overtime {
    /// A move's even share of a period.
    fn share(&self) -> Duration {
        self.period / self.stones.max(1)
    }
}

/// How long this move may think: past `soft` no new iteration starts, at `hard` the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration after this.
    pub soft: Duration,
    /// Stop at this.
    pub hard: Duration,
}

impl Budget {
    /// `limits` with this budget's soft and hard time limits.
    #[must_use]
    pub fn apply(self, limits: Limits) -> Limits {
        limits.with_time(self.soft, self.hard)
    }
}

/// How a game spends its clock. See the [module documentation](self) for the rule and the choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Kept back on every move for the answer to reach the other side (UCI `Move Overhead`), and on each of
    /// the next ten moves out of the time left.
    pub overhead: Duration,
    /// Moves still to make in the time left when the protocol does not say: the game's own estimate.
    pub moves_left: u32,
    /// The soft limit as a multiple of the move's even share of the clock.
    pub soft: f64,
    /// The hard limit as a multiple of the move's even share of the clock.
    pub hard: f64,
    /// The share of a fixed time per move the search may use (below 1 for an engine that overshoots).
    pub fixed: f64,
    /// The least time any move gets, so that a search can answer at all.
    pub minimum: Duration,
}

/// The increment is counted at this share: part of it pays for the overhead and the search's overshoot.
const INCREMENT_SHARE: f64 = 0.75;
/// The most of the time left one move may take, and the most when the clock is refilled after this move.
const MAX_SHARE: f64 = 0.35;
const LAST_MOVE_SHARE: f64 = 0.8;
/// The overhead is reserved for at most this many moves ahead.
const RESERVED_MOVES: u32 = 10;
/// Explicit moves to go are taken up to this many (a long time control is no reason to crawl).
const MAX_MOVES_TO_GO: u32 = 50;

impl Policy {
    /// The policy of an iterative-deepening search with `overhead` kept back per move: 30 moves to go when
    /// the protocol does not say, soft limit 0.6 and hard limit 3 times the move's share, a fixed time
    /// used whole, at least a millisecond.
    pub const fn new(overhead: Duration) -> Policy {
        Policy { overhead, moves_left: 30, soft: 0.6, hard: 3.0, fixed: 1.0, minimum: Duration::from_millis(1) }
    }

    /// This policy with `overhead` kept back per move (UCI's `Move Overhead`).
    #[must_use]
    pub const fn with_overhead(mut self, overhead: Duration) -> Policy {
        self.overhead = overhead;
        self
    }

    /// This policy with `moves` as the estimate of moves to go.
    #[must_use]
    pub const fn with_moves_left(mut self, moves: u32) -> Policy {
        self.moves_left = moves;
        self
    }

    /// This policy with soft and hard limits at `soft` and `hard` times the move's share.
    #[must_use]
    pub const fn with_shares(mut self, soft: f64, hard: f64) -> Policy {
        self.soft = soft;
        self.hard = hard;
        self
    }

    /// This policy using `share` of a fixed time per move.
    #[must_use]
    pub const fn with_fixed(mut self, share: f64) -> Policy {
        self.fixed = share;
        self
    }

    /// This policy giving every move at least `minimum`.
    #[must_use]
    pub const fn with_minimum(mut self, minimum: Duration) -> Policy {
        self.minimum = minimum;
        self
    }

    /// The budget for this move on `clock`; `None` when the clock sets no limit. With both a clock and a
    /// fixed move time, the smaller budget.
    pub fn budget(&self, clock: &Clock) -> Option<Budget> {
        let fixed = clock.move_time.map(|t| {
            let t = t.mul_f64(self.fixed).saturating_sub(self.overhead).max(self.minimum);
            Budget { soft: t, hard: t }
        });
        let timed = clock.remaining.map(|remaining| self.share_of(clock, remaining));
        match (fixed, timed) {
            (Some(a), Some(b)) => Some(Budget { soft: a.soft.min(b.soft), hard: a.hard.min(b.hard) }),
            (a, b) => a.or(b),
        }
    }

    /// The budget from `remaining` on the clock.
    fn share_of(&self, clock: &Clock, remaining: Duration) -> Budget {
        let moves = match clock.moves_to_go {
            Some(n) => n.clamp(1, MAX_MOVES_TO_GO),
            None => self.moves_left.max(1),
        };
        // What is safely ours: the time left minus an overhead for each move still to be made.
        let reserve = self.overhead.saturating_mul(moves.min(RESERVED_MOVES));
        let left = remaining.saturating_sub(reserve).max(self.minimum);
        // With overtime to come, running out of this clock loses nothing.
        let floor = clock.overtime.filter(|o| o.periods > 0).map_or(Duration::ZERO, |o| o.share() / 2);
        let share = (left / moves + clock.increment.mul_f64(INCREMENT_SHARE)).max(floor);
        let cap = left.mul_f64(if moves == 1 { LAST_MOVE_SHARE } else { MAX_SHARE }).max(floor);
        let hard = share.mul_f64(self.hard).min(cap).max(self.minimum);
        let soft = share.mul_f64(self.soft).min(hard).max(self.minimum);
        Budget { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn timed(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> Clock {
        Clock { remaining: Some(ms(remaining)), increment: ms(increment), moves_to_go, ..Clock::default() }
    }

    /// The policies the games use: alpha-beta, Monte Carlo, and a fixed-time share below one.
    fn policies() -> [Policy; 3] {
        [
            Policy::new(ms(30)),
            Policy::new(ms(200)).with_shares(0.8, 0.8).with_minimum(ms(50)),
            Policy::new(ms(20)).with_moves_left(15).with_shares(0.8, 0.8).with_fixed(0.8).with_minimum(ms(5)),
        ]
    }

    #[test]
    fn never_more_than_the_clock_and_soft_within_hard() {
        for policy in policies() {
            for left in [0u64, 1, 10, 50, 100, 1_000, 10_000, 600_000] {
                for inc in [0u64, 100, 2_000] {
                    for mtg in [None, Some(0), Some(1), Some(5), Some(40), Some(1000)] {
                        let clock = timed(left, inc, mtg);
                        let b = policy.budget(&clock).unwrap();
                        assert!(b.soft <= b.hard, "{policy:?} {clock:?} {b:?}");
                        // Over the floor of a move, a move never takes the whole clock.
                        assert!(b.hard <= ms(left).max(policy.minimum), "{policy:?} {clock:?} {b:?}");
                        if left >= 1_000 {
                            assert!(b.hard < ms(left), "{policy:?} {clock:?} {b:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tiny_remaining_time_gets_the_minimum() {
        for policy in policies() {
            for left in [0, 1, 2] {
                let b = policy.budget(&timed(left, 0, None)).unwrap();
                assert_eq!((b.soft, b.hard), (policy.minimum, policy.minimum));
            }
        }
    }

    #[test]
    fn moves_to_go_one_spends_most_but_not_all() {
        let policy = Policy::new(ms(30));
        let last = policy.budget(&timed(10_000, 0, Some(1))).unwrap();
        // 10 s less one overhead, at most 80% of it.
        assert_eq!(last.hard, ms(9_970).mul_f64(0.8));
        let many = policy.budget(&timed(10_000, 0, Some(2))).unwrap();
        assert!(many.hard < last.hard && many.hard <= ms(10_000 - 60).mul_f64(0.35));
        // Moves to go 0 means the same as 1 (the clock is refilled after this move).
        assert_eq!(policy.budget(&timed(10_000, 0, Some(0))), Some(last));
    }

    #[test]
    fn increment_adds_three_quarters() {
        let policy = Policy::new(ms(0)).with_shares(1.0, 1.0);
        let without = policy.budget(&timed(30_000, 0, Some(30))).unwrap();
        let with = policy.budget(&timed(30_000, 400, Some(30))).unwrap();
        assert_eq!(without.hard, ms(1_000));
        assert_eq!(with.hard, ms(1_300));
        // Zero increment and no moves to go: the estimate shares the clock out.
        assert_eq!(policy.with_moves_left(60).budget(&timed(30_000, 0, None)).unwrap().hard, ms(500));
    }

    #[test]
    fn fixed_move_time_and_the_clock_give_the_smaller() {
        let policy = Policy::new(ms(30));
        let fixed = Clock { move_time: Some(ms(500)), ..Clock::default() };
        assert_eq!(policy.budget(&fixed), Some(Budget { soft: ms(470), hard: ms(470) }));
        let both = Clock { move_time: Some(ms(5_000)), ..timed(1_000, 0, None) };
        let clock_only = policy.budget(&timed(1_000, 0, None)).unwrap();
        assert_eq!(policy.budget(&both), Some(clock_only));
        // A fixed time below the overhead still leaves the minimum.
        let tiny = Clock { move_time: Some(ms(10)), ..Clock::default() };
        assert_eq!(policy.budget(&tiny).unwrap().hard, ms(1));
        // The share used of a fixed time: 80% of 5 s less 20 ms.
        let share = Policy::new(ms(20)).with_fixed(0.8);
        assert_eq!(share.budget(&Clock { move_time: Some(ms(5_000)), ..Clock::default() }).unwrap().hard, ms(3_980));
    }

    #[test]
    fn byo_yomi_periods() {
        let go = policies()[1];
        let canadian = Overtime { period: ms(30_000), stones: 5, periods: 1 };
        // Main time: shared over the moves, but never under half a byo-yomi move's share.
        let main = Clock { remaining: Some(ms(600_000)), overtime: Some(canadian), ..Clock::default() };
        let b = go.with_moves_left(60).budget(&main).unwrap();
        let even = (ms(600_000) - ms(2_000)) / 60;
        assert_eq!(b.hard.as_millis(), (even * 4 / 5).as_millis());
        let spent = Clock { remaining: Some(ms(0)), ..main };
        assert_eq!(go.budget(&spent).unwrap().hard, ms(2_400));
        // In the period, 3 stones left in 12 s: each under a third.
        let period = Clock { remaining: Some(ms(12_000)), moves_to_go: Some(3), ..Clock::default() };
        let b = go.budget(&period).unwrap();
        assert!(b.hard < ms(4_000) && b.hard > ms(3_000), "{b:?}");
        // The last stone of the period, and the last Japanese period: the move must fit in what is left.
        for remaining in [300u64, 2_000, 30_000] {
            let last = Clock { remaining: Some(ms(remaining)), moves_to_go: Some(1), ..Clock::default() };
            let b = go.budget(&last).unwrap();
            assert!(b.hard <= ms(remaining).mul_f64(0.8).max(go.minimum), "{remaining}: {b:?}");
        }
        // A Japanese period with spare periods after it: overrunning only costs a period, so the floor of
        // 0.8 of half a period applies even when the period's time is nearly gone.
        let japanese = Overtime { period: ms(10_000), stones: 1, periods: 3 };
        let spare =
            Clock { remaining: Some(ms(100)), moves_to_go: Some(1), overtime: Some(japanese), ..Clock::default() };
        assert_eq!(go.budget(&spare).unwrap().hard, ms(4_000));
        let last = Clock { overtime: Some(Overtime { periods: 0, ..japanese }), ..spare };
        assert_eq!(go.budget(&last).unwrap().hard, go.minimum);
    }

    #[test]
    fn no_clock_no_limit() {
        for policy in policies() {
            assert_eq!(policy.budget(&Clock::default()), None);
            let only_increment = Clock { increment: ms(1_000), moves_to_go: Some(3), ..Clock::default() };
            assert_eq!(policy.budget(&only_increment), None);
        }
    }

    #[test]
    fn budget_sets_the_limits() {
        let limits = Budget { soft: ms(10), hard: ms(30) }.apply(Limits::depth(5));
        assert_eq!((limits.depth, limits.soft_time, limits.hard_time), (Some(5), Some(ms(10)), Some(ms(30))));
    }
}
