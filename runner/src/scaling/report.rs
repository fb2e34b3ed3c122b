//! `report.html` of a scaling run, in the match report's style and made of its parts:
//! Elo and nElo with their 95% intervals against the setting (clocks and node counts on
//! a log axis), one line per engine pair, and the table of settings with a link to each
//! point's own report.

use std::fmt::Write as _;

use super::results::{Results, Row};
use crate::output::report::svg::{Frame, Svg, MUTED, PALETTE};
use crate::output::report::{card, escape, foot, head, kpi};

/// The name of the page in the scaling folder.
pub const REPORT_HTML: &str = "report.html";

/// A value and its interval, when defined.
fn point(v: f64, ci: f64) -> Option<(f64, f64)> {
    (v.is_finite() && ci.is_finite()).then_some((v, ci))
}

/// One estimate chart: `pick` reads a pairing's value and interval.
fn chart(
    results: &Results,
    title: &str,
    y_title: &str,
    pick: fn(&Row, usize) -> Option<(f64, f64)>,
) -> String {
    let rows = &results.points;
    let series = rows.first().map_or(0, |r| r.pairings.len());
    let mut lo: f64 = 0.0;
    let mut hi: f64 = 0.0;
    for r in rows {
        for k in 0..series {
            if let Some((v, ci)) = pick(r, k) {
                lo = lo.min(v - ci);
                hi = hi.max(v + ci);
            }
        }
    }
    let frame = Frame::new((720.0, 320.0), None, (lo, hi), series.max(1));
    let mut svg = Svg::new(720.0, 320.0, title);
    frame.draw_axes(&mut svg, title, &x_title(results), y_title);
    let (l, r, _, b) = frame.area();
    // The horizontal axis: each setting at its place (a logarithm for clocks and nodes).
    let place = |x: f64| {
        if results.log_axis {
            x.max(1e-9).log10()
        } else {
            x
        }
    };
    let (min, max) = rows
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, z), row| {
            (a.min(place(row.x)), z.max(place(row.x)))
        });
    let span = if max > min { max - min } else { 1.0 };
    let px = |x: f64| l + (r - l) * (0.06 + 0.88 * (place(x) - min) / span);
    for row in rows {
        let x = px(row.x);
        svg.line((x, b), (x, b + 5.0), MUTED, 1.0, "");
        svg.text((x, b + 18.0), "middle", MUTED, "", &row.setting);
    }
    let zero = frame.y.map(0.0);
    svg.line((l, zero), (r, zero), MUTED, 1.0, "4 3");
    for k in 0..series {
        let colour = PALETTE[k % PALETTE.len()];
        let mut line = Vec::new();
        for row in rows {
            let Some((v, ci)) = pick(row, k) else {
                continue;
            };
            let x = px(row.x);
            let (top, bottom) = (frame.y.map(v + ci), frame.y.map(v - ci));
            svg.line((x, top), (x, bottom), colour, 1.5, "");
            svg.line((x - 5.0, top), (x + 5.0, top), colour, 1.5, "");
            svg.line((x - 5.0, bottom), (x + 5.0, bottom), colour, 1.5, "");
            svg.circle((x, frame.y.map(v)), 3.5, colour);
            line.push((x, frame.y.map(v)));
        }
        svg.poly(
            &line,
            false,
            &format!(
                "fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" stroke-linejoin=\"round\""
            ),
        );
        if let Some(p) = rows.first().and_then(|row| row.pairings.get(k)) {
            svg.text(
                (l + 4.0, 40.0 + 20.0 * k as f64),
                "start",
                colour,
                "font-weight=\"600\"",
                &format!("{} vs {}", p.first, p.second),
            );
        }
    }
    svg.finish()
}

fn x_title(results: &Results) -> String {
    match results.kind {
        super::config::Kind::Tc => "time control (log scale)".to_owned(),
        super::config::Kind::Depth => "depth".to_owned(),
        super::config::Kind::Nodes => "nodes (log scale)".to_owned(),
    }
}

fn elo(row: &Row, k: usize) -> Option<(f64, f64)> {
    row.pairings.get(k).and_then(|p| point(p.elo, p.elo_ci95))
}

fn nelo(row: &Row, k: usize) -> Option<(f64, f64)> {
    row.pairings.get(k).and_then(|p| point(p.nelo, p.nelo_ci95))
}

fn number(v: f64, ci: f64) -> String {
    if v.is_finite() && ci.is_finite() {
        format!("{v:.1} &plusmn; {ci:.1}")
    } else {
        "n/a".to_owned()
    }
}

fn table(results: &Results) -> String {
    let mut t = String::from(
        "<table><thead><tr><th>Setting</th><th>Engines</th><th class=\"num\">Games</th>\
         <th class=\"num\">Elo</th><th class=\"num\">nElo</th><th class=\"num\">Draws</th>\
         <th>Status</th><th>Report</th></tr></thead><tbody>",
    );
    for row in &results.points {
        for (i, p) in row.pairings.iter().enumerate() {
            let draws = if p.draw_ratio.is_finite() {
                format!("{:.1}%", p.draw_ratio * 100.0)
            } else {
                "n/a".to_owned()
            };
            let (setting, status, link) = if i == 0 {
                (
                    escape(&row.label),
                    escape(&row.status),
                    format!(
                        "<a href=\"{}/report.html\">{}</a>",
                        escape(&row.dir),
                        escape(&row.dir)
                    ),
                )
            } else {
                (String::new(), String::new(), String::new())
            };
            let _ = write!(
                t,
                "<tr><td>{setting}</td><td>{} vs {}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td><td class=\"num\">{draws}</td><td>{status}</td><td>{link}</td></tr>",
                escape(&p.first),
                escape(&p.second),
                p.games,
                number(p.elo, p.elo_ci95),
                number(p.nelo, p.nelo_ci95),
            );
        }
    }
    t.push_str("</tbody></table>");
    t
}

/// The whole page.
#[must_use]
pub fn page(results: &Results) -> String {
    let kind = results.kind.key();
    let mut out = head(&format!("xq-runner scaling report: {kind}"));
    let _ = write!(
        out,
        "<header><div class=\"eyebrow\">xq-runner report &middot; scaling</div><h1>Scaling over {}</h1><div class=\"kpis\">",
        escape(&x_title(results))
    );
    let games: u64 = results
        .points
        .iter()
        .flat_map(|r| r.pairings.iter().map(|p| p.games))
        .sum();
    let played = results.points.iter().filter(|r| r.games > 0).count();
    kpi(
        &mut out,
        "Settings",
        &results.points.len().to_string(),
        &format!("{played} with games"),
    );
    kpi(&mut out, "Games", &games.to_string(), "every setting");
    kpi(
        &mut out,
        "Order",
        if results.interleave {
            "interleaved"
        } else {
            "in turn"
        },
        "of the settings",
    );
    out.push_str("</div></header>\n");
    let note = "<p class=\"note\">Each setting is a match of its own (its folder holds its games and report); bars are 95% intervals, from the first engine's view.</p>";
    card(
        &mut out,
        "Elo against the setting",
        &format!(
            "<div class=\"chart\">{}</div>{note}",
            chart(results, "Elo", "Elo", elo)
        ),
    );
    card(
        &mut out,
        "nElo against the setting",
        &format!(
            "<div class=\"chart\">{}</div>",
            chart(results, "nElo", "nElo", nelo)
        ),
    );
    card(&mut out, "Settings", &table(results));
    out.push_str(&foot("xq-runner run (scaling)"));
    out
}
