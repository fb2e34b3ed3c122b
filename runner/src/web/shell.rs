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
    table.list th.n{text-align:right}\
    .filters a{margin-right:10px}\
    #live-run .kpi .value{white-space:normal}\
    table.list th,table.list td{overflow-wrap:normal;word-break:keep-all}\
    table.list .meta{word-break:normal}\
    main:has(#runs){max-width:none}\
    #runs td.box{width:1%}\
    .result{border:1px solid;border-radius:6px;padding:5px 10px;font-size:12.5px;line-height:1.45;\
    font-variant-numeric:tabular-nums;white-space:nowrap}\
    .result.h1{background:#dcfce7;border-color:#16a34a}\
    .result.h0{background:#fee2e2;border-color:#dc2626}\
    .result.running{background:#fef9c3;border-color:#ca8a04}\
    .result.cancelled,.result.ended{background:#f3f4f6;border-color:#9ca3af}\
    #runs td.what .line{white-space:nowrap}\
    #runs .desc{font-weight:600}\
    #runs .sub{color:var(--muted);font-size:12.5px}\
    #runs .state,#runs .age{color:var(--muted);font-size:12.5px;margin-left:6px}\
    code.build{font-size:12px;color:var(--muted);margin-left:4px}\
    .about{margin:0 0 12px;font-size:14px}\
    .about .desc{font-size:16px;font-weight:600}\
    main:has(#workers){max-width:none}\
    .wide{overflow-x:auto}\
    .sub{color:var(--muted);font-size:12.5px}\
    .wstate{font-weight:600;white-space:nowrap}\
    .wstate.online{color:#15803d}.wstate.idle{color:#a16207}.wstate.offline{color:#6b7280}\
    .fleet{display:flex;flex-wrap:wrap;gap:6px 22px;margin:0 0 12px;font-size:14px}\
    .fleet b{font-variant-numeric:tabular-nums}\
    .pager a{margin-right:14px}\
    @media (max-width:700px){main table{display:block;overflow-x:auto;max-width:100%;font-size:12.5px}\
    main th,main td{padding:5px 4px}\
    #runs thead{display:none}\
    #runs tr{display:block;border-bottom:1px solid var(--line);padding:6px 0}\
    #runs td,#runs td.box{display:block;border:0;padding:3px 4px;width:auto}\
    #runs .result{display:inline-block}\
    #workers thead,#steps thead,#builds thead,#groups thead{display:none}\
    #workers tr,#steps tr,#builds tr,#groups tr{display:block;border-bottom:1px solid var(--line);padding:6px 0}\
    #workers td,#workers td.n,#steps td,#steps td.n,#builds td,#builds td.n,#groups td,#groups td.n\
    {display:inline-block;border:0;padding:2px 6px;text-align:left}\
    td[data-l]::before{content:attr(data-l) \" \";color:var(--muted);font-size:12px}}\
    </style>";

/// The links and the live line, at the top of `<main>`.
fn top() -> String {
    top_saying("", "live: updated every 2 s")
}

/// The links and a live line of class `class` saying `line`.
fn top_saying(class: &str, line: &str) -> String {
    format!(
        "{STYLE}<nav class=\"top\"><a href=\"/\">Runs</a><a href=\"/workers\">Workers</a>\
         <span id=\"live\" class=\"{class}\" role=\"status\">{}</span></nav>\n",
        escape(line)
    )
}

/// The frame of a page while the database is away: the links, the live line saying
/// so, and `message`; its script polls `api` and, once it answers, draws the page
/// (`data-down` on the body: see `live.js`).
pub(crate) fn down_page(api: &str, message: &str) -> String {
    let mut out = head(&format!("{message} \u{b7} xq-runner"));
    out.push_str(&top_saying(
        "down",
        &format!("{message}: trying again every 2 s"),
    ));
    out.push_str(&format!(
        "<header><div class=\"eyebrow\">xq-runner serve</div><h1>{}</h1></header>\n\
         <section class=\"card\"><p class=\"note\" id=\"down\">The page shows once the \
         database answers again; it is asked every 2 s.</p></section>\n",
        escape(message)
    ));
    out.push_str(&foot("xq-runner serve"));
    // `live` would add a second nav: the frame has its own, saying the outage.
    match out.split_once("<body>") {
        Some((before, after)) => format!(
            "{before}<body data-api=\"{}\" data-down=\"1\">{}",
            escape(api),
            after.replacen(
                "</body>",
                &format!("<script src=\"{SCRIPT_PATH}\"></script>\n</body>"),
                1
            )
        ),
        None => out,
    }
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
    fn the_frame_of_an_outage_says_so_and_polls() {
        let html = down_page("/api/runs/3", "database unreachable");
        assert!(
            html.contains("<body data-api=\"/api/runs/3\" data-down=\"1\">"),
            "{html}"
        );
        assert_eq!(html.matches("<nav class=\"top\">").count(), 1);
        assert_eq!(html.matches("<script").count(), 1);
        assert!(html.contains("class=\"down\""), "{html}");
    }

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
