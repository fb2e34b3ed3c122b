//! The outputs of a run of 100,000 games, timed as whole commands:
//! - `report --db URL ID --out DIR` on a stored run (games.jsonl, games.pgn, summary,
//!   report.html and summary.md from the database);
//! - `resume DIR` of that folder once it is complete, which plays nothing and rewrites
//!   games.pgn, the summary and the report from the journal: the same code a local run
//!   ends with;
//! - `report DIR` (report.html and summary.md alone).
//!
//! The games: synthetic but legal, stored by COPY (benches/common/stored.rs). Median of
//! 3 runs of each command.
//!
//! `cargo bench -p xq-tests --bench report` (after `cargo build --release --workspace
//! --bins`). `XQ_BENCH_QUICK=1` for 10,000 games. `XQ_BENCH_HOLD=1` stores the run,
//! prints the database and the run id, and waits for Enter before timing anything (to
//! profile one command by hand against the same data).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use common::{bin, median, pg, stored};

fn runner(args: &[&str]) -> String {
    run_with(&bin("xq-runner"), args)
}

fn run_with(program: &Path, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .expect("run xq-runner");
    assert!(
        out.status.success(),
        "{} {args:?} failed",
        program.display()
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// User + system CPU seconds of this process's waited-for children so far
/// (`/proc/self/stat`, in clock ticks of 1/100 s).
fn children_cpu_s() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    // After the name: state is field 3, cutime 16 and cstime 17.
    let tick = |i: usize| {
        fields
            .get(i - 3)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (tick(16) + tick(17)) / 100.0
}

/// Median wall and CPU seconds of `runs` runs of `command` with each program, the
/// programs taking turns.
fn timed(
    runs: usize,
    programs: &[PathBuf],
    mut command: impl FnMut(&Path, usize),
) -> Vec<(f64, f64)> {
    let mut wall = vec![Vec::new(); programs.len()];
    let mut cpu = vec![Vec::new(); programs.len()];
    for i in 0..runs {
        for (k, program) in programs.iter().enumerate() {
            let (start, cpu_start) = (Instant::now(), children_cpu_s());
            command(program, i);
            wall[k].push(start.elapsed().as_secs_f64());
            cpu[k].push(children_cpu_s() - cpu_start);
        }
    }
    wall.into_iter()
        .zip(cpu)
        .map(|(w, c)| (median(w), median(c)))
        .collect()
}

fn print(what: &str, programs: &[PathBuf], times: &[(f64, f64)]) {
    for (program, (wall, cpu)) in programs.iter().zip(times) {
        println!(
            "  {what:<18} {wall:>7.2} s wall, {cpu:>6.2} s CPU  ({})",
            program.display()
        );
    }
}

fn main() {
    let quick = std::env::var_os("XQ_BENCH_QUICK").is_some();
    let pairs: u64 = if quick { 5_000 } else { 50_000 };
    let dir = tempfile::Builder::new()
        .prefix("xq-bench-report-")
        .tempdir()
        .expect("scratch");
    let cluster = pg::Cluster::start();
    let owner = cluster.url("xq_owner");
    runner(&["db", "init", "--db", &owner, "--worker-role", "xq_worker"]);

    let stored = stored::store_run(&cluster, dir.path(), pairs, pairs);
    let id = stored.id;
    println!(
        "a stored run of {} games ({:.0} MB of journal, {:.0} plies a game on average):",
        2 * pairs,
        stored.bytes as f64 / 1e6,
        stored.plies
    );

    if std::env::var_os("XQ_BENCH_HOLD").is_some() {
        println!("stored: --db \"{owner}\" run {id}; press Enter to go on");
        let _ = std::io::stdin().read_line(&mut String::new());
    }

    // XQ_BENCH_BEFORE=<another xq-runner>: the same commands with it, taking turns.
    let mut programs = vec![bin("xq-runner")];
    programs.extend(std::env::var_os("XQ_BENCH_BEFORE").map(PathBuf::from));
    let runs = 3;
    println!("median of {runs} runs of each command, the programs taking turns:");
    let out = |k: usize, i: usize| dir.path().join(format!("report{k}-{i}"));
    let report_db = timed(runs, &programs, |program, i| {
        let k = programs.iter().position(|p| p == program).unwrap_or(0);
        let _ = std::fs::remove_dir_all(out(k, i));
        run_with(
            program,
            &[
                "report",
                &id,
                "--db",
                &owner,
                "--out",
                out(k, i).to_str().expect("path"),
            ],
        );
    });
    print("report --db --out", &programs, &report_db);
    let folder = out(0, 0);
    let pgn = std::fs::metadata(folder.join("games.pgn")).map_or(0, |m| m.len());
    println!("    (games.pgn {:.0} MB)", pgn as f64 / 1e6);
    if programs.len() > 1 {
        for file in ["games.jsonl", "games.pgn", "summary.md"] {
            let same =
                std::fs::read(folder.join(file)).ok() == std::fs::read(out(1, 0).join(file)).ok();
            println!(
                "    {file}: {}",
                if same { "the same bytes" } else { "DIFFERS" }
            );
        }
    }
    let resume = timed(runs, &programs, |program, _| {
        run_with(program, &["resume", folder.to_str().expect("path")]);
    });
    print("resume (complete)", &programs, &resume);
    println!("    (plays nothing; rewrites games.pgn, the summary and the report)");
    let report_dir = timed(runs, &programs, |program, _| {
        run_with(program, &["report", folder.to_str().expect("path")]);
    });
    print("report DIR", &programs, &report_dir);
}
