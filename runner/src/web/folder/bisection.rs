//! A bisection's folder as one page: where it stands, the first bad build it found (the
//! culprit) and the chance its chain of verdicts is wrong, each step's match against
//! build 0 (games, Elo, LLR between its bounds, the verdict) with a link into the step's
//! own run page, and the builds (commit and subject in a git series; those that did
//! not build). Read from `bisect.json`, which the bisector writes whole after each step.

use std::fmt::Write as _;
use std::path::Path;

use super::super::error::WebError;
use super::super::shell::page;
use super::{api_href_group, href};
use crate::bisect::output::chain_error;
use crate::bisect::state::{State, Status};
use crate::output::report::{card, escape, fixed, signed};

/// The state of the bisection in `dir`.
///
/// # Errors
/// [`WebError::Failed`] when `bisect.json` does not read.
pub(crate) fn state(dir: &Path) -> Result<State, WebError> {
    State::read(dir).map_err(|e| WebError::Failed(e.to_string()))
}

/// Where it stands, in words: the culprit once found.
pub(crate) fn standing(state: &State) -> String {
    match (
        state.status,
        state.outcome.as_ref().and_then(|o| o.first_bad),
    ) {
        (Status::Found, Some(b)) => format!(
            "first bad build: {}",
            state
                .builds
                .get(b)
                .map_or_else(|| b.to_string(), |x| x.label(b))
        ),
        (Status::NotWorse, _) => "the bad end is not worse".to_owned(),
        (Status::Found, None) => "found".to_owned(),
        (Status::Running, _) => format!("running, {} steps played", state.steps.len()),
    }
}

fn steps_table(id: &str, state: &State) -> String {
    let mut t = String::from(
        "<table class=\"list\" id=\"steps\"><thead><tr><th class=\"n\">Step</th><th>Build</th>\
         <th class=\"n\">Games</th><th class=\"n\">Elo</th><th class=\"n\">LLR</th><th>Verdict</th>\
         <th>Run</th></tr></thead><tbody>",
    );
    for s in &state.steps {
        let build = state
            .builds
            .get(s.build)
            .map_or_else(|| s.build.to_string(), |b| b.label(s.build));
        let verdict = if s.truncated {
            format!("{} (truncated)", s.verdict.name())
        } else {
            s.verdict.name().to_owned()
        };
        let _ = write!(
            t,
            "<tr data-step=\"{}\"><td class=\"n\" data-l=\"step\">{}</td>\
             <td class=\"build\" data-l=\"build\">{}</td><td class=\"n\" data-l=\"games\">{}</td>\
             <td class=\"n\" data-l=\"Elo\">{} \u{b1} {}</td><td class=\"n\" data-l=\"LLR\">{} ({}, {})</td>\
             <td class=\"verdict\">{}</td><td><a href=\"{}\">{}</a></td></tr>",
            s.step,
            s.step,
            escape(&build),
            s.games,
            signed(s.elo, 2),
            fixed(s.elo_ci95, 2),
            fixed(s.llr, 2),
            fixed(s.llr_lower, 2),
            fixed(s.llr_upper, 2),
            escape(&verdict),
            escape(&href(&format!("{id}/{}", s.dir))),
            escape(&s.dir),
        );
    }
    if state.steps.is_empty() {
        t.push_str("<tr><td colspan=\"7\">no step played yet</td></tr>");
    }
    t.push_str("</tbody></table>");
    t
}

fn builds_table(state: &State) -> String {
    let culprit = state.outcome.as_ref().and_then(|o| o.first_bad);
    let mut t = String::from(
        "<table class=\"list\" id=\"builds\"><thead><tr><th class=\"n\">Build</th><th>Commit</th>\
         <th>Subject</th><th></th></tr></thead><tbody>",
    );
    for (i, b) in state.builds.iter().enumerate() {
        let note = if culprit == Some(i) {
            "first bad"
        } else if state.skipped.contains(&i) {
            "did not build"
        } else {
            ""
        };
        let _ = write!(
            t,
            "<tr><td class=\"n\" data-l=\"build\">{i}</td><td><code>{}</code></td><td>{}</td>\
             <td>{note}</td></tr>",
            escape(b.commit.as_deref().unwrap_or("")),
            escape(b.subject.as_deref().unwrap_or("")),
        );
    }
    t.push_str("</tbody></table>");
    t
}

/// The page of the bisection at `id`, in `dir`.
///
/// # Errors
/// As [`state`].
pub(crate) fn page_of(id: &str, dir: &Path) -> Result<String, WebError> {
    let state = state(dir)?;
    let mut body = format!(
        "<header><div class=\"eyebrow\">xq-runner serve &middot; bisection</div>\
         <h1>Bisection {}</h1></header>\n<p class=\"about\" id=\"culprit\">{}</p>",
        escape(id),
        escape(&standing(&state))
    );
    let error = chain_error(&state).map_or_else(
        || "not known (a step was truncated)".to_owned(),
        |e| format!("{:.1}%", e * 100.0),
    );
    let _ = write!(
        body,
        "<p class=\"note\">{} builds; each step plays a build against build 0, SPRT nElo \
         [{}, 0]; the chance that some verdict, and so the answer, is wrong: {error}.</p>",
        state.builds.len(),
        fixed(-state.design.elo, 1)
    );
    card(&mut body, "Steps", &steps_table(id, &state));
    card(&mut body, "Builds", &builds_table(&state));
    Ok(page(
        &format!("bisection {id} \u{b7} xq-runner"),
        &api_href_group(id),
        &body,
    ))
}
