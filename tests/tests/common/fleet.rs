//! The steps of the tests of runs on many machines: submit as the owner, start workers as
//! the worker role, read `status`, wait for the database to reach a state.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::pg::Cluster;
use super::{bin, journal, path, runner, timeless};

/// A cluster with the schema made by its owner role and the worker role granted.
pub fn fleet() -> Cluster {
    let cluster = Cluster::start();
    let (code, out, err) = runner(&[
        "db",
        "init",
        "--db",
        &cluster.url("xq_owner"),
        "--worker-role",
        "xq_worker",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    cluster
}

/// A cluster with the reader role `xq_reader` (password `reader-secret`) granted.
pub fn fleet_with_reader() -> Cluster {
    let cluster = fleet();
    cluster.sql("CREATE ROLE xq_reader LOGIN PASSWORD 'reader-secret'");
    let (code, out, err) = runner(&[
        "db",
        "init",
        "--db",
        &cluster.url("xq_owner"),
        "--reader-role",
        "xq_reader",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("granted role xq_reader"), "{out}");
    cluster
}

/// Submits a config as the owner and returns the run's id.
pub fn submit(cluster: &Cluster, config: &Path, extra: &[&str]) -> String {
    let url = cluster.url("xq_owner");
    let mut args = vec!["submit", path(config), "--db", &url];
    args.extend_from_slice(extra);
    let (code, out, err) = runner(&args);
    assert_eq!(code, 0, "{out}{err}");
    out.lines().last().expect("an id").trim().to_owned()
}

/// Starts a worker as the worker role.
pub fn worker(cluster: &Cluster, name: &str, extra: &[&str]) -> Child {
    Command::new(bin("xq-runner"))
        .args(["worker", "--db", &cluster.url("xq_worker"), "--name", name])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start a worker")
}

/// Starts a worker as the worker role without `--name`: it takes its machine's name.
pub fn unnamed_worker(cluster: &Cluster, extra: &[&str]) -> Child {
    Command::new(bin("xq-runner"))
        .args(["worker", "--db", &cluster.url("xq_worker")])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start a worker")
}

pub fn finish(child: Child) -> Output {
    child.wait_with_output().expect("the worker ends")
}

pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `status --json` of a run.
pub fn status(cluster: &Cluster, id: &str) -> Value {
    let (code, out, err) = runner(&["status", "--db", &cluster.url("xq_worker"), id, "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    serde_json::from_str(&out).expect("status --json is JSON")
}

/// Waits until `probe` holds, for at most a minute.
pub fn wait_until(what: &str, mut probe: impl FnMut() -> bool) {
    let start = Instant::now();
    while !probe() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited a minute for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The parts of a game that do not depend on who played it or how fast.
pub fn games(entries: Vec<Value>) -> Vec<(u64, u64, String, String, String)> {
    timeless(entries)
        .into_iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
            (
                e["pair"].as_u64().unwrap_or(u64::MAX),
                e["game"].as_u64().unwrap_or(u64::MAX),
                s("moves"),
                s("result"),
                s("reason"),
            )
        })
        .collect()
}

/// The games of a local run of `config` (into its own folder).
pub fn local_games(config: &Path, dir: &Path) -> Vec<(u64, u64, String, String, String)> {
    let (code, out, err) = runner(&["run", path(config), "--out", path(dir)]);
    assert_eq!(code, 0, "{out}{err}");
    games(journal(dir))
}

/// The run's games through `report --db`, and the folder it wrote.
pub fn reported_games(
    cluster: &Cluster,
    id: &str,
    dir: &Path,
) -> Vec<(u64, u64, String, String, String)> {
    let (code, out, err) = runner(&[
        "report",
        id,
        "--db",
        &cluster.url("xq_owner"),
        "--out",
        path(dir),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    for file in [
        "games.jsonl",
        "games.pgn",
        "summary.json",
        "summary.md",
        "report.html",
    ] {
        assert!(dir.join(file).is_file(), "report wrote {file}");
    }
    games(journal(dir))
}
