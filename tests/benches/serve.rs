//! `xq-runner serve` against a throwaway PostgreSQL on this machine:
//! - a stored run of 100,000 games (synthetic but legal games stored by COPY in done
//!   batches of 64 pairs, benches/common/stored.rs): the first request of its JSON and
//!   page after serve starts (the state made from nothing), then the median of 10 of
//!   each, and the page's weight;
//! - its `games.pgn` and `games.jsonl` streams, MB/s (median of 3);
//! - 100 open pages of a run being played (clients polling its JSON every 2 s, as
//!   the page's script does, on loopback, each on a connection it keeps): the server
//!   time of each batch of 100 pairs a worker submits (`xq.submit_batch`, from
//!   pg_stat_statements), with and without the pages, in alternating phases of the
//!   same run.
//!
//! Times are taken by the client over loopback: the server's time plus a connection.
//!
//! `cargo bench -p xq-tests --bench serve` (after `cargo build --release --workspace
//! --bins`). `XQ_BENCH_QUICK=1` for 10,000 games and shorter phases.

mod common;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{bin, median, pg, runner, stored};

/// A running `serve`, stopped when dropped.
struct Served {
    child: Child,
    host: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(db: &str) -> Served {
    let mut child = Command::new(bin("xq-runner"))
        .args(["serve", "--db", db, "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("serve's first line");
    let host = line
        .split_whitespace()
        .nth(1)
        .and_then(|u| u.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("serve said: {line:?}"))
        .trim_end_matches('/')
        .to_owned();
    Served { child, host }
}

/// GET `path`: the status code, the bytes of the body (chunk sizes included), the
/// seconds to the last byte.
fn get(host: &str, path: &str) -> (u16, usize, f64) {
    let start = Instant::now();
    let mut s = TcpStream::connect(host).expect("connect to serve");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .expect("send a request");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read the answer");
    let seconds = start.elapsed().as_secs_f64();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(raw.len(), |p| p + 4);
    let code = String::from_utf8_lossy(&raw[..split.min(raw.len())])
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, raw.len() - split, seconds)
}

/// The first answer to `path` (ms) and the median of 10 after it (ms), and its size.
fn timed(host: &str, path: &str) -> (f64, f64, usize) {
    let (code, size, first) = get(host, path);
    assert_eq!(code, 200, "GET {path}");
    let rest: Vec<f64> = (0..10).map(|_| get(host, path).2 * 1000.0).collect();
    (first * 1000.0, median(rest), size)
}

/// The server time of `xq.submit_batch` since the last reset: calls and mean ms.
fn submits(cluster: &pg::Cluster) -> (u64, f64) {
    let row = cluster.sql(
        "SELECT coalesce(sum(calls), 0)::int8, coalesce(sum(total_exec_time) / nullif(sum(calls), 0), 0) \
         FROM pg_stat_statements WHERE query LIKE '%xq.submit_batch(%'",
    );
    let mut cols = row.split('|').map(str::trim);
    let calls = cols.next().and_then(|c| c.parse().ok()).unwrap_or(0);
    let mean = cols.next().and_then(|c| c.parse().ok()).unwrap_or(0.0);
    (calls, mean)
}

/// A page's connection, kept open between polls as a browser keeps it.
struct Kept {
    host: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Kept {
    /// GET `path` on the kept connection (opened again when it was closed): the ms to
    /// the last byte of the body, or `None` when the request failed. The request goes
    /// in one write with Nagle off, as a browser sends it: split in small writes, it
    /// would wait for the server's delayed ACK (40 ms on Linux) and measure that.
    fn get(&mut self, path: &str) -> Option<f64> {
        let start = Instant::now();
        let answer = self.request(path);
        if answer.is_none() {
            self.conn = None;
        }
        answer.map(|()| start.elapsed().as_secs_f64() * 1000.0)
    }

    fn request(&mut self, path: &str) -> Option<()> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(&self.host).ok()?;
            stream.set_nodelay(true).ok()?;
            self.conn = Some(BufReader::new(stream));
        }
        let conn = self.conn.as_mut()?;
        let request = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.host);
        conn.get_mut().write_all(request.as_bytes()).ok()?;
        let mut length = None;
        loop {
            let mut line = String::new();
            if conn.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse::<usize>().ok();
                }
            }
        }
        // The JSON answers carry their length; a streamed one would not, and is not polled.
        let mut body = vec![0; length?];
        conn.read_exact(&mut body).ok()
    }
}

