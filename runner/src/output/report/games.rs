//! The games the report lists, picked from the journal in the same streaming pass as the
//! statistics: the first [`FIRST_GAMES`] games by number and every game that ended by
//! an engine fault, up to [`FAULT_GAMES`] of them. A run of any length gives a page of
//! bounded size; `games.pgn` holds every game.
//!
//! Each listed game carries its PGN text, written by the [`GameHeaders`] that write
//! `games.pgn` (the same date, time control and opening names), so the two cannot
//! differ. A game whose partner has not finished is listed too, marked as not counted:
//! like the counts, `games.pgn` leaves it out.

use std::collections::BTreeMap;

use crate::output::pgn_headers::GameHeaders;
use crate::store::finished::game_number;
use crate::store::journal::JournalEntry;

/// Games listed from the start of the run.
pub const FIRST_GAMES: usize = 200;
/// Games that ended by a fault listed beyond the first ones.
pub const FAULT_GAMES: usize = 100;
/// Opening moves shown in the table (the PGN has them all).
const OPENING_MOVES_SHOWN: usize = 4;

/// One listed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Game number, 1-based, as the terminal's `Finished game N` counts.
    pub number: u64,
    /// `pair.game`, 1-based, the PGN's `Round`.
    pub round: String,
    pub red: String,
    pub black: String,
    /// `#13 h2e2 h9g7 …`: the opening's number in the file (1-based) and its first
    /// moves; empty without openings.
    pub opening: String,
    pub result: String,
    pub reason: String,
    pub plies: usize,
    /// Whether the game ended by an engine fault, and the engine that faulted.
    pub fault: bool,
    pub faulted: Option<String>,
    pub detail: Option<String>,
    /// Whether its pair is complete: only then is it counted and in `games.pgn`.
    pub counted: bool,
    /// The game's PGN.
    pub pgn: String,
}

impl GameRow {
    /// The page anchor of the game's PGN: `g12-1`.
    #[must_use]
    pub fn anchor(&self) -> String {
        format!("g{}", self.round.replace('.', "-"))
    }
}

/// The listed games and how many there are in all.
#[derive(Clone, Debug, Default)]
pub struct GameList {
    /// By game number.
    pub rows: Vec<GameRow>,
    /// Games in the journal (duplicates counted once) and how many ended by a fault.
    pub total: u64,
    pub faults: u64,
    /// Games whose partner has not finished: in the journal, not counted, not in
    /// `games.pgn`.
    pub unpaired: u64,
}

/// Picks the games to list while the journal is read.
#[derive(Clone, Debug, Default)]
pub struct GamePicker {
    first: BTreeMap<u64, JournalEntry>,
    faulted: BTreeMap<u64, JournalEntry>,
    seen: crate::store::finished::FinishedGames,
    total: u64,
    faults: u64,
}

/// Keeps `entry` in `kept` if it is among the `cap` smallest game numbers.
fn keep(kept: &mut BTreeMap<u64, JournalEntry>, cap: usize, number: u64, entry: &JournalEntry) {
    if kept.len() >= cap {
        match kept.last_key_value() {
            Some((&largest, _)) if largest > number => {
                kept.remove(&largest);
            }
            _ => return,
        }
    }
    kept.insert(number, entry.clone());
}

impl GamePicker {
    #[must_use]
    pub fn new() -> GamePicker {
        GamePicker::default()
    }

    /// The next journal entry; a game seen before (a duplicate line) is skipped, as the
    /// counts skip it.
    pub fn add(&mut self, entry: &JournalEntry) {
        let number = game_number(entry.pair, entry.game);
        if !self.seen.insert(number) {
            return;
        }
        self.total += 1;
        keep(&mut self.first, FIRST_GAMES, number, entry);
        if entry.reason.is_fault() {
            self.faults += 1;
            keep(&mut self.faulted, FAULT_GAMES, number, entry);
        }
    }

    /// The list, with each game's PGN written by `headers`.
    #[must_use]
    pub fn finish(mut self, headers: &GameHeaders<'_>) -> GameList {
        let mut picked = std::mem::take(&mut self.first);
        picked.append(&mut self.faulted);
        let rows = picked
            .into_iter()
            .map(|(number, entry)| self.row(number, &entry, headers))
            .collect();
        // The tracker's rule: a game counts once the other game of its pair is in.
        let unpaired = self
            .seen
            .iter()
            .filter(|&n| !self.seen.contains(n ^ 1))
            .count() as u64;
        GameList {
            rows,
            total: self.total,
            faults: self.faults,
            unpaired,
        }
    }

