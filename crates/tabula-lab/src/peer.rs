//! A peer engine over UCI as the data commands use it, for any game: Stockfish for chess, Fairy-Stockfish for
//! xiangqi. Started through the engine-process driver of `tabula-protocol` ([`start`]), its answers read as a
//! [`Verdict`], and the labelling threads of the `label` commands ([`ask_peer`]): one peer of one thread per
//! thread, a block of 1,000 positions at a time, each block written in the input's order as it finishes, so
//! that `--resume` can go on with the output of a run that was stopped, skipping the positions it holds.

use crate::data::{first_field, read_lines, Output};
use anyhow::Context;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use tabula::tune::{next_block, on_threads};
use tabula_protocol::process::Process;

/// What a peer made of a position: its best move, its last reported score for the side to move (a mate
/// counted as [`MATE_CP`] centipawns) and its win/draw/loss per mille when it reported them.
pub struct Verdict<M> {
    pub best: M,
    pub score: Option<i32>,
    pub wdl: Option<(f64, f64, f64)>,
}

/// The centipawns a mate score stands for in the networks' data: far past the sigmoid's knee.
pub const MATE_CP: i32 = 3000;

/// How long to wait for any one answer of a peer's.
pub const PATIENCE: Duration = Duration::from_secs(600);

/// The peer's verdict from its `answer` (the lines up to `bestmove`), if `parse` reads its best move as a legal
/// move.
pub fn verdict<M>(answer: &[String], parse: impl Fn(&str) -> Option<M>) -> Option<Verdict<M>> {
    let (mut best, mut score, mut wdl) = (None, None, None);
    for line in answer {
        let words: Vec<&str> = line.split_whitespace().collect();
        let after = |key: &str, k: usize| words.iter().position(|&w| w == key).and_then(|at| words.get(at + k));
        if let Some(at) = words.iter().position(|&w| w == "wdl") {
            let n = |k: usize| words.get(at + k).and_then(|w| w.parse::<f64>().ok()).unwrap_or(0.0);
            wdl = Some((n(1), n(2), n(3)));
        }
        match (after("score", 1).copied(), after("score", 2).and_then(|n| n.parse::<i32>().ok())) {
            (Some("cp"), Some(cp)) => score = Some(cp.clamp(-MATE_CP, MATE_CP)),
            (Some("mate"), Some(n)) => score = Some(if n > 0 { MATE_CP } else { -MATE_CP }),
            _ => {}
        }
        if words.first() == Some(&"bestmove") {
            best = words.get(1).and_then(|m| parse(m));
        }
    }
    best.map(|best| Verdict { best, score, wdl })
}

/// The peer at `path`, past the UCI handshake, with one thread, 16 MiB of table and the `options` given (as
/// `NAME value VALUE`), in that order.
pub fn start(path: &str, options: &[&str]) -> anyhow::Result<Process> {
    let mut process = Process::spawn(&[path.to_string()])?;
    process.ask("uci", PATIENCE, |l| l == "uciok").with_context(|| format!("{path} does not speak UCI"))?;
    for option in ["Threads value 1", "Hash value 16"].iter().chain(options) {
        process.send(&format!("setoption name {option}"))?;
    }
    Ok(process)
}

/// The peer's answer to `go {go}` from the position `position` (a UCI `position` command's arguments).
pub fn ask_move(process: &mut Process, position: &str, go: &str) -> anyhow::Result<Vec<String>> {
    process
        .ask(&format!("position {position}\ngo {go}"), PATIENCE, |l| l.starts_with("bestmove"))
        .with_context(|| format!("the peer gave no best move for {position}"))
}

/// The labelling processes of the `label` commands, and whether they go on with an interrupted run or run as
/// a shard of a cluster job (see [`shard`](crate::shard)).
#[derive(Clone, clap::Args)]
pub struct Labellers {
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Go on with the `out` of an interrupted run: keep its lines, skip the positions they hold, append.
    #[arg(long, conflicts_with = "shard")]
    resume: bool,
    #[command(flatten)]
    shard: tabula_cluster::shard::ShardArgs,
}

/// The peer each labelling thread starts: its path and the options it is given after the handshake.
pub struct PeerSpec<'a> {
    pub path: &'a str,
    pub options: &'a [&'a str],
}

/// Asks the peer (one thread each, `threads` of them) about the position that opens each line of `input`
/// (`FEN;...`, read by `parse`) and writes the line `ask` makes of the entry from the peer's answers (none to
/// leave the entry out), in the input's order block by block.
pub fn ask_peer<P>(
    input: &str,
    out: Option<&str>,
    labellers: &Labellers,
    peer: &PeerSpec,
    parse: impl Fn(&str) -> Option<P> + Sync,
    ask: impl Fn(&mut Process, &str, &P) -> anyhow::Result<Option<String>> + Sync,
) -> anyhow::Result<()> {
    let lines = read_lines(input)?;
    match (labellers.shard.target(), out) {
        // A shard: its part of the lines, on one thread, so that they come out in order.
        (Some(target), _) => crate::shard::write_lines(&target, |out| {
            let part = target.shard.range(lines.len());
            let one = Labellers { threads: 1, ..labellers.clone() };
            label_lines(lines[part].to_vec(), out, &one, peer, parse, ask)
        }),
        (None, Some(out)) => label_lines(lines, out, labellers, peer, parse, ask),
        (None, None) => anyhow::bail!("give the file to write, or --shard and --result"),
    }
}

/// [`ask_peer`] on `lines`, into `out`.
fn label_lines<P>(
    mut lines: Vec<String>,
    out: &str,
    labellers: &Labellers,
    peer: &PeerSpec,
    parse: impl Fn(&str) -> Option<P> + Sync,
    ask: impl Fn(&mut Process, &str, &P) -> anyhow::Result<Option<String>> + Sync,
) -> anyhow::Result<()> {
    const BLOCK: usize = 1000;
    let Labellers { threads, resume, .. } = *labellers;
    let out = if resume {
        let (output, done) = Output::resume(out)?;
        let before = lines.len();
        lines.retain(|l| !done.contains(first_field(l)));
        eprintln!("{out}: {} positions done, {} of {before} left to ask", done.len(), lines.len());
        output
    } else {
        Output::create(out)?
    };
    let out = Mutex::new(out);
    let next = AtomicUsize::new(0);
    let kept = AtomicUsize::new(0);
    on_threads(threads, || -> anyhow::Result<()> {
        let mut engine = start(peer.path, peer.options)?;
        while let Some((first, block)) = next_block(&lines, &next, BLOCK) {
            let mut written = Vec::new();
            for entry in block {
                let Some(pos) = parse(first_field(entry)) else { continue };
                written.extend(ask(&mut engine, entry, &pos)?);
            }
            out.lock().expect("no panics while writing").block(&written)?;
            let k = kept.fetch_add(written.len(), Ordering::Relaxed) + written.len();
            eprintln!("{k} labelled ({} read)", (first + BLOCK).min(lines.len()));
        }
        let _ = engine.send("quit");
        Ok(())
    })
}
