//! `report.html`: one self-contained page (inline CSS and SVG, no scripts, no external
//! assets). Every text from the run (engine names, commands, options, the config) goes
//! through [`escape`].

use std::fmt::Write as _;

use super::charts::{elo_chart, llr_chart, penta_chart, rating_chart, EloAxis};
use super::facts::Facts;
use super::{escape, fixed, signed};
use crate::config::TournamentKind;
use crate::stats::EloModel;

const STYLE: &str = include_str!("style.css");

/// A share in percent with one decimal, `n/a` without a total or a part.
fn percent(part: f64, total: f64) -> String {
    if total > 0.0 && part.is_finite() {
        format!("{:.1}%", 100.0 * part / total)
    } else {
        "n/a".to_owned()
    }
}

/// The class of the status badge.
fn badge_class(marker: &str) -> &'static str {
    match marker {
        "PASS" => "pass",
        "FAIL" | "ABORTED" | "ERROR" => "fail",
        "NO VERDICT" | "RUNNING" => "warn",
        _ => "",
    }
}

/// One figure of the header: a label, the value, a line under it.
pub(crate) fn kpi(out: &mut String, label: &str, value: &str, sub: &str) {
    // Long values (W / D / L of big runs, engine names) in a smaller size.
    let size = if value.chars().count() > 14 {
        " long"
    } else {
        ""
    };
    let _ = write!(
        out,
        "<div class=\"kpi\"><div class=\"label\">{}</div><div class=\"value{size}\">{}</div><div class=\"sub\">{}</div></div>",
        escape(label),
        escape(value),
        escape(sub)
    );
}

fn header(f: &Facts<'_>, out: &mut String) {
    let kind = match f.input.kind {
        TournamentKind::Match => "match",
        TournamentKind::Gauntlet => "gauntlet",
        TournamentKind::RoundRobin => "round robin",
        TournamentKind::Ladder => "ladder",
    };
    let marker = f.marker();
    let _ = write!(
        out,
        "<header><div class=\"eyebrow\">xq-runner report &middot; {kind}</div><h1>{}</h1>\
         <span class=\"status {}\">{}</span><span class=\"status-text\">{}</span>\
         <div class=\"meta\">config <code>{}</code> &middot; xq-runner {} &middot; <code>{}</code></div>{}\
         <div class=\"kpis\">",
        escape(&f.title()),
        badge_class(marker),
        escape(marker),
        escape(&f.status()),
        escape(&f.input.meta.config_hash),
        escape(&f.input.meta.version),
        escape(&f.input.dir.display().to_string()),
        settings_line(f)
    );
    kpi(
        out,
        "Games",
        &f.games.to_string(),
        &format!("{} complete pairs", f.pairs()),
    );
    if let (TournamentKind::Match, Some(p)) = (f.input.kind, f.pairings.first()) {
        let e = &p.estimate;
        kpi(
            out,
            "Elo",
            &signed(e.elo, 2),
            &format!("± {} (95%, over pairs)", fixed(e.elo_ci95, 2)),
        );
        kpi(
            out,
            "nElo",
            &signed(e.nelo, 2),
            &format!(
                "± {} · LOS {}",
                fixed(e.nelo_ci95, 2),
                if e.los.is_finite() {
                    format!("{:.2}%", 100.0 * e.los)
                } else {
                    "n/a".to_owned()
                }
            ),
        );
        let w = &p.tally.wdl;
        kpi(
            out,
            "W / D / L",
            &format!("{} / {} / {}", w.wins, w.draws, w.losses),
            &format!("for {}", p.first),
        );
    }
    if let Some(r) = &f.sprt {
        kpi(
            out,
            "LLR",
            &format!("{:.2}", r.llr),
            &format!("bounds ({:.2}, {:.2})", r.llr_lower, r.llr_upper),
        );
    }
    if let Some(top) = f.ratings.first() {
        kpi(
            out,
            "Top engine",
            &top.name,
            &if top.ci95 == 0.0 {
                "the anchor (0 Elo)".to_owned()
            } else {
                format!("{} ± {:.1} Elo", signed(top.elo, 1), top.ci95)
            },
        );
        kpi(
            out,
            "Engines",
            &f.names.len().to_string(),
            &format!("{} pairings", f.pairings.len()),
        );
    }
    let duration = f
        .input
        .status
        .as_ref()
        .map_or_else(|| "n/a".to_owned(), |s| format!("{:.1} s", s.duration_s));
    kpi(
        out,
        "Duration",
        &duration,
        &format!("{:.0} plies, {:.2} s per game", f.mean_plies, f.mean_game_s),
    );
    out.push_str("</div></header>\n");
}

