//! `purge`: the owner removes a worker's games from a match run, as fishtest purges a
//! bad worker's tasks. The server does it in one transaction (`xq.purge_workers`): the
//! games go, their batches are handed out again (the same pairs, so the schedule is
//! kept and no pair counts twice), the counts are made again from what is left and the
//! run's end judged again. `--auto` takes the workers fishtest's auto-purge marks.

use thiserror::Error;

use super::fit::fit;
use crate::output::printable::printable;
use crate::store::pg::workers::{Purged, EVERY_PAIR};
use crate::store::pg::{Db, DbError};

/// Whose games go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// One worker, by name.
    Worker(String),
    /// The workers whose pairs do not fit the rest (fishtest's bad workers).
    Auto,
}

/// Why nothing could be purged.
#[derive(Debug, Error)]
pub enum PurgeError {
    #[error("run {0} is a tune: its results moved theta, which a purge cannot undo")]
    Tune(i64),
    #[error("run {0} was cancelled")]
    Cancelled(i64),
    /// A name that never worked on the run: a typing error, not a worker to purge.
    #[error("no worker named {name} ever worked on run {run}")]
    UnknownWorker { run: i64, name: String },
    #[error("{0}")]
    Db(#[from] DbError),
}

/// What a purge did.
#[derive(Clone, Debug, PartialEq)]
pub struct PurgeReport {
    pub run: i64,
    /// The workers chosen (by name, or by the auto-purge rule).
    pub chosen: Vec<String>,
    /// What was removed of each worker that had games there.
    pub purged: Vec<Purged>,
    /// The run's state and status after the purge, and before it.
    pub state: String,
    pub status: String,
    pub state_before: String,
    pub status_before: String,
}

/// Purges run `id` as `choice` says.
///
/// # Errors
/// [`PurgeError`]: no such run, a tune, a cancelled run, the database (a role other
/// than the owner is denied).
pub async fn purge(db: &Db, id: i64, choice: &Choice) -> Result<PurgeReport, PurgeError> {
    let before = db.run(id).await?;
    if before.is_tune() {
        return Err(PurgeError::Tune(id));
    }
    if before.state == "cancelled" {
        return Err(PurgeError::Cancelled(id));
    }
    let chosen = match choice {
        Choice::Worker(name) => {
            if !db.worker_known(id, name).await? {
                return Err(PurgeError::UnknownWorker {
                    run: id,
                    name: printable(name).into_owned(),
                });
            }
            vec![name.clone()]
        }
        Choice::Auto => {
            let results = db.worker_results(id, EVERY_PAIR).await?;
            fit(&results).0.map(|run| run.bad).unwrap_or_default()
        }
    };
    let purged = if chosen.is_empty() {
        Vec::new()
    } else {
        db.purge_workers(id, &chosen).await?
    };
    let after = db.run(id).await?;
    Ok(PurgeReport {
        run: id,
        chosen,
        purged,
        state: after.state,
        status: after.status,
        state_before: before.state,
        status_before: before.status,
    })
}

impl PurgeReport {
    /// What was purged, as text (workers' names escaped).
    #[must_use]
    pub fn to_text(&self, choice: &Choice) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        if self.purged.is_empty() {
            let _ = match (choice, self.chosen.first()) {
                (Choice::Auto, None) => writeln!(
                    out,
                    "nothing purged: every worker of run {} fits the rest",
                    self.run
                ),
                _ => writeln!(
                    out,
                    "nothing purged: {} has no games in run {}",
                    self.chosen
                        .iter()
                        .map(|c| printable(c).into_owned())
                        .collect::<Vec<_>>()
                        .join(", "),
                    self.run
                ),
            };
            return out;
        }
        for p in &self.purged {
            let released = match p.released {
                0 => String::new(),
                1 => "; the batch it held is released".to_owned(),
                n => format!("; the {n} batches it held are released"),
            };
            if p.batches == 0 {
                let _ = writeln!(
                    out,
                    "released {}'s {} of run {} (none of its games was stored): their pairs are handed out again",
                    printable(&p.worker),
                    match p.released {
                        1 => "batch".to_owned(),
                        n => format!("{n} batches"),
                    },
                    self.run
                );
                continue;
            }
            let _ = writeln!(
                out,
                "purged {} from run {}: {} batches, {} pairs, {} games; their pairs are handed out again{released}",
                printable(&p.worker),
                self.run,
                p.batches,
                p.pairs,
                p.games
            );
        }
        let now = if self.state == self.status {
            self.state.clone()
        } else {
            format!("{} ({})", self.state, printable(&self.status))
        };
        let was = if self.state_before == self.status_before {
            self.state_before.clone()
        } else {
            format!("{} ({})", self.state_before, printable(&self.status_before))
        };
        let _ = writeln!(out, "run {}: {now}, was {was}", self.run);
        out
    }
}
