//! `xq-runner bisect` end to end with the real binaries, on series of builds that are
//! small wrapper scripts around the tune engine: a build plays greedily (`--best 50`,
//! its default skill) before the first bad one and at random (`--best 0`) from it on,
//! each with a `--seed` of its own (deterministic moves), at depth 1 over the shipped
//! openings. The first bad build is drawn afresh at each test run.
//!
//! The bisection finds it in log2 steps plus the confirmation; it replays game for
//! game; a series whose bad end is not worse stops with exit 1; a git series (commits
//! that change a constant of a script the build copies) works the same, skipping a
//! commit that does not build and building each commit once; a bisection killed with
//! SIGKILL mid-step resumes to the same steps and games; bad input is one line and
//! exit 2. With `--db`, against a throwaway PostgreSQL cluster, each step is a run
//! that a worker plays (the builds travelling with it), the steps and games are those
//! of the local bisection, and a bisector killed while it waits resumes without
//! storing the step again.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::fleet::{fleet, fleet_with_reader, status, worker};
use common::web::{serve, Browser};
use common::{bin, runner, scratch, workspace};
use serde_json::Value;

fn tune_engine() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tune-engine"))
}

fn text(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// A number in `1..=max` that changes from run to run.
fn random_build(max: usize) -> usize {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(7, |d| d.subsec_nanos() as usize);
    1 + (nanos ^ std::process::id() as usize) % max
}

/// The wrapper script of build `i`: worse (random moves) when `bad`; `extra` adds
/// arguments (a move delay).
fn script(i: usize, bad: bool, extra: &str) -> String {
    format!(
        "#!/bin/sh\nexec {} --best {} --seed {i} {extra} \"$@\"\n",
        tune_engine().display(),
        if bad { 0 } else { 50 }
    )
}

/// Ten builds `b0..b9` in `dir`, worse from `first_bad` on (none when it is past 9).
fn series(dir: &Path, first_bad: usize, extra: &str) -> Vec<String> {
    (0..10)
        .map(|i| {
            let path = dir.join(format!("b{i}"));
            std::fs::write(&path, script(i, i >= first_bad, extra)).expect("write build");
            make_executable(&path);
            path.display().to_string()
        })
        .collect()
}

/// The builds of [`series`] again in `dir/slow`, each 3 ms slower a move, so that a
/// kill lands inside step 1.
fn slow_series(dir: &Path, first_bad: usize) -> Vec<String> {
    let slow_dir = dir.join("slow");
    std::fs::create_dir_all(&slow_dir).expect("slow folder");
    series(&slow_dir, first_bad, "--move-ms 3")
}

/// Starts `xq-runner args`, waits until `ready` gives a value (at most 120 s, else
/// fails saying `never`), kills the runner with SIGKILL, and returns the value.
fn kill_when<T>(args: &[&str], never: &str, mut ready: impl FnMut() -> Option<T>) -> T {
    let mut child = Command::new(bin("xq-runner"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start bisect");
    let began = Instant::now();
    let value = loop {
        if let Some(value) = ready() {
            break value;
        }
        assert!(began.elapsed() < Duration::from_secs(120), "{never}");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "bisect ended early"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().expect("SIGKILL");
    child.wait().expect("reap");
    value
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The match settings of every step: depth 1 (the tune engine ignores it; the runner
/// then sends no clock), one game at a time, the shipped openings.
fn config(dir: &Path) -> PathBuf {
    let openings = workspace().join("openings/balanced-1k.epd");
    let text = format!(
        r#"[tournament]
concurrency = 1
seed = 3
pairs = 200

[time]
depth = 1

[openings]
file = "{}"

[rules]
move_limit = 60

[adjudication]
max_plies = 150

[[engine]]
name = "engine"
command = ["engine"]
"#,
        openings.display()
    );
    let path = dir.join("bisect.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// `bisect` of `builds` into `out` with the tests' SPRT (nElo [-200, 0]: the builds
/// differ by far more, so each step ends in tens of games).
fn bisect_args<'a>(cfg: &'a Path, out: &'a Path, builds: &'a [String]) -> Vec<&'a str> {
    let mut args = vec![
        "bisect",
        "--config",
        text(cfg),
        "--out",
        text(out),
        "--elo",
        "200",
        "--builds",
    ];
    args.extend(builds.iter().map(String::as_str));
    args
}

fn state(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("bisect.json")).expect("bisect.json"))
        .expect("bisect.json is JSON")
}

/// Each step's (build, verdict, games, LLR).
fn steps(out: &Path) -> Vec<(u64, String, u64, String)> {
    state(out)["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| {
            (
                s["build"].as_u64().expect("build"),
                s["verdict"].as_str().expect("verdict").to_owned(),
                s["games"].as_u64().expect("games"),
                format!("{:.6}", s["llr"].as_f64().expect("llr")),
            )
        })
        .collect()
}

/// Every game of a step's journal by (pair, game): its moves and result. Panics on a
/// game recorded twice.
fn games(step: &Path) -> BTreeMap<(u64, u64), String> {
    let journal = std::fs::read_to_string(step.join("games.jsonl")).expect("journal");
    let mut all = BTreeMap::new();
    for line in journal.lines() {
        let g: Value = serde_json::from_str(line).expect("a journal line");
        let key = (
            g["pair"].as_u64().expect("pair"),
            g["game"].as_u64().expect("game"),
        );
        let value = format!("{} {} {}", g["red"], g["moves"], g["result"]);
        assert!(
            all.insert(key, value).is_none(),
            "{}: game {key:?} recorded twice",
            step.display()
        );
    }
    all
}

fn first_bad(out: &Path) -> Option<u64> {
    state(out)["outcome"]["first_bad"].as_u64()
}

#[test]
fn finds_the_first_worse_build_of_ten_in_log2_steps_and_replays_game_for_game() {
    let k = random_build(9);
    let folder = scratch("bisect-finds");
    let dir = folder.path();
    let builds = series(dir, k, "");
    let cfg = config(dir);
    let mut outs = Vec::new();
    for run in ["a", "b"] {
        let out = dir.join(format!("out-{run}"));
        let (code, stdout, stderr) = runner(&bisect_args(&cfg, &out, &builds));
        assert_eq!(code, 0, "k {k}\n{stdout}\n{stderr}");
        assert_eq!(first_bad(&out), Some(k as u64), "k {k}\n{stdout}");
        assert!(
            stdout.contains(&format!("the first bad build is {k} ")),
            "k {k}\n{stdout}"
        );
        let steps = steps(&out);
        // The confirmation, then ceil(log2 9) = 4 halvings at most, 3 at least.
        assert!((4..=5).contains(&steps.len()), "k {k}: {steps:?}");
        assert_eq!((steps[0].0, steps[0].1.as_str()), (9, "worse"), "{steps:?}");
        for (i, step) in steps.iter().enumerate() {
            let expected = if step.0 >= k as u64 {
                "worse"
            } else {
                "as good"
            };
            assert_eq!(step.1, expected, "k {k}: step {i} {steps:?}");
            // One progress line after each step, each a normal run folder with its report.
            assert!(
                stdout.contains(&format!("bisect step {i}: build {} is {expected}", step.0)),
                "{stdout}"
            );
            // The step's wall time, and from the second on the bisector's own time
            // before it (measured, not judged here).
            let recorded = &state(&out)["steps"][i];
            assert!(
                recorded["wall_s"].as_f64().is_some_and(|t| t > 0.0),
                "{recorded}"
            );
            assert_eq!(
                recorded["between_s"].as_f64().is_some(),
                i > 0,
                "{recorded}"
            );
            let folder = out.join(format!("step-{i:02}"));
            for file in ["run.json", "games.jsonl", "summary.json", "report.html"] {
                assert!(folder.join(file).is_file(), "{}/{file}", folder.display());
            }
        }
        let md = std::fs::read_to_string(out.join("bisect.md")).expect("bisect.md");
        assert!(md.contains(&format!("the first bad build is {k} ")), "{md}");
        assert!(md.contains("| 0 | 9 |"), "{md}");
        let chain = state(&out)["outcome"]["chain_error"]
            .as_f64()
            .expect("chain error");
        let expected = 1.0 - 0.95f64.powi(steps.len() as i32);
        assert!((chain - expected).abs() < 1e-9, "{chain} {expected}");
        outs.push(out);
    }
    assert_eq!(steps(&outs[0]), steps(&outs[1]), "the steps differ");
    for i in 0..steps(&outs[0]).len() {
        let name = format!("step-{i:02}");
        let (a, b) = (games(&outs[0].join(&name)), games(&outs[1].join(&name)));
        assert!(!a.is_empty());
        assert_eq!(a, b, "{name}: the games differ");
    }
}

#[test]
fn a_series_whose_bad_end_is_not_worse_stops_with_exit_1() {
    let folder = scratch("bisect-not-worse");
    let dir = folder.path();
    let builds = series(dir, 10, "");
    let cfg = config(dir);
    let out = dir.join("out");
    let (code, stdout, stderr) = runner(&bisect_args(&cfg, &out, &builds));
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("the bad end (build 9) is not worse than build 0"),
        "{stdout}"
    );
    let steps = steps(&out);
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0].1, "as good");
    assert_eq!(state(&out)["status"], "not_worse");
    assert!(!out.join("step-01").exists());
}

