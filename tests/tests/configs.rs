//! The shipped configs: every one passes validation (`--dry-run`) as shipped, and the
//! embedded quick run plays to an SPRT verdict with a reduced pair limit.

mod common;

use common::{runner_in, scratch, workspace};

/// Runs `xq-runner` from the repository's top folder, where the configs' paths point.
fn run_in_workspace(args: &[&str]) -> (i32, String, String) {
    runner_in(&workspace(), args)
}

#[test]
fn every_shipped_config_validates() {
    let mut seen = 0;
    for entry in std::fs::read_dir(workspace().join("configs")).expect("configs folder") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let (code, out, err) =
            run_in_workspace(&["run", path.to_str().expect("path"), "--dry-run"]);
        assert_eq!(code, 0, "{}: {out}{err}", path.display());
        assert!(
            out.contains("engine ") && out.contains("output:"),
            "{}: the plan is printed",
            path.display()
        );
        seen += 1;
    }
    assert!(
        seen >= 6,
        "the three jobs, the ladders, quick and the example are shipped"
    );
    // The embedded default is configs/quick.toml.
    let (code, out, _) = run_in_workspace(&["run", "--dry-run"]);
    assert_eq!(code, 0);
    assert!(out.contains("level6") && out.contains("level1"), "{out}");
}

#[test]
fn the_quick_run_reaches_a_verdict() {
    let folder = scratch("quick");
    let dir = folder.path();
    let out_dir = dir.join("out");
    let (code, out, err) = run_in_workspace(&[
        "run",
        "--pairs",
        "150",
        "--concurrency",
        "2",
        "--out",
        out_dir.to_str().expect("path"),
    ]);
    assert_eq!(
        code, 0,
        "the quick run should accept H1 (level 6 beats level 1):\n{out}\n{err}"
    );
    assert!(out.contains("H1 accepted"), "{out}");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.join("summary.json")).expect("summary"),
    )
    .expect("json");
    assert_eq!(summary["verdict"], "H1");
    assert!(out_dir.join("report.html").is_file() && out_dir.join("summary.md").is_file());
}
