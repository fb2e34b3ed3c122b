//! `xq-runner serve DIR`: the run folders under a local folder, read in headless
//! Chromium while `xq-runner run` plays into one of them. The page follows the journal
//! as it grows, without a reload, and ends on the numbers the run prints; `serve` never
//! holds the run up; bad paths are 400, a garbage journal line and a removed folder are
//! said in one line, and `serve` goes on.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::web::{get, serve, Browser};
use common::{bin, eventually, fault_engine, mainlines, scratch, wait_for};
use serde_json::{json, Value};

/// An engine name that would run a script if a page put it in its markup.
const HOSTILE: &str = "</script><script>alert(1)</script>";

/// A match of two fault engines (the first named [`HOSTILE`]) into `out/NAME`, with an
/// SPRT, each move `sleep_ms` late so that the run lasts while the test looks; games
/// are drawn at 60 plies to keep it short.
fn config(dir: &Path, name: &str, pairs: u32, sleep_ms: u32) -> PathBuf {
    let engine = fault_engine().display().to_string();
    let slow = format!(r#", "--fault", "sleep", "--sleep-ms", "{sleep_ms}""#);
    let text = format!(
        r#"[tournament]
pairs = {pairs}
concurrency = 2
seed = 3

[time]
depth = 1

[openings]
file = "{openings}"
order = "sequential"

[adjudication]
max_plies = 60

[sprt]
elo0 = 0
elo1 = 10

[output]
dir = "{out}"

[[engine]]
name = "{hostile}"
command = ["{engine}"{slow}]

[[engine]]
name = "b"
command = ["{engine}"{slow}]
"#,
        openings = mainlines().display(),
        out = dir.join("out").join(name).display(),
        hostile = HOSTILE.replace('"', "\\\""),
    );
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).expect("write config");
    path
}

/// Starts `xq-runner run CONFIG`, its output into `log`.
fn start_run(config: &Path, log: &Path) -> std::process::Child {
    let out = std::fs::File::create(log).expect("log file");
    Command::new(bin("xq-runner"))
        .arg("run")
        .arg(config)
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .expect("start the run")
}

/// Pairs of the journal of `run` with both games in: what the counts count.
fn complete_pairs(run: &Path) -> u64 {
    let text = std::fs::read_to_string(run.join("games.jsonl")).unwrap_or_default();
    let mut games = std::collections::BTreeSet::new();
    // Complete lines only: the runner may be writing the last one.
    for line in text.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
        let entry: Value = serde_json::from_str(line).expect("a journal line");
        games.insert((entry["pair"].as_u64(), entry["game"].as_u64()));
    }
    games
        .iter()
        .filter(|(pair, game)| *game == Some(0) && games.contains(&(*pair, Some(1))))
        .count() as u64
}

/// The JSON at `path`.
fn api(base: &str, path: &str) -> Value {
    let (code, _, body) = get(base, path);
    assert_eq!(code, 200, "{path}: {body}");
    serde_json::from_str(&body).expect("JSON")
}

/// The Elo figure as the page prints it.
fn elo_figure(state: &Value) -> String {
    let f = |k: &str| state[k].as_f64().unwrap_or(f64::NAN);
    let t = format!("{:+.2}", f("elo"));
    let shown = if t[1..].chars().all(|c| c == '0' || c == '.') {
        t[1..].to_owned()
    } else {
        t
    };
    format!("{shown} \u{b1} {:.2}", f("elo_ci95"))
}

