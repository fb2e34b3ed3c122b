//! A stored run written as a run folder: `run.json`, `games.jsonl` in pair and game
//! order, then the same `games.pgn`, `summary.json`, `report.html` and `summary.md` a
//! local run writes, by the same code, so every tool that reads a run folder reads a
//! distributed run.

use std::io::Write as _;
use std::path::Path;

use super::status::tracker_of;
use crate::output::files::{today, FilesError, RunFiles};
use crate::output::summary::RunnerCost;
use crate::store::ending::Ending;
use crate::store::finished::{game_number, FinishedGames};
use crate::store::folder::{RunFolder, Workload};
use crate::store::journal::{JournalEntry, JOURNAL_FILE};
use crate::store::meta::{InputFile, RunMeta, RUN_FILE};
use crate::store::pg::runs::RunRow;
use crate::store::pg::Db;

/// Writes run `id` into `dir`: a new folder, or one holding an earlier report of the
/// same run (written over). A folder that holds another run, a local one or another
/// stored one, is refused: its journal would be replaced by this run's games.
///
/// # Errors
/// One line: no such run, a folder holding something else, a file that cannot be written.
pub async fn write(db: &Db, id: i64, dir: &Path) -> Result<(), String> {
    let run = db.run(id).await.map_err(|e| e.to_string())?;
    let earlier = match RunMeta::read(dir) {
        Ok(meta) => {
            same_run(&meta, &run).map_err(|holds| {
                format!(
                    "{}: holds {holds}, not run {id}: give another --out",
                    dir.display()
                )
            })?;
            true
        }
        Err(_) => {
            RunFolder::check_new(dir, Workload::Run).map_err(|e| e.to_string())?;
            false
        }
    };
    // The counts are those of the stored games' facts (what `status` shows), read in
    // one statement: only the games they count are written, even while workers submit
    // more.
    let facts = db.game_facts(id).await.map_err(|e| e.to_string())?;
    let (plan, tracker) = tracker_of(&run, &facts)?;
    let mut meta = run.meta();
    // The opening file as the run was submitted with it, so that `resume` of this folder
    // refuses a file changed since, as it does for a local run's folder.
    meta.openings = plan
        .openings
        .as_ref()
        .zip(run.openings_fingerprint.as_ref())
        .map(|(o, fingerprint)| InputFile {
            path: o.path.display().to_string(),
            fingerprint: fingerprint.clone(),
        });
    // Held while the folder is written: no local run may start in it meanwhile.
    let write_meta = |dir: &Path| Ok(meta.write(dir)?);
    let _folder = if earlier {
        RunFolder::open(dir).and_then(|f| write_meta(dir).map(|()| f))
    } else {
        RunFolder::create(dir, Workload::Run, write_meta)
    }
    .map_err(|e| e.to_string())?;
    let ending = stored_ending(&run)?;
    let mut plan = plan;
    plan.output.dir = dir.to_owned();
    // The games are read on another thread, which waits for the database's answers on
    // this runtime.
    let runtime = tokio::runtime::Handle::current();
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
    .write_from(dir, |emit| {
        copy_games(&runtime, db, id, dir, tracker.finished(), emit)
    })
    .map_err(|e| e.to_string())?;
    debug_assert!(dir.join(RUN_FILE).is_file());
    Ok(())
}

/// Whether a folder's `run.json` is a report of the stored `run` (its id and config);
/// else what the folder holds, for the refusal.
fn same_run(meta: &RunMeta, run: &RunRow) -> Result<(), String> {
    match meta.db_run {
        None => Err("a local run".to_owned()),
        Some(other) if other != run.id => Err(format!("stored run {other}")),
        Some(_) if meta.config_hash != run.config_hash => {
            Err(format!("a run {} of another database", run.id))
        }
        Some(_) => Ok(()),
    }
}

/// How a stored run ended, from its `status` column (the server writes it in the words of
/// a local run): `in progress` while it is open. A status that is no ending, or an exit
/// code that is not the ending's, is a damaged row: refused rather than written into a
/// summary that would say something else than the database.
pub(crate) fn stored_ending(run: &RunRow) -> Result<Ending, String> {
    if run.is_open() {
        return Ok(Ending::InProgress);
    }
    let ending: Ending = run
        .status
        .parse()
        .map_err(|e| format!("run {}: its status: {e}", run.id))?;
    match run.exit_code {
        Some(code) if code != ending.exit_code() => Err(format!(
            "run {}: status `{ending}` with exit code {code}, not {}",
            run.id,
            ending.exit_code()
        )),
        _ => Ok(ending),
    }
}

