//! What a request can fail with, and the answer each gets: one line of text and a
//! status code, never a trace, never the database's address with its password.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use thiserror::Error;

use crate::fleet::status::StateError;
use crate::store::pg::DbError;

/// Why a page or its JSON could not be made.
#[derive(Debug, Error)]
pub(crate) enum WebError {
    /// No such page, run or file.
    #[error("not found: {0}")]
    NotFound(String),
    /// A path or a query that cannot name anything (`/runs/abc`).
    #[error("bad request: {0}")]
    BadPath(String),
    /// The database is down or the connection broke: the page says so and polls on.
    #[error("database unreachable")]
    Unreachable,
    /// The database answered with an error, or a stored run does not read here.
    #[error("{0}")]
    Failed(String),
    /// Reading a served folder's files took too long (a stalled file system): said,
    /// rather than a page that never comes.
    #[error("{0}")]
    TimedOut(String),
}

impl From<DbError> for WebError {
    fn from(e: DbError) -> WebError {
        match e {
            DbError::NoRun(id) => WebError::NotFound(format!("no run {id}")),
            e if e.is_transient() => WebError::Unreachable,
            // Connect errors name the target by `Target::describe`, which has no password.
            e => WebError::Failed(e.to_string()),
        }
    }
}

impl From<StateError> for WebError {
    fn from(e: StateError) -> WebError {
        match e {
            StateError::Db(e) => e.into(),
            StateError::Stored(why) => WebError::Failed(why),
        }
    }
}

impl WebError {
    fn status(&self) -> StatusCode {
        match self {
            WebError::NotFound(_) => StatusCode::NOT_FOUND,
            WebError::BadPath(_) => StatusCode::BAD_REQUEST,
            WebError::Unreachable | WebError::TimedOut(_) => StatusCode::SERVICE_UNAVAILABLE,
            WebError::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        if matches!(self, WebError::Failed(_) | WebError::TimedOut(_)) {
            tracing::warn!("{self}");
        }
        let mut line = self.to_string();
        line.push('\n');
        (
            self.status(),
            [("content-type", "text/plain; charset=utf-8")],
            line,
        )
            .into_response()
    }
}

/// A run id from a path: a number, else 400.
pub(crate) fn run_id(text: &str) -> Result<i64, WebError> {
    text.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| WebError::BadPath(format!("`{}` is not a run id", text.escape_debug())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_id_is_a_positive_number() {
        assert_eq!(run_id("12").ok(), Some(12));
        for bad in ["abc", "0", "-1", "1.5", "", "99999999999999999999"] {
            assert!(matches!(run_id(bad), Err(WebError::BadPath(_))), "{bad}");
        }
        assert_eq!(
            WebError::from(DbError::NoRun(7)).status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            WebError::from(DbError::Connection("closed".to_owned())).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
}
