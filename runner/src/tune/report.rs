//! `report.html` of a tune, in the match report's style and made of its parts (page,
//! header figures, cards, SVG charts): the W/D/L of the tune's games, the values, one
//! chart per parameter (theta over the pairs on an axis fitted to its values, start,
//! min and max marked), the results of the pairs, and the config. One self-contained
//! file: no scripts, no external resources.

use std::fmt::Write as _;
use std::path::Path;

use super::charts::{param_chart, score_chart};
use super::journal::Record;
use super::outputs::{thin, TuneSummary, MAX_POINTS};
use crate::output::report::{card, escape, foot, head, kpi};

/// The name of the file.
pub const REPORT_HTML: &str = "report.html";

/// The games of the tune from the theta+ side: wins, draws, losses, and the pairs by
/// the theta+ side's wins minus losses (-2 to +2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Games {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub pairs: [u64; 5],
}

impl Games {
    /// Counted from the journal's records.
    #[must_use]
    pub fn of(records: &[Record]) -> Games {
        let mut g = Games::default();
        for r in records {
            for game in r.games {
                match game {
                    'W' => g.wins += 1,
                    'D' => g.draws += 1,
                    'L' => g.losses += 1,
                    _ => {}
                }
            }
            if let Some(c) = usize::try_from(r.result + 2)
                .ok()
                .and_then(|i| g.pairs.get_mut(i))
            {
                *c += 1;
            }
        }
        g
    }

