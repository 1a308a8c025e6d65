//! `nnue-fit`: trains a game's network ([`tabula_nnue`] on its board) and writes its weights file:
//!
//! ```text
//! chess nnue-fit DATA OUT [--epochs N] [--share X] [--scale CP] [--threads N] [--no-mirror] [--start NET] [--rate R]
//!      [--buckets N] [--keep-best] [--kings LAYOUT]
//! xiangqi nnue-fit DATA OUT ... (the same options)
//! ```
//!
//! `DATA` holds `FEN;score;result` lines (the first player's point of view: White's, Red's) as chess's
//! `nnue-gen` or `nnue-label` writes them; `OUT` is the network's weights file, which the game's engine reads
//! (chess embeds one as `src/eval/default.tbnn`). Training is Adam on minibatches of 4,096 positions, `--epochs`
//! passes (20 by default; the learning rate 10⁻³, a tenth of it for the last fifth), minimising the squared
//! error between `sigmoid(y)` and the target `share · sigmoid(score / scale) + (1 − share) · result` for the
//! side to move (`share` 0.75 by default; `scale` 113 centipawns for chess, the tapered evaluation's fitted
//! scale, and 100 for xiangqi, a pawn in its evaluation; the network evaluates `y · scale`). The last twentieth
//! of the file is held out and its loss reported per epoch; the rest is trained on twice, as given and mirrored
//! left to right by the board's geometry (chess's file `f` to `7 − f`, xiangqi's to `8 − f`), unless
//! `--no-mirror` is given. A mirrored king layout sees a position and its mirror image through the same inputs
//! when neither king stands on a middle file, and such copies are left out: every one of chess's, while
//! xiangqi's king on file e is never mirrored, so the copies of those positions are what teach the network
//! the symmetry there. Given a `--start` network (a file, or `<embedded>` for the game's own), training goes on
//! from its weights at a tenth of the learning rate instead of from random ones; `--rate` sets the rate either
//! way. The start network may be narrower than this build's (`HIDDEN`): the neurons it lacks start with random
//! input weights and no output weight, so that training begins from its evaluations. The game's evaluation's
//! and the embedded network's losses on the held-out positions are reported first. The weights written are the
//! last pass's, or with `--keep-best` those of the pass with the lowest held-out loss (a wide network on little
//! data overfits after a few passes). Progress goes to standard error. The network itself, its gradient and
//! their tests are the [`trainer`](super::trainer)'s; how chess's embedded networks were trained is in
//! [`chess`](crate::chess).

use super::trainer::{gradient, loss, silent_neurons, Adam, Params, H};
use super::{read, report_losses, Game};
use anyhow::{bail, Context};
use std::time::Instant;
use tabula::rng::Rng;
use tabula_nnue::{names_embedded, Geometry, KingLayout, Layers, MAX_BUCKETS};

/// What `nnue-fit` trains on, how, and where it writes the network.
#[derive(clap::Args)]
pub struct Training<G: Game> {
    /// `FEN;score;result` lines, as `nnue-gen` or `nnue-label` writes them.
    pub data: String,
    /// The network file to write.
    pub out: String,
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// The share of the score in the target, the rest being the game's result.
    #[arg(long, default_value_t = 0.75)]
    pub share: f32,
    /// Centipawns per unit of the network's output [default: the game's, chess 113 and xiangqi 100].
    // Not `default_value_t = G::SCALE`: clap keeps that default's text in a static, which every game's
    // `Training` would share.
    #[arg(long)]
    pub scale: Option<f32>,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Train on the positions as given only, not also mirrored left to right.
    #[arg(long)]
    pub no_mirror: bool,
    /// Go on from this network's weights (a file, or `<embedded>` for the game's own) instead of random ones; a
    /// narrower network's missing neurons start with random input weights and no output weight.
    #[arg(long)]
    pub start: Option<String>,
    /// The learning rate (10⁻³ from random weights, 10⁻⁴ from a start network by default).
    #[arg(long)]
    pub rate: Option<f32>,
    /// Output buckets (by the number of pieces): by default the start network's, or 8 from random weights.
    /// A network of one bucket starts each of more buckets.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_BUCKETS as i64))]
    pub buckets: Option<u32>,
    /// Write the weights of the pass with the lowest held-out loss rather than the last pass's.
    #[arg(long)]
    pub keep_best: bool,
    /// The king layout of the first layer's inputs (chess: `plain`, `mirrored` or `four`; xiangqi: `plain`,
    /// `mirrored` or `palace`; see `KingLayout::NAMED`): by default the start network's, or plain. A plain
    /// network starts any other, its weights becoming the factor every king bucket adds to.
    #[arg(long, value_parser = parse_kings::<G::Geometry>)]
    pub kings: Option<KingLayout<G::Geometry>>,
}

fn parse_kings<B: Geometry>(name: &str) -> Result<KingLayout<B>, String> {
    KingLayout::named(name).ok_or_else(|| {
        let names: Vec<&str> = KingLayout::<B>::NAMED.iter().map(|(n, _)| *n).collect();
        format!("no king layout {name:?}: one of {}", names.join(", "))
    })
}

