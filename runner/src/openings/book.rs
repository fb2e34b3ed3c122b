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
//! order repeats.
//!
//! # Memory
//! A run loads its book with [`OpeningBook::load_used`]: every opening of the file is
//! read and checked (a bad one fails the load, as before), but only the place in the
//! file of each is kept (16 bytes); then the openings the run's rounds play are read
//! again from their places and kept. A 2-pair run on a book of a million lines keeps two
//! openings, and the same openings as a book held whole (the mapping needs only `n`). The same file, order, seed and start give the same mapping on
//! every machine and in every version (the generator is fixed, see [`super::rng`]).
//! Both games of a pair play the same opening with colours swapped.

use std::collections::BTreeSet;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Deserialize;
use thiserror::Error;

use super::error::{LineError, OpeningError};
use super::format::{BookFormat, BookReader, Place};
use super::opening::{GameOver, Opening};
use xq_core::rng::SplitMix64;
use xq_core::rules::Rules;

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
    /// A game from an opening would be over before the first move: a 0-ply game.
    #[error("{}:{line}: {over}", path.display())]
    Over {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// How the judge ends the game.
        over: GameOver,
    },
    /// The file has no opening at all.
    #[error("{} has no openings", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// An opening read again from its place is not what was read there first.
    #[error("{}:{line}: the file changed while it was read", path.display())]
    Changed {
        /// The file.
        path: PathBuf,
        /// The line of the opening.
        line: usize,
    },
}

/// What a run needs of a book: its format, the order and start of the openings, how
/// many rounds it plays, and how many plies of each opening to keep.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BookUse {
    pub format: BookFormat,
    pub order: Order,
    pub seed: u64,
    /// 0-based index of the first opening.
    pub start: usize,
    /// Rounds the run plays (a pair of each pairing per round).
    pub rounds: u64,
    /// Keep at most this many plies of each opening (fastchess's `plies=`).
    pub plies: Option<usize>,
    /// The rules the games are judged by: an opening they end before the first move
    /// is refused.
    pub rules: Rules,
}

/// The openings of one file, for random access by their index in the file: all of them,
/// or only those a run plays.
#[derive(Debug, Clone)]
pub struct OpeningBook {
    /// Openings in the file.
    len: usize,
    /// The openings kept, in file order.
    openings: Vec<Opening>,
    /// The file index of each kept opening, when not all are kept.
    index: Option<Vec<usize>>,
}

/// An opening's place, packed: a run on a million openings keeps a million of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spot {
    offset: u64,
    line: u32,
    column: u32,
}

impl Spot {
    fn new(place: Place) -> Spot {
        Spot {
            offset: place.offset,
            line: u32::try_from(place.line).unwrap_or(u32::MAX),
            column: u32::try_from(place.column).unwrap_or(u32::MAX),
        }
    }

    fn place(self) -> Place {
        Place {
            offset: self.offset,
            line: self.line as usize,
            column: self.column as usize,
        }
    }
}

/// The reader's error as a book error.
fn book_error(path: &Path, e: OpeningError) -> BookError {
    let path = path.to_owned();
    match e {
        OpeningError::Line { line, kind } => BookError::Invalid { path, line, kind },
        OpeningError::Io { source, .. } => BookError::Read { path, source },
    }
}

fn open(path: &Path) -> Result<File, BookError> {
    File::open(path).map_err(|source| BookError::Read {
        path: path.to_owned(),
        source,
    })
}

impl OpeningBook {
    /// Loads a whole file, EPD or PGN by its extension.
    ///
    /// # Errors
    /// [`BookError`]: unreadable file, first invalid line, or no openings.
    pub fn load(path: &Path) -> Result<OpeningBook, BookError> {
        OpeningBook::load_as(path, BookFormat::of_path(path))
    }

    /// Loads a whole file in `format`.
    ///
    /// # Errors
    /// As [`OpeningBook::load`].
    pub fn load_as(path: &Path, format: BookFormat) -> Result<OpeningBook, BookError> {
        let file = open(path)?;
        OpeningBook::read(BookReader::new(format, BufReader::new(file)), path)
    }

    /// Reads an EPD book from any reader; `path` only names it in errors.
    ///
    /// # Errors
    /// As [`OpeningBook::load`].
    pub fn from_reader(reader: impl BufRead, path: &Path) -> Result<OpeningBook, BookError> {
        OpeningBook::read(BookReader::new(BookFormat::Epd, reader), path)
    }

    fn read<R: BufRead>(reader: BookReader<R>, path: &Path) -> Result<OpeningBook, BookError> {
        let mut openings = Vec::new();
        for result in reader {
            openings.push(result.map_err(|e| book_error(path, e))?);
        }
        OpeningBook::from_openings(openings).ok_or_else(|| BookError::Empty {
            path: path.to_owned(),
        })
    }

