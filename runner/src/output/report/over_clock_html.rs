//! The page's card of moves over the clock: per engine, its moves that took longer than
//! the time left on its clock and the time beyond it, warned of past a tenth of its base
//! time a game (`output::over_clock`).

use std::fmt::Write as _;

use super::escape;
use super::facts::Facts;
use crate::output::over_clock::WARN_SHARE;

/// The card; empty for a run without a clock where no move went over one.
pub(super) fn over_clock_card(f: &Facts<'_>) -> String {
    let any = f.over_clock.iter().any(|(_, l)| l.moves > 0);
    if !f.clocked && !any {
        return String::new();
    }
    let mut t = String::from(
        "<section class=\"card\"><h2>Time beyond the clock</h2><table><thead><tr><th>Engine</th>\
         <th class=\"num\">Games</th><th class=\"num\">Moves over the clock</th>\
         <th class=\"num\">Time beyond (ms)</th><th class=\"num\">Per game (ms)</th>\
         <th class=\"num\">Of the base time</th></tr></thead><tbody>",
    );
    for (name, l) in &f.over_clock {
        let class = |bad: bool| if bad { "num bad" } else { "num zero" };
        let per_game = l
            .ms_per_game
            .map_or_else(|| "n/a".to_owned(), |v| format!("{v:.0}"));
        let share = l
            .share_of_base
            .map_or_else(|| "n/a".to_owned(), |s| format!("{:.1}%", 100.0 * s));
        let _ = write!(
            t,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"{}\">{}</td><td class=\"{}\">{}</td>\
             <td class=\"num\">{per_game}</td><td class=\"{}\">{share}</td></tr>",
            escape(name),
            l.games,
            class(l.moves > 0),
            l.moves,
            class(l.ms > 0),
            l.ms,
            class(l.warning),
        );
    }
    t.push_str("</tbody></table>");
    let warned: Vec<String> = f
        .over_clock
        .iter()
        .filter(|(_, l)| l.warning)
        .map(|(name, _)| escape(name))
        .collect();
    if warned.is_empty() {
        t.push_str("<p class=\"note\">Moves that took longer than the time left on the engine's clock, and the time beyond it.</p>");
    } else {
        let _ = write!(
            t,
            "<p class=\"note\"><strong>Warning:</strong> {} took more than {:.0}% of the base time a game beyond the clock: \
             a clamped clock (<code>time.margin_mode = \"clamp\"</code>, the default) forgives up to the margin on every move; \
             <code>\"cumulative\"</code> makes a move owe it.</p>",
            warned.join(", "),
            100.0 * WARN_SHARE
        );
    }
    t.push_str("</section>\n");
    t
}
