//! `xq-runner submit <tune.toml> --db URL [--params FILE] [--set ...]`: a tune config
//! checked as `tune` checks it before playing (the config, the opening file, the
//! engine's options), stored with its SPSA state, its id alone on the last line.

use super::submit::{describe, init, SubmitArgs};
use crate::exit;
use crate::fleet::tune_run::new_run;
use crate::store::pg::Db;

/// Runs `submit` for a tune config.
#[must_use]
pub fn run(args: &SubmitArgs) -> u8 {
    let mut tune = match crate::tune::load(&args.config, &args.set, args.params.as_deref()) {
        Ok(tune) => tune,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    if args.dry_run {
        let Some(runtime) = super::async_runtime() else {
            return exit::ABORTED;
        };
        return match runtime.block_on(new_run(&mut tune, args.batch_pairs, args.uploads())) {
            Ok((new, _)) => {
                crate::stdout::line(describe(&new, "iterations of one pair"));
                exit::OK
            }
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        };
    }
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let stored = async {
            let (mut new, state) = new_run(&mut tune, args.batch_pairs, args.uploads()).await?;
            args.sign(&mut new);
            let mut db = Db::connect(&target).await.map_err(|e| e.to_string())?;
            init(&mut db).await?;
            let id = db.submit_tune(&new, &state).await.map_err(|e| {
                crate::fleet::roles::explain(
                    &e,
                    db.target(),
                    "submit runs",
                    crate::fleet::roles::Role::Owner,
                )
            })?;
            Ok::<_, String>((id, new))
        }
        .await;
        match stored {
            Ok((id, new)) => {
                eprintln!(
                    "submitted run {id}: {}, {} iterations of one pair",
                    new.title, new.total_pairs
                );
                crate::stdout::line(id);
                exit::OK
            }
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        }
    })
}
