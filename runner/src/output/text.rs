//! The text a user reads while a run goes on: fastchess's per-game lines and result
//! block, and a rating table for runs with more than two engines.

use std::fmt::Write as _;

use crate::game::PlayedGame;
use crate::stats::{Sprt, StatsReport, Tally};
use crate::store::journal::JournalEntry;

use super::summary::RatingLine;

/// `Finished game 7 (level6 vs level0): 1-0 {checkmate}`
#[must_use]
pub fn finished_line(number: u64, entry: &JournalEntry) -> String {
    format!(
        "Finished game {number} ({} vs {}): {} {{{}}}",
        entry.red,
        entry.black,
        entry.result.as_pgn(),
        entry.reason.code()
    )
}

/// The result block of a match, fastchess's layout; without an SPRT the LLR line is left out.
#[must_use]
pub fn result_block(names: (&str, &str), tally: &Tally, sprt: Option<&Sprt>) -> String {
    let design = sprt.copied().unwrap_or_default();
    let Ok(report) = StatsReport::from_tally(tally, &design) else {
        return String::new();
    };
    let mut out = format!("Results of {} vs {}:\n", names.0, names.1);
    for line in report.to_text().lines() {
        if sprt.is_none() && line.starts_with("LLR:") {
            continue;
        }
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The rating table: rank, name, Elo with its 95% interval, games and score.
#[must_use]
pub fn rating_table(lines: &[RatingLine]) -> String {
    let mut sorted: Vec<&RatingLine> = lines.iter().collect();
    sorted.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    let width = sorted
        .iter()
        .map(|l| l.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "Rank  {:<width$}  {:>8}  {:>7}  {:>6}  {:>6}\n",
        "Name", "Elo", "+/-", "Games", "Score"
    );
    for (rank, l) in sorted.iter().enumerate() {
        let score = if l.games > 0.0 {
            100.0 * l.points / l.games
        } else {
            0.0
        };
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>8.1}  {:>7.1}  {:>6}  {:>5.1}%",
            rank + 1,
            l.name,
            l.elo,
            l.ci95,
            l.games as u64,
            score
        );
    }
    out
}

/// A one-line description of a game for logs.
#[must_use]
pub fn describe(game: &PlayedGame) -> String {
    format!(
        "{} vs {}: {} {} after {} plies",
        game.red,
        game.black,
        game.outcome.as_pgn(),
        game.reason,
        game.plies()
    )
}
