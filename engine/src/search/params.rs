//! Every search constant that is not tunable, named in one place, each with the formula
//! the code applies: limits of the data structures, move ordering, time management,
//! housekeeping. The tunable ones (margins, reductions, thresholds), which the searcher
//! reads at run time and the protocol sets as options (`docs/tuning-parameters.md`), are
//! declared once each, with their formulas, in the knob table of
//! [`SearchParams`](super::SearchParams) (`search_params.rs`).
//!
//! In the formulas, `depth` is the remaining depth of the node (after internal iterative
//! reduction, in the move loop), `ply` its distance from the root, `eval` its static
//! evaluation, `alpha`/`beta` its window, and divisions truncate toward zero as Rust's do.

use std::time::Duration;

// -----------------------------------------------------------------------------------------
// Limits of the search's data structures (not tunable)
// -----------------------------------------------------------------------------------------

/// Longest path the search supports, in plies from the root: nodes at `ply >= MAX_PLY - 2`
/// return the static evaluation.
pub const MAX_PLY: usize = 128;
/// Deepest iteration: `go depth D` searches to `D.clamp(1, MAX_ITERATION_DEPTH)`.
pub const MAX_ITERATION_DEPTH: i32 = MAX_PLY as i32 - 4;
/// A move that gives check is extended by one ply while `ply < CHECK_EXTENSION_MAX_PLY`.
pub const CHECK_EXTENSION_MAX_PLY: usize = 2 * MAX_PLY / 3;
/// Columns of the late-move-reduction table: reductions are looked up at
/// `[depth.min(MAX_PLY - 1)][searched.min(LMR_TABLE_MOVES - 1)]`.
pub const LMR_TABLE_MOVES: usize = 64;
/// Largest entry of the late-move-reduction table (before the adjustments).
pub const LMR_TABLE_MAX: f64 = 60.0;
/// Inside the tree a repetition is judged at its first recurrence: `judge_cycle` is
/// asked with this many occurrences.
pub const SEARCH_REPETITION_COUNT: u32 = 2;

// -----------------------------------------------------------------------------------------
// Iterative deepening and aspiration windows (driver.rs)
// -----------------------------------------------------------------------------------------

/// Once the doubled `δ` of the aspiration window (see
/// [`SearchParams::aspiration_window`](super::SearchParams::aspiration_window)) exceeds
/// this, the iteration is searched with the full window.
pub const ASPIRATION_MAX_WINDOW: i32 = 1000;

// -----------------------------------------------------------------------------------------
// Move ordering (heuristics.rs, picker.rs; not tunable)
// -----------------------------------------------------------------------------------------

/// History values stay in `[-HISTORY_MAX, HISTORY_MAX]`: an update by `bonus` is
/// `h += bonus - h * |bonus| / HISTORY_MAX`.
pub const HISTORY_MAX: i32 = 16_384;
/// Continuation-history values (the counter-move and follow-up tables: a quiet move's
/// history after a given move one or two plies back) stay in `[-CONTINUATION_HISTORY_MAX,
/// CONTINUATION_HISTORY_MAX]`, updated as the butterfly history is (`h += bonus - h *
/// |bonus| / CONTINUATION_HISTORY_MAX`, the same bonus). The same bound as
/// [`HISTORY_MAX`], so that each of the three terms of a quiet move's score (ordering and
/// the history term of late move reductions read their sum) can weigh as much as the
/// others; it must fit an `i16`, the tables' entries (at 16 x 90 x 16 x 90 entries each,
/// `i32`s would double their 4 MB in the caches).
pub const CONTINUATION_HISTORY_MAX: i32 = HISTORY_MAX;
/// A cutoff's history bonus: `min(depth * depth, HISTORY_BONUS_MAX_DEPTH_SQUARED) *
/// HISTORY_BONUS_SCALE`, given to the quiet move that cut off and taken from the quiet
/// moves tried before it.
pub const HISTORY_BONUS_MAX_DEPTH_SQUARED: i32 = 400;
/// See [`HISTORY_BONUS_MAX_DEPTH_SQUARED`].
pub const HISTORY_BONUS_SCALE: i32 = 8;
/// The first `SORTED_QUIETS` quiet moves (after hash move and killers) are picked in
/// history order (butterfly plus continuation history); the rest follow in generation order.
pub const SORTED_QUIETS: usize = 12;
/// Captures are ordered by MVV/LVA: `victim * MVV_LVA_VICTIM_SCALE - attacker /
/// MVV_LVA_ATTACKER_DIVISOR`, the pieces valued by their material, a king by
/// [`KING_ORDER_VALUE`]: any victim's step outweighs every attacker's.
pub const MVV_LVA_VICTIM_SCALE: i32 = 16;
/// See [`MVV_LVA_VICTIM_SCALE`].
pub const MVV_LVA_ATTACKER_DIVISOR: i32 = 16;
/// The king's value in capture ordering (kings are never captured in legal play; as an
/// attacker it orders last), above every piece's material.
pub const KING_ORDER_VALUE: i32 = 10_000;

