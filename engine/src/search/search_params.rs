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

    /// Reverse futility (static null move): return `eval` when `depth <= rfp_max_depth`
    /// and `eval - rfp_margin * depth >= beta` (and `beta` is not a mate score).
    rfp_margin: i32 = 110, "RfpMargin", 0..=400;
    /// See `rfp_margin`.
    rfp_max_depth: i32 = 6, "RfpMaxDepth", 0..=12;

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
    /// Losing captures (by the ordering's test) that give no check are skipped when
    /// `depth <= bad_capture_max_depth` and `eval + futility_margin * depth <= alpha`.
    bad_capture_max_depth: i32 = 3, "BadCaptureMaxDepth", 0..=12;

    /// Late move pruning: when `depth <= lmp_max_depth`, once
    /// `lmp_base + (depth * depth >> s)` quiet moves have been searched (`s = 0` if
    /// improving, else 1: halved), the rest of the quiet moves are skipped.
    lmp_base: usize = 4, "LmpBase", 0..=32;
    /// See `lmp_base`.
    lmp_max_depth: i32 = 6, "LmpMaxDepth", 0..=12;

    /// Late move reductions: a quiet move, not a check, at a node not in check, with
    /// `depth >= lmr_min_depth` and at least `lmr_min_moves` moves searched before it, is
    /// searched first with the null window at `new_depth - r`, `r = LMR[depth][searched] -
    /// pv_node + !improving - killer - history / lmr_history_divisor` clamped to `[0,
    /// new_depth - 1]`, where `LMR[d][m] = trunc(clamp(lmr_base / 100 + ln d * ln m /
    /// (lmr_divisor / 100), 0, LMR_TABLE_MAX))` and `history` is the move's butterfly,
    /// counter-move and follow-up history summed, as the move ordering reads it.
    lmr_min_moves: usize = 3, "LmrMinMoves", 1..=16;
    /// See `lmr_min_moves`.
    lmr_min_depth: i32 = 3, "LmrMinDepth", 2..=12;
    /// See `lmr_min_moves`: the table's constant term, in hundredths of a ply.
    lmr_base: i32 = 75, "LmrBase", 0..=300;
    /// See `lmr_min_moves`: the table's divisor of `ln d * ln m`, in hundredths.
    lmr_divisor: i32 = 225, "LmrDivisor", 100..=600;
    /// See `lmr_min_moves`: a history of this much takes one ply off the reduction.
    lmr_history_divisor: i32 = 6000, "LmrHistoryDivisor", 1000..=32000;

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
