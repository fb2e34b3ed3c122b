//! Opening suites: reading, checking and playing from `openings/*.epd` files, and
//! from PGN books ([`PgnReader`]: ICCS or WXF movetext, `[FEN]` starts).
//!
//! One opening per line: a FEN, optionally `moves` and UCCI moves, optionally
//! `; key "value"` fields (`name`, `eco`, and any others); `#` starts a comment.
//! The exact grammar is in `openings/README.md`.
//!
//! - [`parse_line`] reads one line into an [`Opening`] or a typed [`LineError`];
//! - [`OpeningReader`] streams a file, one `Result` per opening line;
//! - [`check_reader`] / [`check`] find every problem of a file with its line
//!   (bad line, illegal move, game already over, duplicate, mirrored duplicate);
//! - [`OpeningBook`] holds a file (or only the openings a run plays) in memory and maps
//!   game pairs to openings ([`Order::Sequential`] or [`Order::Random`] with a seed and
//!   a start index);
//! - [`BookReader`] reads either [`BookFormat`] and says where each opening starts.
//!
//! - [`generate`] makes balanced suites with an engine: sampled lines, filtered
//!   by the engine's score, deduplicated by [`Checker`], reproducible from a seed
//!   through [`SplitMix64`].
//!
//! ```
//! use xq_runner::openings::{check, OpeningReader};
//!
//! let file = "# central cannon, then its mirror image\n\
//!     rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 ; eco B00\n\
//!     rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2 ; eco B00\n";
//! assert_eq!(OpeningReader::new(file.as_bytes()).count(), 2);
//! let (summary, problems) = check(file.as_bytes())?;
//! assert_eq!(summary.openings, 2);
//! assert_eq!(problems[0].to_string(), "line 3: duplicate: the left-right mirror of line 2");
//! # Ok::<(), std::io::Error>(())
//! ```

mod book;
mod check;
mod error;
mod fields;
mod format;
pub(crate) mod generate;
mod line;
mod lines;
mod opening;
mod pgn;
mod reader;

pub use book::OpeningBook;
pub(crate) use book::{BookError, BookUse, OpeningSequence, Order};
pub use check::{check, ProblemKind};
pub(crate) use check::{check_book, Checker};
pub use error::LineError;
pub use fields::is_ecco_code;
pub use format::BookFormat;
pub use line::parse_line;
pub use opening::Opening;
pub use pgn::PgnReader;
pub use reader::OpeningReader;
pub use xq_core::rng::SplitMix64;
