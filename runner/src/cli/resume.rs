//! `xq-runner resume <dir> [--pairs N] [--concurrency N]`: continues the run in a folder
//! from the folder alone (`run.json` holds the config it plays); with more `--pairs`
//! than it had, extends a finished run. A bisection's folder (`bisect.json`) goes on at
//! the step it was in.

use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::local_run::{Part, Start};
use crate::store::folder::FolderUse;
use crate::store::meta::RunMeta;

/// Arguments of `resume`.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The output folder of the run (the one holding run.json and games.jsonl).
    pub dir: PathBuf,
    /// Pairs per pairing from now on: more than the run had extends it.
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Games played at once in this session.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Check that the run can be resumed and print its plan, without playing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write every line to and from every engine, with the time and the engine, to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// Runs `resume`.
#[must_use]
pub fn run(args: &ResumeArgs) -> u8 {
    resume(args, Part::Alone)
}

/// Resumes the folder of `args`: a run of its own, or (`part`) a step of a workload that
/// resumes it (a bisection), which says itself how to go on.
#[must_use]
pub(crate) fn resume(args: &ResumeArgs, part: Part) -> u8 {
    if crate::scaling::is_scaling_folder(&args.dir) {
        return super::scaling::resume(args);
    }
    if args.dir.join(crate::bisect::state::STATE_FILE).exists() {
        if args.pairs.is_some() || args.dry_run || args.log.is_some() {
            eprintln!(
                "error: {} holds a bisection: its resume takes only --concurrency",
                args.dir.display()
            );
            return exit::USAGE;
        }
        return super::bisect::resume(&args.dir, args.concurrency);
    }
    if args.dir.join(crate::store::folder::DATAGEN_RUN).exists() {
        if args.pairs.is_some() || args.dry_run || args.log.is_some() {
            eprintln!(
                "error: {} holds a datagen: its resume takes only --concurrency",
                args.dir.display()
            );
            return exit::USAGE;
        }
        return super::datagen::resume(&args.dir, args.concurrency);
    }
    let meta = match RunMeta::read(&args.dir) {
        Ok(meta) => meta,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let mut overrides = Vec::new();
    if let Some(p) = args.pairs {
        overrides.push(crate::config::Override::flag(
            format!("--pairs {p}"),
            format!("tournament.pairs={p}"),
        ));
    }
    if let Some(c) = args.concurrency {
        overrides.push(crate::config::Override::flag(
            format!("--concurrency {c}"),
            format!("tournament.concurrency={c}"),
        ));
    }
    let name = args.dir.join("run.json").display().to_string();
    let mut loaded = match crate::config::parse(&name, &meta.config, &overrides) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    // The folder given is the run's folder, wherever the config said it was.
    loaded.plan.output.dir.clone_from(&args.dir);
    let start = Start {
        folder: FolderUse::Resume,
        shard: meta.shard,
        part,
    };
    super::run::play(&loaded, start, args.dry_run, args.log.as_deref())
}
