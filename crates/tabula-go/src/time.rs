//! The clock as a GTP controller gives it: a leaf module shared by the protocol, the move picker's request
//! and the search's time policy.
//!
//! # Examples
//!
//! ```
//! use tabula_go::time::TimeSettings;
//!
//! let canadian = TimeSettings { main_time: 600, byo_yomi_time: 30, byo_yomi_stones: 5 };
//! assert_ne!(canadian, TimeSettings::default()); // the default: no settings given
//! ```

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
