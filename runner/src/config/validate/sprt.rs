//! `[sprt]`: the test's design, for a match only, and the gate's Elo.

use super::choice::choice;
use super::{defaults, problem};
use crate::config::plan::{Problem, TournamentKind};
use crate::config::raw::RawSprt;
use crate::stats::{EloModel, Sprt, SprtError};

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
    .map_err(|e| {
        // The key at fault, so that the error names it (and the flag that set it).
        let key = match e {
            SprtError::Alpha(_) => "sprt.alpha",
            SprtError::Beta(_) => "sprt.beta",
            SprtError::Bounds { elo0, .. } if !elo0.is_finite() => "sprt.elo0",
            SprtError::Bounds { elo1, .. } if !elo1.is_finite() => "sprt.elo1",
            _ => "sprt",
        };
        problem(key, e.to_string())
    })?;
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
