use xq_core::board::START_FEN;

use super::*;
use crate::openings::format::BookReader;
use crate::openings::BookFormat;

fn read(text: &str) -> Vec<(Result<Opening, OpeningError>, Place)> {
    let mut reader = PgnReader::new(text.as_bytes());
    std::iter::from_fn(|| reader.next_with_place()).collect()
}

fn moves(o: &Opening) -> String {
    o.moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

const XQ_WIZARD: &str = r#"[Game "Chinese Chess"]
[Event "Test"]
[Red "A"]
[Black "B"]
[Result "1-0"]
[ECCO "C70"]
[Opening "Central cannon"]
[Variation "screen horses"]
[Format "ICCS"]

1. H2-E2 H9-G7 {a comment
that runs on} 2. H0-G2 $1 (2. B0-C2 (2. C3-C4) B9-C7) I9-H9 ; line comment h2h9
% an escape line B2-B9
3. I0-H0 B9-C7!? 1-0

[Event "Second"]
[FEN "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"]
[Format "WXF"]
1. R9.5 K5.6 *
1. c3c4 * 1. g3g4 g6g5 *
"#;

#[test]
fn reads_xq_wizard_games_with_comments_variations_and_fens() {
    let games = read(XQ_WIZARD);
    assert_eq!(games.len(), 4, "{games:?}");
    let first = games[0].0.as_ref().expect("game 1");
    assert_eq!(moves(first), "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7");
    assert_eq!(first.name.as_deref(), Some("Central cannon: screen horses"));
    assert_eq!(first.eco.as_deref(), Some("C70"));
    assert_eq!((first.line, games[0].1.line, games[0].1.offset), (1, 1, 0));
    let second = games[1].0.as_ref().expect("game 2");
    assert_eq!(second.start.to_fen(), "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    assert_eq!(moves(second), "a1e1 e9f9");
    assert_eq!(second.line, 16);
    // Two games on one line: the second starts after the first's result.
    let (third, fourth) = (&games[2], &games[3]);
    assert_eq!(third.0.as_ref().map(moves).ok().as_deref(), Some("c3c4"));
    assert_eq!(
        fourth.0.as_ref().map(moves).ok().as_deref(),
        Some("g3g4 g6g5")
    );
    assert_eq!((third.1.line, third.1.column), (20, 0));
    assert_eq!((fourth.1.line, fourth.1.column), (20, 10));
    assert_eq!(
        fourth.0.as_ref().map(|o| o.start.to_fen()).ok().as_deref(),
        Some(START_FEN)
    );
}

#[test]
fn a_game_read_again_from_its_place_is_the_same() {
    let games = read(XQ_WIZARD);
    for (result, place) in &games {
        let at = usize::try_from(place.offset).expect("offset");
        let mut again = BookReader::at(BookFormat::Pgn, &XQ_WIZARD.as_bytes()[at..], *place);
        let (other, other_place) = again.next_with_place().expect("a game");
        assert_eq!(other_place, *place);
        assert_eq!(
            other.as_ref().ok(),
            result.as_ref().ok(),
            "the game at {place:?}"
        );
    }
}

#[test]
fn bad_games_are_one_error_at_their_line_and_reading_goes_on() {
    let text = "1. h2e2 h9g7\n2. h0h9 *\n\n[Event \"x\"]\n1. C2.5 Q8+7 *\n[Bad tag]\n1. h2e2 *\n[FEN \"nonsense\"]\n1. h2e2 *\n1. h2e2 ) *\n1. h2e2 {never closed\n";
    let games = read(text);
    let lines: Vec<Result<usize, (usize, String)>> = games
        .iter()
        .map(|(r, _)| match r {
            Ok(o) => Ok(o.line),
            Err(OpeningError::Line { line, kind }) => Err((*line, kind.to_string())),
            Err(e) => Err((0, e.to_string())),
        })
        .collect();
    assert_eq!(lines.len(), 6, "{lines:?}");
    let err = |i: usize| lines[i].clone().expect_err("an error");
    assert_eq!(err(0).0, 2);
    assert!(
        err(0).1.contains("move 3 `h0h9` is illegal"),
        "{:?}",
        err(0)
    );
    assert_eq!(err(1).0, 5);
    assert!(err(1).1.contains("move 2 `Q8+7`"), "{:?}", err(1));
    assert_eq!(err(2).0, 6);
    assert!(err(2).1.contains("malformed tag"), "{:?}", err(2));
    assert_eq!(err(3).0, 9, "a bad FEN is found at the first move");
    assert!(err(4).1.contains("unexpected `)`"), "{:?}", err(4));
    assert_eq!(
        err(5),
        (11, "the comment opened on line 11 never closes".to_owned())
    );
}

#[test]
fn games_end_at_the_next_tags_without_a_result_and_stray_results_are_no_games() {
    let text = "[Event \"a\"]\n1. h2e2\n[Event \"b\"]\n1. b2e2 * *\n{only a comment}\n";
    let games = read(text);
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(games[1].1.line, 3);
}

#[test]
fn not_utf8_tags_are_read_lossily() {
    let mut text = b"[Opening \"".to_vec();
    text.extend_from_slice(&[0xD6, 0xD0, 0xC5, 0xDA]); // GBK
    text.extend_from_slice(b"\"]\n1. h2e2 *\n");
    let games: Vec<_> = PgnReader::new(&text[..]).collect();
    assert_eq!(games.len(), 1);
    let o = games[0].as_ref().expect("read");
    assert_eq!(o.moves.len(), 1);
    assert!(o.name.as_deref().is_some_and(|n| n.contains('\u{fffd}')));
}
