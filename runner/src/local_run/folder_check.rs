//! The check of a run folder's journal that `resume` makes, for `report DIR`, which only
//! reads the folder: every line must be one of the run's games (in the run, on the
//! engines and the opening the schedule gives its pair, recorded once). A report of a
//! folder whose journal was edited by hand or mixed with another run's would otherwise
//! count what `resume` refuses, and say PASS. The report refuses such a folder alike,
//! with resume's line (exit 2), so that the folder is mended first (docs/configuration.md).

use std::path::Path;

use super::tournament::{load_openings, openings_input, played_so_far, RunError};
use crate::config::{parse_stored, Loaded};
use crate::store::belongs::Openings;
use crate::store::meta::RunMeta;

/// Why the journal could not be checked, though the report may still be written.
#[derive(Debug)]
pub struct Unchecked(pub String);

/// Checks that every line of the journal in `dir` is one of the run's games, as a resume
/// of the folder would (the openings too when the run's opening file is here, as it
/// was). `Ok(Some(_))` says why the lines could not be checked: a config that no
/// longer reads here (an older version's keys), which a report is still written for.
///
/// # Errors
/// [`RunError::Journal`] naming the first line that is not the run's, or the journal's
/// read error; [`RunError::OutputDir`] for a `run.json` that does not read.
pub fn journal_fits(dir: &Path) -> Result<Option<Unchecked>, RunError> {
    let meta = RunMeta::read(dir).map_err(|e| RunError::OutputDir(e.into()))?;
    let name = dir.join("run.json").display().to_string();
    let mut loaded: Loaded = match parse_stored(&name, &meta.config) {
        Ok(loaded) => loaded,
        Err(e) => {
            return Ok(Some(Unchecked(format!(
                "the journal's lines are not checked against the run: {e}"
            ))))
        }
    };
    loaded.plan.output.dir = dir.to_owned();
    let schedule = same_openings(&loaded, &meta)
        .then(|| load_openings(&loaded.plan).ok().flatten())
        .flatten()
        .map(|(_, schedule)| schedule);
    let openings = match (&schedule, openings_input(&loaded)) {
        (Some(schedule), _) => Openings::Schedule(schedule),
        (None, Ok(None)) => Openings::StartPosition,
        (None, _) => Openings::Unknown,
    };
    played_so_far(&loaded.plan, meta.shard, openings)?;
    Ok(None)
}

/// Whether the run's opening file is here as the run played it (its fingerprint).
fn same_openings(loaded: &Loaded, meta: &RunMeta) -> bool {
    match (openings_input(loaded), &meta.openings) {
        (Ok(Some(now)), Some(was)) => now.fingerprint == was.fingerprint,
        _ => false,
    }
}
