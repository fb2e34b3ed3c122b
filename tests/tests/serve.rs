//! `xq-runner serve`, against a real PostgreSQL server (common/pg.rs) and read in a real
//! browser: headless Chromium, driven over its DevTools protocol, reads the pages after
//! their scripts ran. The run page shows what `status --json` says and follows the run
//! while it stays open; names from configs show as text; the database going away is
//! said and recovered from; a role that can write is refused; bad paths are 400, unknown
//! ids 404, and the password shows nowhere.

mod common;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

use common::fleet::{finish, fleet_with_reader, status, submit, text, wait_until, worker};
use common::web::{get, screenshots, serve, shots, Browser, BROKEN_WORDS, WIDTHS};
use common::{fault_engine, runner, scratch, tune_config};
use serde_json::{json, Value};

/// An engine name that would run a script if a page put it in its markup.
const HOSTILE: &str = "</script><script>alert(1)</script>";
/// An opening name with both quotes and markup.
const QUOTED: &str = "Cannon \"double\" 'single' <b>bold</b>";
/// A description (`tournament.description`) that would end the page's script and run
/// one of its own if a page put it in its markup.
const DESCRIPTION: &str = "LMR tweak </script><script>alert(2)</script> & \"more\"";
/// A submitter name (`submit --submitter`) with markup.
const SUBMITTER: &str = "ann <i>lead</i>";

