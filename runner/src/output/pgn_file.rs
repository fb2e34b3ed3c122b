//! `games.pgn`: every game of the journal, in game order, written at the end of a run.
//!
//! The journal holds the games in the order they finished, which is nearly game order:
//! only games in flight overtake each other. So the file is written in one pass over
//! the journal; a game that comes before its turn waits as a journal offset in a small
//! buffer until the games before it are written. Memory follows the number of games in
//! flight, not the length of the run (an interrupted and resumed run, whose missing
//! games come at the end of the journal, buffers the games after its holes).
//!
//! The file is written under a temporary name and replaces the old `games.pgn` only
//! whole ([`crate::atomic_file`]): a full disk leaves the previous file, not half a game.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::pgn_headers::GameHeaders;
use crate::atomic_file::{AtomicFile, Staged};
use crate::config::Plan;
use crate::openings::OpeningBook;
use crate::store::finished::{game_number, FinishedGames};
use crate::store::journal::{Journal, JournalEntry, JournalError};

/// The PGN's name in a run folder.
pub const PGN_FILE: &str = "games.pgn";

/// Why `games.pgn` could not be written.
#[derive(Debug, Error)]
pub enum PgnFileError {
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("{}: cannot write: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The open PGN file and what every game's headers share.
struct PgnFile<'a> {
    headers: GameHeaders<'a>,
    path: PathBuf,
    out: AtomicFile,
    /// One game's text, reused from game to game.
    text: String,
}

impl PgnFile<'_> {
    fn write(&mut self, entry: &JournalEntry) -> Result<(), PgnFileError> {
        self.text.clear();
        if !self.headers.push(&mut self.text, entry) {
            return Ok(());
        }
        self.out
            .write_all(self.text.as_bytes())
            .map_err(|source| PgnFileError::Write {
                path: self.path.clone(),
                source,
            })
    }
}

/// `games.pgn` being written from the journal's entries as they are read, in game
/// order: the caller streams the journal through [`PgnWriter::add`] (alongside whatever
/// else reads it in the same pass), then calls [`PgnWriter::finish`].
pub struct PgnWriter<'a> {
    pgn: PgnFile<'a>,
    journal: PathBuf,
    /// The games to write (the counted ones), and the order they are written in.
    games: &'a FinishedGames,
    order: Box<dyn Iterator<Item = u64> + 'a>,
    next: Option<u64>,
    /// Games that came before their turn: game number -> journal offset.
    early: BTreeMap<u64, u64>,
    failure: Option<PgnFileError>,
}

impl std::fmt::Debug for PgnWriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgnWriter")
            .field("path", &self.pgn.path)
            .field("next", &self.next)
            .field("early", &self.early.len())
            .finish_non_exhaustive()
    }
}

