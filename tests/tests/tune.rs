//! `xq-runner tune` end to end with the real binaries: a far start moves close to the
//! known best value of the tune engine; bad inputs are refused with one line and exit 2
//! before anything is played; a tune killed with SIGKILL resumes without losing or
//! doubling an iteration; `--dry-run` shows the gains and the number of games.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{bin, runner, scratch, tune_config, TUNE_BEST};
use serde_json::Value;

fn tune_engine() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tune-engine"))
}

fn text(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn records(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("out/tune.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a journal line is JSON"))
        .collect()
}

fn final_skill(dir: &Path) -> f64 {
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("out/tune.json")).expect("tune.json"),
    )
    .expect("tune.json is JSON");
    summary["params"][0]["value"]
        .as_f64()
        .expect("a final value")
}

#[test]
fn a_far_start_moves_close_to_the_best_value() {
    let folder = scratch("tune-converges");
    let dir = folder.path();
    let cfg = tune_config(dir, 200, 15.0, "", "", None);
    let (code, out, err) = runner(&["tune", text(&cfg)]);
    assert_eq!(code, 0, "{out}{err}");
    let skill = final_skill(dir);
    // Measured: 10 runs of 200 pairs from 15 ended at 68.4 to 73.1.
    assert!(
        (skill - TUNE_BEST).abs() < 10.0,
        "200 pairs from 15 should end near {TUNE_BEST}, ended at {skill}"
    );
    assert_eq!(records(dir).len(), 200);
    assert!(out.contains("options = { skill = "), "{out}");
    assert!(out.contains("skill, "), "fishtest's line: {out}");
    let page = std::fs::read_to_string(dir.join("out/report.html")).expect("report.html");
    assert!(page.contains("<svg") && !page.contains("<script"));
    // Issue 47 item 4.4: the page shows the W/D/L of the tune's games, as tune.jsonl has them.
    let mut wdl = [0; 3];
    for r in records(dir) {
        for game in r["games"].as_array().expect("games") {
            let i = ["W", "D", "L"]
                .iter()
                .position(|g| game.as_str() == Some(*g));
            wdl[i.expect("W, D or L")] += 1;
        }
    }
    assert_eq!(wdl.iter().sum::<usize>(), 400);
    // The figure's class is `value`, or `value long` for a long one.
    let shown = format!("\">{} / {} / {}</div>", wdl[0], wdl[1], wdl[2]);
    assert!(page.contains(&shown), "{shown} not on the page");
    assert!(page.contains(".kpi {"), "in the match report's style");
}

#[test]
fn bad_inputs_are_refused_with_one_line_and_exit_2() {
    let param = |name: &str, start: &str, min: &str, max: &str, c_end: &str| {
        format!("[[tune.param]]\nname = \"{name}\"\nstart = {start}\nmin = {min}\nmax = {max}\nc_end = {c_end}\nr_end = 0.05\n")
    };
    let engine = tune_engine().display().to_string();
    let second = format!("\n[[engine]]\nname = \"other\"\ncommand = [\"{engine}\"]\n");
    // The [[tune.param]] table starts on line 24 of the config.
    let cases: Vec<(String, Option<String>, String)> = vec![
        (
            String::new(),
            Some(param("colour", "5", "0", "10", "1")),
            "tune.toml:24: tune.param.0: colour is not a spin option of the engine; its spin options: skill".to_owned(),
        ),
        (
            String::new(),
            Some(param("skill", "5", "10", "10", "1")),
            "tune.toml:24: tune.param.0: skill: min 10 must be below max 10".to_owned(),
        ),
        (
            String::new(),
            Some(param("skill", "50", "0", "40", "1")),
            "tune.toml:24: tune.param.0: skill: start 50 is outside [0, 40]".to_owned(),
        ),
        (
            String::new(),
            Some(param("skill", "5", "0", "10", "0")),
            "tune.toml:24: tune.param.0: skill: c_end 0 must be positive (the perturbation at the last iteration)".to_owned(),
        ),
        (
            String::new(),
            Some(format!("{}\n{}", param("skill", "5", "0", "10", "1"), param("Skill", "6", "0", "10", "1"))),
            "tune.toml:32: tune.param.1: parameter Skill is given twice (first at tune.toml:24: tune.param.0)".to_owned(),
        ),
        (
            second,
            None,
            "tune.toml:21: engine.1: a tune has exactly one [[engine]], the engine it tunes; found 2".to_owned(),
        ),
        // r_end = 1e308 made theta NaN after one iteration: a tune "finished" at NaN,
        // both sides sent 0.
        (
            String::new(),
            Some(param("skill", "5", "0", "10", "1").replace("r_end = 0.05", "r_end = 1e308")),
            "tune.toml:24: tune.param.0: skill: r_end 1e308 with c_end 1 moves theta by r_end * c_end = 1e308 for a won pair at the last iteration, more than the range max - min = 10".to_owned(),
        ),
        (
            String::new(),
            Some(param("skill", "5", "0", "10", "20")),
            "tune.toml:24: tune.param.0: skill: c_end 20 is wider than the range max - min = 10 (both sides would sit on the bounds)".to_owned(),
        ),
        (
            String::new(),
            Some(format!("A = 1e308\n{}", param("skill", "5", "0", "10", "1"))),
            "tune.toml:24: tune.A: 1e308: expected a fraction of the iterations in [0, 1] (fishtest: 0.1)".to_owned(),
        ),
    ];
    for (extra, params, expected) in cases {
        let folder = scratch("tune-bad");
        let dir = folder.path();
        let cfg = tune_config(dir, 10, 15.0, "", &extra, params.as_deref());
        let (code, out, err) = common::runner_in(dir, &["tune", "tune.toml"]);
        assert_eq!(code, 2, "{expected}: {out}{err}");
        assert_eq!(
            err.trim_end(),
            format!("error: {expected}"),
            "{}",
            text(&cfg)
        );
        assert!(
            !dir.join("out").exists(),
            "nothing is written for: {expected}"
        );
    }
}