    /// The openings of `path` that a run plays, and its schedule: every opening is read
    /// and checked, only the places are kept, then the openings of the rounds played
    /// are read again from their places (see the module docs).
    ///
    /// # Errors
    /// As [`OpeningBook::load`], and [`BookError::Changed`] when the file changed
    /// between the two readings.
    pub fn load_used(
        path: &Path,
        using: &BookUse,
    ) -> Result<(OpeningBook, OpeningSequence), BookError> {
        let file = open(path)?;
        let mut reader = BookReader::new(using.format, BufReader::new(file));
        let mut spots = Vec::new();
        while let Some((result, place)) = reader.next_with_place() {
            let mut opening = result.map_err(|e| book_error(path, e))?;
            // Refused like an illegal move: a game from it would end before the
            // engines move, counted as played. Judged as it will be played, cut.
            if let Some(plies) = using.plies {
                opening.truncate(plies);
            }
            if let Some(over) = opening.game_over(using.rules) {
                return Err(BookError::Over {
                    path: path.to_owned(),
                    line: opening.line,
                    over,
                });
            }
            spots.push(Spot::new(place));
        }
        if spots.is_empty() {
            return Err(BookError::Empty {
                path: path.to_owned(),
            });
        }
        let len = spots.len();
        let schedule = OpeningSequence::new(len, using.order, using.seed, using.start);
        let rounds = using.rounds.min(len as u64);
        let needed: BTreeSet<usize> = (0..rounds).map(|r| schedule.index(r)).collect();
        let mut book = if needed.len() == len {
            OpeningBook::load_as(path, using.format)?
        } else {
            OpeningBook::read_at(path, using.format, &spots, &needed)?
        };
        if book.len != len {
            return Err(BookError::Changed {
                path: path.to_owned(),
                line: 0,
            });
        }
        if let Some(plies) = using.plies {
            for opening in &mut book.openings {
                opening.truncate(plies);
            }
        }
        Ok((book, schedule))
    }

    /// The openings at the places `spots[i]` for `i` in `needed`.
    fn read_at(
        path: &Path,
        format: BookFormat,
        spots: &[Spot],
        needed: &BTreeSet<usize>,
    ) -> Result<OpeningBook, BookError> {
        let mut file = open(path)?;
        let mut openings = Vec::with_capacity(needed.len());
        for &i in needed {
            let spot = spots[i];
            let read_error = |source| BookError::Read {
                path: path.to_owned(),
                source,
            };
            file.seek(SeekFrom::Start(spot.offset))
                .map_err(read_error)?;
            let mut reader = BookReader::at(format, BufReader::new(&mut file), spot.place());
            let changed = || BookError::Changed {
                path: path.to_owned(),
                line: spot.line as usize,
            };
            match reader.next_with_place() {
                Some((Ok(opening), place)) if Spot::new(place) == spot => openings.push(opening),
                Some((Err(e), _)) => return Err(book_error(path, e)),
                _ => return Err(changed()),
            }
        }
        Ok(OpeningBook {
            len: spots.len(),
            openings,
            index: Some(needed.iter().copied().collect()),
        })
    }

    /// A book of these openings; `None` when there are none.
    #[must_use]
    pub fn from_openings(openings: Vec<Opening>) -> Option<OpeningBook> {
        (!openings.is_empty()).then_some(OpeningBook {
            len: openings.len(),
            openings,
            index: None,
        })
    }

    /// The number of openings in the file (at least 1), kept or not.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always `false`: a book has at least one opening.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The openings kept, in file order (all of them for a book loaded whole).
    #[must_use]
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// The opening at `index` in the file, if it is kept.
    #[must_use]
    pub fn get(&self, index: usize) -> Option<&Opening> {
        match &self.index {
            None => self.openings.get(index),
            Some(kept) => kept
                .binary_search(&index)
                .ok()
                .and_then(|k| self.openings.get(k)),
        }
    }

    /// The play order for a run (see the module docs for the mapping).
    #[must_use]
    pub fn schedule(&self, order: Order, seed: u64, start: usize) -> OpeningSequence {
        OpeningSequence::new(self.len, order, seed, start)
    }

    /// The opening that pair `pair` plays under `schedule`, if it is kept.
    ///
    /// # Panics
    /// If `schedule` was made for a book of another size.
    #[must_use]
    pub fn for_pair(&self, schedule: &OpeningSequence, pair: u64) -> Option<&Opening> {
        assert_eq!(schedule.len, self.len(), "schedule made for another book");
        self.get(schedule.index(pair))
    }
}

/// Which opening (index in file order) each pair plays; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningSequence {
    len: usize,
    start: usize,
    permutation: Option<Vec<usize>>,
}

impl OpeningSequence {
    /// The play order of a book of `len` openings (at least 1).
    #[must_use]
    pub fn new(len: usize, order: Order, seed: u64, start: usize) -> OpeningSequence {
        let len = len.max(1);
        let permutation = match order {
            Order::Sequential => None,
            Order::Random => {
                let mut perm: Vec<usize> = (0..len).collect();
                SplitMix64::new(seed).shuffle(&mut perm);
                Some(perm)
            }
        };
        OpeningSequence {
            len,
            start: start % len,
            permutation,
        }
    }

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