impl<'a> PgnWriter<'a> {
    /// Creates `games.pgn` in the output folder for the games `finished` of `journal`;
    /// `date` goes into every game's headers, and the `book` the run played from names
    /// the openings.
    ///
    /// # Errors
    /// The PGN file cannot be created.
    pub fn create(
        plan: &'a Plan,
        book: Option<&'a OpeningBook>,
        journal: &Path,
        finished: &'a FinishedGames,
        date: String,
    ) -> Result<PgnWriter<'a>, PgnFileError> {
        let path = plan.output.dir.join(PGN_FILE);
        let out = AtomicFile::create(&path).map_err(|source| PgnFileError::Write {
            path: path.clone(),
            source,
        })?;
        let mut order: Box<dyn Iterator<Item = u64> + 'a> = Box::new(finished.iter());
        let next = order.next();
        Ok(PgnWriter {
            pgn: PgnFile {
                headers: GameHeaders::for_plan(plan, book, date),
                path,
                out,
                text: String::new(),
            },
            journal: journal.to_owned(),
            games: finished,
            order,
            next,
            early: BTreeMap::new(),
            failure: None,
        })
    }

    /// What every game's PGN is written with: the report's pop-ups use the same.
    #[must_use]
    pub fn headers(&self) -> &GameHeaders<'a> {
        &self.pgn.headers
    }

    /// The next entry of the journal, found at `offset`.
    pub fn add(&mut self, offset: u64, entry: &JournalEntry) {
        if self.failure.is_some() {
            return;
        }
        let number = game_number(entry.pair, entry.game);
        if Some(number) != self.next {
            // A game written already is a duplicate line; keep only the first (once
            // every game is written, any line is one). A game not counted (its partner
            // was not played) is not written at all.
            if self.next.is_some_and(|n| number > n) && self.games.contains(number) {
                self.early.entry(number).or_insert(offset);
            }
            return;
        }
        let mut result = self.pgn.write(entry);
        self.next = self.order.next();
        while let (Ok(()), Some(n)) = (&result, self.next) {
            let Some(offset) = self.early.remove(&n) else {
                break;
            };
            result = Journal::read_at(&self.journal, offset)
                .map_err(PgnFileError::from)
                .and_then(|e| self.pgn.write(&e));
            self.next = self.order.next();
        }
        self.failure = result.err();
    }

    /// Writes the games the order did not reach (after a hole that no journal line
    /// fills) and syncs the file, ready to replace `games.pgn` when committed.
    ///
    /// # Errors
    /// A game could not be read back or the file could not be written.
    pub fn finish(mut self) -> Result<Staged, PgnFileError> {
        if let Some(e) = self.failure.take() {
            return Err(e);
        }
        for offset in std::mem::take(&mut self.early).into_values() {
            let entry = Journal::read_at(&self.journal, offset)?;
            self.pgn.write(&entry)?;
        }
        let PgnFile { out, path, .. } = self.pgn;
        out.finish()
            .map_err(|source| PgnFileError::Write { path, source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EndReason, Outcome};

    /// Writes `games.pgn` from `journal` alone (a run writes it in the one pass over the
    /// journal that writes its other outputs too).
    fn write_games_pgn(
        plan: &Plan,
        book: Option<&OpeningBook>,
        journal: &Path,
        finished: &FinishedGames,
        date: String,
    ) -> Result<(), PgnFileError> {
        let mut writer = PgnWriter::create(plan, book, journal, finished, date)?;
        Journal::scan(journal, |offset, entry| writer.add(offset, &entry))?;
        let staged = writer.finish()?;
        let path = staged.path().to_owned();
        staged
            .commit()
            .map_err(|source| PgnFileError::Write { path, source })
    }

    fn entry(pair: u64, game: u8) -> JournalEntry {
        JournalEntry {
            reason: EndReason::Repetition,
            plies: 2,
            moves: "h2e2 h9g7".to_owned(),
            ..JournalEntry::sample(pair, game, Outcome::Draw)
        }
    }

    /// The `Round` tags of a PGN file, in file order.
    fn rounds(path: &Path) -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        text.lines()
            .filter_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]"))
            .map(str::to_owned)
            .collect()
    }

    /// A match of 5 pairs writing into `dir`.
    fn plan_in(dir: &Path) -> Plan {
        // Any program that exists serves as the engine: nothing is started.
        let program = std::env::current_exe().expect("test binary");
        let text = format!(
            "[tournament]\npairs = 5\n[time]\ndepth = 1\n[output]\ndir = {:?}\n[[engine]]\nname = \"a\"\ncommand = [{:?}]\n\
             [[engine]]\nname = \"b\"\ncommand = [{:?}]\n",
            dir.display().to_string(),
            program.display().to_string(),
            program.display().to_string()
        );
        crate::config::parse("test.toml", &text, &[])
            .expect("config")
            .plan
    }

    #[test]
    fn a_game_not_counted_is_not_written_wherever_it_comes() {
        let folder = tempfile::tempdir().expect("temp dir");
        let dir = folder.path();
        let plan = plan_in(dir);
        let journal_path = dir.join("games.jsonl");
        let mut journal = Journal::open(&journal_path).expect("journal");
        // Pair 0 is whole; pair 1 lost its game 1 (before the counted games end) and
        // pair 2 its game 0 (after them): an SPRT stop, say.
        for (pair, game) in [(1, 0), (0, 0), (0, 1), (2, 1)] {
            journal.append(&entry(pair, game)).expect("append");
        }
        drop(journal);
        let mut counted = FinishedGames::default();
        counted.insert(game_number(0, 0));
        counted.insert(game_number(0, 1));
        write_games_pgn(
            &plan,
            None,
            &journal_path,
            &counted,
            "2026.12.01".to_owned(),
        )
        .expect("pgn written");
        assert_eq!(rounds(&dir.join("games.pgn")), ["1.1", "1.2"]);
    }

    #[test]
    fn a_line_doubled_after_the_last_game_is_written_once() {
        let folder = tempfile::tempdir().expect("temp dir");
        let dir = folder.path();
        let plan = plan_in(dir);
        let journal_path = dir.join("games.jsonl");
        let mut journal = Journal::open(&journal_path).expect("journal");
        let mut finished = FinishedGames::default();
        for (pair, game) in [(0, 0), (0, 1), (1, 0), (1, 1), (0, 1), (1, 1)] {
            journal.append(&entry(pair, game)).expect("append");
            finished.insert(game_number(pair, game));
        }
        drop(journal);
        write_games_pgn(
            &plan,
            None,
            &journal_path,
            &finished,
            "2026.12.05".to_owned(),
        )
        .expect("pgn written");
        assert_eq!(rounds(&dir.join("games.pgn")), ["1.1", "1.2", "2.1", "2.2"]);
    }

    #[test]
    fn games_come_out_in_game_order_whatever_order_they_finished_in() {
        let folder = tempfile::tempdir().expect("temp dir");
        let dir = folder.path();
        let plan = plan_in(dir);
        let journal_path = dir.join("games.jsonl");
        let mut journal = Journal::open(&journal_path).expect("journal");
        let mut finished = FinishedGames::default();
        // Game 3 of pair 1 is a duplicate line; pair 3 is a hole (never played), so
        // pair 4's games are written after the scan.
        let order = [
            (0, 1),
            (1, 0),
            (0, 0),
            (1, 0),
            (2, 1),
            (1, 1),
            (2, 0),
            (4, 0),
            (4, 1),
        ];
        for (pair, game) in order {
            journal.append(&entry(pair, game)).expect("append");
            finished.insert(game_number(pair, game));
        }
        drop(journal);
        write_games_pgn(
            &plan,
            None,
            &journal_path,
            &finished,
            "2026.11.30".to_owned(),
        )
        .expect("pgn written");
        let expected = ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2", "5.1", "5.2"];
        assert_eq!(rounds(&dir.join("games.pgn")), expected);
    }
}
