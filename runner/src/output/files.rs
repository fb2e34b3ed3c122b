//! The files of a run that has ended or stopped, written from its journal and counts:
//! `games.pgn`, `summary.json`, then `report.html` and `summary.md`. A local run writes
//! them when it ends; `merge` and `report --db` write the same files the same way, so
//! every tool that reads a run folder reads any run.

use std::io::Write as _;
use std::path::Path;

use thiserror::Error;

use super::pgn_file::{PgnFileError, PgnWriter};
use super::report::{render, RunHead, REPORT_HTML, SUMMARY_MD};
use super::summary::{summarize, RunnerCost, UnknownOptions};
use crate::atomic_file::{AtomicFile, Staged};
use crate::config::Plan;
use crate::openings::OpeningBook;
use crate::store::ending::Ending;
use crate::store::journal::{Journal, JournalEntry, JOURNAL_FILE};
use crate::store::read_ahead::ahead;
use crate::store::tracker::Tracker;

/// The summary's name in a run folder.
pub const SUMMARY_FILE: &str = "summary.json";

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
    /// cannot be read (a damaged `run.json`) is a warning: the PGN and the summary are
    /// the results. A file that cannot be written is an error, and then no file
    /// changes (see [`RunFiles::write_from`]).
    ///
    /// # Errors
    /// [`FilesError`] when a file cannot be written.
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
    /// Every file is written whole under a temporary name first; only when all of them
    /// are written do they replace the old ones, together. A full disk leaves the
    /// previous files as they were, agreeing with each other (never a new summary that
    /// says "aborted" beside an old report that says "PASS").
    ///
    /// # Errors
    /// [`FilesError`] when a file cannot be written, or `games` fails.
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
        let summary_path = dir.join(SUMMARY_FILE);
        let summary_text =
            serde_json::to_string_pretty(&summary).map_err(|e| FilesError::Write {
                path: summary_path.clone(),
                source: e.into(),
            })?;
        // The report shows the status of the summary being written, not the old one.
        let head = match RunHead::read_with_summary(dir, &summary_text) {
            Ok(head) => Some(head),
            Err(e) => {
                eprintln!("warning: the HTML report could not be written: {e}");
                None
            }
        };
        // One pass over the journal writes the PGN and reads what the report shows.
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
        let mut staged = vec![pgn.finish()?, stage(&summary_path, &summary_text)?];
        if let (Some(head), Some((replay, games))) = (head, read) {
            let mut input = head.into_input(replay, games);
            // It is about to be: the report links it.
            input.has_pgn = true;
            let (page, markdown) = render(&input);
            staged.push(stage(&dir.join(REPORT_HTML), &page)?);
            staged.push(stage(&dir.join(SUMMARY_MD), &markdown)?);
        }
        for file in staged {
            let path = file.path().to_owned();
            file.commit()
                .map_err(|source| FilesError::Write { path, source })?;
        }
        Ok(())
    }
}

/// `text` written and synced under a temporary name beside `path`.
fn stage(path: &Path, text: &str) -> Result<Staged, FilesError> {
    let write = || {
        let mut file = AtomicFile::create(path)?;
        file.write_all(text.as_bytes())?;
        file.finish()
    };
    write().map_err(|source| FilesError::Write {
        path: path.to_owned(),
        source,
    })
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
