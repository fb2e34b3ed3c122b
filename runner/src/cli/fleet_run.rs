//! `xq-runner run <config> --db URL`: one command for a user who starts workers elsewhere
//! too: submit the run, work on it here, wait for its end, write the outputs into the
//! config's output folder as a local run does.

use std::time::Duration;

use crate::config::Loaded;
use crate::exit;
use crate::fleet::submit::{new_run, DEFAULT_BATCH_PAIRS};
use crate::fleet::uploads::UploadPolicy;
use crate::fleet::worker::{work, WorkerOptions};
use crate::store::folder::{RunFolder, Workload};
use crate::store::pg::{resolve, Db};

/// Submits, works, waits and reports.
#[must_use]
pub fn run(loaded: &Loaded, db: &str) -> u8 {
    let dir = &loaded.plan.output.dir;
    if let Err(e) = RunFolder::check_new(dir, Workload::Run) {
        eprintln!("error: {e}");
        return exit::USAGE;
    }
    let (new, target) = match (
        new_run(loaded, DEFAULT_BATCH_PAIRS, UploadPolicy::default()),
        resolve(Some(db)),
    ) {
        (Ok(new), Ok(target)) => (new, target),
        (Err(e), _) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
        (_, Err(e)) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    runtime.block_on(async {
        let mut db = match Db::connect(&target).await {
            Ok(db) => db,
            Err(e) => {
                eprintln!("error: {e}");
                return exit::USAGE;
            }
        };
        let id = match super::submit::store(&mut db, &new).await {
            Ok(id) => id,
            Err(e) => {
                eprintln!("error: {e}");
                return exit::USAGE;
            }
        };
        crate::stdout::line(format_args!(
            "submitted run {id}: {}; workers elsewhere join with `xq-runner worker --run {id}`",
            new.title
        ));
        let options = WorkerOptions {
            target: target.clone(),
            name: format!("run-{id}-{}", std::process::id()),
            concurrency: loaded.plan.concurrency,
            run: Some(id),
            lease: Duration::from_secs(60),
            wait: false,
            batch_pairs: None,
            poll: Duration::from_millis(500),
            // This machine has the files at the paths of the config.
            cache: None,
        };
        let worked = work(options).await;
        let run = match db.run(id).await {
            Ok(run) => run,
            Err(e) => {
                eprintln!("error: {e}");
                return exit::ABORTED;
            }
        };
        if let Err(e) = super::report::from_db(&db, id, dir).await {
            eprintln!("error: {e}");
            return exit::ABORTED;
        }
        // The result block, as a local run ends with it.
        let block = match db.game_facts(id).await {
            Ok(games) => crate::fleet::status::tracker_of(&run, &games)
                .map(|(plan, tracker)| crate::local_run::tournament::report_text(&plan, &tracker)),
            Err(e) => Err(e.to_string()),
        };
        match block {
            Ok(text) => crate::stdout::line(text.trim_end()),
            Err(e) => eprintln!("warning: the result block: {e}"),
        }
        crate::stdout::line(format_args!(
            "Finished: run {id}, {} games, {}; results in {}",
            run.games_done,
            run.status,
            dir.display()
        ));
        if run.is_open() {
            // Stopped here by a signal: the run goes on with the other workers.
            return worked.max(exit::ABORTED);
        }
        run.exit_code.unwrap_or(exit::NO_VERDICT)
    })
}
