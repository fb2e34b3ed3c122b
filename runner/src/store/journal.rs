//! The journal: one JSON line per finished game, appended and flushed the moment the game
//! ends. It is the single source of truth of a run: counts, the PGN and the summary are
//! rebuilt from it, and `--resume` continues from it.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;
use xq_core::board::Move;

use super::jsonl::ScanError;
use crate::client::Score;
use crate::game::{EndReason, Outcome, OverClock, PlayedGame, PlayedMove};

/// The journal's name in a run's folder.
pub const JOURNAL_FILE: &str = "games.jsonl";

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Pair number (0-based): one opening played twice with colours swapped.
    pub pair: u64,
    /// Game of the pair: 0 (first engine has Red) or 1 (colours swapped).
    pub game: u8,
    /// Index of the opening in the opening file (0-based), if any.
    pub opening: Option<usize>,
    pub red: String,
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`, from Red's side.
    pub result: Outcome,
    pub reason: EndReason,
    /// Plies played by the engines (the opening's moves not counted).
    pub plies: usize,
    pub start_fen: String,
    /// The opening's moves, space separated.
    #[serde(default)]
    pub opening_moves: String,
    /// The engines' moves, space separated, in UCCI coordinates.
    pub moves: String,
    /// Thinking time per engine move in milliseconds, measured by the runner.
    pub times_ms: Vec<u64>,
    /// The engine's score per move (`35`, `-120`, `M3`, `-M2`, or null).
    pub scores: Vec<Option<String>>,
    pub depths: Vec<Option<u32>>,
    /// Nodes, nodes per second and selective depth per move, where the engine gave
    /// them; empty when it gave none in the whole game (and in journals written before
    /// these were recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nps: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seldepths: Vec<Option<u32>>,
    /// The engine that faulted, if the game ended by a fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faulted: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Moves over the clock, Red's then Black's; left out when no move was (and in
    /// journals written before it was recorded).
    #[serde(default, skip_serializing_if = "no_over_clock")]
    pub over_clock: [OverClock; 2],
    /// Wall time of the whole game in milliseconds.
    pub duration_ms: u64,
}

#[cfg(test)]
impl JournalEntry {
    /// A finished game of engines `a` and `b` (`a` Red in game 0, Black in game 1) from
    /// the start position, without moves: for tests that need results, not games.
    pub(crate) fn sample(pair: u64, game: u8, result: Outcome) -> JournalEntry {
        let (red, black) = if game == 0 { ("a", "b") } else { ("b", "a") };
        JournalEntry {
            pair,
            game,
            opening: None,
            red: red.to_owned(),
            black: black.to_owned(),
            result,
            reason: EndReason::Checkmate,
            plies: 10,
            start_fen: xq_core::board::START_FEN.to_owned(),
            opening_moves: String::new(),
            moves: String::new(),
            times_ms: Vec::new(),
            scores: Vec::new(),
            depths: Vec::new(),
            nodes: Vec::new(),
            nps: Vec::new(),
            seldepths: Vec::new(),
            faulted: None,
            detail: None,
            over_clock: Default::default(),
            duration_ms: 1,
        }
    }
}

impl JournalEntry {
    /// The entry of a played game.
    #[must_use]
    pub fn new(
        pair: u64,
        game: u8,
        opening: Option<usize>,
        played: &PlayedGame,
        duration_ms: u64,
    ) -> JournalEntry {
        let join = |moves: &mut dyn Iterator<Item = Move>| {
            moves.map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
        };
        let faulted = played.faulted.map(|side| match side {
            xq_core::board::Color::Red => played.red.clone(),
            xq_core::board::Color::Black => played.black.clone(),
        });
        JournalEntry {
            pair,
            game,
            opening,
            red: played.red.clone(),
            black: played.black.clone(),
            result: played.outcome,
            reason: played.reason,
            plies: played.plies(),
            start_fen: played.start_fen.clone(),
            opening_moves: join(&mut played.opening_moves.iter().copied()),
            moves: join(&mut played.moves.iter().map(|m| m.mv)),
            times_ms: played.moves.iter().map(|m| m.time_ms).collect(),
            scores: played
                .moves
                .iter()
                .map(|m| m.score.map(Score::to_comment))
                .collect(),
            depths: played.moves.iter().map(|m| m.depth).collect(),
            nodes: per_move(played, |m| m.nodes),
            nps: per_move(played, |m| m.nps),
            seldepths: per_move(played, |m| m.seldepth),
            faulted,
            detail: played.detail.clone(),
            over_clock: played.over_clock,
            duration_ms,
        }
    }

    /// The game back from the entry (for the PGN); `None` if a move does not parse.
    #[must_use]
    pub fn to_played(&self) -> Option<PlayedGame> {
        let parse = |text: &str| -> Option<Vec<Move>> {
            text.split_whitespace()
                .map(|m| Move::parse(m).ok())
                .collect()
        };
        let moves = parse(&self.moves)?;
        let played = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| PlayedMove {
                mv,
                time_ms: self.times_ms.get(i).copied().unwrap_or(0),
                score: self
                    .scores
                    .get(i)
                    .cloned()
                    .flatten()
                    .and_then(|s| parse_score(&s)),
                depth: self.depths.get(i).copied().flatten(),
                nodes: self.nodes.get(i).copied().flatten(),
                nps: self.nps.get(i).copied().flatten(),
                seldepth: self.seldepths.get(i).copied().flatten(),
            })
            .collect();
        let faulted = self.faulted.as_ref().map(|name| {
            if *name == self.red {
                xq_core::board::Color::Red
            } else {
                xq_core::board::Color::Black
            }
        });
        Some(PlayedGame {
            red: self.red.clone(),
            black: self.black.clone(),
            start_fen: self.start_fen.clone(),
            opening_moves: parse(&self.opening_moves)?,
            moves: played,
            outcome: self.result,
            reason: self.reason,
            faulted,
            detail: self.detail.clone(),
            over_clock: self.over_clock,
        })
    }
}

fn no_over_clock(sides: &[OverClock; 2]) -> bool {
    sides.iter().all(OverClock::is_zero)
}

/// One value per move, or nothing when no move has one (engines that never say).
fn per_move<T: Copy>(
    played: &PlayedGame,
    value: impl Fn(&PlayedMove) -> Option<T>,
) -> Vec<Option<T>> {
    if played.moves.iter().all(|m| value(m).is_none()) {
        return Vec::new();
    }
    played.moves.iter().map(value).collect()
}

pub(crate) fn parse_score(text: &str) -> Option<Score> {
    // Read wide and bounded as an engine's score is: `-M-2147483648`, which an older
    // runner wrote for `mate -2147483648` (its negation wrapped), reads as being mated.
    if let Some(m) = text.strip_prefix("-M") {
        return m
            .parse::<i64>()
            .ok()
            .map(|m| Score::mate(-m.saturating_abs()));
    }
    if let Some(m) = text.strip_prefix('M') {
        return m.parse().ok().map(Score::mate);
    }
    text.parse().ok().map(|u| Score::Units(Score::units(u)))
}

/// Why the journal could not be used.
#[derive(Debug, Error)]
pub enum JournalError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: not a journal entry: {why}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        why: String,
    },
    /// A line that reads as an entry but is not one of the run's games (see
    /// [`super::belongs`]): the resume refuses the folder rather than count it.
    /// Boxed: every result that may carry a journal error pays for its largest variant.
    #[error("{path}:{line}: not a game of this run: {why}")]
    Foreign {
        path: PathBuf,
        line: usize,
        why: Box<super::belongs::Foreign>,
    },
}

/// An open journal, appending.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens (creating) the journal for appending.
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn open(path: &Path) -> Result<Journal, JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_owned(),
            source,
        };
        // Never through a link planted in the journal's place: the games would be
        // appended to whatever it names.
        let file = crate::plain_file::open(OpenOptions::new().create(true).append(true), path)
            .map_err(io)?;
        Ok(Journal {
            path: path.to_owned(),
            file,
        })
    }

    /// Appends one entry as a single write and flushes it to the OS, so a killed runner
    /// never loses a finished game.
    ///
    /// # Errors
    /// Writing failed (disk full...).
    pub fn append(&mut self, entry: &JournalEntry) -> Result<(), JournalError> {
        let mut line = serde_json::to_string(entry).map_err(|e| JournalError::Io {
            path: self.path.clone(),
            source: std::io::Error::other(e),
        })?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| JournalError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// Reads every complete entry into memory (small journals, tests, reports). See
    /// [`Journal::scan`] for what happens to a torn last line.
    ///
    /// # Errors
    /// As [`Journal::scan`].
    pub fn read_all(path: &Path) -> Result<Vec<JournalEntry>, JournalError> {
        let mut entries = Vec::new();
        Journal::scan(path, |_, entry| entries.push(entry))?;
        Ok(entries)
    }

    /// Streams every complete entry with its byte offset in the file, and returns the
    /// length of the complete lines. The file is only read, never written: a run may be
    /// appending to it while a report reads it. A last line cut off by a kill (or still
    /// being written: no newline, or not valid JSON) is left out; any other bad line is
    /// an error naming it. A missing file has no entries.
    ///
    /// # Errors
    /// The file cannot be read, or a line before the last is corrupt.
    pub fn scan(path: &Path, each: impl FnMut(u64, JournalEntry)) -> Result<u64, JournalError> {
        super::jsonl::scan(path, each).map_err(|e| match e {
            ScanError::Io(source) => JournalError::Io {
                path: path.to_owned(),
                source,
            },
            ScanError::Corrupt { line, why } => JournalError::Corrupt {
                path: path.to_owned(),
                line,
                why,
            },
        })
    }

    /// Cuts a torn last line (see [`Journal::scan`]) off the file, so that appending
    /// continues cleanly. Only the run that owns the folder calls this, when it resumes:
    /// every other reader leaves the file as it is.
    ///
    /// # Errors
    /// The file cannot be read or cut, or a line before the last is corrupt.
    pub fn repair(path: &Path) -> Result<(), JournalError> {
        let good_len = Journal::scan(path, |_, _| {})?;
        Journal::cut_to(path, good_len)
    }

    /// [`Journal::repair`] with the length of the complete lines known from a
    /// [`Journal::scan`] of the file as it is now (a resume has just read it: a second
    /// reading of a long journal would cost as much as the first).
    ///
    /// # Errors
    /// The file cannot be cut.
    pub fn cut_to(path: &Path, good_len: u64) -> Result<(), JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_owned(),
            source,
        };
        let file = match crate::plain_file::open(OpenOptions::new().write(true), path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(io(e)),
        };
        if file.metadata().map_err(io)?.len() != good_len {
            file.set_len(good_len).map_err(io)?;
        }
        Ok(())
    }

    /// The entry stored at a byte offset found by [`Journal::scan`].
    ///
    /// # Errors
    /// The file cannot be read there, or the line is not an entry.
    pub fn read_at(path: &Path, offset: u64) -> Result<JournalEntry, JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_owned(),
            source,
        };
        let mut file = crate::plain_file::read_only(path).map_err(io)?;
        file.seek(SeekFrom::Start(offset)).map_err(io)?;
        let mut line = String::new();
        BufReader::new(file).read_line(&mut line).map_err(io)?;
        serde_json::from_str(line.trim_end()).map_err(|e| JournalError::Corrupt {
            path: path.to_owned(),
            line: 0,
            why: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_back_bounded_whatever_the_line_says() {
        let mated = Score::mate(i64::from(i32::MIN));
        assert_eq!(parse_score(&mated.to_comment()), Some(mated));
        // An older runner's wrapped `-M-2147483648` is still a side being mated.
        assert_eq!(parse_score("-M-2147483648"), Some(mated));
        assert_eq!(parse_score("M99999999999"), Some(Score::mate(i64::MAX)));
        assert_eq!(parse_score("-2147483648"), Some(Score::Units(-i32::MAX)));
    }

    /// The first line of a journal of the report tests: one finished game.
    fn a_line() -> &'static str {
        let journal = include_str!("../../tests/data/report/gauntlet/games.jsonl");
        journal.lines().next().unwrap_or_default()
    }

    /// Scans a journal of these bytes; with `repair`, repairs it first. Returns the
    /// entries found and the file's length afterwards.
    fn scanned(bytes: &[u8], repair: bool) -> (Result<usize, JournalError>, u64) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("games.jsonl");
        std::fs::write(&path, bytes).expect("write");
        let mut count = 0;
        let result = if repair {
            Journal::repair(&path)
        } else {
            Ok(())
        };
        let result = result.and_then(|()| Journal::scan(&path, |_, _| count += 1));
        let len = std::fs::metadata(&path).map_or(0, |m| m.len());
        (result.map(|_| count), len)
    }

    #[test]
    fn a_line_torn_inside_a_character_is_dropped_like_any_torn_line() {
        let good = format!("{}\n", a_line());
        let mut bytes = good.clone().into_bytes();
        // `{"red":"象` cut after the first byte of the three of 象.
        bytes.extend_from_slice(&"{\"red\":\"象".as_bytes()[..9]);
        let (result, len) = scanned(&bytes, true);
        assert_eq!(result.ok(), Some(1));
        assert_eq!(len, good.len() as u64, "the torn line is cut off");
    }

    #[test]
    fn reading_never_cuts_a_line_being_written() {
        let good = format!("{}\n", a_line());
        let mut bytes = good.clone().into_bytes();
        bytes.extend_from_slice(&good.as_bytes()[..good.len() / 2]);
        let (result, len) = scanned(&bytes, false);
        assert_eq!(result.ok(), Some(1), "the half line is not an entry yet");
        assert_eq!(len, bytes.len() as u64, "the file is left as it was");
    }

    #[test]
    fn bad_bytes_before_the_last_line_are_named_by_their_line() {
        let good = format!("{}\n", a_line());
        let mut bytes = good.clone().into_bytes();
        bytes.extend_from_slice(b"\xff\xfe\n");
        bytes.extend_from_slice(good.as_bytes());
        let (result, _) = scanned(&bytes, false);
        assert!(
            matches!(result, Err(JournalError::Corrupt { line: 2, .. })),
            "{result:?}"
        );
    }
}