/// The header's second line: what the games were played with, and the PGN file.
fn settings_line(f: &Facts<'_>) -> String {
    let settings = f
        .input
        .settings
        .as_ref()
        .and_then(|s| s.common_text(&f.input.pairings))
        .map_or_else(
            || "settings per pairing: see Pairings".to_owned(),
            |t| escape(&t),
        );
    let pgn = if f.input.has_pgn {
        "<a href=\"games.pgn\">games.pgn</a>".to_owned()
    } else {
        "games.pgn is written when the run ends".to_owned()
    };
    format!("<div class=\"meta settings\">{settings} &middot; {pgn}</div>")
}

/// A card of the page: a titled section holding `body` (markup).
pub(crate) fn card(out: &mut String, title: &str, body: &str) {
    let _ = writeln!(
        out,
        "<section class=\"card\"><h2>{}</h2>{body}</section>",
        escape(title)
    );
}

fn charts(f: &Facts<'_>, out: &mut String) {
    if f.pairs() == 0 {
        card(out, "Progress", "<p class=\"note\">No complete pairs yet: the charts appear once both games of a pair are in.</p>");
        return;
    }
    let mut body = String::new();
    if let (Some(r), Some(design)) = (&f.sprt, f.input.sprt.as_ref()) {
        let label = format!(
            "SPRT [{:.2}, {:.2}] {} Elo, alpha {}, beta {}",
            design.elo0, design.elo1, design.model, design.alpha, design.beta
        );
        let _ = write!(
            body,
            "<div class=\"chart\">{}</div>",
            llr_chart(f.llr_points(), r.llr_lower, r.llr_upper, &label)
        );
    }
    let series: Vec<(String, &[super::series::Point])> = f
        .pairings
        .iter()
        .zip(&f.replay.series)
        .map(|(p, s)| (format!("{} vs {}", p.first, p.second), s.as_slice()))
        .collect();
    // A match's SPRT: its bounds on the chart, in its unit (nElo for the normalized
    // model, whose elo0 and elo1 are not logistic Elo).
    let axis = match (f.input.sprt.as_ref(), series.len()) {
        (Some(design), 1) => EloAxis {
            normalized: design.model == EloModel::Normalized,
            bounds: Some((design.elo0, design.elo1)),
        },
        _ => EloAxis::default(),
    };
    let _ = write!(
        body,
        "<div class=\"chart\">{}</div>",
        elo_chart(&series, axis)
    );
    card(out, "Progress over pairs", &body);
}

fn penta_card(f: &Facts<'_>) -> String {
    let groups: Vec<(String, crate::stats::Penta)> = f
        .pairings
        .iter()
        .map(|p| (format!("{} vs {}", p.first, p.second), p.tally.penta))
        .collect();
    if f.pairs() == 0 {
        return "<section class=\"card\"><h2>Pentanomial histogram</h2><p class=\"note\">No complete pairs yet.</p></section>".to_owned();
    }
    let mut body = penta_chart(&groups);
    if let Some(p) = f.pairings.first().filter(|_| f.pairings.len() == 1) {
        let _ = write!(body, "<p class=\"note\">Ptnml(0-2): [{}]", p.tally.penta);
        let unpaired = f.replay.tracker.unpaired();
        if unpaired > 0 {
            let _ = write!(
                body,
                " &middot; {unpaired} game{} of unfinished pairs not counted",
                if unpaired == 1 { "" } else { "s" }
            );
        }
        body.push_str("</p>");
    }
    format!("<section class=\"card\"><h2>Pentanomial histogram</h2>{body}</section>")
}

