//! The output folder of a run, end to end: resume from the folder alone, a copied folder,
//! an extended run, refusals that name what changed (config keys, the opening file),
//! counts that agree everywhere at an SPRT stop, a report that never writes the journal,
//! refusals that start nothing, and one runner at a time in a folder.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{
    bin, fault_engine, journal, journal_games_so_far, mainlines, path, runner, scratch, timeless,
};
use serde_json::Value;

/// A match of two instant fault engines (deterministic, varied games), written to `dir`;
/// the first one's command spells out its default `--sleep-ms 0`.
fn fault_config(dir: &Path, pairs: u32, openings: &Path, extra: &str) -> std::path::PathBuf {
    common::fault_config(dir, pairs, openings, [r#", "--sleep-ms", "0""#, ""], extra)
}

fn summary(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("summary"))
        .expect("summary is JSON")
}

/// Starts a 10-pair run in `dir` with slow engines (so it is still playing when the
/// test acts on it) and waits, up to 5 s, until `games` games are in its journal.
fn start_slow_run(dir: &Path, games: usize, stderr: Stdio) -> (Child, std::path::PathBuf) {
    let config = fault_config(dir, 10, &mainlines(), "");
    let text = std::fs::read_to_string(&config).expect("config").replace(
        "\"--sleep-ms\", \"0\"",
        "\"--fault\", \"sleep\", \"--sleep-ms\", \"5\"",
    );
    std::fs::write(&config, text).expect("write");
    let child = Command::new(bin("xq-runner"))
        .args(["run", path(&config)])
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start runner");
    let out = dir.join("out");
    for _ in 0..1000 {
        if journal_games_so_far(&out) >= games {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (child, config)
}

#[test]
fn resume_takes_the_folder_alone_and_a_copied_folder_resumes_too() {
    let whole_folder = scratch("folder-whole");
    let config = fault_config(whole_folder.path(), 10, &mainlines(), "");
    assert_eq!(runner(&["run", path(&config)]).0, 0);
    let expected = timeless(journal(&whole_folder.path().join("out")));
    assert_eq!(expected.len(), 20);

    let cut_folder = scratch("folder-cut");
    let cut = cut_folder.path();
    let (child, _) = start_slow_run(cut, 6, Stdio::null());
    let out = cut.join("out");
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let stopped = child.wait_with_output().expect("runner ends");
    assert_eq!(stopped.status.code(), Some(4), "a stopped run exits 4");
    let printed = String::from_utf8_lossy(&stopped.stdout);
    let resume_line = format!("Resume with: xq-runner resume {}", out.display());
    assert!(printed.contains(&resume_line), "{printed}");
    let first = journal(&out).len();
    assert!(first < 20, "stopped early ({first} games)");
    let first_played = summary(&out)["duration_s"].as_f64().expect("duration");

    // The folder copied elsewhere resumes there, from its run.json alone.
    let copy_folder = scratch("folder-copy");
    let copy = copy_folder.path().join("moved");
    assert!(Command::new("cp")
        .args(["-r", path(&out), path(&copy)])
        .status()
        .expect("cp")
        .success());
    let (code, stdout, stderr) = runner(&["resume", path(&copy)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("Finished: 20 games"), "{stdout}");
    assert_eq!(
        timeless(journal(&copy)).len(),
        20,
        "no game lost, none doubled"
    );
    // The slow engines play the same games as the fast ones.
    let strip = |v: Vec<Value>| -> Vec<(u64, u64, Value, Value)> {
        v.into_iter()
            .map(|e| {
                (
                    e["pair"].as_u64().unwrap_or(0),
                    e["game"].as_u64().unwrap_or(0),
                    e["moves"].clone(),
                    e["result"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(strip(timeless(journal(&copy))), strip(expected));
    let total = summary(&copy)["duration_s"].as_f64().expect("duration");
    assert!(
        total > first_played,
        "the time played adds up: {first_played} s then {total} s"
    );
    assert!(
        out.join("games.jsonl").is_file(),
        "the original is left alone"
    );
    assert_eq!(journal(&out).len(), first);
}

#[test]
fn a_finished_run_is_extended_never_shortened() {
    let folder = scratch("folder-extend");
    let config = fault_config(folder.path(), 4, &mainlines(), "");
    assert_eq!(runner(&["run", path(&config)]).0, 0);
    let out = folder.path().join("out");
    let (code, stdout, stderr) = runner(&["resume", path(&out), "--pairs", "7"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(journal(&out).len(), 14);
    assert_eq!(summary(&out)["games"], 14);
    let (code, _, stderr) = runner(&["resume", path(&out), "--pairs", "3"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not shortened"), "{stderr}");
    assert_eq!(journal(&out).len(), 14, "nothing written");
}

#[test]
fn a_resume_names_what_changed_and_plays_nothing() {
    let folder = scratch("folder-changed");
    let dir = folder.path();
    let book = dir.join("book.epd");
    std::fs::copy(mainlines(), &book).expect("copy openings");
    let config = fault_config(dir, 3, &book, "");
    assert_eq!(runner(&["run", path(&config)]).0, 0);
    let out = dir.join("out");
    let before = std::fs::read(out.join("games.jsonl")).expect("journal");

    let (code, _, stderr) = runner(&["run", path(&config), "--resume", "--set", "time.depth=2"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("differs") && stderr.contains("time.depth"),
        "{stderr}"
    );

    // The same openings in another order: the pairs would get other openings.
    let text = std::fs::read_to_string(&book).expect("book");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.reverse();
    std::fs::write(&book, lines.join("\n") + "\n").expect("reorder");
    let (code, _, stderr) = runner(&["resume", path(&out), "--pairs", "5"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(path(&book)) && stderr.contains("opening file changed"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(out.join("games.jsonl")).expect("journal"),
        before
    );
}

#[test]
fn at_an_sprt_stop_every_count_agrees() {
    let folder = scratch("folder-sprt");
    let dir = folder.path();
    // The stronger side wins most games: a quick H1 at concurrency 2, games in flight.
    let config = fault_config(
        dir,
        200,
        &mainlines(),
        "[sprt]\nelo0 = 0\nelo1 = 400\nmodel = \"logistic\"\n",
    );
    let engine = bin("xq-engine").display().to_string();
    let text = std::fs::read_to_string(&config).expect("config").replacen(
        &format!(
            "command = [\"{}\", \"--sleep-ms\", \"0\"]",
            fault_engine().display()
        ),
        &format!("command = [\"{engine}\"]\noptions = {{ hashsize = \"4\" }}"),
        1,
    );
    std::fs::write(&config, text).expect("write");
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let out = dir.join("out");
    let s = summary(&out);
    let games = s["games"].as_u64().expect("games");
    let wdl = ["wins", "draws", "losses"]
        .iter()
        .map(|k| s[k].as_u64().expect("count"))
        .sum::<u64>();
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("pgn");
    let pgn_games = pgn.matches("[Round \"").count() as u64;
    assert_eq!(games, wdl, "summary games = W + D + L");
    assert_eq!(games, 2 * s["pairs"].as_u64().expect("pairs"));
    assert_eq!(games, pgn_games, "the PGN has the counted games");
    assert!(stdout.contains(&format!("Games: {games},")), "{stdout}");
    assert!(
        stdout.contains(&format!("Finished: {games} games")),
        "{stdout}"
    );
    let penta: Vec<u64> = s["penta"]
        .as_array()
        .expect("penta")
        .iter()
        .map(|v| v.as_u64().unwrap_or(0))
        .collect();
    let (code, stats, _) = runner(&[
        "stats",
        "--penta",
        &penta
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        "--elo0",
        "0",
        "--elo1",
        "400",
        "--model",
        "logistic",
        "--json",
    ]);
    assert_eq!(code, 0);
    let stats: Value = serde_json::from_str(&stats).expect("stats json");
    assert_eq!(
        stats["llr"], s["llr"],
        "the verdict's LLR is the counts' LLR"
    );
    assert_eq!(stats["verdict"], "H1");
}

#[test]
fn a_report_never_writes_the_journal_it_reads() {
    let folder = scratch("folder-report");
    let config = fault_config(folder.path(), 2, &mainlines(), "");
    assert_eq!(runner(&["run", path(&config)]).0, 0);
    let out = folder.path().join("out");
    let journal_path = out.join("games.jsonl");
    let mut bytes = std::fs::read(&journal_path).expect("journal");
    // A line being written by a live run.
    bytes.extend_from_slice(b"{\"pair\":2,\"game\":0,\"ope");
    std::fs::write(&journal_path, &bytes).expect("write");
    let (code, _, stderr) = runner(&["report", path(&out)]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(&journal_path).expect("journal"),
        bytes,
        "report left the line being written alone"
    );
}

#[test]
fn a_refused_run_starts_no_engine_and_writes_nothing() {
    let folder = scratch("folder-refused");
    let dir = folder.path();
    let marker = dir.join("engine-started");
    let config = fault_config(dir, 2, &mainlines(), "");
    // An engine that leaves a mark when it starts.
    let wrapped = format!(
        "command = [\"/bin/sh\", \"-c\", \"touch {} && exec {}\"]",
        marker.display(),
        fault_engine().display()
    );
    let text = std::fs::read_to_string(&config).expect("config").replacen(
        &format!("command = [\"{}\"]", fault_engine().display()),
        &wrapped,
        1,
    );
    std::fs::write(&config, &text).expect("write");
    // A folder that is not a run.
    let out = dir.join("out");
    std::fs::create_dir(&out).expect("mkdir");
    std::fs::write(out.join("notes.txt"), "mine").expect("write");
    let (code, _, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("not empty") && stderr.contains("--out"),
        "{stderr}"
    );
    assert!(!marker.exists(), "no engine was started");
    assert_eq!(std::fs::read_dir(&out).expect("folder").count(), 1);
    // An output path inside a file.
    let file_out = dir.join("run.toml").join("out");
    let (code, _, stderr) = runner(&["run", path(&config), "--out", path(&file_out)]);
    assert_eq!(code, 2);
    assert!(stderr.contains("is a file"), "{stderr}");
    assert!(!marker.exists(), "no engine was started");
    // A run that exists: the refusal names the way to continue it.
    std::fs::remove_dir_all(&out).expect("rm");
    assert_eq!(runner(&["run", path(&config)]).0, 0);
    let (code, _, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(&format!("xq-runner resume {}", out.display())) && stderr.contains("--out"),
        "{stderr}"
    );
}

#[test]
fn a_dry_run_shows_the_plan_and_checks_programs_and_folders() {
    let folder = scratch("folder-dry");
    let dir = folder.path();
    let config = fault_config(dir, 5, &mainlines(), "[adjudication]\nmax_plies = 200\n");
    let (code, stdout, stderr) = runner(&["run", path(&config), "--dry-run"]);
    assert_eq!(code, 0, "{stderr}");
    for shown in [
        "kind: match",
        "= 10 games at most",
        "options: none",
        "adjudication: draw off; resign off; max plies 200",
        "rules: asian ruleset",
        &format!("output: {}", dir.join("out").display()),
    ] {
        assert!(stdout.contains(shown), "dry run lacks `{shown}`:\n{stdout}");
    }
    assert!(!dir.join("out").exists(), "a dry run writes nothing");
    let (code, _, stderr) = runner(&[
        "run",
        path(&config),
        "--dry-run",
        "--set",
        "engine.0.command=[\"/etc/passwd\"]",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("/etc/passwd is not executable"), "{stderr}");
    let (code, _, stderr) = runner(&[
        "run",
        path(&config),
        "--dry-run",
        "--out",
        "/etc/passwd/out",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("/etc/passwd is a file"), "{stderr}");
    let text = std::fs::read_to_string(&config)
        .expect("config")
        .replace("[tournament]", "[tournament]\nkind = \"round_robin\"");
    std::fs::write(&config, text).expect("write");
    let (_, stdout, _) = runner(&["run", path(&config), "--dry-run"]);
    assert!(stdout.contains("kind: round_robin"), "{stdout}");
}

#[test]
fn identical_games_are_warned_of_before_the_first_game() {
    let folder = scratch("folder-identical");
    let dir = folder.path();
    let config = fault_config(dir, 2, &mainlines(), "");
    let text = std::fs::read_to_string(&config).expect("config");
    let start = text.find("[openings]").expect("openings section");
    let end = text.find("[output]").expect("output section");
    let text = format!("{}{}", &text[..start], &text[end..]);
    std::fs::write(&config, text).expect("write");
    let (code, stdout, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{stderr}");
    let warning = stdout.find("same two games").expect("a warning");
    let first_game = stdout.find("Finished game 1 ").expect("a game");
    assert!(warning < first_game, "{stdout}");
}

#[test]
fn a_folder_in_use_refuses_a_second_runner_and_loses_no_game() {
    let folder = scratch("folder-in-use");
    let (first, config) = start_slow_run(folder.path(), 2, Stdio::piped());
    let out = folder.path().join("out");
    assert!(journal_games_so_far(&out) >= 2, "the first run is playing");
    // A resume of the folder while its run plays is refused, naming the runner.
    let (code, stdout, stderr) = runner(&["resume", path(&out)]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    let holder = format!("is in use by another xq-runner (pid {})", first.id());
    assert!(stderr.contains(&holder), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    // So is a second run of the same config.
    let (code, _, stderr) = runner(&["run", path(&config)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("already holds a run"), "{stderr}");

    let done = first.wait_with_output().expect("the first run ends");
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let games = journal(&out);
    let mut numbers: Vec<(u64, u64)> = games
        .iter()
        .map(|g| {
            (
                g["pair"].as_u64().unwrap_or(99),
                g["game"].as_u64().unwrap_or(9),
            )
        })
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    assert_eq!((games.len(), numbers.len()), (20, 20), "every game once");
    // Once the first runner has ended, the folder is free: the run resumes (nothing is
    // left to play).
    let (code, stdout, stderr) = runner(&["resume", path(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(journal(&out).len(), 20);
}
