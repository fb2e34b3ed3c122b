//! What the runner benchmarks share: the binaries of this build and the throwaway
//! PostgreSQL (the end-to-end tests' own), the median, and the instant match they time (two fault engines without a fault, 100 plies a game).

#![allow(dead_code)]

use std::path::Path;

pub mod stored;

// Where the binaries are, as the end-to-end tests find them.
#[path = "../../tests/common/mod.rs"]
mod shared;
// Each bench takes what it needs of these.
#[allow(unused_imports)]
pub use shared::{bin, bin_dir, fleet, pg};

/// Runs this build's `xq-runner` with `args`, which must succeed; its standard output.
pub fn runner(args: &[&str]) -> String {
    let out = std::process::Command::new(bin("xq-runner"))
        .args(args)
        .stderr(std::process::Stdio::null())
        .output()
        .expect("run xq-runner");
    assert!(out.status.success(), "xq-runner {args:?} failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The middle value (the upper one of an even count).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The config of a match of two instant engines at depth 1, every game 100 plies (no
/// move limit, adjudicated at 100), the result block only at the end; written to
/// `out` when given, else where `--out` says.
pub fn instant_match(pairs: u64, concurrency: usize, out: Option<&Path>) -> String {
    let engine = env!("CARGO_BIN_EXE_fault-engine");
    let dir = out.map_or_else(String::new, |o| format!("dir = \"{}\"\n", o.display()));
    format!(
        r#"[tournament]
kind = "match"
pairs = {pairs}
concurrency = {concurrency}
[time]
depth = 1
[rules]
ruleset = "asian"
move_limit = 0
[adjudication]
max_plies = 100
[output]
{dir}report_interval = 1000000
[[engine]]
name = "a"
command = ["{engine}"]
[[engine]]
name = "b"
command = ["{engine}"]
"#
    )
}