fn ratings_table(f: &Facts<'_>) -> String {
    let mut t = String::from("<table><thead><tr><th class=\"num\">Rank</th><th>Engine</th><th class=\"num\">Elo</th><th class=\"num\">95% ±</th><th class=\"num\">Games</th><th class=\"num\">Points</th><th class=\"num\">Score</th></tr></thead><tbody>");
    for (i, r) in f.ratings.iter().enumerate() {
        let _ = write!(
            t,
            "<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}</td><td class=\"num\">{}</td></tr>",
            i + 1,
            escape(&r.name),
            signed(r.elo, 1),
            r.ci95,
            r.games,
            r.points,
            percent(r.points, r.games)
        );
    }
    t.push_str("</tbody></table><p class=\"note\">Maximum-likelihood Elo over all games, the first engine anchored at 0.</p>");
    t
}

fn pairings_table(f: &Facts<'_>) -> String {
    // Settings that differ between pairings get a column; common ones are in the header.
    let settings = f
        .input
        .settings
        .as_ref()
        .filter(|s| s.common_text(&f.input.pairings).is_none());
    let mut t = String::from("<table><thead><tr><th>First</th><th>Second</th>");
    if settings.is_some() {
        t.push_str("<th>Settings</th>");
    }
    t.push_str("<th class=\"num\">Pairs</th><th class=\"num\">W</th><th class=\"num\">D</th><th class=\"num\">L</th><th class=\"num\">Score</th><th class=\"num\">Elo</th><th class=\"num\">Ptnml(0-2)</th><th class=\"num\">LOS</th></tr></thead><tbody>");
    for (k, p) in f.pairings.iter().enumerate() {
        let (w, e) = (&p.tally.wdl, &p.estimate);
        let column = match (settings, f.input.pairings.get(k)) {
            (Some(s), Some(&(a, b))) => format!("<td>{}</td>", escape(&s.pairing_text(a, b))),
            (Some(_), None) => "<td></td>".to_owned(),
            _ => String::new(),
        };
        let _ = write!(
            t,
            "<tr><td>{}</td><td>{}</td>{column}<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{} ± {}</td><td class=\"num\">[{}]</td><td class=\"num\">{}</td></tr>",
            escape(&p.first),
            escape(&p.second),
            p.tally.penta.pairs(),
            w.wins,
            w.draws,
            w.losses,
            percent(w.points(), w.games() as f64),
            signed(e.elo, 2),
            fixed(e.elo_ci95, 2),
            p.tally.penta,
            percent(e.los, 1.0)
        );
    }
    t.push_str(
        "</tbody></table><p class=\"note\">Complete pairs only, from the first engine's view.</p>",
    );
    t
}

fn reasons_table(f: &Facts<'_>) -> String {
    if f.reasons.is_empty() {
        return "<p class=\"note\">No games yet.</p>".to_owned();
    }
    let total: u64 = f.reasons.iter().map(|r| r.games).sum();
    let mut t = String::from("<table><thead><tr><th>Reason</th><th>Meaning</th><th class=\"num\">Games</th><th class=\"num\">Share</th></tr></thead><tbody>");
    for r in &f.reasons {
        let _ = write!(
            t,
            "<tr><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&r.code),
            escape(&r.describe),
            r.games,
            percent(r.games as f64, total as f64)
        );
    }
    let _ = write!(t, "</tbody><tfoot><tr><td colspan=\"2\">All games</td><td class=\"num\">{total}</td><td class=\"num\">100.0%</td></tr></tfoot></table>");
    t
}

fn faults_table(f: &Facts<'_>) -> String {
    let mut t = String::from("<table><thead><tr><th>Engine</th>");
    for code in &f.fault_codes {
        let _ = write!(t, "<th class=\"num\">{}</th>", escape(code));
    }
    t.push_str("<th class=\"num\">Total</th></tr></thead><tbody>");
    for (i, name) in f.names.iter().enumerate() {
        let _ = write!(t, "<tr><td>{}</td>", escape(name));
        for code in &f.fault_codes {
            let n = f
                .faults
                .get(i)
                .and_then(|m| m.get(*code))
                .copied()
                .unwrap_or(0);
            let class = if n == 0 { "num zero" } else { "num bad" };
            let _ = write!(t, "<td class=\"{class}\">{n}</td>");
        }
        let total = f.fault_total(i);
        let class = if total == 0 { "num zero" } else { "num bad" };
        let _ = write!(t, "<td class=\"{class}\">{total}</td></tr>");
    }
    t.push_str("</tbody></table>");
    if f.fault_codes.is_empty() {
        t.push_str("<p class=\"note\">No engine faults: no time losses, illegal moves, crashes or stalls.</p>");
    } else if f.unpaired_faults > 0 {
        let _ = write!(
            t,
            "<p class=\"note\">Faults count every game recorded: {} of them in games whose pair is not complete, not in the counts above.</p>",
            f.unpaired_faults
        );
    }
    t
}

