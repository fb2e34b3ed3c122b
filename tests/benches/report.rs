//! The outputs of a run of 100,000 games, timed as whole commands:
//! - `report --db URL ID --out DIR` on a stored run (games.jsonl, games.pgn, summary,
//!   report.html and summary.md from the database);
//! - `resume DIR` of that folder once it is complete, which plays nothing and rewrites
//!   games.pgn, the summary and the report from the journal: the same code a local run
//!   ends with;
//! - `report DIR` (report.html and summary.md alone).
//!
//! The games: a short real run with the instant engine gives legal move lists of about
//! 100 plies; each of the 50,000 pairs takes one of them, with its times, scores,
//! depths, nodes and speeds made varied (a real engine's are), and results spread over
//! the pentanomial outcomes. Median of 3 runs of each command.
//!
//! `cargo bench -p xq-tests --bench report` (after `cargo build --release --workspace
//! --bins`). `XQ_BENCH_QUICK=1` for 10,000 games. `XQ_BENCH_HOLD=1` stores the run,
//! prints the database and the run id, and waits for Enter before timing anything (to
//! profile one command by hand against the same data).

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use common::{bin, median, pg};

use xq_runner::game::{EndReason, Outcome};
use xq_runner::store::journal::JournalEntry;

/// The instant match of the other benches, `pairs` pairs at concurrency 2.
fn config(dir: &Path, pairs: u64) -> PathBuf {
    let path = dir.join(format!("bench-{pairs}.toml"));
    std::fs::write(&path, common::instant_match(pairs, 2, None)).expect("write config");
    path
}

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

/// A small deterministic generator (no dependency for a benchmark).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// Game `game` of pair `pair`, from one of the played games, with varied details.
fn synthetic(source: &JournalEntry, pair: u64, game: u8, rng: &mut Lcg) -> JournalEntry {
    let plies = source.times_ms.len();
    let (red, black) = if game == 0 { ("a", "b") } else { ("b", "a") };
    let result = match rng.next(10) {
        0..=2 => Outcome::RedWins,
        3..=5 => Outcome::BlackWins,
        _ => Outcome::Draw,
    };
    let reason = match result {
        Outcome::Draw => EndReason::MaxPlies,
        _ => EndReason::Checkmate,
    };
    JournalEntry {
        pair,
        game,
        red: red.to_owned(),
        black: black.to_owned(),
        result,
        reason,
        times_ms: (0..plies).map(|_| 50 + rng.next(400)).collect(),
        scores: (0..plies)
            .map(|i| match rng.next(40) {
                0 => None,
                1 => Some(format!("M{}", 1 + rng.next(9))),
                _ => Some(format!("{}", rng.next(600) as i64 - 300 + i as i64)),
            })
            .collect(),
        depths: (0..plies).map(|_| Some(8 + rng.next(12) as u32)).collect(),
        nodes: (0..plies)
            .map(|_| Some(10_000 + rng.next(900_000)))
            .collect(),
        nps: (0..plies)
            .map(|_| Some(500_000 + rng.next(1_500_000)))
            .collect(),
        seldepths: (0..plies).map(|_| Some(12 + rng.next(20) as u32)).collect(),
        duration_ms: 20_000 + rng.next(30_000),
        ..source.clone()
    }
}

/// Text for COPY's text format: backslashes doubled (a journal line has no tab or
/// line break).
fn copy_text(line: &str) -> String {
    line.replace('\\', "\\\\")
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

    // Legal games of about 100 plies from a short local run.
    let seed_dir = dir.path().join("seed");
    runner(&[
        "run",
        config(dir.path(), 50).to_str().expect("path"),
        "--out",
        seed_dir.to_str().expect("path"),
    ]);
    let seeds = xq_runner::store::journal::Journal::read_all(&seed_dir.join("games.jsonl"))
        .expect("seed journal");
    assert!(!seeds.is_empty(), "the seed run played no game");

    let cfg = config(dir.path(), pairs);
    let id = runner(&["submit", cfg.to_str().expect("path"), "--db", &owner])
        .trim()
        .to_owned();
    let batch = cluster.sql(&format!(
        "INSERT INTO xq.batches (run_id, first_pair, pairs, state, worker, token, lease_until, done_at) \
         VALUES ({id}, 0, {pairs}, 'done', 'bench', gen_random_uuid(), now(), now()) RETURNING id"
    ));
    let batch = batch.lines().next().unwrap_or_default().trim().to_owned();
    let copy_path = dir.path().join("games.copy");
    let mut copy = std::io::BufWriter::new(std::fs::File::create(&copy_path).expect("copy file"));
    let mut rng = Lcg(27);
    let mut bytes = 0;
    // Each game with the facts the server reads from it when a worker submits it.
    for pair in 0..pairs {
        for game in 0..2u8 {
            let source = &seeds[(pair as usize * 2 + usize::from(game)) % seeds.len()];
            let entry = synthetic(source, pair, game, &mut rng);
            let line = serde_json::to_string(&entry).expect("entry as JSON");
            bytes += line.len() + 1;
            writeln!(
                copy,
                "{id}\t{pair}\t{game}\t{batch}\t{}\t{}\t{}\t{}\t{}\t{}",
                copy_text(&line),
                entry.red,
                entry.black,
                entry.result.as_pgn(),
                entry.reason,
                entry.faulted.as_deref().unwrap_or("\\N")
            )
            .expect("write copy file");
        }
    }
    copy.flush().expect("flush copy file");
    drop(copy);
    cluster.sql(&format!(
        "\\copy xq.games (run_id, pair, game, batch_id, entry, red, black, result, reason, faulted) FROM '{}'",
        copy_path.display()
    ));
    cluster.sql(&format!(
        "UPDATE xq.runs SET next_pair = {pairs}, pairs_done = {pairs}, games_done = 2 * {pairs}, \
         penta = xq.first_pairing_penta({id}, 1, NULL), state = 'finished', status = 'finished' \
         WHERE id = {id}"
    ));
    cluster.sql("VACUUM ANALYZE xq.games");
    let games = 2 * pairs;
    println!(
        "a stored run of {games} games ({:.0} MB of journal, {:.0} plies a game on average):",
        bytes as f64 / 1e6,
        seeds.iter().map(|s| s.plies as f64).sum::<f64>() / seeds.len() as f64
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
