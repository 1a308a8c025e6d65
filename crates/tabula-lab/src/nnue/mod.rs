//! The network's trainer and its commands, for every game whose board a network sees ([`tabula_nnue`]'s
//! [`Geometry`]): chess and xiangqi.
//!
//! ```text
//! tabula-lab chess   nnue-fit DATA OUT [OPTIONS] | nnue-loss DATA NET... [--share X]
//! tabula-lab xiangqi nnue-fit DATA OUT [OPTIONS] | nnue-loss DATA NET... [--share X]
//! ```
//!
//! `nnue-fit` ([`fit`]) trains a network on a data file and writes its weights file; `nnue-loss` ([`loss`])
//! compares the game's own evaluation and networks on one. Both read `FEN;score;result` lines: the search's
//! score in centipawns and the game's result (1, 0.5 or 0), both from the first player's point of view (White's,
//! Red's). What they need of a game is a [`Game`]: how to read a FEN, which positions to leave out, the
//! evaluation to compare with and the network the game embeds, if any. The network in floating point, its
//! gradient and Adam are the [`trainer`]'s, generic over the board.

pub mod fit;
pub mod loss;
mod trainer;

use crate::data::read_lines;
use anyhow::Context;
use std::sync::Arc;
use tabula_board::ColoredPiece;
use tabula_nnue::{names_embedded, ColorOf, Geometry, KingLayout, NetPosition, Network};
pub use trainer::{sigmoid, Data};

/// What the trainer reads of a game: its positions, the ones it leaves out, the evaluation it compares networks
/// with and the network it embeds.
pub trait Game: 'static {
    /// The game's name, for messages.
    const NAME: &'static str;
    /// Centipawns per unit of a network's output unless told otherwise (`nnue-fit --scale`).
    const SCALE: f32;
    /// The evaluation the networks' losses are compared with, as the reports name it.
    const EVALUATION: &'static str;
    /// The positions the trainer leaves out ([`leaves_out`](Game::leaves_out)), as the reports name them; none
    /// by default.
    const LEFT_OUT: Option<&'static str> = None;
    /// The board as the network sees it.
    type Geometry: Geometry;
    /// A position, as the network reads it.
    type Position: NetPosition<Geometry = Self::Geometry>;

    /// The position of the FEN `fen`, if it is one.
    fn from_fen(fen: &str) -> Option<Self::Position>;
    /// Whether the trainer leaves `pos` out (one the engine never asks a network about).
    fn leaves_out(_pos: &Self::Position) -> bool {
        false
    }
    /// The evaluation the losses are compared with ([`EVALUATION`](Game::EVALUATION)), in centipawns for the
    /// side to move.
    fn evaluate(pos: &Self::Position) -> i32;
    /// The network the game embeds, if any (`<embedded>` where a command takes a network).
    fn embedded() -> Option<Arc<Network<Self::Geometry>>> {
        None
    }
}

/// Whether `color` is the first player (White, Red).
fn is_first<B: Geometry>(color: ColorOf<B>) -> bool {
    B::Piece::color_index(color) == 0
}

/// The network file `name`, or the game's embedded one for `<embedded>`.
pub fn open_network<G: Game>(name: &str) -> anyhow::Result<Arc<Network<G::Geometry>>> {
    if names_embedded(name) {
        G::embedded().with_context(|| format!("{} embeds no network: {name} names no file", G::NAME))
    } else {
        Ok(Arc::new(Network::open(name).with_context(|| format!("cannot read the network {name}"))?))
    }
}

/// Reads `FEN;score;result` lines (the first player's point of view) into training data for the king layout
/// `kings` (each position followed by its mirror image with `mirror`; see [`Data::new`]), with targets
/// `share * sigmoid(score / scale) + (1 - share) * result` for the side to move, leaving out what the game
/// leaves out ([`Game::leaves_out`]). Also returns the FEN of each position kept.
pub fn read<G: Game>(
    path: &str,
    share: f32,
    scale: f32,
    kings: KingLayout<G::Geometry>,
    mirror: bool,
) -> anyhow::Result<(Data<G::Geometry>, Vec<String>)> {
    let mut data = Data::new(kings, mirror);
    let mut fens = Vec::new();
    let mut left_out = 0;
    for line in read_lines(path)? {
        let fields: Vec<&str> = line.split(';').collect();
        let [fen, score, result] = fields[..] else { continue };
        let (Some(pos), Ok(score), Ok(result)) = (G::from_fen(fen), score.parse::<f32>(), result.parse::<f32>()) else {
            eprintln!("{path}: not FEN;score;result: {line}");
            continue;
        };
        if G::leaves_out(&pos) {
            left_out += 1;
            continue;
        }
        let first = share * sigmoid(score / scale) + (1.0 - share) * result;
        data.push(&pos, if is_first::<G::Geometry>(pos.turn()) { first } else { 1.0 - first });
        fens.push(fen.to_owned());
    }
    match G::LEFT_OUT {
        Some(what) => eprintln!("{path}: {} positions, {left_out} {what} left out", fens.len()),
        None => eprintln!("{path}: {} positions", fens.len()),
    }
    Ok((data, fens))
}

/// The mean squared error of `evaluate` (centipawns for the side to move, read as `sigmoid(cp / scale)`) on
/// the positions `fens` with their targets for the side to move.
pub fn evaluation_loss<G: Game>(
    fens: &[String],
    targets: &[f32],
    scale: f32,
    evaluate: &dyn Fn(&G::Position) -> i32,
) -> f64 {
    // Each position is set up as it is evaluated: a network's accumulators make an evaluated position
    // dozens of kilobytes, too many to keep for a million positions.
    let sum: f64 = fens
        .iter()
        .zip(targets)
        .map(|(fen, &target)| {
            let pos = G::from_fen(fen).expect("read before");
            f64::from((sigmoid(evaluate(&pos) as f32 / scale) - target).powi(2))
        })
        .sum();
    sum / fens.len().max(1) as f64
}

/// Prints the loss of the game's evaluation and of each network on the positions `fens` with their targets
/// for the side to move.
pub fn report_losses<G: Game>(
    fens: &[String],
    targets: &[f32],
    scale: f32,
    networks: &[(&str, Arc<Network<G::Geometry>>)],
    what: &str,
) {
    let own = evaluation_loss::<G>(fens, targets, scale, &G::evaluate);
    eprintln!("{}'s {what}loss: {own:.6}", G::EVALUATION);
    for (name, net) in networks {
        eprintln!("{name}'s {what}loss: {:.6}", evaluation_loss::<G>(fens, targets, scale, &|pos| net.evaluate(pos)));
    }
}
