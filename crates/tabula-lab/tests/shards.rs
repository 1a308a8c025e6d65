//! The data commands as shards of a cluster job: the merge of the shards' results is the file one process
//! writes, and a shard run again writes the same bits.

use std::path::{Path, PathBuf};
use std::process::Command;
use tabula_cluster::collect::collect;

fn lab(args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_tabula-lab")).args(args).status().unwrap();
    assert!(status.success(), "tabula-lab {args:?}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-lab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("results")).unwrap();
    dir
}

fn shard(dir: &Path, k: usize, n: usize) -> (String, String) {
    (format!("{k}/{n}"), dir.join("results").join(format!("shard-{k:04}.result")).display().to_string())
}

#[test]
fn nnue_gen_in_three_shards_merges_into_the_one_process_file() {
    let dir = scratch("nnue-gen");
    let whole = dir.join("whole.txt").display().to_string();
    let common = ["--games", "6", "--nodes", "300", "--first", "40"];
    lab(&[&["chess", "nnue-gen", &whole, "--threads", "1"][..], &common].concat());
    for k in 0..3 {
        let (shard, result) = shard(&dir, k, 3);
        lab(&[&["chess", "nnue-gen", "--shard", &shard, "--result", &result, "--job", "j"][..], &common].concat());
    }
    let collected = collect(&dir.join("results"), "j", tabula_cluster::lines::KIND, 3).unwrap();
    assert!(collected.is_complete() && collected.refused.is_empty());
    let (data, counts) = tabula_cluster::lines::merge(&collected);
    let expected = std::fs::read_to_string(&whole).unwrap();
    assert!(expected.lines().count() > 20, "{expected}");
    assert_eq!(data, expected);
    assert!(counts.ends_with(&format!("lines {} from 3 of 3 shards\n", expected.lines().count())), "{counts}");

    // A shard run again writes the same body; nothing is left beside the results.
    let (shard, result) = shard(&dir, 1, 3);
    let before = collected.results[&1].1.body.clone();
    std::fs::remove_file(&result).unwrap();
    lab(&[&["chess", "nnue-gen", "--shard", &shard, "--result", &result, "--job", "j"][..], &common].concat());
    let again = collect(&dir.join("results"), "j", tabula_cluster::lines::KIND, 3).unwrap();
    assert_eq!(again.results[&1].1.body, before);
    let names: Vec<_> = std::fs::read_dir(dir.join("results")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
