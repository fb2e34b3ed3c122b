//! The text a user reads while a run goes on: fastchess's per-game lines and result
//! block, and a rating table for runs with more than two engines.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::stats::{Sprt, StatsReport, Tally};
use crate::store::ending::Ending;
use crate::store::journal::JournalEntry;

use super::progress::duration_text;
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

/// The last line of a run: `Finished: 75 games in 3.0 s, H1 accepted; results in
/// out/quick`. A plain `finished` adds nothing after the count, and an interrupted or
/// aborted run says so first instead of `Finished`.
#[must_use]
pub fn finished_text(ending: &Ending, games: u64, seconds: f64, dir: &Path) -> String {
    let games = if games == 1 {
        "1 game".to_owned()
    } else {
        format!("{games} games")
    };
    let time = if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else {
        duration_text(Duration::from_secs_f64(seconds.max(0.0)))
    };
    let head = match ending {
        Ending::Finished => format!("Finished: {games} in {time}"),
        Ending::Interrupted => format!("Interrupted: {games} in {time}"),
        Ending::Aborted(why) if why.is_empty() => format!("Aborted: {games} in {time}"),
        Ending::Aborted(why) => format!("Aborted: {games} in {time} ({why})"),
        // `Finished: ..., finished without ...` would say it twice.
        Ending::NoVerdict => format!("Finished: {games} in {time}, without an SPRT verdict"),
        other => format!("Finished: {games} in {time}, {other}"),
    };
    format!("{head}; results in {}", dir.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_says_games_time_and_how_the_run_ended() {
        let dir = Path::new("out/quick");
        assert_eq!(
            finished_text(&Ending::H1Accepted, 75, 3.04, dir),
            "Finished: 75 games in 3.0 s, H1 accepted; results in out/quick"
        );
        assert_eq!(
            finished_text(&Ending::Finished, 200, 185.0, dir),
            "Finished: 200 games in 3m 05s; results in out/quick"
        );
        assert_eq!(
            finished_text(&Ending::Interrupted, 1, 0.5, dir),
            "Interrupted: 1 game in 0.5 s; results in out/quick"
        );
        assert_eq!(
            finished_text(&Ending::aborted("3 crashes of `bad`"), 4, 1.0, dir),
            "Aborted: 4 games in 1.0 s (3 crashes of `bad`); results in out/quick"
        );
        assert_eq!(
            finished_text(&Ending::NoVerdict, 20, 2.0, dir),
            "Finished: 20 games in 2.0 s, without an SPRT verdict; results in out/quick"
        );
        let shard = crate::store::meta::Shard::new(1, 2).expect("shard");
        assert_eq!(
            finished_text(&Ending::shard_done(shard), 4, 1.0, dir),
            "Finished: 4 games in 1.0 s, shard 1/2 played (merge the shards for the run's \
             result); results in out/quick"
        );
        assert_eq!(
            finished_text(&Ending::Aborted(String::new()), 2, 1.0, dir),
            "Aborted: 2 games in 1.0 s; results in out/quick"
        );
    }
}
