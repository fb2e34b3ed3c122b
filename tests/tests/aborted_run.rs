//! A run aborted by a crash before any pair was complete (issue 47 §2.2): the fault that
//! stopped it is in `summary.json`, `report.html` and `summary.md`, and every estimate of
//! a run without a complete pair is undefined: `null` in JSON, `n/a` in text and HTML,
//! never the regularization's Elo 0 +/- 1199.8 and LOS 50 %.

mod common;

use serde_json::Value;

use common::{commands_config, fault_command, path, runner, scratch, tag};

#[test]
fn a_crash_that_aborts_the_run_is_a_fault_and_no_estimate_is_made_up() {
    let folder = scratch("aborted-run");
    let t = tag("aborted-run");
    let file = commands_config(
        folder.path(),
        4,
        1,
        &fault_command("crash", &t, &["--at-ply", "6"]),
        &fault_command("none", &t, &[]),
        "[faults]\nmax_crashes = 0\n",
    );
    let (code, stdout, stderr) = runner(&["run", path(&file)]);
    assert_eq!(code, 4, "aborted: {stdout}\n{stderr}");
    assert!(stdout.contains("{crash}"), "{stdout}");
    assert!(stdout.contains("Elo: n/a +/- n/a"), "{stdout}");
    let out = folder.path().join("out");
    let text = std::fs::read_to_string(out.join("summary.json")).unwrap_or_default();
    let summary: Value = serde_json::from_str(&text).expect("summary.json");
    assert_eq!(summary["pairs"], 0);
    assert_eq!(summary["unpaired_games"], 1);
    assert_eq!(summary["faults"]["first"]["crash"], 1, "{text}");
    for key in ["elo", "elo_ci95", "nelo", "nelo_ci95", "los", "draw_ratio"] {
        assert!(summary[key].is_null(), "{key}: {text}");
    }
    assert!(summary["pairings"][0]["elo"].is_null(), "{text}");
    assert!(summary["pairings"][0]["elo_ci95"].is_null(), "{text}");

    let page = std::fs::read_to_string(out.join("report.html")).unwrap_or_default();
    assert!(
        !page.contains("No engine faults"),
        "the report hides the crash"
    );
    assert!(
        page.contains("<td class=\"num bad\">1</td>"),
        "no crash counted in the page"
    );
    assert!(!page.contains("1199"), "a made-up interval in the page");
    assert!(!page.contains("NaN"), "an undefined number printed as NaN");
    let markdown = std::fs::read_to_string(out.join("summary.md")).unwrap_or_default();
    assert!(markdown.contains("| first | 1 | 1 |"), "{markdown}");
    assert!(markdown.contains("n/a ± n/a"), "{markdown}");
}
