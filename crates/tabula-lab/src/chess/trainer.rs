//! The network's trainer (`nnue-fit`, `nnue-loss`): the network of `tabula_chess::engine::eval::nnue` in `f32`,
//! trained by Adam on minibatches to predict, through `sigmoid(y)`, a blend of the search's score (as
//! `sigmoid(score / scale)`) and the game's result, then quantised into a weights file.
//!
//! Hand-written rather than on a tensor library: the network is one hidden layer over sparse inputs (about 30
//! of 768 active per side), so forward and backward passes touch only the active columns, a few dozen lines
//! each; a dense framework would multiply zeros, and this loop is checked against finite differences below.

use crate::data::read_lines;
use anyhow::bail;
use std::sync::Arc;
use tabula::game::Evaluator;
use tabula::rng::Rng;
use tabula_chess::engine::eval::against_bare_king;
use tabula_chess::engine::eval::nnue::{KingLayout, Layers, Network, HIDDEN, INPUTS, QA, QB};
use tabula_chess::{Color, Position};

/// The hidden layer's width in this build.
pub const H: usize = HIDDEN;

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
/// The most a first-layer weight or bias may grow (in real units) so that the quantised accumulators stay
/// within `i16` (the loader's bound: a bias plus 32 weights).
const FIRST_LAYER_CLIP: f32 = 1.98;
const BIAS_CLIP: f32 = 60.0;
/// The output weights' bound: the output sum stays far within `i32`.
const OUTPUT_CLIP: f32 = 2.0;

/// Training positions: the active features from each side's point of view, side to move, target.
#[derive(Default)]
pub struct Data {
    /// The inputs the features are of.
    kings: KingLayout,
    /// `[white's view, black's view]` per piece.
    features: Vec<[u16; 2]>,
    /// Where each position's features start in `features` (one more entry than positions).
    starts: Vec<u32>,
    black_to_move: Vec<bool>,
    /// The expected score for the side to move.
    targets: Vec<f32>,
}

impl Data {
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// No positions yet, their features to be those of the king layout `kings`.
    pub fn new(kings: KingLayout) -> Data {
        Data { kings, ..Data::default() }
    }

    pub fn push(&mut self, pos: &Position, target_for_side_to_move: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let board = pos.board();
        let [white, black] = self.kings.views(pos);
        for sq in board.occupied() {
            let piece = board.piece_at(sq).expect("occupied");
            let [w, b] = [white.feature(Color::White, piece, sq), black.feature(Color::Black, piece, sq)];
            self.features.push([w as u16, b as u16]);
        }
        self.starts.push(self.features.len() as u32);
        self.black_to_move.push(pos.turn() == Color::Black);
        self.targets.push(target_for_side_to_move);
    }

    /// The target of each position, for the side to move.
    pub fn targets(&self) -> &[f32] {
        &self.targets
    }

    /// The positions before `cut`, each twice with `mirror` (as given and mirrored left to right), and the
    /// positions from `cut` on, as given: the training and the held-out positions.
    pub fn split(&self, cut: usize, mirror: bool) -> (Data, Data) {
        let (mut train, mut valid) = (Data::new(self.kings), Data::new(self.kings));
        for i in 0..self.len() {
            let part = if i < cut { &mut train } else { &mut valid };
            // The network sees the placement alone, which is as good mirrored left to right (castling rights
            // aside): the training positions count twice, once mirrored (a square's file bits flipped).
            let copies = if i < cut && mirror { 2 } else { 1 };
            for copy in 0..copies {
                if part.starts.is_empty() {
                    part.starts.push(0);
                }
                let span = &self.features[self.starts[i] as usize..self.starts[i + 1] as usize];
                let flip = if copy == 1 { 7 } else { 0 };
                part.features.extend(span.iter().map(|&[w, b]| [w ^ flip, b ^ flip]));
                part.starts.push(part.features.len() as u32);
                part.black_to_move.push(self.black_to_move[i]);
                part.targets.push(self.targets[i]);
            }
        }
        (train, valid)
    }

