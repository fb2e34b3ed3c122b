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
    // Into a fresh folder: a dry run also checks that the output folder is free.
    let folder = scratch("configs-dry");
    let out = folder.path().join("out");
    let out = out.to_str().expect("path");
    let (mut seen, mut scaling) = (0, 0);
    for entry in std::fs::read_dir(workspace().join("configs")).expect("configs folder") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        // A tune or datagen config (a [tune] or [datagen] section) is checked by the
        // command that plays it.
        let text = std::fs::read_to_string(&path).expect("config");
        let command = if text.lines().any(|l| l.trim() == "[tune]") {
            "tune"
        } else if text.lines().any(|l| l.trim() == "[datagen]") {
            "datagen"
        } else {
            "run"
        };
        let (code, out, err) = run_in_workspace(&[
            command,
            path.to_str().expect("path"),
            "--dry-run",
            "--out",
            out,
        ]);
        assert_eq!(code, 0, "{}: {out}{err}", path.display());
        assert!(
            out.contains("engine ") && out.contains("output:"),
            "{}: the plan is printed",
            path.display()
        );
        // A scaling form: every setting listed with its games.
        if text.lines().any(|l| l.trim() == "[scaling]") {
            assert!(
                out.contains("scaling: ") && out.contains("games at most"),
                "{}: {out}",
                path.display()
            );
            scaling += 1;
        }
        seen += 1;
    }
    assert!(
        seen >= 6,
        "the three jobs, the ladders, quick and the example are shipped"
    );
    assert!(
        scaling >= 2,
        "scaling-depth and the eval ladder's scaling form"
    );
    // The embedded default is configs/quick.toml.
    let (code, plan, _) = run_in_workspace(&["run", "--dry-run", "--out", out]);
    assert_eq!(code, 0);
    assert!(plan.contains("level6") && plan.contains("level1"), "{plan}");
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

#[test]
fn the_dry_run_shows_how_the_move_limit_counts() {
    let dry_run = |extra: &[&str]| {
        let mut args = vec!["run", "configs/example-match.toml", "--dry-run"];
        args.extend_from_slice(extra);
        let (code, out, err) = run_in_workspace(&args);
        assert_eq!(code, 0, "{extra:?}: {out}{err}");
        out.lines()
            .find(|line| line.starts_with("rules:"))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no rules line: {out}"))
    };
    assert!(dry_run(&[]).contains("(all counting)"));
    // ElephantEye's own draw rule: 100 plies, checks and their replies not counted.
    let league = dry_run(&[
        "--set",
        "rules.move_limit=100",
        "--set",
        "rules.limit_counting=\"League\"",
    ]);
    assert!(
        league.contains("move limit 100 plies (league counting)"),
        "{league}"
    );
}

#[test]
fn bad_values_are_refused_with_their_file_line_and_key() {
    let dir = scratch("bad-config-values");
    let bad_book = dir.path().join("bad.epd");
    std::fs::write(&bad_book, "garbage line\n").expect("write book");
    let set_book = format!("openings.file={}", bad_book.display());
    let cases: &[(&[&str], &str)] = &[
        // A line break in an option would reach the engine as a command of its own.
        (
            &["--set", "engine.0.options.evallevel=\"6\\nquit\""],
            "engine.0.options.evallevel: \"6\\nquit\" contains the control character",
        ),
        (
            &["--set", "sprt.min_elo=nan"],
            "sprt.min_elo: `NaN`: expected a finite Elo",
        ),
        (
            &["--set", "adjudication.max_plies=0"],
            "adjudication.max_plies: 0 would end every game",
        ),
        (
            &["--set", "rules.limit_counting=\"fide\""],
            "rules.limit_counting: unknown move-limit counting `fide`",
        ),
        (&["--out", ""], "output.dir: empty"),
        // A bad override is named; a key the file does not set has no line.
        (
            &["--set", "tournament.pairs=1e30"],
            "error: --set tournament.pairs=1e30: tournament.pairs: invalid type",
        ),
        (
            &["--set", "sprt.elo0=nan"],
            "error: --set sprt.elo0=nan: sprt.elo0: SPRT bounds need finite",
        ),
        // The dry run reads the opening file too.
        (&["--set", &set_book], "bad.epd:1: bad FEN"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["run", "configs/example-match.toml", "--dry-run"];
        args.extend_from_slice(extra);
        let (code, out, err) = run_in_workspace(&args);
        assert_eq!(code, 2, "{extra:?}: {out}{err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{extra:?}: one line: {err}");
        assert!(lines[0].contains(needle), "{extra:?}: {err}");
    }

    // Errors TOML reports with a line only get their key too, on one line.
    let file = dir.path().join("typed.toml");
    let text = std::fs::read_to_string(workspace().join("configs/example-match.toml"))
        .expect("example")
        .replace("[output]", "[output]\nreport_interval = {}");
    std::fs::write(&file, text).expect("write config");
    let (code, _, err) = run_in_workspace(&["run", file.to_str().expect("path"), "--dry-run"]);
    assert_eq!(code, 2);
    assert!(
        err.trim().ends_with(
            "output.report_interval: invalid type: map, expected a whole number (0 or more)"
        ),
        "{err}"
    );
    let file = dir.path().join("twice.toml");
    std::fs::write(&file, "[time]\ntc = \"1+0\"\n[time]\ntc = \"2+0\"\n").expect("write");
    let (code, _, err) = run_in_workspace(&["run", file.to_str().expect("path"), "--dry-run"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
}
