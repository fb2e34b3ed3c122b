//! Builds that travel with the run, measured against a throwaway PostgreSQL on this
//! machine (loopback, Unix socket):
//! - the upload rate of a 100 MB file through `submit` (its time less that of the same
//!   submit with `--no-upload`), a new file each round;
//! - a worker's time from its start to the end of a run of one instant pair, with an
//!   empty cache and with a warm one, and from their difference the download rate;
//! - four workers with empty caches fetching one build at once: the server's aggregate
//!   rate, and from it the time 100 workers need to fetch a 50 MB build.
//!
//! `cargo bench -p xq-tests --bench artifacts` (after `cargo build --release --workspace
//! --bins`). Median of 3.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use common::{bin, median, pg, runner};

const MB: usize = 1 << 20;

/// A file of `size` bytes that does not compress (PostgreSQL would squeeze a constant).
fn noise(path: &Path, size: usize, seed: u64) {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut bytes = Vec::with_capacity(size);
    while bytes.len() < size {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bytes.extend_from_slice(&state.to_le_bytes());
    }
    bytes.truncate(size);
    std::fs::write(path, bytes).expect("write");
}

/// A match of one instant pair whose engines carry `net` beside them.
fn config(dir: &Path, net: &str) -> PathBuf {
    let text = common::instant_match(1, 2, None)
        .replace("command = [", &format!("files = [\"{net}\"]\ncommand = ["));
    let engine = env!("CARGO_BIN_EXE_fault-engine");
    let local = dir.join("fault-engine");
    if !local.exists() {
        std::fs::copy(engine, &local).expect("copy the engine");
    }
    let path = dir.join(format!("{net}.toml"));
    std::fs::write(&path, text.replace(engine, local.to_str().expect("path"))).expect("config");
    path
}

fn seconds(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}

fn submit(cluster: &pg::Cluster, config: &Path, extra: &[&str]) -> String {
    let url = cluster.url("xq_owner");
    let mut args = vec!["submit", config.to_str().expect("path"), "--db", &url];
    args.extend_from_slice(extra);
    runner(&args)
        .lines()
        .last()
        .unwrap_or_default()
        .trim()
        .to_owned()
}

fn worker(cluster: &pg::Cluster, run: &str, cache: &Path, name: &str) -> std::process::Child {
    Command::new(bin("xq-runner"))
        .args([
            "worker",
            "--db",
            &cluster.url("xq_worker"),
            "--name",
            name,
            "--run",
            run,
        ])
        .args([
            "--concurrency",
            "1",
            "--cache",
            cache.to_str().expect("path"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start a worker")
}

fn main() {
    let dir = tempfile::Builder::new()
        .prefix("xq-bench-artifacts-")
        .tempdir()
        .expect("scratch");
    let build = dir.path().join("build");
    std::fs::create_dir_all(&build).expect("build");
    let cluster = common::fleet::fleet();

    let (mut upload, mut empty, mut warm, mut crowd) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..3u64 {
        let net = format!("net{round}.nnue");
        noise(&build.join(&net), 100 * MB, round + 1);
        let cfg = config(&build, &net);
        let bare = seconds(|| {
            submit(&cluster, &cfg, &["--no-upload"]);
        });
        let mut id = String::new();
        let full = seconds(|| id = submit(&cluster, &cfg, &[]));
        upload.push(100.0 / (full - bare));

        let cache = dir.path().join(format!("cache{round}"));
        empty.push(seconds(|| {
            assert!(worker(&cluster, &id, &cache, "w")
                .wait()
                .expect("worker")
                .success());
        }));
        let again = submit(&cluster, &cfg, &[]);
        warm.push(seconds(|| {
            assert!(worker(&cluster, &again, &cache, "w")
                .wait()
                .expect("worker")
                .success());
        }));

        // Four workers with empty caches on one run of four pairs: all fetch at once.
        let shared = submit(
            &cluster,
            &cfg,
            &["--set", "tournament.pairs=4", "--batch-pairs", "1"],
        );
        let caches: Vec<PathBuf> = (0..4)
            .map(|i| dir.path().join(format!("crowd{round}-{i}")))
            .collect();
        let took = seconds(|| {
            let children: Vec<_> = caches
                .iter()
                .enumerate()
                .map(|(i, c)| worker(&cluster, &shared, c, &format!("c{i}")))
                .collect();
            for mut c in children {
                assert!(c.wait().expect("worker").success());
            }
        });
        crowd.push(4.0 * 100.0 / took);
        for c in caches.iter().chain([&cache]) {
            let _ = std::fs::remove_dir_all(c);
        }
        let _ = std::fs::remove_file(build.join(&net));
    }
    let (upload, empty, warm, crowd) = (median(upload), median(empty), median(warm), median(crowd));
    println!("A build carrying a 100 MB file, through PostgreSQL on loopback (median of 3):");
    println!("  upload (submit less submit --no-upload)    {upload:>7.1} MB/s");
    println!("  worker, start to end of 1 pair, empty cache {empty:>6.2} s");
    println!("  worker, start to end of 1 pair, warm cache  {warm:>6.2} s");
    println!(
        "  download (their difference)                {:>7.1} MB/s",
        100.0 / (empty - warm)
    );
    println!("  4 workers fetching at once, aggregate      {crowd:>7.1} MB/s (lower bound: includes their games)");
    println!(
        "  so 100 workers fetching a 50 MB build:     {:>7.0} s from this server",
        100.0 * 50.0 / crowd
    );
}
