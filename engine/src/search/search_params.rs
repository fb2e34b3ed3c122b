//! The search's tunable parameters ("knobs"), held by each [`Searcher`](super::Searcher)
//! so that they can differ per engine instance. Each knob is declared once, in the table
//! of `search_knobs!` below: its field, type, default, UCI option name (UCCI's is the
//! same lowercased) and tuning range; the struct, its defaults and the option list are
//! generated from that table. The constants that are not tunable are in
//! [`params`](super::params).
//!
//! In the formulas, `depth` is the remaining depth of the node (after internal iterative
//! reduction, in the move loop), `ply` its distance from the root, `eval` its static
//! evaluation, `alpha`/`beta` its window, and divisions truncate toward zero as Rust's do.

use crate::tunable::{tunable, Tunable};

/// Declares every knob once and generates from the list [`SearchParams`] (one field per
/// knob, its doc comment on the field), [`SearchParams::DEFAULT`] and
/// [`SEARCH_TUNABLES`] (the options, in the order of the list, which is the order the
/// `--tune` handshake announces them in). A row reads
/// `field: type = default, "OptionName", min..=max;`.
macro_rules! search_knobs {
    ($(
        $(#[$doc:meta])*
        $field:ident: $ty:ty = $default:expr, $option:literal, $min:literal..=$max:literal;
    )*) => {
        /// The margins, reductions and thresholds of the search; `Default` is
        /// [`SearchParams::DEFAULT`], the search `xq-engine bench` signs.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[$doc])* pub $field: $ty, )*
        }

        impl SearchParams {
            /// The defaults: the values the engine was built with. The default search reads
            /// them as constants (see `knobs` in `searcher.rs`).
            pub const DEFAULT: SearchParams = SearchParams {
                $( $field: $default, )*
            };
        }

        /// Every knob, as an option.
        pub const SEARCH_TUNABLES: [Tunable<SearchParams>; [$(stringify!($field)),*].len()] = [
            $( tunable!(SearchParams, $option, $field, $min, $max), )*
        ];
    };
}

