//! What a game's PGN is written with besides its journal entry: the run's event, the
//! date, the time control, the opening's name and ECCO code, and how moves are written.
//! One [`GameHeaders`] writes `games.pgn` and the report's PGN pop-ups, so the two
//! cannot differ.

use std::borrow::Cow;
use std::io::BufRead as _;
use std::path::Path;

use super::pgn::{push_pgn, PgnContext};
use crate::config::{MoveFormat, PgnExtras, Plan};
use crate::game::TimeControl;
use crate::openings::OpeningBook;
use crate::store::journal::JournalEntry;

/// The run's part of every game's PGN.
#[derive(Clone, Debug, Default)]
pub struct GameHeaders<'a> {
    pub event: String,
    /// `YYYY.MM.DD`, the day `games.pgn` is written.
    pub date: String,
    pub time_control: Option<TimeControl>,
    /// The openings the run played from, which name them; `None`: no names.
    pub book: Option<Cow<'a, OpeningBook>>,
    pub format: MoveFormat,
    pub extras: PgnExtras,
}

impl<'a> GameHeaders<'a> {
    /// The headers of a validated run; without the `book` at hand (`merge`, `report`),
    /// the openings the run played are read from its opening file.
    #[must_use]
    pub fn for_plan(plan: &Plan, book: Option<&'a OpeningBook>, date: String) -> GameHeaders<'a> {
        let book = match (book, &plan.openings) {
            (Some(b), _) => Some(Cow::Borrowed(b)),
            (None, Some(o)) => OpeningBook::load_used(&o.path, &crate::config::book_use(plan, o))
                // The games are in the journal; without the book only their opening
                // tags are missing, which is no reason to write no PGN at all.
                .map_err(|e| tracing::warn!("the PGN is written without opening names: {e}"))
                .ok()
                .map(|(b, _)| Cow::Owned(b)),
            (None, None) => None,
        };
        GameHeaders {
            event: plan.event.clone(),
            date,
            time_control: plan.engines.first().map(|e| e.time_control),
            book,
            format: plan.output.pgn_format,
            extras: plan.output.pgn_extras,
        }
    }

    /// These headers on another day.
    #[must_use]
    pub fn with_date(self, date: String) -> GameHeaders<'a> {
        GameHeaders { date, ..self }
    }

    /// The header fields of one game.
    #[must_use]
    pub fn context(&self, entry: &JournalEntry) -> PgnContext {
        let opening = entry
            .opening
            .and_then(|i| self.book.as_deref().and_then(|b| b.get(i)));
        PgnContext {
            event: self.event.clone(),
            date: self.date.clone(),
            round: format!("{}.{}", entry.pair + 1, entry.game + 1),
            time_control: self.time_control,
            opening_name: opening.and_then(|o| o.name.clone()),
            eco: opening.and_then(|o| o.eco.clone()),
        }
    }

    /// Appends the PGN of `entry` to `out`; false (nothing written) when the journal's
    /// moves of the game do not parse.
    pub fn push(&self, out: &mut String, entry: &JournalEntry) -> bool {
        let Some(played) = entry.to_played() else {
            return false;
        };
        push_pgn(out, &played, &self.context(entry), self.format, self.extras);
        true
    }
}

/// The `Date` of the first game of a PGN file that the runner wrote (every game of it
/// has the same); `None` when the file is missing or holds no game.
#[must_use]
pub fn date_of(pgn: &Path) -> Option<String> {
    // A plain file only: a FIFO in its place would hang `serve DIR`'s reading.
    let file = crate::plain_file::read_only(pgn).ok()?;
    // The tag is among the first lines of the first game: no need to read on.
    std::io::BufReader::new(file)
        .lines()
        .take(20)
        .map_while(Result::ok)
        .find_map(|l| {
            l.strip_prefix("[Date \"")?
                .strip_suffix("\"]")
                .map(str::to_owned)
        })
}
