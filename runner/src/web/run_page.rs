//! The page of one stored run: the report a local run writes (`output::report`, the
//! same look and numbers: LLR and Elo over pairs, pentanomial histogram, end reasons,
//! faults, rating table, the config), made from the run's stored games, with the live
//! parts on top: the figures of `status --json` (games, Elo, LLR, verdict), the batches
//! in flight, and each worker. A tune's page is the local tune's report.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use super::cache::{Drawn, Reports};
use super::fold::Folds;

use super::error::WebError;
use super::headline::{figure, headline_of};
use super::shell::live;
use crate::fleet::about::About;
use crate::fleet::status::Status;
use crate::output::report::{escape, render, HeadReading, RunHead, RunStatus};
use crate::store::pg::runs::RunRow;
use crate::store::pg::Db;

/// Pairs read from the database at a time: a long run's games never sit in memory whole.
pub(crate) const SLICE: i64 = 4096;

/// Games a run page lists with their PGN, of the first ones and of those ended by a
/// fault (the report of a folder lists more): a game's PGN is a few kilobytes, and the
/// page of a run of any length must stay light; every game is in `games.pgn`.
const FIRST_GAMES: usize = 10;
const FAULT_GAMES: usize = 10;

/// Keeps the first [`FIRST_GAMES`] games and the first [`FAULT_GAMES`] ended by a fault.
pub(crate) fn fewer_games(rows: &mut Vec<crate::output::report::games::GameRow>) {
    let (mut first, mut faults) = (0, 0);
    rows.retain(|g| {
        let (count, cap) = if g.fault {
            (&mut faults, FAULT_GAMES)
        } else {
            (&mut first, FIRST_GAMES)
        };
        *count += 1;
        *count <= cap
    });
}

/// The live card of a match run.
fn live_card(s: &Status) -> String {
    let mut out = about_card(&s.about);
    out.push_str(&headline_of!(s).open_card());
    figure(
        &mut out,
        "in-flight",
        "Batches in flight",
        &format!("{} pairs", s.pairs_claimed),
        &format!(
            "{} waiting, {} not handed out",
            s.pairs_expired, s.pairs_left
        ),
    );
    let method = match super::estimate::left(s) {
        Some(left) => {
            figure(&mut out, "left", "Left (estimate)", &left.value, &left.sub);
            format!(
                "<p class=\"note\" id=\"left-method\">{}</p>",
                super::estimate::METHOD
            )
        }
        None => String::new(),
    };
    out.push_str("</div>");
    out.push_str(&method);
    let _ = writeln!(
        out,
        "<h2 style=\"margin-top:16px\">Workers</h2>{}\
         <p class=\"meta\">Every game: <a href=\"/runs/{id}/games.pgn\">games.pgn</a> &middot; \
         <a href=\"/runs/{id}/games.jsonl\">games.jsonl</a> &middot; \
         <a href=\"/api/runs/{id}\">JSON</a></p></section>",
        super::workers_table::workers_table(&s.workers),
        id = s.id
    );
    out
}

/// The page of match run `run`, from its kept state.
///
/// # Errors
/// The database's; [`WebError::Failed`] when the stored config does not read here.
pub(crate) async fn match_page(
    db: &Db,
    reports: &Reports,
    folds: &Folds,
    run: &RunRow,
) -> Result<String, WebError> {
    let (state, report) = folds
        .match_status(db, run, |fold, state| {
            let drawn = Drawn {
                games: state.games,
                state: run.state.clone(),
                status: run.status.clone(),
            };
            let report = match reports.get(run.id, &drawn) {
                Some(report) => Ok(report),
                // Drawn while the state is held: the other pages of the run wait for
                // this drawing rather than draw it too.
                None => report(run, fold.reading().clone()).map(|report| {
                    let report = Arc::new(report);
                    reports.keep(run.id, drawn, Arc::clone(&report));
                    report
                }),
            };
            (state, report)
        })
        .await?;
    Ok(live(
        report?.as_str().to_owned(),
        &format!("/api/runs/{}", run.id),
        &live_card(&state),
    ))
}

/// A stored run's marker and words while it has no ending (an open run, or one whose
/// stored ending does not read here): live, not a local folder's "no summary.json".
fn pending(run: &RunRow) -> (&'static str, String) {
    if run.is_open() {
        (
            "RUNNING",
            format!(
                "open: the workers are playing it, {} of {} pairs done; this page follows each batch",
                run.pairs_done, run.total_pairs
            ),
        )
    } else {
        ("ENDED", format!("{}: {}", run.state, run.status))
    }
}

