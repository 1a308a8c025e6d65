//! Match statistics: Elo with its 95 % error, likelihood of superiority, draw rate, and the sequential
//! probability ratio test (SPRT) over game results (trinomial) or game pairs (pentanomial).
//!
//! Scores are from the first engine's point of view. Elo is logistic: a score `s` is
//! `-400 log10(1/s - 1)`. The SPRT uses the generalised log-likelihood ratio of fishtest and fastchess:
//! with the sample mean `s` and variance `var` of the per-game (or per-pair) score over `n` samples, and
//! `s0`, `s1` the scores of `elo0`, `elo1`, `LLR = n (s1 - s0) (2s - s0 - s1) / (2 var)`; the test accepts H1
//! (`elo1`) above `ln((1 - beta) / alpha)` and H0 (`elo0`) below `ln(beta / (1 - alpha))`. The sample
//! includes a symmetric prior of one won and one lost game or pair ([`PRIOR_GAMES`]).
//!
//! # Examples
//!
//! ```
//! use tabula_match::stats::{Results, Sprt, SprtDecision};
//!
//! let results = Results { wins: 60, draws: 20, losses: 20, ..Results::default() };
//! assert!((results.elo().unwrap().elo - 147.19).abs() < 0.01);
//! let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
//! // (with one won and one lost game added, the prior of `PRIOR_GAMES`)
//! assert!((sprt.llr_trinomial(&results) - 0.8691).abs() < 1e-4);
//! assert_eq!(sprt.decide(0.87), SprtDecision::Continue);
//! ```

use std::fmt;
use thiserror::Error;

/// The SPRT counts this many won and as many lost games (or pairs) besides those played: a symmetric prior.
/// The ratio rests on the results' variance, which a few equal results do not measure (one lost pair would
/// otherwise accept H0 at once); against a thousand games the prior weighs nothing, and a match won game
/// after game still decides within a few dozen.
pub const PRIOR_GAMES: u64 = 1;

/// The two-sided 95 % quantile of the normal distribution.
const Z95: f64 = 1.959_963_985;

/// Win / draw / loss counts of the first engine, and the pentanomial counts of complete game pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Games the first engine won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the first engine lost.
    pub losses: u64,
    /// Complete pairs by the first engine's pair score: 0, ½, 1, 1½ and 2 points.
    pub pairs: [u64; 5],
}

/// An Elo difference with the half-width of its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub elo: f64,
    /// Half the width of the 95 % interval (infinite when the interval reaches a score of 0 or 1).
    pub error: f64,
    /// The 95 % interval's low end (the Elo of the score minus 1.96 standard errors; −∞ below 0).
    pub low: f64,
    /// The 95 % interval's high end (+∞ when the score plus 1.96 standard errors passes 1).
    pub high: f64,
}

/// `elo +/- error` while the interval is finite, else `elo (95 % low .. high)`: near a score of 0 or 1 the
/// interval is lopsided and a symmetric error says nothing.
impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.error.is_finite() {
            write!(f, "{:.1} +/- {:.1}", self.elo, self.error)
        } else {
            write!(f, "{:.1} (95 % {:.0} .. {:.0})", self.elo, self.low, self.high)
        }
    }
}

/// Logistic Elo of a score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 {
        -y
    } else {
        y
    }
}

impl Results {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's points (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The first engine's mean score, if any game was played.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / self.games() as f64)
    }

    /// The share of drawn games (0 before any game).
    pub fn draw_rate(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }

    /// The likelihood of superiority: the probability that the first engine is the stronger, from wins and
    /// losses (draws carry no information): `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`; ½ before any decisive
    /// game.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// Mean and variance of the per-game score.
    fn trinomial(&self) -> Option<(f64, f64, f64)> {
        let n = self.games() as f64;
        let s = self.score()?;
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        Some((n, s, var))
    }

    /// Mean and variance of the per-pair score (scaled to one game: 0, ¼, ½, ¾, 1).
    fn pentanomial(&self) -> Option<(f64, f64, f64)> {
        let n: u64 = self.pairs.iter().sum();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let value = |i: usize| i as f64 / 4.0;
        let s = self.pairs.iter().enumerate().map(|(i, &c)| c as f64 * value(i)).sum::<f64>() / n;
        let var = self.pairs.iter().enumerate().map(|(i, &c)| c as f64 * (value(i) - s).powi(2)).sum::<f64>() / n;
        Some((n, s, var))
    }

    /// The Elo difference with its 95 % error, from the per-game score variance; `None` before any game.
    /// A score of 0 or 1 gives an infinite estimate.
    pub fn elo(&self) -> Option<Elo> {
        let (n, s, var) = self.trinomial()?;
        let sd = (var / n).sqrt();
        let elo_of = |score: f64| {
            if score <= 0.0 {
                f64::NEG_INFINITY
            } else if score >= 1.0 {
                f64::INFINITY
            } else {
                elo_from_score(score)
            }
        };
        let (low, high) = (elo_of(s - Z95 * sd), elo_of(s + Z95 * sd));
        let error = if low.is_finite() && high.is_finite() { (high - low) / 2.0 } else { f64::INFINITY };
        Some(Elo { elo: elo_of(s), error, low, high })
    }

    /// Adds one game: `score` is the first engine's 1, ½ or 0.
    pub fn add_game(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Adds one complete pair: `points` is the first engine's total over the two games (0 to 2).
    pub fn add_pair(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pairs[index] += 1;
    }
}