fn git(repo: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("git");
    assert!(status.success(), "git {args:?}");
}

/// A repository of 8 commits of `engine.sh` (the strength constant changes at commit
/// `k`); commit 3 adds a file that breaks the build, commit 4 removes it.
fn repository(dir: &Path, k: usize) -> PathBuf {
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).expect("repo folder");
    git(&repo, &["init", "-q"]);
    for i in 0..8 {
        std::fs::write(repo.join("engine.sh"), script(i, i >= k, "")).expect("engine.sh");
        if i == 3 {
            std::fs::write(repo.join("broken"), "").expect("broken");
        } else if repo.join("broken").exists() {
            std::fs::remove_file(repo.join("broken")).expect("unbreak");
        }
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", &format!("change {i}")]);
    }
    repo
}

#[test]
fn a_git_series_finds_the_commit_builds_each_once_and_skips_one_that_does_not_build() {
    let k = [1, 2, 4, 5, 6, 7][random_build(6) - 1];
    let folder = scratch("bisect-git");
    let dir = folder.path();
    let repo = repository(dir, k);
    let cfg = config(dir);
    let counter = dir.join("builds.log");
    let build = format!(
        "echo \"$(pwd)\" >> {}; test ! -e broken && cp engine.sh out.sh && chmod +x out.sh",
        counter.display()
    );
    let cache = dir.join("cache");
    let bisect = |out: &Path| {
        runner(&[
            "bisect",
            "--config",
            text(&cfg),
            "--out",
            text(out),
            "--elo",
            "200",
            "--repo",
            text(&repo),
            "--good",
            "HEAD~7",
            "--bad",
            "HEAD",
            "--build",
            &build,
            "--binary",
            "out.sh",
            "--cache",
            text(&cache),
        ])
    };
    let out = dir.join("out");
    let repo = std::fs::canonicalize(&repo).expect("the repository");
    let (code, stdout, stderr) = bisect(&out);
    assert_eq!(code, 0, "k {k}\n{stdout}\n{stderr}");
    assert_eq!(first_bad(&out), Some(k as u64), "k {k}\n{stdout}");
    // The first halving lands on commit 3, which does not build: skipped.
    assert!(stdout.contains("does not build"), "{stdout}");
    assert_eq!(state(&out)["skipped"], serde_json::json!([3]));
    let md = std::fs::read_to_string(out.join("bisect.md")).expect("bisect.md");
    assert!(md.contains(&format!("change {k}")), "{md}");
    assert!(stdout.contains(&format!("change {k})")), "{stdout}");
    // Each commit's worktree is gone from the user's repository once it is built.
    assert_eq!(worktrees(&repo), vec![repo.clone()], "git worktree list");
    let built = std::fs::read_to_string(&counter).expect("builds.log");
    let lines: Vec<&str> = built.lines().collect();
    let distinct: std::collections::BTreeSet<&str> = lines.iter().copied().collect();
    assert_eq!(lines.len(), distinct.len(), "a commit built twice: {built}");
    // A second bisection with the same cache builds nothing again.
    let (code, stdout, stderr) = bisect(&dir.join("out2"));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert_eq!(first_bad(&dir.join("out2")), Some(k as u64));
    let again = std::fs::read_to_string(&counter).expect("builds.log");
    assert_eq!(again, built, "the cache was not reused");
    assert_eq!(worktrees(&repo), vec![repo.clone()], "git worktree list");
}

