//! `report.html` of a tune: one inline SVG chart per parameter (theta over the pairs,
//! with its start, min and max), the results of the pairs over the tune, and the config.
//! One self-contained file: no scripts, no external resources.

use std::fmt::Write as _;
use std::path::Path;

use super::journal::Record;
use super::outputs::{thin, TuneSummary, MAX_POINTS};

/// The name of the file.
pub const REPORT_HTML: &str = "report.html";

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 28.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A line chart of `ys` over `xs` on `[lo, hi]`, with dashed reference lines.
fn chart(xs: &[u64], ys: &[f64], lo: f64, hi: f64, marks: &[(&str, f64)], x_max: u64) -> String {
    let span = if hi > lo { hi - lo } else { 1.0 };
    let x_max = x_max.max(1) as f64;
    let px = |x: f64| LEFT + (WIDTH - LEFT - RIGHT) * x / x_max;
    let py = |y: f64| TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - (y - lo) / span);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">\
<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#ccc\"/>",
        WIDTH - LEFT - RIGHT,
        HEIGHT - TOP - BOTTOM
    );
    for (label, y) in [("max", hi), ("min", lo)] {
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{label} {}</text>",
            LEFT - 4.0,
            py(y) + 4.0,
            y
        );
    }
    for (label, y) in marks {
        let _ = write!(
            svg,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y1:.1}\" y2=\"{y1:.1}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\
<text x=\"{}\" y=\"{:.1}\" font-size=\"11\" fill=\"#555\">{label} {}</text>",
            WIDTH - RIGHT,
            LEFT + 4.0,
            py(*y) - 3.0,
            (y * 100.0).round() / 100.0,
            y1 = py(*y)
        );
    }
    let points: Vec<String> = xs
        .iter()
        .zip(ys)
        .map(|(&x, &y)| format!("{:.1},{:.1}", px(x as f64), py(y.clamp(lo, hi))))
        .collect();
    let _ = write!(
        svg,
        "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" points=\"{}\"/>\
<text x=\"{LEFT}\" y=\"{}\" font-size=\"11\">0</text>\
<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{} pairs</text></svg>",
        points.join(" "),
        HEIGHT - 10.0,
        WIDTH - RIGHT,
        HEIGHT - 10.0,
        x_max
    );
    svg
}

/// The moving average of the theta+ side's score per game over a window of pairs.
fn moving_score(records: &[Record]) -> (Vec<u64>, Vec<f64>, usize) {
    let window = (records.len() / 50).max(10).min(records.len().max(1));
    let score = |r: &Record| f64::from(r.result + 2) / 4.0;
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let mut sum = 0.0;
    for (i, r) in records.iter().enumerate() {
        sum += score(r);
        if i >= window {
            sum -= score(&records[i - window]);
        }
        if i + 1 >= window {
            xs.push(i as u64 + 1);
            ys.push(sum / window as f64);
        }
    }
    let kept = thin(xs.len(), MAX_POINTS);
    (
        kept.iter().map(|&i| xs[i]).collect(),
        kept.iter().map(|&i| ys[i]).collect(),
        window,
    )
}

/// The whole page.
#[must_use]
pub fn html(summary: &TuneSummary, records: &[Record], config: &str) -> String {
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Tune of {name}</title>\
<style>body{{font-family:sans-serif;margin:2em;max-width:780px}}table{{border-collapse:collapse}}\
td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}pre{{background:#f4f4f4;padding:1em;overflow-x:auto}}</style>\
</head><body><h1>Tune of {name}</h1><p>{played} of {total} pairs played ({status}).</p>",
        name = escape(&summary.engine),
        played = summary.played,
        total = summary.iterations,
        status = escape(&summary.status)
    );
    page.push_str("<h2>Values</h2><table><tr><th>parameter</th><th>start</th><th>min</th><th>max</th><th>final</th></tr>");
    for f in &summary.params {
        let p = &f.param;
        let _ = write!(
            page,
            "<tr><td style=\"text-align:left\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td></tr>",
            escape(&p.name),
            p.start,
            p.min,
            p.max,
            f.value
        );
    }
    let _ = write!(page, "</table><pre>{}</pre>", escape(&summary.options_line));
    for (i, p) in summary.params.iter().map(|f| &f.param).enumerate() {
        let _ = write!(page, "<h2>{}</h2>", escape(&p.name));
        page.push_str(&chart(
            &summary.trajectory.pairs,
            &summary.trajectory.values[i],
            p.min,
            p.max,
            &[("start", p.start)],
            summary.played,
        ));
    }
    page.push_str("<h2>Results</h2>");
    let mut counts = [0u64; 5];
    for r in records {
        if let Some(c) = usize::try_from(r.result + 2)
            .ok()
            .and_then(|i| counts.get_mut(i))
        {
            *c += 1;
        }
    }
    page.push_str("<p>Pairs by the theta+ side's wins minus losses:</p><table><tr><th>-2</th><th>-1</th><th>0</th><th>+1</th><th>+2</th></tr><tr>");
    for c in counts {
        let _ = write!(page, "<td>{c}</td>");
    }
    page.push_str("</tr></table>");
    if !records.is_empty() {
        let (xs, ys, window) = moving_score(records);
        let _ = write!(
            page,
            "<p>The theta+ side's score per game, averaged over {window} pairs (0.5: the two sides are even; it drifts from 0.5 while theta is far from the best values):</p>"
        );
        page.push_str(&chart(&xs, &ys, 0.0, 1.0, &[("0.5", 0.5)], summary.played));
    }
    let _ = writeln!(
        page,
        "<h2>Config</h2><pre>{}</pre></body></html>",
        escape(config)
    );
    page
}

/// Writes `report.html` into `dir`.
///
/// # Errors
/// The file cannot be written.
pub fn write(
    dir: &Path,
    summary: &TuneSummary,
    records: &[Record],
    config: &str,
) -> std::io::Result<()> {
    let page = html(summary, records, config);
    crate::atomic_file::write(&dir.join(REPORT_HTML), page.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::params::TuneParam;
    use std::collections::BTreeMap;

    #[test]
    fn one_chart_per_parameter_and_no_scripts() {
        let params: Vec<TuneParam> = ["A", "B<"]
            .iter()
            .map(|n| TuneParam {
                name: (*n).to_owned(),
                start: 5.0,
                min: 0.0,
                max: 10.0,
                c_end: 1.0,
                r_end: 0.1,
                origin: None,
            })
            .collect();
        let records: Vec<Record> = (1..=30)
            .map(|k| Record {
                iteration: k,
                plus: BTreeMap::new(),
                minus: BTreeMap::new(),
                flip: BTreeMap::new(),
                games: ['W', 'L'],
                result: (k % 5) as i32 - 2,
                theta: BTreeMap::from([
                    ("A".to_owned(), 5.0 + k as f64 / 10.0),
                    ("B<".to_owned(), 4.0),
                ]),
            })
            .collect();
        let summary = TuneSummary::new("e", 30, &params, &[8.0, 4.0], &records, "finished");
        let page = html(&summary, &records, "[tune]\npairs = 30\n");
        assert_eq!(
            page.matches("<svg").count(),
            3,
            "two parameters and the results"
        );
        assert!(!page.contains("<script"));
        assert!(page.contains("B&lt;") && !page.contains("B<<"));
        assert!(page.contains("pairs = 30"));
        assert!(page.contains("<td>6</td>"), "each result count is 6");
    }
}
