//! `xq-runner datagen <config.toml> [--concurrency N]`: self-play training data (see
//! `docs/nnue.md`); `xq-runner resume DIR` continues one from its folder.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::config::Override;
use crate::datagen::config::DatagenPlan;
use crate::datagen::folder::DatagenMeta;
use crate::exit;
use crate::store::folder::{RunFolder, Workload};

/// Arguments of `datagen`.
#[derive(Debug, Args)]
pub struct DatagenArgs {
    /// The datagen configuration (TOML) with a [datagen] table and one [[engine]].
    pub config: PathBuf,
    /// Games played at once (tournament.concurrency).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Positions to write, in place of datagen.positions.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// The output folder (output.dir).
    #[arg(long)]
    pub out: Option<String>,
    /// Check the config, the openings and the folder, print the plan, and play nothing.
    #[arg(long)]
    pub dry_run: bool,
}

fn overrides(concurrency: Option<usize>, out: Option<&str>) -> Vec<Override> {
    let mut all = Vec::new();
    if let Some(c) = concurrency {
        all.push(Override::flag(
            format!("--concurrency {c}"),
            format!("tournament.concurrency={c}"),
        ));
    }
    if let Some(o) = out {
        let quoted = o.replace('\\', "\\\\").replace('"', "\\\"");
        all.push(Override::flag(
            format!("--out {o}"),
            format!("output.dir=\"{quoted}\""),
        ));
    }
    all
}

/// Prints what a datagen would do (`--dry-run`).
fn print_plan(dg: &DatagenPlan) {
    let (plan, s) = (&dg.plan, &dg.settings);
    let engine = &plan.engines[0];
    crate::stdout::line(format_args!(
        "datagen: {} positions; {} random plies; score limit {}; ply limit {}; seed {}; dedup {}; concurrency {}",
        s.positions, s.random_plies, s.score_limit, s.ply_limit, s.seed, s.dedup, plan.concurrency
    ));
    crate::stdout::line(format_args!(
        "engine {}: {} ({}; {}) against itself",
        engine.spec.name.trim_end_matches("-red"),
        engine.spec.command.join(" "),
        engine.spec.protocol,
        engine.time_control
    ));
    match &plan.openings {
        Some(o) => {
            crate::stdout::line(format_args!("openings: {} ({})", o.path.display(), o.order));
        }
        None => crate::stdout::line(format_args!("openings: none (start position)")),
    }
    crate::stdout::line(format_args!("output: {}", plan.output.dir.display()));
}

/// The checks of a dry run: the openings read, the folder free.
fn dry_run(dg: &DatagenPlan) -> u8 {
    let checked = crate::local_run::tournament::load_openings(&dg.plan)
        .map(|_| ())
        .map_err(|e| e.to_string())
        .and_then(|()| {
            RunFolder::check_new(&dg.plan.output.dir, Workload::Datagen).map_err(|e| e.to_string())
        });
    match checked {
        Ok(()) => {
            print_plan(dg);
            exit::OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            exit::USAGE
        }
    }
}

/// Runs `datagen`.
#[must_use]
pub fn run(args: &DatagenArgs) -> u8 {
    let name = args.config.display().to_string();
    let text = match std::fs::read_to_string(&args.config) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {name}: cannot read: {e}");
            return exit::USAGE;
        }
    };
    let overrides = overrides(args.concurrency, args.out.as_deref());
    let mut plan = match crate::datagen::config::parse(&name, &text, &overrides) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    if let Some(p) = args.positions {
        plan.settings.positions = p;
    }
    if args.dry_run {
        return dry_run(&plan);
    }
    let meta = DatagenMeta {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        config: text,
        identity: plan.identity.clone(),
        positions: plan.settings.positions,
    };
    play(&plan, &meta, false)
}

/// Continues the datagen in `dir` (`xq-runner resume DIR`), from its record alone.
#[must_use]
pub fn resume(dir: &Path, concurrency: Option<usize>) -> u8 {
    let meta = match crate::datagen::folder::read(dir) {
        Ok(meta) => meta,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let name = dir
        .join(crate::store::folder::DATAGEN_RUN)
        .display()
        .to_string();
    let mut plan =
        match crate::datagen::config::parse(&name, &meta.config, &overrides(concurrency, None)) {
            Ok(plan) => plan,
            Err(e) => {
                eprintln!("error: {e}");
                return exit::USAGE;
            }
        };
    if plan.identity != meta.identity {
        eprintln!(
            "error: {}: its config reads differently with this runner (another version?): not resumed",
            dir.display()
        );
        return exit::USAGE;
    }
    // The folder given is the datagen's, wherever the config said it was, and the
    // target is the one it started with (`--positions` included).
    plan.plan.output.dir = dir.to_path_buf();
    plan.settings.positions = meta.positions;
    play(&plan, &meta, true)
}

fn play(plan: &DatagenPlan, meta: &DatagenMeta, resume: bool) -> u8 {
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    let dir = plan.plan.output.dir.display().to_string();
    match runtime.block_on(crate::datagen::driver::datagen(plan, meta, resume)) {
        Ok(outcome) => {
            if outcome.resumable {
                crate::stdout::line(format_args!("Resume with: xq-runner resume {dir}"));
            }
            outcome.exit_code
        }
        Err(e) => {
            eprintln!("error: {e}");
            exit::USAGE
        }
    }
}
