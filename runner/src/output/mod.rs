//! Outputs of a run: the journal (JSON lines), PGN, summary JSON, the text result block,
//! the HTML report and the progress display.

pub mod journal;
pub mod pgn;
pub mod pgn_comment;
pub mod pgn_file;
pub mod progress;
pub mod report;
pub mod settings;
pub mod summary;
pub mod text;
