//! `xq-runner verify --db URL ID [--json]`: replays every stored game of a run with the
//! rules judge and lists those whose recorded ending does not follow from their moves,
//! by worker. Exit 0 when every ending follows, 1 when some do not, 2 on bad input.

use clap::Args;
use thiserror::Error;

use crate::exit;
use crate::fleet::verify::verify;
use crate::store::pg::Db;

/// Arguments of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The run.
    pub id: i64,
    /// The database; else XQ_DB, else the PG* variables.
    #[arg(long)]
    pub db: Option<String>,
    /// One JSON object: the findings and the games of each worker.
    #[arg(long)]
    pub json: bool,
}

/// Runs `verify`.
#[must_use]
pub fn run(args: &VerifyArgs) -> u8 {
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let shown = match Db::open(&target).await {
            Ok(db) => verify(&db, args.id).await.map_err(VerifyError::Db),
            Err(e) => Err(VerifyError::Db(e.to_string())),
        }
        .and_then(|verified| {
            let text = if args.json {
                serde_json::to_string_pretty(&verified)?
            } else {
                verified.to_text().trim_end().to_owned()
            };
            Ok((text, verified.findings.is_empty()))
        });
        match shown {
            Ok((text, all_follow)) => {
                crate::stdout::line(text);
                if all_follow {
                    exit::OK
                } else {
                    exit::H0
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        }
    })
}

/// Why `verify` gives no answer.
#[derive(Debug, Error)]
enum VerifyError {
    /// The database cannot be reached, or holds no such run.
    #[error("{0}")]
    Db(String),
    /// The findings cannot be written as JSON (never printed empty instead).
    #[error("cannot write the findings as JSON: {0}")]
    Json(#[from] serde_json::Error),
}