/// The worktrees `git worktree list` names in `repo` (the main one first).
fn worktrees(repo: &Path) -> Vec<PathBuf> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["worktree", "list", "--porcelain"])
        .output()
        .expect("git worktree list");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("worktree "))
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| PathBuf::from(p)))
        .collect()
}

#[test]
fn a_bisection_killed_mid_step_resumes_to_the_same_steps_and_games() {
    let k = random_build(9);
    let folder = scratch("bisect-kill");
    let dir = folder.path();
    let cfg = config(dir);
    let reference = dir.join("reference");
    let builds = series(dir, k, "");
    let (code, stdout, _) = runner(&bisect_args(&cfg, &reference, &builds));
    assert_eq!(code, 0, "{stdout}");
    // The same builds, moving slower, so that the kill lands inside step 1.
    let slow = slow_series(dir, k);
    let out = dir.join("out");
    let journal = out.join("step-01/games.jsonl");
    kill_when(
        &bisect_args(&cfg, &out, &slow),
        "step 1 never played 3 games",
        || {
            let lines = std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count());
            (lines >= 3).then_some(())
        },
    );
    assert_eq!(state(&out)["steps"].as_array().map(Vec::len), Some(1));
    let (code, stdout, stderr) = runner(&["resume", text(&out)]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("Resuming"), "{stdout}");
    assert_eq!(steps(&out), steps(&reference), "k {k}");
    assert_eq!(first_bad(&out), Some(k as u64));
    for i in 0..steps(&out).len() {
        let name = format!("step-{i:02}");
        assert_eq!(
            games(&out.join(&name)),
            games(&reference.join(&name)),
            "{name}: a game lost, doubled or changed"
        );
    }
}

