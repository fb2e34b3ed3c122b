//! Opening books in PGN, as cutechess and fastchess read chess books: each game is one
//! opening, its start (`[FEN "..."]`, else the standard start) and its main line.
//!
//! - Moves in ICCS coordinates (`h2e2`, or XQ Wizard's `H2-E2`) or WXF names (`C2.5`,
//!   `H8+7`), told apart move by move; every move is checked legal with `xq-core`.
//! - Comments (`{...}`, `; ...`), variations (`(...)`, nested), NAGs (`$1`), annotation
//!   marks (`!?`), move numbers and escape lines (`%...`) are skipped.
//! - Tags: `FEN`, `Opening` and `Variation` (the opening's name), `ECCO` or `ECO` (its
//!   code); the others (XQ Wizard's `Game`, `Red`, `Format`, ...) are read and ignored.
//! - A game ends at its result (`1-0`, `0-1`, `1/2-1/2`, `*`) or where the next game's
//!   tags begin. A bad game is one error naming the line of its first problem; the
//!   reader goes on with the next game.
//!
//! Lines that are not UTF-8 (Chinese tools often write GBK) are read with the bad bytes
//! replaced: their tag values may be garbled, their ICCS or WXF moves are not.

mod game;
mod scan;

use std::collections::VecDeque;
use std::io::BufRead;

use self::game::{is_result, PgnGame};
use self::scan::{Event, Scanner};
use super::error::{LineError, OpeningError};
use super::format::Place;
use super::lines::RawLines;
use super::opening::Opening;

/// Yields one `Result` per game of a PGN file, in file order, over any [`BufRead`], with
/// the [`Place`] where each game starts.
///
/// # Examples
/// ```
/// use xq_runner::openings::PgnReader;
///
/// let text = "[Opening \"Central cannon\"]\n1. h2e2 h9g7 *\n\n1. C2.5 H8+7 2. H2+3 *\n";
/// let games: Vec<_> = PgnReader::new(text.as_bytes()).collect();
/// assert_eq!(games.len(), 2);
/// let (first, second) = (games[0].as_ref().ok(), games[1].as_ref().ok());
/// assert_eq!(first.map(|o| o.moves.len()), Some(2));
/// assert_eq!(first.and_then(|o| o.name.as_deref()), Some("Central cannon"));
/// assert_eq!(second.map(|o| o.line), Some(4));
/// ```
#[derive(Debug)]
pub struct PgnReader<R> {
    lines: RawLines<R>,
    scanner: Scanner,
    /// The game being read, and where it starts.
    game: Option<(PgnGame, Place)>,
    /// Games finished and not yet handed out.
    ready: VecDeque<(Result<Opening, OpeningError>, Place)>,
    /// Where on the first line to begin (a game that starts after another's result on
    /// the same line).
    first_column: usize,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> PgnReader<R> {
        PgnReader::at(inner, Place::default())
    }

    /// A reader over `inner`, which starts at the line of `place` (to read again a game
    /// whose place was noted); scanning begins at the place's column.
    pub fn at(inner: R, place: Place) -> PgnReader<R> {
        PgnReader {
            lines: RawLines::starting_at(inner, place.line.saturating_sub(1), place.offset),
            scanner: Scanner::default(),
            game: None,
            ready: VecDeque::new(),
            first_column: place.column,
            done: false,
        }
    }

    /// The next game and where it starts.
    pub fn next_with_place(&mut self) -> Option<(Result<Opening, OpeningError>, Place)> {
        while self.ready.is_empty() && !self.done {
            self.read_line();
        }
        self.ready.pop_front()
    }

    fn finish_game(&mut self) {
        if let Some((game, place)) = self.game.take() {
            let result = game
                .finish()
                .map_err(|(line, kind)| OpeningError::Line { line, kind });
            self.ready.push_back((result, place));
        }
    }

    fn read_line(&mut self) {
        let raw = match self.lines.next_line() {
            Ok(Some(raw)) => raw,
            Ok(None) => return self.end(),
            Err(source) => {
                self.done = true;
                let line = self.lines.line();
                let place = self.place(0);
                self.ready
                    .push_back((Err(OpeningError::Io { line, source }), place));
                return;
            }
        };
        let line = self.lines.line();
        let from = std::mem::take(&mut self.first_column);
        if let Err(kind) = raw {
            let place = self.place(0);
            let (game, _) = self.game.get_or_insert_with(|| (PgnGame::new(line), place));
            game.fail(line, kind);
            return;
        }
        let text = self.lines.text_lossy();
        let mut events = Vec::new();
        self.scanner.scan(&text, line, from, |e| events.push(e));
        for event in events {
            self.event(event, line);
        }
    }

    fn place(&self, column: usize) -> Place {
        Place {
            offset: self.lines.start(),
            line: self.lines.line(),
            column,
        }
    }

    /// The game an event at `column` belongs to, started there when there is none.
    fn game_at(&mut self, column: usize, line: usize) -> &mut PgnGame {
        let place = self.place(column);
        &mut self
            .game
            .get_or_insert_with(|| (PgnGame::new(line), place))
            .0
    }

    fn event(&mut self, event: Event<'_>, line: usize) {
        match event {
            Event::Tag {
                name,
                value,
                column,
            } => {
                if self.game.as_ref().is_some_and(|(g, _)| g.in_moves) {
                    self.finish_game(); // the next game's tags: the last one had no result
                }
                self.game_at(column, line).tag(&name, value);
            }
            Event::BadTag { text } => {
                if self.game.as_ref().is_some_and(|(g, _)| g.in_moves) {
                    self.finish_game();
                }
                self.game_at(0, line).fail(line, LineError::BadTag(text));
            }
            Event::Word { text, column } => {
                let game = self.game_at(column, line);
                if !is_result(text) {
                    game.word(text, line);
                } else if game.is_empty() {
                    self.game = None; // a result without a game (`* *`)
                } else {
                    self.finish_game();
                }
            }
            Event::Aside { column } => {
                self.game_at(column, line);
            }
            Event::Unmatched { column } => {
                self.game_at(column, line)
                    .fail(line, LineError::UnexpectedText(")".to_owned()));
            }
        }
    }

    fn end(&mut self) {
        self.done = true;
        if let Some((what, opened)) = self.scanner.unclosed() {
            self.scanner.reset();
            let line = self.lines.line();
            self.game_at(0, line)
                .fail(opened, LineError::Unclosed { what, opened });
        }
        // A game that is only a comment at the end of the file is no game.
        if self.game.as_ref().is_some_and(|(g, _)| g.is_empty()) {
            self.game = None;
        }
        self.finish_game();
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<Opening, OpeningError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_with_place().map(|(result, _)| result)
    }
}

#[cfg(test)]
mod tests;
