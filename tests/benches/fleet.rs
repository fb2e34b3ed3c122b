//! Runs past one machine, measured against a throwaway PostgreSQL on this machine:
//! - games per second of workers at a total concurrency C against one local `run` at
//!   concurrency C, with instant engines (runs interleaved, median of 3);
//! - the database's cost per batch: statements and server time, from
//!   pg_stat_statements, split by call;
//! - `status` on a stored run of 100,000 games (`report`: benches/report.rs).
//!
//! `cargo bench -p xq-tests --bench fleet` (after `cargo build --release --workspace
//! --bins`). `XQ_BENCH_QUICK=1` for a smaller run.

mod common;

use std::path::{Path, PathBuf};

use common::{bin, median, pg, runner};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

fn config(dir: &Path, pairs: u64, concurrency: usize) -> PathBuf {
    let path = dir.join(format!("bench-{pairs}.toml"));
    std::fs::write(&path, common::instant_match(pairs, concurrency, None)).expect("write config");
    path
}

fn local(config: &Path, out: &Path) -> f64 {
    let _ = std::fs::remove_dir_all(out);
    let start = Instant::now();
    runner(&[
        "run",
        config.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
    ]);
    start.elapsed().as_secs_f64()
}

/// Submits the run and plays it with `workers` workers of `each` slots; the seconds
/// from the workers' start to the last one's end.
fn fleet(cluster: &pg::Cluster, config: &Path, workers: usize, each: usize) -> f64 {
    let url = cluster.url("xq_owner");
    runner(&["submit", config.to_str().expect("path"), "--db", &url]);
    let start = Instant::now();
    let children: Vec<Child> = (0..workers)
        .map(|i| {
            Command::new(bin("xq-runner"))
                .args([
                    "worker",
                    "--db",
                    &cluster.url("xq_worker"),
                    "--name",
                    &format!("w{i}"),
                    "--concurrency",
                    &each.to_string(),
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start a worker")
        })
        .collect();
    for mut c in children {
        assert!(c.wait().expect("worker").success(), "a worker failed");
    }
    start.elapsed().as_secs_f64()
}

fn main() {
    let quick = std::env::var_os("XQ_BENCH_QUICK").is_some();
    let dir = tempfile::Builder::new()
        .prefix("xq-bench-fleet-")
        .tempdir()
        .expect("scratch");
    let cluster = pg::Cluster::start_with(&[
        "shared_preload_libraries = 'pg_stat_statements'",
        "pg_stat_statements.track = top",
    ]);
    cluster.sql("CREATE EXTENSION pg_stat_statements");
    runner(&[
        "db",
        "init",
        "--db",
        &cluster.url("xq_owner"),
        "--worker-role",
        "xq_worker",
    ]);

    // 1. Games per second at a total concurrency of 2.
    let pairs = if quick { 400 } else { 2000 };
    let cfg = config(dir.path(), pairs, 2);
    let games = (2 * pairs) as f64;
    let (mut l, mut one, mut two) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..3 {
        l.push(games / local(&cfg, &dir.path().join(format!("local{round}"))));
        one.push(games / fleet(&cluster, &cfg, 1, 2));
        two.push(games / fleet(&cluster, &cfg, 2, 1));
    }
    let (l, one, two) = (median(l), median(one), median(two));
    println!("{games} games of up to 100 plies, instant engines, total concurrency 2 (median of 3, interleaved):");
    println!("  local run                  {l:>7.1} games/s");
    println!(
        "  1 worker x 2 slots         {one:>7.1} games/s ({:.2}x local)",
        one / l
    );
    println!(
        "  2 workers x 1 slot         {two:>7.1} games/s ({:.2}x local)",
        two / l
    );

    // 2. The database's cost per batch, as the server measured it.
    let per_batch = cluster.sql("SELECT count(*), round(avg(pairs), 1) FROM xq.batches");
    let mut per_batch = per_batch.split('|');
    let batches: f64 = per_batch.next().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let mean_pairs = per_batch.next().unwrap_or("?").to_owned();
    let rows = cluster.sql(
        "SELECT sum(calls), sum(total_exec_time) FROM pg_stat_statements s \
         JOIN pg_roles r ON r.oid = s.userid WHERE r.rolname = 'xq_worker'",
    );
    let mut parts = rows.split('|');
    let calls: f64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let ms: f64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    println!(
        "database, per batch ({batches} batches of {mean_pairs} pairs on average): {:.1} statements, {:.2} ms of server time",
        calls / batches,
        ms / batches
    );
    let top = cluster.sql(
        "SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 60), calls, round(total_exec_time::numeric / calls, 3) \
         FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid \
         WHERE r.rolname = 'xq_worker' ORDER BY total_exec_time DESC LIMIT 8",
    );
    for line in top.lines() {
        println!("  {line}");
    }

    // 3. status on a run of 100,000 games: a stored run of 50,000 pairs whose
    // games are copies of a played run's, renumbered.
    let big_pairs = if quick { 5_000 } else { 50_000 };
    let big_cfg = config(dir.path(), big_pairs, 2);
    let id = runner(&[
        "submit",
        big_cfg.to_str().expect("path"),
        "--db",
        &cluster.url("xq_owner"),
    ])
    .trim()
    .to_owned();
    let played = cluster.sql("SELECT min(id) FROM xq.runs");
    cluster.sql(&format!(
        "WITH b AS (INSERT INTO xq.batches (run_id, first_pair, pairs, state, worker, token, lease_until, done_at) \
           VALUES ({id}, 0, {big_pairs}, 'done', 'bench', gen_random_uuid(), now(), now()) RETURNING id), \
         src AS (SELECT pair, game, entry, red, black, result, reason, faulted FROM xq.games WHERE run_id = {played}) \
         INSERT INTO xq.games (run_id, pair, game, batch_id, entry, red, black, result, reason, faulted) \
         SELECT {id}, p, src.game, b.id, jsonb_set(src.entry::jsonb, '{{pair}}', to_jsonb(p))::text, \
                src.red, src.black, src.result, src.reason, src.faulted \
         FROM generate_series(0, {big_pairs} - 1) p CROSS JOIN b \
         JOIN src ON src.pair = p % {pairs}"
    ));
    cluster.sql(&format!(
        "UPDATE xq.runs SET next_pair = {big_pairs}, pairs_done = {big_pairs}, games_done = 2 * {big_pairs}, \
         penta = xq.first_pairing_penta({id}, 1, NULL), state = 'finished', status = 'finished' WHERE id = {id}"
    ));
    let stored = cluster.sql(&format!(
        "SELECT count(*) FROM xq.games WHERE run_id = {id}"
    ));
    let mut status = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        runner(&["status", &id, "--db", &cluster.url("xq_worker"), "--json"]);
        status.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    println!("a stored run of {stored} games:");
    println!(
        "  status --json   {:>7.1} ms (median of 7, the whole command)",
        median(status)
    );
    // `report` of such a run: benches/report.rs.
}