// -----------------------------------------------------------------------------------------
// Transposition table replacement (tt.rs; not tunable)
// -----------------------------------------------------------------------------------------

/// A new position replaces the entry of its cluster with the lowest `depth -
/// TT_AGE_WEIGHT * age` (age: searches since the entry was written).
pub const TT_AGE_WEIGHT: i32 = 8;
/// A result for a position already stored is dropped when it is not exact, the stored
/// entry is of this search and `depth + TT_KEEP_DEEPER_MARGIN < stored depth`.
pub const TT_KEEP_DEEPER_MARGIN: i32 = 2;

// -----------------------------------------------------------------------------------------
// Time management (limits.rs, driver.rs; not tunable)
// -----------------------------------------------------------------------------------------

/// Time reserved for the pipe and process scheduling: `usable = time_left -
/// MOVE_OVERHEAD`, and a `movetime` T gives `max(T - MOVE_OVERHEAD / 3, 1 ms)`.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);
/// See [`MOVE_OVERHEAD`].
pub const MOVETIME_OVERHEAD_DIVISOR: u32 = 3;
/// With a clock, `base = usable / mtg + increment * INCREMENT_SHARE`, where `mtg` is
/// `movestogo` (or [`DEFAULT_MOVES_TO_GO`] in sudden death) clamped to
/// `1..=MAX_MOVES_TO_GO`. Fractions are `(numerator, denominator)`.
pub const INCREMENT_SHARE: (u32, u32) = (3, 4);
/// Sudden death: plan as if this many moves remain.
pub const DEFAULT_MOVES_TO_GO: u32 = 28;
/// See [`INCREMENT_SHARE`].
pub const MAX_MOVES_TO_GO: u32 = 60;
/// Never plan on more than `usable * LAST_MOVE_CAP` for the last move of a period
/// (`mtg == 1`), or `usable * MOVE_CAP` otherwise: `cap`.
pub const LAST_MOVE_CAP: (u32, u32) = (9, 10);
/// See [`LAST_MOVE_CAP`].
pub const MOVE_CAP: (u32, u32) = (2, 5);
/// `soft = max(min(base, cap), 1 ms)` (no new iteration past it) and `hard =
/// max(min(base * HARD_BUDGET_FACTOR, cap), soft)` (the search aborts at it).
pub const HARD_BUDGET_FACTOR: u32 = 4;
/// With a clock (not a fixed `movetime`), no new iteration starts once
/// `elapsed >= soft * NEW_ITERATION_SHARE`.
pub const NEW_ITERATION_SHARE: (u32, u32) = (6, 10);
/// The share's threshold is scaled by how the iterations went (`trend.rs`): by
/// `STABILITY_SCALE[n]` when the best move has stayed the same for the last `n`
/// iterations (the last entry for more), Stockfish's habit of thinking less on a settled
/// move and more on one that just changed.
pub const STABILITY_SCALE: [f64; 5] = [1.40, 1.15, 1.00, 0.90, 0.80];
/// ... and by up to `SCORE_DROP_MAX_SCALE` when the score fell against the iteration
/// [`SCORE_DROP_LOOKBACK`] back: linearly, the full factor at a fall of
/// `SCORE_DROP_FULL` centipawns. A falling score is the sign of a threat the shallower
/// iterations missed. The scaled threshold never passes the hard budget.
pub const SCORE_DROP_MAX_SCALE: f64 = 1.5;
/// See [`SCORE_DROP_MAX_SCALE`].
pub const SCORE_DROP_FULL: i32 = 200;
/// See [`SCORE_DROP_MAX_SCALE`].
pub const SCORE_DROP_LOOKBACK: usize = 3;

// -----------------------------------------------------------------------------------------
// Housekeeping (not tunable; the search is the same whatever they are)
// -----------------------------------------------------------------------------------------

/// How often (in nodes) the search looks at the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 256;
/// From this depth on, every child searched probes the table (reductions leave it at
/// least a ply), so its cluster is fetched before the move is played.
pub const EARLY_FETCH_MIN_DEPTH: i32 = 2;
/// How often a finished search in infinite or ponder mode looks for `stop`.
pub const INFINITE_WAIT_POLL: Duration = Duration::from_millis(2);