/// Writes the stored games of run `id` into `dir`'s `games.jsonl`, in game order, and
/// hands each to `emit` with its offset there. Runs on its own thread (see
/// [`RunFiles::write_from`]), the database's answers waited for on `runtime`.
fn copy_games(
    runtime: &tokio::runtime::Handle,
    db: &Db,
    id: i64,
    dir: &Path,
    counted: &FinishedGames,
    emit: &mut dyn FnMut(u64, JournalEntry),
) -> Result<u64, FilesError> {
    let path = dir.join(JOURNAL_FILE);
    let cannot_write = |source| FilesError::Write {
        path: path.clone(),
        source,
    };
    // Not through a link or into a FIFO planted as the journal (plain_file.rs).
    let file = crate::plain_file::open(
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true),
        &path,
    )
    .map_err(cannot_write)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
    let mut failed = None;
    let (mut offset, mut number, mut written) = (0u64, 0u64, 0u64);
    let read = runtime.block_on(db.games(id, |line| {
        if failed.is_some() {
            return;
        }
        number += 1;
        let entry = match serde_json::from_str::<JournalEntry>(line) {
            Ok(entry) => entry,
            Err(e) => {
                // Only a game stored before the server checked games can be one: it is
                // counted nowhere, and `verify` names it.
                eprintln!("warning: run {id}: stored game {number} is not a journal entry ({e}): left out");
                return;
            }
        };
        if !counted.contains(game_number(entry.pair, entry.game)) {
            // Submitted after the counts were read.
            return;
        }
        if let Err(e) = writeln!(out, "{line}") {
            failed = Some(cannot_write(e));
            return;
        }
        emit(offset, entry);
        offset += line.len() as u64 + 1;
        written += 1;
    }));
    if let Some(e) = failed {
        return Err(e);
    }
    read.map_err(|e| FilesError::Games(e.to_string()))?;
    out.flush().map_err(cannot_write)?;
    // The summary is written from the counts: a games.jsonl that holds other games
    // would say something else, and nothing would show it.
    if written != counted.len() {
        return Err(FilesError::Games(format!(
            "run {id}: its counts hold {} games, but {written} of them could be written to {}: the report is not written",
            counted.len(),
            path.display()
        )));
    }
    Ok(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(state: &str, status: &str, exit_code: Option<u8>) -> RunRow {
        RunRow {
            id: 7,
            title: "a vs b".to_owned(),
            config: String::new(),
            config_hash: String::new(),
            openings_fingerprint: None,
            bench: std::collections::BTreeMap::new(),
            total_pairs: 10,
            batch_pairs: 2,
            next_pair: 10,
            pairs_done: 10,
            games_done: 20,
            state: state.to_owned(),
            status: status.to_owned(),
            exit_code,
            age_s: 1.0,
            kind: "match".to_owned(),
            tune: None,
            submitter: None,
            builds: std::collections::BTreeMap::new(),
            commits: std::collections::BTreeMap::new(),
        }
    }

    #[test]
    fn a_stored_status_reads_as_the_ending_a_local_run_writes() {
        assert_eq!(
            stored_ending(&run("finished", "H0 accepted", Some(1))),
            Ok(Ending::H0Accepted)
        );
        assert_eq!(
            stored_ending(&run(
                "aborted",
                "aborted: a crashed or stalled twice (faults.max_crashes = 1)",
                Some(4)
            )),
            Ok(Ending::aborted(
                "a crashed or stalled twice (faults.max_crashes = 1)"
            ))
        );
        assert_eq!(
            stored_ending(&run("cancelled", "cancelled", Some(4))),
            Ok(Ending::Cancelled)
        );
        // An open run's status is `open`: its folder says it is in progress.
        assert_eq!(
            stored_ending(&run("open", "open", None)),
            Ok(Ending::InProgress)
        );
    }

    #[test]
    fn a_status_that_is_no_ending_or_disagrees_with_its_code_is_refused() {
        let err = stored_ending(&run("finished", "done", Some(0))).expect_err("unknown");
        assert!(
            err.starts_with("run 7: its status: `done` is not how a run ends"),
            "{err}"
        );
        assert_eq!(
            stored_ending(&run("finished", "H1 accepted", Some(1))),
            Err("run 7: status `H1 accepted` with exit code 1, not 0".to_owned())
        );
    }
}
