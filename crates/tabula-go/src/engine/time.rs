//! The clock as a GTP controller gives it, and how Go spends it: a leaf module shared by the protocol, the
//! move picker's request and the search. [`TimeSettings::clock`] turns the settings and the latest
//! `time_left` into the core's [`Clock`]; [`thinking_time`] gives a move its normal and its longest time.
//!
//! GTP knows Canadian byo-yomi only: main time, then periods of `byo_yomi_time` seconds for
//! `byo_yomi_stones` stones. Byo-yomi time with no stones means no time limit; no byo-yomi time means
//! absolute time. During main time `time_left` gives the main time left and 0 stones; in byo-yomi the time
//! left in the period and the stones still to play in it.
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use tabula_go::engine::time::TimeSettings;
//!
//! let canadian = TimeSettings { main_time: 600, byo_yomi_time: 30, byo_yomi_stones: 5 };
//! assert_ne!(canadian, TimeSettings::default()); // the default: no settings given
//!
//! // In byo-yomi: 12 seconds left for the last 3 stones of the period.
//! let clock = canadian.clock(Some((12, 3)));
//! assert_eq!((clock.remaining, clock.moves_to_go), (Some(Duration::from_secs(12)), Some(3)));
//! // No limit at all.
//! let unlimited = TimeSettings { main_time: 0, byo_yomi_time: 30, byo_yomi_stones: 0 };
//! assert_eq!(unlimited.clock(None), Default::default());
//! ```

use std::time::Duration;
use tabula::clock::{Budget, Clock, Overtime, Policy};

/// Time settings as the controller gave them (`time_settings main byo_yomi stones`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeSettings {
    /// Main time in seconds.
    pub main_time: u32,
    /// Byo-yomi period in seconds.
    pub byo_yomi_time: u32,
    /// Stones per byo-yomi period (0: no byo-yomi).
    pub byo_yomi_stones: u32,
}

impl TimeSettings {
    /// The clock of a player under these settings whose last `time_left` said `(seconds, stones)` (stones
    /// 0 in main time), if the controller said. Empty (no limit) when nothing was set, or when the settings
    /// say there is no limit (byo-yomi time without stones).
    pub fn clock(&self, time_left: Option<(u32, u32)>) -> Clock {
        let secs = |s: u32| Duration::from_secs(s.into());
        let no_limit = self.byo_yomi_time > 0 && self.byo_yomi_stones == 0;
        let (seconds, stones) = match time_left {
            _ if no_limit => return Clock::default(),
            None if *self == TimeSettings::default() => return Clock::default(),
            Some(left) => left,
            None => (self.main_time, 0),
        };
        let period = (self.byo_yomi_stones > 0).then(|| (secs(self.byo_yomi_time), self.byo_yomi_stones));
        match period {
            // In a byo-yomi period: running out of it loses, the stones left are the moves to go.
            _ if stones > 0 => Clock { remaining: Some(secs(seconds)), moves_to_go: Some(stones), ..Clock::default() },
            // Main time spent: the first period starts with this move.
            Some((time, stones)) if seconds == 0 => {
                Clock { remaining: Some(time), moves_to_go: Some(stones), ..Clock::default() }
            }
            _ => Clock {
                remaining: Some(secs(seconds)),
                overtime: period.map(|(period, stones)| Overtime { period, stones, periods: 1 }),
                ..Clock::default()
            },
        }
    }
}

/// The core's clock policy as a Monte Carlo search uses it: 200 ms kept back per move for the controller's
/// lag, at least 50 ms a move. The normal time is 0.8 of the move's even share (the search stops when told
/// and gains from every playout), the longest 2 shares, for a move whose choice is still in doubt.
pub const CLOCK_POLICY: Policy = Policy::new(Duration::from_millis(200))
    .with_shares(NORMAL_SHARE, LONGEST_SHARE)
    .with_minimum(Duration::from_millis(50));

const NORMAL_SHARE: f64 = 0.8;
const LONGEST_SHARE: f64 = 2.0;

