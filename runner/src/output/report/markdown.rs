//! `summary.md`: the report as GitHub-flavoured markdown for CI job summaries
//! (`cat summary.md >> "$GITHUB_STEP_SUMMARY"`): a status line with a text marker
//! (`[PASS]`, `[FAIL]`, ...), the result block in a code fence, the rating table, the
//! pairings, the end reasons and the faults.

use std::fmt::Write as _;

use super::facts::Facts;
use super::{fixed, signed};
use crate::config::TournamentKind;

/// Text shown as text in a heading, a line or a table cell: no line breaks, no HTML
/// or entities, and every character markdown reads as markup escaped, so an engine
/// named `![t](https://...)` is its name, not an image fetched from a server.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '#' | '!' | '~' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Text inside a code span (`` `text` ``), where backslashes are literal: no
/// backticks, `|` escaped (tables split cells before code spans are read).
fn code(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '`' => "'".to_owned(),
            '|' => "\\|".to_owned(),
            c if c.is_control() => " ".to_owned(),
            c => c.to_string(),
        })
        .collect()
}

/// A code fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// A markdown table from a header and rows; columns named with a leading `>` are
/// right-aligned.
fn table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    let names: Vec<&str> = header.iter().map(|h| h.trim_start_matches('>')).collect();
    let align: Vec<&str> = header
        .iter()
        .map(|h| if h.starts_with('>') { "---:" } else { "---" })
        .collect();
    let _ = writeln!(out, "| {} |", names.join(" | "));
    let _ = writeln!(out, "| {} |", align.join(" | "));
    for row in rows {
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
    out.push('\n');
}

/// The markdown summary.
#[must_use]
pub fn summary_md(f: &Facts<'_>) -> String {
    let mut out = format!("## xq-runner: {}\n\n", cell(&f.title()));
    let exit = f
        .input
        .status
        .as_ref()
        .map_or_else(String::new, |s| format!(" · exit code {}", s.exit_code));
    let _ = writeln!(
        out,
        "**[{}] {}** · {} games, {} pairs{exit} · config `{}`\n",
        f.marker(),
        cell(&f.status()),
        f.games,
        f.pairs(),
        code(&f.input.meta.config_hash)
    );
    let block = if f.result_text.trim().is_empty() {
        "no games yet"
    } else {
        f.result_text.trim_end()
    };
    let fence = fence(block);
    let _ = writeln!(out, "{fence}text\n{block}\n{fence}\n");

    if f.input.kind != TournamentKind::Match && !f.ratings.is_empty() {
        out.push_str("### Ratings\n\n");
        let rows: Vec<Vec<String>> = f
            .ratings
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let score = if r.games > 0.0 {
                    100.0 * r.points / r.games
                } else {
                    0.0
                };
                vec![
                    (i + 1).to_string(),
                    cell(&r.name),
                    signed(r.elo, 1),
                    format!("{:.1}", r.ci95),
                    format!("{}", r.games),
                    format!("{score:.1}%"),
                ]
            })
            .collect();
        table(
            &mut out,
            &[">Rank", "Engine", ">Elo", ">95% ±", ">Games", ">Score"],
            &rows,
        );
    }

    out.push_str("### Pairings\n\n");
    let rows: Vec<Vec<String>> = f
        .pairings
        .iter()
        .map(|p| {
            let w = &p.tally.wdl;
            vec![
                cell(&p.first),
                cell(&p.second),
                p.tally.penta.pairs().to_string(),
                format!("{} / {} / {}", w.wins, w.draws, w.losses),
                format!(
                    "{} ± {}",
                    signed(p.estimate.elo, 2),
                    fixed(p.estimate.elo_ci95, 2)
                ),
                format!("[{}]", p.tally.penta),
            ]
        })
        .collect();
    table(
        &mut out,
        &[
            "First",
            "Second",
            ">Pairs",
            ">W / D / L",
            ">Elo",
            ">Ptnml(0-2)",
        ],
        &rows,
    );

    out.push_str("### End reasons\n\n");
    if f.reasons.is_empty() {
        out.push_str("No games yet.\n\n");
    } else {
        let total: u64 = f.reasons.iter().map(|r| r.games).sum();
        let rows: Vec<Vec<String>> = f
            .reasons
            .iter()
            .map(|r| {
                let share = 100.0 * r.games as f64 / total as f64;
                vec![
                    format!("`{}`", code(&r.code)),
                    r.games.to_string(),
                    format!("{share:.1}%"),
                ]
            })
            .collect();
        table(&mut out, &["Reason", ">Games", ">Share"], &rows);
    }

    out.push_str("### Faults\n\n");
    let mut header = vec!["Engine".to_owned()];
    header.extend(f.fault_codes.iter().map(|c| format!(">{c}")));
    header.push(">Total".to_owned());
    let rows: Vec<Vec<String>> = f
        .names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut row = vec![cell(name)];
            for code in &f.fault_codes {
                let n = f
                    .faults
                    .get(i)
                    .and_then(|m| m.get(*code))
                    .copied()
                    .unwrap_or(0);
                row.push(n.to_string());
            }
            row.push(f.fault_total(i).to_string());
            row
        })
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    table(&mut out, &header, &rows);
    if f.unpaired_faults > 0 {
        let _ = writeln!(
            out,
            "Faults count every game recorded: {} of them in games whose pair is not complete, not in the counts above.\n",
            f.unpaired_faults
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_fences_are_safe() {
        assert_eq!(cell("a|b<c>"), "a\\|b&lt;c&gt;");
        assert_eq!(
            cell("![t](https://x.io/a.png) *b* _i_ `c`"),
            "\\!\\[t\\]\\(https://x.io/a.png\\) \\*b\\* \\_i\\_ \\`c\\`"
        );
        assert_eq!(code("time_forfeit"), "time_forfeit");
        assert_eq!(code("a`b|c"), "a'b\\|c");
        assert_eq!(fence("no ticks"), "```");
        assert_eq!(fence("x ```` y"), "`````");
    }
}
