//! `xq-runner merge <dir>... --out DIR`: combines the folders of a run's shards
//! (`run --shard I/N`) into one run folder with the outputs of a whole run. Folders of
//! different configs are refused; pairs played twice or not at all are named. A config
//! with `[sprt]` gets its verdict here, from the total counts (a fixed-size test: the
//! shards did not stop early).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;

use crate::atomic_file::{AtomicFile, Staged};
use crate::config::parse;
use crate::exit;
use crate::local_run::ending;
use crate::output::files::{today, RunFiles};
use crate::output::summary::RunnerCost;
use crate::store::ending::Ending;
use crate::store::folder::{RunFolder, Workload};
use crate::store::journal::{Journal, JOURNAL_FILE};
use crate::store::layout::Jobs;
use crate::store::meta::RunMeta;
use crate::store::tracker::Tracker;

/// Arguments of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard folders.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The folder of the whole run (new).
    #[arg(long)]
    pub out: PathBuf,
}

/// Pair numbers, shortened for one line.
fn list(pairs: &[u64]) -> String {
    let shown: Vec<String> = pairs.iter().take(20).map(|p| (p + 1).to_string()).collect();
    let more = pairs.len().saturating_sub(20);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// Why a merge failed: the message and the exit code (2 for folders that do not
/// merge, 4 for outputs that could not be written).
struct Failure {
    code: u8,
    message: String,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            code: exit::USAGE,
            message,
        }
    }
}

fn merge(args: &MergeArgs) -> Result<u8, Failure> {
    let metas: Vec<RunMeta> = args
        .dirs
        .iter()
        .map(|d| RunMeta::read(d).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let first = &metas[0];
    for (dir, meta) in args.dirs.iter().zip(&metas) {
        if meta.config_hash != first.config_hash {
            let keys = crate::config::differences(&first.config, &meta.config);
            return Err(format!(
                "{}: another config than {} (differs in {}): only shards of one run merge",
                dir.display(),
                args.dirs[0].display(),
                keys.join(", ")
            )
            .into());
        }
    }
    RunFolder::check_new(&args.out, Workload::Run).map_err(|e| e.to_string())?;
    let mut loaded = parse(
        &format!("{}/run.json", args.dirs[0].display()),
        &first.config,
        &[],
    )
    .map_err(|e| e.to_string())?;
    loaded.plan.output.dir.clone_from(&args.out);
    let plan = &loaded.plan;
    let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
    // Where every game is: (pair, game) -> (folder, offset); a game found twice is kept
    // once and its pair named.
    let mut games: BTreeMap<(u64, u8), (usize, u64)> = BTreeMap::new();
    let mut twice = Vec::new();
    for (i, dir) in args.dirs.iter().enumerate() {
        Journal::scan(&dir.join(JOURNAL_FILE), |offset, entry| {
            if games
                .insert((entry.pair, entry.game), (i, offset))
                .is_some()
            {
                twice.push(entry.pair);
            }
        })
        .map_err(|e| e.to_string())?;
    }
    if !twice.is_empty() {
        // Found in folder order: each pair once, in order, for a list one can read.
        twice.sort_unstable();
        twice.dedup();
        return Err(format!(
            "pairs played in more than one folder: {} (is a shard given twice?)",
            list(&twice)
        )
        .into());
    }
    // Its run.json is written last, once its journal is whole.
    let folder =
        RunFolder::create(&args.out, Workload::Run, |_| Ok(())).map_err(|e| e.to_string())?;
    let journal_path = folder.journal();
    let cannot_write = |e: std::io::Error| format!("{}: cannot write: {e}", journal_path.display());
    let mut out = AtomicFile::create(&journal_path).map_err(cannot_write)?;
    let names = plan.engines.iter().map(|e| e.spec.name.clone()).collect();
    let mut tracker = Tracker::new(names, plan.pairings.len());
    for (&(pair, game), &(i, offset)) in &games {
        let path = args.dirs[i].join(JOURNAL_FILE);
        let entry = Journal::read_at(&path, offset).map_err(|e| e.to_string())?;
        let line = serde_json::to_string(&entry).map_err(|e| e.to_string())?;
        writeln!(out, "{line}").map_err(cannot_write)?;
        let job = jobs.job(pair, game);
        let (a, b) = plan.pairings[job.pairing];
        tracker.record(&entry, job.pairing, a, b);
    }
    out.finish()
        .and_then(Staged::commit)
        .map_err(cannot_write)?;
    let missing: Vec<u64> = (0..jobs.total_pairs())
        .filter(|&p| !(games.contains_key(&(p, 0)) && games.contains_key(&(p, 1))))
        .collect();
    let played_s = metas.iter().map(|m| m.played_s).fold(0.0, f64::max);
    RunMeta {
        shard: None,
        openings: first.openings.clone(),
        played_s,
        ..first.clone()
    }
    .write(&args.out)
    .map_err(|e| e.to_string())?;
    let ending = if missing.is_empty() {
        ending::verdict(plan, &tracker).unwrap_or_else(|| ending::when_complete(plan, &tracker))
    } else {
        eprintln!(
            "warning: pairs not played in any folder: {}",
            list(&missing)
        );
        Ending::Incomplete {
            missing: missing.len() as u64,
        }
    };
    RunFiles {
        book: None,
        plan,
        hash: &loaded.hash,
        tracker: &tracker,
        ending: &ending,
        played_s,
        cost: RunnerCost::default(),
        date: today(),
    }
    .write(&args.out)
    .map_err(|e| Failure {
        code: exit::ABORTED,
        message: e.to_string(),
    })?;
    crate::stdout::line(format_args!(
        "{}",
        crate::local_run::tournament::report_text(plan, &tracker).trim_end()
    ));
    crate::stdout::line(format_args!(
        "Merged {} folder{}: {} games, {}; results in {}",
        args.dirs.len(),
        if args.dirs.len() == 1 { "" } else { "s" },
        tracker.games(),
        ending,
        args.out.display()
    ));
    Ok(ending.exit_code())
}

/// Runs `merge`.
#[must_use]
pub fn run(args: &MergeArgs) -> u8 {
    merge(args).unwrap_or_else(|e| {
        eprintln!("error: {}", e.message);
        e.code
    })
}
