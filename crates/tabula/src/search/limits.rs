//! When a search stops: [`Limits`] on depth, nodes and time, and an outside stop flag.
//!
//! Time comes as two limits: past the *soft* one no new iteration starts (the one under way finishes), past
//! the *hard* one the search stops wherever it is and answers with its last complete iteration. The clock
//! policy ([`clock`](crate::clock): how much of a game's clock a move may use) turns a protocol's time
//! controls into these two. Both count from the start of the search. While the [`ponder`](Limits::ponder)
//! flag is set they wait; when it is cleared (UCI `ponderhit`) the time spent pondering counts as spent on
//! this move, and a search already past its soft limit then stops at once with its last complete iteration.
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use tabula::search::Limits;
//!
//! let limits = Limits::depth(12).with_time(Duration::from_millis(200), Duration::from_millis(600));
//! assert_eq!(limits.depth, Some(12));
//! assert!(limits.soft_time < limits.hard_time);
//! ```

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// When to stop. Unset limits do not apply; a search with no limit at all runs until the game's end is proved
/// or [`MAX_PLY`](crate::score::MAX_PLY).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (all threads together).
    pub nodes: Option<u64>,
    /// No new iteration starts after this much time.
    pub soft_time: Option<Duration>,
    /// The search stops this long after it started.
    pub hard_time: Option<Duration>,
    /// Set from outside to stop the search as soon as possible.
    pub stop: Option<Arc<AtomicBool>>,
    /// While set, the search thinks on the opponent's time and the time limits wait; once it is cleared they
    /// apply, counted from the start (see the [module documentation](self)).
    pub ponder: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Self {
        Self { depth: Some(depth), ..Self::default() }
    }

    /// Search for `time`, stopping wherever the search is when it runs out (soft and hard limit alike).
    pub fn time(time: Duration) -> Self {
        Self { soft_time: Some(time), hard_time: Some(time), ..Self::default() }
    }

    /// Search `nodes` nodes.
    pub fn nodes(nodes: u64) -> Self {
        Self { nodes: Some(nodes), ..Self::default() }
    }

    /// Search until stopped from outside through `stop`.
    pub fn until_stopped(stop: Arc<AtomicBool>) -> Self {
        Self { stop: Some(stop), ..Self::default() }
    }

    /// These limits with a soft and a hard time limit.
    #[must_use]
    pub fn with_time(mut self, soft: Duration, hard: Duration) -> Self {
        self.soft_time = Some(soft.min(hard));
        self.hard_time = Some(hard);
        self
    }

    /// These limits with a node budget.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Self {
        self.nodes = Some(nodes);
        self
    }

    /// These limits with a stop flag.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Self {
        self.stop = Some(stop);
        self
    }

    /// These limits with a ponder flag: the time limits wait while it is set.
    #[must_use]
    pub fn with_ponder(mut self, ponder: Arc<AtomicBool>) -> Self {
        self.ponder = Some(ponder);
        self
    }
}