    fn names(
        book: &OpeningBook,
        schedule: &OpeningSequence,
        pairs: std::ops::Range<u64>,
    ) -> Vec<String> {
        pairs
            .map(|p| {
                book.for_pair(schedule, p)
                    .and_then(|o| o.name.clone())
                    .unwrap_or_default()
            })
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

    /// A file of `n` openings, each line a different one (the start position with a
    /// name, and a move on every other line).
    fn book_file(n: usize) -> tempfile::NamedTempFile {
        let mut text = String::from("# a book\n\n");
        for i in 0..n {
            let moves = if i % 2 == 0 { " moves h2e2 h9g7" } else { "" };
            text.push_str(&format!("{START_FEN}{moves} ; name o{i}\n"));
            if i % 7 == 0 {
                text.push_str("# a comment between openings\n");
            }
        }
        let file = tempfile::NamedTempFile::new().expect("temp file");
        std::fs::write(file.path(), text).expect("write");
        file
    }

    #[test]
    fn a_run_keeps_only_its_openings_and_the_same_ones() {
        let file = book_file(300);
        let whole = OpeningBook::load(file.path()).expect("whole");
        for order in [Order::Sequential, Order::Random] {
            for start in [0, 17] {
                for rounds in [1, 2, 5, 299, 300, 5000] {
                    let using = BookUse {
                        order,
                        seed: 99,
                        start,
                        rounds,
                        ..BookUse::default()
                    };
                    let (book, schedule) =
                        OpeningBook::load_used(file.path(), &using).expect("used");
                    assert_eq!(schedule, whole.schedule(order, 99, start));
                    assert_eq!(book.len(), 300);
                    assert_eq!(
                        book.openings().len() as u64,
                        rounds.min(300),
                        "only the used ones"
                    );
                    for r in 0..rounds.min(700) {
                        assert_eq!(
                            book.for_pair(&schedule, r),
                            whole.for_pair(&schedule, r),
                            "{order} start {start} rounds {rounds}: round {r}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn plies_truncate_the_openings_played() {
        let file = book_file(4);
        let using = BookUse {
            rounds: 4,
            plies: Some(1),
            ..BookUse::default()
        };
        let (book, _) = OpeningBook::load_used(file.path(), &using).expect("used");
        let first = book.get(0).expect("kept");
        assert_eq!(first.moves.len(), 1);
        assert_eq!(
            first.position().side_to_move(),
            xq_core::board::Color::Black
        );
        assert_eq!(book.get(1).map(|o| o.moves.len()), Some(0));
    }

    #[test]
    fn an_opening_already_over_is_refused_like_an_illegal_move() {
        let twice = "b0c2 b9c7 c2b0 c7b9";
        let text = format!(
            "{START_FEN} moves h2e2\n\n{START_FEN} moves {twice} {twice}\n3k5/9/9/9/9/9/9/9/9/4K4 w\n"
        );
        let file = tempfile::NamedTempFile::new().expect("temp file");
        std::fs::write(file.path(), text).expect("write");
        let load = |rules, plies| {
            let using = BookUse {
                rounds: 1,
                plies,
                rules,
                ..BookUse::default()
            };
            OpeningBook::load_used(file.path(), &using).map(|(book, _)| book.len())
        };
        let name = file.path().display().to_string();
        let refused = load(Rules::default(), None).map_err(|e| e.to_string());
        assert_eq!(
            refused,
            Err(format!(
                "{name}:3: the game is already over: its moves repeat a position (repetition: 1/2-1/2)"
            ))
        );
        // Under the computer ruleset a third time is no repetition yet: the bare kings
        // of line 4 end the game under any rules.
        let computer = Rules::new(xq_core::rules::Ruleset::Computer);
        assert!(matches!(
            load(computer, None),
            Err(BookError::Over { line: 4, .. })
        ));
        // Cut to 4 plies the repetition is not there yet.
        let cut = load(Rules::default(), Some(4)).map_err(|e| e.to_string());
        assert!(cut.as_ref().is_err_and(|e| e.contains(":4: ")), "{cut:?}");
    }

    #[test]
    fn a_file_that_changed_between_the_readings_is_refused() {
        let file = book_file(10);
        let mut reader = BookReader::new(
            BookFormat::Epd,
            BufReader::new(open(file.path()).expect("open")),
        );
        let spots: Vec<Spot> = std::iter::from_fn(|| reader.next_with_place())
            .map(|(r, place)| {
                assert!(r.is_ok());
                Spot::new(place)
            })
            .collect();
        let other = book_file(3);
        let needed: BTreeSet<usize> = [8].into_iter().collect();
        assert!(matches!(
            OpeningBook::read_at(other.path(), BookFormat::Epd, &spots, &needed),
            Err(BookError::Changed { .. })
        ));
        let book =
            OpeningBook::read_at(file.path(), BookFormat::Epd, &spots, &needed).expect("same");
        assert_eq!(book.get(8).and_then(|o| o.name.as_deref()), Some("o8"));
        assert!(book.get(7).is_none());
    }
}
