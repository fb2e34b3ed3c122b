//! `[adjudication]`: the draw and resign rules and the ply limit, checked (the game
//! settings take them as they are).

use super::problem;
use crate::config::plan::Problem;
use crate::config::raw::RawAdjudication;

/// Refuses rules that would end games at once or never.
pub(super) fn check(raw: &RawAdjudication) -> Result<(), Problem> {
    if let Some(d) = raw.draw {
        if d.move_count == 0 || d.score < 0 {
            return Err(problem(
                "adjudication.draw",
                "move_count must be at least 1 and score at least 0",
            ));
        }
    }
    if let Some(r) = raw.resign {
        if r.move_count == 0 || r.score <= 0 {
            return Err(problem(
                "adjudication.resign",
                "move_count and score must be positive",
            ));
        }
    }
    if raw.max_plies == Some(0) {
        return Err(problem(
            "adjudication.max_plies",
            "0 would end every game before its first move: at least 1 (leave it out for no limit)",
        ));
    }
    Ok(())
}
