//! The search's tunable parameters, held by each [`Searcher`](super::Searcher) so that
//! they can differ per engine instance, and their option names and bounds. The defaults
//! are the constants of [`params`](super::params), where each formula is given.

use super::params::{
    ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW, BAD_CAPTURE_MAX_DEPTH, DELTA_MARGIN, FUTILITY_MARGIN,
    FUTILITY_MAX_DEPTH, IIR_MIN_DEPTH, LMP_BASE, LMP_MAX_DEPTH, LMR_BASE, LMR_DIVISOR,
    LMR_HISTORY_DIVISOR, LMR_MIN_DEPTH, LMR_MIN_MOVES, NULL_BASE, NULL_DEPTH_DIVISOR,
    NULL_EVAL_DIVISOR, NULL_EVAL_MAX_REDUCTION, NULL_MIN_DEPTH, NULL_MIN_MATERIAL, RFP_MARGIN,
    RFP_MAX_DEPTH,
};
use crate::tunable::{tunable, Tunable};

/// The margins, reductions and thresholds of the search; `Default` is the constants of
/// [`params`](super::params), the search `xq-engine bench` signs. Each field is the
/// constant of the same name in capitals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    pub aspiration_window: i32,
    pub aspiration_min_depth: i32,
    pub rfp_margin: i32,
    pub rfp_max_depth: i32,
    pub null_min_depth: i32,
    pub null_base: i32,
    pub null_depth_divisor: i32,
    pub null_eval_divisor: i32,
    pub null_eval_max_reduction: i32,
    pub null_min_material: i32,
    pub iir_min_depth: i32,
    pub futility_margin: i32,
    pub futility_max_depth: i32,
    pub bad_capture_max_depth: i32,
    pub lmp_base: usize,
    pub lmp_max_depth: i32,
    pub lmr_min_moves: usize,
    pub lmr_min_depth: i32,
    pub lmr_base: i32,
    pub lmr_divisor: i32,
    pub lmr_history_divisor: i32,
    pub delta_margin: i32,
}

impl SearchParams {
    /// Today's constants (see [`params`](super::params)).
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_window: ASPIRATION_WINDOW,
        aspiration_min_depth: ASPIRATION_MIN_DEPTH,
        rfp_margin: RFP_MARGIN,
        rfp_max_depth: RFP_MAX_DEPTH,
        null_min_depth: NULL_MIN_DEPTH,
        null_base: NULL_BASE,
        null_depth_divisor: NULL_DEPTH_DIVISOR,
        null_eval_divisor: NULL_EVAL_DIVISOR,
        null_eval_max_reduction: NULL_EVAL_MAX_REDUCTION,
        null_min_material: NULL_MIN_MATERIAL,
        iir_min_depth: IIR_MIN_DEPTH,
        futility_margin: FUTILITY_MARGIN,
        futility_max_depth: FUTILITY_MAX_DEPTH,
        bad_capture_max_depth: BAD_CAPTURE_MAX_DEPTH,
        lmp_base: LMP_BASE,
        lmp_max_depth: LMP_MAX_DEPTH,
        lmr_min_moves: LMR_MIN_MOVES,
        lmr_min_depth: LMR_MIN_DEPTH,
        lmr_base: LMR_BASE,
        lmr_divisor: LMR_DIVISOR,
        lmr_history_divisor: LMR_HISTORY_DIVISOR,
        delta_margin: DELTA_MARGIN,
    };
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::DEFAULT
    }
}

/// Every tunable search parameter, as an option. The bounds keep the search sound: the
/// aspiration window must grow (at least 1), divisors are never 0, internal iterative
/// reduction and late move reductions leave a reduced node at least one ply.
pub const SEARCH_TUNABLES: [Tunable<SearchParams>; 22] = [
    tunable!(SearchParams, "AspirationWindow", aspiration_window, 5, 200),
    tunable!(
        SearchParams,
        "AspirationMinDepth",
        aspiration_min_depth,
        1,
        20
    ),
    tunable!(SearchParams, "RfpMargin", rfp_margin, 0, 400),
    tunable!(SearchParams, "RfpMaxDepth", rfp_max_depth, 0, 12),
    tunable!(SearchParams, "NullMoveMinDepth", null_min_depth, 1, 8),
    tunable!(SearchParams, "NullMoveBase", null_base, 1, 6),
    tunable!(
        SearchParams,
        "NullMoveDepthDivisor",
        null_depth_divisor,
        1,
        12
    ),
    tunable!(
        SearchParams,
        "NullMoveEvalDivisor",
        null_eval_divisor,
        50,
        1000
    ),
    tunable!(
        SearchParams,
        "NullMoveEvalMax",
        null_eval_max_reduction,
        0,
        6
    ),
    tunable!(
        SearchParams,
        "NullMoveMinMaterial",
        null_min_material,
        0,
        2500
    ),
    tunable!(SearchParams, "IirMinDepth", iir_min_depth, 2, 12),
    tunable!(SearchParams, "FutilityMargin", futility_margin, 0, 400),
    tunable!(SearchParams, "FutilityMaxDepth", futility_max_depth, 0, 12),
    tunable!(
        SearchParams,
        "BadCaptureMaxDepth",
        bad_capture_max_depth,
        0,
        12
    ),
    tunable!(SearchParams, "LmpBase", lmp_base, 0, 32),
    tunable!(SearchParams, "LmpMaxDepth", lmp_max_depth, 0, 12),
    tunable!(SearchParams, "LmrMinMoves", lmr_min_moves, 1, 16),
    tunable!(SearchParams, "LmrMinDepth", lmr_min_depth, 2, 12),
    tunable!(SearchParams, "LmrBase", lmr_base, 0, 300),
    tunable!(SearchParams, "LmrDivisor", lmr_divisor, 100, 600),
    tunable!(
        SearchParams,
        "LmrHistoryDivisor",
        lmr_history_divisor,
        1000,
        32000
    ),
    tunable!(SearchParams, "DeltaMargin", delta_margin, 0, 1000),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_tunable_once_and_its_default_lies_inside_its_bounds() {
        let defaults = SearchParams::default();
        for (i, t) in SEARCH_TUNABLES.iter().enumerate() {
            let value = t.default_value();
            assert!(t.min <= value && value <= t.max, "{}", t.name);
            assert!(t.min < t.max, "{}", t.name);
            // Each tunable writes its own field and no other.
            let mut changed = defaults;
            let other = if value == t.max { t.min } else { t.max };
            (t.set)(&mut changed, other);
            assert_eq!((t.get)(&changed), other, "{}", t.name);
            for (j, u) in SEARCH_TUNABLES.iter().enumerate() {
                if i != j {
                    assert_eq!(
                        (u.get)(&changed),
                        (u.get)(&defaults),
                        "{} {}",
                        t.name,
                        u.name
                    );
                    assert!(!t.is_named(u.name), "{} twice", t.name);
                }
            }
            assert_ne!(changed, defaults, "{}", t.name);
        }
    }
}
