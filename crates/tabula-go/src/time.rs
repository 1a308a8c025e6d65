//! The clock as a GTP controller gives it: a leaf module shared by the protocol, the move picker's request
//! and the search. [`TimeSettings::clock`] turns the settings and the latest `time_left` into the core's
//! [`Clock`], from which the search's [`Policy`](tabula::clock::Policy) decides how long a move may think.
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
//! use tabula_go::time::TimeSettings;
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
use tabula::clock::{Clock, Overtime};

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
}
