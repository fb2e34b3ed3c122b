//! One self-play game as the training data keeps it: where it started, every move
//! (the opening's and the random plies' without a score, the engines' with the score
//! their search reported), the result and how it ended. Positions are not stored: a
//! reader replays the moves (`codec`, `positions`).

use crate::board::Move;

use super::record::GameResult;

/// A search's score as the engine reported it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchScore {
    /// Engine units (a rook is about 1000 for xq-engine).
    Units(i32),
    /// Mate in this many moves; negative when the side to move is mated.
    Mate(i32),
}

/// One move of a game and, when an engine searched the position it was played from,
/// that search's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameMove {
    pub mv: Move,
    /// `None` for the opening's moves, the random plies, and an engine move whose search
    /// reported no score.
    pub score: Option<SearchScore>,
}

impl GameMove {
    /// A move nobody searched (opening, random ply).
    #[must_use]
    pub fn unscored(mv: Move) -> GameMove {
        GameMove { mv, score: None }
    }
}

/// A finished self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayGame {
    /// The game's index in its datagen (its opening and random plies follow from it).
    pub index: u64,
    /// The position the first move is played from (the opening book's FEN).
    pub start_fen: String,
    pub moves: Vec<GameMove>,
    /// The result from Red's side.
    pub red_result: GameResult,
    /// How it ended, as the runner's reason code (`checkmate`, `adjudication_resign`,
    /// `max_plies`, ...).
    pub ending: String,
}

impl SelfPlayGame {
    /// The positions an engine searched: the moves with a score.
    #[must_use]
    pub fn searched(&self) -> usize {
        self.moves.iter().filter(|m| m.score.is_some()).count()
    }
}
