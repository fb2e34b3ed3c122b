//! An opening book in memory, and which opening each game pair plays.
//!
//! # The pair -> opening mapping
//! With `n` openings, start index `s` and pair index `p` (both 0-based), pair
//! `p` plays the opening at position `k = (s + p) mod n` of the play order:
//! - `sequential`: the play order is the file order, so pair `p` plays opening `k`;
//! - `random`: the play order is one permutation of the file order, made once
//!   from the seed by a Fisher-Yates shuffle driven by [`SplitMix64`]; pair `p`
//!   plays opening `perm[k]`.
//!
//! Each run of `n` consecutive pairs plays every opening once; after that the
//! order repeats. The same file, order, seed and start give the same mapping on
//! every machine and in every version (the generator is fixed, see [`super::rng`]).
//! Both games of a pair play the same opening with colours swapped.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Deserialize;
use thiserror::Error;

use super::error::{LineError, OpeningError};
use super::opening::Opening;
use super::reader::OpeningReader;
use xq_core::rng::SplitMix64;

/// In which order a book's openings are played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// File order.
    #[default]
    Sequential,
    /// A permutation of the file order fixed by the seed.
    Random,
}

impl FromStr for Order {
    type Err = String;

    fn from_str(text: &str) -> Result<Order, String> {
        match text {
            "sequential" => Ok(Order::Sequential),
            "random" => Ok(Order::Random),
            other => Err(format!("order `{other}` is not sequential or random")),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Sequential => "sequential",
            Order::Random => "random",
        })
    }
}

/// Why a book could not be loaded. Loading is strict: any bad line fails it
/// (`xq-runner openings check` lists them all).
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be opened or read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A line is invalid.
    #[error("{}:{line}: {kind}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        kind: LineError,
    },
    /// The file has no opening at all.
    #[error("{} has no openings", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// The openings of one file, in file order, for random access.
#[derive(Debug, Clone)]
pub struct OpeningBook {
    openings: Vec<Opening>,
}

impl OpeningBook {
    /// Loads a file.
    ///
    /// # Errors
    /// [`BookError`]: unreadable file, first invalid line, or no openings.
    pub fn load(path: &Path) -> Result<OpeningBook, BookError> {
        let file = File::open(path).map_err(|source| BookError::Read {
            path: path.to_owned(),
            source,
        })?;
        OpeningBook::from_reader(BufReader::new(file), path)
    }

    /// Reads a book from any reader; `path` only names it in errors.
    ///
    /// # Errors
    /// As [`OpeningBook::load`].
    pub fn from_reader(reader: impl BufRead, path: &Path) -> Result<OpeningBook, BookError> {
        let mut openings = Vec::new();
        for result in OpeningReader::new(reader) {
            match result {
                Ok(opening) => openings.push(opening),
                Err(OpeningError::Line { line, kind }) => {
                    let path = path.to_owned();
                    return Err(BookError::Invalid { path, line, kind });
                }
                Err(OpeningError::Io { source, .. }) => {
                    let path = path.to_owned();
                    return Err(BookError::Read { path, source });
                }
            }
        }
        if openings.is_empty() {
            return Err(BookError::Empty {
                path: path.to_owned(),
            });
        }
        Ok(OpeningBook { openings })
    }

    /// A book of these openings; `None` when there are none.
    #[must_use]
    pub fn from_openings(openings: Vec<Opening>) -> Option<OpeningBook> {
        (!openings.is_empty()).then_some(OpeningBook { openings })
    }

    /// The number of openings (at least 1).
    #[must_use]
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Always `false`: a book has at least one opening.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The openings in file order.
    #[must_use]
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// The play order for a run (see the module docs for the mapping).
    #[must_use]
    pub fn schedule(&self, order: Order, seed: u64, start: usize) -> Schedule {
        let permutation = match order {
            Order::Sequential => None,
            Order::Random => {
                let mut perm: Vec<usize> = (0..self.len()).collect();
                SplitMix64::new(seed).shuffle(&mut perm);
                Some(perm)
            }
        };
        Schedule {
            len: self.len(),
            start: start % self.len(),
            permutation,
        }
    }

    /// The opening that pair `pair` plays under `schedule`.
    ///
    /// # Panics
    /// If `schedule` was made for a book of another size.
    #[must_use]
    pub fn for_pair(&self, schedule: &Schedule, pair: u64) -> &Opening {
        assert_eq!(schedule.len, self.len(), "schedule made for another book");
        &self.openings[schedule.index(pair)]
    }
}

