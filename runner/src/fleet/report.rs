//! A stored run written as a run folder: `run.json`, `games.jsonl` in pair and game
//! order, then the same `games.pgn`, `summary.json`, `report.html` and `summary.md` a
//! local run writes, by the same code, so every tool that reads a run folder reads a
//! distributed run.

use std::io::Write as _;
use std::path::Path;

use super::status::tracker_of;
use crate::exit;
use crate::output::files::{today, RunFiles};
use crate::output::summary::RunnerCost;
use crate::schedule::folder;
use crate::schedule::Ending;
use crate::store::journal::{Journal, JOURNAL_FILE};
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
    let mut out = std::io::BufWriter::new(file);
    let mut failed = None;
    db.games(id, |line| {
        if failed.is_none() {
            failed = writeln!(out, "{line}").err();
        }
    })
    .await
    .map_err(|e| e.to_string())?;
    if let Some(e) = failed.or_else(|| out.flush().err()) {
        return Err(format!("{}: cannot write: {e}", journal_path.display()));
    }
    drop(out);
    // The counts from the games themselves, as a local run's would be.
    let names = plan.engines.iter().map(|e| e.spec.name.clone()).collect();
    let mut tracker = crate::store::tracker::Tracker::new(names, plan.pairings.len());
    let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
    Journal::scan(&journal_path, |_, entry| {
        let job = jobs.job(entry.pair, entry.game);
        let (a, b) = plan.pairings[job.pairing];
        tracker.record(&entry, job.pairing, a, b);
    })
    .map_err(|e| e.to_string())?;
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
