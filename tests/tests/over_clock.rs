//! Moves over the clock (issue 47 §2.1): an engine that answers 45 ms after its clock
//! runs out, at 1+0 with a 100 ms margin. A clamped clock (the default, as fastchess)
//! forgives it on every move: the games go on, and the summary, the result block and
//! the report show its moves over the clock with a warning. A cumulative clock carries
//! the overshoot over: the engine loses on time within a few moves.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{fault_command, path, runner, scratch, tag};

/// One pair of `late` (answers 45 ms past its clock) against an instant engine, at
/// 1+0 with a 100 ms margin, written to `dir`; `mode` is `time.margin_mode`, if set.
fn config(dir: &Path, test: &str, mode: Option<&str>) -> PathBuf {
    let t = tag(test);
    let argv = |c: Vec<String>| {
        let quoted: Vec<String> = c.iter().map(|a| format!("{a:?}")).collect();
        format!("[{}]", quoted.join(", "))
    };
    let mode = mode.map_or_else(String::new, |m| format!("margin_mode = \"{m}\"\n"));
    let text = format!(
        r#"[tournament]
pairs = 1
concurrency = 1

[time]
tc = "1+0"
margin = "100ms"
{mode}
[adjudication]
max_plies = 16

[output]
dir = "{out}"

[[engine]]
name = "late"
command = {late}

[[engine]]
name = "prompt"
command = {prompt}
"#,
        out = dir.join("out").display(),
        late = argv(fault_command("overtime", &t, &["--sleep-ms", "45"])),
        prompt = argv(fault_command("none", &t, &[])),
    );
    let file = dir.join("run.toml");
    std::fs::write(&file, text).expect("write config");
    file
}

fn read_json(file: &Path) -> Value {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

#[test]
fn a_clamped_clock_forgives_the_overshoot_and_every_output_shows_it() {
    let folder = scratch("over-clock-clamp");
    let file = config(folder.path(), "over-clock-clamp", None);
    let (code, stdout, stderr) = runner(&["run", path(&file)]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let out = folder.path().join("out");
    let summary = read_json(&out.join("summary.json"));
    // Neither game was lost on time: the margin forgave 45 ms on every move.
    assert!(
        summary["faults"]["late"]
            .as_object()
            .is_some_and(|f| f.is_empty()),
        "{summary}"
    );
    let late = &summary["over_clock"]["late"];
    let moves = late["moves"].as_u64().unwrap_or(0);
    // Every move of `late` is over its clock: 8 a game at 16 plies, 2 games.
    assert_eq!(moves, 16, "{late}");
    let ms = late["ms"].as_u64().unwrap_or(0);
    assert!((45 * moves..100 * moves).contains(&ms), "{late}");
    assert_eq!(late["base_ms"], 1000);
    assert_eq!(late["warning"], true, "{late}");
    assert_eq!(summary["over_clock"]["prompt"]["moves"], 0);
    assert_eq!(summary["over_clock"]["prompt"]["warning"], false);
    assert!(stdout.contains("Over the clock: late 16 moves"), "{stdout}");
    assert!(
        stdout.contains("Warning: late took more than 10%"),
        "{stdout}"
    );
    let page = std::fs::read_to_string(out.join("report.html")).unwrap_or_default();
    assert!(page.contains("Time beyond the clock"), "no over-clock card");
    assert!(page.contains("<strong>Warning:</strong> late took more than 10%"));
}

#[test]
fn a_cumulative_clock_loses_on_time_within_a_few_moves() {
    let folder = scratch("over-clock-cumulative");
    let file = config(folder.path(), "over-clock-cumulative", Some("cumulative"));
    let (code, stdout, stderr) = runner(&["run", path(&file)]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let out = folder.path().join("out");
    let journal = std::fs::read_to_string(out.join("games.jsonl")).unwrap_or_default();
    let games: Vec<Value> = journal
        .lines()
        .map(|l| serde_json::from_str(l).expect("journal line"))
        .collect();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["reason"], "time_forfeit", "{g}");
        assert_eq!(g["faulted"], "late", "{g}");
        // Owed 45, then 90 ms: the third move passes the 100 ms margin. Its moves and
        // the opponent's: at most 5 plies.
        let plies = g["plies"].as_u64().unwrap_or(99);
        assert!(plies <= 5, "{g}");
        assert!(
            g["detail"].as_str().is_some_and(|d| d.contains("owed")),
            "{g}"
        );
    }
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["faults"]["late"]["time_forfeit"], 2, "{summary}");
}