#[test]
fn a_bisection_stopped_mid_step_names_one_way_to_go_on() {
    let folder = scratch("bisect-stop-hint");
    let dir = folder.path();
    let cfg = config(dir);
    let slow = slow_series(dir, random_build(9));
    let out = dir.join("out");
    let child = Command::new(bin("xq-runner"))
        .args(bisect_args(&cfg, &out, &slow))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start bisect");
    let journal = out.join("step-00/games.jsonl");
    let began = Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "step 0 played nothing"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(term.success());
    let ended = child.wait_with_output().expect("bisect ends");
    let stdout = String::from_utf8_lossy(&ended.stdout);
    assert_eq!(ended.status.code(), Some(4), "{stdout}");
    // One hint, the bisection's folder: a step's own resume would leave the bisection.
    let hints: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("xq-runner resume"))
        .collect();
    assert_eq!(hints.len(), 1, "{stdout}");
    assert!(
        hints[0].ends_with(&format!(
            "continue with: xq-runner resume {}",
            out.display()
        )),
        "{stdout}"
    );
    let (code, stdout, stderr) = runner(&["resume", text(&out)]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
}

/// Asserts a refusal: exit 2, an error line saying `says` first, nothing bisected;
/// returns the error output.
fn refused(args: &[&str], out: &Path, says: &str) -> String {
    let (code, stdout, stderr) = runner(args);
    assert_eq!(code, 2, "{args:?}\n{stdout}\n{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("error:") && first.contains(says),
        "{args:?}: {stderr}"
    );
    assert!(!out.join("bisect.json").exists(), "{args:?}");
    assert!(!out.join("step-00").exists(), "{args:?}");
    stderr
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let folder = scratch("bisect-bad-input");
    let dir = folder.path();
    let cfg = config(dir);
    let out = dir.join("out");
    let builds = series(dir, 5, "");
    let one = bisect_args(&cfg, &out, &builds[..1]);
    assert_eq!(refused(&one, &out, "at least two").lines().count(), 1);
    // clap's own error: its first line names the flag (a usage hint follows).
    let mut unknown = bisect_args(&cfg, &out, &builds);
    unknown.push("--frobnicate");
    refused(&unknown, &out, "--frobnicate");
    let repo = repository(dir, 4);
    let git_args = |good: &'static str, bad: &'static str, build: &'static str| {
        vec![
            "bisect".to_owned(),
            "--config".to_owned(),
            text(&cfg).to_owned(),
            "--out".to_owned(),
            text(&out).to_owned(),
            "--repo".to_owned(),
            text(&repo).to_owned(),
            "--good".to_owned(),
            good.to_owned(),
            "--bad".to_owned(),
            bad.to_owned(),
            "--build".to_owned(),
            build.to_owned(),
            "--binary".to_owned(),
            "out.sh".to_owned(),
        ]
    };
    let refuse_git = |args: Vec<String>, says: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let stderr = refused(&args, &out, says);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    };
    refuse_git(
        git_args("HEAD", "HEAD~3", "cp engine.sh out.sh"),
        "bad git range",
    );
    refuse_git(
        git_args("HEAD", "HEAD", "cp engine.sh out.sh"),
        "bad git range",
    );
    refuse_git(
        git_args("nosuchrev", "HEAD", "cp engine.sh out.sh"),
        "not a commit",
    );
    refuse_git(git_args("HEAD~7", "HEAD", "exit 3"), "does not build");
    // --db: the workers' concurrency decides; a database that does not answer.
    let mut db_args = bisect_args(&cfg, &out, &builds);
    db_args.extend([
        "--db",
        "host=127.0.0.1 port=1 user=x dbname=x",
        "--concurrency",
        "2",
    ]);
    assert_eq!(refused(&db_args, &out, "--concurrency").lines().count(), 1);
    db_args.truncate(db_args.len() - 2);
    assert_eq!(refused(&db_args, &out, "--db").lines().count(), 1);
    let mut no_db = bisect_args(&cfg, &out, &builds);
    no_db.push("--no-upload");
    refused(&no_db, &out, "only with --db");
}

