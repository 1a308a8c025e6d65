//! Time management: how long to think from the UCI clock parameters ([`Clock`] → [`TimePlan`]).
//!
//! A plan has a *soft* limit, after which no new iteration starts, and a *hard* limit, at which the search is
//! stopped wherever it is. Both leave the move overhead (the time a move takes to reach the GUI) unused, and
//! the hard limit never exceeds a fraction of the time left, so the engine does not lose on time.
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use tabula_chess::time::Clock;
//!
//! let clock = Clock { time: Some(Duration::from_secs(60)), increment: Duration::from_millis(500), ..Clock::default() };
//! let plan = clock.plan(Duration::from_millis(30));
//! let (soft, hard) = (plan.soft.unwrap(), plan.hard.unwrap());
//! assert!(soft <= hard && hard < Duration::from_secs(20));
//!
//! // A fixed time per move is used whole, minus the overhead.
//! let plan = Clock { movetime: Some(Duration::from_millis(1000)), ..Clock::default() }.plan(Duration::from_millis(30));
//! assert_eq!(plan.hard, Some(Duration::from_millis(970)));
//! ```

use std::time::Duration;

/// The side to move's clock, as `go` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left (`wtime` or `btime`).
    pub time: Option<Duration>,
    /// Increment per move (`winc` or `binc`).
    pub increment: Duration,
    /// Moves until the next time control (`movestogo`).
    pub moves_to_go: Option<u32>,
    /// Exact time for this move (`movetime`).
    pub movetime: Option<Duration>,
}

/// How long to think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Start no new iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this.
    pub hard: Option<Duration>,
}

/// Moves assumed left in a sudden-death game.
const MOVES_LEFT: u32 = 30;
/// The least time ever planned, so that a move is always found.
const MINIMUM: Duration = Duration::from_millis(1);

impl Clock {
    /// The plan for this clock with `overhead` kept in reserve per move. No clock and no movetime: no limit.
    pub fn plan(&self, overhead: Duration) -> TimePlan {
        if let Some(movetime) = self.movetime {
            let t = movetime.saturating_sub(overhead).max(MINIMUM);
            return TimePlan { soft: Some(t), hard: Some(t) };
        }
        let Some(time) = self.time else {
            return TimePlan::default();
        };
        let moves = self.moves_to_go.unwrap_or(MOVES_LEFT).clamp(1, 50);
        // What is safely ours: the time left minus an overhead for each move still to be made.
        let reserve = overhead.saturating_mul(moves.min(10));
        let left = time.saturating_sub(reserve).max(MINIMUM);
        let base = left / moves + self.increment.mul_f64(0.75);
        let cap = left.mul_f64(if moves == 1 { 0.8 } else { 0.35 });
        let hard = base.saturating_mul(3).min(cap).max(MINIMUM);
        let soft = base.mul_f64(0.6).min(hard).max(MINIMUM);
        TimePlan { soft: Some(soft), hard: Some(hard) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_than_the_clock() {
        for ms in [1u64, 10, 50, 100, 1_000, 10_000, 600_000] {
            for inc in [0u64, 100, 2_000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let clock = Clock {
                        time: Some(Duration::from_millis(ms)),
                        increment: Duration::from_millis(inc),
                        moves_to_go: mtg,
                        movetime: None,
                    };
                    let plan = clock.plan(Duration::from_millis(30));
                    let hard = plan.hard.unwrap();
                    assert!(plan.soft.unwrap() <= hard);
                    assert!(hard <= Duration::from_millis(ms).max(MINIMUM), "{clock:?} {plan:?}");
                }
            }
        }
        assert_eq!(Clock::default().plan(Duration::ZERO), TimePlan::default());
    }
}
