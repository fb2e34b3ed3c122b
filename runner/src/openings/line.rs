//! Reading one line of an opening file (grammar in `openings/README.md`).

use xq_core::board::{FenError, Move, Position};
use xq_core::movegen;

use super::error::LineError;
use super::fields::parse_fields;
use super::opening::Opening;

/// The keyword between the FEN and the moves.
const MOVES_KEYWORD: &str = "moves";

/// Most whitespace-separated fields a FEN has.
const FEN_FIELDS: usize = 6;

/// Reads one line (without its line ending). `Ok(None)` for a blank line or
/// a comment; `line` is stored in the opening.
///
/// # Errors
/// [`LineError`] naming the first thing wrong: the FEN, a move (with its index),
/// or a field (with its column).
///
/// # Examples
/// ```
/// use xq_runner::openings::parse_line;
///
/// let text = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \
///             moves h2e2 h9g7 ; name \"Central cannon\" ; eco B05";
/// let opening = parse_line(text, 1)?.expect("not a comment");
/// assert_eq!(opening.moves.len(), 2);
/// assert_eq!(opening.eco.as_deref(), Some("B05"));
/// assert!(parse_line("  # a comment", 2)?.is_none());
/// # Ok::<(), xq_runner::openings::LineError>(())
/// ```
pub fn parse_line(text: &str, line: usize) -> Result<Option<Opening>, LineError> {
    let text = text.strip_suffix('\r').unwrap_or(text);
    let head_end = text.find([';', '#']).unwrap_or(text.len());
    let head = &text[..head_end];
    let has_fields = text[head_end..].starts_with(';');
    if head.trim().is_empty() && !has_fields {
        return Ok(None);
    }
    let tokens: Vec<&str> = head.split_whitespace().collect();
    let split = tokens
        .iter()
        .position(|&t| t == MOVES_KEYWORD)
        .unwrap_or(tokens.len());
    let (fen_tokens, move_tokens) = tokens.split_at(split);
    let start = parse_fen(fen_tokens)?;
    let moves = move_tokens.get(1..).unwrap_or_default();
    let mut opening = play_moves(start, moves)?;
    if has_fields {
        let fields = parse_fields(text, head_end)?;
        opening.name = fields.name;
        opening.eco = fields.eco;
        opening.fields = fields.other;
    }
    opening.line = line;
    Ok(Some(opening))
}

fn parse_fen(tokens: &[&str]) -> Result<Position, LineError> {
    if tokens.len() > FEN_FIELDS {
        // A complete FEN followed by something else: name the something else.
        if Position::from_fen(&tokens[..FEN_FIELDS].join(" ")).is_ok() {
            return Err(LineError::ExtraText {
                text: tokens[FEN_FIELDS].to_owned(),
            });
        }
    }
    if tokens.is_empty() {
        return Err(LineError::Fen(FenError::Empty));
    }
    Position::from_fen(&tokens.join(" ")).map_err(LineError::Fen)
}

fn play_moves(start: Position, texts: &[&str]) -> Result<Opening, LineError> {
    let mut moves = Vec::with_capacity(texts.len());
    let mut position = start.clone();
    for (i, &text) in texts.iter().enumerate() {
        let index = i + 1;
        let m = Move::parse(text).map_err(|reason| LineError::BadMoveText {
            index,
            text: text.to_owned(),
            reason,
        })?;
        if !movegen::is_legal(&position, m) {
            return Err(LineError::IllegalMove {
                index,
                text: text.to_owned(),
                side: position.side_to_move(),
            });
        }
        position.make_move(m);
        moves.push(m);
    }
    Ok(Opening::from_parts(start, moves, position))
}

#[cfg(test)]
mod tests {
    use xq_core::board::{Color, START_FEN};
    use xq_core::rules::{GameResult, Reason, Rules, Ruleset};

    use super::*;

    fn parse(text: &str) -> Result<Option<Opening>, LineError> {
        parse_line(text, 7)
    }

