//! The page's table of games: round, engines, opening, result, reason and plies, faults
//! highlighted, each result a link to the game's PGN.
//!
//! Without scripts: every listed game's PGN is on the page in a panel hidden by CSS
//! until the link makes it the `:target`; the panel is fixed over the page, so the
//! table stays where it was, and its close link targets nothing.

use std::fmt::Write as _;

use super::escape;
use super::facts::Facts;
use super::games::{GameList, GameRow, FAULT_GAMES, FIRST_GAMES};

/// Longest fault detail shown in the table (the PGN has it whole).
const DETAIL_SHOWN: usize = 90;

/// What the list holds, in words, and where the rest is: `games.pgn` holds the counted
/// games, so a game whose pair is unfinished is said apart.
fn list_note(list: &GameList, has_pgn: bool) -> String {
    let file = if has_pgn {
        "<a href=\"games.pgn\">games.pgn</a>"
    } else {
        "games.pgn (written when the run ends)"
    };
    let shown = list.rows.len() as u64;
    let open = "A result opens the game's PGN.";
    let counted = list.total - list.unpaired;
    let unfinished = |n: u64| {
        if n == 1 {
            "1 game of an unfinished pair".to_owned()
        } else {
            format!("{n} games of unfinished pairs")
        }
    };
    if shown == list.total {
        let faults = match list.faults {
            0 => String::new(),
            1 => " 1 ended by an engine fault (highlighted).".to_owned(),
            n => format!(" {n} ended by an engine fault (highlighted)."),
        };
        let all = if list.unpaired == 0 {
            format!(
                "All {} of the run, as in {file}.",
                plural(list.total, "game")
            )
        } else {
            format!(
                "All {} of the run: the {counted} in {file}, and {}, not counted and not in \
                 games.pgn (marked).",
                plural(list.total, "game"),
                unfinished(list.unpaired)
            )
        };
        return format!("{all}{faults} {open}");
    }
    let faults = match list.faults {
        0 => "; no game ended by an engine fault".to_owned(),
        n if n as usize <= FAULT_GAMES => {
            format!(", and all {n} that ended by an engine fault (highlighted)")
        }
        n => format!(
            ", and the first {FAULT_GAMES} of the {n} that ended by an engine fault (highlighted)"
        ),
    };
    let rest = match list.unpaired {
        0 => format!("Every game is in {file}."),
        n => format!(
            "Every counted game ({counted}) is in {file}; {}, not counted, {}.",
            unfinished(n),
            if n == 1 { "is not" } else { "are not" }
        ),
    };
    format!(
        "{shown} of the run's {} games: the first {FIRST_GAMES}{faults}. {rest} {open}",
        list.total
    )
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn row(out: &mut String, g: &GameRow) {
    let class = match (g.fault, g.counted) {
        (true, _) => " class=\"fault\"",
        (false, false) => " class=\"unpaired\"",
        (false, true) => "",
    };
    let mut reason = format!("<code>{}</code>", escape(&g.reason));
    if g.fault {
        if let Some(engine) = &g.faulted {
            let _ = write!(reason, " by {}", escape(engine));
        }
        if let Some(detail) = &g.detail {
            let short: String = detail.chars().take(DETAIL_SHOWN).collect();
            let more = if short.len() < detail.len() {
                "…"
            } else {
                ""
            };
            let _ = write!(
                reason,
                "<div class=\"detail\" title=\"{}\">{}{more}</div>",
                escape(detail),
                escape(&short)
            );
        }
    }
    if !g.counted {
        reason.push_str("<div class=\"detail\">not counted: its pair is unfinished</div>");
    }
    let _ = write!(
        out,
        "<tr{class}><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td>\
         <td><code>{}</code></td><td class=\"result\"><a href=\"#{}\">{}</a></td><td>{reason}</td>\
         <td class=\"num\">{}</td></tr>",
        g.number,
        escape(&g.round),
        escape(&g.red),
        escape(&g.black),
        escape(&g.opening),
        g.anchor(),
        escape(&g.result),
        g.plies
    );
}

fn pgn_panel(out: &mut String, g: &GameRow) {
    let _ = writeln!(
        out,
        "<div class=\"pgn\" id=\"{}\"><div class=\"pgn-head\"><span>Game {} (round {}): {} vs {}, {}</span>\
         <a class=\"close\" href=\"#close\">close</a></div><pre>{}</pre></div>",
        g.anchor(),
        g.number,
        escape(&g.round),
        escape(&g.red),
        escape(&g.black),
        escape(&g.result),
        escape(&g.pgn)
    );
}

/// The card of the listed games with their PGN panels.
#[must_use]
pub fn games_card(f: &Facts<'_>) -> String {
    let list = &f.input.games;
    let mut out = String::from("<section class=\"card\" id=\"games\"><h2>Games</h2>");
    if list.rows.is_empty() {
        out.push_str("<p class=\"note\">No games yet.</p></section>\n");
        return out;
    }
    let _ = write!(
        out,
        "<p class=\"note\">{}</p><div class=\"games\"><table><thead><tr><th class=\"num\">#</th>\
         <th class=\"num\">Round</th><th>Red</th><th>Black</th><th>Opening</th><th>Result</th>\
         <th>Reason</th><th class=\"num\">Plies</th></tr></thead><tbody>",
        list_note(list, f.input.has_pgn)
    );
    for g in &list.rows {
        row(&mut out, g);
    }
    out.push_str("</tbody></table></div>\n");
    for g in &list.rows {
        pgn_panel(&mut out, g);
    }
    out.push_str("</section>\n");
    out
}