#[test]
fn an_unknown_parameter_is_refused_with_the_closest_option_and_every_option() {
    // The shipped tune of our engine with one name mistyped.
    let folder = scratch("tune-unknown-param");
    let dir = folder.path();
    let shipped = std::fs::read_to_string(common::workspace().join("configs/tune-search.toml"))
        .expect("the shipped tune");
    let text_of = shipped
        .replace("name = \"FutilityMargin\"", "name = \"FutilityMargn\"")
        .replace(
            "target/release/xq-engine",
            &bin("xq-engine").display().to_string(),
        )
        .replace(
            "openings/balanced-1k.epd",
            &common::workspace()
                .join("openings/balanced-1k.epd")
                .display()
                .to_string(),
        )
        .replace("out/tune-search", &dir.join("out").display().to_string());
    let cfg = dir.join("tune.toml");
    std::fs::write(&cfg, text_of).expect("write config");
    let (code, out, err) = runner(&["tune", text(&cfg), "--dry-run"]);
    assert_eq!(code, 2, "{out}{err}");
    // The engine's spin options, as it announces them.
    let mut engine = Command::new(bin("xq-engine"))
        .arg("--tune")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start xq-engine");
    {
        use std::io::Write as _;
        let mut input = engine.stdin.take().expect("stdin");
        input.write_all(b"uci\nquit\n").expect("write");
    }
    let announced = engine.wait_with_output().expect("xq-engine ends");
    let spins: Vec<String> = String::from_utf8_lossy(&announced.stdout)
        .lines()
        .filter(|l| l.contains(" type spin "))
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned))
        .collect();
    assert!(spins.len() > 12, "{spins:?}");
    let line = err.trim_end();
    assert!(!line.contains('\n'), "one line: {err}");
    assert!(
        line.contains(&format!(
            "FutilityMargn is not a spin option of the engine (did you mean FutilityMargin?); its {} spin options: ",
            spins.len()
        )),
        "{err}"
    );
    let listed = line.rsplit("spin options: ").next().unwrap_or_default();
    assert_eq!(
        listed.split(", ").collect::<Vec<_>>(),
        spins,
        "every one of them"
    );
}

#[test]
fn without_a_terminal_progress_lines_come_while_the_tune_plays() {
    // The shipped tune's interval (50 pairs) with a tune shorter than it: a log used to
    // stay empty until the end.
    let folder = scratch("tune-progress-lines");
    let dir = folder.path();
    let cfg = tune_config(dir, 20, 15.0, "", "", None);
    let (code, out, err) = runner(&["tune", text(&cfg), "--set", "output.report_interval=50"]);
    assert_eq!(code, 0, "{out}{err}");
    let progress: Vec<&str> = out.lines().filter(|l| l.starts_with("pair ")).collect();
    let numbers: Vec<&str> = progress
        .iter()
        .filter_map(|l| l.split_whitespace().nth(1))
        .map(|n| n.trim_end_matches([',', ':']))
        .collect();
    assert_eq!(
        numbers,
        ["2/20", "4/20", "6/20", "8/20", "10/20", "12/20", "14/20", "16/20", "18/20", "20/20"],
        "{out}"
    );
    assert!(
        progress[0].contains(" played, ETA ") && progress[0].contains(": skill "),
        "{out}"
    );
    let last_progress = out.find("pair 20/20").expect("the last line");
    let finished = out.find("Tune finished").expect("the end");
    assert!(last_progress < finished, "{out}");
}

