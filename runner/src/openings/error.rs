//! Why a line of an opening file was rejected, and where.
//!
//! [`LineError`] says what is wrong inside one line (with the move index or the
//! character column); [`OpeningError`] adds the line number, or reports that the
//! file itself could not be read.

use std::io;

use thiserror::Error;
use xq_core::board::{Color, FenError, MoveParseError};

/// What is wrong with one line. Columns count characters from 1; move indices
/// count the moves after the keyword `moves` from 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// The FEN part does not describe a legal position.
    #[error("bad FEN: {0}")]
    Fen(FenError),
    /// Text after a complete FEN that is not introduced by `moves`.
    #[error("unexpected `{text}` after the FEN; moves must follow the keyword `moves`")]
    ExtraText {
        /// The first unexpected token.
        text: String,
    },
    /// A move that is not written as UCCI coordinates.
    #[error("move {index} `{text}` is not a move: {reason}")]
    BadMoveText {
        /// 1-based index of the move after `moves`.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it does not parse.
        reason: MoveParseError,
    },
    /// A well-formed move that the side to move cannot play.
    #[error("move {index} `{text}` is illegal ({side:?} to move)")]
    IllegalMove {
        /// 1-based index of the move after `moves`.
        index: usize,
        /// The move as written.
        text: String,
        /// The side that would have played it.
        side: Color,
    },
    /// A quoted value that never ends.
    #[error("column {column}: unterminated quote in the value of `{key}`")]
    UnterminatedQuote {
        /// The field whose value is unterminated.
        key: String,
        /// Column of the opening quote.
        column: usize,
    },
    /// A field after `;` that is not `key value` or `key "value"`.
    #[error("column {column}: malformed field: {reason}")]
    MalformedField {
        /// Column where the problem starts.
        column: usize,
        /// What is wrong.
        reason: FieldError,
    },
    /// A PGN move that is neither ICCS coordinates nor a WXF name of a legal move.
    #[error("move {index} `{text}` is not a move here: {reason}")]
    UnknownMove {
        /// 1-based index of the move in the game.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it was not understood.
        reason: String,
    },
    /// A PGN tag that is not `[Name "value"]`.
    #[error("malformed tag: {0}")]
    BadTag(String),
    /// A PGN comment or variation that the file never closes.
    #[error("the {what} opened on line {opened} never closes")]
    Unclosed {
        /// `comment` or `variation`.
        what: &'static str,
        /// Where it opened.
        opened: usize,
    },
    /// Text in a PGN game that is no move, number, result, comment or variation.
    #[error("unexpected `{0}` in the moves")]
    UnexpectedText(String),
    /// A PGN game longer than any opening needs.
    #[error("the game has more than {max} moves")]
    GameTooLong {
        /// The limit.
        max: usize,
    },
    /// The line is longer than any opening needs ([`super::lines::MAX_LINE_BYTES`]).
    #[error("line longer than {max} bytes")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// The line is not UTF-8 text.
    #[error("line is not valid UTF-8")]
    NotUtf8,
}

/// Why a field after `;` is malformed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FieldError {
    /// The key is not a name (`[A-Za-z_][A-Za-z0-9_.-]*`).
    #[error("`{0}` is not a field name (a letter or `_`, then letters, digits, `_`, `-`, `.`)")]
    BadKey(String),
    /// A key with nothing after it.
    #[error("`{0}` has no value")]
    MissingValue(String),
    /// Text between a value and the next `;`.
    #[error("unexpected `{text}` after the value of `{key}`")]
    TrailingText {
        /// The field.
        key: String,
        /// The unexpected text.
        text: String,
    },
    /// A quote inside an unquoted value.
    #[error("stray quote in the unquoted value `{0}` (quote the whole value)")]
    StrayQuote(String),
    /// The same key twice on one line.
    #[error("`{0}` appears twice")]
    DuplicateKey(String),
    /// An `eco` value that is not an ECCO code.
    #[error("eco `{0}` is not an ECCO code A00..E99")]
    BadEco(String),
}

/// A problem reading an opening file: a bad line (with its number) or an I/O error.
#[derive(Debug, Error)]
pub enum OpeningError {
    /// One line is invalid; the reader goes on with the next line.
    #[error("line {line}: {kind}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        kind: LineError,
    },
    /// The file could not be read further; the reader stops.
    #[error("read error after line {line}: {source}")]
    Io {
        /// The last line read completely.
        line: usize,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
}

impl OpeningError {
    /// The line number the error refers to.
    #[must_use]
    pub fn line(&self) -> usize {
        match self {
            OpeningError::Line { line, .. } | OpeningError::Io { line, .. } => *line,
        }
    }
}
