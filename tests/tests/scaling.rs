//! Scaling runs end to end: a config's `[scaling]` list plays each setting as a match of
//! its own. The curve of an engine that searches deeper against one that does not
//! rises, over depths and over clocks; each depth point is its separate match game for
//! game; a run killed with
//! SIGKILL resumes with no game lost or doubled; `--dry-run` estimates each setting's
//! time; bad input is one line and exit 2.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{
    bin, fault_engine, journal, journal_games_so_far, mainlines, path, processes_with, runner,
    scratch, tag, timeless,
};
use serde_json::Value;

/// Our engine searching to the point's depth ("deeper") against itself at depth 1
/// ("depth1"), with `head` before the engines (a `[scaling]` table and others).
fn depth_config(dir: &Path, pairs: u32, head: &str) -> PathBuf {
    our_engine_config(dir, "scaling.toml", pairs, head, ["deeper", "depth1"], 1)
}

/// `dir/file`: our engine as `names[0]` on the point's limit against itself as
/// `names[1]` at its own fixed `depth`, `head` before the engines, output in `dir/out`.
fn our_engine_config(
    dir: &Path,
    file: &str,
    pairs: u32,
    head: &str,
    names: [&str; 2],
    depth: u32,
) -> PathBuf {
    let engine = bin("xq-engine").display().to_string();
    let [first, second] = names;
    let text = format!(
        r#"[tournament]
pairs = {pairs}
concurrency = 2
seed = 11

[openings]
file = "{openings}"
order = "random"

[output]
dir = "{out}"

{head}

[[engine]]
name = "{first}"
command = ["{engine}"]
options = {{ hashsize = "4" }}

[[engine]]
name = "{second}"
command = ["{engine}"]
options = {{ hashsize = "4" }}
time = {{ depth = {depth} }}
"#,
        openings = mainlines().display(),
        out = dir.join("out").display(),
    );
    let config = dir.join(file);
    std::fs::write(&config, text).expect("write config");
    config
}

fn json(file: &Path) -> Value {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_str(&text).expect("JSON")
}

/// The games of a journal as (pair, game, opening, moves, result).
fn games(dir: &Path) -> Vec<(u64, u64, Value, Value, Value)> {
    timeless(journal(dir))
        .into_iter()
        .map(|e| {
            (
                e["pair"].as_u64().unwrap_or(u64::MAX),
                e["game"].as_u64().unwrap_or(u64::MAX),
                e["opening"].clone(),
                e["moves"].clone(),
                e["result"].clone(),
            )
        })
        .collect()
}

