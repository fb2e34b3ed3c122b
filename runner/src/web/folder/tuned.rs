//! A tune's folder, served: its page is the report a local tune writes at its end
//! (one chart per parameter, the results, the `options = {...}` line), drawn from
//! `tune.jsonl` as it grows, so that a tune being played is followed as a match is.

use std::path::Path;

use serde::Serialize;

use super::super::error::WebError;
use crate::store::folder::{TUNE_JOURNAL, TUNE_RUN};
use crate::tune::folder::TuneMeta;
use crate::tune::journal::{self, Record};
use crate::tune::outputs::{TuneSummary, TUNE_JSON};

/// A tune folder's state, as `/api/runs/{path}` answers it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct TuneStatus {
    pub id: String,
    /// Always `tune`: what tells a tune's entry from a match's.
    pub kind: &'static str,
    /// The tuned engine.
    pub title: String,
    /// `open`, `finished`, `aborted` or `stopped`, as a match folder's.
    pub state: String,
    pub status: String,
    /// Iterations (pairs) finished, of those planned.
    pub played: u64,
    pub iterations: u64,
    pub params: usize,
    /// theta now, rounded, for an `[[engine]]` table.
    pub options_line: String,
}

/// The folder's config, records and summary now.
fn read(dir: &Path) -> Result<(String, Vec<Record>, TuneSummary), WebError> {
    let meta_path = dir.join(TUNE_RUN);
    let text = crate::plain_file::read_to_string(&meta_path)
        .map_err(|e| WebError::NotFound(format!("{}: no tune here ({e})", meta_path.display())))?;
    let meta: TuneMeta = serde_json::from_str(&text)
        .map_err(|e| WebError::Failed(format!("{}: {e}", meta_path.display())))?;
    let tune = crate::tune::config::parse(
        &meta_path.display().to_string(),
        &meta.config,
        &[],
        Vec::new(),
    )
    .map_err(|e| WebError::Failed(e.to_string()))?;
    // A line cut off by a kill is left out, as a resume would.
    let (records, _) = journal::read(&dir.join(TUNE_JOURNAL))
        .or_else(|e| match e {
            journal::JournalError::Io { ref source, .. }
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                Ok((Vec::new(), 0))
            }
            e => Err(e),
        })
        .map_err(|e| WebError::Failed(e.to_string()))?;
    let theta = journal::theta_after(&tune.params, &records);
    let summary = TuneSummary::new(
        tune.plan.engines[0].spec.name.trim_end_matches('+'),
        tune.schedule.iterations,
        &tune.params,
        &theta,
        &records,
        &ended_status(dir),
    );
    Ok((meta.config, records, summary))
}

/// How the tune's own `tune.json` says it ended (written when it stops), if it did.
fn ended_status(dir: &Path) -> String {
    crate::plain_file::read_to_string(&dir.join(TUNE_JSON))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|v| v.get("status")?.as_str().map(str::to_owned))
        .unwrap_or_else(|| "in progress".to_owned())
}

fn status_of(id: &str, dir: &Path, summary: &TuneSummary) -> TuneStatus {
    let (state, status) = if super::ended::played(dir) {
        ("open", "open".to_owned())
    } else if summary.status == "finished" {
        ("finished", summary.status.clone())
    } else if summary.status.starts_with("aborted") {
        ("aborted", summary.status.clone())
    } else {
        (
            "stopped",
            "stopped before its last iteration: `xq-runner tune CONFIG --resume` continues it"
                .to_owned(),
        )
    };
    TuneStatus {
        id: id.to_owned(),
        kind: "tune",
        title: summary.engine.clone(),
        state: state.to_owned(),
        status,
        played: summary.played,
        iterations: summary.iterations,
        params: summary.params.len(),
        options_line: summary.options_line.clone(),
    }
}

/// The state of the tune in `dir`, `id` being its path under the served folder.
///
/// # Errors
/// [`WebError::NotFound`] without `tune-run.json`; [`WebError::Failed`] when its
/// config or journal does not read.
pub(crate) fn state(id: &str, dir: &Path) -> Result<TuneStatus, WebError> {
    let (_, _, summary) = read(dir)?;
    Ok(status_of(id, dir, &summary))
}

/// The report of the tune in `dir` and its state.
///
/// # Errors
/// As [`state`].
pub(crate) fn page(id: &str, dir: &Path) -> Result<(String, TuneStatus), WebError> {
    let (config, records, summary) = read(dir)?;
    let page = crate::tune::report::html(&summary, &records, &config);
    Ok((page, status_of(id, dir, &summary)))
}
