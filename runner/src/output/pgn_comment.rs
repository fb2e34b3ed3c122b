//! The comments of a PGN game, as cutechess and fastchess write them: a move's
//! `{+0.93/12 0.211s}` (score in pawns with a sign, mates in plies `+M5` / `-M4`,
//! depth, time; `n=`, `sd=`, `nps=` when asked for and the engine gave them) and the end
//! of the game naming the side (`Black loses on time`, `Red mates`, `Draw by
//! repetition`).
//!
//! Comments carry text from engines (an illegal move, an error message), and nothing in
//! a brace comment can be escaped in PGN: [`comment_text`] makes any text safe inside
//! `{...}`.

use std::fmt::Write as _;

use super::pgn::push_number;
use crate::client::Score;
use crate::config::PgnExtras;
use crate::game::{EndReason, Outcome, PlayedGame, PlayedMove};

/// Longest detail kept in an end comment: a long engine error stays in the journal.
const MAX_DETAIL: usize = 200;

/// Text made safe for a `{...}` comment: `{` and `}` become `(` and `)` (a brace would
/// end the comment and put the rest into the movetext, where `0-1` reads as a result),
/// and line breaks and other control characters become spaces, so no line of the
/// movetext can start with `%` (an escape line) from inside a comment.
#[must_use]
pub fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// Appends a score as cutechess and fastchess print it: pawns with a sign and two
/// decimals (`+0.93`, `-1.20`, `0.00`); mates in plies, `+M5` (mates in 3 moves) or `-M4`
/// (is mated in 2). Appended: the PGN writer allocates nothing a move.
pub fn push_score(out: &mut String, score: Score) {
    match score {
        Score::Units(u) => {
            let sign = match u.signum() {
                1 => "+",
                -1 => "-",
                _ => "",
            };
            let hundredths = i64::from(u).unsigned_abs();
            out.push_str(sign);
            push_number(out, hundredths / 100);
            out.push('.');
            push_padded(out, hundredths % 100, 2);
        }
        Score::Mate(m) if m > 0 => {
            out.push_str("+M");
            push_number(out, (2 * i64::from(m) - 1).unsigned_abs());
        }
        Score::Mate(m) => {
            out.push_str("-M");
            push_number(out, (-2 * i64::from(m)).unsigned_abs());
        }
    }
}

/// `n` with leading zeros to `width` digits (`n` below `10^width`).
fn push_padded(out: &mut String, n: u64, width: u32) {
    let mut unit = 10u64.pow(width.saturating_sub(1));
    while unit > 1 && n < unit {
        out.push('0');
        unit /= 10;
    }
    push_number(out, n);
}

/// Appends the comment of one engine move (without the braces): `+0.93/12 0.211s`, the
/// time alone without a score, and the extras asked for.
pub fn push_move_comment(out: &mut String, m: &PlayedMove, extras: PgnExtras) {
    if let Some(score) = m.score {
        push_score(out, score);
        if let Some(depth) = m.depth {
            out.push('/');
            push_number(out, u64::from(depth));
        }
        out.push(' ');
    }
    push_number(out, m.time_ms / 1000);
    out.push('.');
    push_padded(out, m.time_ms % 1000, 3);
    out.push('s');
    let fields = [
        (extras.nodes, "n", m.nodes),
        (extras.seldepth, "sd", m.seldepth.map(u64::from)),
        (extras.nps, "nps", m.nps),
    ];
    for (wanted, key, value) in fields {
        if let (true, Some(v)) = (wanted, value) {
            out.push_str(", ");
            out.push_str(key);
            out.push('=');
            push_number(out, v);
        }
    }
}

