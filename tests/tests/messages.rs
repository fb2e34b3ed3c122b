//! Messages a user reads, end to end: what `merge` says of pairs played twice and of
//! one folder (and the counts its summary names), and what `worker` says of a lease it
//! cannot take.

mod common;

use common::{mainlines, path, runner, scratch};

#[test]
fn merge_names_doubled_pairs_once_in_order_and_counts_one_folder_as_one() {
    let folder = scratch("merge-messages");
    let config = common::fault_config(folder.path(), 6, &mainlines(), ["", ""], "");
    let (code, stdout, stderr) = runner(&["run", path(&config), "--shard", "1/2"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let shard = folder.path().join("out/shard-1-of-2");

    // The same shard twice: its pairs 1, 3 and 5, each named once, in order.
    let (code, _, stderr) = runner(&[
        "merge",
        path(&shard),
        path(&shard),
        "--out",
        path(&folder.path().join("twice")),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "error: pairs played in more than one folder: 1, 3, 5 (is a shard given twice?)"
    );

    let (code, stdout, stderr) = runner(&[
        "merge",
        path(&shard),
        "--out",
        path(&folder.path().join("one")),
    ]);
    assert_eq!(code, 3, "half the pairs are missing: {stdout}{stderr}");
    assert!(stdout.contains("Merged 1 folder: 6 games"), "{stdout}");

    // summary.json names each pairing's counts, as the top level does.
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(folder.path().join("one/summary.json")).expect("summary"),
    )
    .expect("JSON");
    let wdl = &summary["pairings"][0]["wdl"];
    for key in ["wins", "draws", "losses"] {
        assert_eq!(wdl[key], summary[key], "{key}: {wdl}");
    }
    let games: u64 = ["wins", "draws", "losses"]
        .iter()
        .filter_map(|k| wdl[k].as_u64())
        .sum();
    assert_eq!(games, 6, "{wdl}");
}

#[test]
fn a_lease_out_of_range_is_called_a_lease_not_a_time_control() {
    // The lease is read before any connection is tried: no server is needed.
    for lease in ["99999999s", "soon"] {
        let (code, _, stderr) = runner(&["worker", "--db", "host=/nonexistent", "--lease", lease]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!(
                "error: --lease {lease}: expected a duration such as 60s or 500ms, under 10000000 s"
            )
        );
    }
}