    /// The number of pieces of position `i`.
    fn pieces(&self, i: usize) -> u32 {
        self.starts[i + 1] - self.starts[i]
    }

    /// The features of position `i` from the side to move's point of view and the other's.
    fn views(&self, i: usize) -> (impl Iterator<Item = usize> + '_, impl Iterator<Item = usize> + '_) {
        let span = &self.features[self.starts[i] as usize..self.starts[i + 1] as usize];
        let us = self.black_to_move[i] as usize;
        (span.iter().map(move |f| f[us] as usize), span.iter().map(move |f| f[1 - us] as usize))
    }
}

/// The network in `f32`.
#[derive(Clone)]
pub struct Params {
    /// The inputs of the first layer.
    pub kings: KingLayout,
    /// Input by input, `H` each, king bucket by king bucket; with more than one king bucket, one more set of
    /// [`INPUTS`] (the *factor*) that every bucket's inputs add to, so that what holds wherever the king
    /// stands is learnt from every position (merged into each bucket's weights by
    /// [`quantise`](Params::quantise)).
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// Output bucket by bucket, `2 * H` each: side to move's `H`, then the other's.
    pub w2: Vec<f32>,
    /// One per output bucket.
    pub b2: Vec<f32>,
}

/// Which of the neurons of `layers` are silent: no weight in or out and no bias, so never active.
pub fn silent_neurons(layers: &Layers) -> Vec<bool> {
    let h = layers.hidden;
    (0..h)
        .map(|j| {
            layers.bias[j] == 0
                && layers.weights.iter().skip(j).step_by(h).all(|&w| w == 0)
                && layers.out_weights.iter().skip(j).step_by(h).all(|&w| w == 0)
        })
        .collect()
}

/// The sets of [`INPUTS`] first-layer weights a trainer keeps for `kings`: one per king bucket, and the
/// factor where there are several.
fn input_sets(kings: &KingLayout) -> usize {
    let n = kings.buckets();
    if n > 1 {
        n + 1
    } else {
        1
    }
}

impl Params {
    pub fn random(rng: &mut Rng, buckets: usize, kings: KingLayout) -> Params {
        let mut uniform = |scale: f64| ((rng.unit() * 2.0 - 1.0) * scale) as f32;
        Params {
            kings,
            w1: (0..INPUTS * input_sets(&kings) * H).map(|_| uniform(0.15)).collect(),
            b1: (0..H).map(|_| uniform(0.1) + 0.1).collect(),
            w2: (0..2 * H * buckets).map(|_| uniform(0.1)).collect(),
            b2: vec![0.0; buckets],
        }
    }

