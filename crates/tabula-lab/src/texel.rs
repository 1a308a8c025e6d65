//! What the fits of an evaluation's linear weights to labelled positions share (Texel's method: `chess fit`
//! and `gomoku tune fit`): the samples split into those fitted to and those held out ([`Split`]), the exact
//! gradient of the error summed over the samples on two threads ([`mean_gradient`]), and full-batch Adam with a
//! pull towards the starting weights ([`Adam`], its step size from [`rate_at`]).

/// Samples split into those fitted to and those held out to check that the fit generalises: of each `every`
/// blocks of `block` samples in a row (whole games, most of them), the last is held out.
pub struct Split<S> {
    /// The samples fitted to.
    pub train: Vec<S>,
    /// The samples held out.
    pub valid: Vec<S>,
    block: usize,
    every: usize,
}

impl<S> Split<S> {
    /// No samples yet.
    pub fn new(block: usize, every: usize) -> Split<S> {
        Split { train: Vec::new(), valid: Vec::new(), block, every }
    }

    /// Adds `sample`, number `i` in the data, to the set its block belongs to.
    pub fn push(&mut self, i: usize, sample: S) {
        if (i / self.block) % self.every == self.every - 1 {
            self.valid.push(sample)
        } else {
            self.train.push(sample)
        }
    }

    /// `error` on the samples fitted to and on those held out, as the fits report it: `0.045647 / 0.042701`.
    pub fn errors(&self, error: impl Fn(&[S]) -> f64) -> String {
        format!("{:.6} / {:.6}", error(&self.train), error(&self.valid))
    }
}

/// The mean over `samples` of the gradients `part` sums over a slice of them; the two halves of `samples` are
/// summed on two threads.
pub fn mean_gradient<S: Sync>(samples: &[S], part: impl Fn(&[S]) -> Vec<f64> + Sync) -> Vec<f64> {
    let half = samples.len() / 2;
    let (a, b) = std::thread::scope(|sc| {
        let h = sc.spawn(|| part(&samples[..half]));
        let b = part(&samples[half..]);
        (h.join().expect("no panic"), b)
    });
    a.iter().zip(&b).map(|(x, y)| (x + y) / samples.len() as f64).collect()
}

/// Adam's moments for weights that started at `start`, with an L2 pull of strength `l2` towards them, so that
/// rarely seen features stay near where they started.
pub struct Adam {
    start: Vec<f64>,
    l2: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    /// No step taken yet from `start`.
    pub fn new(start: &[f64], l2: f64) -> Adam {
        Adam { start: start.to_vec(), l2, m: vec![0.0; start.len()], v: vec![0.0; start.len()], t: 0 }
    }

    /// One step of size `rate` on `weights` down `gradient` (the error's), the pull towards the start added.
    pub fn step(&mut self, weights: &mut [f64], gradient: &[f64], rate: f64) {
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        self.t += 1;
        for (i, w) in weights.iter_mut().enumerate() {
            let g = gradient[i] + 2.0 * self.l2 * (*w - self.start[i]);
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            let mh = self.m[i] / (1.0 - b1.powi(self.t));
            let vh = self.v[i] / (1.0 - b2.powi(self.t));
            *w -= rate * mh / (vh.sqrt() + eps);
        }
    }
}

/// The step size at step `epoch` of `epochs`: `rate` for the first three quarters of them, a quarter of it after.
pub fn rate_at(rate: f64, epoch: usize, epochs: usize) -> f64 {
    if epoch < epochs * 3 / 4 {
        rate
    } else {
        rate / 4.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_block_of_each_run_of_blocks_is_held_out() {
        let mut split = Split::new(2, 3);
        for i in 0..14 {
            split.push(i, i);
        }
        assert_eq!(split.valid, [4, 5, 10, 11]);
        assert_eq!(split.train, [0, 1, 2, 3, 6, 7, 8, 9, 12, 13]);
        assert_eq!(split.errors(|s| s.len() as f64), "10.000000 / 4.000000");
    }

    #[test]
    fn the_rate_drops_to_a_quarter_for_the_last_quarter_of_the_steps() {
        let rates: Vec<f64> = (1..=8).map(|epoch| rate_at(2.0, epoch, 8)).collect();
        assert_eq!(rates, [2.0, 2.0, 2.0, 2.0, 2.0, 0.5, 0.5, 0.5]);
    }

    #[test]
    fn the_mean_gradient_is_the_mean_over_both_halves() {
        let samples = [1.0, 2.0, 3.0, 4.0, 5.0];
        let sum = |chunk: &[f64]| vec![chunk.iter().sum(), chunk.len() as f64];
        assert_eq!(mean_gradient(&samples, sum), vec![3.0, 1.0]);
    }

    #[test]
    fn adam_finds_the_minimum_and_the_pull_holds_it_towards_the_start() {
        // The error (w - 3)², from 0: alone it reaches 3; with a pull of 1 towards 0, the minimum of
        // (w - 3)² + w² is 1.5.
        for (l2, minimum) in [(0.0, 3.0), (1.0, 1.5)] {
            let mut w = [0.0];
            let mut adam = Adam::new(&w, l2);
            for _ in 0..2000 {
                let gradient = [2.0 * (w[0] - 3.0)];
                adam.step(&mut w, &gradient, 0.05);
            }
            assert!((w[0] - minimum).abs() < 1e-3, "l2 {l2}: {}", w[0]);
        }
    }
}
