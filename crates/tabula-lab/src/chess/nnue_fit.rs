//! `nnue-fit`: trains the network of `tabula_chess::engine::eval::nnue` and writes its weights file:
//!
//! ```text
//! chess nnue-fit DATA OUT [--epochs N] [--share X] [--scale CP] [--threads N] [--no-mirror] [--start NET] [--rate R]
//!      [--buckets N] [--keep-best] [--kings LAYOUT]
//! ```
//!
//! `DATA` holds `FEN;score;result` lines (white's point of view) as `nnue-gen` or `nnue-label` writes them;
//! `OUT` is the network's weights file, which `tabula-chess` reads (or embeds as `src/eval/default.tbnn`).
//! Training is Adam on minibatches of 4,096 positions, `--epochs` passes (20 by default; the learning rate
//! 10⁻³, a tenth of it for the last fifth), minimising the squared error between `sigmoid(y)` and the target
//! `share · sigmoid(score / scale) + (1 − share) · result` for the side to move (`share` 0.75 by default,
//! `scale` 113 centipawns, the tapered evaluation's fitted scale; the network evaluates `y · scale`). The last
//! twentieth of the file is held out and its loss reported per epoch; the rest is trained on twice, as given
//! and mirrored left to right, unless `--no-mirror` is given. Given a `--start` network (a file or
//! `<embedded>`), training goes on from its weights at a tenth of the learning rate instead of from random
//! ones; `--rate` sets the rate either way. The start network may be narrower than this build's (`HIDDEN`):
//! the neurons it lacks start with random input weights and no output weight, so that training begins from
//! its evaluations. The tapered evaluation's and the embedded network's losses on the held-out positions are
//! reported first. The weights written are the last pass's, or with `--keep-best` those of the pass with the
//! lowest held-out loss (a wide network on little data overfits after a few passes). Progress goes to
//! standard error. The network itself, its gradient and their tests are the [`trainer`](super::trainer)'s.
//!
//! The first network came from `nnue-gen d1.txt --games 3200 --nodes 5000 --first 1000000` (288,000 positions in 26
//! minutes, about 660,000 an hour on one niced core) and `nnue-gen d2.txt --games 27100 --nodes 1000 --first 2000000`
//! (2,430,000 positions in 34 minutes, about 4.2 million an hour) by the tapered engine, concatenated (`d2` first, so
//! that the held-out tail is of the deeper searches), and `nnue-fit d12.txt default.tbnn --epochs 12` (6.7 minutes on
//! two threads beside the generator; 33 s a pass over 5.2 million positions with their mirror images). The second added
//! `nnue-gen d4.txt --games 39100 --nodes 1000 --first 5000000` by the engine on the first network (3,620,000 positions
//! in 37 minutes), `d4`, `d2` and `d1` concatenated in that order, and `nnue-fit d421.txt second.tbnn --epochs 12
//! --threads 1` (13.3 minutes on one thread; 5.46 million positions once the endings against a bare king are left out).
//! The third went on from the second: `nnue-gen d6.txt --games 100000 --nodes 1000 --first 11000000` stopped after
//! about 20,800 games (1.88 million positions), `nnue-label d6.txt s6.txt` (1.75 million kept) and `nnue-fit s6.txt
//! third.tbnn --epochs 12 --share 1 --threads 1 --start second.tbnn` (3.7 minutes on one thread). The fourth went on
//! from the third: `nnue-gen d7.txt --games 100000 --nodes 1000 --first 12000000` by the engine on the third, stopped
//! after about 10,700 games (970,000 positions), `nnue-label d7.txt s7.txt` (912,000 kept, 32 minutes), `s6.txt` and
//! `s7.txt` concatenated in that order and `nnue-fit s67.txt fourth.tbnn --epochs 12 --share 1 --threads 1 --start
//! third.tbnn` (5 minutes on one thread for 2.37 million positions). The fifth went on from the fourth: `nnue-gen
//! d8.txt --games 100000 --nodes 1000 --threads 1 --first 13000000` and the same from 13,500,000 beside it, both
//! stopped (about 18,200 games, 1.66 million positions), `nnue-label` over both (1.56 million kept, 52 minutes),
//! `s6.txt`, `s7.txt` and `s8.txt` concatenated in that order and `nnue-fit s678.txt fifth.tbnn --epochs 12 --share 1
//! --threads 2 --start fourth.tbnn` (6 minutes on two threads for 3.76 million positions). The sixth, in the crate
//! (`src/eval/default.tbnn`), went on from the fifth on its own self-play alone (the older labelled files were not
//! kept): the same two generators from 14,000,000 and 14,500,000, stopped at 2.18 million positions, `nnue-label` (2.05
//! million kept, 70 minutes) and `nnue-fit s9.txt sixth.tbnn --epochs 12 --share 1 --threads 2 --start '<embedded>'` (3
//! minutes for 1.82 million positions).

