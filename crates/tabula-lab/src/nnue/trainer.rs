//! The network's trainer: a network of [`tabula_nnue`] on any board ([`Geometry`]) in `f32`, trained by Adam
//! on minibatches to predict, through `sigmoid(y)`, a blend of the search's score (as `sigmoid(score / scale)`)
//! and the game's result, then quantised into a weights file.
//!
//! Hand-written rather than on a tensor library: the network is one hidden layer over sparse inputs (about 30
//! of chess's 768 or xiangqi's 1,260 active per side), so forward and backward passes touch only the active
//! columns, a few dozen lines each; a dense framework would multiply zeros, and this loop is checked against
//! finite differences below, on both boards.

use anyhow::bail;
use tabula::rng::Rng;
use tabula_board::{ColoredPiece, Square};
use tabula_nnue::{Geometry, KingLayout, Layers, NetPosition, Network, SquareOf, HIDDEN, QA, QB};

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

/// `sq` mirrored left to right by the geometry (chess: file `f` to `7 − f`; xiangqi: `8 − f`).
fn mirror<B: Geometry>(sq: SquareOf<B>) -> SquareOf<B> {
    SquareOf::<B>::from_index_unchecked(B::orient(sq.index(), B::orientation(false, true)))
}

/// Training entries: the active features of each entry from each side's point of view, side to move, target.
/// An entry is a position as given or, where [`Data::new`] asks for them, the mirror image of the position
/// before it.
pub struct Data<B: Geometry> {
    /// The inputs the features are of.
    kings: KingLayout<B>,
    /// Whether each position is followed by its mirror image.
    mirror: bool,
    /// `[the first side's view, the second side's]` per piece.
    features: Vec<[u16; 2]>,
    /// Where each entry's features start in `features` (one more than entries).
    starts: Vec<u32>,
    second_to_move: Vec<bool>,
    /// The expected score for the side to move.
    targets: Vec<f32>,
    /// The entry of each position pushed (the entries between are mirror images).
    positions: Vec<u32>,
}

impl<B: Geometry> Data<B> {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// The number of positions pushed (mirror images aside).
    pub fn positions(&self) -> usize {
        self.positions.len()
    }

    /// No positions yet, their features to be those of the king layout `kings`. With `mirror`, each position
    /// pushed is followed by its mirror image left to right (the network sees the placement alone, which is as
    /// good mirrored, castling rights aside), unless the layout sees the mirror image through the same inputs
    /// (a mirrored layout with neither king on a middle file, which is every chess position): a copy that is
    /// the position itself, input for input, would teach nothing.
    ///
    /// # Panics
    ///
    /// If the layout has more inputs than a `u16` numbers.
    pub fn new(kings: KingLayout<B>, mirror: bool) -> Data<B> {
        assert!(B::INPUTS * kings.buckets() <= 1 << 16, "inputs fit u16");
        let (features, second_to_move, targets, positions) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        Data { kings, mirror, features, starts: vec![0], second_to_move, targets, positions }
    }

    /// Adds `pos` and its target for the side to move (and its mirror image, with the same target, if asked
    /// for).
    pub fn push<P: NetPosition<Geometry = B>>(&mut self, pos: &P, target_for_side_to_move: f32) {
        self.positions.push(self.len() as u32);
        let second_to_move = B::Piece::color_index(pos.turn()) == 1;
        let start = self.features.len();
        self.push_features(pos, self.kings.views(pos), |sq| sq);
        self.close(second_to_move, target_for_side_to_move);
        if self.mirror {
            // Each side sees the mirror image through the view of its king mirrored.
            let king = |side| pos.king_of(side).map(mirror::<B>).unwrap_or(SquareOf::<B>::from_index_unchecked(0));
            let views = B::Piece::COLORS.map(|side| self.kings.view(side, king(side)));
            let end = self.features.len();
            self.push_features(pos, views, mirror::<B>);
            if self.features[start..end] == self.features[end..] {
                self.features.truncate(end);
            } else {
                self.close(second_to_move, target_for_side_to_move);
            }
        }
    }

