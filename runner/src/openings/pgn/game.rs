//! One PGN game read into an opening: its tags (`FEN`, `Opening`, `Variation`, `ECCO`),
//! then its moves, each checked legal where it is played. A move is read as ICCS
//! coordinates (`h2e2`, `H2-E2`) when it has that form, else as a WXF name (`C2.5`).

use xq_core::board::{Move, Position};
use xq_core::movegen;
use xq_core::notation::parse_wxf;

use super::super::error::LineError;
use super::super::fields::is_ecco_code;
use super::super::opening::Opening;

/// The most moves (plies) of one game: far beyond any real game. The limit keeps a
/// movetext that never ends from growing without bound.
pub const MAX_GAME_PLIES: usize = 4096;

/// The results that end a game's movetext.
pub(super) fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½")
}

/// A game being read.
#[derive(Debug)]
pub(super) struct PgnGame {
    /// The line it starts on.
    pub(super) line: usize,
    fen: Option<String>,
    opening: Option<String>,
    variation: Option<String>,
    eco: Option<String>,
    /// The start position, once the first move needs it.
    start: Option<Position>,
    position: Option<Position>,
    moves: Vec<Move>,
    /// Whether the movetext has begun (a tag after that starts the next game).
    pub(super) in_moves: bool,
    /// The first problem, with its line; the rest of the game is skipped.
    error: Option<(usize, LineError)>,
    /// Whether it has a tag, a move or a problem (a comment alone is no game).
    seen: bool,
}

impl PgnGame {
    pub(super) fn new(line: usize) -> PgnGame {
        PgnGame {
            line,
            fen: None,
            opening: None,
            variation: None,
            eco: None,
            start: None,
            position: None,
            moves: Vec::new(),
            in_moves: false,
            error: None,
            seen: false,
        }
    }

    /// Whether nothing but comments was read.
    pub(super) fn is_empty(&self) -> bool {
        !self.seen
    }

    /// Records a problem on `line` unless there is one already.
    pub(super) fn fail(&mut self, line: usize, kind: LineError) {
        self.seen = true;
        if self.error.is_none() {
            self.error = Some((line, kind));
        }
    }

    pub(super) fn tag(&mut self, name: &str, value: String) {
        self.seen = true;
        match name {
            "FEN" => self.fen = Some(value),
            "Opening" => self.opening = Some(value),
            "Variation" => self.variation = Some(value),
            // XQ Wizard writes ECCO; chess tools ECO. Only a real ECCO code is kept.
            "ECCO" | "ECO" if is_ecco_code(&value) => self.eco = Some(value),
            _ => {}
        }
    }

    /// Reads one word of the movetext (not a result) on `line`.
    pub(super) fn word(&mut self, word: &str, line: usize) {
        self.in_moves = true;
        self.seen = true;
        if self.error.is_some() {
            return;
        }
        if let Err(kind) = self.play_word(word) {
            self.fail(line, kind);
        }
    }

