//! The pages of a served folder: the runs in it (as the database's runs page, a folder's
//! path for an id), a run's live card above its report, and the workers page, which a
//! folder has no workers for. Every name is escaped, every path in a link encoded.

use std::fmt::Write as _;

use serde::Serialize;

use super::super::headline::{figure, headline_of};
use super::super::pages::{age, llr_bar, shown_verdict, tune_of};
use super::super::shell::page;
use super::groups::{DatagenSummary, Kind};
use super::tuned::TuneStatus;
use super::watched::FolderStatus;
use super::{group_href, href};
use crate::output::report::{card, escape, fixed, signed};

/// One run folder of the list.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct FolderEntry {
    pub id: String,
    /// When its `run.json` was written (the run started).
    pub submitted_s_ago: f64,
    /// Its state; `None` when it does not read (then `error` says why).
    pub run: Option<FolderRun>,
    pub error: Option<String>,
}

/// A folder's run: a match (a run's JSON, as `status --json`) or a tune.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum FolderRun {
    Match(FolderStatus),
    Tune(TuneStatus),
}

impl FolderRun {
    /// `open`, `finished`, `aborted` or `stopped`.
    pub(crate) fn state(&self) -> &str {
        match self {
            FolderRun::Match(s) => &s.state,
            FolderRun::Tune(t) => &t.state,
        }
    }

    /// Its engines (a tune: the tuned one).
    fn title(&self) -> &str {
        match self {
            FolderRun::Match(s) => &s.title,
            FolderRun::Tune(t) => &t.title,
        }
    }
}

/// The cells of a run's numbers: pairs, Elo, nElo, LLR, verdict.
fn run_cells(s: &FolderStatus, out: &mut String) {
    let llr = match (s.llr, s.llr_lower, s.llr_upper) {
        (Some(llr), Some(lo), Some(hi)) => format!(
            "{} <span class=\"meta\">{} ({}, {})</span>",
            llr_bar(llr, lo, hi),
            fixed(llr, 2),
            fixed(lo, 2),
            fixed(hi, 2)
        ),
        _ => "no SPRT".to_owned(),
    };
    let verdict = escape(&shown_verdict(s.verdict, &s.state).unwrap_or_else(|| s.status.clone()));
    let _ = write!(
        out,
        "<td class=\"n\">{}/{}</td><td class=\"n\">{} &plusmn; {}</td>\
         <td class=\"n\">{} &plusmn; {}</td><td>{llr}</td><td>{verdict}</td>",
        s.pairs,
        s.pairs_total,
        signed(s.elo, 2),
        fixed(s.elo_ci95, 2),
        signed(s.nelo, 2),
        fixed(s.nelo_ci95, 2),
    );
}

/// The runs page of the folder `root` (shown as given).
/// A bisection, a scaling run or a datagen folder on the runs page.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct GroupEntry {
    pub id: String,
    pub kind: Kind,
    /// What it found or holds, in words (or why it does not read).
    pub said: String,
    pub age_s: f64,
}

/// A datagen folder's line: positions of those asked for, games, rate.
pub(crate) fn datagen_line(d: &DatagenSummary) -> String {
    let rate = d.positions_per_s.map_or_else(
        || "no rate yet".to_owned(),
        |r| format!("{r:.0} positions/s"),
    );
    format!(
        "{} of {} positions, {} games, {rate}",
        d.positions, d.target, d.games
    )
}

/// The card of the groups: each a row, a bisection's and a scaling run's linking to
/// their page.
fn groups_card(body: &mut String, groups: &[GroupEntry]) {
    if groups.is_empty() {
        return;
    }
    let mut t = String::from(
        "<table class=\"list\" id=\"groups\"><thead><tr><th>Folder</th><th>Kind</th>\
         <th>Found or holds</th><th>Changed</th></tr></thead><tbody>",
    );
    for g in groups {
        let name = if g.kind == Kind::Datagen {
            escape(&g.id)
        } else {
            format!(
                "<a href=\"{}\">{}</a>",
                escape(&group_href(&g.id)),
                escape(&g.id)
            )
        };
        let _ = write!(
            t,
            "<tr data-group=\"{}\"><td>{name}</td><td>{}</td><td class=\"said\">{}</td>\
             <td class=\"n\">{} ago</td></tr>",
            escape(&g.id),
            g.kind.name(),
            escape(&g.said),
            age(g.age_s)
        );
    }
    t.push_str("</tbody></table>");
    card(body, "Bisections, scaling runs and data", &t);
}

