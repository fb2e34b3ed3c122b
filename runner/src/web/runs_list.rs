//! The runs page (`/`) as fishtest's list: one compact row per run across the page's
//! width, its result box first (`result_box.rs`), then what the run is (id, state, age,
//! description, submitter) and what plays (engines with their builds, the clock). Every
//! name is escaped; the numbers are those of `/api/runs`.

use std::fmt::Write as _;

use super::list_query::{encode, ListQuery};
use super::listing::{FleetTotals, RunEntry, RunsPage, STATES};
use super::pages::age;
use super::result_box::result_box;
use super::shell::page;
use crate::fleet::about::{About, EngineBuild};
use crate::fleet::status::RunState;
use crate::output::report::{card, escape};

/// The run's about (description, submitter, builds), or its list entry's engines alone
/// when the run does not read here.
fn about_of(entry: &RunEntry) -> About {
    match &entry.run {
        Some(RunState::Match(s)) => s.about.clone(),
        Some(RunState::Tune(t)) => t.about.clone(),
        None => About {
            engines: entry
                .engines
                .iter()
                .map(|name| EngineBuild {
                    name: name.clone(),
                    ..EngineBuild::default()
                })
                .collect(),
            ..About::default()
        },
    }
}

fn state_of(entry: &RunEntry) -> &str {
    match &entry.run {
        Some(RunState::Match(s)) => &s.state,
        Some(RunState::Tune(t)) => &t.state,
        None => "?",
    }
}

/// The cell naming the run: id, state and age on a line, then its description (else
/// its title), then who submitted it.
fn run_cell(entry: &RunEntry, about: &About, out: &mut String) {
    let _ = write!(
        out,
        "<td class=\"what\"><div class=\"line\"><a href=\"/runs/{id}\">#{id}</a> \
         <span class=\"state\">{}</span> <span class=\"age\">{} ago</span></div>",
        escape(state_of(entry)),
        age(entry.submitted_s_ago),
        id = entry.id
    );
    match &about.description {
        Some(d) => {
            let _ = write!(
                out,
                "<div class=\"desc\">{}</div><div class=\"sub\">{}</div>",
                escape(d),
                escape(&entry.title)
            );
        }
        None => {
            let _ = write!(out, "<div class=\"desc\">{}</div>", escape(&entry.title));
        }
    }
    if let Some(s) = &about.submitter {
        // The name links to the runs of the same submitter.
        let _ = write!(
            out,
            "<div class=\"sub by\">by <a href=\"/?submitter={}\">{}</a></div>",
            escape(&encode(s)),
            escape(s)
        );
    }
    out.push_str("</td>");
}

/// The cell of the engines, each with its build, and the clock.
fn engines_cell(entry: &RunEntry, about: &About, out: &mut String) {
    out.push_str("<td class=\"engines\">");
    for e in &about.engines {
        let build = e.build.as_deref().map_or_else(String::new, |b| {
            format!(" <code class=\"build\">{}</code>", escape(b))
        });
        let _ = write!(
            out,
            "<div class=\"line\"><span class=\"name\">{}</span>{build}</div>",
            escape(&e.name)
        );
    }
    if !entry.clock.is_empty() {
        let _ = write!(
            out,
            "<div class=\"sub clock\">{}</div>",
            escape(&entry.clock)
        );
    }
    out.push_str("</td>");
}

/// The filter links: each state (keeping the submitter), and the submitter shown.
fn filters(query: &ListQuery) -> String {
    let mut filters = String::from("<p class=\"filters\">Show: ");
    let current = |s: Option<&str>| {
        if s == query.state.as_deref() {
            " aria-current=\"page\""
        } else {
            ""
        }
    };
    let of = |state: Option<&str>| ListQuery {
        state: state.map(str::to_owned),
        submitter: query.submitter.clone(),
        page: 1,
    };
    let _ = write!(
        filters,
        "<a href=\"/{}\"{}>all</a>",
        escape(&of(None).to_query()),
        current(None)
    );
    for s in STATES {
        let _ = write!(
            filters,
            "<a href=\"/{}\"{}>{s}</a>",
            escape(&of(Some(s)).to_query()),
            current(Some(s))
        );
    }
    if let Some(who) = &query.submitter {
        let every = ListQuery {
            submitter: None,
            ..of(query.state.as_deref())
        };
        let _ = write!(
            filters,
            " &middot; by <b class=\"who\">{}</b> <a href=\"/{}\">(everyone)</a>",
            escape(who),
            escape(&every.to_query())
        );
    }
    filters.push_str("</p>");
    filters
}