/// What is known of an engine besides its build: the name it announced, its bench
/// signature and speed, the commit `bisect` built it from, each escaped; nothing where
/// none is.
fn measured(e: &crate::fleet::about::EngineBuild) -> String {
    let mut parts = Vec::new();
    if let Some(a) = &e.announced {
        parts.push(format!("<span class=\"announced\">{}</span>", escape(a)));
    }
    if let Some(b) = e.bench {
        parts.push(format!("bench <span class=\"bench\">{b}</span>"));
    }
    if let Some(c) = &e.commit {
        parts.push(format!(
            "commit <code class=\"commit\">{}</code>",
            escape(crate::bisect::state::short(c))
        ));
    }
    if let Some(n) = e.nps {
        parts.push(format!(
            "<span class=\"nps\">{}</span>",
            super::workers_page::nps(Some(n as f64))
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(
            " <span class=\"sub measured\">({})</span>",
            parts.join(", ")
        )
    }
}

/// What the run is, above its live card: its description, who submitted it, and its
/// engines with their builds, every one escaped.
pub(crate) fn about_card(about: &About) -> String {
    let mut out = String::from("<section class=\"card about\" id=\"about\">");
    if let Some(d) = &about.description {
        let _ = write!(
            out,
            "<div class=\"desc\" data-k=\"description\">{}</div>",
            escape(d)
        );
    }
    if let Some(s) = &about.submitter {
        let _ = write!(
            out,
            "<div data-k=\"submitter\">Submitted by <span class=\"who\">{}</span></div>",
            escape(s)
        );
    }
    if !about.engines.is_empty() {
        out.push_str("<div data-k=\"engines\">Engines: ");
        for (i, e) in about.engines.iter().enumerate() {
            let build = e.build.as_deref().map_or_else(
                || " <span class=\"note\">(build not carried)</span>".to_owned(),
                |b| format!(" <code class=\"build\">{}</code>", escape(b)),
            );
            let comma = if i + 1 < about.engines.len() {
                ", "
            } else {
                ""
            };
            let _ = write!(
                out,
                "<span class=\"engine\">{}{build}{}</span>{comma}",
                escape(&e.name),
                measured(e)
            );
        }
        out.push_str("</div>");
    }
    out.push_str("</section>");
    out
}

/// The report of match run `run`, drawn from the reading of its stored games.
fn report(run: &RunRow, reading: HeadReading) -> Result<String, WebError> {
    let meta = run.meta();
    let label = PathBuf::from(format!("run {}", run.id));
    let head = RunHead::of_stored(&label, meta).map_err(|e| WebError::Failed(e.to_string()))?;
    let headers = head.pgn_headers();
    let (replay, games) = reading.finish(&headers);
    let mut input = head.into_input(replay, games);
    fewer_games(&mut input.games.rows);
    input.has_pgn = true;
    input.status = match crate::fleet::report::stored_ending(run) {
        Ok(ending) if !run.is_open() => Some(RunStatus {
            exit_code: ending.exit_code(),
            ending,
            duration_s: run.age_s,
        }),
        _ => None,
    };
    // A stored run has no summary.json: it says what the database says.
    input.pending = Some(pending(run));
    let (report, _) = render(&input);
    // The report links its PGN beside itself (`games.pgn` in its folder); here it is
    // streamed from the database under the run's path.
    Ok(report.replace(
        "<a href=\"games.pgn\">",
        &format!("<a href=\"/runs/{}/games.pgn\">", run.id),
    ))
}

/// The page of tune run `run`: the local tune's report, live, under the card a match
/// has (figures, workers), its values "so far" until the tune ends.
///
/// # Errors
/// The database's; [`WebError::Failed`] when the stored tune does not read here.
pub(crate) async fn tune_page(db: &Db, folds: &Folds, run: &RunRow) -> Result<String, WebError> {
    let (summary, records) = crate::fleet::tune_run::summary_of(db, run)
        .await
        .map_err(WebError::Failed)?;
    let report = crate::tune::report::html_at(&summary, &records, &run.config, !run.is_open());
    let (about, card) = match folds.state(db, run).await? {
        crate::fleet::status::RunState::Tune(t) => {
            (t.about.clone(), super::tune_card::tune_card(&t))
        }
        crate::fleet::status::RunState::Match(_) => (
            About::of(run, &About::engine_names(&run.config)),
            String::new(),
        ),
    };
    let extra = format!(
        "{}{card}<p class=\"meta\">Run {id} &middot; {} &middot; <a href=\"/api/runs/{id}\">JSON</a></p>",
        about_card(&about),
        escape(&run.status),
        id = run.id
    );
    Ok(live(report, &format!("/api/runs/{}", run.id), &extra))
}

/// The page of run `run`, a match's or a tune's.
///
/// # Errors
/// As [`match_page`] and [`tune_page`].
pub(crate) async fn page(
    db: &Db,
    reports: &Reports,
    folds: &Folds,
    run: &RunRow,
) -> Result<String, WebError> {
    if run.is_tune() {
        tune_page(db, folds, run).await
    } else {
        match_page(db, reports, folds, run).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::report::games::GameRow;

    fn game(number: u64, fault: bool) -> GameRow {
        GameRow {
            number,
            round: format!("{number}.1"),
            red: "a".to_owned(),
            black: "b".to_owned(),
            opening: String::new(),
            result: "1-0".to_owned(),
            reason: "checkmate".to_owned(),
            plies: 10,
            fault,
            faulted: None,
            detail: None,
            counted: true,
            pgn: String::new(),
        }
    }

    #[test]
    fn a_page_lists_the_first_games_and_the_first_faults_only() {
        // 300 games, every third one ended by a fault.
        let mut rows: Vec<GameRow> = (1..=300).map(|n| game(n, n % 3 == 0)).collect();
        fewer_games(&mut rows);
        let numbers: Vec<u64> = rows.iter().map(|g| g.number).collect();
        let firsts: Vec<u64> = (1..=15).filter(|n| n % 3 != 0).collect();
        let faults: Vec<u64> = (1..=10).map(|k| 3 * k).collect();
        let mut expected: Vec<u64> = firsts.into_iter().chain(faults).collect();
        expected.sort_unstable();
        assert_eq!(numbers, expected);
    }
}
