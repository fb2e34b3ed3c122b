//! Checking an opening file: every line parses, every move is legal, no game
//! is already over (by the rules judge, with the default rules), no opening
//! appears twice (a left-right mirror counts as the same opening). Streams the
//! file; remembers 16 bytes per opening.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead};

use xq_core::rules::Rules;

use super::error::{LineError, OpeningError};
use super::format::{BookFormat, BookReader};
use super::opening::{GameOver, Opening};

/// A problem found on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: ProblemKind,
}

/// What is wrong with a line. At most one problem is reported per line, the
/// first in this order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemKind {
    /// The line does not parse, or a move is illegal.
    Invalid(LineError),
    /// A game from it is over before the first move (see [`GameOver`]).
    GameOver(GameOver),
    /// The same final position as an earlier line.
    Duplicate {
        /// The earlier line.
        first: usize,
    },
    /// The mirror image of an earlier line's final position.
    MirrorDuplicate {
        /// The earlier line.
        first: usize,
    },
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemKind::Invalid(e) => write!(f, "{e}"),
            ProblemKind::GameOver(g) => write!(f, "{g}"),
            ProblemKind::Duplicate { first } => {
                write!(f, "duplicate: the same position as line {first}")
            }
            ProblemKind::MirrorDuplicate { first } => {
                write!(f, "duplicate: the left-right mirror of line {first}")
            }
        }
    }
}

impl fmt::Display for Problem {
    /// `line N: what`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

/// What a check found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckSummary {
    /// Lines that hold an opening (valid or not); blank and comment lines excluded.
    pub openings: usize,
    /// Lines with a problem.
    pub problems: usize,
}

/// Remembers the openings seen so far, by [`Opening::canonical_key`], and judges
/// whether each is already over by the default rules (`openings check` knows no run; a
/// run checks its book by its own rules, in `book.rs`).
#[derive(Debug, Default)]
pub struct Checker {
    /// Canonical key -> first line and whether that line's own key was the
    /// mirrored one (16 bytes per entry).
    seen: HashMap<u64, FirstSeen>,
}

#[derive(Debug, Clone, Copy)]
struct FirstSeen {
    line: u32,
    mirrored: bool,
}

impl Checker {
    /// A checker that has seen nothing.
    #[must_use]
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Checks one valid opening against itself and everything seen before,
    /// and remembers it.
    pub fn check(&mut self, opening: &Opening) -> Option<ProblemKind> {
        let position = opening.position();
        let (key, mirror_key) = (position.key(), position.mirrored().key());
        let canonical = key.min(mirror_key);
        let mirrored = key != canonical;
        let line = u32::try_from(opening.line).unwrap_or(u32::MAX);
        let duplicate = match self.seen.entry(canonical) {
            Entry::Vacant(slot) => {
                slot.insert(FirstSeen { line, mirrored });
                None
            }
            Entry::Occupied(slot) => {
                let earlier = *slot.get();
                let first = earlier.line as usize;
                // A symmetric position is its own mirror: a plain duplicate.
                if earlier.mirrored == mirrored || key == mirror_key {
                    Some(ProblemKind::Duplicate { first })
                } else {
                    Some(ProblemKind::MirrorDuplicate { first })
                }
            }
        };
        match opening.game_over(Rules::default()) {
            Some(over) => Some(ProblemKind::GameOver(over)),
            None => duplicate,
        }
    }
}

/// Checks every line of `reader`, calling `on_problem` for each problem as it
/// is found (so a huge file needs no list of problems either).
///
/// # Errors
/// The I/O error that stopped reading (problems before it were reported).
pub fn check_reader<R: BufRead>(
    reader: R,
    on_problem: impl FnMut(&Problem),
) -> io::Result<CheckSummary> {
    check_book(reader, BookFormat::Epd, on_problem)
}

/// [`check_reader`] for a book in either format; for PGN, a problem's line is the line
/// of the game's first problem (duplicates: the line the game starts on), and
/// `openings` counts games.
///
/// # Errors
/// As [`check_reader`].
pub fn check_book<R: BufRead>(
    reader: R,
    format: BookFormat,
    mut on_problem: impl FnMut(&Problem),
) -> io::Result<CheckSummary> {
    let mut checker = Checker::new();
    let mut summary = CheckSummary::default();
    for result in BookReader::new(format, reader) {
        let problem = match result {
            Ok(opening) => {
                summary.openings += 1;
                checker.check(&opening).map(|kind| Problem {
                    line: opening.line,
                    kind,
                })
            }
            Err(OpeningError::Line { line, kind }) => {
                summary.openings += 1;
                Some(Problem {
                    line,
                    kind: ProblemKind::Invalid(kind),
                })
            }
            Err(OpeningError::Io { source, .. }) => return Err(source),
        };
        if let Some(problem) = problem {
            summary.problems += 1;
            on_problem(&problem);
        }
    }
    Ok(summary)
}

/// Checks every line of `reader` and returns the problems in line order.
///
/// # Errors
/// The I/O error that stopped reading.
///
/// # Examples
/// ```
/// use xq_runner::openings::{check, ProblemKind};
///
/// let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// let text = format!("{start} moves h2e2\n{start} moves b2e2\n");
/// let (summary, problems) = check(text.as_bytes())?;
/// assert_eq!((summary.openings, summary.problems), (2, 1));
/// assert_eq!(problems[0].line, 2);
/// assert_eq!(problems[0].kind, ProblemKind::MirrorDuplicate { first: 1 });
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn check<R: BufRead>(reader: R) -> io::Result<(CheckSummary, Vec<Problem>)> {
    let mut problems = Vec::new();
    let summary = check_reader(reader, |p| problems.push(p.clone()))?;
    Ok((summary, problems))
}