#[test]
fn a_local_run_is_followed_live_from_its_journal() {
    let dir = scratch("serve-folder-live");
    std::fs::create_dir_all(dir.path().join("out")).expect("mkdir");
    let run_dir = dir.path().join("out").join("live");
    let log = dir.path().join("run.log");
    let mut run = start_run(&config(dir.path(), "live", 16, 10), &log);
    let served = serve(&[dir.path().join("out").to_str().expect("UTF-8")], &[]);
    assert!(
        eventually(Duration::from_secs(30), || complete_pairs(&run_dir) >= 1),
        "the run played no pair"
    );

    // Its JSON counts what the journal held between the two looks.
    let before = complete_pairs(&run_dir);
    let state = api(&served.base, "/api/runs/live");
    let after = complete_pairs(&run_dir);
    let games = state["games"].as_u64().unwrap_or(0);
    assert!(
        2 * before <= games && games <= 2 * after,
        "{before} {games} {after}"
    );
    assert_eq!(state["state"], "open", "{state}");

    let mut page = Browser::open(&format!("{}/runs/live", served.base));
    page.wait(
        "the run page",
        "document.querySelector('[data-k=games]') !== null",
        Duration::from_secs(30),
    );
    page.eval("window.openedOnce = true");
    let first = page.figure("games");
    page.wait(
        "more games on the open page",
        &format!("document.querySelector('[data-k=games] .value').textContent !== '{first}'"),
        Duration::from_secs(30),
    );

    // The run ends while the page polls: serve never held it up.
    let code = wait_for(&mut run, Duration::from_secs(60));
    let printed = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        matches!(code, Some(0 | 1 | 3)),
        "{code:?}: the run: {printed}"
    );
    let end = api(&served.base, "/api/runs/live");
    assert_eq!(end["games"].as_u64(), Some(2 * complete_pairs(&run_dir)));
    assert_ne!(end["state"], "open", "{end}");
    // Its result block is the one the run printed.
    let text = end["text"].as_str().unwrap_or("?");
    assert!(
        printed.contains(text.lines().nth(1).unwrap_or("?")),
        "{text}\nnot in:\n{printed}"
    );
    let verdict = match end["verdict"].as_str() {
        Some("continue") => "no verdict",
        Some(v) => v,
        None => "none",
    };
    page.wait(
        "the final numbers on the open page",
        &format!(
            "document.querySelector('[data-k=games] .value').textContent === '{}' && \
             document.querySelector('[data-k=verdict] .value').textContent === '{verdict}'",
            end["games"]
        ),
        Duration::from_secs(30),
    );
    assert_eq!(page.figure("elo"), elo_figure(&end));
    assert_eq!(
        page.eval("window.openedOnce === true"),
        Value::Bool(true),
        "no reload"
    );
    assert_ne!(
        first,
        end["games"].to_string(),
        "the page showed the run part way"
    );
    // Names are text: the hostile name is on the page, no script of it exists.
    assert_eq!(page.eval("document.querySelectorAll('script').length"), 1);
    assert_eq!(
        page.eval(&format!(
            "document.body.textContent.includes({})",
            json!(HOSTILE)
        )),
        Value::Bool(true)
    );

    // The runs list: the run, its numbers those of its JSON.
    let mut list = Browser::open(&served.base);
    list.wait(
        "the runs list",
        "document.querySelector('tr[data-run=\"live\"]') !== null",
        Duration::from_secs(30),
    );
    let row = list.eval("document.querySelector('tr[data-run=\"live\"]').textContent");
    let pairs = format!("{}/{}", end["pairs"], end["pairs_total"]);
    assert!(
        row.as_str()
            .is_some_and(|r| r.contains(&pairs) && r.contains(HOSTILE)),
        "{row} has not {pairs}"
    );

    // The games, streamed from the journal.
    let (code, _, jsonl) = get(&served.base, "/runs/live/games.jsonl");
    assert_eq!(code, 200);
    let journal = std::fs::read_to_string(run_dir.join("games.jsonl")).expect("journal");
    assert_eq!(jsonl, journal);
    let (code, _, pgn) = get(&served.base, "/runs/live/games.pgn");
    assert_eq!(code, 200);
    assert_eq!(pgn.matches("[Event ").count(), journal.lines().count());
}

