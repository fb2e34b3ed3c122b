//! The report of a run: `report.html`, one self-contained page (result block, LLR and
//! Elo over pairs, pentanomial histogram, end reasons, faults per engine, pairings, and
//! for gauntlets and round robins the rating list), and `summary.md` for CI job
//! summaries. Both are rebuilt from the output folder alone: `run.json`, `games.jsonl`
//! and, when the run has ended, `summary.json`.
//!
//! ```no_run
//! use std::path::Path;
//! use xq_runner::output::report::write_report;
//!
//! let files = write_report(Path::new("out/example-match"))?;
//! println!("{}", files.html.display());
//! # Ok::<(), xq_runner::output::report::ReportError>(())
//! ```
//!
//! | file | what |
//! |---|---|
//! | `input.rs` | reads the folder |
//! | `series.rs` | replays the journal: counts and the per-pair progression |
//! | `facts.rs` | the numbers both outputs show |
//! | `games.rs` | the games the page lists, with their PGN |
//! | `svg.rs`, `charts.rs` | hand-written SVG and the four charts (the tune report draws on `svg.rs` too) |
//! | `html.rs`, `style.css` | the page |
//! | `games_html.rs` | the page's table of games and their PGN |
//! | `over_clock_html.rs` | the page's card of moves over the clock |
//! | `markdown.rs` | `summary.md` |

mod charts;
mod facts;
pub(crate) mod games;
mod games_html;
mod html;
mod input;
mod markdown;
mod over_clock_html;
pub(crate) mod series;
pub(crate) mod svg;

use std::path::{Path, PathBuf};

use thiserror::Error;

pub use facts::Facts;
pub(crate) use html::{card, foot, head, kpi};
pub use input::{read_run, EngineInfo, HeadReading, RunHead, RunInput, RunStatus};

use crate::store::journal::JournalError;

/// The report's page in a run folder.
pub const REPORT_HTML: &str = "report.html";
/// The report for CI job summaries in a run folder.
pub const SUMMARY_MD: &str = "summary.md";

/// The files a report wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportFiles {
    /// `report.html`.
    pub html: PathBuf,
    /// `summary.md`.
    pub markdown: PathBuf,
}

/// Why a report could not be made.
#[derive(Debug, Error)]
pub enum ReportError {
    /// The folder holds no run (no `run.json`).
    #[error("{}: no run here (run.json not found)", .0.display())]
    NoRun(PathBuf),
    /// A file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// `run.json` or `summary.json` is not what a run writes.
    #[error("{}: damaged: {why}", path.display())]
    Damaged { path: PathBuf, why: String },
    /// The journal could not be read.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A report file could not be written.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Reads the run in `dir` and writes `report.html` and `summary.md` there.
///
/// Works on any state of a run: no games yet, no SPRT, no openings, interrupted or still
/// going (then without `summary.json`). A torn last journal line is dropped, as
/// [`Journal::read_all`](crate::store::journal::Journal::read_all) does.
///
/// # Errors
/// [`ReportError::NoRun`] when `dir` has no `run.json`; the other variants when a file
/// cannot be read, is damaged, or a report file cannot be written.
pub fn write_report(dir: &Path) -> Result<ReportFiles, ReportError> {
    write_input(&read_run(dir)?)
}

/// Writes `report.html` and `summary.md` of a run read already (see [`RunHead`]).
///
/// # Errors
/// [`ReportError::Write`] when a file cannot be written.
pub fn write_input(input: &RunInput) -> Result<ReportFiles, ReportError> {
    let dir = &input.dir;
    let (page, summary) = render(input);
    let files = ReportFiles {
        html: dir.join(REPORT_HTML),
        markdown: dir.join(SUMMARY_MD),
    };
    write(&files.html, &page)?;
    write(&files.markdown, &summary)?;
    Ok(files)
}

/// The page and the markdown of a run as strings, without writing them.
#[must_use]
pub fn render(input: &RunInput) -> (String, String) {
    let facts = Facts::new(input);
    (html::page(&facts), markdown::summary_md(&facts))
}

/// Each file whole or not at all: a full disk leaves the old page, not half of one.
fn write(path: &Path, text: &str) -> Result<(), ReportError> {
    crate::atomic_file::write(path, text.as_bytes()).map_err(|source| ReportError::Write {
        path: path.to_owned(),
        source,
    })
}

/// Escapes text for HTML and SVG, in element content and in quoted attributes.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// `+12.34` / `-3.10` with `decimals` decimals, and `0.00` (no sign) when it rounds to
/// zero; `n/a` when not finite.
#[must_use]
pub fn signed(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "n/a".to_owned();
    }
    let text = format!("{v:+.decimals$}");
    match text.get(1..) {
        Some(digits) if digits.chars().all(|c| c == '0' || c == '.') => digits.to_owned(),
        _ => text,
    }
}

/// `v` with `decimals` decimals, `n/a` when not finite (an undefined estimate).
#[must_use]
pub fn fixed(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:.decimals$}")
    } else {
        "n/a".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_signs() {
        assert_eq!(escape("<b a='1'>&\""), "&lt;b a=&#39;1&#39;&gt;&amp;&quot;");
        assert_eq!(signed(12.345, 2), "+12.35");
        assert_eq!(signed(-0.001, 1), "0.0");
        assert_eq!(signed(-3.1, 1), "-3.1");
        assert_eq!(signed(f64::NAN, 1), "n/a");
        assert_eq!(fixed(1199.826, 2), "1199.83");
        assert_eq!(fixed(f64::NAN, 2), "n/a");
    }
}