/// Trains on `data` for `epochs` and writes the weights file `out`: from random weights, or from the
/// network `start` (a file, or `<embedded>` for the game's own) at a tenth of the learning rate, unless `rate`
/// is given.
pub fn run<G: Game>(training: &Training<G>) -> anyhow::Result<()> {
    let Training {
        data: ref path,
        ref out,
        epochs,
        share,
        scale,
        threads,
        no_mirror,
        ref start,
        rate,
        buckets,
        keep_best,
        kings,
    } = *training;
    let scale = scale.unwrap_or(G::SCALE);
    let started = Instant::now();
    // A file may be narrower than this build's networks: the trainer widens it.
    let start = match start {
        None => None,
        Some(name) if names_embedded(name) => Some((name, super::open_network::<G>(name)?.to_layers())),
        Some(name) => {
            let bytes = std::fs::read(name).with_context(|| format!("cannot read {name}"))?;
            Some((name, Layers::from_bytes(&bytes).with_context(|| format!("cannot read the network {name}"))?))
        }
    };
    let kings = kings.or(start.as_ref().map(|(_, layers)| layers.kings)).unwrap_or_default();
    let (all, fens) = read::<G>(path, share, scale, kings, !no_mirror)?;
    if all.positions() < 20 {
        bail!("{path}: {} positions are too few to train on and hold out a twentieth", all.positions());
    }
    // The last twentieth of the file (the latest games) is held out.
    let cut = all.positions() - all.positions() / 20;
    let (train, valid) = all.split(cut);
    eprintln!("{} training, {} held out, read in {:.1?}", train.len(), valid.len(), started.elapsed());
    // The game's evaluation's and the embedded network's losses on the held-out positions, for comparison.
    let embedded: Vec<_> = G::embedded().map(|net| ("the embedded network", net)).into_iter().collect();
    report_losses::<G>(&fens[cut..], valid.targets(), scale, &embedded, "held-out ");
    let mut rng = Rng::new(0x6e6e_7565);
    let (mut params, default_rate) = match start {
        None => (Params::random(&mut rng, buckets.map_or(8, |b| b as usize), kings), 1e-3),
        Some((start, layers)) => {
            // The weights mean `y · scale` centipawns: another scale would change every evaluation.
            if layers.scale as f32 != scale {
                bail!("{start} has scale {}, training asks for {scale}", layers.scale);
            }
            let silent = silent_neurons(&layers).iter().filter(|&&s| s).count();
            if layers.hidden < H || silent > 0 {
                eprintln!(
                    "{start} has {} hidden neurons, {silent} of them silent: {} start afresh",
                    layers.hidden,
                    H - layers.hidden + silent
                );
            }
            let buckets = buckets.map_or(layers.out_bias.len(), |b| b as usize);
            (Params::from_layers(&layers, buckets, kings, &mut rng)?, 1e-4)
        }
    };
    eprintln!("{} output buckets, {} king buckets", params.buckets(), kings.buckets());
    let rate = rate.unwrap_or(default_rate);
    let mut adam = Adam::new(&params);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    const BATCH: usize = 4_096;
    // The pass with the lowest held-out loss so far, its number and its weights (with `keep_best`).
    let mut best: Option<(f64, usize, Params<G::Geometry>)> = None;
    for epoch in 1..=epochs {
        // A tenth of the rate for the last fifth of the epochs.
        let lr = if epoch * 5 <= epochs * 4 { rate } else { rate / 10.0 };
        rng.shuffle(&mut order);
        let mut train_loss = 0.0;
        for batch in order.chunks(BATCH) {
            let (grad, batch_loss) = gradient(&params, &train, batch, threads);
            train_loss += batch_loss;
            adam.step(&mut params, &grad, lr, batch.len());
        }
        let held_out = loss(&params, &valid, threads);
        eprintln!(
            "epoch {epoch}: loss {:.6} train, {held_out:.6} held out ({:.0?})",
            train_loss / train.len() as f64,
            started.elapsed()
        );
        if keep_best && !best.as_ref().is_some_and(|(lowest, _, _)| *lowest <= held_out) {
            best = Some((held_out, epoch, params.clone()));
        }
    }
    if let Some((held_out, epoch, kept)) = best {
        eprintln!("keeping pass {epoch} (held-out loss {held_out:.6})");
        params = kept;
    }
    let net = params.quantise(scale);
    std::fs::write(out, net.to_bytes()).with_context(|| format!("cannot write {out}"))?;
    // How far quantisation moves the evaluations, on held-out positions.
    let (mut diff, mut n) = (0.0, 0);
    let mut acc = [[0.0; H]; 2];
    for (i, fen) in fens[cut..].iter().enumerate().take(2000) {
        let pos = G::from_fen(fen).expect("read before");
        let real = params.forward(&valid, i, &mut acc) * scale;
        diff += (real - net.evaluate(&pos) as f32).abs();
        n += 1;
    }
    eprintln!("wrote {out}; quantised evaluations differ by {:.2} cp on average", diff / n.max(1) as f32);
    Ok(())
}