    /// The real-valued weights of a quantised network's layers (the inverse of
    /// [`quantise`](Params::quantise) up to rounding), to go on training it, with `buckets` output buckets
    /// and the king layout `kings`: the network's own, or copies of the output neuron of a network with one
    /// bucket (which evaluate as it does); the network's own king layout, or from the plain layout (one
    /// set of inputs, no mirroring) any other, the plain weights becoming the factor that every king bucket
    /// starts from. A network may have fewer hidden neurons than `H`: those it lacks start with random input
    /// weights (drawn from `rng`) and no output weight, so that the wider network evaluates as the narrower
    /// one until it learns. So do its silent neurons, with no weight in or out and no bias (a narrower
    /// network read at this build's width has them): never active, they would never learn.
    pub fn from_layers(layers: &Layers, buckets: usize, kings: KingLayout, rng: &mut Rng) -> anyhow::Result<Params> {
        let (h, given) = (layers.hidden, layers.out_bias.len());
        if h > H {
            bail!("a network of {h} hidden neurons cannot start one of {H}");
        }
        if given != buckets && given != 1 {
            bail!("a network of {given} output buckets cannot start one of {buckets}");
        }
        if layers.kings != kings && layers.kings != KingLayout::PLAIN {
            bail!("a network of {} king buckets cannot start another king layout", layers.kings.buckets());
        }
        let real = |w: i16, q: i32| f32::from(w) / q as f32;
        let random = Params::random(rng, 1, kings);
        // At this build's width the neurons the network lacks are silent too, and all silent ones start
        // afresh.
        let wide = layers.widened(H);
        let silent = silent_neurons(&wide);
        let given_w1: Vec<f32> = wide
            .weights
            .iter()
            .enumerate()
            .map(|(at, &w)| if silent[at % H] { random.w1[at] } else { real(w, QA) })
            .collect();
        let set = INPUTS * H;
        let w1 = match (input_sets(&kings), layers.kings == kings) {
            (1, _) => given_w1,
            // Each bucket's own weights, no factor yet.
            (_, true) => [given_w1, vec![0.0; set]].concat(),
            // The plain weights as the factor under empty buckets.
            (sets, false) => [vec![0.0; (sets - 1) * set], given_w1].concat(),
        };
        let b1 = (0..H).map(|j| if silent[j] { random.b1[j] } else { real(wide.bias[j], QA) }).collect();
        // A silent neuron's output weights are zeros already.
        let w2: Vec<f32> = wide.out_weights.iter().map(|&w| real(w, QB)).collect();
        let b2: Vec<f32> = layers.out_bias.iter().map(|&b| b as f32 / (QA * QB) as f32).collect();
        let copies = buckets / given;
        Ok(Params { kings, w1, b1, w2: w2.repeat(copies), b2: b2.repeat(copies) })
    }

    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    fn zeros(buckets: usize, kings: KingLayout) -> Params {
        Params {
            kings,
            w1: vec![0.0; INPUTS * input_sets(&kings) * H],
            b1: vec![0.0; H],
            w2: vec![0.0; 2 * H * buckets],
            b2: vec![0.0; buckets],
        }
    }

    /// Where position `i`'s output neuron's weights start in `w2`, and its bucket.
    fn output_of(&self, data: &Data, i: usize) -> (usize, usize) {
        let bucket = Network::bucket_of(data.pieces(i), self.buckets());
        (bucket * 2 * H, bucket)
    }

    /// The rows of `w1` that input `f` adds: its own, and its factor's if there is one.
    fn rows(&self, f: usize) -> impl Iterator<Item = usize> {
        let factor = (input_sets(&self.kings) > 1).then(|| self.kings.buckets() * INPUTS + f % INPUTS);
        std::iter::once(f).chain(factor)
    }

    fn accumulate(&self, features: impl Iterator<Item = usize>, acc: &mut [f32; H]) {
        acc.copy_from_slice(&self.b1);
        for row in features.flat_map(|f| self.rows(f)) {
            for (a, w) in acc.iter_mut().zip(&self.w1[row * H..(row + 1) * H]) {
                *a += w;
            }
        }
    }

    /// The output `y` for position `i` (its accumulators left in `acc`).
    pub fn forward(&self, data: &Data, i: usize, acc: &mut [[f32; H]; 2]) -> f32 {
        let (us, them) = data.views(i);
        self.accumulate(us, &mut acc[0]);
        self.accumulate(them, &mut acc[1]);
        let (at, bucket) = self.output_of(data, i);
        let mut y = self.b2[bucket];
        for (side, a) in acc.iter().enumerate() {
            for (x, w) in a.iter().zip(&self.w2[at + side * H..at + (side + 1) * H]) {
                y += x.clamp(0.0, 1.0) * w;
            }
        }
        y
    }

