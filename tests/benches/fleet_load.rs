//! The fleet's scale, measured: simulated workers against a throwaway PostgreSQL on
//! this machine, at the load of 10,000 games in flight at 10+0.1 and at twice it.
//!
//! A real worker claims a batch, renews its lease and says it is alive every 20 s while
//! it plays, and submits the batch's games. A simulated worker does the same calls as
//! the worker role, over its own connection, with games recorded once from a local run
//! (renumbered into each batch) instead of engines, paced so that the whole fleet hands
//! in the games at the rate of the load:
//! - 10,000 games in flight, a game of 10+0.1 taking about 35 s: 285 games a second;
//! - workers of 8 slots claiming 8 pairs (16 games, about 70 s of play): 18 batches a
//!   second, each renewed 4 times (with a heartbeat each) while it is played.
//!
//! Each simulated worker stands for many real ones (the calls per second are the
//! fleet's; the connections are fewer, as behind a connection pooler).
//!
//! Reported: the games the server stored per second, the server's CPU (its processes'
//! utime + stime from /proc, the backends' and the ones that ended meanwhile) as a share
//! of the machine's cores, and the latency of each call (p50, p90, p99, max).
//!
//! `cargo bench -p xq-tests --bench fleet_load` (after `cargo build --release
//! --workspace --bins`). `XQ_BENCH_QUICK=1` for 20 s a load instead of 60 s.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{pg, runner};
use xq_runner::store::journal::{Journal, JournalEntry};
use xq_runner::store::pg::{connect::parse, connect::Source, Db};

/// Games a second of 10,000 games in flight at 10+0.1 (a game about 35 s).
const GAMES_PER_S: f64 = 10_000.0 / 35.0;
/// Pairs a batch: a worker of 8 slots.
const BATCH_PAIRS: u64 = 8;
/// Renewals (each with a heartbeat) while a batch is played: 70 s at one every 20 s.
const RENEWALS: u32 = 4;
/// Simulated workers, each on its own connection.
const CONNECTIONS: usize = 40;
const LEASE: Duration = Duration::from_secs(60);

/// Clock ticks a second of /proc's times.
fn ticks_per_s() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0)
}

/// The fields of /proc/PID/stat after the command name (which may hold spaces).
fn stat_fields(pid: &str) -> Option<Vec<u64>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 2..];
    // state is not a number: keep its place so that indices follow proc(5) less 3.
    Some(
        rest.split_whitespace()
            .map(|f| f.parse().unwrap_or(0))
            .collect(),
    )
}

/// CPU seconds of the server: its main process with its reaped children, and each
/// live child (backends, background workers).
fn server_cpu_s(server: u32) -> f64 {
    let mut ticks = 0;
    if let Some(f) = stat_fields(&server.to_string()) {
        // utime, stime, cutime, cstime (proc(5) fields 14..17).
        ticks += f[11] + f[12] + f[13] + f[14];
    }
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        if let Some(f) = stat_fields(pid) {
            if f[1] == u64::from(server) {
                ticks += f[11] + f[12];
            }
        }
    }
    ticks as f64 / ticks_per_s()
}

fn own_cpu_s() -> f64 {
    stat_fields("self").map_or(0.0, |f| (f[11] + f[12]) as f64) / ticks_per_s()
}