    fn play_word(&mut self, word: &str) -> Result<(), LineError> {
        // A move number (`12.`, `12...`), perhaps glued to the move (`12.h2e2`). WXF's
        // tandem pawns start with digits too (`33.4`): the whole word is tried as well.
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let after = &word[digits..];
        let dots = after.bytes().take_while(|&b| b == b'.').count();
        if digits > 0 && (after.is_empty() || dots == after.len()) {
            return Ok(());
        }
        let position = self.position()?;
        let glued = &after[dots..];
        // The likelier reading first, so that its error is the one reported.
        let candidates: &[&str] = match (digits > 0 && dots > 0, glued.len() >= 3) {
            (false, _) => &[word],
            (true, true) => &[glued, word],
            (true, false) => &[word, glued],
        };
        let mut failure = None;
        for text in candidates {
            match read_move(&position, text, self.moves.len() + 1) {
                Ok(m) => return self.play(m),
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        failure.map_or(Ok(()), Err)
    }

    fn position(&mut self) -> Result<Position, LineError> {
        if self.position.is_none() {
            let start = match &self.fen {
                Some(fen) => Position::from_fen(fen).map_err(LineError::Fen)?,
                None => Position::startpos(),
            };
            self.position = Some(start.clone());
            self.start = Some(start);
        }
        Ok(self.position.clone().unwrap_or_else(Position::startpos))
    }

    fn play(&mut self, m: Move) -> Result<(), LineError> {
        if self.moves.len() >= MAX_GAME_PLIES {
            return Err(LineError::GameTooLong {
                max: MAX_GAME_PLIES,
            });
        }
        if let Some(p) = self.position.as_mut() {
            p.make_move(m);
        }
        self.moves.push(m);
        Ok(())
    }

    /// The opening this game describes, or its first problem with the line.
    pub(super) fn finish(mut self) -> Result<Opening, (usize, LineError)> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let line = self.line;
        self.position().map_err(|e| (line, e))?;
        let (Some(start), Some(position)) = (self.start, self.position) else {
            return Err((line, LineError::Fen(xq_core::board::FenError::Empty)));
        };
        let mut opening = Opening::from_parts(start, self.moves, position);
        opening.line = line;
        opening.eco = self.eco;
        opening.name = match (self.opening, self.variation) {
            (Some(o), Some(v)) if !v.trim().is_empty() => Some(format!("{o}: {v}")),
            (Some(o), _) if !o.trim().is_empty() => Some(o),
            (None, Some(v)) if !v.trim().is_empty() => Some(v),
            _ => None,
        };
        Ok(opening)
    }
}

/// Reads the `index`-th move of a game in `position`: ICCS coordinates when the text has
/// their form, else a WXF name. Annotation marks (`!`, `?`) are dropped.
fn read_move(position: &Position, text: &str, index: usize) -> Result<Move, LineError> {
    let bare = text.trim_end_matches(['!', '?']);
    let unknown = |reason: String| LineError::UnknownMove {
        index,
        text: text.to_owned(),
        reason,
    };
    if !bare.is_ascii() {
        return Err(unknown(
            "Chinese move names are not read: export the book with ICCS (H2-E2) or WXF (C2.5) moves"
                .to_owned(),
        ));
    }
    if let Ok(m) = Move::parse(bare) {
        if !movegen::is_legal(position, m) {
            return Err(LineError::IllegalMove {
                index,
                text: text.to_owned(),
                side: position.side_to_move(),
            });
        }
        return Ok(m);
    }
    // parse_wxf only ever returns a legal move.
    parse_wxf(position, bare).map_err(|e| {
        unknown(format!(
            "neither ICCS coordinates (h2e2, H2-E2) nor a WXF name of a legal move ({e})"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(words: &[&str]) -> Result<Opening, (usize, LineError)> {
        let mut game = PgnGame::new(1);
        for (i, w) in words.iter().enumerate() {
            game.word(w, i + 1);
        }
        game.finish()
    }

    #[test]
    fn iccs_and_wxf_give_the_same_moves() {
        let iccs = play(&["1.", "h2e2", "h9g7", "2.", "H0-G2", "i9h9"]).expect("iccs");
        let wxf = play(&["1.C2.5", "H8+7", "2.", "H2+3", "R9.8"]).expect("wxf");
        assert_eq!(iccs.moves, wxf.moves);
        assert_eq!(iccs.position().to_fen(), wxf.position().to_fen());
        let numbered = play(&["1...", "h2e2!?", "h9g7"]).expect("annotations");
        assert_eq!(numbered.moves.len(), 2);
    }

    #[test]
    fn tandem_pawns_are_not_move_numbers() {
        let mut game = PgnGame::new(1);
        game.tag("FEN", "4k4/9/2P3P2/2P3P2/2P6/9/9/9/9/3K5 w".to_owned());
        game.word("77.6", 3);
        let opening = game.finish().expect("77.6 is a move");
        assert_eq!(opening.moves[0].to_string(), "c6d6");
    }

    #[test]
    fn bad_moves_name_their_index_and_line() {
        assert!(matches!(
            play(&["1.", "h2e2", "h9h0"]),
            Err((3, LineError::IllegalMove { index: 2, .. }))
        ));
        assert!(matches!(
            play(&["1.", "C2.5", "X9.9"]),
            Err((3, LineError::UnknownMove { index: 2, .. }))
        ));
        let chinese = play(&["炮二平五"]).expect_err("chinese");
        assert!(chinese.1.to_string().contains("ICCS"), "{}", chinese.1);
        let mut game = PgnGame::new(4);
        game.tag("FEN", "not a fen".to_owned());
        game.word("h2e2", 5);
        assert!(matches!(game.finish(), Err((5, LineError::Fen(_)))));
    }

    #[test]
    fn tags_name_the_opening() {
        let mut game = PgnGame::new(1);
        game.tag("Opening", "Central cannon".to_owned());
        game.tag("Variation", "screen horses".to_owned());
        game.tag("ECCO", "C00".to_owned());
        game.tag("ECO", "C99".to_owned());
        let o = game.finish().expect("no moves is the start position");
        assert_eq!(o.name.as_deref(), Some("Central cannon: screen horses"));
        assert_eq!(o.eco.as_deref(), Some("C99"), "the later tag wins");
        assert!(o.moves.is_empty());
    }
}
