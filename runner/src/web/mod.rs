//! `xq-runner serve`: read-only web pages of the runs in the database, live.
//!
//! | file | what |
//! |---|---|
//! | `source.rs` | the connection, opened again after an outage |
//! | `cache.rs` | the last report drawn of each run, and each answer made less than 1 s ago |
//! | `fold.rs` | each run's counts and report reading, kept and brought up to date |
//! | `routes.rs` | what each path answers |
//! | `list_query.rs` | the runs list's query: state, submitter, page, read strictly and written encoded |
//! | `listing.rs` | the runs and workers the lists show (states from `fleet::status`) |
//! | `runs_list.rs`, `result_box.rs` | the runs page, fishtest's list: a row per run, its coloured result box |
//! | `pages.rs` | the parts the pages share |
//! | `workers_page.rs` | the workers page: machine, state by heartbeat, bench, games a minute |
//! | `down.rs` | a page's frame saying the database is away, on a fresh load |
//! | `estimate.rs` | what is left of an open run: games to a bound at the LLR's drift, else pairs |
//! | `workers_table.rs` | the workers of one run, on a match's page and a tune's |
//! | `tune_card.rs` | a stored tune's live card: pairs, batches, values so far, workers |
//! | `run_page.rs` | a run's page: the report of `output::report` (or a tune's), live |
//! | `stream.rs` | a run's `games.pgn` and `games.jsonl`, streamed |
//! | `shell.rs`, `live.js` | what every page has around it, and its polling script |
//! | `error.rs` | failures as one line and a status code |
//! | `folder/` | the same pages for the run folders under a local folder (`serve DIR`) |

mod cache;
mod down;
mod error;
mod estimate;
mod fold;
mod folder;
mod headline;
mod list_query;
mod listing;
mod pages;
mod result_box;
mod routes;
mod run_page;
mod runs_list;
mod shell;
mod source;
mod stream;
mod tune_card;
mod workers_page;
mod workers_table;

use std::sync::Arc;

use axum::http::HeaderValue;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use crate::store::pg::{Db, Target};

pub(crate) use folder::router as folder_router;

/// What the pages may load: their own script and JSON, nothing from another host, no
/// inline script (a name that slipped through escaping could not run).
const POLICY: &str = "default-src 'none'; script-src 'self'; connect-src 'self'; \
     style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/// Headers of every answer: the policy, and no caching of live numbers.
async fn headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert("content-security-policy", HeaderValue::from_static(POLICY));
    h.insert("cache-control", HeaderValue::from_static("no-store"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// The pages of the database at `target`, reached through `db`.
pub(crate) fn router(target: Target, db: Db) -> Router {
    let source = Arc::new(source::Source::new(target, db));
    Router::new()
        .route("/", get(routes::runs_page))
        .route("/workers", get(routes::workers_page))
        .route("/runs/{id}", get(routes::run_page))
        .route("/runs/{id}/games.pgn", get(routes::games_pgn))
        .route("/runs/{id}/games.jsonl", get(routes::games_jsonl))
        .route("/api/runs", get(routes::runs_json))
        .route("/api/runs/{id}", get(routes::run_json))
        .route("/api/workers", get(routes::workers_json))
        .route(shell::SCRIPT_PATH, get(routes::script))
        .fallback(routes::not_found)
        .layer(axum::middleware::map_response(headers))
        .with_state(source)
}