/// A match of two fault engines, the first named [`HOSTILE`], on an opening suite whose
/// names have quotes, with an SPRT; each move `sleep_ms` late so that the run goes on
/// while the tests look.
fn config(dir: &Path, pairs: u32, sleep_ms: u32) -> PathBuf {
    let openings = dir.join("quoted.epd");
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let escaped = QUOTED.replace('"', "\\\"");
    std::fs::write(
        &openings,
        format!(
            "{start} moves h2e2 h9g7 ; name \"{escaped}\"\n{start} moves b2e2 b9c7 ; name \"{escaped} 2\"\n"
        ),
    )
    .expect("write openings");
    let engine = fault_engine().display().to_string();
    let slow = format!(r#", "--fault", "sleep", "--sleep-ms", "{sleep_ms}""#);
    let text = format!(
        r#"[tournament]
pairs = {pairs}
concurrency = 1
seed = 3
description = "{description}"

[time]
depth = 1

[openings]
file = "{openings}"
order = "sequential"

[sprt]
elo0 = 0
elo1 = 10
alpha = 0.05
beta = 0.05

[output]
dir = "{out}"

[[engine]]
name = "{name}"
command = ["{engine}"{slow}]

[[engine]]
name = "b"
command = ["{engine}"{slow}]
"#,
        openings = openings.display(),
        out = dir.join("out").display(),
        name = HOSTILE.replace('"', "\\\""),
        description = DESCRIPTION.replace('"', "\\\""),
    );
    let path = dir.join("run.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// `status --json`'s figures as the run page prints them.
fn figures_of(state: &Value) -> (String, String, String) {
    let f = |k: &str| state[k].as_f64().unwrap_or(f64::NAN);
    let signed = |v: f64| {
        let t = format!("{v:+.2}");
        if t.trim_start_matches(['+', '-'])
            .chars()
            .all(|c| c == '0' || c == '.')
        {
            t[1..].to_owned()
        } else {
            t
        }
    };
    (
        state["games"].to_string(),
        format!("{} \u{b1} {:.2}", signed(f("elo")), f("elo_ci95")),
        format!("{:.2}", f("llr")),
    )
}

/// The first 12 hex digits of the SHA-256 of `file`, as `sha256sum` says.
fn build_of(file: &Path) -> String {
    let out = Command::new("sha256sum")
        .arg(file)
        .output()
        .expect("run sha256sum");
    String::from_utf8_lossy(&out.stdout)[..12].to_owned()
}

/// The runs list's row of run `id` against `status --json`'s `state`: its result box
/// (colour, LLR, Elo, games, W/D/L, pentanomial counts), description, submitter and
/// builds; and at each width no word cut and the table across the page.
fn check_runs_list(list: &mut Browser, id: &str, state: &Value, build: &str) {
    let row = format!("#runs tr[data-run=\"{id}\"]");
    let class = match (state["verdict"].as_str(), state["state"].as_str()) {
        (Some("H1"), _) => "h1",
        (Some("H0"), _) => "h0",
        (_, Some("open")) => "running",
        (_, Some("cancelled" | "aborted")) => "cancelled",
        _ => "ended",
    };
    let q = |list: &mut Browser, js: &str| list.eval(&js.replace("ROW", &row));
    assert_eq!(
        q(list, "document.querySelector('ROW .result').dataset.result"),
        class
    );
    let colour = match class {
        "h1" => "rgb(220, 252, 231)",
        "h0" => "rgb(254, 226, 226)",
        "running" => "rgb(254, 249, 195)",
        _ => "rgb(243, 244, 246)",
    };
    assert_eq!(
        q(
            list,
            "getComputedStyle(document.querySelector('ROW .result')).backgroundColor"
        ),
        colour
    );
    let lines = q(
        list,
        "[...document.querySelectorAll('ROW .result > div')].map(d => d.textContent)",
    );
    let lines: Vec<&str> = lines
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let (games, elo, llr) = figures_of(state);
    let p = |k: &str| state[k].as_f64().unwrap_or(f64::NAN);
    let penta: Vec<String> = state["penta"]
        .as_array()
        .into_iter()
        .flatten()
        .map(Value::to_string)
        .collect();
    assert_eq!(
        lines,
        [
            format!("LLR {llr} ({:.2}, {:.2})", p("llr_lower"), p("llr_upper")),
            format!("Elo {elo}"),
            format!(
                "Games {games}: W {} D {} L {}",
                state["wins"], state["draws"], state["losses"]
            ),
            format!("Ptnml(0-2) {}", penta.join(", ")),
        ]
    );
    assert_eq!(
        q(list, "document.querySelector('ROW .desc').textContent"),
        DESCRIPTION
    );
    assert_eq!(
        q(list, "document.querySelector('ROW .by').textContent"),
        format!("by {SUBMITTER}")
    );
    assert_eq!(
        q(
            list,
            "[...document.querySelectorAll('ROW code.build')].map(c => c.textContent).join(',')"
        ),
        format!("{build},{build}")
    );
    for width in WIDTHS {
        list.width(width);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            list.eval(&format!("({BROKEN_WORDS})('#runs')")),
            "",
            "at {width} px"
        );
        if width >= 1280 {
            let share = list.eval(
                "document.querySelector('#runs').getBoundingClientRect().width / window.innerWidth",
            );
            assert!(
                share.as_f64().unwrap_or(0.0) > 0.9,
                "the table across the page at {width} px: {share}"
            );
        }
    }
    list.width(1200);
}

#[test]
fn the_run_page_shows_what_status_says_and_follows_the_run_live() {
    let dir = scratch("serve-live");
    let cluster = fleet_with_reader();
    let id = submit(
        &cluster,
        &config(dir.path(), 40, 15),
        &["--batch-pairs", "1", "--submitter", SUBMITTER],
    );
    let served = serve(&["--db", &cluster.url("xq_reader")], &[]);
    let url = format!("{}/runs/{id}", served.base);

    // Opened before any game: the page follows the run from there.
    let mut page = Browser::open(&url);
    page.wait(
        "the run page",
        "document.querySelector('[data-k=games]') !== null",
        Duration::from_secs(30),
    );
    page.eval("window.openedOnce = true");
    let first = page.figure("games");
    assert_eq!(first, "0", "no game yet");
    // A stored open run is said live, not as a local folder without summary.json.
    assert_eq!(
        page.eval("document.querySelector('header .status').textContent"),
        "RUNNING"
    );
    let words = page.eval("document.querySelector('header .status-text').textContent");
    assert!(
        words
            .as_str()
            .is_some_and(|w| w.starts_with("open: the workers are playing it, 0 of 40 pairs done")),
        "{words}"
    );
    // What the run is: its description and submitter as text, each engine's build.
    assert_eq!(
        page.eval("document.querySelector('#about [data-k=description]').textContent"),
        DESCRIPTION
    );
    assert_eq!(
        page.eval("document.querySelector('#about [data-k=submitter] .who').textContent"),
        SUBMITTER
    );
    let build = build_of(&fault_engine());
    assert_eq!(
        page.eval(
            "[...document.querySelectorAll('#about code.build')].map(c => c.textContent).join(',')"
        ),
        format!("{build},{build}")
    );

    let workers: Vec<Child> = ["w1", "w2"]
        .iter()
        .map(|n| worker(&cluster, n, &["--concurrency", "1"]))
        .collect();
    // Batches commit while the page stays open: its numbers change without a reload.
    page.wait(
        "games on the open page",
        "document.querySelector('[data-k=games] .value').textContent !== '0'",
        Duration::from_secs(60),
    );
    assert_eq!(
        page.eval("window.openedOnce === true"),
        Value::Bool(true),
        "no reload"
    );
    let seen = page.figure("games");
    for w in workers {
        let out = finish(w);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    let state = status(&cluster, &id);
    let (games, elo, llr) = figures_of(&state);
    let verdict = state["verdict"].as_str().unwrap_or("none").to_owned();
    // The SPRT's "continue" of a run that ended between its bounds reads "no verdict".
    let closed = state["state"].as_str() != Some("open");
    let expected = if verdict == "continue" && closed {
        "no verdict"
    } else {
        &verdict
    };
    // The last games and the run's end may reach the page in two updates.
    page.wait(
        "the final numbers on the open page",
        &format!(
            "document.querySelector('[data-k=games] .value').textContent === '{games}' && \
             document.querySelector('[data-k=verdict] .value').textContent === '{expected}'"
        ),
        Duration::from_secs(30),
    );
    assert_ne!(seen, games, "the page showed the run part way");
    assert_eq!(
        page.eval("window.openedOnce === true"),
        Value::Bool(true),
        "no reload"
    );
    assert_eq!(page.figure("elo"), elo);
    assert_eq!(page.figure("llr"), llr);
    assert_eq!(page.figure("verdict"), expected);
    // The Elo chart's axis ignores the first pairs' degenerate intervals: no number on
    // it beyond its ±400 limit (and its pad), whatever the first pairs read.
    let ticks = page.eval(
        "[...document.querySelectorAll('svg[aria-label$=\"Elo over pairs\"] text')]\
         .map(t => t.textContent.trim()).filter(t => /^[-+\u{2212}]?[0-9]+(\\.[0-9]+)?$/.test(t))\
         .map(t => Math.abs(parseFloat(t.replace('\u{2212}', '-'))))",
    );
    let ticks: Vec<f64> = ticks
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .collect();
    assert!(
        !ticks.is_empty() && ticks.iter().all(|t| *t <= 430.0),
        "the Elo chart's numbers: {ticks:?}"
    );
    let updates = page.eval("Number(document.documentElement.dataset.updates)");
    assert!(
        updates.as_u64().unwrap_or(0) >= 2,
        "updated in place: {updates}"
    );

    // `status --json` and its text say what the run is.
    assert_eq!(state["description"], DESCRIPTION);
    assert_eq!(state["submitter"], SUBMITTER);
    assert_eq!(
        state["engines"],
        json!([{"name": HOSTILE, "build": build}, {"name": "b", "build": build}])
    );
    let (code, out, err) = runner(&["status", "--db", &cluster.url("xq_worker"), &id]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("\nDescription: {DESCRIPTION}\n")),
        "{out}"
    );
    assert!(
        out.contains(&format!("\nSubmitted by: {SUBMITTER}\n")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "\nEngines: {HOSTILE} (build {build}), b (build {build})\n"
        )),
        "{out}"
    );

    // Its JSON is `status --json`'s, number for number.
    let (code, _, body) = get(&served.base, &format!("/api/runs/{id}"));
    assert_eq!(code, 200);
    let api: Value = serde_json::from_str(&body).expect("JSON");
    for key in [
        "games",
        "pairs",
        "penta",
        "elo",
        "elo_ci95",
        "llr",
        "verdict",
        "state",
        "description",
        "submitter",
        "engines",
    ] {
        assert_eq!(api[key], state[key], "{key}");
    }
    // Each worker's stored games, which the page counts batch by batch and `status`
    // over the whole run, agree.
    for (ours, theirs) in api["workers"]
        .as_array()
        .into_iter()
        .flatten()
        .zip(state["workers"].as_array().into_iter().flatten())
    {
        for key in [
            "name",
            "penta",
            "stored_games",
            "crashes",
            "stalls",
            "time_losses",
            "residual",
        ] {
            assert_eq!(ours[key], theirs[key], "worker {}: {key}", theirs["name"]);
        }
    }
    assert_eq!(
        api["workers"].as_array().map(Vec::len),
        Some(2),
        "two workers: {}",
        api["workers"]
    );
    // Both workers on the page, each a row of the workers table.
    let rows = page.eval("[...document.querySelectorAll('#live-run tbody tr td:first-child')].map(t => t.textContent).join(',')");
    assert_eq!(rows, "w1,w2");

    // Names are text: the hostile engine name is shown, no script of it exists.
    assert_eq!(page.eval("document.querySelectorAll('script').length"), 1);
    assert_eq!(
        page.eval(&format!(
            "document.body.textContent.includes({})",
            json!(HOSTILE)
        )),
        Value::Bool(true)
    );
    assert_eq!(
        page.eval(&format!(
            "document.body.textContent.includes({})",
            json!("'single' <b>bold</b>")
        )),
        Value::Bool(true),
        "the opening's name, quotes and all, as text"
    );
    assert_eq!(page.eval("document.querySelectorAll('main b').length"), 0);

    // The database away for a few seconds: the open page says so, then recovers, and
    // `serve` is still there.
    let mut cluster = cluster;
    cluster.stop();
    page.wait(
        "`database unreachable` on the page",
        "document.getElementById('live').textContent.startsWith('database unreachable')",
        Duration::from_secs(30),
    );
    // A fresh load meanwhile: the page's frame saying so (503), not a bare line; it
    // draws the page once the database is back.
    let (code, _, body) = get(&served.base, &format!("/runs/{id}"));
    assert_eq!(code, 503, "{body}");
    assert!(
        body.contains("<nav class=\"top\">") && body.contains("data-down=\"1\""),
        "{body}"
    );
    let mut fresh = Browser::open(&url);
    fresh.wait(
        "the frame saying the database is away",
        "document.getElementById('down') !== null && \
         document.getElementById('live').textContent.startsWith('database unreachable')",
        Duration::from_secs(30),
    );
    std::thread::sleep(Duration::from_secs(3));
    cluster.launch();
    page.wait(
        "the page back",
        "document.getElementById('live').textContent.startsWith('live: updated')",
        Duration::from_secs(30),
    );
    fresh.wait(
        "the fresh page drawn once the database is back",
        "document.querySelector('[data-k=games]') !== null && \
         document.getElementById('down') === null",
        Duration::from_secs(30),
    );
    assert_eq!(fresh.figure("games"), games);
    let mut served = served;
    assert!(
        served.child.try_wait().ok().flatten().is_none(),
        "serve did not exit"
    );
    assert_eq!(page.figure("games"), games);

    // The runs list: the same run, its names as text.
    let mut list = Browser::open(&served.base);
    list.wait(
        "the runs list",
        &format!("document.querySelector('tr[data-run=\"{id}\"]') !== null"),
        Duration::from_secs(30),
    );
    assert_eq!(list.eval("document.querySelectorAll('script').length"), 1);
    assert_eq!(
        list.eval(&format!(
            "document.querySelector('#runs tbody').textContent.includes({})",
            json!(HOSTILE)
        )),
        Value::Bool(true)
    );
    assert_eq!(
        list.eval(&format!(
            "document.querySelector('#runs tbody').textContent.includes({})",
            json!(DESCRIPTION)
        )),
        Value::Bool(true)
    );
    check_runs_list(&mut list, &id, &state, &build);
    let shots = shots(dir.path());
    screenshots(&format!("{}/", served.base), &shots, "serve-runs");
    screenshots(&url, &shots, "serve-run");
}

#[test]
fn serve_refuses_a_role_that_can_write_and_answers_bad_paths_in_one_line() {
    let dir = scratch("serve-refuse");
    let cluster = fleet_with_reader();
    for (role, found) in [
        ("xq_owner", "owner of schema xq"),
        ("xq_worker", "EXECUTE on xq."),
    ] {
        let (code, out, err) = runner(&[
            "serve",
            "--db",
            &cluster.url(role),
            "--listen",
            "127.0.0.1:0",
        ]);
        assert_eq!(code, 2, "{out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("role {role} can write ({found}")),
            "{err}"
        );
    }
    let (code, _, err) = runner(&[
        "serve",
        "--db",
        &cluster.url("xq_reader"),
        "--listen",
        "nowhere",
    ]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --listen nowhere"), "{err}");

    // Over TCP with a password: it is in no page, no answer, no line of `serve`.
    let id = submit(&cluster, &config(dir.path(), 2, 0), &[]);
    let out = finish(worker(&cluster, "w", &[]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let served = serve(
        &["--db", &cluster.tcp_url("xq_reader")],
        &[("PGPASSWORD", "reader-secret")],
    );
    let mut answers = String::new();
    for (path, want) in [
        ("/", 200),
        ("/workers", 200),
        (&format!("/runs/{id}") as &str, 200),
        ("/api/runs", 200),
        ("/api/workers", 200),
        ("/api/runs/999", 404),
        ("/runs/999", 404),
        ("/runs/abc", 400),
        ("/api/runs/-1", 400),
        ("/?state=nonsense", 400),
        ("/nothing/here", 404),
    ] {
        let (code, head, body) = get(&served.base, path);
        assert_eq!(code, want, "{path}: {body}");
        if want != 200 {
            assert_eq!(
                body.trim_end().lines().count(),
                1,
                "{path}: one line: {body}"
            );
        }
        assert!(
            head.contains("content-security-policy: default-src 'none'"),
            "{head}"
        );
        answers.push_str(&body);
    }
    // The games, streamed: the stored lines, and a PGN game for each.
    let (code, _, jsonl) = get(&served.base, &format!("/runs/{id}/games.jsonl"));
    assert_eq!(code, 200);
    assert_eq!(jsonl.lines().count(), 4, "{jsonl}");
    let stored = cluster.sql(&format!(
        "SELECT entry FROM xq.games WHERE run_id = {id} ORDER BY pair, game"
    ));
    assert_eq!(jsonl.trim_end(), stored.trim_end());
    let (code, _, pgn) = get(&served.base, &format!("/runs/{id}/games.pgn"));
    assert_eq!(code, 200);
    assert_eq!(pgn.matches("[Event ").count(), 4, "{pgn}");
    answers.push_str(&pgn);
    let mut served = served;
    let _ = served.child.kill();
    let out = served.child.wait_with_output_ref();
    answers.push_str(&out);
    assert!(!answers.contains("reader-secret"), "the password leaked");
}

/// `Child::wait_with_output` for a child kept in a struct with a `Drop`.
trait OutputRef {
    fn wait_with_output_ref(&mut self) -> String;
}

impl OutputRef for Child {
    fn wait_with_output_ref(&mut self) -> String {
        let _ = self.wait();
        let mut text = String::new();
        if let Some(mut s) = self.stdout.take() {
            let _ = s.read_to_string(&mut text);
        }
        if let Some(mut s) = self.stderr.take() {
            let _ = s.read_to_string(&mut text);
        }
        text
    }
}

/// In the page, the pairs of texts of each chart whose boxes overlap (a value's label
/// over a line's): none.
const OVERLAPPING_LABELS: &str = r#"(() => {
  const bad = [];
  for (const svg of document.querySelectorAll('svg')) {
    const boxes = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      if (p.width && q.width && p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom)
        bad.push(a + ' over ' + b);
    }
  }
  return bad.join(' | ');
})()"#;

/// The header of the tune page's values column, and its labels' overlaps.
fn tune_values(page: &mut Browser) -> (Value, Value) {
    (
        page.eval("[...document.querySelectorAll('th')].map(t => t.textContent).find(t => t === 'So far' || t === 'Final')"),
        page.eval(OVERLAPPING_LABELS),
    )
}

#[test]
fn a_tune_page_has_one_chart_per_parameter() {
    let dir = scratch("serve-tune");
    let cluster = fleet_with_reader();
    let tune = tune_config(dir.path(), 40, 30.0, "", "", None);
    let id = submit(&cluster, &tune, &[]);
    let served = serve(&["--db", &cluster.url("xq_reader")], &[]);
    let url = format!("{}/runs/{id}", served.base);

    // Before any pair: the live card a match has, the values "so far", no label over
    // another (the value at the start's place, "30.00" by "start 30").
    let mut early = Browser::open(&url);
    early.wait(
        "the open tune's page",
        "document.querySelector('#live-run [data-k=pairs]') !== null",
        Duration::from_secs(30),
    );
    assert_eq!(early.figure("pairs"), "0");
    assert_eq!(early.figure("state"), "open");
    assert_eq!(
        tune_values(&mut early),
        (Value::from("So far"), Value::from(""))
    );
    assert_eq!(
        early.eval("document.querySelector('#live-run .note').textContent"),
        "No worker has played this run yet."
    );
    assert_eq!(
        early.eval("document.querySelector('#live-run [data-k=param] .sub').textContent"),
        "so far (start 30)"
    );
    // On a phone no table reaches past the window: a wide one scrolls in its own box.
    for width in WIDTHS {
        early.width(width);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            early.eval(
                "[...document.querySelectorAll('main table')]\
                 .filter(t => t.getBoundingClientRect().right > window.innerWidth + 1).length"
            ),
            0,
            "at {width} px"
        );
    }

    let out = finish(worker(&cluster, "w", &["--concurrency", "2"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    wait_until("the tune's iterations", || {
        status(&cluster, &id)["pairs"].as_u64() == Some(40)
    });
    let state = status(&cluster, &id);
    let mut page = Browser::open(&url);
    page.wait(
        "the tune page",
        "document.querySelectorAll('svg').length > 0",
        Duration::from_secs(30),
    );
    let charts = page.eval("[...document.querySelectorAll('svg')].filter(s => (s.getAttribute('aria-label')||'').includes('skill')).length");
    assert_eq!(charts, 1, "one chart for the one parameter");
    // Ended: the card's figures are status --json's, its worker listed, the values final.
    page.wait(
        "the ended tune's card",
        "document.querySelector('#live-run [data-k=pairs]') !== null",
        Duration::from_secs(30),
    );
    assert_eq!(page.figure("pairs"), state["pairs"].to_string());
    assert_eq!(
        page.figure("state"),
        state["state"].as_str().unwrap_or_default()
    );
    let value = state["params"][0]["value"].as_f64().unwrap_or(f64::NAN);
    assert_eq!(page.figure("param"), format!("{value:.2}"));
    assert_eq!(
        page.eval("[...document.querySelectorAll('#live-run tbody tr td:first-child')].map(t => t.textContent).join(',')"),
        "w"
    );
    assert_eq!(
        tune_values(&mut page),
        (Value::from("Final"), Value::from(""))
    );
    // Submitted without --submitter: this OS user and machine.
    let who = page.eval("document.querySelector('#about [data-k=submitter] .who').textContent");
    assert!(who.as_str().is_some_and(|w| w.contains('@')), "{who}");
    assert_eq!(status(&cluster, &id)["submitter"], who);
    screenshots(&url, &shots(dir.path()), "serve-tune");
}
