//! Outputs of a run: PGN, summary JSON, the text result block, the HTML report, the
//! progress display, the files a run leaves when it ends, and `output.pgnout`.

pub mod files;
pub(crate) mod over_clock;
pub(crate) mod pgn;
pub(crate) mod pgn_comment;
pub(crate) mod pgn_file;
pub(crate) mod pgn_headers;
pub(crate) mod pgnout;
pub(crate) mod printable;
pub(crate) mod progress;
pub mod report;
pub(crate) mod settings;
pub mod summary;
pub(crate) mod text;
