//! `xq-runner worker --db URL [--concurrency N] [--name NAME] [--run ID] [--lease D]
//! [--wait] [--cache DIR]`: plays batches of open runs until none is left (with `--wait`:
//! until SIGTERM or Ctrl-C), with the engines and files a run carries fetched into its
//! cache.

use std::time::Duration;

use clap::Args;

use crate::exit;
use crate::fleet::cache::Cache;
use crate::fleet::uploads::parse_size;
use crate::fleet::worker::{work, WorkerOptions};
use crate::game::parse_duration;
use crate::store::pg::resolve;

/// Arguments of `worker`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The database; else XQ_DB, else the PG* variables.
    #[arg(long)]
    pub db: Option<String>,
    /// Games played at once on this machine (default: the number of cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// The worker's name in `status` and on the workers page (default: the host name,
    /// so that a worker restarted on the same machine keeps it).
    #[arg(long)]
    pub name: Option<String>,
    /// Work on this run only.
    #[arg(long)]
    pub run: Option<i64>,
    /// The lease of a batch, renewed every third of it (e.g. 60s, 500ms).
    #[arg(long, default_value = "60s")]
    pub lease: String,
    /// Keep polling for new runs until SIGTERM or Ctrl-C.
    #[arg(long)]
    pub wait: bool,
    /// Pairs asked for per batch (default: the run's).
    #[arg(long)]
    pub batch_pairs: Option<u64>,
    /// Where the engines and files that runs carry are kept (default: under the
    /// user's cache folder, ~/.cache/xq-runner/artifacts).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<std::path::PathBuf>,
    /// The cache's size cap; the files used least recently go first (bytes, or with
    /// KB, MB, GB).
    #[arg(long, value_name = "SIZE", default_value = "4GB", value_parser = parse_size)]
    pub cache_size: u64,
}

/// The longest lease the server hands out (`max_lease_s` in `xq.meta`).
const MAX_LEASE: Duration = Duration::from_secs(3600);

/// The options of a worker, from its flags; `None` after a one-line error.
pub(crate) fn options(args: &WorkerArgs) -> Option<WorkerOptions> {
    let target = resolve(args.db.as_deref())
        .map_err(|e| eprintln!("error: {e}"))
        .ok()?;
    let lease = parse_duration(&args.lease)
        .map_err(|_| {
            eprintln!(
                "error: --lease {}: expected a duration such as 60s or 500ms, under 10000000 s",
                args.lease
            );
        })
        .ok()?;
    if lease < Duration::from_millis(300) {
        eprintln!(
            "error: --lease {}: at least 300ms (it is renewed every third of it)",
            args.lease
        );
        return None;
    }
    if lease > MAX_LEASE {
        eprintln!(
            "error: --lease {}: at most 1h (the server refuses longer leases)",
            args.lease
        );
        return None;
    }
    // The machine's name by default, not the process's: a worker restarted on the same
    // machine keeps its name (and its row on the workers page); a second worker there
    // waits for it, saying to give it another --name.
    let name = args
        .name
        .clone()
        .unwrap_or_else(crate::store::pg::machine::host_name);
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        eprintln!("error: --name: at most 100 characters, none of them a control character");
        return None;
    }
    let concurrency = match args.concurrency {
        Some(0) => {
            eprintln!("error: --concurrency 0: at least 1");
            return None;
        }
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    Some(WorkerOptions {
        target,
        name,
        concurrency,
        run: args.run,
        lease,
        wait: args.wait,
        batch_pairs: args.batch_pairs,
        poll: (lease / 4).clamp(Duration::from_millis(100), Duration::from_secs(5)),
        cache: Some(Cache {
            root: args.cache.clone().unwrap_or_else(Cache::default_root),
            max_size: args.cache_size,
        }),
    })
}

/// Runs `worker`.
#[must_use]
pub fn run(args: &WorkerArgs) -> u8 {
    let Some(options) = options(args) else {
        return exit::USAGE;
    };
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    runtime.block_on(work(options))
}