fn engines_table(f: &Facts<'_>) -> String {
    let mut t = String::from(
        "<table><thead><tr><th>Engine</th><th>Command</th><th>Options</th></tr></thead><tbody>",
    );
    for e in &f.input.engines {
        let options: Vec<String> = e.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = write!(
            t,
            "<tr><td>{}</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
            escape(&e.name),
            escape(&e.command.join(" ")),
            escape(&options.join(" "))
        );
    }
    t.push_str("</tbody></table>");
    for e in f
        .input
        .engines
        .iter()
        .filter(|e| !e.unknown_options.is_empty())
    {
        let names: Vec<String> = e
            .unknown_options
            .iter()
            .map(|o| format!("<code>{}</code>", escape(o)))
            .collect();
        let _ = write!(
            t,
            "<p class=\"note warn\">{} did not announce {}: sent anyway, it may ignore {}.</p>",
            escape(&e.name),
            names.join(", "),
            if names.len() == 1 { "it" } else { "them" }
        );
    }
    t
}

/// The start of a page in the report's style, up to its `<main>`: the tune report is
/// made of the same parts.
#[must_use]
pub(crate) fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n",
        escape(title)
    )
}

/// The end of a page made by `command`.
#[must_use]
pub(crate) fn foot(command: &str) -> String {
    format!(
        "<footer>Made by <code>{}</code></footer>\n</main>\n</body>\n</html>\n",
        escape(command)
    )
}

/// The whole page.
#[must_use]
pub fn page(f: &Facts<'_>) -> String {
    let mut out = head(&format!("xq-runner report: {}", f.title()));
    header(f, &mut out);
    let multi = f.input.kind != TournamentKind::Match;
    let block = if f.result_text.trim().is_empty() {
        "no games yet"
    } else {
        f.result_text.trim_end()
    };
    card(
        &mut out,
        if multi { "Rating table" } else { "Result" },
        &format!("<pre class=\"block\">{}</pre>", escape(block)),
    );
    if multi {
        let chart = if f.ratings.is_empty() {
            "<p class=\"note\">No ratings yet.</p>".to_owned()
        } else {
            rating_chart(&f.ratings)
        };
        let _ = writeln!(out, "<div class=\"grid2\"><section class=\"card\"><h2>Ratings</h2>{chart}</section>{}</div>", penta_card(f));
        card(&mut out, "Ratings with 95% intervals", &ratings_table(f));
        charts(f, &mut out);
    } else {
        charts(f, &mut out);
        let _ = writeln!(
            out,
            "<div class=\"grid2\">{}<section class=\"card\"><h2>End reasons</h2>{}</section></div>",
            penta_card(f),
            reasons_table(f)
        );
    }
    card(&mut out, "Pairings", &pairings_table(f));
    out.push_str(&super::games_html::games_card(f));
    if multi {
        let _ = writeln!(out, "<div class=\"grid2\"><section class=\"card\"><h2>End reasons</h2>{}</section><section class=\"card\"><h2>Faults per engine</h2>{}</section></div>", reasons_table(f), faults_table(f));
        card(&mut out, "Engines", &engines_table(f));
    } else {
        let _ = writeln!(out, "<div class=\"grid2\"><section class=\"card\"><h2>Faults per engine</h2>{}</section><section class=\"card\"><h2>Engines</h2>{}</section></div>", faults_table(f), engines_table(f));
    }
    out.push_str(&super::over_clock_html::over_clock_card(f));
    let _ = writeln!(
        out,
        "<section class=\"card\"><details><summary>Configuration (run.json)</summary><pre class=\"config\">{}</pre></details></section>",
        escape(&f.input.meta.config)
    );
    out.push_str(&foot("xq-runner report"));
    out
}
