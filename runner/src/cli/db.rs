//! `xq-runner db init --db URL [--worker-role ROLE] [--reader-role ROLE]`: creates the
//! schema (as the role that will own it, the one that submits and cancels) and gives a
//! worker role what it needs, and a reader role (`serve`'s) what the pages read.

use clap::{Args, Subcommand};

use crate::exit;
use crate::store::pg::role_limits::{RoleLimits, ROLE_TIMEOUTS};
use crate::store::pg::schema::Init;
use crate::store::pg::Db;

/// Arguments of `db`.
#[derive(Debug, Args)]
pub struct DbArgs {
    #[command(subcommand)]
    pub command: DbCommand,
}

/// The `db` subcommands.
#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Create the schema if it is missing (checking its version if not), and grant a
    /// worker role what workers need.
    Init {
        /// The database; else XQ_DB, else the PG* variables.
        #[arg(long)]
        db: Option<String>,
        /// A role (created beforehand by the database's administrator) that workers
        /// connect as: it may read runs and claim, renew and submit batches, nothing else.
        #[arg(long)]
        worker_role: Option<String>,
        /// A role (created beforehand) that `serve` connects as: it may read the runs,
        /// their games and the workers, nothing else.
        #[arg(long)]
        reader_role: Option<String>,
    },
}

/// Sets the timeouts of `role`'s sessions, or says what its administrator must run.
async fn limit(db: &Db, role: &str) -> Result<(), crate::store::pg::DbError> {
    let timeouts = ROLE_TIMEOUTS
        .iter()
        .map(|(name, value)| format!("{name} {value}"))
        .collect::<Vec<_>>()
        .join(", ");
    match db.limit_role(role).await? {
        RoleLimits::Set => {
            crate::stdout::line(format_args!("set role {role}'s timeouts: {timeouts}"));
        }
        RoleLimits::NotAllowed { sql } => eprintln!(
            "note: role {role}'s timeouts ({timeouts}) are not set: only a superuser or a role with CREATEROLE may; as one, run: {sql}"
        ),
    }
    Ok(())
}

/// Runs `db`.
#[must_use]
pub fn run(args: &DbArgs) -> u8 {
    let DbCommand::Init {
        db,
        worker_role,
        reader_role,
    } = &args.command;
    let (target, runtime) = match super::database(db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let result = async {
            let mut db = Db::connect(&target).await?;
            let done = db.init().await?;
            let what = match done {
                Init::Created => "created the xq-runner schema in".to_owned(),
                Init::Upgraded { from } => format!(
                    "upgraded the xq-runner schema from version {from} to {} in",
                    crate::store::pg::schema::VERSION
                ),
                Init::UpToDate => "the xq-runner schema is up to date in".to_owned(),
            };
            crate::stdout::line(format_args!("{what} {}", target.describe()));
            if let Some(role) = worker_role {
                db.grant_worker(role).await?;
                crate::stdout::line(format_args!("granted role {role} what workers need"));
                limit(&db, role).await?;
            }
            if let Some(role) = reader_role {
                db.grant_reader(role).await?;
                crate::stdout::line(format_args!(
                    "granted role {role} what the pages of `serve` read"
                ));
                limit(&db, role).await?;
            }
            Ok::<(), crate::store::pg::DbError>(())
        }
        .await;
        match result {
            Ok(()) => exit::OK,
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        }
    })
}
