//! PGN for Xiangqi, as Xiangqi GUIs read it: `[Game "Chinese Chess"]`, `[Variant
//! "xiangqi"]`, Red/Black tags, `[FEN]` when the game does not start from the initial
//! position, moves in ICCS (`H2-E2`, `[Format "ICCS"]`) or WXF (`C2.5`, `[Format "WXF"]`),
//! a `{score/depth time}` comment per engine move and the termination.

use std::fmt::Write as _;

use xq_core::board::{Color, Position, START_FEN};
use xq_core::notation::format_wxf;

use crate::game::{PlayedGame, TimeControl};

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveFormat {
    /// ICCS coordinates with a dash and capitals: `H2-E2`.
    #[default]
    Iccs,
    /// WXF names: `C2.5`.
    Wxf,
}

/// Header fields that are not in the game record.
#[derive(Clone, Debug, Default)]
pub struct PgnContext {
    pub event: String,
    pub date: String,
    /// `pair.game`, e.g. `12.2`.
    pub round: String,
    pub time_control: Option<TimeControl>,
    pub opening_name: Option<String>,
    pub eco: Option<String>,
}

fn quote(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes one game.
#[must_use]
pub fn write_pgn(game: &PlayedGame, context: &PgnContext, format: MoveFormat) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", quote(value));
    };
    tag("Game", "Chinese Chess");
    tag("Event", &context.event);
    tag("Site", "xq-runner");
    tag("Date", &context.date);
    tag("Round", &context.round);
    tag("Red", &game.red);
    tag("Black", &game.black);
    tag("Result", game.outcome.as_pgn());
    tag("Variant", "xiangqi");
    if game.start_fen != START_FEN {
        tag("FEN", &game.start_fen);
    }
    tag(
        "Format",
        if format == MoveFormat::Wxf {
            "WXF"
        } else {
            "ICCS"
        },
    );
    if let Some(tc) = context.time_control {
        tag("TimeControl", &tc.to_string());
    }
    if let Some(name) = &context.opening_name {
        tag("Opening", name);
    }
    if let Some(eco) = &context.eco {
        tag("ECCO", eco);
    }
    tag(
        "PlyCount",
        &(game.opening_moves.len() + game.moves.len()).to_string(),
    );
    tag("Termination", game.reason.code());
    out.push('\n');

    let mut pos = Position::from_fen(&game.start_fen).unwrap_or_else(|_| Position::startpos());
    let mut text = String::new();
    let mut first = true;
    let book = game.opening_moves.iter().map(|&m| (m, None));
    let played = game.moves.iter().map(|m| (m.mv, Some(m)));
    for (mv, detail) in book.chain(played) {
        let number = pos.fullmove_number();
        match pos.side_to_move() {
            Color::Red => {
                let _ = write!(text, "{number}. ");
            }
            Color::Black if first => {
                let _ = write!(text, "{number}... ");
            }
            Color::Black => {}
        }
        first = false;
        let name = match format {
            MoveFormat::Iccs => mv.to_iccs_pgn(),
            MoveFormat::Wxf => format_wxf(&pos, mv),
        };
        text.push_str(&name);
        match detail {
            None => text.push_str(" {book}"),
            Some(m) => {
                let score = m
                    .score
                    .map_or_else(|| "-".to_owned(), crate::client::Score::to_comment);
                let depth = m.depth.map_or_else(String::new, |d| format!("/{d}"));
                let _ = write!(
                    text,
                    " {{{score}{depth} {:.3}s}}",
                    m.time_ms as f64 / 1000.0
                );
            }
        }
        text.push(' ');
        pos.make_move(mv);
    }
    let detail = game
        .detail
        .as_deref()
        .map(|d| format!(": {d}"))
        .unwrap_or_default();
    let _ = write!(
        text,
        "{{{}{}}} {}",
        game.reason.describe(),
        detail,
        game.outcome.as_pgn()
    );
    out.push_str(&wrap(&text, 80));
    out.push_str("\n\n");
    out
}

/// Breaks movetext into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split(' ') {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}