    fn total(self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The theta+ side's points over its games, in percent (`n/a` without games).
    fn score(self) -> String {
        match self.total() {
            0 => "n/a".to_owned(),
            n => format!(
                "{:.1}%",
                100.0 * (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
            ),
        }
    }
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

fn header(out: &mut String, summary: &TuneSummary, games: Games) {
    let _ = write!(
        out,
        "<header><div class=\"eyebrow\">xq-runner tune report &middot; SPSA</div><h1>Tune of {}</h1>\
         <span class=\"status\">{}</span><div class=\"kpis\">",
        escape(&summary.engine),
        escape(&summary.status)
    );
    kpi(
        out,
        "Pairs",
        &format!("{} / {}", summary.played, summary.iterations),
        "played / planned",
    );
    kpi(out, "Games", &games.total().to_string(), "two a pair");
    kpi(
        out,
        "W / D / L",
        &format!("{} / {} / {}", games.wins, games.draws, games.losses),
        "for theta+ (theta + c against theta - c)",
    );
    kpi(out, "Score", &games.score(), "theta+; 50% when even");
    kpi(
        out,
        "Parameters",
        &summary.params.len().to_string(),
        "tuned together",
    );
    out.push_str("</div></header>\n");
}

/// The values table; its last values are "So far" while the tune goes on.
fn values_table(summary: &TuneSummary, ended: bool) -> String {
    let now = if ended { "Final" } else { "So far" };
    let mut t = format!(
        "<table><thead><tr><th>Parameter</th><th class=\"num\">Start</th><th class=\"num\">Min</th>\
         <th class=\"num\">Max</th><th class=\"num\">{now}</th><th class=\"num\">Sent as</th></tr></thead><tbody>",
    );
    for f in &summary.params {
        let p = &f.param;
        let _ = write!(
            t,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{:.2}</td><td class=\"num\">{}</td></tr>",
            escape(&p.name),
            p.start,
            p.min,
            p.max,
            f.value,
            f.rounded
        );
    }
    let _ = write!(
        t,
        "</tbody></table><pre class=\"config\">{}</pre>",
        escape(&summary.options_line)
    );
    t
}

fn results(summary: &TuneSummary, records: &[Record], games: Games) -> String {
    let mut t = String::from(
        "<table><thead><tr><th>Pairs by the theta+ side's wins minus losses</th><th class=\"num\">-2</th>\
         <th class=\"num\">-1</th><th class=\"num\">0</th><th class=\"num\">+1</th><th class=\"num\">+2</th>\
         </tr></thead><tbody><tr><td>pairs</td>",
    );
    for c in games.pairs {
        let _ = write!(t, "<td class=\"num\">{c}</td>");
    }
    t.push_str("</tr></tbody></table>");
    if records.is_empty() {
        t.push_str("<p class=\"note\">No pairs played yet.</p>");
        return t;
    }
    let (xs, ys, window) = moving_score(records);
    let _ = write!(
        t,
        "<div class=\"chart\">{}</div><p class=\"note\">0.5: the two sides are even; it drifts \
         from 0.5 while theta is far from the best values.</p>",
        score_chart(&xs, &ys, window, summary.played)
    );
    t
}

/// The whole page of a tune that ended.
#[must_use]
pub fn html(summary: &TuneSummary, records: &[Record], config: &str) -> String {
    html_at(summary, records, config, true)
}

/// The whole page, its values final when `ended`, else so far.
#[must_use]
pub fn html_at(summary: &TuneSummary, records: &[Record], config: &str, ended: bool) -> String {
    let games = Games::of(records);
    let mut page = head(&format!("xq-runner tune: {}", summary.engine));
    header(&mut page, summary, games);
    card(&mut page, "Values", &values_table(summary, ended));
    // One parameter alone gets the page's width; more go two a row.
    let alone = summary.params.len() == 1;
    let mut charts = String::from(if alone {
        "<div>"
    } else {
        "<div class=\"grid2\">"
    });
    for (i, p) in summary.params.iter().map(|f| &f.param).enumerate() {
        let values = summary
            .trajectory
            .values
            .get(i)
            .map_or(&[][..], Vec::as_slice);
        // Plain divs: `.chart + .chart` spaces charts in a column, not in a grid.
        let _ = write!(
            charts,
            "<div>{}</div>",
            param_chart(p, &summary.trajectory.pairs, values, summary.played, alone)
        );
    }
    charts.push_str(
        "</div><p class=\"note\">Each axis spans the values theta took; the dashed line is the \
         start, min and max are red lines when they fall on it.</p>",
    );
    card(&mut page, "Theta over pairs", &charts);
    card(&mut page, "Results", &results(summary, records, games));
    let _ = writeln!(
        page,
        "<section class=\"card\"><details><summary>Configuration</summary><pre class=\"config\">{}</pre></details></section>",
        escape(config)
    );
    page.push_str(&foot("xq-runner tune"));
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
    fn the_page_has_the_games_the_values_and_a_chart_per_parameter() {
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
        // A third of the pairs each: WW (+2), DL (-1), DD (0).
        let pairs = [(['W', 'W'], 2), (['D', 'L'], -1), (['D', 'D'], 0)];
        let records: Vec<Record> = (1..=30)
            .map(|k| Record {
                iteration: k,
                plus: BTreeMap::new(),
                minus: BTreeMap::new(),
                flip: BTreeMap::new(),
                games: pairs[k as usize % 3].0,
                result: pairs[k as usize % 3].1,
                theta: BTreeMap::from([
                    ("A".to_owned(), 5.0 + k as f64 / 10.0),
                    ("B<".to_owned(), 4.0),
                ]),
            })
            .collect();
        let summary = TuneSummary::new("e", 30, &params, &[8.0, 4.0], &records, "finished");
        let dir = tempfile::tempdir().expect("temp dir");
        write(dir.path(), &summary, &records, "[tune]\npairs = 30\n").expect("written");
        let page = std::fs::read_to_string(dir.path().join(REPORT_HTML)).expect("report.html");
        assert_eq!(
            page.matches("<svg").count(),
            3,
            "two parameters and the results"
        );
        assert!(!page.contains("<script") && !page.contains("<link") && !page.contains(" src="));
        assert!(page.contains("B&lt;") && !page.contains("B<<"));
        assert!(page.contains("pairs = 30"));
        assert!(
            page.contains("<div class=\"value\">20 / 30 / 10</div>"),
            "W / D / L of the theta+ side"
        );
        assert!(
            page.contains("<div class=\"value\">58.3%</div>"),
            "its score"
        );
        let counts = "<td class=\"num\">0</td><td class=\"num\">10</td><td class=\"num\">10</td>\
                      <td class=\"num\">0</td><td class=\"num\">10</td>";
        assert!(page.contains(counts), "pairs by wins minus losses");
        assert!(page.contains(".kpi {"), "the match report's style");
        // A's theta went from 5 to 8 in 0..10: its axis spans that, not the whole range,
        // and says where min and max are.
        let a = page
            .split("aria-label=\"A over pairs\"")
            .nth(1)
            .and_then(|rest| rest.split("</svg>").next())
            .expect("A's chart");
        let ticks: Vec<f64> = a
            .lines()
            .filter(|l| l.starts_with("<text x=\"56.0\"") && l.contains("text-anchor=\"end\""))
            .filter_map(|l| l.split('>').nth(1)?.split('<').next()?.parse().ok())
            .collect();
        let (lo, hi) = (ticks[0], ticks[ticks.len() - 1]);
        assert!(
            (4.0..5.0).contains(&lo) && (8.0..=9.0).contains(&hi),
            "{ticks:?}"
        );
        assert!(a.contains(">max 10 above, min 0 below</text>"), "{a}");
        assert!(a.contains(">start 5</text>"));
    }
}
