//! Stalls a hostile worker could cause (issue 60, item 3), tried as the worker role
//! through psql against a real PostgreSQL server: a transaction left open holding a
//! run's lock, an advisory lock on the key `db init` used, a claim of every pair of a
//! run, 2,000 heartbeats of names that claim nothing; and the owner's purge of a worker
//! that holds batches but stored no game, or of a name that never worked on the run.

mod common;
#[path = "common/trust.rs"]
mod trust;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::fleet::{fleet, submit};
use common::pg::Cluster;
use common::{bin, fault_config, mainlines, path, runner, scratch, wait_for};
use trust::{claim, number, Session};

fn match_run(dir: &Path, pairs: u32) -> std::path::PathBuf {
    fault_config(dir, pairs, &mainlines(), ["", ""], "")
}

/// Runs a command that must end within `limit` (it is killed, and the test fails, if
/// not); its output.
fn within(mut command: Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    wait_for(&mut child, limit);
    child.wait_with_output().expect("its output")
}

fn psql_as_worker(cluster: &Cluster, sql: &str) -> Command {
    let mut c = Command::new("psql");
    c.args([
        "-X",
        "-q",
        "-t",
        "-A",
        "-v",
        "ON_ERROR_STOP=1",
        "-h",
        &cluster.socket_dir().display().to_string(),
        "-p",
        &cluster.port.to_string(),
        "-U",
        "xq_worker",
        "-d",
        "xq",
        "-c",
        sql,
    ]);
    c
}

fn xq_runner(args: &[&str]) -> Command {
    let mut c = Command::new(bin("xq-runner"));
    c.args(args);
    c
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_transaction_a_worker_leaves_open_holds_no_one_forever() {
    let dir = scratch("fleet-open-tx");
    let cluster = fleet();
    let id = submit(
        &cluster,
        &match_run(dir.path(), 40),
        &["--batch-pairs", "2"],
    );
    let mut hog = Session::open(&cluster, "xq_worker", "hog");
    hog.send(&format!(
        "BEGIN; SELECT * FROM xq.claim_batch({id}, 'hog', 2, 60);"
    ));
    hog.wait_for_state(&cluster, "idle in transaction");

    // An honest claim waits for the run's lock a few seconds, then says why.
    let started = Instant::now();
    let out = within(
        psql_as_worker(
            &cluster,
            &format!("SELECT * FROM xq.claim_batch({id}, 'honest', 2, 60)"),
        ),
        Duration::from_secs(60),
    );
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("lock timeout"), "{}", text(&out));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );

    // The session that left its transaction open is ended, and the run goes on.
    let ended = common::eventually(Duration::from_secs(30), || hog.state(&cluster).is_none());
    assert!(ended, "the idle transaction still holds the run");
    let honest = claim(&cluster, &id, "honest", 2, "60");
    assert_eq!(
        honest.first, 0,
        "the hog's claim was undone with its transaction"
    );
}

