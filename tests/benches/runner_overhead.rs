//! Runner overhead with an instant engine (the fault-injection engine without a fault):
//! games per second at 100 plies a game, the runner's own CPU time per move, and its
//! peak memory at several concurrencies. Median of 3 runs each.
//!
//! `cargo bench -p xq-tests --bench runner_overhead` (needs `cargo build --release` for
//! the xq-runner binary). Set `XQ_BENCH_QUICK=1` for a smaller run.

mod common;

use std::process::Command;
use std::time::Instant;

use common::{bin_dir, median};

struct Sample {
    games_per_s: f64,
    cpu_per_move_us: f64,
    peak_rss_mb: f64,
    games: u64,
    plies: f64,
}

fn run(concurrency: usize, pairs: u64, dir: &std::path::Path) -> Sample {
    let out = dir.join(format!("c{concurrency}-p{pairs}"));
    let _ = std::fs::remove_dir_all(&out);
    let config = common::instant_match(pairs, concurrency, Some(&out));
    let path = dir.join("bench.toml");
    std::fs::write(&path, config).expect("write config");
    let start = Instant::now();
    let status = Command::new(bin_dir().join("xq-runner"))
        .args(["run", path.to_str().expect("path")])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run xq-runner (cargo build --release first)");
    let wall = start.elapsed().as_secs_f64();
    assert!(status.success(), "the run failed");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary"))
            .expect("json");
    let games = summary["games"].as_u64().unwrap_or(0);
    let moves = summary["runner"]["moves"].as_u64().unwrap_or(0);
    Sample {
        games_per_s: games as f64 / wall,
        cpu_per_move_us: summary["runner"]["cpu_per_move_us"]
            .as_f64()
            .unwrap_or(f64::NAN),
        peak_rss_mb: summary["runner"]["peak_rss_kb"]
            .as_f64()
            .unwrap_or(f64::NAN)
            / 1024.0,
        games,
        plies: moves as f64 / games.max(1) as f64,
    }
}

fn main() {
    let quick = std::env::var_os("XQ_BENCH_QUICK").is_some();
    let dir = std::env::temp_dir().join(format!("xq-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let scale = if quick { 4 } else { 1 };
    // Peak memory of the runs at concurrency 8, by games: the first and last rows.
    let mut rss_at_8 = Vec::new();
    for (concurrency, pairs) in [
        (2, 500 / scale),
        (8, 1000 / scale),
        (64, 1000 / scale),
        (8, 5000 / scale),
    ] {
        let samples: Vec<Sample> = (0..3).map(|_| run(concurrency, pairs, &dir)).collect();
        let peak_rss_mb = median(samples.iter().map(|s| s.peak_rss_mb).collect());
        if concurrency == 8 {
            rss_at_8.push((samples[0].games, peak_rss_mb));
        }
        println!(
            "concurrency {concurrency:>2}, {:>5} games of {:.0} plies: {:>6.0} games/s, runner CPU {:>5.1} us/move, peak RSS {:>5.1} MB (median of 3)",
            samples[0].games,
            samples[0].plies,
            median(samples.iter().map(|s| s.games_per_s).collect()),
            median(samples.iter().map(|s| s.cpu_per_move_us).collect()),
            peak_rss_mb,
        );
    }
    if let [(few_games, few_mb), .., (many_games, many_mb)] = rss_at_8[..] {
        println!(
            "peak RSS at concurrency 8: {few_mb:.1} MB after {few_games} games, {many_mb:.1} MB after {many_games} games ({:+.0} bytes a game)",
            (many_mb - few_mb) * 1024.0 * 1024.0 / (many_games - few_games).max(1) as f64
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
