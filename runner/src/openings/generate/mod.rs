//! Generating balanced opening suites with an engine
//! (`xq-runner openings generate`).
//!
//! Candidate line `i` of a run is sampled from its own generator, seeded from
//! `(seed, i)` ([`line_seed`]): a length drawn uniformly from the ply range, an
//! optional prefix drawn from a given suite (`--from`), then moves chosen ply by
//! ply among the engine's best move and a few random legal moves, weighted by
//! their scores (see [`sampler`](self) and [`pick_weighted`]). The line's final
//! position is searched to the final depth and kept when its score is within the
//! window, the game is not over, and its position (or its mirror image) is new.
//!
//! Several engine processes work in parallel, but lines are judged and kept in
//! index order, and every search starts from a new game (cleared hash and history),
//! so the same settings and engine give the same openings whatever the concurrency.

mod analyst;
mod choice;
mod pool;
mod sampler;
mod writer;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use thiserror::Error;

pub use pool::{generate, Generated, Stats};
pub use writer::{render_header, write_suite, Provenance};

use super::Opening;
use crate::client::EngineError;

/// The most plies a generated line may have.
pub const MAX_PLIES: usize = 300;

/// An inclusive range of line lengths in plies, written `A..B` (or `A..=B`, or `A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRange {
    /// The fewest plies.
    pub min: usize,
    /// The most plies.
    pub max: usize,
}

impl FromStr for PlyRange {
    type Err = String;

    /// `"6..10"`, `"6..=10"` and `"8"` (for `8..8`) are ranges; `"10..6"` is not.
    fn from_str(text: &str) -> Result<PlyRange, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{t}` is not a number of plies"))
        };
        let (min, max) = match text.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
            None => (number(text)?, number(text)?),
        };
        if min > max {
            return Err(format!("empty ply range {min}..{max}"));
        }
        if max > MAX_PLIES {
            return Err(format!("at most {MAX_PLIES} plies"));
        }
        Ok(PlyRange { min, max })
    }
}

impl fmt::Display for PlyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.min, self.max)
    }
}

/// What to generate. Everything that changes the output is here; the number of
/// engine processes is not (it changes only the speed).
#[derive(Clone, Debug)]
pub struct Settings {
    /// How many openings to keep.
    pub count: usize,
    /// The length of a line, counted from its start position (with `starts`: the
    /// start of the chosen line, including the moves taken from it).
    pub plies: PlyRange,
    /// Keep a line when the final score's magnitude is at most this.
    pub max_score: u32,
    /// The depth of the final search.
    pub depth: u32,
    /// The seed of every random choice.
    pub seed: u64,
    /// The depth of the search for the best move at each ply (the other candidates
    /// are searched one ply less deep after being played).
    pub probe_depth: u32,
    /// Random legal moves scored beside the engine's best move at each ply.
    pub candidates: usize,
    /// Score difference (engine units) that halves a move's chance; 0: always the best.
    pub temperature: u32,
    /// Candidate lines to try at most before giving up.
    pub max_lines: u64,
    /// Lines to start from (a random one per candidate, cut to the drawn length);
    /// empty: the standard start position.
    pub starts: Vec<Opening>,
}

impl Settings {
    /// Checks that the settings can produce a file.
    ///
    /// # Errors
    /// [`GenerateError::Settings`] naming the first bad value.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let bad = |why: &str| Err(GenerateError::Settings(why.to_owned()));
        if self.count == 0 {
            return bad("--count must be at least 1");
        }
        if self.depth == 0 || self.probe_depth == 0 {
            return bad("--depth and --probe-depth must be at least 1");
        }
        if self.max_lines < self.count as u64 {
            return bad("--max-lines must be at least --count");
        }
        Ok(())
    }
}

/// Why generation failed.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// A setting that cannot work.
    #[error("bad settings: {0}")]
    Settings(String),
    /// The engine could not be started, or failed (even after one restart).
    #[error("engine failed: {source}")]
    Engine {
        /// What happened.
        #[source]
        source: EngineError,
    },
    /// The engine answered `nobestmove` where there are legal moves.
    #[error("the engine found no move in {position}")]
    NoMove {
        /// The position as `FEN moves ...`.
        position: String,
    },
    /// The engine's move is not a legal move.
    #[error("the engine answered `{text}`, not a legal move, in {position}")]
    IllegalMove {
        /// The move as the engine wrote it.
        text: String,
        /// The position as `FEN moves ...`.
        position: String,
    },
    /// The engine searched without reporting a score.
    #[error("the engine gave no score in {position}")]
    NoScore {
        /// The position as `FEN moves ...`.
        position: String,
    },
    /// The lines ran out before enough openings were found.
    #[error(
        "found only {found} of {wanted} openings in {tried} lines \
         (raise --max-lines or --max-score, or lower the ply range)"
    )]
    NotEnough {
        /// Openings kept.
        found: usize,
        /// Openings asked for.
        wanted: usize,
        /// Lines tried.
        tried: u64,
    },
    /// The output could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::PlyRange;

    #[test]
    fn ply_ranges_read_as_written() {
        assert_eq!("6..10".parse(), Ok(PlyRange { min: 6, max: 10 }));
        assert_eq!("6..=10".parse(), Ok(PlyRange { min: 6, max: 10 }));
        assert_eq!("8".parse(), Ok(PlyRange { min: 8, max: 8 }));
        assert!("10..6".parse::<PlyRange>().is_err());
        assert!("1..301".parse::<PlyRange>().is_err());
        assert!("x..3".parse::<PlyRange>().is_err());
    }
}
