//! A page asked for while the database is away: the page's frame (links, the live line
//! saying so, the message), 503, rather than the bare line of [`WebError`]; its script
//! draws the page once the database answers. JSON and the games' streams keep the line.

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use super::error::WebError;
use super::shell::down_page;

/// `result`, or the frame of the page polling `api` when the database is away.
pub(crate) fn framed(result: Result<Response, WebError>, api: &str) -> Response {
    match result {
        Ok(page) => page,
        Err(e @ WebError::Unreachable) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Html(down_page(api, &e.to_string())),
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}
