//! The workers page of `xq-runner serve` (issue 59), read in headless Chromium after its
//! scripts ran: each worker's machine (host, OS/arch, cores), the games it plays at
//! once, its bench speed, its state by heartbeat (online on a run, idle, offline), its
//! runs and games a minute, as `/api/workers` and `status --json` say; a worker started
//! again on the same machine without `--name` keeps its name (the host's), and a
//! worker's name with markup is text.

mod common;

use std::path::Path;
use std::time::Duration;

use common::fleet::{
    finish, fleet_with_reader, status, submit, text, unnamed_worker, wait_until, worker,
};
use common::web::{get, screenshots, serve, shots, Browser, BROKEN_WORDS, WIDTHS};
use common::{fault_config, mainlines, scratch};
use serde_json::Value;

/// A worker name that would run a script if the page put it in its markup.
const HOSTILE: &str = "</script><b>w</b>";

/// The name engine `a` announces (`id name`), with markup.
const ANNOUNCED: &str = "Fault </script><b>9</b>";

/// A match of two fault engines whose bench signature the workers check (so that each
/// measures and reports its speed and the name the engine announces), each move
/// `sleep_ms` late.
fn benched_config(dir: &Path, pairs: u32, sleep_ms: u32) -> std::path::PathBuf {
    let slow = format!(r#", "--fault", "sleep", "--sleep-ms", "{sleep_ms}""#);
    let named = format!(
        r#"{slow}, "--id-name", "{}""#,
        ANNOUNCED.replace('"', "\\\"")
    );
    let config = fault_config(dir, pairs, &mainlines(), [&named, &slow], "");
    let with_bench = std::fs::read_to_string(&config)
        .expect("config")
        .replace("name = \"a\"", "name = \"a\"\nbench = 4242")
        .replace("name = \"b\"", "name = \"b\"\nbench = 4242");
    std::fs::write(&config, with_bench).expect("write config");
    config
}

/// The workers of `/api/workers`.
fn api_workers(base: &str) -> Vec<Value> {
    let (code, _, body) = get(base, "/api/workers");
    assert_eq!(code, 200, "{body}");
    serde_json::from_str::<Value>(&body)
        .expect("JSON")
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .expect("hostname")
        .trim()
        .to_owned()
}

#[test]
fn the_workers_page_shows_each_machine_its_state_and_speed() {
    let dir = scratch("serve-workers");
    let cluster = fleet_with_reader();
    let host = host_name();

    // Two runs, each played by a worker without --name: the second is the first
    // restarted, and keeps its name (the machine's), so one row has both runs.
    let first = submit(&cluster, &benched_config(dir.path(), 2, 0), &[]);
    let out = finish(unnamed_worker(
        &cluster,
        &["--run", &first, "--concurrency", "2"],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let second_dir = scratch("serve-workers-2");
    let second = submit(&cluster, &benched_config(second_dir.path(), 2, 0), &[]);
    let out = finish(unnamed_worker(
        &cluster,
        &["--run", &second, "--concurrency", "2"],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    for id in [&first, &second] {
        let names: Vec<Value> = status(&cluster, id)["workers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|w| w["name"].clone())
            .collect();
        assert_eq!(names, [Value::from(host.as_str())], "run {id}'s workers");
    }
    // Each engine's build with what the workers measured of it: the name it announced,
    // its bench signature and speed, in status --json, the API and the run page.
    let state = status(&cluster, &first);
    let engines = &state["engines"];
    assert_eq!(engines[0]["announced"], ANNOUNCED, "{engines}");
    assert_eq!(engines[1]["announced"], "fault-engine", "{engines}");
    for e in engines.as_array().into_iter().flatten() {
        assert_eq!(e["bench"], 4242, "{e}");
        assert_eq!(e["nps"], 42_420, "{e}");
    }
    // It went quiet long ago: offline.
    cluster.sql(&format!(
        "UPDATE xq.workers SET last_seen = now() - interval '5 minutes' WHERE name = '{host}'"
    ));

    // A worker with a hostile name on a slow run: online while it plays.
    let third_dir = scratch("serve-workers-3");
    let third = submit(&cluster, &benched_config(third_dir.path(), 200, 30), &[]);
    let mut playing = worker(&cluster, HOSTILE, &["--run", &third, "--concurrency", "1"]);
    let served = serve(&["--db", &cluster.url("xq_reader")], &[]);
    wait_until("the hostile worker on its run", || {
        api_workers(&served.base)
            .iter()
            .any(|w| w["name"] == HOSTILE && w["state"] == "online")
    });

    let workers = api_workers(&served.base);
    assert_eq!(workers.len(), 2, "{workers:?}");
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let restarted = workers
        .iter()
        .find(|w| w["name"] == host.as_str())
        .expect("the host's worker");
    assert_eq!(restarted["host"], host.as_str());
    assert_eq!(restarted["os"], std::env::consts::OS);
    assert_eq!(restarted["arch"], std::env::consts::ARCH);
    assert_eq!(restarted["cores"], cores);
    assert_eq!(restarted["concurrency"], 2);
    assert_eq!(restarted["state"], "offline");
    assert_eq!(restarted["games"], 8, "both runs' games");
    let runs: Vec<String> = restarted["runs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(Value::to_string)
        .collect();
    assert_eq!(runs, [first.clone(), second.clone()]);
    // The fault engine's bench says 42,420 nodes a second.
    assert_eq!(restarted["bench_nps"].as_f64(), Some(42_420.0));
    let online = workers
        .iter()
        .find(|w| w["name"] == HOSTILE)
        .expect("the hostile worker");
    assert_eq!(online["run"].to_string(), third);

    let (code, _, body) = get(&served.base, &format!("/api/runs/{first}"));
    assert_eq!(code, 200);
    let api: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(api["engines"], state["engines"]);
    let mut run = Browser::open(&format!("{}/runs/{first}", served.base));
    run.wait(
        "the run page",
        "document.querySelector('#about .engine') !== null",
        Duration::from_secs(30),
    );
    let shown = run.eval(
        "[...document.querySelectorAll('#about .engine')].map(e => \
         [e.querySelector('.announced').textContent, e.querySelector('.bench').textContent, \
          e.querySelector('.nps').textContent].join('|'))",
    );
    assert_eq!(
        shown,
        serde_json::json!([
            format!("{ANNOUNCED}|4242|42 knps"),
            "fault-engine|4242|42 knps"
        ])
    );
    assert_eq!(run.eval("document.querySelectorAll('#about b').length"), 0);
    assert_eq!(run.eval("document.querySelectorAll('script').length"), 1);

    let url = format!("{}/workers", served.base);
    let mut page = Browser::open(&url);
    page.wait(
        "the workers page",
        "document.querySelectorAll('#workers tbody tr[data-worker]').length === 2",
        Duration::from_secs(30),
    );
    let cell = |page: &mut Browser, name: &str, class: &str| {
        let js = format!(
            "[...document.querySelectorAll('#workers tbody tr')].find(r => r.dataset.worker === {})\
             .querySelector('.{class}').textContent",
            serde_json::to_string(name).expect("json")
        );
        page.eval(&js).as_str().unwrap_or_default().to_owned()
    };
    assert_eq!(cell(&mut page, &host, "name"), host);
    assert_eq!(cell(&mut page, &host, "wstate"), "offline");
    assert_eq!(
        cell(&mut page, &host, "machine"),
        format!("{host} {}/{}", std::env::consts::OS, std::env::consts::ARCH)
    );
    assert_eq!(cell(&mut page, &host, "cores"), cores.to_string());
    assert_eq!(cell(&mut page, &host, "conc"), "2");
    assert_eq!(cell(&mut page, &host, "bench"), "42 knps");
    assert_eq!(cell(&mut page, &host, "games"), "8");
    assert_eq!(cell(&mut page, &host, "runs"), format!("{first}, {second}"));
    let gpm = restarted["games_per_min"].as_f64().unwrap_or(f64::NAN);
    assert_eq!(cell(&mut page, &host, "gpm"), format!("{gpm:.1}"));
    // The hostile name is text: shown as written, no element of it.
    assert_eq!(cell(&mut page, HOSTILE, "name"), HOSTILE);
    assert_eq!(cell(&mut page, HOSTILE, "wstate"), "online");
    assert_eq!(cell(&mut page, HOSTILE, "on"), third);
    assert_eq!(
        page.eval("document.querySelectorAll('#workers b').length"),
        0
    );
    assert_eq!(page.eval("document.querySelectorAll('script').length"), 1);
    for width in WIDTHS {
        page.width(width);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            page.eval(&format!("({BROKEN_WORDS})('#workers')")),
            "",
            "at {width} px"
        );
    }
    screenshots(&url, &shots(dir.path()), "serve-workers");
    let _ = playing.kill();
    let _ = playing.wait();
}
