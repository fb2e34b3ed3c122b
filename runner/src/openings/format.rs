//! The two formats of opening books, EPD (the default) and PGN, behind one reader that
//! also says where in the file each opening starts ([`Place`]), so that a book can keep
//! the places of a million openings instead of the openings.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use super::error::OpeningError;
use super::opening::Opening;
use super::pgn::PgnReader;
use super::reader::OpeningReader;

/// How an opening file is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BookFormat {
    /// One opening per line: FEN, `moves ...`, `; key value` fields.
    #[default]
    Epd,
    /// Games; each game's start and main line is one opening.
    Pgn,
}

impl BookFormat {
    /// The format named in a config (`epd`, `fen`, `pgn`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<BookFormat> {
        match name {
            "epd" | "fen" => Some(BookFormat::Epd),
            "pgn" => Some(BookFormat::Pgn),
            _ => None,
        }
    }

    /// The format of a file by its extension: `.pgn` is PGN, anything else EPD.
    #[must_use]
    pub fn of_path(path: &Path) -> BookFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(ext) if ext.eq_ignore_ascii_case("pgn") => BookFormat::Pgn,
            _ => BookFormat::Epd,
        }
    }
}

/// How many lines [`BookFormat::sniff`] reads at most before it gives up.
const SNIFF_LINES: usize = 200;

impl BookFormat {
    /// The format a file's first line that says anything is written in: a PGN tag
    /// (`[Event ...`) or a FEN (an EPD line); `None` when it cannot tell (a file that
    /// cannot be read, movetext first, comments only). Comments (`#`, `;`, `%`) and
    /// blank lines are skipped.
    #[must_use]
    pub fn sniff(path: &Path) -> Option<BookFormat> {
        let file = std::fs::File::open(path).ok()?;
        let reader = std::io::BufReader::new(file);
        for line in reader.lines().take(SNIFF_LINES) {
            let line = line.ok()?;
            let text = line.trim();
            if text.is_empty() || text.starts_with(['#', ';', '%']) {
                continue;
            }
            if text.starts_with('[') {
                return Some(BookFormat::Pgn);
            }
            let board = text.split_whitespace().next().unwrap_or_default();
            // A Xiangqi board has ten ranks.
            return (board.matches('/').count() == 9).then_some(BookFormat::Epd);
        }
        None
    }
}

impl fmt::Display for BookFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BookFormat::Epd => "epd",
            BookFormat::Pgn => "pgn",
        })
    }
}

/// Where an opening starts in its file: the byte offset of its line, the line's number
/// (1-based) and the byte column in the line (a PGN game may begin after another's
/// result on the same line).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    pub offset: u64,
    pub line: usize,
    pub column: usize,
}

/// The openings of a file in either format, each with its [`Place`].
#[derive(Debug)]
pub enum BookReader<R> {
    Epd(OpeningReader<R>),
    // Boxed: a PGN reader keeps its game's state, many times an EPD reader's size.
    Pgn(Box<PgnReader<R>>),
}

impl<R: BufRead> BookReader<R> {
    /// A reader of a whole file.
    pub fn new(format: BookFormat, inner: R) -> BookReader<R> {
        BookReader::at(format, inner, Place::default())
    }

    /// A reader over `inner`, which is its file from the line of `place` on.
    pub fn at(format: BookFormat, inner: R, place: Place) -> BookReader<R> {
        match format {
            BookFormat::Epd => BookReader::Epd(OpeningReader::starting_at(
                inner,
                place.line.saturating_sub(1),
                place.offset,
            )),
            BookFormat::Pgn => BookReader::Pgn(Box::new(PgnReader::at(inner, place))),
        }
    }

    /// The next opening (or problem) and where it starts.
    pub fn next_with_place(&mut self) -> Option<(Result<Opening, OpeningError>, Place)> {
        match self {
            BookReader::Epd(r) => {
                let result = r.next()?;
                let place = Place {
                    offset: r.line_start(),
                    line: r.line(),
                    column: 0,
                };
                Some((result, place))
            }
            BookReader::Pgn(r) => r.next_with_place(),
        }
    }
}

impl<R: BufRead> Iterator for BookReader<R> {
    type Item = Result<Opening, OpeningError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_with_place().map(|(result, _)| result)
    }
}