#[test]
fn with_db_each_step_is_a_run_a_worker_plays_and_a_killed_bisector_resumes_without_storing_it_twice(
) {
    let k = random_build(9);
    let folder = scratch("bisect-db");
    let dir = folder.path();
    let cfg = config(dir);
    let reference = dir.join("reference");
    let builds = series(dir, k, "");
    let (code, stdout, _) = runner(&bisect_args(&cfg, &reference, &builds));
    assert_eq!(code, 0, "{stdout}");

    let cluster = fleet();
    let cache = dir.join("worker-cache");
    // One worker, one game at a time, waiting for the next step's run between steps.
    let mut player = worker(
        &cluster,
        "w1",
        &["--wait", "--concurrency", "1", "--cache", text(&cache)],
    );
    // The builds move slower, so that the kill lands while step 1's run plays.
    let slow = slow_series(dir, k);
    let out = dir.join("out");
    let url = cluster.url("xq_owner");
    let mut args = bisect_args(&cfg, &out, &slow);
    args.extend(["--db", &url, "--batch-pairs", "1"]);
    let run_of_step_1 = kill_when(&args, "step 1's run never played 2 games", || {
        let s = std::fs::read_to_string(out.join("bisect.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok());
        let id = s
            .as_ref()
            .filter(|s| s["submitted"]["step"] == 1)
            .and_then(|s| s["submitted"]["run"].as_i64())?;
        let games = cluster.sql(&format!("SELECT games_done FROM xq.runs WHERE id = {id}"));
        (games.parse::<u64>().unwrap_or(0) >= 2).then_some(id)
    });
    assert_eq!(state(&out)["steps"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        state(&out)["steps"][0]["run"].as_i64(),
        Some(run_of_step_1 - 1)
    );

    let (code, stdout, stderr) = runner(&["resume", text(&out)]);
    let _ = player.kill();
    let _ = player.wait();
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!(
            "bisect step 1: waiting for run {run_of_step_1}, stored before"
        )),
        "{stdout}"
    );
    assert_eq!(first_bad(&out), Some(k as u64), "k {k}\n{stdout}");
    // The steps of the local bisection, each stored once. A worker claims its next
    // batch while it plays the last: the games in flight when the verdict falls may
    // count too, so a step may hold a pair or two more than the local one.
    let verdicts = |s: Vec<(u64, String, u64, String)>| -> Vec<(u64, String)> {
        s.into_iter().map(|(b, v, _, _)| (b, v)).collect()
    };
    assert_eq!(verdicts(steps(&out)), verdicts(steps(&reference)), "k {k}");
    let stored = cluster.sql("SELECT count(*) FROM xq.runs");
    assert_eq!(stored, steps(&out).len().to_string(), "a step stored twice");
    let runs: Vec<i64> = state(&out)["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| s["run"].as_i64().expect("each step names its run"))
        .collect();
    let first = runs[0];
    assert_eq!(runs, (first..first + runs.len() as i64).collect::<Vec<_>>());
    assert!(state(&out).get("submitted").is_none(), "{}", state(&out));
    for i in 0..runs.len() {
        let name = format!("step-{i:02}");
        // Game for game the local step's, none lost or doubled (`games` panics on a
        // game recorded twice).
        let (fleet_games, local) = (games(&out.join(&name)), games(&reference.join(&name)));
        for (key, game) in &local {
            assert_eq!(fleet_games.get(key), Some(game), "{name}: game {key:?}");
        }
        assert!(out.join(&name).join("report.html").is_file(), "{name}");
    }
    let md = std::fs::read_to_string(out.join("bisect.md")).expect("bisect.md");
    assert!(md.contains(&format!("(run {run_of_step_1})")), "{md}");
    // The builds travelled with the runs: the worker played them from its cache.
    assert!(
        cluster
            .sql("SELECT count(DISTINCT sha256) FROM xq.run_files WHERE role = 'program'")
            .parse::<usize>()
            .unwrap_or(0)
            >= 2
    );
}

#[test]
fn with_db_a_git_series_stores_the_commit_of_each_builds_engine_and_the_run_page_shows_it() {
    let folder = scratch("bisect-git-db");
    let dir = folder.path();
    let repo = repository(dir, 5);
    let cfg = config(dir);
    let cluster = fleet_with_reader();
    let cache = dir.join("worker-cache");
    let mut player = worker(
        &cluster,
        "w1",
        &["--wait", "--concurrency", "1", "--cache", text(&cache)],
    );
    let out = dir.join("out");
    let url = cluster.url("xq_owner");
    let (code, stdout, stderr) = runner(&[
        "bisect",
        "--config",
        text(&cfg),
        "--out",
        text(&out),
        "--elo",
        "200",
        "--repo",
        text(&repo),
        "--good",
        "HEAD~7",
        "--bad",
        "HEAD",
        "--build",
        "test ! -e broken && cp engine.sh out.sh && chmod +x out.sh",
        "--binary",
        "out.sh",
        "--cache",
        text(&dir.join("cache")),
        "--db",
        &url,
        "--batch-pairs",
        "1",
    ]);
    let _ = player.kill();
    let _ = player.wait();
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let s = state(&out);
    let served = serve(&["--db", &cluster.url("xq_reader")], &[]);
    for step in s["steps"].as_array().expect("steps") {
        let id = step["run"].to_string();
        let tested = step["build"].as_u64().expect("a build") as usize;
        let commit = |b: usize| {
            s["builds"][b]["commit"]
                .as_str()
                .expect("a commit")
                .to_owned()
        };
        // The step's engines: the tested build, then build 0.
        let engines = status(&cluster, &id)["engines"].clone();
        assert_eq!(engines[0]["commit"], commit(tested).as_str(), "{engines}");
        assert_eq!(engines[1]["commit"], commit(0).as_str(), "{engines}");
        let mut page = Browser::open(&format!("{}/runs/{id}", served.base));
        page.wait(
            "the step's run page",
            "document.querySelector('#about .engine') !== null",
            Duration::from_secs(30),
        );
        assert_eq!(
            page.eval("[...document.querySelectorAll('#about .commit')].map(c => c.textContent)"),
            serde_json::json!([&commit(tested)[..10], &commit(0)[..10]])
        );
    }
}
