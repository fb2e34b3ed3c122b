//! The search parameters and evaluation weights as spin options, for tuners.
//!
//! They are announced only by `xq-engine --tune` (the handshake of `xq-engine` is the
//! one ordinary GUIs know), and `setoption` sets them in both cases. UCI names are
//! Stockfish style (`FutilityMargin`); UCCI names are the same lowercased
//! (`futilitymargin`), like the engine's other UCCI options. Names match in any case.

use super::command::Dialect;
use crate::eval::{TermWeights, TERM_TUNABLES};
use crate::search::{SearchParams, SEARCH_TUNABLES};
use crate::tunable::{Tunable, TuneError};

/// Which options the handshake announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Handshake {
    /// The standard options only (`xq-engine`).
    #[default]
    Standard,
    /// The standard options and every tunable parameter (`xq-engine --tune`).
    WithTunables,
}

/// One tunable option, whichever settings it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TuneOption {
    /// The UCI name.
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
    pub default: i32,
}

impl TuneOption {
    fn of<T: Default>(t: &Tunable<T>) -> TuneOption {
        TuneOption {
            name: t.name,
            min: t.min,
            max: t.max,
            default: t.default_value(),
        }
    }

    /// The `option` line of the handshake in a dialect.
    #[must_use]
    pub fn announcement(&self, dialect: Dialect) -> String {
        let (min, max, default) = (self.min, self.max, self.default);
        match dialect {
            Dialect::Ucci => format!(
                "option {} type spin min {min} max {max} default {default}",
                self.name.to_ascii_lowercase()
            ),
            Dialect::Uci => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
        }
    }
}

/// Every tunable option: the search parameters, then the evaluation's term weights.
#[must_use]
pub fn tune_options() -> Vec<TuneOption> {
    SEARCH_TUNABLES
        .iter()
        .map(TuneOption::of)
        .chain(TERM_TUNABLES.iter().map(|t| TuneOption::of(&t.option)))
        .collect()
}

/// Sets the tunable called `name` (in any case) from `value`, in the search parameters
/// or the term weights. `None`: no tunable has that name. On an error nothing changes.
pub fn set_tunable(
    params: &mut SearchParams,
    weights: &mut TermWeights,
    name: &str,
    value: Option<&str>,
) -> Option<Result<(), TuneError>> {
    if let Some(t) = SEARCH_TUNABLES.iter().find(|t| t.is_named(name)) {
        return Some(t.apply(params, value));
    }
    let t = TERM_TUNABLES.iter().find(|t| t.option.is_named(name))?;
    Some(t.option.apply(weights, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_in_either_dialect_and_lines_carry_the_bounds() {
        let options = tune_options();
        assert_eq!(options.len(), SEARCH_TUNABLES.len() + TERM_TUNABLES.len());
        for (i, o) in options.iter().enumerate() {
            let lower = o.name.to_ascii_lowercase();
            assert!(options[..i]
                .iter()
                .all(|p| p.name.to_ascii_lowercase() != lower));
            // Not one of the standard options.
            assert!(!["hashsize", "hash", "evallevel", "usemillisec", "ponder"]
                .contains(&lower.as_str()));
        }
        let futility = options
            .iter()
            .find(|o| o.name == "FutilityMargin")
            .expect("FutilityMargin");
        assert_eq!(
            futility.announcement(Dialect::Ucci),
            "option futilitymargin type spin min 0 max 400 default 130"
        );
        assert_eq!(
            futility.announcement(Dialect::Uci),
            "option name FutilityMargin type spin default 130 min 0 max 400"
        );
    }

    #[test]
    fn setting_writes_one_value_or_nothing() {
        let (mut params, mut weights) = (SearchParams::default(), TermWeights::default());
        let mut set =
            |name: &str, value: Option<&str>| set_tunable(&mut params, &mut weights, name, value);
        assert_eq!(set("futilitymargin", Some("90")), Some(Ok(())));
        assert_eq!(set("EvalMobility", Some("150")), Some(Ok(())));
        assert!(matches!(set("rfpmargin", Some("401")), Some(Err(_))));
        assert!(matches!(set("rfpmargin", Some("ten")), Some(Err(_))));
        assert!(matches!(set("rfpmargin", None), Some(Err(_))));
        assert_eq!(set("nosuchthing", Some("1")), None);
        assert_eq!(params.futility_margin, 90);
        assert_eq!(params.rfp_margin, SearchParams::default().rfp_margin);
        assert_eq!(weights.get(crate::eval::Term::Mobility), 150);
    }
}
