//! `xq-runner status --db URL [ID] [--json]`: the runs, or one run's state.

use clap::Args;

use crate::exit;
use crate::fleet::status::{list_header, list_line, state_of};
use crate::store::pg::Db;

/// Arguments of `status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The run; every run when left out.
    pub id: Option<i64>,
    /// The database; else XQ_DB, else the PG* variables.
    #[arg(long)]
    pub db: Option<String>,
    /// One JSON object (with an id) or a JSON array of runs.
    #[arg(long)]
    pub json: bool,
}

async fn show(args: &StatusArgs, db: &Db) -> Result<(), String> {
    let Some(id) = args.id else {
        let runs = db.runs(false).await.map_err(|e| e.to_string())?;
        if args.json {
            let list: Vec<serde_json::Value> = runs
                .iter()
                .map(|r| {
                    serde_json::json!({"id": r.id, "title": r.title, "state": r.state,
                        "status": r.status, "pairs": r.pairs_done, "pairs_total": r.total_pairs})
                })
                .collect();
            crate::stdout::line(serde_json::Value::Array(list));
        } else if runs.is_empty() {
            crate::stdout::line(format_args!("no runs"));
        } else {
            crate::stdout::line(list_header());
            for run in &runs {
                crate::stdout::line(list_line(run));
            }
        }
        return Ok(());
    };
    let run = db.run(id).await.map_err(|e| e.to_string())?;
    let state = state_of(db, &run).await.map_err(|e| e.to_string())?;
    if args.json {
        crate::stdout::line(format_args!(
            "{}",
            serde_json::to_string_pretty(&state).map_err(|e| e.to_string())?
        ));
    } else {
        crate::stdout::line(state.to_text().trim_end());
    }
    Ok(())
}

/// Runs `status`.
#[must_use]
pub fn run(args: &StatusArgs) -> u8 {
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let result = match Db::open(&target).await {
            Ok(db) => show(args, &db).await,
            Err(e) => Err(e.to_string()),
        };
        match result {
            Ok(()) => exit::OK,
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        }
    })
}
