//! One game: clocks, move validation, judging by [`xq_engine::rules`], adjudication,
//! and every engine fault turned into a result.

pub mod adjudication;
pub mod outcome;
pub mod time_control;

pub use adjudication::{Adjudged, Adjudicator, DrawRule, ResignRule};
pub use outcome::{EndReason, Outcome, PlayedGame, PlayedMove};
pub use time_control::{parse_duration, Clock, TimeControl, TimeControlError};
