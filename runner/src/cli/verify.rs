//! `xq-runner verify --db URL ID [--json]`: replays every stored game of a run with the
//! rules judge and lists those whose recorded ending does not follow from their moves,
//! by worker. Exit 0 when every ending follows, 1 when some do not, 2 on bad input.

use clap::Args;

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
        let result = match Db::open(&target).await {
            Ok(db) => verify(&db, args.id).await,
            Err(e) => Err(e.to_string()),
        };
        match result {
            Ok(verified) => {
                if args.json {
                    crate::stdout::line(format_args!(
                        "{}",
                        serde_json::to_string_pretty(&verified).unwrap_or_default()
                    ));
                } else {
                    crate::stdout::line(verified.to_text().trim_end());
                }
                if verified.findings.is_empty() {
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
