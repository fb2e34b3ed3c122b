//! One game: clocks, move validation, judging by [`xq_core::rules`], adjudication,
//! and every engine fault turned into a result.

pub(crate) mod adjudication;
pub(crate) mod outcome;
pub(crate) mod play;
pub(crate) mod time_control;

pub(crate) use adjudication::{DrawRule, ResignRule};
pub use outcome::{EndReason, Outcome, OverClock, PlayedGame, PlayedMove};
pub use play::{play_game, GameSettings, GameStart, Player, StartError};
pub(crate) use time_control::parse_duration;
pub use time_control::{MarginMode, TimeControl};
