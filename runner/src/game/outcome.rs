//! How a game ended: the result, the reason code, and which engine was at fault.

use std::fmt;

use serde::{Deserialize, Serialize};
use xq_core::board::{Color, Move};

use crate::client::Score;

/// Why a game ended. [`EndReason::code`] gives the stable snake_case codes of journals,
/// PGN and summaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Checkmate,
    Stalemate,
    PerpetualCheck,
    PerpetualChase,
    Repetition,
    MoveLimit,
    InsufficientMaterial,
    AdjudicationDraw,
    AdjudicationResign,
    MaxPlies,
    TimeForfeit,
    IllegalMove,
    Crash,
    Stall,
    NoMove,
}

impl EndReason {
    /// Every reason, in code order.
    pub const ALL: [EndReason; 15] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::PerpetualCheck,
        EndReason::PerpetualChase,
        EndReason::Repetition,
        EndReason::MoveLimit,
        EndReason::InsufficientMaterial,
        EndReason::AdjudicationDraw,
        EndReason::AdjudicationResign,
        EndReason::MaxPlies,
        EndReason::TimeForfeit,
        EndReason::IllegalMove,
        EndReason::Crash,
        EndReason::Stall,
        EndReason::NoMove,
    ];

    /// The stable code.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual_check",
            EndReason::PerpetualChase => "perpetual_chase",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move_limit",
            EndReason::InsufficientMaterial => "insufficient_material",
            EndReason::AdjudicationDraw => "adjudication_draw",
            EndReason::AdjudicationResign => "adjudication_resign",
            EndReason::MaxPlies => "max_plies",
            EndReason::TimeForfeit => "time_forfeit",
            EndReason::IllegalMove => "illegal_move",
            EndReason::Crash => "crash",
            EndReason::Stall => "stall",
            EndReason::NoMove => "no_move",
        }
    }

    /// The reason with this code.
    #[must_use]
    pub fn from_code(code: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Whether the reason is an engine fault (the engine is restarted after it).
    #[must_use]
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            EndReason::TimeForfeit
                | EndReason::IllegalMove
                | EndReason::Crash
                | EndReason::Stall
                | EndReason::NoMove
        )
    }

    /// The words of a PGN `Termination` comment.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate (the side to move has no move and loses)",
            EndReason::PerpetualCheck => "perpetual check (the checker loses)",
            EndReason::PerpetualChase => "perpetual chase (the chaser loses)",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "natural move limit",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::AdjudicationDraw => "draw by adjudication",
            EndReason::AdjudicationResign => "loss by adjudication",
            EndReason::MaxPlies => "maximum length reached",
            EndReason::TimeForfeit => "loss on time",
            EndReason::IllegalMove => "illegal move",
            EndReason::Crash => "engine crashed",
            EndReason::Stall => "engine stalled",
            EndReason::NoMove => "engine claimed to have no move",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The result of a finished game, from Red's side as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    #[serde(rename = "1-0")]
    RedWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl Outcome {
    /// The result where `loser` loses.
    #[must_use]
    pub fn loss_for(loser: Color) -> Outcome {
        match loser {
            Color::Red => Outcome::BlackWins,
            Color::Black => Outcome::RedWins,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn as_pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The result written `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        [Outcome::RedWins, Outcome::BlackWins, Outcome::Draw]
            .into_iter()
            .find(|o| o.as_pgn() == text)
    }

    /// The score of a side: 1, 0.5 or 0.
    #[must_use]
    pub fn score_for(self, side: Color) -> f64 {
        match (self, side) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::RedWins, Color::Red) | (Outcome::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// One move of a played game, with what the runner measured and the engine said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// Thinking time measured by the runner.
    pub time_ms: u64,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// Nodes, nodes per second and selective depth of the engine's last scored `info`.
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub seldepth: Option<u32>,
}

/// The moves of one side that took longer than the time left on its clock, and the
/// time they took beyond it: what a clamped clock forgives, up to the margin a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OverClock {
    pub moves: u32,
    /// The time beyond the clock, summed over those moves.
    pub ms: u64,
}

impl OverClock {
    /// No move over the clock.
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.moves == 0 && self.ms == 0
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub red: String,
    pub black: String,
    /// FEN of the opening's start and the opening's own moves (not played by the engines).
    pub start_fen: String,
    pub opening_moves: Vec<Move>,
    /// The moves the engines played.
    pub moves: Vec<PlayedMove>,
    pub outcome: Outcome,
    pub reason: EndReason,
    /// The side whose engine faulted (it is restarted before its next game).
    pub faulted: Option<Color>,
    /// A human-readable detail: the illegal move, the exit status, the rule.
    pub detail: Option<String>,
    /// Moves over the clock, Red's then Black's.
    pub over_clock: [OverClock; 2],
}

impl PlayedGame {
    /// Plies played by the engines.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.moves.len()
    }
}