#[test]
fn deeper_search_rises_and_each_depth_is_its_own_match_game_for_game() {
    let folder = scratch("scaling-depth");
    let config = depth_config(folder.path(), 10, "[scaling]\ndepth = [1, 2]\n");
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = folder.path().join("out");
    // The result block of each setting, and the table of them all.
    assert_eq!(stdout.matches("Scaling point ").count(), 2, "{stdout}");
    assert!(stdout.contains("Scaling over depth"), "{stdout}");
    let results = json(&out.join("scaling.json"));
    let points = results["points"].as_array().expect("points");
    assert_eq!(points.len(), 2);
    assert_eq!(points[0]["setting"], "1");
    assert_eq!(points[1]["setting"], "2");
    for p in points {
        assert_eq!(p["games"], 20, "{p}");
        assert_eq!(p["status"], "finished");
    }
    // At depth 1 both engines are the same program at the same depth: every pair is
    // a win and a loss or two draws, so the Elo is exactly 0.
    assert_eq!(points[0]["elo"].as_f64(), Some(0.0), "{}", points[0]);
    // One ply deeper is a clear gain (the games are fixed by the depths and openings).
    let deep = points[1]["elo"].as_f64().expect("elo at depth 2");
    let deep_lower = points[1]["elo_lower"].as_f64().expect("its lower bound");
    assert!(
        deep > 100.0 && deep_lower > 0.0,
        "the curve rises: {}",
        points[1]
    );
    assert!(points[1]["nelo"].as_f64().expect("nelo") > 0.0);
    let page = std::fs::read_to_string(out.join("report.html")).expect("report");
    assert!(page.contains("Elo against the setting") && page.contains("<svg"));
    assert!(page.contains("deeper vs depth1") && page.contains("depth-2/report.html"));

    // Each point equals the match of that depth alone, with the same seed.
    for depth in [1, 2] {
        let alone = scratch("scaling-alone");
        let plain = depth_config(alone.path(), 10, &format!("[time]\ndepth = {depth}\n"));
        let (code, stdout, stderr) = runner(&["run", path(&plain)]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        let point = out.join(format!("depth-{depth}"));
        let separate = alone.path().join("out");
        assert_eq!(games(&point).len(), 20);
        assert_eq!(games(&point), games(&separate), "depth {depth}");
        assert_eq!(
            json(&point.join("summary.json"))["config_hash"],
            json(&separate.join("summary.json"))["config_hash"],
            "the point is the same run as the match alone"
        );
    }
}

#[test]
fn an_engine_on_the_clock_gains_against_a_fixed_depth_as_the_clock_grows() {
    let folder = scratch("scaling-clock");
    let out = folder.path().join("out");
    // Our engine on the point's clock against itself at a fixed depth 6: far weaker on
    // 0.005+0.00005, far stronger on 2+0.02. (Against depth 4 it won every game on both
    // clocks on an idle machine, and an Elo that saturates cannot rise.)
    let head = "[time]\nmargin = \"200ms\"\n\n[scaling]\ntc = [\"0.005+0.00005\", \"2+0.02\"]";
    let config = our_engine_config(folder.path(), "clock.toml", 6, head, ["clock", "depth6"], 6);
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let results = json(&out.join("scaling.json"));
    assert_eq!(results["kind"], "tc");
    assert_eq!(results["log_axis"], true);
    let points = results["points"].as_array().expect("points");
    let (short, long) = (&points[0], &points[1]);
    assert_eq!(
        (short["setting"].as_str(), long["setting"].as_str()),
        (Some("0.005+0.00005"), Some("2+0.02"))
    );
    for p in points {
        assert_eq!(p["games"], 12, "{p}");
        assert_eq!(p["status"], "finished", "{p}");
    }
    // The clock's place on the axis: seconds a side in a game of 120 plies.
    let x = |p: &Value| p["x"].as_f64().expect("x");
    assert!((x(short) - 0.008).abs() < 1e-9 && (x(long) - 3.2).abs() < 1e-9);
    // The curve rises: the longer clock's Elo is higher, by more than 100 (on an idle
    // machine -280 to -540 then +1200 in three runs; with two busy loops beside it,
    // -1200 then +1200).
    let elo = |p: &Value| p["elo"].as_f64().expect("elo");
    assert!(
        elo(long) > elo(short) + 100.0,
        "the curve rises: {short} then {long}"
    );
    // Each point is the match of its clock: the games were played on it.
    let pgn = std::fs::read_to_string(out.join("tc-2+0.02/games.pgn")).expect("pgn");
    assert!(
        pgn.contains("[TimeControl \"2+0.02\"]"),
        "{}",
        &pgn[..pgn.len().min(800)]
    );
    let page = std::fs::read_to_string(out.join("report.html")).expect("report");
    assert!(page.contains("time control (log scale)") && page.contains("clock vs depth6"));

    // `report DIR` of the scaling folder writes its outputs again, as of a run folder.
    let before = std::fs::read_to_string(out.join("scaling.json")).expect("scaling.json");
    for gone in [
        "report.html",
        "scaling.json",
        "tc-2+0.02/report.html",
        "tc-0.005+0.00005/summary.md",
    ] {
        std::fs::remove_file(out.join(gone)).expect(gone);
    }
    let (code, stdout, stderr) = runner(&["report", path(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout.lines().next(),
        Some(path(&out.join("report.html"))),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("scaling.json")).expect("scaling.json again"),
        before
    );
    assert_eq!(
        std::fs::read_to_string(out.join("report.html")).expect("page again"),
        page
    );
    assert!(out.join("tc-2+0.02/report.html").is_file());
    assert!(out.join("tc-0.005+0.00005/summary.md").is_file());
}

#[test]
fn a_depth_list_may_keep_a_clock_each_search_on_it_capped_at_the_point_depth() {
    let folder = scratch("scaling-depth-clock");
    let head = "[time]\ntc = \"10+0.1\"\n\n[scaling]\ndepth = [1, 2]\n";
    let config = depth_config(folder.path(), 4, head);
    // The clock is kept: the plan shows it for the engine that takes [time]'s limits.
    let (code, stdout, stderr) = runner(&["run", path(&config), "--dry-run"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("(ucci; 10+0.1;") && stdout.contains("depth 2 "),
        "{stdout}"
    );
    let log = folder.path().join("traffic.log");
    let (code, stdout, stderr) = runner(&["run", path(&config), "--log", path(&log)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // "deeper" searches on its clock, capped at the point's depth; "depth1" keeps its
    // own limit.
    let traffic = std::fs::read_to_string(&log).expect("traffic log");
    let go = |cap: &str| {
        traffic
            .lines()
            .any(|l| l.contains("> go time ") && l.contains(" opptime ") && l.ends_with(cap))
    };
    assert!(go(" depth 1") && go(" depth 2"), "{traffic}");
    assert!(traffic.lines().any(|l| l.ends_with("> go depth 1")));
    let out = folder.path().join("out");
    let pgn = std::fs::read_to_string(out.join("depth-2/games.pgn")).expect("pgn");
    assert!(
        pgn.contains("[TimeControl \"10+0.1\"]"),
        "{}",
        &pgn[..pgn.len().min(800)]
    );
    // At depth 1 on the clock, the searches are those of depth 1 alone: the point's
    // games are the plain depth-1 match's.
    let alone = scratch("scaling-depth-clock-alone");
    let plain = depth_config(alone.path(), 4, "[time]\ndepth = 1\n");
    let (code, stdout, stderr) = runner(&["run", path(&plain)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let moves = |dir: &Path| -> Vec<Value> { games(dir).into_iter().map(|g| g.3).collect() };
    assert_eq!(
        moves(&out.join("depth-1")),
        moves(&alone.path().join("out"))
    );
}

/// Two fault engines (instant, or `sleep_ms` a move for the first), interleaved over
/// two depths; the fault engine ignores the depth, so its games are the same at both.
fn fault_scaling(dir: &Path, tag: &str, sleep_ms: u32) -> PathBuf {
    let engine = fault_engine().display().to_string();
    let text = format!(
        r#"[tournament]
pairs = 4
concurrency = 2
seed = 5

[openings]
file = "{openings}"
order = "random"

[output]
dir = "{out}"

[scaling]
depth = [1, 2]
interleave = true

[[engine]]
name = "a"
command = ["{engine}", "--fault", "sleep", "--sleep-ms", "{sleep_ms}", "--tag", "{tag}"]

[[engine]]
name = "b"
command = ["{engine}", "--tag", "{tag}"]
time = {{ nodes = 1000 }}
"#,
        openings = mainlines().display(),
        out = dir.join("out").display(),
    );
    let config = dir.join("scaling.toml");
    std::fs::write(&config, text).expect("write config");
    config
}

#[test]
fn a_scaling_run_killed_with_sigkill_resumes_with_no_game_lost_or_doubled() {
    let whole = scratch("scaling-whole");
    let reference = fault_scaling(whole.path(), &tag("scaling-whole"), 0);
    let (code, stdout, stderr) = runner(&["run", path(&reference)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // Interleaved: the first point's first round, then the second's, then the rest.
    let first = stdout.find("Scaling point 1 of 2: depth 1 (2 pairs of 4)");
    let second = stdout.find("Scaling point 2 of 2: depth 2 (2 pairs of 4)");
    let third = stdout.find("Scaling point 1 of 2: depth 1 (4 pairs of 4)");
    assert!(
        first < second && second < third && first.is_some(),
        "{stdout}"
    );
    // Interleaved, a point still plays the games of its match alone.
    let alone = scratch("scaling-interleaved-alone");
    let plain = alone.path().join("plain.toml");
    let text = std::fs::read_to_string(&reference)
        .expect("config")
        .replace(
            "[scaling]\ndepth = [1, 2]\ninterleave = true",
            "[time]\ndepth = 2",
        )
        .replace(
            path(&whole.path().join("out")),
            path(&alone.path().join("out")),
        );
    std::fs::write(&plain, text).expect("write");
    let (code, stdout, stderr) = runner(&["run", path(&plain)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        games(&whole.path().join("out").join("depth-2")),
        games(&alone.path().join("out"))
    );

    let cut = scratch("scaling-cut");
    let label = tag("scaling-cut");
    let config = fault_scaling(cut.path(), &label, 3);
    let mut child = Command::new(bin("xq-runner"))
        .args(["run", path(&config)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start runner");
    let out = cut.path().join("out");
    // Killed while the second point plays its first round, or later.
    for _ in 0..2000 {
        if journal_games_so_far(&out.join("depth-2")) >= 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    // Its engines see their input close and leave.
    for _ in 0..400 {
        if processes_with(&label).is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let before: usize = ["depth-1", "depth-2"]
        .iter()
        .map(|d| journal(&out.join(d)).len())
        .sum();
    assert!(before < 16, "killed before the end ({before} games)");

    let (code, stdout, stderr) = runner(&["resume", path(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    for d in ["depth-1", "depth-2"] {
        let resumed = games(&out.join(d));
        assert_eq!(resumed.len(), 8, "{d}: no game lost, none doubled");
        assert_eq!(resumed, games(&whole.path().join("out").join(d)), "{d}");
    }
    let results = json(&out.join("scaling.json"));
    for p in results["points"].as_array().expect("points") {
        assert_eq!(p["games"], 8, "{p}");
    }
}

#[test]
fn an_interleaved_run_says_resuming_only_when_resumed_and_names_its_own_folder_to_resume() {
    // A fresh interleaved run extends each point round after round: no resume there.
    let fresh = scratch("scaling-fresh-words");
    let config = fault_scaling(fresh.path(), &tag("scaling-fresh-words"), 0);
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("(4 pairs of 4)"),
        "a second round: {stdout}"
    );
    assert!(!stdout.contains("Resum"), "{stdout}");

    // Stopped by a signal in a point: one hint, the scaling run's folder.
    let cut = scratch("scaling-stop-words");
    let label = tag("scaling-stop-words");
    let config = fault_scaling(cut.path(), &label, 3);
    let child = Command::new(bin("xq-runner"))
        .args(["run", path(&config)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start runner");
    let out = cut.path().join("out");
    assert!(
        common::eventually(Duration::from_secs(60), || {
            journal_games_so_far(&out.join("depth-1")) >= 1
        }),
        "no game played"
    );
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(term.success());
    let ended = child.wait_with_output().expect("the runner ends");
    let stdout = String::from_utf8_lossy(&ended.stdout);
    assert_eq!(ended.status.code(), Some(4), "{stdout}");
    let hints: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("xq-runner resume"))
        .collect();
    assert_eq!(hints.len(), 1, "{stdout}");
    assert!(
        hints[0].ends_with(&format!("Resume with: xq-runner resume {}", out.display())),
        "{stdout}"
    );

    // Its resume goes on where the points were: those are resumed.
    let (code, stdout, stderr) = runner(&["resume", path(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("Resuming {}", out.join("depth-1").display())),
        "{stdout}"
    );
}

#[test]
fn dry_run_estimates_each_clock_before_anything_runs() {
    let folder = scratch("scaling-dry");
    let engine = fault_engine().display().to_string();
    let out = folder.path().join("out");
    let text = format!(
        r#"[tournament]
pairs = 100
concurrency = 2

[output]
dir = "{out}"

[time]
margin = "100ms"

[scaling]
tc = ["2+0.02", "60+0.6"]

[[engine]]
name = "a"
command = ["{engine}"]

[[engine]]
name = "b"
command = ["{engine}"]
"#,
        out = out.display(),
    );
    let config = folder.path().join("tc.toml");
    std::fs::write(&config, text).expect("write");
    let (code, stdout, stderr) = runner(&["run", path(&config), "--dry-run"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // 200 games of 2 x (2 s + 60 x 0.02 s) at concurrency 2: 640 s; 60+0.6 is 30 times.
    let line = |setting: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(setting))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        line("tc 2+0.02 ").contains("200 games at most, about 11 min"),
        "{stdout}"
    );
    assert!(
        line("tc 60+0.6 ").contains("200 games at most, about 5.3 h"),
        "{stdout}"
    );
    assert!(stdout.contains("total: about 5.5 h"), "{stdout}");
    assert!(!out.exists(), "a dry run writes nothing");
}

/// Runs a config with `scaling` as its `[scaling]` table (and `time` as its `[time]`),
/// and returns (exit code, stdout, stderr, the config's path).
fn refused(name: &str, time: &str, scaling: &str, args: &[&str]) -> (i32, String, String, PathBuf) {
    let folder = scratch(name);
    let engine = fault_engine().display().to_string();
    let out = folder.path().join("out");
    let text = format!(
        "[tournament]\npairs = 2\n\n[output]\ndir = \"{}\"\n\n[time]\n{time}\n\n[scaling]\n{scaling}\n\n[[engine]]\nname = \"a\"\ncommand = [\"{engine}\"]\n\n[[engine]]\nname = \"b\"\ncommand = [\"{engine}\"]\n",
        out.display()
    );
    let config = folder.path().join("bad.toml");
    std::fs::write(&config, text).expect("write");
    let mut all = vec!["run", path(&config)];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = runner(&all);
    assert!(!out.exists(), "{name}: nothing written");
    (code, stdout, stderr, config)
}

/// A refused config: its name, `[time]`, `[scaling]`, extra arguments, the line the
/// error names and words of its message.
type Case<'a> = (
    &'a str,
    &'a str,
    &'a str,
    &'a [&'a str],
    Option<usize>,
    &'a str,
);

#[test]
fn bad_scaling_input_is_one_line_and_exit_2() {
    // (case, [time], [scaling], extra args, the line blamed, words of the message)
    let cases: [Case<'_>; 7] = [
        (
            "one setting",
            "",
            "depth = [4]",
            &[],
            Some(11),
            "scaling.depth: a scaling list needs at least two settings (this one has 1)",
        ),
        (
            "mixed kinds",
            "",
            "depth = [4, 6]\nnodes = [100, 200]",
            &[],
            Some(10),
            "scaling: set one list of settings: this one sets depth and nodes",
        ),
        (
            "unknown key",
            "",
            "depth = [4, 6]\nsteps = 3",
            &[],
            Some(12),
            "unknown field `steps`",
        ),
        (
            "bad tc",
            "",
            "tc = [\"2+0.02\", \"2+x\"]",
            &[],
            Some(11),
            "scaling.tc: bad time control `2+x`: increment is not a number",
        ),
        (
            "bad depth",
            "",
            "depth = [4, 0]",
            &[],
            Some(11),
            "scaling.depth: time.depth: depth must be 1..",
        ),
        (
            "two limits",
            "tc = \"10+0.1\"",
            "nodes = [400, 800]",
            &[],
            Some(8),
            "time.tc: the [scaling] nodes list sets the limit of each point",
        ),
        (
            "shard",
            "",
            "depth = [4, 6]",
            &["--shard", "1/2"],
            None,
            "--shard and --db are not for it",
        ),
    ];
    for (case, time, scaling, args, line, words) in cases {
        let (code, stdout, stderr, config) = refused("scaling-bad", time, scaling, args);
        assert_eq!(code, 2, "{case}: {stdout}{stderr}");
        assert!(stdout.is_empty(), "{case}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{case}: one line: {stderr}");
        assert!(stderr.starts_with("error: "), "{case}: {stderr}");
        let place = match line {
            Some(l) => format!("{}:{l}: ", config.display()),
            None => format!("{}: ", config.display()),
        };
        assert!(stderr.contains(&place), "{case}: {place} in {stderr}");
        assert!(stderr.contains(words), "{case}: {words} in {stderr}");
    }
}
