//! Search constants, named in one place.

/// Deepest iteration and longest path the search supports.
pub const MAX_PLY: usize = 128;

/// Aspiration window half width at the start of an iteration.
pub const ASPIRATION_WINDOW: i32 = 30;
/// Iterations before aspiration windows are used.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Null-move reduction: `NULL_BASE + depth / NULL_DEPTH_DIVISOR`.
pub const NULL_BASE: i32 = 3;
pub const NULL_DEPTH_DIVISOR: i32 = 4;
/// Null move is tried only when the side to move keeps at least this much material
/// besides king, advisors, elephants and pawns (otherwise zugzwang is a real risk).
pub const NULL_MIN_MATERIAL: i32 = 450;

/// Reverse futility (static null move): margin per ply of remaining depth.
pub const RFP_MARGIN: i32 = 110;
pub const RFP_MAX_DEPTH: i32 = 6;

/// Futility pruning of quiet moves near the leaves: margin per ply.
pub const FUTILITY_MARGIN: i32 = 130;
pub const FUTILITY_MAX_DEPTH: i32 = 6;

/// Late move pruning: quiet moves searched at most `LMP_BASE + depth * depth`.
pub const LMP_BASE: usize = 4;
pub const LMP_MAX_DEPTH: i32 = 6;

/// Late move reductions start after this many moves and at this depth.
pub const LMR_MIN_MOVES: usize = 3;
pub const LMR_MIN_DEPTH: i32 = 3;

/// Internal iterative reduction: depth taken off nodes without a hash move.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Quiescence delta pruning margin (a capture that cannot reach alpha even with this).
pub const DELTA_MARGIN: i32 = 200;

/// History values are kept in `[-HISTORY_MAX, HISTORY_MAX]`.
pub const HISTORY_MAX: i32 = 16_384;

/// How often (in nodes) the search looks at the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 256;