    /// Adds the gradient of `(sigmoid(y) - target)^2` at position `i` to `grad`; returns the loss.
    fn backward(&self, data: &Data, i: usize, acc: &mut [[f32; H]; 2], grad: &mut Params) -> f32 {
        let y = self.forward(data, i, acc);
        let p = sigmoid(y);
        let error = p - data.targets[i];
        let dy = 2.0 * error * p * (1.0 - p);
        let (at, bucket) = self.output_of(data, i);
        grad.b2[bucket] += dy;
        let (us, them) = data.views(i);
        let mut dacc = [0.0f32; H];
        for (side, features) in [(0, Box::new(us) as Box<dyn Iterator<Item = usize>>), (1, Box::new(them))] {
            let w2 = &self.w2[at + side * H..at + (side + 1) * H];
            let g2 = &mut grad.w2[at + side * H..at + (side + 1) * H];
            for j in 0..H {
                let a = acc[side][j];
                g2[j] += dy * a.clamp(0.0, 1.0);
                dacc[j] = if a > 0.0 && a < 1.0 { dy * w2[j] } else { 0.0 };
                grad.b1[j] += dacc[j];
            }
            for row in features.flat_map(|f| self.rows(f)) {
                for (g, d) in grad.w1[row * H..(row + 1) * H].iter_mut().zip(&dacc) {
                    *g += d;
                }
            }
        }
        error * error
    }

    fn values_mut(&mut self) -> impl Iterator<Item = (&mut f32, f32)> {
        let w1 = self.w1.iter_mut().map(|w| (w, FIRST_LAYER_CLIP));
        let b1 = self.b1.iter_mut().map(|w| (w, BIAS_CLIP));
        let w2 = self.w2.iter_mut().map(|w| (w, OUTPUT_CLIP));
        w1.chain(b1).chain(w2).chain(self.b2.iter_mut().map(|b| (b, 100.0)))
    }

    fn values(&self) -> impl Iterator<Item = f32> + '_ {
        self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2).copied()
    }

    /// The quantised network with `scale` centipawns per unit (see the module documentation of
    /// `eval::nnue`).
    pub fn quantise(&self, scale: f32) -> Network {
        let q =
            |xs: &[f32], scale: i32| -> Vec<i16> { xs.iter().map(|&w| (w * scale as f32).round() as i16).collect() };
        let out_bias: Vec<i32> = self.b2.iter().map(|b| (b * (QA * QB) as f32).round() as i32).collect();
        // Each king bucket's weights with the factor's added, kept within the clip bound.
        let set = INPUTS * H;
        let w1: Vec<f32> = match input_sets(&self.kings) {
            1 => self.w1.clone(),
            sets => {
                let (buckets, factor) = self.w1.split_at((sets - 1) * set);
                let merged = buckets.iter().zip(factor.iter().cycle());
                merged.map(|(w, f)| (w + f).clamp(-FIRST_LAYER_CLIP, FIRST_LAYER_CLIP)).collect()
            }
        };
        let layers = Layers {
            hidden: H,
            kings: self.kings,
            weights: q(&w1, QA),
            bias: q(&self.b1, QA),
            out_weights: q(&self.w2, QB),
            out_bias,
            scale: scale as i32,
        };
        Network::from_layers(&layers).expect("the clipped weights are in range")
    }
}

