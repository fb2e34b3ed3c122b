//! The rules judge: every way a Xiangqi game ends, decided by the program itself.
//!
//! The runner judges every game with this module and the engine's search uses the same
//! cycle judge, so both agree on what a perpetual is.
//!
//! - [`GameRecord`]: start position plus moves; `push` / `pop` a move, `verdict()` after
//!   any ply, `banned_moves()` for UCCI `banmoves`. Each ply keeps its position key,
//!   whether the move checked and which pieces it newly chased, so a judgement costs
//!   O(plies since the last capture), never O(game).
//! - [`Verdict`] = [`GameResult`] (from Red's side, as PGN) + [`Reason`] + ply.
//! - [`Ruleset`]: `asian` (default, AXF, third occurrence), `computer` (xqbase league,
//!   fourth occurrence), `simple` (perpetual check loses, all else draws, third
//!   occurrence); [`Rules`] adds the natural move limit (default 120 plies).
//! - [`chase`]: chase detection per ruleset; [`judge_cycle`]: the repetition judge over
//!   a slice of [`PlyEntry`], usable from the search's own stack.
//!
//! The order of the tests at each ply: the side to move has no legal move (checkmate or
//! stalemate, it loses), then repetition, then insufficient material, then the move
//! limit. See `docs/rules.md` for the rules themselves and the sources.
//!
//! # Examples
//! ```
//! use xq_core::board::Move;
//! use xq_core::rules::{GameRecord, GameResult, Reason, Rules, Ruleset};
//!
//! // Red's rook checks along rank 9, then rank 8, as Black's king steps e9-e8-e9: at the
//! // third occurrence of the start position the checker loses.
//! let mut game = GameRecord::from_fen("4k4/R8/9/9/9/9/9/9/9/5K3 w", Rules::new(Ruleset::Asian))?;
//! for text in ["a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9"] {
//!     game.push(Move::parse(text)?)?;
//! }
//! let verdict = game.verdict();
//! assert_eq!((verdict.result, verdict.reason), (GameResult::BlackWins, Reason::PerpetualCheck));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod banned;
pub mod chase;
mod limit;
mod material;
mod record;
mod repetition;
mod ruleset;
mod verdict;

pub use limit::LimitCounter;
pub use material::insufficient_material;
pub use record::{judge_game, GameJudgement, GameRecord, IllegalMove};
pub use repetition::{judge_cycle, CycleVerdict, Offence, PlyEntry};
pub use ruleset::{ChaseRule, LimitCounting, Rules, Ruleset, UnknownLimitCounting, UnknownRuleset};
pub use verdict::{GameResult, Reason, Verdict};
