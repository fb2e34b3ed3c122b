//! Every search constant, named in one place, each with the formula the code applies.
//!
//! The tunable ones (margins, reductions, thresholds) are the defaults of
//! [`SearchParams`](super::SearchParams), which the searcher reads at run time and the
//! protocol sets as options (`docs/tuning-parameters.md`); the rest (limits of the data
//! structures, move ordering, time management, housekeeping) are used as they are.
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

/// Aspiration window: from depth [`ASPIRATION_MIN_DEPTH`] on (and unless the last score is
/// a mate) an iteration starts with the window `previous ± δ`, `δ = ASPIRATION_WINDOW`.
/// On a fail low `beta = (alpha + beta) / 2, alpha = score - δ`; on a fail high
/// `beta = score + δ`; then `δ += δ`.
pub const ASPIRATION_WINDOW: i32 = 30;
/// Iterations below this depth search the full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Once the doubled `δ` exceeds this, the iteration is searched with the full window.
pub const ASPIRATION_MAX_WINDOW: i32 = 1000;

// -----------------------------------------------------------------------------------------
// Pruning before the move loop (searcher.rs), at nodes that are neither PV nor in check
// -----------------------------------------------------------------------------------------

/// Reverse futility (static null move): return `eval` when `depth <= RFP_MAX_DEPTH` and
/// `eval - RFP_MARGIN * depth >= beta` (and `beta` is not a mate score).
pub const RFP_MARGIN: i32 = 110;
/// See [`RFP_MARGIN`].
pub const RFP_MAX_DEPTH: i32 = 6;

/// Null move: tried when `depth >= NULL_MIN_DEPTH`, `eval >= beta`, the move before was
/// not a null move and the side to move keeps at least [`NULL_MIN_MATERIAL`]; the child
/// searches `depth - 1 - R` with `R = NULL_BASE + depth / NULL_DEPTH_DIVISOR +
/// min((eval - beta) / NULL_EVAL_DIVISOR, NULL_EVAL_MAX_REDUCTION)`; a score `>= beta`
/// returns (`beta` in place of a mate score).
pub const NULL_MIN_DEPTH: i32 = 2;
/// See [`NULL_MIN_DEPTH`].
pub const NULL_BASE: i32 = 3;
/// See [`NULL_MIN_DEPTH`].
pub const NULL_DEPTH_DIVISOR: i32 = 4;
/// See [`NULL_MIN_DEPTH`].
pub const NULL_EVAL_DIVISOR: i32 = 300;
/// See [`NULL_MIN_DEPTH`].
pub const NULL_EVAL_MAX_REDUCTION: i32 = 2;
/// Null move only when the side to move has at least this much rook, horse and cannon
/// material (sum of their piece values): with less, zugzwang is a real risk.
pub const NULL_MIN_MATERIAL: i32 = 450;

/// Internal iterative reduction: a node with `depth >= IIR_MIN_DEPTH` and no hash move
/// is searched one ply shallower (`depth -= 1`).
pub const IIR_MIN_DEPTH: i32 = 4;

// -----------------------------------------------------------------------------------------
// Pruning and reductions in the move loop (searcher.rs), never at the root or in check
// -----------------------------------------------------------------------------------------

/// Futility: when `depth <= FUTILITY_MAX_DEPTH` and `eval + FUTILITY_MARGIN * depth <=
/// alpha`, quiet moves that do not give check are skipped (not even generated).
pub const FUTILITY_MARGIN: i32 = 130;
/// See [`FUTILITY_MARGIN`].
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// Losing captures (by the ordering's test) that give no check are skipped when
/// `depth <= BAD_CAPTURE_MAX_DEPTH` and `eval + FUTILITY_MARGIN * depth <= alpha`.
pub const BAD_CAPTURE_MAX_DEPTH: i32 = 3;

/// Late move pruning: when `depth <= LMP_MAX_DEPTH`, once `LMP_BASE + (depth * depth >>
/// s)` quiet moves have been searched (`s = 0` if improving, else 1: halved), the rest
/// of the quiet moves are skipped.
pub const LMP_BASE: usize = 4;
/// See [`LMP_BASE`].
pub const LMP_MAX_DEPTH: i32 = 6;

/// Late move reductions: a quiet move, not a check, at a node not in check, with
/// `depth >= LMR_MIN_DEPTH` and at least `LMR_MIN_MOVES` moves searched before it, is
/// searched first with the null window at `new_depth - r`, `r = LMR[depth][searched] -
/// pv_node + !improving - killer - history / LMR_HISTORY_DIVISOR` clamped to
/// `[0, new_depth - 1]`, where `LMR[d][m] = trunc(clamp(LMR_BASE / 100 + ln d * ln m /
/// (LMR_DIVISOR / 100), 0, LMR_TABLE_MAX))` and `history` is the move's butterfly,
/// counter-move and follow-up history summed, as the move ordering reads it.
pub const LMR_MIN_MOVES: usize = 3;
/// See [`LMR_MIN_MOVES`].
pub const LMR_MIN_DEPTH: i32 = 3;
/// See [`LMR_MIN_MOVES`]: the table's constant term, in hundredths of a ply.
pub const LMR_BASE: i32 = 75;
/// See [`LMR_MIN_MOVES`]: the table's divisor of `ln d * ln m`, in hundredths.
pub const LMR_DIVISOR: i32 = 225;
/// See [`LMR_MIN_MOVES`]: a history of this much takes one ply off the reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 6000;

// -----------------------------------------------------------------------------------------
// Quiescence search (searcher.rs)
// -----------------------------------------------------------------------------------------

/// Delta pruning, out of check: only captures of pieces worth more than `alpha -
/// stand_pat - DELTA_MARGIN` are generated, and a capture is skipped when `stand_pat +
/// victim + DELTA_MARGIN <= alpha`.
pub const DELTA_MARGIN: i32 = 200;

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
