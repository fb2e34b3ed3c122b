//! The steps of a hostile worker's tests (schema version 6): claims and submits made as
//! the worker role through psql, psql sessions held open (a transaction left open, a
//! lock held, a name in use), where each pair's games start, and a fingerprint of every
//! stored state a worker must not change.

#![allow(dead_code)]

use std::io::Write as _;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use super::common::pg::Cluster;

/// A batch held by the worker role: its id and token, from its own claim.
pub struct Held {
    pub batch: String,
    pub token: String,
    pub first: u64,
    pub pairs: u64,
}

/// Claims as the worker role under `name`.
pub fn claim(cluster: &Cluster, id: &str, name: &str, pairs: u32, lease: &str) -> Held {
    let row = cluster.sql_as(
        "xq_worker",
        "xq",
        &format!(
            "SELECT batch_id, token, first_pair, pairs FROM xq.claim_batch({id}, '{name}', {pairs}, {lease})"
        ),
    );
    let f: Vec<&str> = row.split('|').collect();
    assert_eq!(f.len(), 4, "a claim: {row}");
    Held {
        batch: f[0].to_owned(),
        token: f[1].to_owned(),
        first: f[2].parse().expect("first pair"),
        pairs: f[3].parse().expect("pairs"),
    }
}

/// Where the games of each pair of a run start, as a local run of the same config
/// plays them (what a worker plays too: the same book, order and seed).
pub struct Starts {
    pairs: std::collections::HashMap<u64, (Value, String, String)>,
}

impl Starts {
    /// Plays `config` locally into `dir/starts` and keeps where each pair started.
    pub fn played(config: &std::path::Path, dir: &std::path::Path) -> Starts {
        let out = dir.join("starts");
        let (code, o, e) = super::common::runner(&[
            "run",
            super::common::path(config),
            "--out",
            super::common::path(&out),
        ]);
        assert_eq!(code, 0, "{o}{e}");
        let pairs = super::common::journal(&out)
            .into_iter()
            .map(|g| {
                let text = |k: &str| g[k].as_str().unwrap_or_default().to_owned();
                (
                    g["pair"].as_u64().expect("a pair"),
                    (
                        g["opening"].clone(),
                        text("start_fen"),
                        text("opening_moves"),
                    ),
                )
            })
            .collect();
        Starts { pairs }
    }

    /// The start of pair `pair`: its opening's index, FEN and moves.
    pub fn of_pair(&self, pair: u64) -> &(Value, String, String) {
        self.pairs
            .get(&pair)
            .unwrap_or_else(|| panic!("pair {pair} was not played locally"))
    }
}

/// A well-formed journal line of a match of `a` (Red in game 0) against `b`: game
/// `game` of pair `pair`, from the pair's opening, no moves, ended by `reason`.
pub fn entry(starts: &Starts, pair: u64, game: u8, result: &str, reason: &str) -> Value {
    let (red, black) = if game == 0 { ("a", "b") } else { ("b", "a") };
    let (opening, fen, moves) = starts.of_pair(pair);
    json!({
        "pair": pair, "game": game, "opening": opening, "red": red, "black": black,
        "result": result, "reason": reason, "plies": 0,
        "start_fen": fen, "opening_moves": moves, "moves": "", "times_ms": [], "scores": [],
        "depths": [], "duration_ms": 1
    })
}

/// The games of `held`, both of each pair, draws by repetition from their openings,
/// then `edit`ed, as texts.
pub fn batch_games(
    starts: &Starts,
    held: &Held,
    mut edit: impl FnMut(&mut Vec<Value>),
) -> Vec<String> {
    let mut games: Vec<Value> = (held.first..held.first + held.pairs)
        .flat_map(|p| [0, 1].map(|g| entry(starts, p, g, "1/2-1/2", "repetition")))
        .collect();
    edit(&mut games);
    games.iter().map(Value::to_string).collect()
}

/// `entries` as an SQL array of texts.
pub fn sql_texts(entries: &[String]) -> String {
    let quoted: Vec<String> = entries.iter().map(|e| format!("$e${e}$e$")).collect();
    format!("ARRAY[{}]::text[]", quoted.join(", "))
}

/// Submits `entries` for `held` as the worker role; the server's error, if any.
pub fn submit_as_worker(cluster: &Cluster, held: &Held, entries: &[String]) -> String {
    submit_with_token(cluster, held, &held.token, entries)
}