    fn opening(text: &str) -> Opening {
        match parse(text) {
            Ok(Some(o)) => o,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn blank_and_comment_lines_are_skipped() {
        for text in [
            "",
            "   ",
            "\r",
            "# comment",
            "   # indented comment ; eco A00",
            "\t\r",
        ] {
            assert_eq!(parse(text), Ok(None), "{text:?}");
        }
    }

    #[test]
    fn plain_fen_short_fen_and_crlf() {
        let o = opening(&format!("{START_FEN}\r"));
        assert!(o.moves.is_empty());
        assert_eq!(o.position().to_fen(), START_FEN);
        assert_eq!(o.line, 7);
        let short = opening("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
        assert_eq!(short.position().side_to_move(), Color::Black);
    }

    #[test]
    fn fen_moves_and_fields() {
        let o = opening(&format!(
            "{START_FEN} moves h2e2 h9g7 h0g2 ; name \"Central cannon vs screen horse (中炮)\" ; eco C00 ; source book # note"
        ));
        assert_eq!(o.moves.len(), 3);
        assert_eq!(o.position().side_to_move(), Color::Black);
        assert_eq!(
            o.name.as_deref(),
            Some("Central cannon vs screen horse (中炮)")
        );
        assert_eq!(o.eco.as_deref(), Some("C00"));
        assert_eq!(o.fields.get("source").map(String::as_str), Some("book"));
        assert_eq!(opening(&o.to_line()), o, "to_line reads back");
        let empty_moves = opening(&format!("{START_FEN} moves"));
        assert!(empty_moves.moves.is_empty());
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(parse("; name x"), Err(LineError::Fen(FenError::Empty)));
        assert!(matches!(
            parse("rnbakabnr/9 w"),
            Err(LineError::Fen(FenError::RowCount(2)))
        ));
        assert_eq!(
            parse(&format!("{START_FEN} h2e2")),
            Err(LineError::ExtraText {
                text: "h2e2".into()
            })
        );
        assert!(matches!(
            parse(&format!("{START_FEN} moves h2e2 h9x7")),
            Err(LineError::BadMoveText { index: 2, .. })
        ));
        assert_eq!(
            parse(&format!("{START_FEN} moves h2e2 h9g7 h2h9")),
            Err(LineError::IllegalMove {
                index: 3,
                text: "h2h9".into(),
                side: Color::Red
            })
        );
        assert!(matches!(
            parse(&format!("{START_FEN} moves h2e2 ; name \"x")),
            Err(LineError::UnterminatedQuote { .. })
        ));
    }

    #[test]
    fn game_over_and_mirror_key() {
        let rules = Rules::default();
        // Two rooks on a9 and a8 mate the bare king on e9.
        let mated = opening("R3k4/R8/9/9/9/9/9/9/9/3K5 b");
        assert!(mated
            .game_over(rules)
            .is_some_and(|g| g.reason == Reason::Checkmate && g.to_move == Color::Black));
        let start = opening(START_FEN);
        assert_eq!(start.game_over(rules), None);
        let left = opening(&format!("{START_FEN} moves h2e2"));
        let right = opening(&format!("{START_FEN} moves b2e2"));
        assert_ne!(left.position().key(), right.position().key());
        assert_eq!(left.canonical_key(), right.canonical_key());
    }

    #[test]
    fn an_opening_the_judge_ends_before_the_first_move_is_over() {
        let rules = Rules::default();
        let over = |text: &str| opening(text).game_over(rules).map(|g| (g.reason, g.result));
        // Rook a7-a8 leaves Black's king on d9 no move, not in check: Black loses.
        assert_eq!(
            over("3k5/9/R8/9/9/9/9/9/9/4K4 w moves a7a8"),
            Some((Reason::Stalemate, GameResult::RedWins))
        );
        // Both horses out and back twice: the start position for the third time.
        let twice = "b0c2 b9c7 c2b0 c7b9";
        let third = format!("{START_FEN} moves {twice} {twice}");
        assert_eq!(over(&third), Some((Reason::Repetition, GameResult::Draw)));
        let message = opening(&third).game_over(rules).map(|g| g.to_string());
        assert_eq!(
            message.as_deref(),
            Some("the game is already over: its moves repeat a position (repetition: 1/2-1/2)")
        );
        // Twice is not three times, and the computer ruleset waits for a fourth.
        assert_eq!(over(&format!("{START_FEN} moves {twice}")), None);
        let computer = Rules::new(Ruleset::Computer);
        assert_eq!(opening(&third).game_over(computer), None);
        // Bare kings: nothing left that could ever give mate.
        assert_eq!(
            over("3k5/9/9/9/9/9/9/9/9/4K4 w"),
            Some((Reason::InsufficientMaterial, GameResult::Draw))
        );
        // 120 plies without a capture already on the FEN's counter.
        assert_eq!(
            over("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 120 61"),
            Some((Reason::MoveLimit, GameResult::Draw))
        );
        assert_eq!(
            opening("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 120 61").game_over(rules.with_move_limit(0)),
            None
        );
    }
}