#[test]
fn fishtest_lines_are_read_and_their_errors_named() {
    let folder = scratch("tune-params-file");
    let dir = folder.path();
    let cfg = tune_config(dir, 10, 15.0, "", "", Some(""));
    let params = dir.join("params.txt");
    std::fs::write(&params, "skill, 20, 0, 100, 8, 0.05\n").expect("write");
    let (code, out, err) = runner(&["tune", text(&cfg), "--params", text(&params), "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("skill"), "{out}");
    std::fs::write(
        &params,
        "skill, 20, 0, 100, 8, 0.05\nskill, 20, 0, 100, 8\n",
    )
    .expect("write");
    let (code, _, err) = runner(&["tune", text(&cfg), "--params", text(&params)]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}:2: expected `name, start, min, max, c_end, r_end`, found 5 fields",
            params.display()
        )
    );
    std::fs::write(&params, "\nskill, 20, 0, 100, 8, 1e308\n").expect("write");
    let (code, _, err) = runner(&["tune", text(&cfg), "--params", text(&params)]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}:2: skill: r_end 1e308 with c_end 8 moves theta by r_end * c_end = inf for a won pair at the last iteration, more than the range max - min = 100",
            params.display()
        )
    );
}

#[test]
fn dry_run_prints_the_parameters_the_gains_and_the_games() {
    let folder = scratch("tune-dry");
    let dir = folder.path();
    let cfg = tune_config(dir, 10, 50.0, "", "", None);
    let (code, out, err) = runner(&["tune", text(&cfg), "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("10 iterations of one pair = 20 games"),
        "{out}"
    );
    // c_1 = 8 * 10^0.101 and R_N = r_end: fishtest's gains.
    let row = out
        .lines()
        .find(|l| l.starts_with("skill"))
        .expect("the parameter's row");
    let fields: Vec<&str> = row.split_whitespace().collect();
    let c_1: f64 = fields[6].parse().expect("c_1");
    assert!((c_1 - 8.0 * 10f64.powf(0.101)).abs() < 1e-3, "{row}");
    assert_eq!(fields[8], "8.0000", "c_N = c_end: {row}");
    assert_eq!(fields[9], "0.050000", "R_N = r_end: {row}");
    assert!(!dir.join("out").exists(), "a dry run plays nothing");
}

#[test]
fn a_killed_tune_resumes_without_losing_or_doubling_an_iteration() {
    let folder = scratch("tune-kill");
    let dir = folder.path();
    let pairs = 60;
    // Slower games than the other tests, so that the kill comes in the middle.
    let cfg = tune_config(dir, pairs, 15.0, "", "", None);
    let slow = std::fs::read_to_string(&cfg)
        .expect("config")
        .replace("\"--best\",", "\"--move-ms\", \"2\", \"--best\",");
    std::fs::write(&cfg, slow).expect("write");
    let mut child = Command::new(bin("xq-runner"))
        .args(["tune", text(&cfg)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the tune");
    let journal = dir.join("out/tune.jsonl");
    wait_for_lines(&journal, 8);
    child.kill().expect("kill -9");
    let _ = child.wait();
    let before = std::fs::read_to_string(&journal).expect("journal");
    let complete = before
        .rfind('\n')
        .map_or("", |end| &before[..=end])
        .to_owned();
    let kept = complete.lines().count();
    assert!(
        kept >= 8 && kept < pairs as usize,
        "killed midway: {kept} pairs"
    );

    // A torn last line, as a kill in the middle of a write leaves it.
    std::fs::write(&journal, format!("{complete}{{\"iteration\":9")).expect("tear");

    let (code, out, err) = runner(&["tune", text(&cfg), "--resume"]);
    assert_eq!(code, 0, "{out}{err}");
    let after = std::fs::read_to_string(&journal).expect("journal");
    assert!(
        after.starts_with(&complete),
        "the finished iterations are kept as they were"
    );
    let all = records(dir);
    let iterations: Vec<u64> = all
        .iter()
        .map(|r| r["iteration"].as_u64().expect("k"))
        .collect();
    let distinct: BTreeSet<u64> = iterations.iter().copied().collect();
    assert_eq!(iterations.len(), pairs as usize, "no iteration doubled");
    assert_eq!(
        distinct,
        (1..=u64::from(pairs)).collect(),
        "no iteration lost"
    );
    // Resumed from theta as the journal left it: the first new update starts there.
    let theta = |r: &Value| r["theta"]["skill"].as_f64().expect("theta");
    let resumed_from = theta(&all[kept - 1]);
    let first_new = &all[kept];
    let step = (theta(first_new) - resumed_from).abs();
    assert!(
        step < 20.0,
        "the first resumed update moves theta from {resumed_from}, by {step}"
    );
}

/// The journal's complete lines, waiting until there are at least `n` (or 15 s).
fn wait_for_lines(journal: &Path, n: usize) -> usize {
    let mut lines = 0;
    for _ in 0..3000 {
        lines = std::fs::read_to_string(journal)
            .map(|t| t.matches('\n').count())
            .unwrap_or(0);
        if lines >= n {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    lines
}

#[test]
fn ctrl_c_stops_a_tune_that_resumes_to_the_end() {
    let folder = scratch("tune-ctrl-c");
    let dir = folder.path();
    let pairs = 40;
    let cfg = tune_config(dir, pairs, 15.0, "", "", None);
    let slow = std::fs::read_to_string(&cfg)
        .expect("config")
        .replace("\"--best\",", "\"--move-ms\", \"2\", \"--best\",");
    std::fs::write(&cfg, slow).expect("write");
    let child = Command::new(bin("xq-runner"))
        .args(["tune", text(&cfg)])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the tune");
    let journal = dir.join("out/tune.jsonl");
    assert!(wait_for_lines(&journal, 4) >= 4, "the tune plays");
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().expect("the tune ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(4),
        "an interrupted tune exits 4: {stdout}"
    );
    assert!(
        stdout.contains("--resume"),
        "it says how to resume: {stdout}"
    );
    let stopped = records(dir).len();
    assert!(stopped < pairs as usize, "stopped early: {stopped}");
    let (code, o, e) = runner(&["tune", text(&cfg), "--resume"]);
    assert_eq!(code, 0, "{o}{e}");
    let distinct: BTreeSet<u64> = records(dir)
        .iter()
        .map(|r| r["iteration"].as_u64().expect("k"))
        .collect();
    assert_eq!(records(dir).len(), pairs as usize);
    assert_eq!(distinct.len(), pairs as usize);
}

#[test]
fn a_new_tune_refuses_a_folder_that_holds_one() {
    let folder = scratch("tune-twice");
    let dir = folder.path();
    let cfg = tune_config(dir, 5, 50.0, "", "", None);
    assert_eq!(runner(&["tune", text(&cfg)]).0, 0);
    let (code, _, err) = runner(&["tune", text(&cfg)]);
    assert_eq!(code, 2);
    assert!(
        err.contains("holds tune-run.json already: continue that tune with --resume"),
        "{err}"
    );
    let changed = std::fs::read_to_string(&cfg)
        .expect("config")
        .replace("r_end = 0.05", "r_end = 0.06");
    std::fs::write(&cfg, changed).expect("write");
    let (code, _, err) = runner(&["tune", text(&cfg), "--resume"]);
    assert_eq!(code, 2);
    assert!(err.contains("differs in tune.param.0.r_end"), "{err}");
}

#[test]
fn a_tune_whose_files_cannot_be_written_exits_4_and_resume_writes_them() {
    let folder = scratch("tune-full-disk");
    let dir = folder.path();
    let cfg = tune_config(dir, 20, 15.0, "", "", None);
    let (code, out, err) = runner(&["tune", text(&cfg)]);
    assert_eq!(code, 0, "{out}{err}");
    let page = dir.join("out/report.html");
    let before = std::fs::read(&page).expect("report.html");
    assert!(
        before.len() > 8192,
        "the page is larger than the limit below"
    );
    // A file size limit stands for a full disk (8 blocks: 4 or 8 KiB by the shell).
    let limited = Command::new("sh")
        .args(["-c", "ulimit -f 8 && exec \"$0\" \"$@\""])
        .arg(bin("xq-runner"))
        .args(["tune", text(&cfg), "--resume"])
        .output()
        .expect("run the runner under a limit");
    let stderr = String::from_utf8_lossy(&limited.stderr);
    assert_eq!(limited.status.code(), Some(4), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("`--resume` writes the files"),
        "{}",
        errors[0]
    );
    assert_eq!(
        std::fs::read(&page).expect("report.html"),
        before,
        "left whole"
    );
    let (code, out, err) = runner(&["tune", text(&cfg), "--resume"]);
    assert_eq!(code, 0, "{out}{err}");
}
