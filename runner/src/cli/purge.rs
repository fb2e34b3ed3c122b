//! `xq-runner purge --db URL RUN (--worker NAME | --auto)`: removes a worker's games
//! from a match run and hands their pairs out again (as the database's owner), and
//! gives back the batches it holds. Exit 0 when games were purged or batches released,
//! 1 when nothing matched (a worker of the run with nothing left of it, or `--auto`
//! found every worker fitting: nothing to do, as `verify` finding nothing wrong is not
//! 0 by mistake), 2 on bad input (no such run, a name that never worked on it, a tune, a
//! cancelled run, a role that may not purge).

use clap::Args;

use super::exit;
use crate::fleet::purge::{purge, Choice, PurgeError};
use crate::fleet::roles::{explain, Role};
use crate::store::pg::Db;

/// Arguments of `purge`.
#[derive(Debug, Args)]
pub struct PurgeArgs {
    /// The run.
    pub id: i64,
    /// The database (as its owner); else XQ_DB, else the PG* variables.
    #[arg(long)]
    pub db: Option<String>,
    /// The worker whose games go.
    #[arg(long, conflicts_with = "auto", required_unless_present = "auto")]
    pub worker: Option<String>,
    /// The workers whose pairs do not fit the rest (fishtest's auto-purge: the run's
    /// p-value below 0.001 or a residual above 7; see `status`).
    #[arg(long)]
    pub auto: bool,
}

/// Runs `purge`.
#[must_use]
pub fn run(args: &PurgeArgs) -> u8 {
    let choice = match &args.worker {
        Some(name) => Choice::Worker(name.clone()),
        None => Choice::Auto,
    };
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let result = match Db::open(&target).await {
            Ok(db) => purge(&db, args.id, &choice).await.map_err(|e| match e {
                PurgeError::Db(e) => explain(&e, &target, "purge games", Role::Owner),
                other => other.to_string(),
            }),
            Err(e) => Err(e.to_string()),
        };
        match result {
            Ok(report) => {
                crate::stdout::line(report.to_text(&choice).trim_end());
                if report.purged.is_empty() {
                    exit::H0
                } else {
                    exit::OK
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        }
    })
}
