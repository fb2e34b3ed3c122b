//! A stored run written as a run folder: `run.json`, `games.jsonl` in pair and game
//! order, then the same `games.pgn`, `summary.json`, `report.html` and `summary.md` a
//! local run writes, by the same code, so every tool that reads a run folder reads a
//! distributed run.

use std::io::Write as _;
use std::path::Path;

use super::status::tracker_of;
use crate::exit;
use crate::game::{EndReason, Outcome};
use crate::output::files::{today, RunFiles};
use crate::output::summary::RunnerCost;
use crate::schedule::folder;
use crate::schedule::Ending;
use crate::store::journal::{JournalEntry, JOURNAL_FILE};
use crate::store::layout::Jobs;
use crate::store::meta::{RunMeta, RUN_FILE};
use crate::store::pg::Db;

/// Writes run `id` into `dir`: a new folder, or one holding an earlier report of the
/// same run (written over).
///
/// # Errors
/// One line: no such run, a folder holding something else, a file that cannot be written.
pub async fn write(db: &Db, id: i64, dir: &Path) -> Result<(), String> {
    let run = db.run(id).await.map_err(|e| e.to_string())?;
    match RunMeta::read(dir) {
        Ok(meta) if meta.config_hash == run.config_hash => {}
        Ok(_) => {
            return Err(format!(
                "{}: holds another run: give another --out",
                dir.display()
            ))
        }
        Err(_) => folder::check_new(dir).map_err(|e| e.to_string())?,
    }
    let (plan, _) = tracker_of(&run)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let meta = RunMeta {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        config_hash: run.config_hash.clone(),
        config: run.config.clone(),
        openings: None,
        shard: None,
        played_s: run.age_s,
    };
    meta.write(dir).map_err(|e| e.to_string())?;
    let journal_path = dir.join(JOURNAL_FILE);
    let file = std::fs::File::create(&journal_path)
        .map_err(|e| format!("{}: cannot write: {e}", journal_path.display()))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
    // The counts from the games themselves, as a local run's would be, read from each
    // line's results alone (the moves are read once, when the outputs are written).
    let names = plan.engines.iter().map(|e| e.spec.name.clone()).collect();
    let mut tracker = crate::store::tracker::Tracker::new(names, plan.pairings.len());
    let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
    let mut failed = None;
    let mut number = 0u64;
    db.games(id, |line| {
        if failed.is_some() {
            return;
        }
        number += 1;
        if let Err(e) = writeln!(out, "{line}") {
            failed = Some(format!("{}: cannot write: {e}", journal_path.display()));
            return;
        }
        match serde_json::from_str::<GameResult>(line) {
            Ok(result) => {
                let entry = result.entry();
                let job = jobs.job(entry.pair, entry.game);
                let (a, b) = plan.pairings[job.pairing];
                tracker.record(&entry, job.pairing, a, b);
            }
            Err(e) => {
                failed = Some(format!(
                    "run {id}: stored game {number} is not a journal entry: {e}"
                ));
            }
        }
    })
    .await
    .map_err(|e| e.to_string())?;
    if let Some(e) = failed {
        return Err(e);
    }
    out.flush()
        .map_err(|e| format!("{}: cannot write: {e}", journal_path.display()))?;
    drop(out);
    let ending = Ending {
        status: if run.is_open() {
            "in progress".to_owned()
        } else {
            run.status.clone()
        },
        code: run.exit_code.unwrap_or(exit::NO_VERDICT),
    };
    let mut plan = plan;
    plan.output.dir = dir.to_owned();
    RunFiles {
        book: None,
        plan: &plan,
        hash: &run.config_hash,
        tracker: &tracker,
        ending: &ending,
        played_s: run.age_s,
        cost: RunnerCost::default(),
        date: today(),
    }
    .write(dir)
    .map_err(|e| e.to_string())?;
    debug_assert!(dir.join(RUN_FILE).is_file());
    Ok(())
}

/// The fields of a journal line the counts read; the rest of the line is skipped
/// without being built.
#[derive(serde::Deserialize)]
struct GameResult {
    pair: u64,
    game: u8,
    result: Outcome,
    reason: EndReason,
    #[serde(default)]
    faulted: Option<String>,
}

impl GameResult {
    /// An entry with these results and nothing else (what the counts read).
    fn entry(self) -> JournalEntry {
        JournalEntry {
            pair: self.pair,
            game: self.game,
            opening: None,
            red: String::new(),
            black: String::new(),
            result: self.result,
            reason: self.reason,
            plies: 0,
            start_fen: String::new(),
            opening_moves: String::new(),
            moves: String::new(),
            times_ms: Vec::new(),
            scores: Vec::new(),
            depths: Vec::new(),
            nodes: Vec::new(),
            nps: Vec::new(),
            seldepths: Vec::new(),
            faulted: self.faulted,
            detail: None,
            duration_ms: 0,
        }
    }
}
