//! `xq-runner cancel --db URL ID`: closes a run; workers drop its batches.

use clap::Args;

use crate::exit;
use crate::fleet::roles::{explain, Role};
use crate::store::pg::Db;

/// Arguments of `cancel`.
#[derive(Debug, Args)]
pub struct CancelArgs {
    pub id: i64,
    /// The database; else XQ_DB, else the PG* variables.
    #[arg(long)]
    pub db: Option<String>,
}

/// Runs `cancel`.
#[must_use]
pub fn run(args: &CancelArgs) -> u8 {
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let result = match Db::open(&target).await {
            Ok(db) => db.cancel(args.id).await,
            Err(e) => Err(e),
        };
        match result {
            Ok(()) => {
                crate::stdout::line(format_args!("run {} cancelled", args.id));
                exit::OK
            }
            Err(e) => {
                eprintln!(
                    "error: {}",
                    explain(&e, &target, "cancel runs", Role::Owner)
                );
                exit::USAGE
            }
        }
    })
}