use super::trainer::{gradient, loss, read, report_losses, silent_neurons, Adam, Params, H};
use anyhow::{bail, Context};
use std::time::Instant;
use tabula::rng::Rng;
use tabula_chess::engine::eval::nnue::{names_embedded, KingLayout, Layers, Network, DEFAULT_SCALE, MAX_BUCKETS};
use tabula_chess::Position;

/// What `nnue-fit` trains on, how, and where it writes the network.
#[derive(clap::Args)]
pub struct Training {
    /// `FEN;score;result` lines, as `nnue-gen` or `nnue-label` writes them.
    pub data: String,
    /// The network file to write.
    pub out: String,
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// The share of the score in the target, the rest being the game's result.
    #[arg(long, default_value_t = 0.75)]
    pub share: f32,
    /// Centipawns per unit of the network's output.
    #[arg(long, default_value_t = DEFAULT_SCALE as f32)]
    pub scale: f32,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Train on the positions as given only, not also mirrored left to right.
    #[arg(long)]
    pub no_mirror: bool,
    /// Go on from this network's weights (a file, or `<embedded>`) instead of random ones; a narrower
    /// network's missing neurons start with random input weights and no output weight.
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
    /// The king layout of the first layer's inputs (`plain`, `mirrored` or `four`; see
    /// `KingLayout::NAMED`): by default the start network's, or plain. A plain network starts any other,
    /// its weights becoming the factor every king bucket adds to.
    #[arg(long, value_parser = parse_kings)]
    pub kings: Option<KingLayout>,
}

fn parse_kings(name: &str) -> Result<KingLayout, String> {
    KingLayout::named(name).ok_or_else(|| {
        let names: Vec<&str> = KingLayout::NAMED.iter().map(|(n, _)| *n).collect();
        format!("no king layout {name:?}: one of {}", names.join(", "))
    })
}

/// Trains on `data` for `epochs` and writes the weights file `out`: from random weights, or from the
/// network `start` (a file, or `<embedded>`) at a tenth of the learning rate, unless `rate` is given.
pub fn run(training: &Training) -> anyhow::Result<()> {
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
    let started = Instant::now();
    // A file may be narrower than this build's networks: the trainer widens it.
    let start = match start {
        None => None,
        Some(name) if names_embedded(name) => Some((name, Network::embedded().to_layers())),
        Some(name) => {
            let bytes = std::fs::read(name).with_context(|| format!("cannot read {name}"))?;
            Some((name, Layers::from_bytes(&bytes).with_context(|| format!("cannot read the network {name}"))?))
        }
    };
    let kings = kings.or(start.as_ref().map(|(_, layers)| layers.kings)).unwrap_or_default();
    // Mirroring the positions left to right doubles them for the plain layout; a mirrored layout sees a
    // position and its mirror image alike, and a king bucket need not hold for the mirrored king.
    let mirror = !no_mirror && kings == KingLayout::PLAIN;
    let (all, fens) = read(path, share, scale, kings)?;
    if all.len() < 20 {
        bail!("{path}: {} positions are too few to train on and hold out a twentieth", all.len());
    }
    // The last twentieth of the file (the latest games) is held out.
    let cut = all.len() - all.len() / 20;
    let (train, valid) = all.split(cut, mirror);
    eprintln!("{} training, {} held out, read in {:.1?}", train.len(), valid.len(), started.elapsed());
    // The tapered evaluation's and the embedded network's losses on the held-out positions, for comparison.
    let embedded = [("the embedded network", Network::embedded())];
    report_losses(&fens[cut..], &all.targets()[cut..], scale, &embedded, "held-out ");
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
    let mut best: Option<(f64, usize, Params)> = None;
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
    for (i, fen) in fens.iter().enumerate().skip(cut).take(2000) {
        let pos = Position::from_fen(fen).expect("read before");
        let real = params.forward(&all, i, &mut acc) * scale;
        diff += (real - net.evaluate(&pos) as f32).abs();
        n += 1;
    }
    eprintln!("wrote {out}; quantised evaluations differ by {:.2} cp on average", diff / n.max(1) as f32);
    Ok(())
}
