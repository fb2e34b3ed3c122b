//! What every page of `serve` has around the report's markup: the links between pages,
//! the line that says whether the page is live, and the script that keeps it so (polling
//! the JSON the page is made of, `data-api` on its body). The pages of a run are the
//! report's own (`output::report`), taken whole and given these parts.

use std::fmt::Write as _;

use crate::output::report::{escape, foot, head};

/// Where the page's script is served: a file of the server, so that the pages' policy
/// (see [`super::POLICY`]) can forbid every inline script.
pub(crate) const SCRIPT_PATH: &str = "/live.js";

/// The script of every page.
pub(crate) const SCRIPT: &str = include_str!("live.js");

/// Style of the parts added to the report's pages.
const STYLE: &str = "<style>\
    nav.top{display:flex;gap:16px;align-items:center;margin-bottom:14px;font-size:14px}\
    nav.top a{color:var(--accent);text-decoration:none;font-weight:600}\
    #live{margin-left:auto;color:var(--muted);font-size:13px}\
    #live.down{color:var(--fail);font-weight:600}\
    table.list{border-collapse:collapse;width:100%;font-size:13.5px}\
    table.list th,table.list td{padding:6px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}\
    table.list td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
    .filters a{margin-right:10px}\
    #live-run .kpi .value{white-space:normal}\
    </style>";

/// The links and the live line, at the top of `<main>`.
fn top() -> String {
    format!(
        "{STYLE}<nav class=\"top\"><a href=\"/\">Runs</a><a href=\"/workers\">Workers</a>\
         <span id=\"live\" role=\"status\">live: updated every 2 s</span></nav>\n"
    )
}

/// A page of `serve` made of `body` (markup), live on the JSON at `api`.
pub(crate) fn page(title: &str, api: &str, body: &str) -> String {
    let mut out = head(title);
    out.push_str(body);
    out.push_str(&foot("xq-runner serve"));
    live(out, api, "")
}

/// A page of the report (`report.html` markup) made live on the JSON at `api`, with
/// `extra` (markup) at the top of its `<main>`.
pub(crate) fn live(report: String, api: &str, extra: &str) -> String {
    let mut out = String::with_capacity(report.len() + 1024);
    let mut rest = report.as_str();
    // The report's page is ours: its `<body>` and `<main>` come once, in that order.
    if let Some((before, after)) = rest.split_once("<body>") {
        let _ = write!(out, "{before}<body data-api=\"{}\">", escape(api));
        rest = after;
    }
    if let Some((before, after)) = rest.split_once("<main>\n") {
        out.push_str(before);
        out.push_str("<main>\n");
        out.push_str(&top());
        out.push_str(extra);
        rest = after;
    }
    match rest.rsplit_once("</body>") {
        Some((before, after)) => {
            let _ = write!(
                out,
                "{before}<script src=\"{SCRIPT_PATH}\"></script>\n</body>{after}"
            );
        }
        None => out.push_str(rest),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_gets_its_api_the_links_and_the_script_once() {
        let html = page("a <b>", "/api/runs", "<p>x</p>");
        assert!(html.contains("<body data-api=\"/api/runs\">"), "{html}");
        assert_eq!(html.matches("<nav class=\"top\">").count(), 1);
        assert_eq!(html.matches("<script").count(), 1);
        assert!(html.contains("<title>a &lt;b&gt;</title>"));
        let pos = |s: &str| html.find(s).unwrap_or(usize::MAX);
        assert!(pos("<nav") > pos("<main>") && pos("<script") > pos("</main>"));
    }
}