/// How the game ended, naming the side as cutechess does (`Red mates`, `Black loses on
/// time`, `Red makes an illegal move: ...`, `Draw by repetition`), with the runner's
/// detail; safe for a comment.
#[must_use]
pub fn end_comment(game: &PlayedGame) -> String {
    let (winner, loser) = match game.outcome {
        Outcome::RedWins => (Some("Red"), Some("Black")),
        Outcome::BlackWins => (Some("Black"), Some("Red")),
        Outcome::Draw => (None, None),
    };
    let mut detail = game.detail.as_deref();
    let words = match (game.reason, winner, loser) {
        (EndReason::Checkmate, Some(w), _) => format!("{w} mates"),
        (EndReason::Stalemate, Some(w), _) => format!("{w} wins by stalemate"),
        (EndReason::PerpetualCheck, _, Some(l)) => format!("{l} loses by perpetual check"),
        (EndReason::PerpetualChase, _, Some(l)) => format!("{l} loses by perpetual chase"),
        (EndReason::Repetition, None, _) => "Draw by repetition".to_owned(),
        (EndReason::MoveLimit, None, _) => "Draw by the natural move limit".to_owned(),
        (EndReason::InsufficientMaterial, None, _) => {
            "Draw by insufficient mating material".to_owned()
        }
        (EndReason::AdjudicationDraw, None, _) => "Draw by adjudication".to_owned(),
        (EndReason::AdjudicationResign, Some(w), _) => format!("{w} wins by adjudication"),
        (EndReason::MaxPlies, None, _) => "Draw by the maximum game length".to_owned(),
        (EndReason::TimeForfeit, _, Some(l)) => format!("{l} loses on time"),
        (EndReason::IllegalMove, _, Some(l)) => {
            // The game code's detail is "illegal move `x`"; the words say it already.
            detail = detail.map(|d| d.strip_prefix("illegal move ").unwrap_or(d));
            format!("{l} makes an illegal move")
        }
        (EndReason::NoMove, _, Some(l)) => format!("{l} makes an illegal move"),
        (EndReason::Crash, _, Some(l)) => format!("{l} disconnects"),
        (EndReason::Stall, _, Some(l)) => format!("{l}'s connection stalls"),
        // A result that does not fit its reason (a hand-edited journal): say both.
        (reason, _, _) => format!("{} ({})", reason.describe(), game.outcome.as_pgn()),
    };
    let mut text = words;
    if let Some(d) = detail.filter(|d| !d.trim().is_empty()) {
        let kept: String = d.chars().take(MAX_DETAIL).collect();
        let cut = if kept.len() < d.len() { "..." } else { "" };
        let _ = write!(text, ": {kept}{cut}");
    }
    comment_text(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score_text(score: Score) -> String {
        let mut text = String::new();
        push_score(&mut text, score);
        text
    }

    fn move_comment(m: &PlayedMove, extras: PgnExtras) -> String {
        let mut text = String::new();
        push_move_comment(&mut text, m, extras);
        text
    }

    fn played(score: Option<Score>, depth: Option<u32>) -> PlayedMove {
        PlayedMove {
            mv: xq_core::board::Move::parse("h2e2").unwrap_or_else(|e| panic!("{e}")),
            time_ms: 211,
            score,
            depth,
            nodes: Some(123_456),
            nps: Some(585_000),
            seldepth: Some(17),
        }
    }

    #[test]
    fn scores_are_pawns_with_a_sign_and_mates_count_plies() {
        assert_eq!(score_text(Score::Units(93)), "+0.93");
        assert_eq!(score_text(Score::Units(-120)), "-1.20");
        assert_eq!(score_text(Score::Units(-5)), "-0.05");
        assert_eq!(score_text(Score::Units(0)), "0.00");
        assert_eq!(score_text(Score::Mate(3)), "+M5");
        assert_eq!(score_text(Score::Mate(1)), "+M1");
        assert_eq!(score_text(Score::Mate(-2)), "-M4");
        assert_eq!(score_text(Score::Mate(0)), "-M0");
        assert_eq!(score_text(Score::Mate(i32::MAX)), "+M4294967293");
        // An engine's `mate -2147483648` is bounded when read, and stays negative.
        assert_eq!(score_text(Score::mate(i64::from(i32::MIN))), "-M20000");
    }

    #[test]
    fn a_move_comment_has_score_depth_and_time_or_only_the_time() {
        let none = PgnExtras::default();
        let m = played(Some(Score::Units(93)), Some(12));
        assert_eq!(move_comment(&m, none), "+0.93/12 0.211s");
        let m = played(Some(Score::Mate(3)), Some(12));
        assert_eq!(move_comment(&m, none), "+M5/12 0.211s");
        let m = played(None, None);
        assert_eq!(move_comment(&m, none), "0.211s");
        let m = played(Some(Score::Units(-7)), None);
        assert_eq!(move_comment(&m, none), "-0.07 0.211s");
    }

    #[test]
    fn extras_follow_fastchess_and_only_where_the_engine_gave_them() {
        let all = PgnExtras {
            nodes: true,
            seldepth: true,
            nps: true,
        };
        let m = played(Some(Score::Units(93)), Some(12));
        assert_eq!(
            move_comment(&m, all),
            "+0.93/12 0.211s, n=123456, sd=17, nps=585000"
        );
        let only_nodes = PgnExtras {
            nodes: true,
            ..PgnExtras::default()
        };
        assert_eq!(move_comment(&m, only_nodes), "+0.93/12 0.211s, n=123456");
        let silent = PlayedMove {
            nodes: None,
            nps: None,
            seldepth: None,
            ..m
        };
        assert_eq!(move_comment(&silent, all), "+0.93/12 0.211s");
    }

    #[test]
    fn braces_and_line_breaks_cannot_leave_a_comment() {
        assert_eq!(comment_text("x}0-1{"), "x)0-1(");
        assert_eq!(comment_text("a\n%b\r\tc"), "a %b  c");
        assert_eq!(comment_text("ok; 50% [x]"), "ok; 50% [x]");
    }
}