/// `pages` clients polling `path` every 2 s on kept connections until `stop`; each
/// request's ms.
fn pages(
    host: &str,
    path: &str,
    pages: usize,
    stop: &Arc<AtomicBool>,
) -> (Vec<std::thread::JoinHandle<()>>, Arc<Mutex<Vec<f64>>>) {
    let times = Arc::new(Mutex::new(Vec::new()));
    let handles = (0..pages)
        .map(|i| {
            let (path, stop, times) = (path.to_owned(), Arc::clone(stop), Arc::clone(&times));
            let mut page = Kept {
                host: host.to_owned(),
                conn: None,
            };
            std::thread::spawn(move || {
                // Spread over the period, as pages opened at different times are.
                std::thread::sleep(Duration::from_millis(20 * i as u64));
                while !stop.load(Ordering::Relaxed) {
                    if let (Some(ms), Ok(mut t)) = (page.get(&path), times.lock()) {
                        t.push(ms);
                    }
                    std::thread::sleep(Duration::from_secs(2));
                }
            })
        })
        .collect();
    (handles, times)
}

fn main() {
    let quick = std::env::var_os("XQ_BENCH_QUICK").is_some();
    let pairs: u64 = if quick { 5_000 } else { 50_000 };
    let dir = tempfile::Builder::new()
        .prefix("xq-bench-serve-")
        .tempdir()
        .expect("scratch");
    let cluster = pg::Cluster::start_with(&[
        "shared_preload_libraries = 'pg_stat_statements'",
        "pg_stat_statements.track = top",
    ]);
    cluster.sql("CREATE EXTENSION pg_stat_statements");
    cluster.sql("CREATE ROLE xq_reader LOGIN");
    let owner = cluster.url("xq_owner");
    runner(&[
        "db",
        "init",
        "--db",
        &owner,
        "--worker-role",
        "xq_worker",
        "--reader-role",
        "xq_reader",
    ]);

    let start = Instant::now();
    let big = stored::store_run(&cluster, dir.path(), pairs, 64);
    println!(
        "a stored run of {} games in batches of 64 pairs ({:.0} MB of journal), stored in {:.0} s",
        2 * pairs,
        big.bytes as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    let served = serve(&cluster.url("xq_reader"));
    let host = served.host.as_str();

    let (first, warm, _) = timed(host, &format!("/api/runs/{}", big.id));
    println!("  /api/runs/{{id}}   first {first:>8.1} ms, then {warm:>6.1} ms (median of 10)");
    let (first, warm, size) = timed(host, &format!("/runs/{}", big.id));
    println!(
        "  /runs/{{id}}       first {first:>8.1} ms, then {warm:>6.1} ms (median of 10), {:.0} KB",
        size as f64 / 1e3
    );
    for file in ["games.pgn", "games.jsonl"] {
        let mut rates = Vec::new();
        let mut bytes = 0;
        for _ in 0..3 {
            let (code, size, s) = get(host, &format!("/runs/{}/{file}", big.id));
            assert_eq!(code, 200, "GET {file}");
            bytes = size;
            rates.push(size as f64 / 1e6 / s);
        }
        println!(
            "  {file:<16} {:>6.1} MB/s (median of 3, {:.0} MB)",
            median(rates),
            bytes as f64 / 1e6
        );
    }

    // A run being played by one worker, its page open 0 or 100 times, in turns.
    let live_cfg = stored::config(dir.path(), 100_000);
    let live = runner(&[
        "submit",
        live_cfg.to_str().expect("path"),
        "--db",
        &owner,
        "--batch-pairs",
        "4",
    ])
    .trim()
    .to_owned();
    let mut worker = Command::new(bin("xq-runner"))
        .args([
            "worker",
            "--db",
            &cluster.url("xq_worker"),
            "--name",
            "w",
            "--concurrency",
            "1",
            // A fixed batch: by default the worker sizes its batches by their pace, and
            // a submit's time follows its batch's size (0.25 ms a game), so a phase's
            // mean would follow the pace of its games more than the pages.
            "--batch-pairs",
            "100",
        ])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.path().join("worker.log")).expect("worker log"))
        .spawn()
        .expect("start a worker");
    std::thread::sleep(Duration::from_secs(3));
    let phase = Duration::from_secs(if quick { 10 } else { 30 });
    let mut without = (0, 0.0);
    let mut with = (0, 0.0);
    let mut polls = Vec::new();
    // Submit times vary from phase to phase on a shared machine: more rounds
    // (`XQ_BENCH_ROUNDS`, odd: each round with pages has a round without on either
    // side) narrow the comparison.
    let rounds: u32 = std::env::var("XQ_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let mut per_round = Vec::new();
    for round in 0..rounds {
        let open = round % 2 == 1;
        let stop = Arc::new(AtomicBool::new(false));
        let (handles, times) = if open {
            pages(host, &format!("/api/runs/{live}"), 100, &stop)
        } else {
            (Vec::new(), Arc::new(Mutex::new(Vec::new())))
        };
        // The pages first open, then the submits counted.
        std::thread::sleep(Duration::from_secs(if open { 2 } else { 0 }));
        cluster.sql("SELECT pg_stat_statements_reset()");
        std::thread::sleep(phase);
        let (calls, mean) = submits(&cluster);
        stop.store(true, Ordering::Relaxed);
        for h in handles {
            let _ = h.join();
        }
        if let Ok(t) = times.lock() {
            polls.extend_from_slice(&t);
        }
        if calls == 0 {
            // The worker submitted nothing in a whole phase: say why, and stop there.
            let log = std::fs::read_to_string(dir.path().join("worker.log")).unwrap_or_default();
            println!(
                "  round {round}: no batch submitted (worker {:?}); its log ends: {}",
                worker.try_wait(),
                log.lines().rev().take(3).collect::<Vec<_>>().join(" | ")
            );
            break;
        }
        per_round.push((open, mean));
        let total = if open { &mut with } else { &mut without };
        total.1 =
            (total.1 * total.0 as f64 + mean * calls as f64) / (total.0 + calls).max(1) as f64;
        total.0 += calls;
    }
    let _ = worker.kill();
    let _ = worker.wait();
    println!(
        "  batch submit, server time: {:.2} ms without pages ({} batches), {:.2} ms with 100 pages ({} batches): {:+.1}%",
        without.1,
        without.0,
        with.1,
        with.0,
        (with.1 / without.1 - 1.0) * 100.0
    );
    let shown: Vec<String> = per_round
        .iter()
        .map(|(open, mean)| format!("{}{mean:.0}", if *open { "+" } else { "" }))
        .collect();
    println!(
        "  each round's mean submit (+: with pages): {} ms",
        shown.join(" ")
    );
    // Each round with pages against the mean of the rounds without on either side: the
    // submits drift from round to round (the run grows, the machine is shared), and a
    // drift weighs on a comparison with one neighbour, not on one with both.
    let paired: Vec<f64> = (1..per_round.len().saturating_sub(1))
        .filter(|&i| per_round[i].0)
        .map(|i| {
            let around = (per_round[i - 1].1 + per_round[i + 1].1) / 2.0;
            (per_round[i].1 / around - 1.0) * 100.0
        })
        .collect();
    let shown: Vec<String> = paired.iter().map(|p| format!("{p:+.1}%")).collect();
    let mean = paired.iter().sum::<f64>() / paired.len().max(1) as f64;
    println!(
        "  with pages against the mean of the rounds either side: {}; median {:+.1}%, mean {mean:+.1}%",
        shown.join(" "),
        median(if paired.is_empty() { vec![0.0] } else { paired })
    );
    println!(
        "  the pages' polls: {} requests, median {:.1} ms",
        polls.len(),
        median(if polls.is_empty() { vec![0.0] } else { polls })
    );
}