/// Bad SPRT parameters.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SprtError {
    /// `alpha` or `beta` outside (0, 1).
    #[error("SPRT: alpha and beta must be between 0 and 1 (got alpha={alpha}, beta={beta})")]
    Bound {
        /// The alpha given.
        alpha: f64,
        /// The beta given.
        beta: f64,
    },
    /// `elo1` not above `elo0`.
    #[error("SPRT: elo1 must be above elo0 (got elo0={elo0}, elo1={elo1})")]
    Hypotheses {
        /// The elo0 given.
        elo0: f64,
        /// The elo1 given.
        elo1: f64,
    },
    /// A `key=value` that does not parse.
    #[error("SPRT: cannot read `{0}` (expected elo0=, elo1=, alpha= or beta= with a number)")]
    Syntax(String),
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound reached.
    Continue,
    /// The lower bound: H0 (`elo0`) accepted.
    AcceptH0,
    /// The upper bound: H1 (`elo1`) accepted.
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

/// A sequential probability ratio test of `elo0` against `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The null hypothesis.
    pub elo0: f64,
    /// The alternative hypothesis.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates `alpha` and `beta`.
    ///
    /// # Errors
    ///
    /// [`SprtError`] when `alpha` or `beta` is outside (0, 1) or `elo1 <= elo0`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0) {
            return Err(SprtError::Bound { alpha, beta });
        }
        if elo1 <= elo0 || !elo0.is_finite() || !elo1.is_finite() {
            return Err(SprtError::Hypotheses { elo0, elo1 });
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; missing keys take these defaults).
    ///
    /// # Errors
    ///
    /// [`SprtError::Syntax`] naming the bad item, or the errors of [`Sprt::new`].
    pub fn parse<'a>(items: impl IntoIterator<Item = &'a str>) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (0.0, 5.0, 0.05, 0.05);
        for item in items.into_iter().flat_map(|s| s.split([' ', ','])).filter(|s| !s.is_empty()) {
            let syntax = || SprtError::Syntax(item.to_string());
            let (key, value) = item.split_once('=').ok_or_else(syntax)?;
            let value: f64 = value.parse().map_err(|_| syntax())?;
            match key {
                "elo0" => elo0 = value,
                "elo1" => elo1 = value,
                "alpha" => alpha = value,
                "beta" => beta = value,
                _ => return Err(syntax()),
            }
        }
        Sprt::new(elo0, elo1, alpha, beta)
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    fn llr(&self, sample: Option<(f64, f64, f64)>) -> f64 {
        let Some((n, s, var)) = sample else { return 0.0 };
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The log-likelihood ratio over single games, with one won and one lost game added to those played (see
    /// [`PRIOR_GAMES`]).
    pub fn llr_trinomial(&self, results: &Results) -> f64 {
        let with_prior = Results { wins: results.wins + PRIOR_GAMES, losses: results.losses + PRIOR_GAMES, ..*results };
        self.llr(with_prior.trinomial())
    }

    /// The log-likelihood ratio over complete game pairs, with one pair won twice and one lost twice added to
    /// those played (see [`PRIOR_GAMES`]).
    pub fn llr_pentanomial(&self, results: &Results) -> f64 {
        let mut with_prior = *results;
        with_prior.pairs[0] += PRIOR_GAMES;
        with_prior.pairs[4] += PRIOR_GAMES;
        self.llr(with_prior.pentanomial())
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_error_los_draws() {
        let r = Results { wins: 60, draws: 20, losses: 20, ..Results::default() };
        let elo = r.elo().unwrap();
        assert!(close(elo.elo, 147.190_714, 1e-4), "{elo:?}");
        assert!(close(elo.error, 66.013_381, 1e-3), "{elo:?}");
        assert!(close(r.los(), 0.999_996_13, 1e-6));
        assert!(close(r.draw_rate(), 0.2, 1e-12));
        let even = Results { wins: 10, draws: 5, losses: 10, ..Results::default() };
        assert!(close(even.elo().unwrap().elo, 0.0, 1e-9));
        assert!(close(even.los(), 0.5, 1e-9));
        assert_eq!(Results::default().elo(), None);
        assert_eq!(Results { wins: 3, ..Results::default() }.elo().unwrap().elo, f64::INFINITY);
        // 97.5 %: the interval's top passes a score of 1, so it is shown as an interval, not a +/-.
        let lopsided = Results { wins: 97, draws: 1, losses: 2, ..Results::default() }.elo().unwrap();
        assert!(close(lopsided.elo, 636.4, 0.1) && lopsided.high == f64::INFINITY, "{lopsided:?}");
        assert!(lopsided.low > 450.0 && lopsided.low < 600.0, "{lopsided:?}");
        assert_eq!(lopsided.to_string(), format!("636.4 (95 % {:.0} .. inf)", lopsided.low));
    }

    #[test]
    fn score_elo_round_trip() {
        for elo in [-400.0, -50.0, 0.0, 5.0, 200.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_88, 2e-7));
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt = Sprt::parse(["elo0=0 elo1=5", "alpha=0.05", "beta=0.05"]).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979, 1e-9) && close(upper, 2.944_438_979, 1e-9));
        // The ratio of the formula, with the prior's won and lost game (pair) added.
        let r = Results { wins: 60, draws: 20, losses: 20, pairs: [2, 5, 10, 6, 3] };
        assert!(close(sprt.llr_trinomial(&r), 0.869_121_027, 1e-6));
        assert!(close(sprt.llr_pentanomial(&r), 0.054_108_798, 1e-6));
        assert_eq!(sprt.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::AcceptH0);
        // A lopsided result decides quickly; an even one leans to H0.
        let lopsided = Results { wins: 100, losses: 5, ..Results::default() };
        assert_eq!(sprt.decide(sprt.llr_trinomial(&lopsided)), SprtDecision::AcceptH1);
        let even = Results { wins: 400, draws: 200, losses: 400, ..Results::default() };
        assert!(sprt.llr_trinomial(&even) < 0.0);
        // A few equal results decide nothing (one lost pair measures no variance), but a match won game after
        // game decides soon (here against a hypothesis of +50).
        let one_pair = Results { draws: 1, losses: 1, pairs: [0, 1, 0, 0, 0], ..Results::default() };
        let llrs = [sprt.llr_trinomial(&one_pair), sprt.llr_pentanomial(&one_pair)];
        assert!(llrs.iter().all(|llr| llr.abs() < 0.5), "{llrs:?}");
        let all_won = Results { wins: 30, pairs: [0, 0, 0, 0, 15], ..Results::default() };
        let wide = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        assert_eq!(wide.decide(wide.llr_trinomial(&all_won)), SprtDecision::AcceptH1);
        assert_eq!(wide.decide(wide.llr_pentanomial(&all_won)), SprtDecision::AcceptH1);
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!(matches!(Sprt::parse(["elo0=5 elo1=0"]), Err(SprtError::Hypotheses { .. })));
        assert!(matches!(Sprt::parse(["alpha=1.5"]), Err(SprtError::Bound { .. })));
        assert!(matches!(Sprt::parse(["gamma=1"]), Err(SprtError::Syntax(_))));
        assert!(matches!(Sprt::parse(["elo0"]), Err(SprtError::Syntax(_))));
    }

    #[test]
    fn pairs_are_binned() {
        let mut r = Results::default();
        for p in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0] {
            r.add_pair(p);
        }
        assert_eq!(r.pairs, [1, 1, 2, 1, 1]);
        r.add_game(1.0);
        r.add_game(0.5);
        r.add_game(0.0);
        assert_eq!((r.wins, r.draws, r.losses), (1, 1, 1));
    }
}