/// Which opening (index in file order) each pair plays; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    len: usize,
    start: usize,
    permutation: Option<Vec<usize>>,
}

impl Schedule {
    /// The file-order index of the opening pair `pair` plays.
    #[must_use]
    pub fn index(&self, pair: u64) -> usize {
        // (start + pair) mod len without overflow; len >= 1.
        let offset = (pair % self.len as u64) as usize;
        let k = (self.start + offset) % self.len;
        match &self.permutation {
            Some(perm) => perm[k],
            None => k,
        }
    }
}

#[cfg(test)]
mod tests {
    use xq_core::board::START_FEN;

    use super::*;

    /// A book of `n` openings named by their file index (the positions may
    /// repeat: the mapping does not look at them).
    fn book(n: usize) -> OpeningBook {
        let text: String = (0..n)
            .map(|i| format!("{START_FEN} ; name o{i}\n"))
            .collect();
        OpeningBook::from_reader(text.as_bytes(), Path::new("test.epd")).expect("book")
    }

    fn names(book: &OpeningBook, schedule: &Schedule, pairs: std::ops::Range<u64>) -> Vec<String> {
        pairs
            .map(|p| book.for_pair(schedule, p).name.clone().unwrap_or_default())
            .collect()
    }

    #[test]
    fn sequential_wraps_from_the_start_index() {
        let b = book(3);
        assert_eq!(
            names(&b, &b.schedule(Order::Sequential, 9, 0), 0..5),
            ["o0", "o1", "o2", "o0", "o1"]
        );
        assert_eq!(
            names(&b, &b.schedule(Order::Sequential, 9, 2), 0..4),
            ["o2", "o0", "o1", "o2"]
        );
        assert_eq!(
            b.schedule(Order::Sequential, 0, 7),
            b.schedule(Order::Sequential, 0, 1)
        );
        assert_eq!(
            b.schedule(Order::Sequential, 0, 0).index(u64::MAX),
            (u64::MAX % 3) as usize
        );
    }

    #[test]
    fn random_is_a_seeded_permutation_that_repeats() {
        let b = book(50);
        let s = b.schedule(Order::Random, 12345, 0);
        let first: Vec<usize> = (0..50).map(|p| s.index(p)).collect();
        let mut sorted = first.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            (0..50).collect::<Vec<_>>(),
            "every opening once per cycle"
        );
        let second: Vec<usize> = (50..100).map(|p| s.index(p)).collect();
        assert_eq!(first, second, "the order repeats");
        assert_ne!(first, (0..50).collect::<Vec<_>>());
        assert_eq!(
            s,
            b.schedule(Order::Random, 12345, 0),
            "same seed, same order"
        );
        assert_ne!(s, b.schedule(Order::Random, 12346, 0));
        let shifted = b.schedule(Order::Random, 12345, 10);
        assert_eq!(shifted.index(0), s.index(10));
    }

    #[test]
    fn random_mapping_is_stable_across_versions() {
        // Pinned: changing the generator or the shuffle breaks resumed runs.
        let b = book(10);
        let s = b.schedule(Order::Random, 2024, 0);
        let got: Vec<usize> = (0..10).map(|p| s.index(p)).collect();
        let mut expected = got.clone();
        expected.sort_unstable();
        assert_eq!(expected, (0..10).collect::<Vec<_>>());
        assert_eq!(got, PINNED_2024);
    }

    const PINNED_2024: [usize; 10] = [9, 0, 6, 3, 4, 2, 5, 7, 8, 1];

    #[test]
    fn loading_is_strict_and_names_the_line() {
        let bad = format!("# header\n{START_FEN}\n{START_FEN} moves h2h8\n");
        match OpeningBook::from_reader(bad.as_bytes(), Path::new("b.epd")) {
            Err(e @ BookError::Invalid { line: 3, .. }) => {
                assert!(e.to_string().starts_with("b.epd:3: "))
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            OpeningBook::from_reader("# nothing\n".as_bytes(), Path::new("e.epd")),
            Err(BookError::Empty { .. })
        ));
        assert!(matches!(
            OpeningBook::load(Path::new("/nonexistent/book.epd")),
            Err(BookError::Read { .. })
        ));
        assert_eq!("random".parse::<Order>(), Ok(Order::Random));
        assert!("shuffled".parse::<Order>().is_err());
    }
}
