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
/// Entries of the late-move-reduction table: depths and move counts beyond it read its
/// last entry.
pub const LMR_TABLE_SIZE: usize = 256;
/// Inside the tree a repetition is judged at its first recurrence: `judge_cycle` is
/// asked with this many occurrences.
pub const SEARCH_REPETITION_COUNT: u32 = 2;

// -----------------------------------------------------------------------------------------
// Late move reductions (searcher/alpha_beta.rs; not tunable): the adjustments of the
// reduction `r` of a late move at a node of remaining depth `depth`, in plies, after
// Stockfish's (the constants as Pikafish tuned them for Xiangqi)
// -----------------------------------------------------------------------------------------

/// At a node that is or was on a principal variation and is not likely to fail low:
/// `r -= 1 + lmr_tt_pv / (LMR_TT_PV_DEPTH_OFFSET + depth)`.
pub const LMR_TT_PV_DEPTH_OFFSET: i32 = 5;
/// When the parent searched more than this many moves before the one that led here
/// (the opponent's move was a late one): `r -= 1`.
pub const LMR_PARENT_MOVE_COUNT: usize = 6;
/// At an expected cut node: `r += lmr_cut_node_base + lmr_cut_node /
/// (LMR_CUT_NODE_DEPTH_OFFSET + depth)`.
pub const LMR_CUT_NODE_DEPTH_OFFSET: i32 = 7;
/// At a principal-variation node: `r -= 1 + lmr_pv / (LMR_PV_DEPTH_OFFSET + depth)`.
pub const LMR_PV_DEPTH_OFFSET: i32 = 2;
/// Off the principal variation, when more than this many of the children failed high in
/// a row: `r += 1`.
pub const LMR_CHILD_CUTOFFS: u32 = 3;
/// A reduced search that beats alpha is searched again at `new_depth + deeper +
/// much_deeper - shallower`, where `deeper` is whether it beat alpha by more than
/// `LMR_DEEPER_MARGIN + LMR_DEEPER_PER_PLY * (plies reduced)`, `much_deeper` the same
/// with the `MUCH_DEEPER` constants, and `shallower` whether it stayed below the node's
/// best score plus `new_depth`.
pub const LMR_DEEPER_MARGIN: i32 = 26;
/// See [`LMR_DEEPER_MARGIN`].
pub const LMR_DEEPER_PER_PLY: i32 = 3;
/// See [`LMR_DEEPER_MARGIN`].
pub const LMR_MUCH_DEEPER_MARGIN: i32 = 540;
/// See [`LMR_DEEPER_MARGIN`].
pub const LMR_MUCH_DEEPER_PER_PLY: i32 = 47;

/// Capture futility reads the capture's history divided by this (see
/// [`SearchParams::capture_futility_margin`](super::SearchParams::capture_futility_margin)).
pub const CAPTURE_FUTILITY_HISTORY_DIVISOR: i32 = 6;

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
/// Continuation-history values (a quiet move's history after a given move 1, 2, 4 or 6
/// plies back) stay in `[-CONTINUATION_HISTORY_MAX, CONTINUATION_HISTORY_MAX]`, updated as
/// the butterfly history is (`h += bonus - h * |bonus| / CONTINUATION_HISTORY_MAX`). It
/// must fit an `i16`, the table's entries (at 16 x 90 x 16 x 90 entries, `i32`s would
/// double its 4 MB in the caches). Wider than the butterfly's, as Stockfish's is: a
/// continuation entry is a rarer pair of moves, and its values fill more slowly.
pub const CONTINUATION_HISTORY_MAX: i32 = 30_000;
/// Capture-history values (`Heuristics::capture_history`: by moving piece, destination
/// and victim kind) stay in `[-CAPTURE_HISTORY_MAX, CAPTURE_HISTORY_MAX]`, updated with
/// gravity as the other histories are.
pub const CAPTURE_HISTORY_MAX: i32 = 16_384;
/// The bonus of the histories at a node of depth `d` (Stockfish's `stat_bonus`, in
/// Pikafish's constants scaled by 1.5 for our bound of 16,384 against its 10,692):
/// `(STAT_BONUS_QUADRATIC * d + STAT_BONUS_LINEAR) * d - STAT_BONUS_OFFSET` within
/// `[STAT_BONUS_MIN, STAT_BONUS_CAP]`.
pub const STAT_BONUS_QUADRATIC: i32 = 12;
/// See [`STAT_BONUS_QUADRATIC`].
pub const STAT_BONUS_LINEAR: i32 = 498;
/// See [`STAT_BONUS_QUADRATIC`].
pub const STAT_BONUS_OFFSET: i32 = 1014;
/// See [`STAT_BONUS_QUADRATIC`].
pub const STAT_BONUS_CAP: i32 = 4975;
/// See [`STAT_BONUS_QUADRATIC`].
pub const STAT_BONUS_MIN: i32 = 64;
/// Captures are ordered by `CAPTURE_VICTIM_SCALE * victim + capture history /
/// CAPTURE_HISTORY_DIVISOR`, the victim valued by its material; a capture is tried with
/// the good ones when its exchange (`see::see_ge`) loses no more than
/// `GOOD_CAPTURE_SEE_SHARE / 1024` of that score, else after the quiet moves.
pub const CAPTURE_VICTIM_SCALE: i32 = 8;
/// See [`CAPTURE_VICTIM_SCALE`].
pub const CAPTURE_HISTORY_DIVISOR: i32 = 2;
/// See [`CAPTURE_VICTIM_SCALE`].
pub const GOOD_CAPTURE_SEE_SHARE: i32 = 86;
/// A quiet best move gains the bonus of one ply deeper (see [`STAT_BONUS_QUADRATIC`]) when
/// its score beat beta by more than this.
pub const QUIET_BONUS_MARGIN: i32 = 93;
/// When every move of a node failed low, the quiet move that led to it gains history
/// (twice at principal-variation and cut nodes) if the node was at least 5 plies deep, a
/// principal-variation node, or failed low by more than `FAIL_LOW_BONUS_MARGIN * depth`.
pub const FAIL_LOW_BONUS_MARGIN: i32 = 39;
/// The opponent's quiet move that led to a node gains `-EVAL_DIFFERENCE_SCALE * (its
/// node's static evaluation + ours)` of butterfly history, within
/// `±EVAL_DIFFERENCE_CAP`: a move after which our evaluation fell was a good one.
pub const EVAL_DIFFERENCE_SCALE: i32 = 40;
/// See [`EVAL_DIFFERENCE_SCALE`].
pub const EVAL_DIFFERENCE_CAP: i32 = 4000;
/// The first `SORTED_QUIETS` quiet moves (after hash move and killers) are picked in
/// history order (butterfly plus continuation history); the rest follow in generation order.
pub const SORTED_QUIETS: usize = 12;

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
