//! `xq-runner serve DIR`: the same pages for the run folders under a local folder, a
//! run followed live from its journal as `xq-runner run` writes it (read as it grows,
//! never locked: the runner is neither held up nor refused).
//!
//! | file | what |
//! |---|---|
//! | `source.rs` | the run folders under the served folder, and what path names which |
//! | `watched.rs` | one run followed: its journal read as it grows, replayed as `report` does |
//! | `groups.rs` | the folders that are more than one run: bisections, scaling runs, datagen |
//! | `bisection.rs`, `scaled.rs` | a bisection's page, a scaling run's page |
//! | `tuned.rs` | a tune's folder: its report drawn from `tune.jsonl` as it grows |
//! | `ended.rs` | whether a runner plays into a folder, and how its run ended |
//! | `routes.rs` | what each path answers |
//! | `pages.rs` | the runs page, a run's live card, the (empty) workers page |
//! | `stream.rs` | a run's `games.jsonl` and `games.pgn`, streamed from its journal |

mod bisection;
mod ended;
mod groups;
mod pages;
mod routes;
mod scaled;
mod source;
mod stream;
mod tuned;
mod watched;

use std::path::Path;
use std::sync::Arc;

use axum::routing::get;
use axum::Router;

/// The link of run `id`: its path under `/runs/`, each byte that is not plain in a
/// path percent-encoded (a folder may be called anything).
pub(crate) fn href(id: &str) -> String {
    format!("/runs/{}", encode(id))
}

/// The link of group `id` (a bisection's or a scaling run's page).
pub(crate) fn group_href(id: &str) -> String {
    format!("/groups/{}", encode(id))
}

/// The link of the JSON of group `id`.
pub(crate) fn api_href_group(id: &str) -> String {
    format!("/api/groups/{}", encode(id))
}

/// The link of the JSON of run `id`.
pub(crate) fn api_href(id: &str) -> String {
    format!("/api/runs/{}", encode(id))
}

fn encode(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The pages of the run folders under `root`.
///
/// # Errors
/// One line when `root` is not a folder.
pub(crate) fn router(root: &Path) -> Result<Router, String> {
    let folders = Arc::new(source::Folders::new(root)?);
    Ok(Router::new()
        .route("/", get(routes::runs_page))
        .route("/workers", get(routes::workers_page))
        .route("/runs/{*path}", get(routes::run))
        .route("/api/runs", get(routes::runs_json))
        .route("/api/runs/{*path}", get(routes::run_json))
        .route("/api/workers", get(routes::workers_json))
        .route("/groups/{*path}", get(routes::group_page))
        .route("/api/groups/{*path}", get(routes::group_json))
        .route(super::shell::SCRIPT_PATH, get(super::routes::script))
        .fallback(super::routes::not_found)
        .layer(axum::middleware::map_response(super::headers))
        .with_state(folders))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_name_is_encoded_in_its_link() {
        assert_eq!(href("out/a-1_b.c"), "/runs/out/a-1_b.c");
        assert_eq!(href("a b#?\"<象"), "/runs/a%20b%23%3F%22%3C%E8%B1%A1");
    }
}