    /// Appends the features of `pos`'s pieces, each on the square `to` gives, seen through `views`.
    fn push_features<P: NetPosition<Geometry = B>>(
        &mut self,
        pos: &P,
        views: [tabula_nnue::View<B>; 2],
        to: impl Fn(SquareOf<B>) -> SquareOf<B>,
    ) {
        let [first, second] = B::Piece::COLORS;
        for sq in pos.occupied() {
            let piece = pos.piece_at(sq).expect("occupied");
            let [a, b] = [views[0].feature(first, piece, to(sq)), views[1].feature(second, piece, to(sq))];
            self.features.push([a as u16, b as u16]);
        }
    }

    /// Ends the entry whose features were appended last.
    fn close(&mut self, second_to_move: bool, target: f32) {
        self.starts.push(self.features.len() as u32);
        self.second_to_move.push(second_to_move);
        self.targets.push(target);
    }

    /// The target of each entry, for the side to move.
    pub fn targets(&self) -> &[f32] {
        &self.targets
    }

    /// The positions before `cut` with their mirror images, and the positions from `cut` on as given: the
    /// training and the held-out entries.
    pub fn split(mut self, cut: usize) -> (Data<B>, Data<B>) {
        let at = self.positions.get(cut).map_or(self.len(), |&entry| entry as usize);
        let mut valid = Data::new(self.kings, false);
        for &entry in &self.positions[cut..] {
            let i = entry as usize;
            valid.positions.push(valid.len() as u32);
            valid.features.extend_from_slice(&self.features[self.starts[i] as usize..self.starts[i + 1] as usize]);
            valid.close(self.second_to_move[i], self.targets[i]);
        }
        self.features.truncate(self.starts[at] as usize);
        self.starts.truncate(at + 1);
        self.second_to_move.truncate(at);
        self.targets.truncate(at);
        self.positions.truncate(cut);
        (self, valid)
    }

    /// The number of pieces of entry `i`.
    fn pieces(&self, i: usize) -> u32 {
        self.starts[i + 1] - self.starts[i]
    }

    /// The features of entry `i` from the side to move's point of view and the other's.
    fn views(&self, i: usize) -> (impl Iterator<Item = usize> + '_, impl Iterator<Item = usize> + '_) {
        let span = &self.features[self.starts[i] as usize..self.starts[i + 1] as usize];
        let us = self.second_to_move[i] as usize;
        (span.iter().map(move |f| f[us] as usize), span.iter().map(move |f| f[1 - us] as usize))
    }
}

