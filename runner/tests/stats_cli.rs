//! `xq-runner stats` as a user runs it: the check vectors through `--json`,
//! the text block's shape, exit 2 with one message for bad input, and no
//! panic on empty or extreme counts.

use std::process::{Command, Output};

use serde_json::Value;

fn stats(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .arg("stats")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run xq-runner: {e}"))
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = stats(&all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("bad JSON ({e}): {out:?}"))
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} missing or not a number in {v}"))
}

fn assert_close(v: &Value, key: &str, want: f64) {
    let got = num(v, key);
    assert!(
        (got - want).abs() <= 1e-6 * want.abs().max(1.0),
        "{key}: got {got}, want {want}"
    );
}

// fishtest's published check table (`docs/statistics.md`).
include!("data/fishtest_check_table.rs");

/// A number as a flag's value: `2` for 2.0, `-1.75`.
fn flag(x: f64) -> String {
    x.to_string()
}

#[test]
fn check_vectors_through_json() {
    for (counts, log, norm, want) in FISHTEST_CHECK_TABLE {
        let penta = counts.map(|c| c.to_string()).join(",");
        let penta = penta.as_str();
        let (log, norm) = (log.map(flag), norm.map(flag));
        let v = json(&[
            "--penta", penta, "--elo0", &log[0], "--elo1", &log[1], "--model", "logistic",
        ]);
        for (key, w) in ["elo", "elo_ci95", "los", "nelo", "nelo_ci95"]
            .iter()
            .zip(want)
        {
            assert_close(&v, key, w);
        }
        assert_close(&v, "llr", want[5]);
        assert_close(&v, "llr_logistic", want[5]);

        let v = json(&["--penta", penta, "--elo0", &norm[0], "--elo1", &norm[1]]);
        assert_close(&v, "llr", want[6]);
        assert_close(&v, "llr_normalized", want[6]);
        assert_close(&v, "llr_lower", -2.944_438_979_166_440_3);
        assert_close(&v, "llr_upper", 2.944_438_979_166_440_3);
        assert_eq!(v["verdict"], "continue");
        let pairs = num(&v, "pairs");
        assert_eq!(num(&v, "games"), 2.0 * pairs);
        assert!(num(&v, "draw_ratio") >= 0.0);
    }
}

#[test]
fn verdicts_and_wdl_only() {
    let v = json(&["--penta", "100,2000,5000,3000,400"]);
    assert_eq!(v["verdict"], "H1");
    let v = json(&["--penta", "400,3000,5000,2000,100"]);
    assert_eq!(v["verdict"], "H0");
    let v = json(&[
        "--wdl",
        "65804,56553,65388",
        "--elo0",
        "-3",
        "--elo1",
        "1",
        "--model",
        "logistic",
    ]);
    assert_eq!(v["games"], 187_745);
    assert_eq!(v["pairs"], Value::Null);
    assert_eq!(v["wins"], 65388);
    assert!(num(&v, "elo") < 0.0);
}

