//! Stage two of the config: every value checked and resolved into a [`Plan`] that is
//! ready to run, one small validator per section. Each problem is a [`Problem`] naming
//! the key; `config/mod.rs` adds file and line. The sections are checked in the order
//! below, so the first problem of a config is always the same one.

mod adjudication;
mod choice;
pub(crate) mod defaults;
mod engines;
mod faults;
mod openings;
mod output;
mod rules;
mod sprt;
mod time;
mod tournament;

use std::time::Duration;

use super::plan::{Plan, Problem};
use super::raw::RawConfig;
use crate::game::{parse_duration, GameSettings};

fn problem(key: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        key: key.into(),
        message: message.into(),
    }
}

/// The duration of a key, or its default.
fn duration(key: &str, value: Option<&String>, default: Duration) -> Result<Duration, Problem> {
    match value {
        None => Ok(default),
        Some(text) => parse_duration(text).map_err(|e| problem(key, e.to_string())),
    }
}

/// Whether a config's files are looked for on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Files {
    /// A config about to be played here: its programs and files must be here.
    OnDisk,
    /// A stored run read elsewhere (`status`, `verify` on any machine): the paths are
    /// taken as written.
    AsWritten,
}

/// How many `[[engine]]` tables a config lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineCount {
    /// As its tournament kind plays: two for a match, two or more for the others.
    ForKind,
    /// One, played against itself with other settings (a tune); the workload counts them
    /// itself, to say why in its own words.
    OneAgainstItself,
}

/// Validates a raw config. `default_dir` names the output folder when the config has none.
///
/// # Errors
/// The first [`Problem`] found.
pub fn validate(
    raw: &RawConfig,
    default_dir: &str,
    files: Files,
    count: EngineCount,
) -> Result<Plan, Problem> {
    let kind = tournament::kind(&raw.tournament)?;
    // Cheap checks first: a list of 10,000 engines is refused before any is looked at.
    tournament::size(kind, raw.engines.len())?;
    let global_time = time::control("time", &raw.time)?;
    let global_cap = time::depth_cap(&raw.time);
    let engines = engines::engines(kind, &raw.engines, (global_time, global_cap), files, count)?;
    let pairings = kind.pairings(engines.len());
    let sprt = sprt::sprt(kind, raw.sprt.as_ref())?;
    let section = tournament::tournament_section(&raw.tournament, sprt.is_some())?;
    let openings = openings::openings(raw.openings.as_ref(), section.seed, files)?;
    let rules = rules::rules(&raw.rules)?;
    let time_margin = time::margin(&raw.time)?;
    let margin_mode = time::margin_mode(&raw.time)?;
    adjudication::check(&raw.adjudication)?;
    let settings = GameSettings {
        rules,
        time_margin,
        margin_mode,
        banmoves: raw.rules.banmoves.unwrap_or(defaults::BANMOVES),
        draw: raw.adjudication.draw,
        resign: raw.adjudication.resign,
        max_plies: raw.adjudication.max_plies,
    };
    let output = output::output(&raw.output, default_dir)?;
    let timeouts = faults::timeouts(&raw.faults)?;
    let faults = faults::limits(&raw.faults);
    Ok(Plan {
        kind,
        engines,
        pairings,
        pairs: section.pairs,
        concurrency: section.concurrency,
        affinity: section.affinity,
        seed: section.seed,
        event: section.event,
        description: section.description,
        openings,
        settings,
        sprt,
        gate_min_elo: raw.sprt.as_ref().and_then(|s| s.min_elo),
        output,
        faults,
        timeouts,
    })
}