pub(crate) fn runs_page(root: &str, entries: &[FolderEntry], groups: &[GroupEntry]) -> String {
    let mut table = String::from(
        "<table class=\"list\" id=\"runs\"><thead><tr><th>Run folder</th><th>Engines</th>\
         <th>Pairs</th><th>Elo</th><th>nElo</th><th>LLR</th><th>Verdict</th>\
         <th>Started</th></tr></thead><tbody>",
    );
    for e in entries {
        let state = e.run.as_ref().map_or("?", FolderRun::state);
        let _ = write!(
            table,
            "<tr data-run=\"{}\"><td><a href=\"{}\">{}</a> <span class=\"meta\">{}</span></td><td>{}</td>",
            escape(&e.id),
            escape(&href(&e.id)),
            escape(&e.id),
            escape(state),
            e.run.as_ref().map_or_else(String::new, |r| escape(r.title())),
        );
        match (&e.run, &e.error) {
            (Some(FolderRun::Match(s)), _) => run_cells(s, &mut table),
            (Some(FolderRun::Tune(t)), _) => {
                let _ = write!(
                    table,
                    "<td class=\"n\">{}/{}</td><td colspan=\"3\">{}</td><td>{}</td>",
                    t.played,
                    t.iterations,
                    tune_of(t.params),
                    escape(&t.status)
                );
            }
            (None, why) => {
                let why = why.as_deref().unwrap_or("does not read here");
                let _ = write!(table, "<td colspan=\"5\">{}</td>", escape(why));
            }
        }
        let _ = write!(
            table,
            "<td class=\"n\">{} ago</td></tr>",
            age(e.submitted_s_ago)
        );
    }
    if entries.is_empty() {
        table.push_str("<tr><td colspan=\"8\">no run folders here</td></tr>");
    }
    table.push_str("</tbody></table>");
    let mut body = format!(
        "<header><div class=\"eyebrow\">xq-runner serve</div><h1>Runs in {}</h1></header>\n",
        escape(root)
    );
    groups_card(&mut body, groups);
    card(&mut body, "Run folders, open first", &table);
    let open = entries
        .iter()
        .filter(|e| e.run.as_ref().is_some_and(|r| r.state() == "open"))
        .count();
    page(
        &format!("{open} open runs \u{b7} xq-runner"),
        "/api/runs",
        &body,
    )
}

/// The live card of a folder's run.
pub(crate) fn live_card(s: &FolderStatus) -> String {
    let mut out = headline_of!(s).open_card();
    figure(
        &mut out,
        "journal",
        "Journal",
        &format!("{} lines", s.journal_lines),
        "games.jsonl, read as it grows",
    );
    let link = escape(&href(&s.id));
    let api = escape(&super::api_href(&s.id));
    let _ = writeln!(
        out,
        "</div><p class=\"meta\">Every game: <a href=\"{link}/games.pgn\">games.pgn</a> &middot; \
         <a href=\"{link}/games.jsonl\">games.jsonl</a> &middot; <a href=\"{api}\">JSON</a></p></section>"
    );
    out
}

/// The live card of a folder's tune.
pub(crate) fn tune_card(t: &TuneStatus) -> String {
    let mut out =
        String::from("<section class=\"card\" id=\"live-run\"><h2>Now</h2><div class=\"kpis\">");
    figure(
        &mut out,
        "pairs",
        "Pairs",
        &t.played.to_string(),
        &format!("of {} iterations", t.iterations),
    );
    // A finished tune's status is its state: said once.
    let status = if t.status == t.state { "" } else { &t.status };
    figure(&mut out, "state", "State", &t.state, status);
    figure(
        &mut out,
        "journal",
        "Journal",
        &format!("{} lines", t.played),
        "tune.jsonl, read as it grows",
    );
    let _ = writeln!(
        out,
        "</div><p class=\"meta\">Now: <code>{}</code> &middot; <a href=\"{}\">JSON</a></p></section>",
        escape(&t.options_line),
        escape(&super::api_href(&t.id))
    );
    out
}

/// The workers page: a folder's run is played by the runner that holds it.
pub(crate) fn workers_page() -> String {
    let mut body = String::from(
        "<header><div class=\"eyebrow\">xq-runner serve</div><h1>Workers</h1></header>\n",
    );
    card(
        &mut body,
        "No workers",
        "<p class=\"note\">These runs are folders: each is played by the <code>xq-runner run</code> \
         that holds it, not by workers.</p>",
    );
    page("workers \u{b7} xq-runner", "/api/workers", &body)
}
