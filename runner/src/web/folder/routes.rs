//! What each path of a served folder answers. Reading a run's files is file work: it
//! runs on the blocking threads, never on the ones that answer.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::extract::{Path, State};
use axum::response::{Html, IntoResponse, Response};

use super::super::error::WebError;
use super::super::shell::live;
use super::groups::{self, Kind};
use super::pages::{self, FolderEntry, FolderRun, GroupEntry};
use super::source::{is_tune, Folders};
use super::{bisection, scaled, stream, tuned};
use crate::store::folder::TUNE_RUN;
use crate::store::journal::JOURNAL_FILE;
use crate::store::meta::RUN_FILE;

type App = State<Arc<Folders>>;

/// How long the file work of one request (or one slice of a stream) may take. The first
/// reading of a long journal is the slowest honest one (100,000 games in about 2 s);
/// past this, something is stuck (a network file system gone), and the request is
/// answered 503 rather than never.
pub(super) const READ_TIMEOUT: Duration = Duration::from_secs(20);

/// JSON of a value, as an answer.
fn json(value: &impl serde::Serialize) -> Result<Response, WebError> {
    let text = serde_json::to_string(value).map_err(|e| WebError::Failed(e.to_string()))?;
    Ok(([("content-type", "application/json")], text).into_response())
}

/// `work` on a blocking thread, answered within [`READ_TIMEOUT`] (the work, if stuck,
/// is left to its thread: a blocking read cannot be taken back).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    match tokio::time::timeout(READ_TIMEOUT, tokio::task::spawn_blocking(work)).await {
        Ok(done) => done.map_err(|e| WebError::Failed(format!("a request failed: {e}")))?,
        Err(_) => Err(timed_out()),
    }
}

/// The answer of a request whose reading of the folder took over [`READ_TIMEOUT`].
pub(super) fn timed_out() -> WebError {
    WebError::TimedOut(format!(
        "reading the served folder took over {} s (a stalled file system?)",
        READ_TIMEOUT.as_secs()
    ))
}

/// The runs under the served folder, open ones first, then by path.
fn entries(folders: &Folders) -> Vec<FolderEntry> {
    let mut entries: Vec<FolderEntry> = folders
        .run_ids()
        .into_iter()
        .map(|id| {
            let dir = folders.root().join(&id);
            let tune = is_tune(&dir);
            let record = if tune { TUNE_RUN } else { RUN_FILE };
            let submitted_s_ago = std::fs::metadata(dir.join(record))
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok())
                .map_or(f64::NAN, |d| d.as_secs_f64());
            let state = if tune {
                tuned::state(&id, &dir).map(FolderRun::Tune)
            } else {
                folders
                    .with_run(&id, |w| w.state(&id))
                    .map(FolderRun::Match)
            };
            let (run, error) = match state {
                Ok(s) => (Some(s), None),
                Err(e) => (None, Some(e.to_string())),
            };
            FolderEntry {
                id,
                submitted_s_ago,
                run,
                error,
            }
        })
        .collect();
    entries.sort_by_key(|e| e.run.as_ref().is_none_or(|r| r.state() != "open"));
    entries
}

/// The groups under the served folder, each with what the runs page says of it.
fn group_entries(folders: &Folders) -> Vec<GroupEntry> {
    groups::groups(folders.root())
        .into_iter()
        .map(|(id, kind)| {
            let dir = folders.root().join(&id);
            let said = match kind {
                Kind::Bisection => bisection::state(&dir).map(|s| bisection::standing(&s)),
                Kind::Scaling => scaled::results(&dir).map(|r| {
                    let games: u64 = r
                        .points
                        .iter()
                        .flat_map(|p| p.pairings.iter().map(|q| q.games))
                        .sum();
                    format!(
                        "{} settings of {}, {games} games",
                        r.points.len(),
                        r.kind.key()
                    )
                }),
                Kind::Datagen => groups::datagen_summary(&dir)
                    .map(|d| pages::datagen_line(&d))
                    .map_err(WebError::Failed),
            };
            GroupEntry {
                age_s: groups::age_of(&dir),
                id,
                kind,
                said: said.unwrap_or_else(|e| e.to_string()),
            }
        })
        .collect()
}

