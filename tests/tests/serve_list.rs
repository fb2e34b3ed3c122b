//! The runs list of `xq-runner serve` past one page (issue 59): the fleet's totals at the
//! top (workers online and idle, their cores, games a minute) as `/api/workers` has
//! them; 50 runs a page with links to the next and previous; filters by state and by
//! submitter as query parameters, written back encoded and shown escaped; each row's
//! state as `status --json` says; a bad query one line and a 400. Read in headless
//! Chromium after the scripts ran.

mod common;

use std::time::Duration;

use common::fleet::{fleet_with_reader, status, submit, wait_until, worker};
use common::web::{get, serve, Browser};
use common::{fault_config, mainlines, runner, scratch};
use serde_json::Value;

/// A submitter's name with markup and characters a query must encode.
const SUBMITTER: &str = "ann </script><i>x</i> & co@box";

/// The ids of the rows of the page open in `page`, in order.
fn rows(page: &mut Browser) -> Vec<String> {
    page.eval("[...document.querySelectorAll('#runs tbody tr[data-run]')].map(r => r.dataset.run)")
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// Opens `url` and waits for its list.
fn list(url: &str) -> Browser {
    let mut page = Browser::open(url);
    page.wait(
        "the runs list",
        "document.querySelector('#runs') !== null && document.querySelector('#fleet') !== null",
        Duration::from_secs(30),
    );
    page
}

#[test]
fn the_runs_list_pages_filters_and_totals_the_fleet() {
    let dir = scratch("serve-list");
    let cluster = fleet_with_reader();
    let slow = r#", "--fault", "sleep", "--sleep-ms", "10""#;
    let config = fault_config(dir.path(), 400, &mainlines(), [slow, slow], "");
    // 53 runs: the first three by SUBMITTER, two of the rest cancelled.
    let mut ids = Vec::new();
    for i in 0..53 {
        let who = if i < 3 { SUBMITTER } else { "bob" };
        // Batches of one pair: the worker's games are stored as it plays.
        ids.push(submit(
            &cluster,
            &config,
            &["--submitter", who, "--batch-pairs", "1"],
        ));
    }
    for id in &ids[10..12] {
        let (code, out, err) = runner(&["cancel", id, "--db", &cluster.url("xq_owner")]);
        assert_eq!(code, 0, "{out}{err}");
    }
    // A worker on the last run, stopped dead while it played: heard of a moment ago and
    // on a run (online), its games a minute no longer changing.
    let mut w = worker(
        &cluster,
        "w1",
        &[
            "--run",
            &ids[52],
            "--concurrency",
            "2",
            "--batch-pairs",
            "1",
        ],
    );
    wait_until("a batch of the last run stored", || {
        status(&cluster, &ids[52])["games"].as_u64().unwrap_or(0) >= 2
    });
    let _ = w.kill();
    let _ = w.wait();

    let served = serve(&["--db", &cluster.url("xq_reader")], &[]);
    let (code, _, body) = get(&served.base, "/api/workers");
    assert_eq!(code, 200);
    let workers: Value = serde_json::from_str(&body).expect("JSON");
    let gpm = workers[0]["games_per_min"]
        .as_f64()
        .expect("games a minute");
    assert_eq!(workers[0]["state"], "online", "{workers}");

    let mut page = list(&format!("{}/", served.base));
    let fleet = |page: &mut Browser, k: &str| {
        page.eval(&format!(
            "document.querySelector('#fleet [data-k={k}]').textContent"
        ))
        .as_str()
        .unwrap_or_default()
        .to_owned()
    };
    assert_eq!(fleet(&mut page, "online"), "1");
    assert_eq!(fleet(&mut page, "idle"), "0");
    assert_eq!(fleet(&mut page, "cores"), workers[0]["cores"].to_string());
    assert_eq!(fleet(&mut page, "gpm"), format!("{gpm:.1}"));

    // Page 1: 50 runs, open ones first (newest first), then the cancelled.
    let first = rows(&mut page);
    assert_eq!(first.len(), 50);
    let mut expected: Vec<String> = ids
        .iter()
        .rev()
        .filter(|id| !ids[10..12].contains(id))
        .cloned()
        .collect();
    expected.extend(ids[10..12].iter().rev().cloned());
    assert_eq!(first, expected[..50]);
    assert_eq!(
        page.eval("document.querySelector('#pager').textContent.trim()"),
        "Runs 1 to 50 of 53 older"
    );
    let next = page.eval("document.querySelector('#pager a[rel=next]').getAttribute('href')");
    assert_eq!(next, "/?page=2");
    let mut second = list(&format!("{}/?page=2", served.base));
    let second_rows = rows(&mut second);
    assert_eq!(second_rows, expected[50..]);
    assert_eq!(
        second.eval("document.querySelector('#pager').textContent.trim()"),
        "Runs 51 to 53 of 53 newer"
    );
    // Each row's state is status --json's.
    for id in &second_rows {
        let shown = second.eval(&format!(
            "document.querySelector('tr[data-run=\"{id}\"] .state').textContent"
        ));
        assert_eq!(shown, status(&cluster, id)["state"], "run {id}");
    }
    let (code, _, body) = get(&served.base, "/api/runs?page=2");
    assert_eq!(code, 200);
    let api: Vec<String> = serde_json::from_str::<Value>(&body)
        .expect("JSON")
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r["id"].to_string())
        .collect();
    assert_eq!(api, second_rows);

    // By state.
    let mut cancelled = list(&format!("{}/?state=cancelled", served.base));
    let mut want: Vec<String> = ids[10..12].to_vec();
    want.reverse();
    assert_eq!(rows(&mut cancelled), want);

    // By submitter: the name in a row links to its runs; shown as text everywhere.
    let href = page.eval(&format!(
        "document.querySelector('tr[data-run=\"{}\"] .by a').getAttribute('href')",
        ids[1]
    ));
    let href = href.as_str().expect("a link").to_owned();
    assert!(!href.contains('<') && !href.contains(' '), "{href}");
    let mut theirs = list(&format!("{}{href}", served.base));
    let mut want: Vec<String> = ids[..3].to_vec();
    want.reverse();
    assert_eq!(rows(&mut theirs), want);
    assert_eq!(
        theirs.eval("document.querySelector('.filters .who').textContent"),
        SUBMITTER
    );
    assert_eq!(theirs.eval("document.querySelectorAll('main i').length"), 0);
    assert_eq!(theirs.eval("document.querySelectorAll('script').length"), 1);
    for id in &want {
        assert_eq!(status(&cluster, id)["submitter"], SUBMITTER);
    }
    // The state filter keeps the submitter.
    let open = theirs.eval("[...document.querySelectorAll('.filters a')].find(a => a.textContent === 'open').getAttribute('href')");
    assert_eq!(
        open.as_str()
            .map(|h| h.starts_with("/?state=open&submitter=")),
        Some(true),
        "{open}"
    );

    // What is left of the frozen open run without an SPRT: its pairs left.
    let state = status(&cluster, &ids[52]);
    let total = state["pairs_total"].as_u64().expect("pairs_total");
    let done = state["pairs"].as_u64().expect("pairs");
    let mut run = Browser::open(&format!("{}/runs/{}", served.base, ids[52]));
    run.wait(
        "the run page",
        "document.querySelector('[data-k=left]') !== null",
        Duration::from_secs(30),
    );
    assert_eq!(run.figure("left"), format!("{} pairs", total - done));
    let sub = run.eval("document.querySelector('[data-k=left] .sub').textContent");
    assert!(
        sub.as_str()
            .is_some_and(|t| t.starts_with(&format!("of {total}, about "))),
        "{sub}"
    );
    let said = run.eval("document.querySelector('#left-method').textContent");
    assert!(
        said.as_str().is_some_and(|t| t.contains("LLR per game")),
        "{said}"
    );
    // A cancelled run has no estimate.
    let mut ended = Browser::open(&format!("{}/runs/{}", served.base, ids[10]));
    ended.wait(
        "the cancelled run's page",
        "document.querySelector('[data-k=games]') !== null",
        Duration::from_secs(30),
    );
    assert_eq!(
        ended.eval("document.querySelector('[data-k=left]') === null"),
        true
    );

    for bad in [
        "/?page=0",
        "/?state=done",
        "/?who=x",
        "/?page=2&page=3",
        "/api/runs?submitter=%ZZ",
    ] {
        let (code, _, body) = get(&served.base, bad);
        assert_eq!(code, 400, "{bad}: {body}");
        assert_eq!(body.trim_end().lines().count(), 1, "{bad}: {body}");
    }
}