/// Submits `entries` for `held`'s batch as the worker role with `token`, which may be
/// another than the claim's; the server's error, if any.
pub fn submit_with_token(
    cluster: &Cluster,
    held: &Held,
    token: &str,
    entries: &[String],
) -> String {
    sql_file(
        cluster,
        "xq_worker",
        &format!(
            "SELECT * FROM xq.submit_batch({}, '{token}', {}, 1.0);",
            held.batch,
            sql_texts(entries)
        ),
    )
}

/// Runs `sql` as `user` through a file (a statement may be longer than a command line
/// may); psql's error, if any.
pub fn sql_file(cluster: &Cluster, user: &str, sql: &str) -> String {
    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(file.path(), sql).expect("write the statement");
    let out = Command::new("psql")
        .args([
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
            &cluster.socket_dir().display().to_string(),
            "-p",
            &cluster.port.to_string(),
            "-U",
            user,
            "-d",
            "xq",
            "-f",
        ])
        .arg(file.path())
        .output()
        .expect("run psql");
    if out.status.success() {
        String::new()
    } else {
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

/// A count or a number the superuser reads.
pub fn number(cluster: &Cluster, sql: &str) -> i64 {
    cluster.sql(sql).parse().unwrap_or(-1)
}

/// Everything a worker could change that it must not, as one text: the games, the
/// batches (their holder, token and lease), the runs, what each worker did for each
/// run, the workers' names, roles, versions and runs, and the tune records. Left out:
/// the times a worker was last heard of, which its heartbeats are for.
pub fn stored_state(cluster: &Cluster) -> String {
    cluster.sql(
        "SELECT concat_ws(E'\\n',
            (SELECT string_agg(concat_ws('/', run_id, pair, game, batch_id, md5(entry)), ','
                               ORDER BY run_id, pair, game) FROM xq.games),
            (SELECT string_agg(concat_ws('/', id, run_id, first_pair, pairs, state, worker, token,
                                         claims, lease_until, done_at, theta), ',' ORDER BY id)
             FROM xq.batches),
            (SELECT string_agg(concat_ws('/', id, state, status, exit_code, next_pair, pairs_done,
                                         games_done, penta, tune), ',' ORDER BY id) FROM xq.runs),
            (SELECT string_agg(concat_ws('/', run_id, worker, batches, games, faults, refused,
                                         bench, purged, announced), ',' ORDER BY run_id, worker)
             FROM xq.run_workers),
            (SELECT string_agg(concat_ws('/', name, db_user, version, concurrency, run_id,
                                         host, os, arch, cores), ','
                               ORDER BY name) FROM xq.workers),
            (SELECT count(*)::text FROM xq.tune_records))",
    )
}

/// A psql session held open as `user` (its statements sent as they come, its output
/// dropped), found in `pg_stat_activity` by its application name.
pub struct Session {
    child: Child,
    pub name: String,
}

impl Session {
    pub fn open(cluster: &Cluster, user: &str, name: &str) -> Session {
        let child = Command::new("psql")
            .args([
                "-X",
                "-q",
                "-h",
                &cluster.socket_dir().display().to_string(),
                "-p",
                &cluster.port.to_string(),
                "-U",
                user,
                "-d",
                "xq",
            ])
            .env("PGAPPNAME", name)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start psql");
        Session {
            child,
            name: name.to_owned(),
        }
    }

    /// Sends `sql` (statements ending in `;`).
    pub fn send(&mut self, sql: &str) {
        let stdin = self.child.stdin.as_mut().expect("psql's stdin");
        stdin
            .write_all(format!("{sql}\n").as_bytes())
            .expect("write to psql");
        stdin.flush().expect("flush psql");
    }

    /// The session's state as the server sees it (`idle in transaction`, ...), `None`
    /// once it is gone.
    pub fn state(&self, cluster: &Cluster) -> Option<String> {
        let out = cluster.sql(&format!(
            "SELECT coalesce(state, '?') FROM pg_stat_activity WHERE application_name = '{}'",
            self.name
        ));
        (!out.is_empty()).then_some(out)
    }

    /// Waits until the server shows the session in `state`.
    pub fn wait_for_state(&self, cluster: &Cluster, state: &str) {
        let shown = super::common::eventually(Duration::from_secs(20), || {
            self.state(cluster).as_deref() == Some(state)
        });
        assert!(shown, "session {} never became {state}", self.name);
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