#[derive(Default)]
struct Latencies {
    claim: Vec<f64>,
    renew: Vec<f64>,
    heartbeat: Vec<f64>,
    submit: Vec<f64>,
    games: u64,
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// One simulated worker: claim, renew and beat `RENEWALS` times spread over its
/// period, submit; again until `end`. The calls of batches submitted between
/// `measure_from` and `end` are recorded.
#[allow(clippy::too_many_arguments)]
async fn simulated_worker(
    db: Db,
    run: i64,
    name: String,
    recorded: Arc<Vec<JournalEntry>>,
    start: Instant,
    period: Duration,
    measure_from: Instant,
    end: Instant,
    out: Arc<Mutex<Latencies>>,
) {
    let mut cycle = start;
    while cycle < end {
        tokio::time::sleep_until(cycle.into()).await;
        let t = Instant::now();
        let Some(claim) = db
            .claim(run, &name, BATCH_PAIRS, LEASE)
            .await
            .expect("claim")
        else {
            return;
        };
        let claim_ms = ms(t);
        let t = Instant::now();
        db.heartbeat(&name, Some(run), 8).await.expect("heartbeat");
        let mut beats = vec![ms(t)];
        let mut renews = Vec::new();
        for r in 1..=RENEWALS {
            tokio::time::sleep_until((cycle + period * r / (RENEWALS + 1)).into()).await;
            let t = Instant::now();
            assert!(db.renew(&claim, LEASE).await.expect("renew"), "lease kept");
            renews.push(ms(t));
            let t = Instant::now();
            db.heartbeat(&name, Some(run), 8).await.expect("heartbeat");
            beats.push(ms(t));
        }
        let games: Vec<JournalEntry> = (0..claim.pairs)
            .flat_map(|k| {
                let source = (k as usize * 2) % recorded.len();
                recorded[source..source + 2].iter().map(move |e| {
                    let mut e = e.clone();
                    e.pair = claim.first_pair + k;
                    e
                })
            })
            .collect();
        tokio::time::sleep_until((cycle + period).into()).await;
        let t = Instant::now();
        let closing = db
            .submit_batch(&claim, &games, period)
            .await
            .expect("submit");
        assert!(closing.is_none(), "the run is long enough: {closing:?}");
        let submit_ms = ms(t);
        // A batch counts in the window its submit ended in (none is left out at the
        // window's edges: the rate stays unbiased).
        let done = Instant::now();
        if done >= measure_from && done <= end {
            let mut o = out.lock().expect("latencies");
            o.claim.push(claim_ms);
            o.renew.extend(renews);
            o.heartbeat.extend(beats);
            o.submit.push(submit_ms);
            o.games += games.len() as u64;
        }
        // The fleet's pace: the next batch is due a period after this one was; one
        // more than a period late starts now (never a burst to catch up).
        cycle += period;
        if cycle + period < Instant::now() {
            cycle = Instant::now();
        }
    }
}

fn percentiles(mut values: Vec<f64>) -> String {
    if values.is_empty() {
        return "no calls".into();
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    format!(
        "p50 {:>6.1}  p90 {:>6.1}  p99 {:>6.1}  max {:>6.1} ms  ({} calls)",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        values.len()
    )
}

/// Plays the load `factor` times 10,000 games in flight for `seconds` after a warm-up
/// of one period, and prints what it measured.
fn load(
    runtime: &tokio::runtime::Runtime,
    cluster: &pg::Cluster,
    run: i64,
    recorded: &Arc<Vec<JournalEntry>>,
    factor: f64,
    seconds: f64,
) {
    let rate = GAMES_PER_S * factor;
    let period = Duration::from_secs_f64(CONNECTIONS as f64 * (2 * BATCH_PAIRS) as f64 / rate);
    let server = cluster.server_pid().expect("the server's pid");
    let target = parse(&cluster.url("xq_worker"), Source::CommandLine).expect("target");
    let out = Arc::new(Mutex::new(Latencies::default()));
    let (cpu, own, wall) = runtime.block_on(async {
        let mut dbs = Vec::new();
        for _ in 0..CONNECTIONS {
            dbs.push(Db::connect(&target).await.expect("connect"));
        }
        let start = Instant::now();
        let measure_from = start + period * 2;
        let end = measure_from + Duration::from_secs_f64(seconds);
        let tasks: Vec<_> = dbs
            .into_iter()
            .enumerate()
            .map(|(i, db)| {
                tokio::spawn(simulated_worker(
                    db,
                    run,
                    format!("sim{i}"),
                    recorded.clone(),
                    start + period * i as u32 / CONNECTIONS as u32,
                    period,
                    measure_from,
                    end,
                    out.clone(),
                ))
            })
            .collect();
        tokio::time::sleep_until(measure_from.into()).await;
        let (cpu0, own0) = (server_cpu_s(server), own_cpu_s());
        tokio::time::sleep_until(end.into()).await;
        let (cpu1, own1) = (server_cpu_s(server), own_cpu_s());
        for t in tasks {
            t.await.expect("a simulated worker");
        }
        (cpu1 - cpu0, own1 - own0, seconds)
    });
    let o = std::mem::take(&mut *out.lock().expect("latencies"));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    println!(
        "{factor}x: {:.0} games in flight at 10+0.1 ({rate:.0} games/s wanted, {} simulated workers, a batch every {:.2} s each)",
        10_000.0 * factor,
        CONNECTIONS,
        period.as_secs_f64()
    );
    println!(
        "  stored {:.0} games/s, {:.1} batches/s over {wall:.0} s",
        o.games as f64 / wall,
        o.submit.len() as f64 / wall
    );
    println!(
        "  server CPU {:.2} s a second = {:.0}% of {cores} cores (the load generator itself: {:.0}%)",
        cpu / wall,
        100.0 * cpu / wall / cores,
        100.0 * own / wall / cores
    );
    println!("  claim      {}", percentiles(o.claim));
    println!("  renew      {}", percentiles(o.renew));
    println!("  heartbeat  {}", percentiles(o.heartbeat));
    println!("  submit     {}", percentiles(o.submit));
}

fn config(dir: &Path, pairs: u64) -> std::path::PathBuf {
    let path = dir.join(format!("load-{pairs}.toml"));
    // Games of 160 plies: about the length of a game at 10+0.1.
    let text = common::instant_match(pairs, 2, None).replace("max_plies = 100", "max_plies = 160");
    std::fs::write(&path, text).expect("write config");
    path
}

fn main() {
    let quick = std::env::var_os("XQ_BENCH_QUICK").is_some();
    let seconds = if quick { 20.0 } else { 60.0 };
    let dir = tempfile::Builder::new()
        .prefix("xq-bench-load-")
        .tempdir()
        .expect("scratch");
    let cluster = common::fleet::fleet();
    // The games, recorded once: 16 pairs of a local run.
    let played = dir.path().join("played");
    runner(&[
        "run",
        config(dir.path(), 16).to_str().expect("path"),
        "--out",
        played.to_str().expect("path"),
    ]);
    let mut recorded = Journal::read_all(&played.join("games.jsonl")).expect("journal");
    // In the order of pairs and games (the journal's is the order games ended).
    recorded.sort_by_key(|e| (e.pair, e.game));
    let recorded = Arc::new(recorded);
    assert_eq!(recorded.len(), 32, "16 pairs recorded");
    let bytes: usize = recorded
        .iter()
        .map(|e| serde_json::to_string(e).map_or(0, |s| s.len()))
        .sum();
    println!(
        "games of {} plies, {:.1} KB each as submitted",
        recorded[0].plies,
        bytes as f64 / recorded.len() as f64 / 1000.0
    );
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    for factor in [1.0, 2.0] {
        // Pairs enough for the whole load and its warm-up.
        let pairs = (GAMES_PER_S * factor * (seconds + 30.0)) as u64;
        let id: i64 = runner(&[
            "submit",
            config(dir.path(), pairs).to_str().expect("path"),
            "--db",
            &cluster.url("xq_owner"),
            "--no-upload",
        ])
        .trim()
        .parse()
        .expect("run id");
        load(&runtime, &cluster, id, &recorded, factor, seconds);
        let stored = cluster.sql(&format!(
            "SELECT count(*) FROM xq.games WHERE run_id = {id}"
        ));
        println!("  {stored} games stored in the run");
    }
}