#[test]
fn serve_never_holds_a_run_up_and_says_what_is_wrong_in_one_line() {
    let dir = scratch("serve-folder-lock");
    std::fs::create_dir_all(dir.path().join("out")).expect("mkdir");
    let served = serve(&[dir.path().join("out").to_str().expect("UTF-8")], &[]);
    let run_dir = dir.path().join("out").join("quick");
    let log = dir.path().join("run.log");
    let mut run = start_run(&config(dir.path(), "quick", 4, 0), &log);
    // Asked all along while the run plays: the run ends as it would alone.
    let mut asked = 0;
    let ended = eventually(Duration::from_secs(60), || {
        if run_dir.join("run.json").is_file() {
            let (code, _, body) = get(&served.base, "/api/runs/quick");
            assert!(code == 200 || code == 404, "{code} {body}");
            asked += 1;
        }
        run.try_wait().ok().flatten().is_some()
    });
    assert!(ended, "the run did not end");
    let code = wait_for(&mut run, Duration::from_secs(1));
    assert!(
        matches!(code, Some(0 | 1 | 3)),
        "{code:?}: {}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );
    assert!(asked > 0);
    assert_eq!(
        api(&served.base, "/api/runs/quick")["games"].as_u64(),
        Some(8)
    );

    for (path, want) in [
        ("/runs/../quick", 400),
        ("/runs/%2e%2e/out/quick", 400),
        ("/api/runs/quick/../../x", 400),
        ("/runs/nothing", 404),
        ("/runs/nothing/games.pgn", 404),
    ] {
        let (code, _, body) = get(&served.base, path);
        assert_eq!(code, want, "{path}: {body}");
        assert_eq!(body.trim_end().lines().count(), 1, "{path}: {body}");
    }

    // A garbage line in the journal: said, naming the line, and serve goes on.
    let journal = run_dir.join("games.jsonl");
    let mut text = std::fs::read_to_string(&journal).expect("journal");
    text.push_str("not a game\n");
    std::fs::write(&journal, &text).expect("write");
    let (code, _, body) = get(&served.base, "/api/runs/quick");
    assert_eq!(code, 500, "{body}");
    assert!(
        body.contains("games.jsonl:9: not a journal entry: ")
            && body.trim_end().lines().count() == 1,
        "{body}"
    );
    let (code, _, body) = get(&served.base, "/");
    assert_eq!(code, 200);
    assert!(
        body.contains("games.jsonl:9: not a journal entry"),
        "{body}"
    );

    // The folder removed: not found, and serve is still there.
    std::fs::remove_dir_all(&run_dir).expect("remove");
    let (code, _, body) = get(&served.base, "/api/runs/quick");
    assert_eq!(code, 404, "{body}");
    let (code, _, body) = get(&served.base, "/api/runs");
    assert_eq!((code, body.as_str()), (200, "[]"));
}

#[test]
fn a_local_tune_is_followed_live_with_its_parameter_s_chart() {
    let dir = scratch("serve-folder-tune");
    let config = common::tune_config(dir.path(), 30, 30.0, r#", "--move-ms", "2""#, "", None);
    let log = dir.path().join("tune.log");
    let mut tune = Command::new(bin("xq-runner"))
        .arg("tune")
        .arg(&config)
        .stdout(std::fs::File::create(&log).expect("log file"))
        .stderr(Stdio::null())
        .spawn()
        .expect("start the tune");
    // The tune's folder is `out` in the served folder.
    let served = serve(&[dir.path().to_str().expect("UTF-8")], &[]);
    let journal = dir.path().join("out").join("tune.jsonl");
    let lines = || {
        std::fs::read_to_string(&journal)
            .unwrap_or_default()
            .split_inclusive('\n')
            .filter(|l| l.ends_with('\n'))
            .count() as u64
    };
    assert!(
        eventually(Duration::from_secs(30), || lines() >= 1),
        "the tune played no pair"
    );
    let (before, state, after) = (lines(), api(&served.base, "/api/runs/out"), lines());
    let played = state["played"].as_u64().unwrap_or(0);
    assert!(
        before <= played && played <= after,
        "{before} {state} {after}"
    );
    assert_eq!(
        (state["kind"].as_str(), state["iterations"].as_u64()),
        (Some("tune"), Some(30))
    );

    let mut page = Browser::open(&format!("{}/runs/out", served.base));
    page.wait(
        "the tune page",
        "document.querySelector('[data-k=pairs]') !== null",
        Duration::from_secs(30),
    );
    page.eval("window.openedOnce = true");
    let code = wait_for(&mut tune, Duration::from_secs(120));
    let printed = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(code, Some(0), "the tune: {printed}");
    let end = api(&served.base, "/api/runs/out");
    assert_eq!(
        (end["played"].as_u64(), end["state"].as_str()),
        (Some(30), Some("finished")),
        "{end}"
    );
    // The options line is the one the tune printed.
    let options = end["options_line"].as_str().unwrap_or("?");
    assert!(printed.contains(options), "{options} not in:\n{printed}");
    page.wait(
        "the finished tune on the open page",
        "document.querySelector('[data-k=pairs] .value').textContent === '30'",
        Duration::from_secs(30),
    );
    assert_eq!(
        page.eval("window.openedOnce === true"),
        Value::Bool(true),
        "no reload"
    );
    let charts = page.eval(
        "[...document.querySelectorAll('svg')].filter(s => (s.getAttribute('aria-label')||'').includes('skill')).length",
    );
    assert_eq!(charts, 1, "one chart for the one parameter");

    // Listed as a tune; it keeps no games.
    let list = api(&served.base, "/api/runs");
    assert_eq!(list[0]["run"]["kind"], "tune", "{list}");
    let (code, _, body) = get(&served.base, "/runs/out/games.pgn");
    assert_eq!((code, body.trim_end().lines().count()), (404, 1), "{body}");
}