// The bounds keep the search sound: the aspiration window must grow (at least 1), divisors
// are never 0, internal iterative reduction and late move reductions leave a reduced node
// at least one ply.
search_knobs! {
    // ---------------------------------------------------------------------------------
    // Iterative deepening and aspiration windows (driver.rs)
    // ---------------------------------------------------------------------------------

    /// Aspiration window: from depth `aspiration_min_depth` on (and unless the last score
    /// is a mate) an iteration starts with the window `previous ± δ`, `δ =
    /// aspiration_window`. On a fail low `beta = (alpha + beta) / 2, alpha = score - δ`; on
    /// a fail high `beta = score + δ`; then `δ += δ` (up to
    /// [`ASPIRATION_MAX_WINDOW`](super::params::ASPIRATION_MAX_WINDOW)).
    aspiration_window: i32 = 30, "AspirationWindow", 5..=200;
    /// Iterations below this depth search the full window.
    aspiration_min_depth: i32 = 5, "AspirationMinDepth", 1..=20;

    // ---------------------------------------------------------------------------------
    // Pruning before the move loop (searcher.rs), at nodes that are neither PV nor in check
    // ---------------------------------------------------------------------------------

    /// Razoring: when the evaluation has not improved and `eval < alpha - razor_margin -
    /// razor_depth_margin * depth * depth`, a quiescence search with the null window at
    /// alpha decides: below alpha, the node fails low with its score.
    razor_margin: i32 = 316, "RazorMargin", 0..=2000;
    /// See `razor_margin`.
    razor_depth_margin: i32 = 318, "RazorDepthMargin", 0..=2000;

    /// Reverse futility (static null move), at a node that is not and was not on a
    /// principal variation: return `eval` when `depth <= rfp_max_depth`, `eval >= beta`
    /// and `eval - rfp_margin * (depth - improving) - parent_history /
    /// rfp_history_divisor >= beta` (and `beta` is not a mate score), where
    /// `parent_history` is the history of the opponent's move that led here, as late move
    /// reductions read it.
    rfp_margin: i32 = 110, "RfpMargin", 0..=400;
    /// See `rfp_margin`.
    rfp_max_depth: i32 = 7, "RfpMaxDepth", 0..=12;
    /// See `rfp_margin`.
    rfp_history_divisor: i32 = 186, "RfpHistoryDivisor", 20..=2000;

    /// Null move: tried when `depth >= null_min_depth`, `eval >= beta`, the move before
    /// was not a null move and the side to move keeps at least `null_min_material`; the
    /// child searches `depth - 1 - R` with `R = null_base + depth / null_depth_divisor +
    /// min((eval - beta) / null_eval_divisor, null_eval_max_reduction)`; a score `>= beta`
    /// returns (`beta` in place of a mate score).
    null_min_depth: i32 = 2, "NullMoveMinDepth", 1..=8;
    /// See `null_min_depth`.
    null_base: i32 = 3, "NullMoveBase", 1..=6;
    /// See `null_min_depth`.
    null_depth_divisor: i32 = 4, "NullMoveDepthDivisor", 1..=12;
    /// See `null_min_depth`.
    null_eval_divisor: i32 = 300, "NullMoveEvalDivisor", 50..=1000;
    /// See `null_min_depth`.
    null_eval_max_reduction: i32 = 2, "NullMoveEvalMax", 0..=6;
    /// Null move only when the side to move has at least this much rook, horse and
    /// cannon material (sum of their piece values): with less, zugzwang is a real risk.
    null_min_material: i32 = 450, "NullMoveMinMaterial", 0..=2500;

    /// Internal iterative reduction: a node with `depth >= iir_min_depth` and no hash
    /// move is searched one ply shallower (`depth -= 1`).
    iir_min_depth: i32 = 4, "IirMinDepth", 2..=12;

    // ---------------------------------------------------------------------------------
    // Pruning and reductions in the move loop (searcher.rs), never at the root or in check
    // ---------------------------------------------------------------------------------

    /// Futility: when `depth <= futility_max_depth` and `eval + futility_margin * depth
    /// <= alpha`, quiet moves that do not give check are skipped (not even generated).
    futility_margin: i32 = 130, "FutilityMargin", 0..=400;
    /// See `futility_margin`.
    futility_max_depth: i32 = 6, "FutilityMaxDepth", 0..=12;
    /// Pruning of a move by its own merits (quiet moves that give no check, at nodes whose
    /// quiet moves may be pruned), where `lmr_depth` is `depth - 1` less the move's base
    /// late move reduction (the formula of `lmr_min_moves` before its adjustments): a
    /// quiet move is skipped when `lmr_depth < history_prune_max_depth` and its
    /// continuation history (after the moves 1, 2 and 4 plies back) is below
    /// `-history_prune_margin * (depth - 1)`.
    history_prune_margin: i32 = 904, "HistoryPruneMargin", 0..=8000;
    /// See `history_prune_margin`.
    history_prune_max_depth: i32 = 8, "HistoryPruneMaxDepth", 0..=20;
    /// ... when `lmr_depth < futility_max_lmr_depth` and `eval + futility_base +
    /// futility_lmr_margin * lmr_depth + history / futility_history_divisor <= alpha`
    /// (`history` as late move reductions read it).
    futility_base: i32 = 104, "FutilityBase", 0..=1000;
    /// See `futility_base`.
    futility_lmr_margin: i32 = 120, "FutilityLmrMargin", 0..=1000;
    /// See `futility_base`.
    futility_history_divisor: i32 = 60, "FutilityHistoryDivisor", 10..=1000;
    /// See `futility_base`.
    futility_max_lmr_depth: i32 = 12, "FutilityMaxLmrDepth", 0..=20;
    /// ... or when its exchange loses more than `see_quiet_margin * lmr_depth² +
    /// see_quiet_linear * lmr_depth`.
    see_quiet_margin: i32 = 20, "SeeQuietMargin", 0..=200;
    /// See `see_quiet_margin`.
    see_quiet_linear: i32 = 36, "SeeQuietLinear", 0..=400;
    /// A capture that gives no check, off the principal variation, is skipped when
    /// `lmr_depth < capture_futility_max_depth` and `eval + capture_futility_margin +
    /// capture_futility_depth_margin * lmr_depth + victim + capture history / 6 < alpha`.
    capture_futility_margin: i32 = 143, "CaptureFutilityMargin", 0..=1000;
    /// See `capture_futility_margin`.
    capture_futility_depth_margin: i32 = 223, "CaptureFutilityDepthMargin", 0..=1000;
    /// See `capture_futility_margin`.
    capture_futility_max_depth: i32 = 9, "CaptureFutilityMaxDepth", 0..=20;
    /// Captures and checks whose exchange (`see::see`) loses more than
    /// `see_capture_margin * depth` are skipped (not at the root, and never the first
    /// move).
    see_capture_margin: i32 = 245, "SeeCaptureMargin", 0..=1000;

    /// Late move pruning: when `depth <= lmp_max_depth`, once
    /// `lmp_base + (depth * depth >> s)` quiet moves have been searched (`s = 0` if
    /// improving, else 1: halved), the rest of the quiet moves are skipped.
    lmp_base: usize = 4, "LmpBase", 0..=32;
    /// See `lmp_base`.
    lmp_max_depth: i32 = 6, "LmpMaxDepth", 0..=12;

    /// Late move reductions: the `m`-th move of a node (`m > lmr_min_moves`, one more at
    /// a principal-variation node of the first two plies) with `depth >= lmr_min_depth`
    /// is searched first with the null window at `clamp(new_depth - r, 1, new_depth + 1)`
    /// (a capture only when the node is not on a principal variation, or is an expected
    /// cut node after a late move). In 1/1024 plies, `t = L(depth) * L(m)`, where `L(i) =
    /// trunc(lmr_scale / 100 * ln i)`, and `r = (t + lmr_base - 1024 * window /
    /// root_window) / 1024 + (!improving && t > lmr_not_improving)`, then adjusted in
    /// plies by the node's kind (the constants `LMR_*` of `params.rs`), and `r -=
    /// (history - lmr_stat_offset) / lmr_history_divisor`, where `history` is twice the
    /// move's butterfly history plus its counter-move and follow-up histories (0 for a
    /// capture).
    lmr_min_moves: usize = 1, "LmrMinMoves", 1..=16;
    /// See `lmr_min_moves`.
    lmr_min_depth: i32 = 2, "LmrMinDepth", 2..=12;
    /// See `lmr_min_moves`: the factors' scale, in hundredths.
    lmr_scale: i32 = 2454, "LmrScale", 1000..=4000;
    /// See `lmr_min_moves`: the reduction's constant term, in 1/1024 plies.
    lmr_base: i32 = 1237, "LmrBase", 0..=3000;
    /// See `lmr_min_moves`: above this product of the factors a node that is not
    /// improving reduces one ply more.
    lmr_not_improving: i32 = 886, "LmrNotImproving", 0..=4000;
    /// See `lmr_min_moves`: the history that counts as neutral.
    lmr_stat_offset: i32 = 4000, "LmrStatOffset", 0..=20000;
    /// See `lmr_min_moves`: a history of this much (above the offset) takes one ply off
    /// the reduction.
    lmr_history_divisor: i32 = 7000, "LmrHistoryDivisor", 1000..=32000;
    /// See `lmr_min_moves`: at a node that is or was on a principal variation (and not
    /// likely to fail low) `r -= 1 + lmr_tt_pv / (5 + depth)`.
    lmr_tt_pv: i32 = 22, "LmrTtPv", 0..=60;
    /// See `lmr_min_moves`: at an expected cut node `r += lmr_cut_node_base + lmr_cut_node
    /// / (7 + depth)`.
    lmr_cut_node_base: i32 = 2, "LmrCutNodeBase", 0..=4;
    /// See `lmr_cut_node_base`.
    lmr_cut_node: i32 = 21, "LmrCutNode", 0..=60;
    /// See `lmr_min_moves`: at a principal-variation node `r -= 1 + lmr_pv / (2 + depth)`.
    lmr_pv: i32 = 17, "LmrPv", 0..=60;
    /// See `lmr_min_moves`: whether moves that give check are reduced (1) or not (0).
    lmr_checks: i32 = 1, "LmrChecks", 0..=1;
    /// See `lmr_min_moves`: how many plies a negative reduction may add to `new_depth`.
    lmr_max_extension: i32 = 1, "LmrMaxExtension", 0..=1;

    /// A move that gives check is searched a ply deeper when the node's depth is at least
    /// `check_extension_min_depth` (and the node less than two thirds of the deepest ply
    /// from the root).
    check_extension_min_depth: i32 = 0, "CheckExtensionMinDepth", 0..=20;

    // ---------------------------------------------------------------------------------
    // Quiescence search (searcher.rs)
    // ---------------------------------------------------------------------------------

    /// Delta pruning, out of check: only captures of pieces worth more than `alpha -
    /// stand_pat - delta_margin` are generated, and a capture is skipped when `stand_pat +
    /// victim + delta_margin <= alpha`.
    delta_margin: i32 = 200, "DeltaMargin", 0..=1000;
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference that tuners read, from the repository.
    const DOC: &str = include_str!("../../../docs/tuning-parameters.md");

    #[test]
    fn the_documented_search_parameters_are_the_knob_table() {
        // Rows of the search table: `| `Name` | default | min | max | what it does |`.
        let section = DOC
            .split("## Search parameters")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("a search parameters section");
        let documented: Vec<(String, i32, i32, i32)> = section
            .lines()
            .filter_map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
                let number = |i: usize| cells.get(i)?.parse::<i32>().ok();
                Some((name.to_owned(), number(2)?, number(3)?, number(4)?))
            })
            .collect();
        let declared: Vec<(String, i32, i32, i32)> = SEARCH_TUNABLES
            .iter()
            .map(|t| (t.name.to_owned(), t.default_value(), t.min, t.max))
            .collect();
        assert_eq!(documented, declared);
    }

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
