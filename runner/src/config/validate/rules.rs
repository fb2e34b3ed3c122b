//! `[rules]`: the ruleset, the move limit and how its plies are counted.

use xq_core::rules::{LimitCounting, Rules, Ruleset};

use super::{defaults, problem};
use crate::config::plan::Problem;
use crate::config::raw::RawRules;

/// A setting of the judge given by name at `key`, looked up with `from_name` (whose
/// error lists the names it knows), or `default`.
fn named<T, E: std::fmt::Display>(
    key: &str,
    name: Option<&str>,
    from_name: fn(&str) -> Result<T, E>,
    default: T,
) -> Result<T, Problem> {
    name.map_or(Ok(default), |name| {
        from_name(name).map_err(|e| problem(key, e.to_string()))
    })
}

/// The judge's rules (`rules.banmoves` is the game's, read with the other settings).
pub(super) fn rules(raw: &RawRules) -> Result<Rules, Problem> {
    let ruleset = named(
        "rules.ruleset",
        raw.ruleset.as_deref(),
        Ruleset::from_name,
        defaults::RULESET,
    )?;
    let counting = named(
        "rules.limit_counting",
        raw.limit_counting.as_deref(),
        LimitCounting::from_name,
        defaults::LIMIT_COUNTING,
    )?;
    Ok(Rules::new(ruleset)
        .with_move_limit(raw.move_limit.unwrap_or(defaults::MOVE_LIMIT))
        .with_limit_counting(counting))
}