/// `/`: the runs, and the bisections, scaling runs and datagen folders.
pub(crate) async fn runs_page(State(folders): App) -> Result<Response, WebError> {
    let root = folders.root().display().to_string();
    let (list, groups) = blocking(move || Ok((entries(&folders), group_entries(&folders)))).await?;
    Ok(Html(pages::runs_page(&root, &list, &groups)).into_response())
}

/// `/groups/{path}`: a bisection's or a scaling run's page.
pub(crate) async fn group_page(
    State(folders): App,
    Path(path): Path<String>,
) -> Result<Response, WebError> {
    let page = blocking(move || {
        let (dir, kind) = folders.group_of(&path)?;
        match kind {
            Kind::Bisection => bisection::page_of(&path, &dir),
            Kind::Scaling => scaled::page_of(&path, &dir),
            Kind::Datagen => Err(WebError::NotFound(format!(
                "`{}` is a datagen folder: the runs page lists it",
                path.escape_debug()
            ))),
        }
    })
    .await?;
    Ok(Html(page).into_response())
}

/// `/api/groups/{path}`: a bisection's `bisect.json`, a scaling run's results, a
/// datagen folder's summary.
pub(crate) async fn group_json(
    State(folders): App,
    Path(path): Path<String>,
) -> Result<Response, WebError> {
    blocking(move || {
        let (dir, kind) = folders.group_of(&path)?;
        match kind {
            Kind::Bisection => json(&bisection::state(&dir)?),
            Kind::Scaling => json(&scaled::results(&dir)?),
            Kind::Datagen => json(&groups::datagen_summary(&dir).map_err(WebError::Failed)?),
        }
    })
    .await
}

/// `/api/runs`: the runs, each with its state.
pub(crate) async fn runs_json(State(folders): App) -> Result<Response, WebError> {
    json(&blocking(move || Ok(entries(&folders))).await?)
}

/// `/runs/{path}`: a run's page, or its `games.pgn` or `games.jsonl`.
pub(crate) async fn run(
    State(folders): App,
    Path(path): Path<String>,
) -> Result<Response, WebError> {
    if let Some(id) = path.strip_suffix("/games.jsonl") {
        let id = id.to_owned();
        let dir = blocking(move || games_of(&folders, &id)).await?;
        return Ok(stream::jsonl(&dir));
    }
    if let Some(id) = path.strip_suffix("/games.pgn") {
        let id = id.to_owned();
        return blocking(move || stream::pgn(&games_of(&folders, &id)?)).await;
    }
    let api = super::api_href(&path);
    let dir = folders.folder_of(&path)?;
    let page = if is_tune(&dir) {
        let (report, state) = blocking(move || tuned::page(&path, &dir)).await?;
        live(report, &api, &pages::tune_card(&state))
    } else {
        let (report, state) = blocking(move || folders.with_run(&path, |w| w.page(&path))).await?;
        live(report.as_str().to_owned(), &api, &pages::live_card(&state))
    };
    Ok(Html(page).into_response())
}

/// The folder of run `id`, whose games are asked for: a tune keeps none, and a journal
/// that is not a plain file (a link, a FIFO) is refused before the answer starts.
fn games_of(folders: &Folders, id: &str) -> Result<std::path::PathBuf, WebError> {
    let dir = folders.folder_of(id)?;
    if is_tune(&dir) {
        return Err(WebError::NotFound(format!(
            "`{}` is a tune: it keeps its pairs' results in tune.jsonl, no games",
            id.escape_debug()
        )));
    }
    let journal = dir.join(JOURNAL_FILE);
    match crate::plain_file::read_only(&journal) {
        Ok(_) => Ok(dir),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(dir),
        Err(e) => Err(WebError::Failed(format!("{}: {e}", journal.display()))),
    }
}

/// `/api/runs/{path}`: a run's state.
pub(crate) async fn run_json(
    State(folders): App,
    Path(path): Path<String>,
) -> Result<Response, WebError> {
    let dir = folders.folder_of(&path)?;
    if is_tune(&dir) {
        return json(&blocking(move || tuned::state(&path, &dir)).await?);
    }
    json(&blocking(move || folders.with_run(&path, |w| w.state(&path))).await?)
}

/// `/workers`.
pub(crate) async fn workers_page() -> Response {
    Html(pages::workers_page()).into_response()
}

/// `/api/workers`: none.
pub(crate) async fn workers_json() -> Result<Response, WebError> {
    json(&Vec::<()>::new())
}