/// The mean loss over `data` (split over `threads`).
pub fn loss(params: &Params, data: &Data, threads: usize) -> f64 {
    let chunk = data.len().div_ceil(threads.max(1)).max(1);
    let starts: Vec<usize> = (0..data.len()).step_by(chunk).collect();
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = starts
            .iter()
            .map(|&start| {
                s.spawn(move || {
                    let mut acc = [[0.0; H]; 2];
                    (start..(start + chunk).min(data.len()))
                        .map(|i| {
                            let p = sigmoid(params.forward(data, i, &mut acc));
                            f64::from((p - data.targets[i]).powi(2))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).sum()
    });
    total / data.len().max(1) as f64
}

/// Reads `FEN;score;result` lines (white's point of view) into training data with targets
/// `share * sigmoid(score / scale) + (1 - share) * result` for the side to move, leaving out the endings
/// against a bare king, which the engine never asks the network about.
/// Also returns the FEN of each position kept.
pub fn read(path: &str, share: f32, scale: f32, kings: KingLayout) -> anyhow::Result<(Data, Vec<String>)> {
    let mut data = Data::new(kings);
    let mut fens = Vec::new();
    let mut bare = 0;
    for line in read_lines(path)? {
        let fields: Vec<&str> = line.split(';').collect();
        let [fen, score, result] = fields[..] else { continue };
        let (Ok(pos), Ok(score), Ok(result)) = (Position::from_fen(fen), score.parse::<f32>(), result.parse::<f32>())
        else {
            eprintln!("{path}: not FEN;score;result: {line}");
            continue;
        };
        if against_bare_king(&pos) {
            bare += 1;
            continue;
        }
        let white = share * sigmoid(score / scale) + (1.0 - share) * result;
        data.push(&pos, if pos.turn() == Color::White { white } else { 1.0 - white });
        fens.push(fen.to_owned());
    }
    eprintln!("{path}: {} positions, {bare} against a bare king left out", fens.len());
    Ok((data, fens))
}

/// Prints the loss of the tapered evaluation and of each network on the positions `fens` with their
/// targets for the side to move.
pub fn report_losses(fens: &[String], targets: &[f32], scale: f32, networks: &[(&str, Arc<Network>)], what: &str) {
    // Each position is set up as it is evaluated: a network's accumulators make an evaluated position
    // dozens of kilobytes, too many to keep for a million positions.
    let loss = |evaluate: &dyn Fn(&Position) -> i32| {
        let sum: f64 = fens
            .iter()
            .zip(targets)
            .map(|(fen, &target)| {
                let pos = Position::from_fen(fen).expect("read before");
                f64::from((sigmoid(evaluate(&pos) as f32 / scale) - target).powi(2))
            })
            .sum();
        sum / fens.len().max(1) as f64
    };
    let tapered = loss(&|pos| tabula_chess::engine::eval::Evaluation.evaluate(pos));
    eprintln!("the tapered evaluation's {what}loss: {tapered:.6}");
    for (name, net) in networks {
        eprintln!("{name}'s {what}loss: {:.6}", loss(&|pos| net.evaluate(pos)));
    }
}

/// The summed gradient and loss of the positions `batch` of `data`, split over `threads`.
pub fn gradient(params: &Params, data: &Data, batch: &[u32], threads: usize) -> (Params, f64) {
    let chunk = batch.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Params, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut grad = Params::zeros(params.buckets(), params.kings);
                    let mut acc = [[0.0; H]; 2];
                    let loss: f64 =
                        part.iter().map(|&i| f64::from(params.backward(data, i as usize, &mut acc, &mut grad))).sum();
                    (grad, loss)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).collect()
    });
    let mut parts = parts.into_iter();
    let (mut total, mut loss) = parts.next().unwrap_or_else(|| (Params::zeros(params.buckets(), params.kings), 0.0));
    for (grad, l) in parts {
        for ((t, _), g) in total.values_mut().zip(grad.values()) {
            *t += g;
        }
        loss += l;
    }
    (total, loss)
}