#[test]
fn an_sprts_page_estimates_the_games_to_a_bound_from_the_llrs_drift() {
    let dir = scratch("serve-left");
    let cluster = fleet_with_reader();
    let slow = r#", "--fault", "sleep", "--sleep-ms", "10""#;
    let sprt = "[sprt]\nelo0 = 0\nelo1 = 10\nalpha = 0.05\nbeta = 0.05\n";
    let config = fault_config(dir.path(), 2000, &mainlines(), [slow, slow], sprt);
    let id = submit(&cluster, &config, &["--batch-pairs", "1"]);
    // Played a while, then stopped dead: the run stays open, its numbers still.
    let mut w = worker(
        &cluster,
        "w1",
        &["--run", &id, "--concurrency", "2", "--batch-pairs", "1"],
    );
    wait_until("some pairs stored", || {
        status(&cluster, &id)["games"].as_u64().unwrap_or(0) >= 12
    });
    let _ = w.kill();
    let _ = w.wait();
    let served = serve(&["--db", &cluster.url("xq_reader")], &[]);
    let state = status(&cluster, &id);
    let f = |k: &str| state[k].as_f64().expect(k);
    let (llr, lower, upper, games) = (f("llr"), f("llr_lower"), f("llr_upper"), f("games"));
    let pairs_left = f("pairs_total") - f("pairs");
    // The LLR per game so far, carried on to the bound it moves towards.
    let drift = llr / games;
    let expected = if llr == 0.0 {
        "n/a".to_owned()
    } else {
        let to = if drift > 0.0 {
            upper - llr
        } else {
            lower - llr
        } / drift;
        if to > pairs_left * 2.0 {
            format!("{pairs_left} pairs")
        } else {
            format!("~{:.0} games", to.ceil())
        }
    };
    let mut page = Browser::open(&format!("{}/runs/{id}", served.base));
    page.wait(
        "the run page",
        "document.querySelector('[data-k=left]') !== null",
        Duration::from_secs(30),
    );
    assert_eq!(page.figure("left"), expected, "{state}");
    if llr != 0.0 && expected.ends_with("games") {
        let bound = if drift > 0.0 { "H1" } else { "H0" };
        let sub = page.eval("document.querySelector('[data-k=left] .sub').textContent");
        assert!(
            sub.as_str()
                .is_some_and(|t| t.starts_with(&format!("to {bound} at {drift:+.4} LLR a game"))),
            "{sub}"
        );
    }
}