/// What the fleet has now, above the list.
fn fleet_line(fleet: &FleetTotals) -> String {
    format!(
        "<p class=\"fleet\" id=\"fleet\"><span>Workers online <b data-k=\"online\">{}</b></span>\
         <span>idle <b data-k=\"idle\">{}</b></span><span>Cores <b data-k=\"cores\">{}</b></span>\
         <span>Games/min <b data-k=\"gpm\">{:.1}</b></span></p>",
        fleet.online, fleet.idle, fleet.cores, fleet.games_per_min
    )
}

/// Where the page is in the list, and the links to the pages beside it.
fn pager(runs: &RunsPage, query: &ListQuery) -> String {
    let first = query.offset() + 1;
    let last = query.offset() + runs.runs.len();
    let mut out = if runs.runs.is_empty() {
        format!("<p class=\"pager\" id=\"pager\">{} runs", runs.total)
    } else {
        format!(
            "<p class=\"pager\" id=\"pager\">Runs {first} to {last} of {}",
            runs.total
        )
    };
    if runs.page > 1 {
        let _ = write!(
            out,
            " <a rel=\"prev\" href=\"/{}\">newer</a>",
            escape(&query.on_page(runs.page - 1).to_query())
        );
    }
    if runs.page < runs.pages {
        let _ = write!(
            out,
            " <a rel=\"next\" href=\"/{}\">older</a>",
            escape(&query.on_page(runs.page + 1).to_query())
        );
    }
    out.push_str("</p>");
    out
}

/// The runs page.
pub(crate) fn runs_page(runs: &RunsPage, query: &ListQuery, fleet: &FleetTotals) -> String {
    let entries = &runs.runs;
    let mut table = String::from(
        "<table class=\"list\" id=\"runs\"><thead><tr><th>Result</th><th>Run</th>\
         <th>Engines and clock</th></tr></thead><tbody>",
    );
    for e in entries {
        let about = about_of(e);
        let why = e.error.as_deref().unwrap_or("does not read here");
        let _ = write!(
            table,
            "<tr data-run=\"{}\"><td class=\"box\">{}</td>",
            e.id,
            result_box(e.run.as_ref(), why)
        );
        run_cell(e, &about, &mut table);
        engines_cell(e, &about, &mut table);
        table.push_str("</tr>");
    }
    if entries.is_empty() {
        table.push_str("<tr><td colspan=\"3\">no runs</td></tr>");
    }
    table.push_str("</tbody></table>");
    let mut body = format!(
        "<header><div class=\"eyebrow\">xq-runner serve</div><h1>Runs</h1></header>\n{}",
        fleet_line(fleet)
    );
    card(
        &mut body,
        "Runs, open first",
        &format!("{}{table}{}", filters(query), pager(runs, query)),
    );
    let api = format!("/api/runs{}", query.to_query());
    let open = entries.iter().filter(|e| state_of(e) == "open").count();
    page(&format!("{open} open runs \u{b7} xq-runner"), &api, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_that_does_not_read_still_has_a_row_with_its_reason_escaped() {
        let entry = RunEntry {
            id: 3,
            kind: "match".to_owned(),
            title: "a vs b".to_owned(),
            engines: vec!["</script>".to_owned()],
            clock: "10+0.1".to_owned(),
            submitted_s_ago: 5.0,
            run: None,
            error: Some("<b>bad</b>".to_owned()),
        };
        let runs = RunsPage {
            runs: vec![entry],
            total: 1,
            page: 1,
            pages: 1,
        };
        let html = runs_page(&runs, &ListQuery::default(), &FleetTotals::default());
        assert!(html.contains("data-result=\"ended\""), "{html}");
        assert!(html.contains("&lt;b&gt;bad&lt;/b&gt;"), "{html}");
        assert!(html.contains("&lt;/script&gt;"), "{html}");
        assert_eq!(html.matches("<script").count(), 1);
    }
}
