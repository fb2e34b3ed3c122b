//! Storing a run: the config validated exactly as `run` validates it, the opening file
//! read whole and fingerprinted, the engines' bench signatures (when the config gives
//! them) recorded for the workers to check, and what the server judges the run by (the
//! engines, pairings, SPRT, gate and fault limits, the endings the config can produce,
//! and where each pair's games start) recorded for the server.

use std::collections::BTreeMap;

use super::uploads::{uploads, UploadPolicy};
use crate::config::{Loaded, TournamentKind};
use crate::local_run::tournament::{load_openings, openings_input};
use crate::store::pg::game_rules::RunStarts;
use crate::store::pg::runs::{NewRun, RunJudge};

/// Pairs per batch when the submit does not say: small enough that an SPRT stops soon
/// after its verdict and a lost worker costs little, large enough that the database's
/// cost per game stays small.
pub const DEFAULT_BATCH_PAIRS: u32 = 4;

/// The run to store for a loaded config.
///
/// # Errors
/// One line: a bad opening file, a file that cannot be stored.
pub fn new_run(loaded: &Loaded, batch_pairs: u32, policy: UploadPolicy) -> Result<NewRun, String> {
    let plan = &loaded.plan;
    let book = load_openings(plan).map_err(|e| e.to_string())?;
    let starts = RunStarts::of(plan, book.as_ref())?;
    let openings = openings_input(loaded).map_err(|e| e.to_string())?;
    let names: Vec<&str> = plan.engines.iter().map(|e| e.spec.name.as_str()).collect();
    let title = match plan.kind {
        TournamentKind::Match => names.join(" vs "),
        kind => format!("{} of {}", kind.name(), names.join(", ")),
    };
    let bench: BTreeMap<String, u64> = plan
        .engines
        .iter()
        .filter_map(|e| Some((e.spec.name.clone(), e.bench?)))
        .collect();
    Ok(NewRun {
        title,
        // `submit --submitter` replaces it.
        submitter: super::submitter::this_machine(),
        config: loaded.text.clone(),
        config_hash: loaded.hash.clone(),
        openings_fingerprint: openings.map(|o| o.fingerprint),
        bench,
        total_pairs: plan.pairs * plan.pairings.len() as u64,
        batch_pairs: batch_pairs.max(1),
        judge: Some(RunJudge::of(plan)),
        starts: Some(starts),
        commits: BTreeMap::new(),
        uploads: uploads(
            plan.engines.iter().enumerate(),
            plan.openings.as_ref().map(|o| o.path.as_path()),
            policy,
        )?,
    })
}
