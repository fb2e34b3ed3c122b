//! The training positions of one finished game: every position an engine searched
//! (after the opening and the random plies), with the score it reported there and the
//! game's result, both from the side to move's view; filtered as the field filters
//! (quiet positions only: not in check, no mate score, the move played not a capture,
//! the score within the limit).

use std::collections::HashSet;

use xq_core::board::{Color, Move, Position};
use xq_core::movegen::{in_check, is_legal};
use xq_core::training::{GameResult, Record};

use crate::client::Score;
use crate::game::Outcome;
use crate::store::journal::{parse_score, JournalEntry};

/// Why a finished game's moves could not be replayed (a bug: the runner judged them).
#[derive(Debug, thiserror::Error)]
#[error("game {game}: {why}")]
pub struct ReplayError {
    pub game: u64,
    pub why: String,
}

/// The positions kept from games, across games (the dedup set).
#[derive(Debug, Default)]
pub struct Keeper {
    pub score_limit: i32,
    /// The position keys written so far, when dedup is on.
    pub seen: Option<HashSet<u64>>,
}

impl Keeper {
    /// The records of `entry` that pass the filters (none for a game ended by a fault:
    /// its result says nothing about its positions).
    ///
    /// # Errors
    /// [`ReplayError`] when the game's moves do not replay from its start.
    pub fn records(&mut self, entry: &JournalEntry) -> Result<Vec<Record>, ReplayError> {
        let bad = |why: String| ReplayError {
            game: entry.pair,
            why,
        };
        if entry.reason.is_fault() {
            return Ok(Vec::new());
        }
        let mut position =
            Position::from_fen(&entry.start_fen).map_err(|e| bad(format!("start FEN: {e}")))?;
        for m in moves(&entry.opening_moves).map_err(&bad)? {
            play(&mut position, m).map_err(&bad)?;
        }
        let red_result = match entry.result {
            Outcome::RedWins => GameResult::Win,
            Outcome::BlackWins => GameResult::Loss,
            Outcome::Draw => GameResult::Draw,
        };
        let mut kept = Vec::new();
        for (i, m) in moves(&entry.moves).map_err(&bad)?.into_iter().enumerate() {
            let score = entry
                .scores
                .get(i)
                .and_then(|s| s.as_deref())
                .and_then(parse_score);
            let quiet = position.piece_at(m.to()).is_none() && !in_check(&position);
            if let (true, Some(Score::Units(units))) = (quiet, score) {
                if units.abs() <= self.score_limit && self.first_time(&position) {
                    let result = match position.side_to_move() {
                        Color::Red => red_result,
                        Color::Black => red_result.flipped(),
                    };
                    // Within the limit, which is at most i16::MAX (checked in the config).
                    let score = i16::try_from(units).unwrap_or(0);
                    kept.push(Record::new(&position, score, result));
                }
            }
            play(&mut position, m).map_err(&bad)?;
        }
        Ok(kept)
    }

    /// Whether the position is to be written: always without dedup, else once.
    fn first_time(&mut self, position: &Position) -> bool {
        match &mut self.seen {
            None => true,
            Some(seen) => seen.insert(position.key()),
        }
    }
}

fn moves(text: &str) -> Result<Vec<Move>, String> {
    text.split_whitespace()
        .map(|m| Move::parse(m).map_err(|_| format!("`{m}` is not a move")))
        .collect()
}

fn play(position: &mut Position, m: Move) -> Result<(), String> {
    if !is_legal(position, m) {
        return Err(format!("{m} is not legal in {}", position.to_fen()));
    }
    position.make_move(m);
    Ok(())
}