/// The network in `f32`.
#[derive(Clone)]
pub struct Params<B: Geometry> {
    /// The inputs of the first layer.
    pub kings: KingLayout<B>,
    /// Input by input, `H` each, king bucket by king bucket; with more than one king bucket, one more set of
    /// [`Geometry::INPUTS`] (the *factor*) that every bucket's inputs add to, so that what holds wherever the king
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
pub fn silent_neurons<B: Geometry>(layers: &Layers<B>) -> Vec<bool> {
    let h = layers.hidden;
    (0..h)
        .map(|j| {
            layers.bias[j] == 0
                && layers.weights.iter().skip(j).step_by(h).all(|&w| w == 0)
                && layers.out_weights.iter().skip(j).step_by(h).all(|&w| w == 0)
        })
        .collect()
}

/// The sets of [`Geometry::INPUTS`] first-layer weights a trainer keeps for `kings`: one per king bucket, and the
/// factor where there are several.
fn input_sets<B: Geometry>(kings: &KingLayout<B>) -> usize {
    let n = kings.buckets();
    if n > 1 {
        n + 1
    } else {
        1
    }
}

impl<B: Geometry> Params<B> {
    pub fn random(rng: &mut Rng, buckets: usize, kings: KingLayout<B>) -> Params<B> {
        let mut uniform = |scale: f64| ((rng.unit() * 2.0 - 1.0) * scale) as f32;
        Params {
            kings,
            w1: (0..B::INPUTS * input_sets(&kings) * H).map(|_| uniform(0.15)).collect(),
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
    pub fn from_layers(
        layers: &Layers<B>,
        buckets: usize,
        kings: KingLayout<B>,
        rng: &mut Rng,
    ) -> anyhow::Result<Params<B>> {
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
        let set = B::INPUTS * H;
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

    fn zeros(buckets: usize, kings: KingLayout<B>) -> Params<B> {
        Params {
            kings,
            w1: vec![0.0; B::INPUTS * input_sets(&kings) * H],
            b1: vec![0.0; H],
            w2: vec![0.0; 2 * H * buckets],
            b2: vec![0.0; buckets],
        }
    }

    /// Where position `i`'s output neuron's weights start in `w2`, and its bucket.
    fn output_of(&self, data: &Data<B>, i: usize) -> (usize, usize) {
        let bucket = Network::<B>::bucket_of(data.pieces(i), self.buckets());
        (bucket * 2 * H, bucket)
    }

    /// The rows of `w1` that input `f` adds: its own, and its factor's if there is one.
    fn rows(&self, f: usize) -> impl Iterator<Item = usize> {
        let factor = (input_sets(&self.kings) > 1).then(|| self.kings.buckets() * B::INPUTS + f % B::INPUTS);
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
    pub fn forward(&self, data: &Data<B>, i: usize, acc: &mut [[f32; H]; 2]) -> f32 {
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
    fn backward(&self, data: &Data<B>, i: usize, acc: &mut [[f32; H]; 2], grad: &mut Params<B>) -> f32 {
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

    /// The quantised network with `scale` centipawns per unit (see [`tabula_nnue`]'s quantisation).
    pub fn quantise(&self, scale: f32) -> Network<B> {
        let q =
            |xs: &[f32], scale: i32| -> Vec<i16> { xs.iter().map(|&w| (w * scale as f32).round() as i16).collect() };
        let out_bias: Vec<i32> = self.b2.iter().map(|b| (b * (QA * QB) as f32).round() as i32).collect();
        // Each king bucket's weights with the factor's added, kept within the clip bound.
        let set = B::INPUTS * H;
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
pub fn loss<B: Geometry>(params: &Params<B>, data: &Data<B>, threads: usize) -> f64 {
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

/// The summed gradient and loss of the positions `batch` of `data`, split over `threads`.
pub fn gradient<B: Geometry>(params: &Params<B>, data: &Data<B>, batch: &[u32], threads: usize) -> (Params<B>, f64) {
    let chunk = batch.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Params<B>, f64)> = std::thread::scope(|s| {
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
    pub fn new<B: Geometry>(params: &Params<B>) -> Adam {
        let n = params.values().count();
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    /// One step on the mean of the summed gradient `grad` over `n` positions; weights stay within their
    /// clip bounds.
    pub fn step<B: Geometry>(&mut self, params: &mut Params<B>, grad: &Params<B>, lr: f32, n: usize) {
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
    //! Each check is generic over the board and runs on chess's and xiangqi's positions; what only chess has
    //! (an embedded network) is checked for chess alone.

    use super::*;
    use tabula::game::Game;
    use tabula_board::testing::random_game;
    use tabula_chess::engine::eval::nnue::{ChessGeometry, FOUR};
    use tabula_nnue::{ColorOf, PieceOf};
    use tabula_xiangqi::engine::nnue::{XiangqiGeometry, PALACE};

    /// A board's position, as the checks take it.
    trait Board: NetPosition + Game + Clone {}
    impl<P: NetPosition + Game + Clone> Board for P {}

    fn chess(fen: &str) -> tabula_chess::Position {
        tabula_chess::Position::from_fen(fen).unwrap()
    }

    fn xiangqi(fen: &str) -> tabula_xiangqi::Position {
        tabula_xiangqi::Position::from_fen(fen).unwrap()
    }

    /// The first player's colour.
    fn first<B: Geometry>() -> ColorOf<B> {
        B::Piece::COLORS[0]
    }

    /// Chess positions: the start, a middlegame with Black to move, an ending of 10 pieces.
    fn chess_positions() -> Vec<tabula_chess::Position> {
        [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ]
        .map(chess)
        .to_vec()
    }

    /// Xiangqi positions: the start, a middlegame with Black to move and Red's king off its back rank, an ending
    /// of 10 pieces.
    fn xiangqi_positions() -> Vec<tabula_xiangqi::Position> {
        [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/4K4/R1BA1AB1R b - - 0 1",
            "3ak4/4a4/4b4/9/9/2P6/9/4B4/4A4/3AK1R2 w - - 0 1",
        ]
        .map(xiangqi)
        .to_vec()
    }

    fn from_network<B: Geometry>(net: &Network<B>, buckets: usize) -> anyhow::Result<Params<B>> {
        Params::from_layers(&net.to_layers(), buckets, *net.kings(), &mut Rng::new(0))
    }

    /// Training data of `positions` (with their targets) for the king layout `kings`.
    fn data_of<P: Board>(kings: KingLayout<P::Geometry>, positions: &[(P, f32)]) -> Data<P::Geometry> {
        let mut data = Data::new(kings, false);
        for (pos, target) in positions {
            data.push(pos, *target);
        }
        data
    }

    /// `positions`, each with a target between 0.3 and 0.8.
    fn with_targets<P: Board>(positions: &[P]) -> Vec<(P, f32)> {
        positions.iter().enumerate().map(|(i, pos)| (pos.clone(), 0.3 + 0.25 * (i % 3) as f32)).collect()
    }

    /// The gradient of the loss summed over all of `data` at `params`.
    fn summed_gradient<B: Geometry>(params: &Params<B>, data: &Data<B>) -> Params<B> {
        let batch: Vec<u32> = (0..data.len() as u32).collect();
        gradient(params, data, &batch, 2).0
    }

    /// The first-layer input of `piece` on `sq` as the first player sees it in the plain layout.
    fn plain_input<B: Geometry>(piece: PieceOf<B>, sq: SquareOf<B>) -> usize {
        let view = KingLayout::<B>::PLAIN.view(first::<B>(), SquareOf::<B>::from_index_unchecked(0));
        view.feature(first::<B>(), piece, sq)
    }

    /// Checks `grad`, the [`summed_gradient`] over `data` at `params`, against central differences of the summed
    /// loss, at the parameter `at` picks (`what`, in the failure's message).
    fn check_derivative<B: Geometry>(
        params: &Params<B>,
        data: &Data<B>,
        grad: &Params<B>,
        at: impl Fn(&mut Params<B>) -> &mut f32,
        what: &str,
    ) {
        let total = |p: &Params<B>| loss(p, data, 1) * data.len() as f64;
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

    /// A network of half the width starts a full one that evaluates as it does on `positions`: checked against
    /// the narrow network's output computed here from its layers in floating point.
    fn check_narrower_network_starts_wider<P: Board>(positions: &[P]) {
        type B<P> = <P as NetPosition>::Geometry;
        let wide = Params::random(&mut Rng::new(5), 8, KingLayout::<B<P>>::PLAIN).quantise(113.0).to_layers();
        // Keep the first half of the neurons of each layer.
        let h = H / 2;
        let narrow = Layers {
            hidden: h,
            weights: wide.weights.chunks_exact(H).flat_map(|c| c[..h].to_vec()).collect(),
            bias: wide.bias[..h].to_vec(),
            out_weights: wide.out_weights.chunks_exact(H).flat_map(|c| c[..h].to_vec()).collect(),
            ..wide.clone()
        };
        let plain = KingLayout::<B<P>>::PLAIN;
        let widened = Params::from_layers(&narrow, 8, plain, &mut Rng::new(6)).unwrap().quantise(113.0);
        for pos in positions {
            let views = plain.views(pos);
            let us = <B<P> as Geometry>::Piece::color_index(pos.turn());
            let accumulators = [us, 1 - us].map(|s| {
                let side = <B<P> as Geometry>::Piece::COLORS[s];
                let mut acc: Vec<f32> = narrow.bias.iter().map(|&b| f32::from(b) / QA as f32).collect();
                for sq in pos.occupied() {
                    let f = views[s].feature(side, pos.piece_at(sq).unwrap(), sq);
                    for (a, &w) in acc.iter_mut().zip(&narrow.weights[f * h..(f + 1) * h]) {
                        *a += f32::from(w) / QA as f32;
                    }
                }
                acc
            });
            let bucket = Network::<B<P>>::bucket_of(pos.occupied().count(), 8);
            let out = &narrow.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
            let mut y = narrow.out_bias[bucket] as f32 / (QA * QB) as f32;
            for (x, &w) in accumulators.concat().iter().zip(out) {
                y += x.clamp(0.0, 1.0) * f32::from(w) / QB as f32;
            }
            let expected = y * 113.0;
            let got = widened.evaluate(pos) as f32;
            assert!((got - expected).abs() <= 2.0, "{}: {got} against {expected}", pos.to_text());
        }
        // The narrow network read at full width (its other neurons silent, as `Network::from_bytes` reads a
        // narrower file) starts the same network: the silent neurons start afresh rather than never learn.
        let read_wide = Params::from_layers(&narrow.widened(H), 8, plain, &mut Rng::new(6)).unwrap();
        let fresh = Params::from_layers(&narrow, 8, plain, &mut Rng::new(6)).unwrap();
        assert_eq!((read_wide.w1, read_wide.b1), (fresh.w1.clone(), fresh.b1));
        assert_eq!((read_wide.w2, read_wide.b2), (fresh.w2, fresh.b2));
        assert!(fresh.w1[h..H].iter().any(|&w| w != 0.0));
        // A wider network cannot start a narrower one.
        let mut too_wide = narrow.clone();
        too_wide.hidden = H + 1;
        assert!(Params::from_layers(&too_wide, 8, plain, &mut Rng::new(6)).is_err());
    }

    #[test]
    fn a_narrower_network_starts_a_wider_one_that_evaluates_alike() {
        check_narrower_network_starts_wider(&chess_positions());
        check_narrower_network_starts_wider(&xiangqi_positions());
    }

    /// Random weights of one and eight buckets survive quantisation and reading back; one bucket starts eight
    /// that evaluate alike on `positions`, and eight cannot start three.
    fn check_read_back_quantises_to_itself<P: Board>(positions: &[P]) {
        let plain = KingLayout::<P::Geometry>::PLAIN;
        for buckets in [1, 8] {
            let params = Params::random(&mut Rng::new(3), buckets, plain);
            let net = params.quantise(113.0);
            assert_eq!(net.buckets(), buckets);
            let back = from_network(&net, buckets).unwrap();
            assert_eq!(back.quantise(113.0).to_bytes(), net.to_bytes());
        }
        let one = Params::random(&mut Rng::new(4), 1, plain).quantise(113.0);
        let eight = from_network(&one, 8).unwrap().quantise(113.0);
        for pos in positions {
            assert_eq!(eight.evaluate(pos), one.evaluate(pos), "{}", pos.to_text());
        }
        assert!(from_network(&eight, 3).is_err());
    }

    #[test]
    fn a_network_read_back_quantises_to_itself() {
        check_read_back_quantises_to_itself(&chess_positions());
        check_read_back_quantises_to_itself(&xiangqi_positions());
        // Chess's embedded network too.
        let embedded = Network::<ChessGeometry>::embedded();
        let scale = embedded.scale() as f32;
        let back = from_network(&embedded, embedded.buckets()).unwrap();
        assert_eq!(back.quantise(scale).to_bytes(), embedded.to_bytes());
    }

    /// The gradient over `positions` matches finite differences at parameters the positions touch: two
    /// first-layer weights of `probe` (an input of a piece on the board in every position, as the first player
    /// sees it), a bias, output weights of both sides in the output buckets of the first and the last position
    /// (which must differ), and those buckets' output biases.
    fn check_gradient<P: Board>(positions: &[(P, f32)], probe: usize) {
        let data = data_of(KingLayout::PLAIN, positions);
        let params = Params::random(&mut Rng::new(5), 8, KingLayout::PLAIN);
        let bucket = |i: usize| Network::<P::Geometry>::bucket_of(data.pieces(i), 8);
        let (high, low) = (bucket(0), bucket(data.len() - 1));
        assert_ne!(high, low);
        let grad = summed_gradient(&params, &data);
        let (top, bottom) = (high * 2 * H, low * 2 * H);
        let probes: Vec<(&str, usize)> = vec![
            ("w1", probe * H + 3),
            ("w1", probe * H + 100),
            ("b1", 7),
            ("w2", top + 11),
            ("w2", top + H + 20),
            ("w2", bottom + 5),
            ("w2", bottom + H + 30),
            ("b2", high),
            ("b2", low),
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
    fn gradient_matches_finite_differences() {
        // The first two positions (32 pieces) are read by the last bucket, the third (10) by the third.
        let positions =
            [0.55, 0.3, 0.8].into_iter().zip(chess_positions()).map(|(t, pos)| (pos, t)).collect::<Vec<_>>();
        assert_eq!(positions[2].0.occupied().count(), 10);
        use tabula_chess::{Color, Piece, Role};
        check_gradient(
            &positions,
            plain_input::<ChessGeometry>(Piece::new(Color::White, Role::Pawn), "e2".parse().unwrap()),
        );
        let positions = with_targets(&xiangqi_positions());
        assert_eq!(positions[2].0.occupied().count(), 10);
        use tabula_xiangqi::{Color as XColor, Piece as XPiece, Role as XRole};
        let pawn = XPiece::new(XColor::Red, XRole::Pawn);
        check_gradient(&positions, plain_input::<XiangqiGeometry>(pawn, "c3".parse().unwrap()));
    }

    /// The input `f` with its square mirrored left to right (its king bucket, colour and role kept).
    fn mirror_input<B: Geometry>(f: usize) -> usize {
        f - f % B::SQUARES + B::orient(f % B::SQUARES, B::orientation(false, true))
    }

    /// Positions along random games from `start` of 0 to 120 plies.
    fn random_positions<P: Board>(start: &P, seed: u64) -> Vec<P> {
        let mut rng = Rng::new(seed);
        [0, 9, 30, 70, 120]
            .map(|plies| {
                let choices: Vec<usize> = (0..plies).map(|_| rng.next_u64() as usize).collect();
                random_game(start.clone(), &choices)
            })
            .to_vec()
    }

    /// A plain network whose first layer is symmetric left to right starts each of `layouts` (king layouts
    /// that see kings) into a network that evaluates as it does on random positions from `start`; read back,
    /// each goes on as it was. The last layout cannot start the first.
    fn check_symmetric_plain_network_starts_king_buckets<P: Board>(start: &P, layouts: &[KingLayout<P::Geometry>]) {
        type B<P> = <P as NetPosition>::Geometry;
        let inputs = B::<P>::INPUTS;
        // Left-right symmetric first-layer weights: a mirrored layout sees what the plain one sees.
        let mut params = Params::random(&mut Rng::new(12), 8, KingLayout::PLAIN);
        let given = params.w1.clone();
        for f in 0..inputs {
            let m = mirror_input::<B<P>>(f);
            for j in 0..H {
                params.w1[f * H + j] = (given[f * H + j] + given[m * H + j]) / 2.0;
            }
        }
        let plain = params.quantise(113.0);
        for &kings in layouts {
            let started = Params::from_layers(&plain.to_layers(), 8, kings, &mut Rng::new(0)).unwrap();
            assert_eq!(started.w1.len(), inputs * H * input_sets(&kings));
            let net = started.quantise(113.0);
            assert_eq!(net.kings(), &kings);
            for pos in random_positions(start, 13) {
                assert_eq!(net.evaluate(&pos), plain.evaluate(&pos), "{}", pos.to_text());
            }
            // Read back, it goes on as it was: bucket weights merged, no factor left.
            let again = Params::from_layers(&net.to_layers(), 8, kings, &mut Rng::new(0)).unwrap();
            assert_eq!(again.quantise(113.0).to_bytes(), net.to_bytes());
        }
        // Another layout cannot start a different one.
        let (&first, &last) = (layouts.first().unwrap(), layouts.last().unwrap());
        let other = Params::random(&mut Rng::new(14), 8, last).quantise(113.0);
        assert!(Params::from_layers(&other.to_layers(), 8, first, &mut Rng::new(0)).is_err());
    }

    #[test]
    fn a_symmetric_plain_network_starts_king_buckets_that_evaluate_alike() {
        check_symmetric_plain_network_starts_king_buckets(
            &tabula_chess::Position::startpos(),
            &[KingLayout::MIRRORED, FOUR],
        );
        check_symmetric_plain_network_starts_king_buckets(
            &tabula_xiangqi::Position::startpos(),
            &[KingLayout::MIRRORED, PALACE],
        );
    }

    /// With the king layout `kings`, the first player's king in one bucket in the first position and another
    /// in the second, an input `piece` on `sq` (on the board in both, seen unmirrored) and the factor's row of
    /// it are each moved by the gradient as finite differences say, the factor's by the sum of its buckets'.
    fn check_factor_learns_from_every_bucket<P: Board>(
        kings: KingLayout<P::Geometry>,
        positions: &[(P, f32)],
        piece: PieceOf<P::Geometry>,
        sq: SquareOf<P::Geometry>,
    ) {
        type B<P> = <P as NetPosition>::Geometry;
        let inputs = B::<P>::INPUTS;
        let data = data_of(kings, positions);
        let params = Params::random(&mut Rng::new(15), 8, kings);
        let grad = summed_gradient(&params, &data);
        // The piece as the first player sees it in each of the two positions: one input, two buckets.
        let [home, away] = [0, 1].map(|i| kings.views(&positions[i].0)[0].feature(first::<B<P>>(), piece, sq));
        assert_eq!(home % inputs, away % inputs);
        assert_ne!(home / inputs, away / inputs);
        let factor = kings.buckets() * inputs + home % inputs;
        // A neuron the piece moves in both positions (one inside its clipped range in both).
        let j = (0..H)
            .find(|&j| grad.w1[home * H + j] != 0.0 && grad.w1[away * H + j] != 0.0)
            .expect("some neuron is open in both positions");
        for row in [home, away, factor] {
            let i = row * H + j;
            assert!(grad.w1[i] != 0.0, "row {row} untouched");
            check_derivative(&params, &data, &grad, |p| &mut p.w1[i], &format!("row {row}"));
        }
        // The factor's gradient is the sum of its buckets'.
        let sum = grad.w1[home * H + j] + grad.w1[away * H + j];
        assert!((grad.w1[factor * H + j] - sum).abs() <= 1e-6 + 1e-4 * sum.abs());
    }

    #[test]
    fn the_factor_learns_from_every_king_bucket() {
        // Kings at home, castled and walked up: three king buckets, and both sides of the board; the white
        // pawn on f2 as white sees it with the king on e1 (bucket 0) and g1 (bucket 1).
        let positions = [
            ("r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1", 0.55),
            ("r4rk1/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R4RK1 b - - 0 1", 0.3),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0.8),
        ]
        .map(|(fen, target)| (chess(fen), target));
        let pawn = tabula_chess::Piece::new(tabula_chess::Color::White, tabula_chess::Role::Pawn);
        check_factor_learns_from_every_bucket(FOUR, &positions, pawn, "f2".parse().unwrap());
        // Red's king on e0 (bucket 0) and e1 (bucket 1) of the palace layout, its pawn on c3 in both.
        let positions = with_targets(&xiangqi_positions());
        let pawn = tabula_xiangqi::Piece::new(tabula_xiangqi::Color::Red, tabula_xiangqi::Role::Pawn);
        check_factor_learns_from_every_bucket(PALACE, &positions, pawn, "c3".parse().unwrap());
    }

    /// The network in floating point and quantised evaluate `pos` within a few centipawns.
    fn check_quantised_follows_real<P: Board>(pos: &P) {
        let mut data = Data::new(KingLayout::PLAIN, false);
        data.push(pos, 0.5);
        let params = Params::random(&mut Rng::new(9), 8, KingLayout::PLAIN);
        let real = params.forward(&data, 0, &mut [[0.0; H]; 2]) * 113.0;
        let quantised = params.quantise(113.0).evaluate(pos) as f32;
        // Rounding each of the weights moves the output by a few centipawns at most.
        assert!((real - quantised).abs() < 8.0, "{real} against {quantised}");
    }

    #[test]
    fn quantised_network_follows_the_real_one() {
        check_quantised_follows_real(&chess("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"));
        check_quantised_follows_real(&xiangqi_positions()[1]);
    }

    /// The FEN of `fen`'s position mirrored left to right (each rank read backwards; no castling rights).
    fn mirror_fen(fen: &str) -> String {
        let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
        fields[0] =
            fields[0].split('/').map(|rank| rank.chars().rev().collect::<String>()).collect::<Vec<_>>().join("/");
        if let Some(castling) = fields.get_mut(2) {
            *castling = "-".to_owned();
        }
        fields.join(" ")
    }

    /// The features of entry `i` of `data`, each side's sorted.
    fn sorted_features<B: Geometry>(data: &Data<B>, i: usize) -> [Vec<u16>; 2] {
        let span = &data.features[data.starts[i] as usize..data.starts[i + 1] as usize];
        [0, 1].map(|side| {
            let mut features: Vec<u16> = span.iter().map(|f| f[side]).collect();
            features.sort_unstable();
            features
        })
    }

    /// Pushed with their mirror images under each of the board's named king layouts, the positions of `fens`
    /// are each followed by an entry with the inputs of the position mirrored left to right (`parse` reads a
    /// FEN), unless those are the position's own; the positions held out are the originals. Returns the number
    /// of mirror images kept under each layout.
    fn mirror_images<P: Board>(fens: &[&str], parse: fn(&str) -> P) -> Vec<usize> {
        <P::Geometry as Geometry>::KING_LAYOUTS
            .iter()
            .map(|&(_, kings)| {
                let mut data = Data::new(kings, true);
                for (i, fen) in fens.iter().enumerate() {
                    data.push(&parse(fen), i as f32 / 10.0);
                }
                assert_eq!(data.positions(), fens.len());
                for (i, fen) in fens.iter().enumerate() {
                    let entry = data.positions[i] as usize;
                    let next = data.positions.get(i + 1).map_or(data.len(), |&e| e as usize);
                    let mirrored = data_of(kings, &[(parse(&mirror_fen(fen)), 0.0)]);
                    let image = if next == entry + 2 { entry + 1 } else { entry };
                    assert_eq!(sorted_features(&data, image), sorted_features(&mirrored, 0), "{fen}");
                    assert_eq!(data.targets[image], data.targets[entry]);
                    assert_eq!(data.second_to_move[image], data.second_to_move[entry]);
                }
                let copies = data.len() - data.positions();
                // Held out from the second position on, the positions as given; the first with its image.
                let (train, valid) = data.split(1);
                assert_eq!((train.positions(), valid.positions(), valid.len()), (1, fens.len() - 1, fens.len() - 1));
                assert_eq!(valid.targets(), &(1..fens.len()).map(|i| i as f32 / 10.0).collect::<Vec<_>>()[..]);
                copies
            })
            .collect()
    }

    #[test]
    fn mirror_images_follow_the_positions_that_a_layout_does_not_see_mirrored() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        // Plain: every position mirrored; mirrored (and the four buckets): none, each king sees its side alike.
        assert_eq!(mirror_images(&fens, chess), [3, 0, 0]);
        // Every input's mirror is another input (chess has no middle file).
        assert!((0..ChessGeometry::INPUTS).all(|f| mirror_input::<ChessGeometry>(f) == f ^ 7));
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/4K4/R1BA1AB1R b - - 0 1",
            "3ak4/4a4/4b4/9/9/2P6/9/4B4/4A4/3AK1R2 w - - 0 1",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/3p5/3K1R3 w - - 0 1",
        ];
        // Plain: every position mirrored. Mirrored and palace: the positions with a king on file e (the first
        // three), which no view mirrors; the last two have both kings off it, and their images are the same
        // inputs.
        assert_eq!(mirror_images(&fens, xiangqi), [5, 3, 3]);
        let start = xiangqi(fens[0]);
        assert_eq!(xiangqi(&mirror_fen(fens[0])).to_fen(), start.mirrored_left_right().to_fen());
    }
}