#[test]
fn text_block_has_fastchess_shape() {
    let out = stats(&["--penta", "120,2950,5700,3100,130"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[0], "Elo: 2.46 +/- 2.38, nElo: 4.54 +/- 4.40");
    assert_eq!(
        lines[1],
        "LOS: 97.86 %, DrawRatio: 47.50 %, PairsRatio: 1.05"
    );
    assert!(lines[2]
        .starts_with("Games: 24000, Wins: ?, Losses: ?, Draws: ?, Points: 12085.0 (50.35 %)"));
    assert_eq!(
        lines[3],
        "Ptnml(0-2): [120, 2950, 5700, 3100, 130], WL/DD Ratio: ?"
    );
    assert_eq!(lines[4], "LLR: 1.41 (47.8%) (-2.94, 2.94) [0.00, 2.00]");

    // With consistent game counts the unknowns are filled in.
    let out = stats(&[
        "--penta",
        "1,2,3,3,1",
        "--wdl",
        "6,7,7",
        "--model",
        "logistic",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Games: 20, Wins: 7, Losses: 6, Draws: 7, Points: 10.5 (52.50 %)"),
        "{text}"
    );
    assert!(text.contains("WL/DD Ratio: 2.00"));
    assert!(
        text.contains("LLR: 0.01 (0.3%) (-2.94, 2.94) [0.00, 2.00]"),
        "{text}"
    );
}

#[test]
fn bad_input_exits_2_with_one_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["--penta", "-1,2,3,4,5"], "negative"),
        (&["--wdl", "1,-2,3"], "negative"),
        (&["--penta", "1,2,x,4,5"], "not a non-negative integer"),
        (&["--penta", "1,2,3.5,4,5"], "not a non-negative integer"),
        (&["--penta", "1,2,3,4"], "expected 5"),
        (&["--wdl", "1,2,3,4"], "expected 3"),
        (
            &["--penta", "1,2,3,4,5", "--elo0", "2", "--elo1", "2"],
            "elo0 < elo1",
        ),
        (
            &["--penta", "1,2,3,4,5", "--elo0", "3", "--elo1", "-1"],
            "elo0 < elo1",
        ),
        (&["--penta", "1,2,3,4,5", "--alpha", "0.5"], "alpha"),
        (&["--penta", "1,2,3,4,5", "--alpha", "0"], "alpha"),
        (&["--penta", "1,2,3,4,5", "--beta", "-0.1"], "beta"),
        (&["--penta", "1,2,3,4,5", "--beta", "nan"], "beta"),
        (&["--penta", "1,2,3,4,5", "--elo0", "abc"], "invalid value"),
        (
            &["--penta", "1,2,3,4,5", "--model", "bayes"],
            "unknown Elo model",
        ),
        (&[], "required"),
        (
            &[
                "--wdl",
                "18446744073709551615,18446744073709551615,18446744073709551615",
            ],
            "add up to more than",
        ),
    ];
    for (args, needle) in cases {
        let out = stats(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        let first = err.lines().next().unwrap_or_default();
        assert!(first.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // Our own value errors are exactly one line.
    let out = stats(&["--penta", "-1,2,3,4,5"]);
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn empty_and_extreme_counts_do_not_panic() {
    for args in [
        &["--penta", "0,0,0,0,0"][..],
        &["--wdl", "0,0,0"],
        &["--penta", "0,0,0,0,10"],
        &["--penta", "10,0,0,0,0"],
        &["--penta", "0,0,1,0,0"],
        &["--wdl", "0,0,7", "--model", "logistic"],
        &["--penta", "0,0,0,0,0", "--wdl", "0,0,0"],
    ] {
        let out = stats(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("nan"), "{args:?}: {text}");
        let v = json(args);
        assert!(num(&v, "llr").is_finite(), "{args:?}: llr");
        // With games every estimate is a number; without, none is (null, documented).
        let empty = v["games"] == 0;
        for key in ["elo", "elo_ci95", "los", "nelo", "nelo_ci95"] {
            if empty {
                assert_eq!(v[key], Value::Null, "{args:?}: {key}");
            } else {
                assert!(num(&v, key).is_finite(), "{args:?}: {key}");
            }
        }
    }
}

#[test]
fn no_games_say_so_instead_of_printing_numbers() {
    let out = stats(&["--penta", "0,0,0,0,0"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Elo: n/a +/- n/a, nElo: n/a +/- n/a (no pairs)");
    assert_eq!(lines[1], "LOS: n/a, DrawRatio: n/a, PairsRatio: n/a");
    assert_eq!(
        lines[2],
        "Games: 0, Wins: ?, Losses: ?, Draws: ?, Points: 0.0 (n/a)"
    );
    assert!(!text.contains("1199") && !text.contains("nan"), "{text}");
    let v = json(&["--penta", "0,0,0,0,0"]);
    assert_eq!(v["games"], 0);
    for key in [
        "elo",
        "elo_lower",
        "elo_upper",
        "los",
        "draw_ratio",
        "pairs_ratio",
    ] {
        assert_eq!(v[key], Value::Null, "{key}");
    }
    // Trinomial counts without games say `no games`.
    let out = stats(&["--wdl", "0,0,0"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("Elo: n/a +/- n/a, nElo: n/a +/- n/a (no games)\n"),
        "{text}"
    );
}
