//! A finished run of many games stored quickly: a short real run with the instant
//! engine gives legal move lists of about 100 plies; each pair takes one of them, with
//! its times, scores, depths, nodes and speeds made varied (a real engine's are), and
//! results spread over the pentanomial outcomes. The games go in with COPY, with the
//! facts the server reads from a game when a worker submits it, in done batches of
//! `batch_pairs` pairs, as a fleet leaves them.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::{instant_match, pg, runner};

use xq_runner::game::{EndReason, Outcome};
use xq_runner::store::journal::JournalEntry;

/// A small deterministic generator (no dependency for a benchmark).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// Game `game` of pair `pair`, from one of the played games, with varied details.
pub fn synthetic(source: &JournalEntry, pair: u64, game: u8, rng: &mut Lcg) -> JournalEntry {
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

/// The instant match of the benches, `pairs` pairs at concurrency 2.
pub fn config(dir: &Path, pairs: u64) -> PathBuf {
    let path = dir.join(format!("bench-{pairs}.toml"));
    std::fs::write(&path, instant_match(pairs, 2, None)).expect("write config");
    path
}

/// A stored run.
pub struct Stored {
    pub id: String,
    /// Bytes of its journal lines.
    pub bytes: usize,
    /// Plies of a game, on average.
    pub plies: f64,
}

/// Submits a run of `pairs` pairs as the owner and stores all its games, finished.
pub fn store_run(cluster: &pg::Cluster, dir: &Path, pairs: u64, batch_pairs: u64) -> Stored {
    let owner = cluster.url("xq_owner");
    let seed_dir = dir.join("seed");
    if !seed_dir.join("games.jsonl").is_file() {
        runner(&[
            "run",
            config(dir, 50).to_str().expect("path"),
            "--out",
            seed_dir.to_str().expect("path"),
        ]);
    }
    let seeds = xq_runner::store::journal::Journal::read_all(&seed_dir.join("games.jsonl"))
        .expect("seed journal");
    assert!(!seeds.is_empty(), "the seed run played no game");

    let cfg = config(dir, pairs);
    let id = runner(&["submit", cfg.to_str().expect("path"), "--db", &owner])
        .trim()
        .to_owned();
    cluster.sql(&format!(
        "INSERT INTO xq.batches (run_id, first_pair, pairs, state, worker, token, lease_until, done_at) \
         SELECT {id}, p, least({batch_pairs}, {pairs} - p), 'done', 'bench', gen_random_uuid(), now(), now() \
         FROM generate_series(0, {pairs} - 1, {batch_pairs}) AS p"
    ));
    let batches: Vec<String> = cluster
        .sql(&format!(
            "SELECT id FROM xq.batches WHERE run_id = {id} ORDER BY first_pair"
        ))
        .lines()
        .map(|l| l.trim().to_owned())
        .collect();
    let copy_path = dir.join(format!("games-{id}.copy"));
    let mut copy = std::io::BufWriter::new(std::fs::File::create(&copy_path).expect("copy file"));
    let mut rng = Lcg(27);
    let mut bytes = 0;
    for pair in 0..pairs {
        let batch = &batches[(pair / batch_pairs) as usize];
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
    let _ = std::fs::remove_file(&copy_path);
    cluster.sql(&format!(
        "UPDATE xq.runs SET next_pair = {pairs}, pairs_done = {pairs}, games_done = 2 * {pairs}, \
         penta = xq.first_pairing_penta({id}, 1, NULL), state = 'finished', status = 'finished' \
         WHERE id = {id}"
    ));
    cluster.sql("VACUUM ANALYZE xq.games");
    Stored {
        id,
        bytes,
        plies: seeds.iter().map(|s| s.plies as f64).sum::<f64>() / seeds.len() as f64,
    }
}
