//! `xq-runner datagen <config.toml> [--concurrency N]`: self-play training data (see
//! `docs/nnue.md`); `xq-runner resume DIR` continues one from its folder, and
//! `xq-runner datagen pack DIR --into DATA` packs its games into a data folder
//! (`datagen_pack.rs`).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::config::Override;
use crate::datagen::config::DatagenPlan;
use crate::datagen::folder::DatagenMeta;
use crate::exit;
use crate::store::folder::{RunFolder, Workload};

/// Arguments of `datagen`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    pub command: Option<DatagenCommand>,
    /// The datagen configuration (TOML) with a [datagen] table and one [[engine]].
    #[arg(required = true)]
    pub config: Option<PathBuf>,
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
        "datagen: {} positions; {} random plies; score limit {}; ply limit {}; seed {}; concurrency {}",
        s.positions, s.random_plies, s.score_limit, s.ply_limit, s.seed, plan.concurrency
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

/// What `datagen` does besides generating.
#[derive(Debug, Subcommand)]
pub enum DatagenCommand {
    /// Pack the games of a datagen folder that a data folder does not hold yet into a
    /// compressed chunk, and list it in the data folder's manifest.tsv.
    Pack(super::datagen_pack::PackArgs),
}

/// Runs `datagen`.
#[must_use]
pub fn run(args: &DatagenArgs) -> u8 {
    let config = match (&args.command, &args.config) {
        (Some(DatagenCommand::Pack(pack)), _) => return super::datagen_pack::run(pack),
        (None, Some(config)) => config,
        // clap requires one or the other.
        (None, None) => return exit::USAGE,
    };
    let name = config.display().to_string();
    let text = match std::fs::read_to_string(config) {
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
        source: crate::datagen::folder::new_source(),
        settings: crate::datagen::folder::RecordedSettings::of(&plan),
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
