//! The workers table of a run's page, a match's or a tune's: per worker its batches,
//! games, games a second, last heartbeat, and for a match the residual of its pairs,
//! its time losses and crashes per game, and why it refused the run.

use std::fmt::Write as _;

use super::pages::age;
use crate::fleet::status::WorkerLine;
use crate::output::report::{escape, fixed};

/// The workers of a run: games/s, last heartbeat, residual, time losses and crashes per
/// game.
pub(crate) fn workers_table(workers: &[WorkerLine]) -> String {
    if workers.is_empty() {
        return "<p class=\"note\">No worker has played this run yet.</p>".to_owned();
    }
    let mut t = String::from(
        "<table class=\"list\"><thead><tr><th>Worker</th><th>Batches</th><th>Games</th>\
         <th>Games/s</th><th>Last heartbeat</th><th>Residual</th><th>Time losses</th>\
         <th>Crashes</th><th></th></tr></thead><tbody>",
    );
    for w in workers {
        let per_game =
            |v: Option<f64>| v.map_or_else(|| "n/a".to_owned(), |v| format!("{:.1}%", v * 100.0));
        let residual = w
            .results
            .as_ref()
            .and_then(|r| r.residual)
            .map_or_else(|| "n/a".to_owned(), |z| fixed(z, 2));
        let note = match (&w.refused, w.results.as_ref().is_some_and(|r| r.bad)) {
            (Some(why), _) => format!("refused the run: {}", escape(why)),
            (None, true) => "its pairs do not fit the rest".to_owned(),
            _ => String::new(),
        };
        let _ = write!(
            t,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{residual}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td>{note}</td></tr>",
            escape(&w.name),
            w.batches,
            w.games,
            w.games_per_s,
            w.last_seen_s_ago
                .map_or_else(|| "never".to_owned(), |s| format!("{} ago", age(s))),
            per_game(w.results.as_ref().map(|r| r.time_losses_per_game)),
            per_game(w.results.as_ref().map(|r| r.crashes_per_game)),
        );
    }
    t.push_str("</tbody></table>");
    t
}
