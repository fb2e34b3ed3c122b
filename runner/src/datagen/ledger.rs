//! The datagen's ledger, `datagen.jsonl`: one line per finished game, appended and
//! synced the moment the game ends. The line is the game's record: its start, every
//! move, each engine move's score, the result, and the engine build that played it.
//! A game is done when its line is whole; a line a kill cut off is dropped by the next
//! resume (that game is played again). `datagen pack` turns whole lines into a chunk
//! (`xq_core::training`), reading the ledger without writing it.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::store::jsonl::{scan, ScanError};

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerLine {
    /// The game's index: its opening and random plies follow from it.
    pub game: u64,
    /// Positions an engine searched (moves with a score); 0 for a game ended by an
    /// engine fault, whose result says nothing about its positions.
    pub positions: u64,
    /// `1-0`, `0-1` or `1/2-1/2`, from Red's side, and the reason code.
    pub result: String,
    pub reason: String,
    pub start_fen: String,
    /// The opening's and the random plies' moves (UCCI coordinates).
    pub opening_moves: String,
    /// The engines' moves.
    pub moves: String,
    /// Each engine move's score as its engine reported it, from the side to move's view
    /// (`35`, `-120`, `M3`, `-M2`, or null), as the journal writes them.
    pub scores: Vec<Option<String>>,
    /// The engine's `bench` signature and the git commit of its checkout, taken when
    /// the datagen started or resumed; `None` when the engine or git could not say.
    pub bench: Option<u64>,
    pub commit: Option<String>,
}

/// Why the ledger cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}: not a ledger line: {why}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error("{path}: game {game} is there twice")]
    Twice { path: PathBuf, game: u64 },
}

/// The ledger open for appending, and what it holds.
#[derive(Debug)]
pub struct Ledger {
    path: PathBuf,
    file: File,
    /// Games done.
    pub done: HashSet<u64>,
    /// Positions the done games searched.
    pub positions: u64,
}

impl Ledger {
    /// Opens (or creates) the ledger at `path`, dropping a last line a kill cut off.
    ///
    /// # Errors
    /// [`LedgerError`] when it cannot be read or written, or a line is not one.
    pub fn open(path: &Path) -> Result<Ledger, LedgerError> {
        let io = |source| LedgerError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut done = HashSet::new();
        let mut positions = 0;
        let mut twice = None;
        let good = scan(path, |_, line: LedgerLine| {
            positions += line.positions;
            if !done.insert(line.game) {
                twice = Some(line.game);
            }
        })
        .map_err(|e| from_scan(path, e))?;
        if let Some(game) = twice {
            return Err(LedgerError::Twice {
                path: path.to_path_buf(),
                game,
            });
        }
        // Not through a link planted as the ledger (plain_file.rs).
        let file = crate::plain_file::open(OpenOptions::new().create(true).append(true), path)
            .map_err(io)?;
        // A torn last line is cut off, so the next line starts on a line of its own.
        file.set_len(good).map_err(io)?;
        Ok(Ledger {
            path: path.to_path_buf(),
            file,
            done,
            positions,
        })
    }

    /// Appends a game's line and syncs it to disk.
    ///
    /// # Errors
    /// [`LedgerError::Io`] when it cannot be written.
    pub fn append(&mut self, line: &LedgerLine) -> Result<(), LedgerError> {
        let io = |source| LedgerError::Io {
            path: self.path.clone(),
            source,
        };
        let mut text =
            serde_json::to_string(line).map_err(|e| io(std::io::Error::other(e.to_string())))?;
        text.push('\n');
        self.file.write_all(text.as_bytes()).map_err(io)?;
        self.file.sync_data().map_err(io)?;
        self.done.insert(line.game);
        self.positions += line.positions;
        Ok(())
    }
}

/// The whole lines of the ledger at `path`, read without writing it: a datagen may be
/// appending to it (a torn last line is left out, as a resume would drop it).
///
/// # Errors
/// [`LedgerError`] when it cannot be read or a line before the last is not one.
pub fn read_lines(path: &Path) -> Result<Vec<LedgerLine>, LedgerError> {
    let mut lines = Vec::new();
    scan(path, |_, line: LedgerLine| lines.push(line)).map_err(|e| from_scan(path, e))?;
    Ok(lines)
}

fn from_scan(path: &Path, e: ScanError) -> LedgerError {
    match e {
        ScanError::Io(source) => LedgerError::Io {
            path: path.to_path_buf(),
            source,
        },
        ScanError::Corrupt { line, why } => LedgerError::Corrupt {
            path: path.to_path_buf(),
            line,
            why,
        },
    }
}