/// Adam's moments, one per parameter.
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    pub fn new(params: &Params) -> Adam {
        let n = params.values().count();
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    /// One step on the mean of the summed gradient `grad` over `n` positions; weights stay within their
    /// clip bounds.
    pub fn step(&mut self, params: &mut Params, grad: &Params, lr: f32, n: usize) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.t += 1;
        let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
        let scale = 1.0 / n as f32;
        for (((w, clip), g), (m, v)) in
            params.values_mut().zip(grad.values()).zip(self.m.iter_mut().zip(self.v.iter_mut()))
        {
            let g = g * scale;
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w = (*w - lr * (*m / c1) / ((*v / c2).sqrt() + eps)).clamp(-clip, clip);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_board::testing::random_game;
    use tabula_chess::engine::eval::nnue::{feature, FOUR};

    fn from_network(net: &Network, buckets: usize) -> anyhow::Result<Params> {
        Params::from_layers(&net.to_layers(), buckets, *net.kings(), &mut Rng::new(0))
    }

    /// Training data of `positions` (FEN, target) for the king layout `kings`.
    fn data_of(kings: KingLayout, positions: &[(&str, f32)]) -> Data {
        let mut data = Data::new(kings);
        for &(fen, target) in positions {
            data.push(&Position::from_fen(fen).unwrap(), target);
        }
        data
    }

    /// The gradient of the loss summed over all of `data` at `params`.
    fn summed_gradient(params: &Params, data: &Data) -> Params {
        let batch: Vec<u32> = (0..data.len() as u32).collect();
        gradient(params, data, &batch, 2).0
    }

    /// The first-layer input of a white pawn on `square`, as white sees it.
    fn white_pawn(square: &str) -> usize {
        let pawn = tabula_chess::Piece::new(Color::White, tabula_chess::Role::Pawn);
        feature(Color::White, pawn, square.parse::<tabula_chess::Square>().unwrap())
    }

    /// Checks `grad`, the [`summed_gradient`] over `data` at `params`, against central differences of the summed
    /// loss, at the parameter `at` picks (`what`, in the failure's message).
    fn check_derivative(params: &Params, data: &Data, grad: &Params, at: impl Fn(&mut Params) -> &mut f32, what: &str) {
        let total = |p: &Params| loss(p, data, 1) * data.len() as f64;
        let h = 1e-3f32;
        let (mut up, mut down) = (params.clone(), params.clone());
        *at(&mut up) += h;
        *at(&mut down) -= h;
        let numeric = (total(&up) - total(&down)) / (2.0 * f64::from(h));
        let analytic = f64::from(*at(&mut grad.clone()));
        assert!(
            (numeric - analytic).abs() <= 1e-3 + 1e-2 * analytic.abs(),
            "{what}: numeric {numeric}, analytic {analytic}"
        );
    }

    /// A network of half the width starts a full one that evaluates as it does: checked against the
    /// narrow network's output computed here from its layers in floating point.
    #[test]
    fn a_narrower_network_starts_a_wider_one_that_evaluates_alike() {
        let wide = Params::random(&mut Rng::new(5), 8, KingLayout::PLAIN).quantise(113.0).to_layers();
        // Keep the first half of the neurons of each layer.
        let h = H / 2;
        let narrow = Layers {
            hidden: h,
            weights: wide.weights.chunks_exact(H).flat_map(|c| c[..h].to_vec()).collect(),
            bias: wide.bias[..h].to_vec(),
            out_weights: wide.out_weights.chunks_exact(H).flat_map(|c| c[..h].to_vec()).collect(),
            ..wide.clone()
        };
        let widened = Params::from_layers(&narrow, 8, KingLayout::PLAIN, &mut Rng::new(6)).unwrap().quantise(113.0);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let views = [pos.turn(), pos.turn().flip()].map(|side| {
                let board = pos.board();
                let mut acc: Vec<f32> = narrow.bias.iter().map(|&b| f32::from(b) / QA as f32).collect();
                for sq in board.occupied() {
                    let f = feature(side, board.piece_at(sq).unwrap(), sq);
                    for (a, &w) in acc.iter_mut().zip(&narrow.weights[f * h..(f + 1) * h]) {
                        *a += f32::from(w) / QA as f32;
                    }
                }
                acc
            });
            let bucket = Network::bucket_of(pos.board().occupied().count(), 8);
            let out = &narrow.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
            let mut y = narrow.out_bias[bucket] as f32 / (QA * QB) as f32;
            for (x, &w) in views.concat().iter().zip(out) {
                y += x.clamp(0.0, 1.0) * f32::from(w) / QB as f32;
            }
            let expected = y * 113.0;
            let got = widened.evaluate(&pos) as f32;
            assert!((got - expected).abs() <= 2.0, "{fen}: {got} against {expected}");
        }
        // The narrow network read at full width (its other neurons silent, as `Network::from_bytes` reads a
        // narrower file) starts the same network: the silent neurons start afresh rather than never learn.
        let read_wide = Params::from_layers(&narrow.widened(H), 8, KingLayout::PLAIN, &mut Rng::new(6)).unwrap();
        let fresh = Params::from_layers(&narrow, 8, KingLayout::PLAIN, &mut Rng::new(6)).unwrap();
        assert_eq!((read_wide.w1, read_wide.b1), (fresh.w1.clone(), fresh.b1));
        assert_eq!((read_wide.w2, read_wide.b2), (fresh.w2, fresh.b2));
        assert!(fresh.w1[h..H].iter().any(|&w| w != 0.0));
        // A wider network cannot start a narrower one.
        let mut too_wide = narrow.clone();
        too_wide.hidden = H + 1;
        assert!(Params::from_layers(&too_wide, 8, KingLayout::PLAIN, &mut Rng::new(6)).is_err());
    }

    #[test]
    fn a_network_read_back_quantises_to_itself() {
        for buckets in [1, 8] {
            let params = Params::random(&mut Rng::new(3), buckets, KingLayout::PLAIN);
            let net = params.quantise(113.0);
            assert_eq!(net.buckets(), buckets);
            let back = from_network(&net, buckets).unwrap();
            assert_eq!(back.quantise(113.0).to_bytes(), net.to_bytes());
        }
        let embedded = Network::embedded();
        let scale = embedded.scale() as f32;
        let back = from_network(&embedded, embedded.buckets()).unwrap();
        assert_eq!(back.quantise(scale).to_bytes(), embedded.to_bytes());
        // One bucket starts eight that evaluate alike; eight cannot start three.
        let one = Params::random(&mut Rng::new(4), 1, KingLayout::PLAIN).quantise(113.0);
        let eight = from_network(&one, 8).unwrap().quantise(113.0);
        for fen in
            ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"]
        {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(eight.evaluate(&pos), one.evaluate(&pos), "{fen}");
        }
        assert!(from_network(&eight, 3).is_err());
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = data_of(
            KingLayout::PLAIN,
            &[
                ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0.55),
                ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1", 0.3),
                ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0.8),
            ],
        );
        let mut rng = Rng::new(5);
        let params = Params::random(&mut rng, 8, KingLayout::PLAIN);
        // The first two positions (32 pieces) are read by the last bucket, the third (10) by the third.
        assert_eq!(data.pieces(2), 10);
        let (top, third) = (7 * 2 * H, 2 * 2 * H);
        let grad = summed_gradient(&params, &data);
        // Parameters the positions touch: a first-layer weight of a white pawn on e2 (both views of it),
        // a bias, output weights of both sides, the output bias.
        let e2 = white_pawn("e2");
        let probes: Vec<(&str, usize)> = vec![
            ("w1", e2 * H + 3),
            ("w1", e2 * H + 100),
            ("b1", 7),
            ("w2", top + 11),
            ("w2", top + H + 20),
            ("w2", third + 5),
            ("w2", third + H + 30),
            ("b2", 7),
            ("b2", 2),
        ];
        for (name, i) in probes {
            let what = format!("{name}[{i}]");
            check_derivative(
                &params,
                &data,
                &grad,
                |p| match name {
                    "w1" => &mut p.w1[i],
                    "b1" => &mut p.b1[i],
                    "w2" => &mut p.w2[i],
                    _ => &mut p.b2[i],
                },
                &what,
            );
        }
    }

    #[test]
    fn a_symmetric_plain_network_starts_king_buckets_that_evaluate_alike() {
        // Left-right symmetric first-layer weights: a mirrored layout sees what the plain one sees.
        let mut params = Params::random(&mut Rng::new(12), 8, KingLayout::PLAIN);
        let given = params.w1.clone();
        for f in 0..INPUTS {
            for j in 0..H {
                params.w1[f * H + j] = (given[f * H + j] + given[(f ^ 7) * H + j]) / 2.0;
            }
        }
        let plain = params.quantise(113.0);
        for kings in [KingLayout::MIRRORED, FOUR] {
            let started = Params::from_layers(&plain.to_layers(), 8, kings, &mut Rng::new(0)).unwrap();
            assert_eq!(started.w1.len(), INPUTS * H * input_sets(&kings));
            let net = started.quantise(113.0);
            assert_eq!(net.kings(), &kings);
            let mut rng = Rng::new(13);
            for plies in [0, 9, 30, 70, 120] {
                let choices: Vec<usize> = (0..plies).map(|_| rng.next_u64() as usize).collect();
                let pos = random_game(Position::startpos(), &choices);
                assert_eq!(net.evaluate(&pos), plain.evaluate(&pos), "{}", pos.to_fen());
            }
            // Read back, it goes on as it was: bucket weights merged, no factor left.
            let again = Params::from_layers(&net.to_layers(), 8, kings, &mut Rng::new(0)).unwrap();
            assert_eq!(again.quantise(113.0).to_bytes(), net.to_bytes());
        }
        // Another layout cannot start a different one.
        let four = Params::random(&mut Rng::new(14), 8, FOUR).quantise(113.0);
        assert!(Params::from_layers(&four.to_layers(), 8, KingLayout::MIRRORED, &mut Rng::new(0)).is_err());
    }

    #[test]
    fn the_factor_learns_from_every_king_bucket() {
        // Kings at home, castled and walked up: three king buckets, and both sides of the board.
        let data = data_of(
            FOUR,
            &[
                ("r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1", 0.55),
                ("r4rk1/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R4RK1 b - - 0 1", 0.3),
                ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0.8),
            ],
        );
        let params = Params::random(&mut Rng::new(15), 8, FOUR);
        let grad = summed_gradient(&params, &data);
        // A white pawn on e2... as white sees it with the king on e1 (bucket 0) and g1 (bucket 1); the
        // factor's row of that input.
        let pawn = white_pawn("f2");
        let factor = 4 * INPUTS + pawn;
        // A neuron both kings' pawns move (one inside its clipped range in both positions).
        let j = (0..H)
            .find(|&j| grad.w1[pawn * H + j] != 0.0 && grad.w1[(INPUTS + pawn) * H + j] != 0.0)
            .expect("some neuron is open in both positions");
        for row in [pawn, INPUTS + pawn, factor] {
            let i = row * H + j;
            assert!(grad.w1[i] != 0.0, "row {row} untouched");
            check_derivative(&params, &data, &grad, |p| &mut p.w1[i], &format!("row {row}"));
        }
        // The factor's gradient is the sum of its buckets'.
        let sum = grad.w1[pawn * H + j] + grad.w1[(INPUTS + pawn) * H + j];
        assert!((grad.w1[factor * H + j] - sum).abs() <= 1e-6 + 1e-4 * sum.abs());
    }

    #[test]
    fn quantised_network_follows_the_real_one() {
        let mut data = Data::default();
        let pos = Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8").unwrap();
        data.push(&pos, 0.5);
        let params = Params::random(&mut Rng::new(9), 8, KingLayout::PLAIN);
        let real = params.forward(&data, 0, &mut [[0.0; H]; 2]) * 113.0;
        let quantised = params.quantise(113.0).evaluate(&pos) as f32;
        // Rounding each of ~200,000 weights moves the output by a few centipawns at most.
        assert!((real - quantised).abs() < 8.0, "{real} against {quantised}");
    }
}
