//! The datagen's ledger, `datagen.jsonl`: one line per finished game, appended (and
//! synced) after the game's records are in `positions.bin` (and synced). A game is done
//! when its line is whole; `positions.bin` holds exactly the records the whole lines
//! count, plus at most the records of one game whose line a kill cut off, which a
//! resume truncates away (that game is played again).

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
    /// Records of this game in `positions.bin`, right after those of the lines before.
    pub records: u64,
    /// `1-0`, `0-1` or `1/2-1/2`, from Red's side, and the reason code.
    pub result: String,
    pub reason: String,
    pub start_fen: String,
    /// The opening's and the random plies' moves, then the engines' (UCCI coordinates).
    pub opening_moves: String,
    pub moves: String,
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
    /// Records the done games wrote.
    pub records: u64,
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
        let mut records = 0;
        let mut twice = None;
        let good = scan(path, |_, line: LedgerLine| {
            records += line.records;
            if !done.insert(line.game) {
                twice = Some(line.game);
            }
        })
        .map_err(|e| match e {
            ScanError::Io(source) => io(source),
            ScanError::Corrupt { line, why } => LedgerError::Corrupt {
                path: path.to_path_buf(),
                line,
                why,
            },
        })?;
        if let Some(game) = twice {
            return Err(LedgerError::Twice {
                path: path.to_path_buf(),
                game,
            });
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        // A torn last line is cut off, so the next line starts on a line of its own.
        file.set_len(good).map_err(io)?;
        Ok(Ledger {
            path: path.to_path_buf(),
            file,
            done,
            records,
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
        self.records += line.records;
        Ok(())
    }
}