/// How a move's time weighs by the share of the board already filled: the opening moves the even share,
/// the middle game, where 9×9 games are decided, more, and the endgame, whose moves are smaller and whose
/// positions the playouts read well, less. The filled shares where the phases change, and the weights.
const MIDDLE_GAME: f64 = 0.08;
const ENDGAME: f64 = 0.45;
const PHASE_WEIGHTS: [f64; 3] = [1.0, 1.4, 0.8];
const _: () = assert!(PHASE_WEIGHTS[1] > PHASE_WEIGHTS[0] && PHASE_WEIGHTS[0] > PHASE_WEIGHTS[2]);

/// The time weight of a move with `empty` of the board's `points` empty.
pub fn phase_weight(points: usize, empty: usize) -> f64 {
    let filled = 1.0 - empty as f64 / points.max(1) as f64;
    match filled {
        f if f < MIDDLE_GAME => PHASE_WEIGHTS[0],
        f if f < ENDGAME => PHASE_WEIGHTS[1],
        _ => PHASE_WEIGHTS[2],
    }
}

/// The thinking time for a move on `clock` with `empty` of the board's `points` empty: `soft` the normal
/// time, `hard` the most a move in doubt may take; `None` when the clock sets no limit.
///
/// The moves still to come are estimated as half the empty points, at least 10 (a side plays about that
/// many on 9×9, counting captures and the dame), and the time is
/// weighted by the game's phase ([`phase_weight`]). In main time, byo-yomi to come counts as an increment
/// of its time per stone: each later move will get that much again. The core [`Policy`] keeps every move
/// within 35 % of the time left (80 % for the last stone of a period) and keeps 200 ms per move back.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tabula_go::engine::time::{thinking_time, TimeSettings};
///
/// // 30 s of main time, then 1 s for every move: the first move on an empty 9×9 board.
/// let clock = TimeSettings { main_time: 30, byo_yomi_time: 1, byo_yomi_stones: 1 }.clock(None);
/// let t = thinking_time(&clock, 81, 81).unwrap();
/// assert!(t.soft > Duration::from_secs(1) && t.soft < t.hard && t.hard < Duration::from_secs(30));
/// ```
pub fn thinking_time(clock: &Clock, points: usize, empty: usize) -> Option<Budget> {
    let moves_left = (empty / 2).max(10) as u32;
    let mut clock = *clock;
    if let Some(overtime) = clock.overtime.filter(|o| o.periods > 0 && clock.moves_to_go.is_none()) {
        clock.increment += overtime.period / overtime.stones.max(1);
    }
    let weight = phase_weight(points, empty);
    CLOCK_POLICY.with_moves_left(moves_left).with_shares(NORMAL_SHARE * weight, LONGEST_SHARE * weight).budget(&clock)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_and_time_left_make_the_clock() {
        let s = Duration::from_secs;
        assert_eq!(TimeSettings::default().clock(None), Clock::default());
        // A controller that gives only time_left is believed.
        assert_eq!(TimeSettings::default().clock(Some((60, 0))).remaining, Some(s(60)));
        let absolute = TimeSettings { main_time: 300, byo_yomi_time: 0, byo_yomi_stones: 0 };
        assert_eq!(absolute.clock(None), Clock { remaining: Some(s(300)), ..Clock::default() });
        assert_eq!(absolute.clock(Some((0, 0))), Clock { remaining: Some(s(0)), ..Clock::default() });
        let canadian = TimeSettings { main_time: 600, byo_yomi_time: 30, byo_yomi_stones: 5 };
        let overtime = Some(Overtime { period: s(30), stones: 5, periods: 1 });
        assert_eq!(canadian.clock(Some((420, 0))), Clock { remaining: Some(s(420)), overtime, ..Clock::default() });
        let first_period = Clock { remaining: Some(s(30)), moves_to_go: Some(5), ..Clock::default() };
        assert_eq!(canadian.clock(Some((0, 0))), first_period);
        let byo_only = TimeSettings { main_time: 0, ..canadian };
        assert_eq!(byo_only.clock(None), first_period);
        let last_stone = Clock { remaining: Some(s(4)), moves_to_go: Some(1), ..Clock::default() };
        assert_eq!(canadian.clock(Some((4, 1))), last_stone);
        let unlimited = TimeSettings { main_time: 60, byo_yomi_time: 30, byo_yomi_stones: 0 };
        assert_eq!(unlimited.clock(Some((10, 0))), Clock::default());
    }

    /// The clock of one side through a game whose every move takes `used(budget)` plus `lag` (the time the
    /// answer takes to reach the controller), as `tabula match` keeps it: a Fischer clock `main + inc`,
    /// told as `time_settings main inc 1` with the real time left as main time before each move; `inc` 0
    /// is absolute time. Returns the time each move took, or the move that lost on time.
    fn play_out(
        main: u32,
        inc: u32,
        moves: usize,
        lag: Duration,
        used: impl Fn(Budget) -> Duration,
    ) -> Result<Vec<Duration>, usize> {
        let settings = TimeSettings { main_time: main, byo_yomi_time: inc, byo_yomi_stones: u32::from(inc > 0) };
        let mut left = Duration::from_secs(main.into());
        let mut took = Vec::new();
        for k in 0..moves {
            // 9×9: two stones a move pair, some captured back.
            let empty = 81usize.saturating_sub(k * 9 / 5).max(4);
            let clock = settings.clock(Some((left.as_secs() as u32, 0)));
            let t = used(thinking_time(&clock, 81, empty).expect("a clock was set")) + lag;
            left = left.checked_sub(t).ok_or(k)? + Duration::from_secs(inc.into());
            took.push(t);
        }
        Ok(took)
    }

    #[test]
    fn never_loses_on_time_even_taking_the_longest_time_on_every_move() {
        // The answer's lag: a few milliseconds in fact, more under load. Absolute time runs out in the end
        // for a game long enough, at 50 ms a move and the lag; 60 moves a side is a long 9×9 game.
        let lag = Duration::from_millis(50);
        for (main, inc) in [(30, 1), (10, 1), (60, 0), (300, 0), (5, 2), (1, 1)] {
            for moves in [20, 45, 60, 80, 150].into_iter().filter(|&m| inc > 0 || m <= 60) {
                let result = play_out(main, inc, moves, lag, |b| b.hard);
                assert!(result.is_ok(), "{main}+{inc}, {moves} moves: lost on move {:?}", result.err());
            }
        }
    }

    #[test]
    fn spends_most_of_the_clock_and_most_in_the_middle_game() {
        // 30 s + 1 s, a 45-move game at the normal time: 75 s to spend.
        let took = play_out(30, 1, 45, Duration::from_millis(100), |b| b.soft).unwrap();
        let total: Duration = took.iter().sum();
        assert!(total > Duration::from_secs(60), "{total:?} of 75 s: {took:?}");
        let mean = |moves: &[Duration]| moves.iter().sum::<Duration>() / moves.len() as u32;
        let (middle, end) = (mean(&took[3..18]), mean(&took[30..]));
        assert!(middle > mean(&took[..1]) && middle > end.mul_f64(1.3), "{took:?}");
        // More than the clock's own increment while main time lasts.
        assert!(took[..20].iter().all(|&t| t > Duration::from_millis(1_100)), "{took:?}");
    }

    #[test]
    fn a_move_in_byo_yomi_keeps_to_its_period() {
        // The last two stones of a 10 s period for 5 stones with 3 s left: both fit.
        let settings = TimeSettings { main_time: 0, byo_yomi_time: 10, byo_yomi_stones: 5 };
        let t = thinking_time(&settings.clock(Some((3, 2))), 81, 40).unwrap();
        assert!(t.hard.mul_f64(2.0) < Duration::from_millis(3_000 - 2 * 200), "{t:?}");
        // A fresh period: about a fifth of it normally, never the whole of it.
        let t = thinking_time(&settings.clock(Some((10, 5))), 81, 81).unwrap();
        assert!(t.soft > Duration::from_secs(1) && t.soft < Duration::from_secs(2), "{t:?}");
        assert!(t.hard < Duration::from_millis(3_500), "{t:?}");
        // No settings: no limit.
        assert_eq!(thinking_time(&TimeSettings::default().clock(None), 81, 81), None);
    }

    #[test]
    fn the_middle_game_weighs_most() {
        assert_eq!(phase_weight(81, 81), PHASE_WEIGHTS[0]);
        assert_eq!(phase_weight(81, 60), PHASE_WEIGHTS[1]);
        assert_eq!(phase_weight(81, 20), PHASE_WEIGHTS[2]);
    }
}
