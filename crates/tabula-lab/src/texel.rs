//! What the fits of an evaluation's linear weights to labelled positions share (Texel's method: `chess fit`
//! and `gomoku tune fit`): the exact gradient of the error, summed over the samples on two threads
//! ([`mean_gradient`]), and full-batch Adam with a pull towards the starting weights ([`Adam`]).

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

#[cfg(test)]
mod tests {
    use super::*;

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
