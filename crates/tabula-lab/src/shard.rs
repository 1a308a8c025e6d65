//! The data commands as shards of a cluster job (`tabula cluster`, kind `lines`): `--shard K/N --result FILE
//! --job ID` runs the shard's part of the games (`gen`, `wdl-gen`, `nnue-gen`) or of the input's lines
//! (`label`, `nnue-label`) on one thread, so that its lines come in order and a rerun writes the same bits,
//! and writes them as the shard's result file instead of `OUT`; `tabula cluster merge` writes the one data
//! file, with counts.

use tabula_cluster::envelope::Stopwatch;
use tabula_cluster::shard::ShardTarget;

/// Runs `make`, which writes its lines to the file it is given, as shard `target`: the lines go to a hidden file
/// beside the result, then into the result file.
pub fn write_lines(target: &ShardTarget, make: impl FnOnce(&str) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let stopwatch = Stopwatch::start();
    let part = tabula_cluster::atomic::temporary(&target.result).with_extension("part");
    let part_name = part.display().to_string();
    make(&part_name)?;
    let lines = std::fs::read_to_string(&part).map_err(|e| anyhow::anyhow!("cannot read {part_name}: {e}"))?;
    target.write(tabula_cluster::lines::KIND, lines, "", &stopwatch)?;
    let _ = std::fs::remove_file(&part);
    eprintln!("shard {}: result {}", target.shard, target.result.display());
    Ok(())
}

/// The items `first + range` of shard `target` of `count` items from `first`.
pub fn items(target: &ShardTarget, first: u64, count: u64) -> std::ops::Range<u64> {
    let range = target.shard.range(count as usize);
    first + range.start as u64..first + range.end as u64
}
