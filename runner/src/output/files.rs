//! The files of a run that has ended or stopped, written from its journal and counts:
//! `games.pgn`, `summary.json`, then `report.html` and `summary.md`. A local run writes
//! them when it ends; `merge` and `report --db` write the same files the same way, so
//! every tool that reads a run folder reads any run.

use std::path::Path;

use thiserror::Error;

use super::pgn_file::{PgnFileError, PgnWriter};
use super::report::{write_input, RunHead};
use super::summary::{summarize, RunnerCost, UnknownOptions};
use crate::config::Plan;
use crate::openings::OpeningBook;
use crate::store::ending::Ending;
use crate::store::journal::{Journal, JournalEntry, JOURNAL_FILE};
use crate::store::read_ahead::ahead;
use crate::store::tracker::Tracker;

/// Why the files of a run could not be written.
#[derive(Debug, Error)]
pub enum FilesError {
    #[error(transparent)]
    Pgn(#[from] PgnFileError),
    #[error("{}: cannot write: {source}", .path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// The games could not be read from where they are kept (the database).
    #[error("{0}")]
    Games(String),
}

/// What the files are written from.
#[derive(Debug)]
pub struct RunFiles<'a> {
    pub plan: &'a Plan,
    pub hash: &'a str,
    pub tracker: &'a Tracker,
    pub ending: &'a Ending,
    /// Wall time played over every session.
    pub played_s: f64,
    pub cost: RunnerCost,
    /// The openings the run played from, when at hand (else the PGN writer reads them).
    pub book: Option<&'a OpeningBook>,
    /// The date in the PGN headers (`YYYY.MM.DD`).
    pub date: String,
}

impl RunFiles<'_> {
    /// Writes the files into `dir`, whose `games.jsonl` holds the games. A report that
    /// cannot be written is a warning: the PGN and the summary are the results.
    ///
    /// # Errors
    /// [`FilesError`] when the PGN or the summary cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), FilesError> {
        self.write_noting(dir, &UnknownOptions::new())
    }

    /// As [`RunFiles::write`], with the options each engine did not announce when the
    /// run started (`unknown_options` of its line in `summary.json`).
    ///
    /// # Errors
    /// As [`RunFiles::write`].
    pub fn write_noting(&self, dir: &Path, unknown: &UnknownOptions) -> Result<(), FilesError> {
        let journal = dir.join(JOURNAL_FILE);
        self.write_all(dir, unknown, |emit| {
            Journal::scan(&journal, emit).map_err(|e| FilesError::Pgn(e.into()))
        })
    }

    /// As [`RunFiles::write`], the games coming from `games` as it writes `games.jsonl`:
    /// it runs on another thread and hands each entry over with its offset in that file,
    /// in game order, while this thread writes the PGN and reads the report's input.
    ///
    /// # Errors
    /// [`FilesError`] when the PGN or the summary cannot be written, or `games` fails.
    pub fn write_from<G>(&self, dir: &Path, games: G) -> Result<(), FilesError>
    where
        G: FnOnce(&mut dyn FnMut(u64, JournalEntry)) -> Result<u64, FilesError> + Send,
    {
        self.write_all(dir, &UnknownOptions::new(), games)
    }

    fn write_all<G>(&self, dir: &Path, unknown: &UnknownOptions, games: G) -> Result<(), FilesError>
    where
        G: FnOnce(&mut dyn FnMut(u64, JournalEntry)) -> Result<u64, FilesError> + Send,
    {
        let journal = dir.join(JOURNAL_FILE);
        let counted = self.tracker.counted_games();
        let mut pgn =
            PgnWriter::create(self.plan, self.book, &journal, &counted, self.date.clone())?;
        let mut summary = summarize(
            self.plan,
            self.hash,
            self.tracker,
            self.ending,
            self.played_s,
            self.cost,
        );
        for engine in &mut summary.engines {
            if let Some(options) = unknown.get(&engine.name) {
                engine.unknown_options.clone_from(options);
            }
        }
        let path = dir.join("summary.json");
        let text = serde_json::to_string_pretty(&summary).map_err(|e| FilesError::Write {
            path: path.clone(),
            source: e.into(),
        })?;
        std::fs::write(&path, text).map_err(|source| FilesError::Write { path, source })?;
        // One pass over the journal writes the PGN and reads what the report shows.
        let head = match RunHead::read(dir) {
            Ok(head) => Some(head),
            Err(e) => {
                eprintln!("warning: the HTML report could not be written: {e}");
                None
            }
        };
        let mut reading = head.as_ref().map(RunHead::reading);
        ahead(games, |offset, entry| {
            pgn.add(offset, &entry);
            if let Some(r) = reading.as_mut() {
                r.add(&entry);
            }
        })
        .unwrap_or_else(|| {
            Err(FilesError::Games(
                "the thread reading the games failed".to_owned(),
            ))
        })?;
        // The report's PGN pop-ups are written by the headers of games.pgn.
        let read = reading.map(|r| r.finish(pgn.headers()));
        pgn.finish()?;
        if let (Some(head), Some((replay, games))) = (head, read) {
            if let Err(e) = write_input(&head.into_input(replay, games)) {
                eprintln!("warning: the HTML report could not be written: {e}");
            }
        }
        Ok(())
    }
}

/// Today's date for PGN headers (`YYYY.MM.DD`), from the system clock.
#[must_use]
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}
