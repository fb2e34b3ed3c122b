//! The steps of the tests of runs on many machines: submit as the owner, start workers as
//! the worker role, read `status`, wait for the database to reach a state.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::pg::Cluster;
use super::{bin, path, runner};

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
