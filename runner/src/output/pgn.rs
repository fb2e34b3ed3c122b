//! PGN for Xiangqi, as Xiangqi GUIs read it: `[Game "Chinese Chess"]`, `[Variant
//! "xiangqi"]`, Red/Black tags, `[FEN]` when the game does not start from the initial
//! position, moves in ICCS (`H2-E2`, `[Format "ICCS"]`) or WXF (`C2.5`, `[Format "WXF"]`),
//! a cutechess-style `{+0.93/12 0.211s}` comment per engine move (`pgn_comment.rs`) and
//! the end of the game in words naming the side, appended to the last move's comment as
//! cutechess and fastchess do.

use std::fmt::Write as _;

use xq_core::board::{Color, Position, START_FEN};
use xq_core::notation::format_wxf;

use super::pgn_comment::{end_comment, push_move_comment};
use crate::config::{MoveFormat, PgnExtras};
use crate::game::{PlayedGame, TimeControl};

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

/// A tag value: `\\` and `"` escaped as PGN says, line breaks and other control
/// characters (which would end the tag) made spaces.
fn push_quoted(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
}

/// Appends `n` in decimal (the PGN writer's hot path: no formatting machinery).
pub(crate) fn push_number(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

/// Appends one game to `out`; `extras` adds nodes, selective depth and nps to the move
/// comments.
pub fn push_pgn(
    out: &mut String,
    game: &PlayedGame,
    context: &PgnContext,
    format: MoveFormat,
    extras: PgnExtras,
) {
    let mut tag = |name: &str, value: &str| {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        push_quoted(out, value);
        out.push_str("\"]\n");
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
    let mut text = String::with_capacity(64 * (game.opening_moves.len() + game.moves.len() + 2));
    let mut first = true;
    let book = game.opening_moves.iter().map(|&m| (m, None));
    let played = game.moves.iter().map(|m| (m.mv, Some(m)));
    let last = game.moves.len().checked_sub(1);
    for (i, (mv, detail)) in book.chain(played).enumerate() {
        let number = pos.fullmove_number();
        match pos.side_to_move() {
            Color::Red => {
                push_number(&mut text, u64::from(number));
                text.push_str(". ");
            }
            Color::Black if first => {
                push_number(&mut text, u64::from(number));
                text.push_str("... ");
            }
            Color::Black => {}
        }
        first = false;
        match format {
            MoveFormat::Iccs => mv.push_iccs_pgn(&mut text),
            MoveFormat::Wxf => text.push_str(&format_wxf(&pos, mv)),
        }
        match detail {
            None => text.push_str(" {book}"),
            Some(m) => {
                text.push_str(" {");
                push_move_comment(&mut text, m, extras);
                // The end of the game goes into the last engine move's comment.
                if last == i.checked_sub(game.opening_moves.len()) {
                    let _ = write!(text, ", {}", end_comment(game));
                }
                text.push('}');
            }
        }
        text.push(' ');
        pos.make_move(mv);
    }
    if game.moves.is_empty() {
        // No engine move to carry it: a comment of its own.
        let _ = write!(text, "{{{}}} ", end_comment(game));
    }
    text.push_str(game.outcome.as_pgn());
    wrap_into(out, &text, 80);
    out.push_str("\n\n");
}

/// Breaks movetext into lines of at most `width` characters at spaces. A word that
/// starts with `%` never starts a line (PGN reads such a line as an escape and skips
/// it), so its line may run longer.
#[cfg(test)]
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    wrap_into(&mut out, text, width);
    out
}

/// [`wrap`], appended to `out`.
fn wrap_into(out: &mut String, text: &str, width: usize) {
    out.reserve(text.len() + text.len() / width + 1);
    let mut line_len = 0;
    for word in text.split(' ') {
        if line_len > 0 && line_len + 1 + word.len() > width && !word.starts_with('%') {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Score;
    use crate::game::{EndReason, Outcome, PlayedMove};
    use xq_core::board::Move;

    /// One game's PGN.
    fn write_pgn(
        game: &PlayedGame,
        context: &PgnContext,
        format: MoveFormat,
        extras: PgnExtras,
    ) -> String {
        let mut out = String::new();
        push_pgn(&mut out, game, context, format, extras);
        out
    }

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn engine_move(text: &str, score: Option<Score>, depth: Option<u32>) -> PlayedMove {
        PlayedMove {
            mv: mv(text),
            time_ms: 211,
            score,
            depth,
            nodes: Some(4_000),
            nps: Some(19_000),
            seldepth: depth.map(|d| d + 3),
        }
    }

    /// Red opens h2e2 from the book, then the engines play three moves.
    fn game(outcome: Outcome, reason: EndReason, detail: Option<&str>) -> PlayedGame {
        PlayedGame {
            red: "red engine".to_owned(),
            black: "black engine".to_owned(),
            start_fen: START_FEN.to_owned(),
            opening_moves: vec![mv("h2e2")],
            moves: vec![
                engine_move("h9g7", Some(Score::Units(-35)), Some(9)),
                engine_move("h0g2", Some(Score::Mate(3)), Some(12)),
                engine_move("i9h9", None, None),
            ],
            outcome,
            reason,
            faulted: None,
            detail: detail.map(str::to_owned),
            over_clock: Default::default(),
        }
    }

    /// The PGN of a game with its movetext on one line (the tags as written).
    fn pgn(game: &PlayedGame) -> String {
        flat(&write_pgn(
            game,
            &PgnContext::default(),
            MoveFormat::Iccs,
            PgnExtras::default(),
        ))
    }

    /// Tags as written, the movetext's lines joined by spaces.
    fn flat(pgn: &str) -> String {
        let (tags, moves): (Vec<&str>, Vec<&str>) = pgn
            .lines()
            .filter(|l| !l.is_empty())
            .partition(|l| l.starts_with('['));
        format!("{}\n\n{}", tags.join("\n"), moves.join(" "))
    }

    /// The movetext with every `{...}` comment removed, as a PGN reader sees it.
    fn outside_comments(pgn: &str) -> String {
        let movetext: Vec<&str> = pgn.lines().filter(|l| !l.starts_with('[')).collect();
        let mut plain = String::new();
        let mut depth = 0;
        for c in movetext.join(" ").chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        plain.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn moves_carry_cutechess_comments_and_the_last_one_the_end() {
        let text = pgn(&game(Outcome::RedWins, EndReason::Checkmate, None));
        let movetext = "1. H2-E2 {book} H9-G7 {-0.35/9 0.211s} 2. H0-G2 {+M5/12 0.211s} \
                        I9-H9 {0.211s, Black mates} 0-1";
        // Black played the last move here, and this game's recorded result is 1-0: the
        // words follow the result, not the last mover.
        let expected = movetext.replace("Black mates} 0-1", "Red mates} 1-0");
        assert!(text.contains(&expected), "{text}");
        assert!(!text.contains("{- "), "no `-` for a missing score: {text}");
    }

    #[test]
    fn extras_are_written_when_asked() {
        let extras = PgnExtras {
            nodes: true,
            seldepth: true,
            nps: true,
        };
        let g = game(Outcome::Draw, EndReason::Repetition, None);
        let text = flat(&write_pgn(
            &g,
            &PgnContext::default(),
            MoveFormat::Iccs,
            extras,
        ));
        assert!(
            text.contains("{-0.35/9 0.211s, n=4000, sd=12, nps=19000}"),
            "{text}"
        );
        assert!(text.contains("{0.211s, n=4000, nps=19000, Draw by repetition}"));
    }

    #[test]
    fn every_end_reason_is_named_with_its_side() {
        let red_loses = Outcome::BlackWins;
        let cases = [
            (Outcome::RedWins, EndReason::Checkmate, "Red mates"),
            (red_loses, EndReason::Stalemate, "Black wins by stalemate"),
            (
                red_loses,
                EndReason::PerpetualCheck,
                "Red loses by perpetual check",
            ),
            (
                red_loses,
                EndReason::PerpetualChase,
                "Red loses by perpetual chase",
            ),
            (Outcome::Draw, EndReason::Repetition, "Draw by repetition"),
            (
                Outcome::Draw,
                EndReason::MoveLimit,
                "Draw by the natural move limit",
            ),
            (
                Outcome::Draw,
                EndReason::InsufficientMaterial,
                "Draw by insufficient mating material",
            ),
            (
                Outcome::Draw,
                EndReason::AdjudicationDraw,
                "Draw by adjudication",
            ),
            (
                Outcome::RedWins,
                EndReason::AdjudicationResign,
                "Red wins by adjudication",
            ),
            (
                Outcome::Draw,
                EndReason::MaxPlies,
                "Draw by the maximum game length",
            ),
            (red_loses, EndReason::TimeForfeit, "Red loses on time"),
            (
                Outcome::RedWins,
                EndReason::TimeForfeit,
                "Black loses on time",
            ),
            (
                red_loses,
                EndReason::IllegalMove,
                "Red makes an illegal move",
            ),
            (red_loses, EndReason::NoMove, "Red makes an illegal move"),
            (red_loses, EndReason::Crash, "Red disconnects"),
            (
                Outcome::RedWins,
                EndReason::Stall,
                "Black's connection stalls",
            ),
        ];
        for reason in EndReason::ALL {
            assert!(cases.iter().any(|c| c.1 == reason), "{reason} has no case");
        }
        for (outcome, reason, words) in cases {
            let text = pgn(&game(outcome, reason, None));
            let end = format!(", {words}}} {}", outcome.as_pgn());
            assert!(text.contains(&end), "{reason}: {text}");
        }
    }

    #[test]
    fn the_detail_follows_the_words() {
        let g = game(
            Outcome::RedWins,
            EndReason::TimeForfeit,
            Some("answered after 1200 ms with 1000 ms left"),
        );
        assert!(
            pgn(&g).contains("Black loses on time: answered after 1200 ms with 1000 ms left} 1-0")
        );
        let g = game(
            Outcome::BlackWins,
            EndReason::IllegalMove,
            Some("illegal move `a0a5`"),
        );
        assert!(pgn(&g).contains("Red makes an illegal move: `a0a5`} 0-1"));
    }

    #[test]
    fn a_game_without_engine_moves_still_says_how_it_ended() {
        let mut g = game(Outcome::BlackWins, EndReason::Crash, Some("exit status 1"));
        g.moves.clear();
        assert!(
            pgn(&g).contains("1. H2-E2 {book} {Red disconnects: exit status 1} 0-1"),
            "{}",
            pgn(&g)
        );
    }

    #[test]
    fn engine_text_cannot_break_out_of_a_comment_or_a_tag() {
        // Issue 31 item 7: `bestmove x}0-1{` closed the comment and put a result into
        // the movetext.
        let mut g = game(
            Outcome::BlackWins,
            EndReason::IllegalMove,
            Some("illegal move `x}0-1{`\n%escape\n; rest"),
        );
        g.red = "evil\"] [Result \"1-0\\".to_owned();
        g.black = "two\nlines".to_owned();
        let raw = write_pgn(
            &g,
            &PgnContext::default(),
            MoveFormat::Iccs,
            PgnExtras::default(),
        );
        for line in raw.lines() {
            assert!(!line.starts_with('%'), "an escape line: {raw}");
        }
        let text = flat(&raw);
        assert_eq!(
            outside_comments(&text),
            "1. H2-E2 H9-G7 2. H0-G2 I9-H9 0-1",
            "{text}"
        );
        assert!(
            text.contains("[Red \"evil\\\"] [Result \\\"1-0\\\\\"]"),
            "{text}"
        );
        assert!(text.contains("[Black \"two lines\"]"), "{text}");
        let results = text.lines().filter(|l| l.starts_with("[Result ")).count();
        assert_eq!(results, 1, "{text}");
    }

    #[test]
    fn a_percent_word_never_starts_a_line() {
        let words: Vec<String> = (0..40).map(|i| format!("w{i}")).collect();
        let text = format!("{} %x {}", words.join(" "), words.join(" "));
        for width in 5..60 {
            let wrapped = wrap(&text, width);
            assert!(wrapped.lines().all(|l| !l.starts_with('%')), "{wrapped}");
            assert_eq!(
                wrapped.split_whitespace().collect::<Vec<_>>().join(" "),
                text
            );
        }
    }
}
