//! The training positions of a game record: the reader's filters. A record keeps every
//! move; what a trainer learns from is chosen here, when reading, so that a filter can
//! change without generating the data again. Of each position a move was played from,
//! kept are those that
//!
//! - an engine searched (the opening's moves and the random plies have no score),
//! - are not in check,
//! - have a score in units (not a mate) within `score_limit`,
//! - whose move played is not a capture (the score of a position about to capture is
//!   the capture's, which a static evaluation cannot see),
//!
//! of games not ended by an engine fault (their result says nothing about the
//! positions). Each kept position carries its score and the game's result from the side
//! to move's view.

use crate::board::{Color, Position};
use crate::movegen::in_check;

use super::codec::CodecError;
use super::game::{SearchScore, SelfPlayGame};
use super::record::Record;

/// The endings that are an engine's fault, as the runner's reason codes
/// (`EndReason::is_fault` in the runner; a runner test holds the two equal).
pub const FAULT_ENDINGS: [&str; 5] = ["time_forfeit", "illegal_move", "crash", "stall", "no_move"];

/// What the reader keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filters {
    /// Positions scored beyond this (engine units, either sign) are left out.
    pub score_limit: i32,
}

impl Default for Filters {
    /// The limit datagen adjudicates at by default: two rooks.
    fn default() -> Filters {
        Filters { score_limit: 2000 }
    }
}

/// How many positions each filter left out, and how many were kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterCounts {
    /// Every position a move was played from.
    pub positions: u64,
    pub unscored: u64,
    pub in_check: u64,
    pub mate: u64,
    pub beyond_limit: u64,
    pub capture: u64,
    /// Positions of games ended by a fault.
    pub fault_games: u64,
    pub kept: u64,
}

impl FilterCounts {
    /// Adds another's counts.
    pub fn add(&mut self, other: &FilterCounts) {
        self.positions += other.positions;
        self.unscored += other.unscored;
        self.in_check += other.in_check;
        self.mate += other.mate;
        self.beyond_limit += other.beyond_limit;
        self.capture += other.capture;
        self.fault_games += other.fault_games;
        self.kept += other.kept;
    }
}

/// Replays `game` and appends the records of the positions the filters keep.
///
/// # Errors
/// [`CodecError`] when the game does not replay (a decoded game always does).
pub fn training_positions(
    game: &SelfPlayGame,
    filters: &Filters,
    out: &mut Vec<Record>,
    counts: &mut FilterCounts,
) -> Result<(), CodecError> {
    counts.positions += game.moves.len() as u64;
    if FAULT_ENDINGS.contains(&game.ending.as_str()) {
        counts.fault_games += game.moves.len() as u64;
        return Ok(());
    }
    let mut position = Position::from_fen(&game.start_fen).map_err(|e| CodecError::BadStart {
        index: game.index,
        fen: game.start_fen.chars().take(100).collect(),
        why: e.to_string(),
    })?;
    for (ply, m) in game.moves.iter().enumerate() {
        if !crate::movegen::is_legal(&position, m.mv) {
            return Err(CodecError::IllegalMove {
                index: game.index,
                ply: ply + 1,
                mv: m.mv,
            });
        }
        match m.score {
            None => counts.unscored += 1,
            Some(SearchScore::Mate(_)) => counts.mate += 1,
            Some(SearchScore::Units(_)) if in_check(&position) => counts.in_check += 1,
            Some(SearchScore::Units(u))
                if u.unsigned_abs() > filters.score_limit.unsigned_abs() =>
            {
                counts.beyond_limit += 1;
            }
            Some(SearchScore::Units(_)) if position.piece_at(m.mv.to()).is_some() => {
                counts.capture += 1;
            }
            Some(SearchScore::Units(u)) => {
                let result = match position.side_to_move() {
                    Color::Red => game.red_result,
                    Color::Black => game.red_result.flipped(),
                };
                // Within the limit; a limit past i16 is clamped to it.
                let score = i16::try_from(u).unwrap_or(if u < 0 { i16::MIN } else { i16::MAX });
                out.push(Record::new(&position, score, result));
                counts.kept += 1;
            }
        }
        position.make_move(m.mv);
    }
    Ok(())
}
