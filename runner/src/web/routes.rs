//! What each path answers: the pages, their JSON, the games' streams and the script.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::response::{Html, IntoResponse, Response};

use super::cache::FRESH_FOR;
use super::error::{run_id, WebError};
use super::list_query::ListQuery;
use super::source::Source;
use super::{down, listing, run_page, runs_list, shell, stream, workers_page};
use crate::store::pg::runs::RunRow;
use crate::store::pg::Db;

type App = State<Arc<Source>>;

/// JSON of a value.
fn json(value: &impl serde::Serialize) -> Result<String, WebError> {
    serde_json::to_string(value).map_err(|e| WebError::Failed(e.to_string()))
}

/// JSON text as an answer.
fn json_answer(text: &str) -> Response {
    ([("content-type", "application/json")], text.to_owned()).into_response()
}

/// The database and the run a path names.
async fn stored_run(source: &Source, id: &str) -> Result<(Arc<Db>, RunRow), WebError> {
    let id = run_id(id)?;
    let db = source.db().await?;
    let run = db.run(id).await?;
    Ok((db, run))
}

/// `/`: the runs (the page's frame while the database is away).
pub(crate) async fn runs_page(State(source): App, RawQuery(q): RawQuery) -> Response {
    let api = match ListQuery::parse(q.as_deref()) {
        Ok(query) => format!("/api/runs{}", query.to_query()),
        Err(_) => "/api/runs".to_owned(),
    };
    down::framed(runs_answer(&source, q).await, &api)
}

async fn runs_answer(source: &Source, q: Option<String>) -> Result<Response, WebError> {
    let query = ListQuery::parse(q.as_deref())?;
    // Keyed by the query as written back: two spellings of one list share an answer.
    let key = format!("/{}", query.to_query());
    let page = source
        .recent
        .answer(&key, FRESH_FOR, || async {
            let db = source.db().await?;
            let runs = listing::runs(&db, &source.folds, &query).await?;
            let fleet = listing::fleet_totals(&listing::workers(&db).await?);
            Ok::<_, WebError>(runs_list::runs_page(&runs, &query, &fleet))
        })
        .await?;
    Ok(Html(page.as_str().to_owned()).into_response())
}

/// `/api/runs`: the page's runs, each with its state as `status --json ID` prints it.
pub(crate) async fn runs_json(
    State(source): App,
    RawQuery(q): RawQuery,
) -> Result<Response, WebError> {
    let query = ListQuery::parse(q.as_deref())?;
    let key = format!("/api/runs{}", query.to_query());
    let text = source
        .recent
        .answer(&key, FRESH_FOR, || async {
            let db = source.db().await?;
            json(&listing::runs(&db, &source.folds, &query).await?.runs)
        })
        .await?;
    Ok(json_answer(&text))
}

/// `/runs/{id}`: a run's page (its frame while the database is away).
pub(crate) async fn run_page(State(source): App, Path(id): Path<String>) -> Response {
    let api = format!("/api/runs/{}", run_id(&id).unwrap_or(0));
    down::framed(run_answer(&source, id).await, &api)
}

async fn run_answer(source: &Source, id: String) -> Result<Response, WebError> {
    let key = format!("/runs/{}", run_id(&id)?);
    let page = source
        .recent
        .answer(&key, FRESH_FOR, || async {
            let (db, run) = stored_run(source, &id).await?;
            run_page::page(&db, &source.reports, &source.folds, &run).await
        })
        .await?;
    Ok(Html(page.as_str().to_owned()).into_response())
}

/// `/api/runs/{id}`: a run's state, exactly as `status --json ID` prints it.
pub(crate) async fn run_json(
    State(source): App,
    Path(id): Path<String>,
) -> Result<Response, WebError> {
    let key = format!("/api/runs/{}", run_id(&id)?);
    let text = source
        .recent
        .answer(&key, FRESH_FOR, || async {
            let (db, run) = stored_run(&source, &id).await?;
            json(&source.folds.state(&db, &run).await?)
        })
        .await?;
    Ok(json_answer(&text))
}

/// `/runs/{id}/games.pgn`.
pub(crate) async fn games_pgn(
    State(source): App,
    Path(id): Path<String>,
) -> Result<Response, WebError> {
    let (db, run) = stored_run(&source, &id).await?;
    stream::pgn(db, &run).await
}

/// `/runs/{id}/games.jsonl`.
pub(crate) async fn games_jsonl(
    State(source): App,
    Path(id): Path<String>,
) -> Result<Response, WebError> {
    let (db, run) = stored_run(&source, &id).await?;
    stream::jsonl(db, &run).await
}

/// `/workers` (its frame while the database is away).
pub(crate) async fn workers_page(State(source): App) -> Response {
    down::framed(workers_answer(&source).await, "/api/workers")
}

async fn workers_answer(source: &Source) -> Result<Response, WebError> {
    let page = source
        .recent
        .answer("/workers", FRESH_FOR, || async {
            let db = source.db().await?;
            Ok::<_, WebError>(workers_page::workers_page(&listing::workers(&db).await?))
        })
        .await?;
    Ok(Html(page.as_str().to_owned()).into_response())
}

/// `/api/workers`.
pub(crate) async fn workers_json(State(source): App) -> Result<Response, WebError> {
    let text = source
        .recent
        .answer("/api/workers", FRESH_FOR, || async {
            let db = source.db().await?;
            json(&listing::workers(&db).await?)
        })
        .await?;
    Ok(json_answer(&text))
}

/// The pages' script.
pub(crate) async fn script() -> Response {
    (
        [("content-type", "text/javascript; charset=utf-8")],
        shell::SCRIPT,
    )
        .into_response()
}

/// Any other path.
pub(crate) async fn not_found() -> WebError {
    WebError::NotFound("no such page".to_owned())
}
