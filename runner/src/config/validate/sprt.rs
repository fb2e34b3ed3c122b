//! `[sprt]`: the test's design, for a match only, and the gate's Elo.

use super::choice::choice;
use super::{defaults, problem};
use crate::config::plan::{Problem, TournamentKind};
use crate::config::raw::RawSprt;
use crate::stats::{EloModel, Sprt};

/// The SPRT of a run with an `[sprt]` section.
pub(super) fn sprt(kind: TournamentKind, raw: Option<&RawSprt>) -> Result<Option<Sprt>, Problem> {
    let Some(s) = raw else {
        return Ok(None);
    };
    let model = choice(
        "sprt.model",
        s.model.as_deref(),
        defaults::SPRT.model,
        &[
            ("normalized", EloModel::Normalized),
            ("logistic", EloModel::Logistic),
        ],
        "normalized or logistic",
    )?;
    let d = defaults::SPRT;
    let sprt = Sprt::new(
        s.elo0.unwrap_or(d.elo0),
        s.elo1.unwrap_or(d.elo1),
        s.alpha.unwrap_or(d.alpha),
        s.beta.unwrap_or(d.beta),
        model,
    )
    .map_err(|e| problem("sprt", e.to_string()))?;
    if kind != TournamentKind::Match {
        return Err(problem("sprt", "SPRT needs a match of two engines"));
    }
    if let Some(min) = s.min_elo.filter(|m| !m.is_finite()) {
        return Err(problem(
            "sprt.min_elo",
            format!("`{min}`: expected a finite Elo"),
        ));
    }
    Ok(Some(sprt))
}