    fn row(&self, number: u64, entry: &JournalEntry, headers: &GameHeaders<'_>) -> GameRow {
        let round = format!("{}.{}", entry.pair + 1, entry.game + 1);
        let opening = entry.opening.map_or_else(String::new, |i| {
            let mut moves = entry.opening_moves.split_whitespace();
            let mut text = format!("#{}", i + 1);
            for m in moves.by_ref().take(OPENING_MOVES_SHOWN) {
                text.push(' ');
                text.push_str(m);
            }
            if moves.next().is_some() {
                text.push_str(" …");
            }
            text
        });
        let mut pgn = String::new();
        if !headers.push(&mut pgn, entry) {
            pgn.push_str("(the journal's moves of this game do not parse)");
        }
        GameRow {
            number: number + 1,
            round,
            red: entry.red.clone(),
            black: entry.black.clone(),
            opening,
            result: entry.result.as_pgn().to_owned(),
            reason: entry.reason.code().to_owned(),
            plies: entry.plies,
            fault: entry.reason.is_fault(),
            faulted: entry.faulted.clone(),
            detail: entry.detail.clone(),
            counted: self.seen.contains(number ^ 1),
            pgn: pgn.trim_end().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EndReason, Outcome};

    fn entry(pair: u64, game: u8, fault: bool) -> JournalEntry {
        JournalEntry {
            reason: if fault {
                EndReason::Crash
            } else {
                EndReason::Repetition
            },
            faulted: fault.then(|| "b".to_owned()),
            moves: "h2e2 h9g7".to_owned(),
            plies: 2,
            ..JournalEntry::sample(pair, game, Outcome::Draw)
        }
    }

    #[test]
    fn the_first_games_and_every_fault_up_to_the_caps() {
        let mut picker = GamePicker::new();
        // Journal order is not game order: the last pairs come first.
        let pairs = 500;
        for pair in (0..pairs).rev() {
            for game in 0..2 {
                // From game 200 on, every third game is a fault: 267 of them, more than the cap.
                let fault = pair >= 100 && (pair * 2 + u64::from(game)) % 3 == 0;
                picker.add(&entry(pair, game, fault));
            }
        }
        picker.add(&entry(0, 0, false)); // a duplicate line
        let list = picker.finish(&GameHeaders::default());
        assert_eq!(list.total, pairs * 2);
        assert_eq!(list.unpaired, 0);
        let fault_numbers: Vec<u64> = (200..pairs * 2).filter(|n| n % 3 == 0).collect();
        assert!(fault_numbers.len() > FAULT_GAMES);
        assert_eq!(list.faults, fault_numbers.len() as u64);
        let numbers: Vec<u64> = list.rows.iter().map(|r| r.number - 1).collect();
        let mut expected: Vec<u64> = (0..FIRST_GAMES as u64).collect();
        expected.extend(fault_numbers.iter().take(FAULT_GAMES).copied());
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(numbers, expected);
        let row = &list.rows[0];
        assert_eq!((row.round.as_str(), row.anchor().as_str()), ("1.1", "g1-1"));
        assert!(
            row.pgn.starts_with("[Game \"Chinese Chess\"]"),
            "{}",
            row.pgn
        );
        assert!(row.pgn.contains("[Round \"1.1\"]"));
        assert!(row.pgn.ends_with("1/2-1/2"), "{}", row.pgn);
        assert!(list
            .rows
            .iter()
            .any(|r| r.fault && r.faulted.as_deref() == Some("b")));
    }

    #[test]
    fn a_listed_game_has_the_pgn_of_games_pgn_and_an_unpaired_one_is_marked() {
        let epd = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \
                   moves h2e2 ; name \"Central cannon\" ; eco C00\n";
        let book = crate::openings::OpeningBook::from_reader(epd.as_bytes(), "t.epd".as_ref())
            .expect("book");
        let headers = GameHeaders {
            event: "ev".to_owned(),
            date: "2026.12.05".to_owned(),
            time_control: Some(crate::game::TimeControl::Depth(3)),
            book: Some(std::borrow::Cow::Owned(book)),
            ..GameHeaders::default()
        };
        let mut picker = GamePicker::new();
        // Pair 0 whole, pair 1 with its first game only (a run stopped before its partner).
        for (pair, game) in [(0, 0), (0, 1), (1, 0)] {
            let mut e = entry(pair, game, false);
            e.opening = Some(0);
            e.opening_moves = "h2e2".to_owned();
            e.moves = "h9g7 h0g2".to_owned();
            picker.add(&e);
        }
        let list = picker.finish(&headers);
        assert_eq!((list.total, list.unpaired), (3, 1));
        let counted: Vec<bool> = list.rows.iter().map(|r| r.counted).collect();
        assert_eq!(counted, [true, true, false]);
        let pgn = &list.rows[0].pgn;
        for tag in [
            "[Date \"2026.12.05\"]",
            "[Opening \"Central cannon\"]",
            "[ECCO \"C00\"]",
            "[TimeControl \"depth 3\"]",
        ] {
            assert!(pgn.contains(tag), "{tag} missing: {pgn}");
        }
    }
}
