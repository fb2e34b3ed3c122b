//! One game: clocks, move validation, judging by [`xq_core::rules`], adjudication,
//! and every engine fault turned into a result.

pub mod adjudication;
pub mod outcome;
pub mod play;
pub mod time_control;

pub use adjudication::{Adjudged, Adjudicator, DrawRule, ResignRule};
pub use outcome::{EndReason, Outcome, OverClock, PlayedGame, PlayedMove};
pub use play::{play_game, GameSettings, GameStart, Player, StartError};
pub use time_control::{parse_duration, Clock, MarginMode, TimeControl, TimeControlError};
