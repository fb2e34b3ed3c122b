//! `serve --db` against what a hostile reader or a careless administrator does, on a
//! real PostgreSQL server (common/pg.rs): eight readers that ask for a run's
//! `games.jsonl` of 1 MB games and never read it keep `serve`'s memory bounded, and a
//! SIGTERM still stops it at once; a role that can write in a way the first check did
//! not see (a column's UPDATE, a NOINHERIT member of the owner, CREATEROLE) is refused.

mod common;

use std::io::Write as _;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::fleet::{finish, fleet, submit, text, worker};
use common::pg::Cluster;
use common::web::{get, serve};
use common::{bin, eventually, fault_engine, mainlines, runner, scratch};

/// A cluster with the reader role `xq_reader` granted.
fn cluster_with_reader() -> Cluster {
    let cluster = fleet();
    cluster.sql("CREATE ROLE xq_reader LOGIN");
    grant_reader(&cluster, "xq_reader");
    cluster
}

/// What `db init --reader-role` grants `role`.
fn grant_reader(cluster: &Cluster, role: &str) {
    let (code, out, err) = runner(&[
        "db",
        "init",
        "--db",
        &cluster.url("xq_owner"),
        "--reader-role",
        role,
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// A match of `pairs` pairs of instant fault engines.
fn config(dir: &Path, pairs: u32) -> PathBuf {
    let engine = fault_engine().display().to_string();
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

[output]
dir = "{out}"

[[engine]]
name = "a"
command = ["{engine}"]

[[engine]]
name = "b"
command = ["{engine}"]
"#,
        openings = mainlines().display(),
        out = dir.join("out").display(),
    );
    let path = dir.join("run.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// The resident memory of process `pid`, in MB.
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kb / 1024.0
}

/// How much `serve`'s memory may grow with [`READERS`] idle readers of 32 games of
/// 1 MB. Before the stream was bounded it grew by 335 MB here (13.3 to 347.8 MB: each
/// reader held the whole slice of 512 pairs, rendered, ahead of a client that took
/// none of it); now a reader holds a few pieces of 256 kB: 7.5-7.9 MB for all eight in
/// three runs. 48 MB leaves six times that for the allocator's arenas and a busier
/// machine, and is still a seventh of what the unbounded stream took.
const GROWTH_MB: f64 = 48.0;

/// Readers that never read.
const READERS: usize = 8;

#[test]
fn idle_readers_of_large_games_keep_serve_small_and_a_sigterm_still_stops_it() {
    let dir = scratch("serve-idle-readers");
    let cluster = cluster_with_reader();
    let id = submit(&cluster, &config(dir.path(), 16), &[]);
    let out = finish(worker(&cluster, "w", &["--concurrency", "2"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // What a hostile worker stored before entries were bounded (or the server's
    // superuser): 32 games of 1 MB each, a comment-like field padding each line.
    cluster.sql(&format!(
        "UPDATE xq.games SET entry = left(entry, -1) || ',\"pad\":\"' || repeat('x', 1048576) || '\"}}'
         WHERE run_id = {id}"
    ));
    assert_eq!(
        cluster.sql(&format!(
            "SELECT count(*) FROM xq.games WHERE run_id = {id} AND octet_length(entry) > 1048576"
        )),
        "32"
    );
    let mut served = serve(&["--db", &cluster.url("xq_reader")], &[]);
    let pid = served.child.id();
    // Warm: the run's page drawn once.
    let (code, _, page) = get(&served.base, &format!("/runs/{id}"));
    assert_eq!(code, 200, "{page}");
    std::thread::sleep(Duration::from_secs(1));
    let before = rss_mb(pid);

    let host = served.base.trim_start_matches("http://").to_owned();
    let readers: Vec<TcpStream> = (0..READERS)
        .map(|_| {
            let mut s = TcpStream::connect(&host).expect("connect");
            write!(
                s,
                "GET /runs/{id}/games.jsonl HTTP/1.1\r\nHost: {host}\r\n\r\n"
            )
            .expect("ask");
            s
        })
        .collect();
    // Each stream goes as far as the sockets take it, then waits on its reader.
    let mut after = rss_mb(pid);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(6) {
        std::thread::sleep(Duration::from_millis(500));
        after = after.max(rss_mb(pid));
    }
    eprintln!("serve: {before:.1} MB, then {after:.1} MB with {READERS} idle readers");
    assert!(
        after - before < GROWTH_MB,
        "serve grew from {before:.1} MB to {after:.1} MB with {READERS} idle readers"
    );
    // Meanwhile another reader gets every line whole: the idle ones hold up no one (the
    // streams share one connection to the database).
    let (code, _, whole) = get(&served.base, &format!("/runs/{id}/games.jsonl"));
    assert_eq!(code, 200);
    assert_eq!(whole.lines().count(), 32);
    let stored = cluster.sql(&format!(
        "SELECT entry FROM xq.games WHERE run_id = {id} ORDER BY pair, game"
    ));
    assert!(
        whole.trim_end() == stored.trim_end(),
        "the stored lines, in order"
    );
    // Lines longer than a slice are read in pieces and put together for the PGN.
    let (code, _, pgn) = get(&served.base, &format!("/runs/{id}/games.pgn"));
    assert_eq!(code, 200);
    assert_eq!(pgn.matches("[Event ").count(), 32);

    // The readers still hold their answers open: a SIGTERM stops serve all the same.
    let asked = Instant::now();
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let stopped = eventually(Duration::from_secs(10), || {
        served.child.try_wait().ok().flatten().is_some()
    });
    assert!(
        stopped,
        "serve still runs 10 s after SIGTERM with idle readers"
    );
    let status = served.child.wait().expect("serve ended");
    assert_eq!(status.code(), Some(0));
    eprintln!("serve stopped {:?} after SIGTERM", asked.elapsed());
    drop(readers);
}

/// `serve` as the role of `url`, which must be refused: its exit code and error. A
/// `serve` that starts (the role was taken as read-only) is stopped, and fails the test.
fn refused(url: &str) -> (Option<i32>, String) {
    let mut child: Child = Command::new(bin("xq-runner"))
        .args(["serve", "--db", url, "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start serve");
    let ended = eventually(Duration::from_secs(30), || {
        child.try_wait().ok().flatten().is_some()
    });
    if !ended {
        let _ = child.kill();
    }
    let out = child.wait_with_output().expect("serve's output");
    assert!(
        ended,
        "serve started: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn serve_refuses_roles_that_can_write_through_a_column_a_membership_or_createrole() {
    let dir = scratch("serve-roles");
    let cluster = cluster_with_reader();
    let id = submit(&cluster, &config(dir.path(), 1), &[]);
    // Each a reader as `db init` makes one, and one right more.
    cluster.sql("CREATE ROLE xq_column LOGIN");
    cluster.sql("CREATE ROLE xq_member LOGIN NOINHERIT");
    cluster.sql("CREATE ROLE xq_creator LOGIN CREATEROLE");
    for role in ["xq_column", "xq_member", "xq_creator"] {
        grant_reader(&cluster, role);
    }
    cluster.sql("GRANT UPDATE (state) ON xq.runs TO xq_column");
    cluster.sql("GRANT xq_owner TO xq_member");

    // What each could do, as the attacker did it with psql.
    let writes = |role: &str, sql: &str| {
        let out = cluster.psql(role, "xq", sql);
        assert!(
            out.status.success(),
            "{role}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    writes(
        "xq_column",
        &format!("UPDATE xq.runs SET state = state WHERE id = {id}"),
    );
    writes(
        "xq_member",
        &format!("SET ROLE xq_owner; UPDATE xq.runs SET state = state WHERE id = {id}"),
    );
    // Before version 16 CREATEROLE grants any role, the owner's too; from 16 on, the
    // roles it made itself (and grants their rights): refused either way.
    let version: u32 = cluster.sql("SHOW server_version_num").parse().unwrap_or(0);
    if version < 160_000 {
        writes(
            "xq_creator",
            &format!(
                "GRANT xq_owner TO xq_creator; SET ROLE xq_owner;
                 UPDATE xq.runs SET state = state WHERE id = {id};
                 RESET ROLE; REVOKE xq_owner FROM xq_creator"
            ),
        );
    }

    for (role, why) in [
        ("xq_column", "UPDATE on column state of xq.runs"),
        (
            "xq_member",
            "member of xq_owner (SET ROLE xq_owner): owner of schema xq",
        ),
        ("xq_creator", "CREATEROLE: it can grant itself any role"),
    ] {
        let (code, err) = refused(&cluster.url(role));
        assert_eq!(code, Some(2), "{role}: {err}");
        assert_eq!(err.lines().count(), 1, "{role}: one line: {err}");
        assert!(
            err.contains(&format!("role {role} can write ({why})")),
            "{role}: {err}"
        );
    }
    // The reader as `db init` made it still serves.
    let served = serve(&["--db", &cluster.url("xq_reader")], &[]);
    let (code, _, body) = get(&served.base, &format!("/api/runs/{id}"));
    assert_eq!(code, 200, "{body}");
}