#[test]
fn an_advisory_lock_a_worker_holds_stops_no_submit_and_no_db_init() {
    let dir = scratch("fleet-advisory");
    let cluster = fleet();
    let config = match_run(dir.path(), 4);
    let mut squatter = Session::open(&cluster, "xq_worker", "squatter");
    squatter.send("SELECT pg_advisory_lock(7100028);");
    squatter.wait_for_state(&cluster, "idle");
    assert_eq!(
        number(
            &cluster,
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 7100028 AND granted"
        ),
        1,
        "the worker holds the key"
    );
    let owner = cluster.url("xq_owner");
    let out = within(
        xq_runner(&["submit", path(&config), "--db", &owner]),
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = within(
        xq_runner(&["db", "init", "--db", &owner]),
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("up to date"), "{}", text(&out));
    // An init that would upgrade waits for the key a while, then says what holds it.
    cluster.sql("UPDATE xq.meta SET value = '5' WHERE key = 'schema_version'");
    let started = Instant::now();
    let out = within(
        xq_runner(&["db", "init", "--db", &owner]),
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("another session holds a lock this needs"),
        "{}",
        text(&out)
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn the_worker_and_reader_roles_get_timeouts_from_db_init() {
    let cluster = fleet();
    cluster.sql_as(
        "xqsuper",
        "postgres",
        "CREATE ROLE xq_reader LOGIN PASSWORD 'reader-secret'",
    );
    let owner = cluster.url("xq_owner");
    let init = || {
        runner(&[
            "db",
            "init",
            "--db",
            &owner,
            "--worker-role",
            "xq_worker",
            "--reader-role",
            "xq_reader",
        ])
    };
    // An owner that may not set another role's defaults says what to run instead.
    let (code, out, err) = init();
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("note: role xq_worker's timeouts")
            && err.contains(
                "ALTER ROLE \"xq_worker\" SET idle_in_transaction_session_timeout = '10s';"
            ),
        "{err}"
    );
    // One that may, sets them.
    cluster.sql("ALTER ROLE xq_owner CREATEROLE");
    let (code, out, err) = init();
    assert_eq!(code, 0, "{out}{err}");
    for role in ["xq_worker", "xq_reader"] {
        assert!(
            out.contains(&format!("set role {role}'s timeouts")),
            "{out}"
        );
        let shown = cluster.sql_as(
            role,
            "xq",
            "SELECT current_setting('idle_in_transaction_session_timeout') || ' '
                    || current_setting('statement_timeout') || ' ' || current_setting('lock_timeout')",
        );
        assert_eq!(shown, "10s 2min 10s", "{role}");
    }
}

#[test]
fn a_claim_of_every_pair_takes_an_eighth_of_the_run() {
    let dir = scratch("fleet-claim-cap");
    let cluster = fleet();
    let id = submit(
        &cluster,
        &match_run(dir.path(), 800),
        &["--batch-pairs", "2"],
    );
    // A worker that never said its concurrency (1) asks for every pair.
    let hog = claim(&cluster, &id, "hog", 4096, "3600");
    assert_eq!(hog.pairs, 100, "an eighth of the run's 800 pairs");
}

#[test]
fn heartbeats_of_names_that_claim_nothing_do_not_shrink_a_claim() {
    let dir = scratch("fleet-ghosts");
    let cluster = fleet();
    let id = submit(
        &cluster,
        &match_run(dir.path(), 400),
        &["--batch-pairs", "2"],
    );
    // 2,000 names that only say hello, on the run.
    cluster.sql_as(
        "xq_worker",
        "xq",
        &format!(
            "SELECT count(xq.heartbeat('ghost' || g, {id}, 1, 'v')) FROM generate_series(1, 2000) AS g"
        ),
    );
    cluster.sql_as(
        "xq_worker",
        "xq",
        &format!("SELECT xq.heartbeat('honest', {id}, 4, 'v')"),
    );
    let honest = claim(&cluster, &id, "honest", 40, "60");
    assert_eq!(honest.pairs, 40, "the honest claim is whole");
    assert_eq!(
        number(
            &cluster,
            &format!("SELECT count(*) FROM xq.workers WHERE run_id = {id}")
        ),
        1,
        "a heartbeat alone puts no worker on the run: only the honest claim is"
    );
}

#[test]
fn purging_a_worker_that_only_holds_batches_releases_them() {
    let dir = scratch("fleet-purge-claims");
    let cluster = fleet();
    let id = submit(&cluster, &match_run(dir.path(), 8), &["--batch-pairs", "2"]);
    let held = claim(&cluster, &id, "idle", 2, "600");
    let owner = cluster.url("xq_owner");
    let (code, out, err) = runner(&["purge", &id, "--worker", "idle", "--db", &owner]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("released idle's batch of run 1 (none of its games was stored): their pairs are handed out again"),
        "{out}"
    );
    let next = claim(&cluster, &id, "next", 2, "60");
    assert_eq!(
        (next.batch, next.first),
        (held.batch, 0),
        "the same pairs, handed out again"
    );
}

#[test]
fn purging_a_name_that_never_worked_on_the_run_is_bad_input() {
    let dir = scratch("fleet-purge-nobody");
    let cluster = fleet();
    let id = submit(&cluster, &match_run(dir.path(), 8), &["--batch-pairs", "2"]);
    claim(&cluster, &id, "somebody", 2, "600");
    let owner = cluster.url("xq_owner");
    let (code, out, err) = runner(&["purge", &id, "--worker", "nobody", "--db", &owner]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("no worker named nobody ever worked on run 1"),
        "{err}"
    );
}
