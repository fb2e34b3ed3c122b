//! Outputs of a run: PGN, summary JSON, the text result block, the HTML report, the
//! progress display, the files a run leaves when it ends, and `output.pgnout`.

pub mod files;
pub mod over_clock;
pub mod pgn;
pub mod pgn_comment;
pub mod pgn_file;
pub mod pgn_headers;
pub mod pgnout;
pub mod printable;
pub mod progress;
pub mod report;
pub mod settings;
pub mod summary;
pub mod text;
