//! `run` of a config with a `[scaling]` section, and `resume` of a scaling folder: the
//! command-line side of `crate::scaling` (its flags checked, its errors printed).

use std::path::Path;

use super::exit;
use super::resume::ResumeArgs;
use super::run::RunArgs;
use crate::config::Override;
use crate::scaling::{self, Mode, ScalingPlan, StoredPlan};

/// `run CONFIG` when CONFIG has a `[scaling]` section: its exit code; `None` for any
/// other config (or one that cannot be read: `run` says why).
#[must_use]
pub fn run_if_scaling(args: &RunArgs, path: &Path) -> Option<u8> {
    let text = std::fs::read_to_string(path).ok()?;
    scaling::scaling_line(&text)?;
    Some(run(args, path))
}

fn run(args: &RunArgs, path: &Path) -> u8 {
    if args.shard.is_some() || args.db.is_some() {
        eprintln!(
            "error: {}: scaling: each setting of a scaling run is a local run: --shard and --db are not for it",
            path.display()
        );
        return exit::USAGE;
    }
    let plan = match scaling::load(path, &args.overrides()) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let mode = if args.resume { Mode::Resume } else { Mode::New };
    if args.dry_run {
        return dry_run(&plan, mode);
    }
    if let Err(e) = open_log(args.log.as_deref()) {
        eprintln!("error: {e}");
        return exit::USAGE;
    }
    play(&plan, mode)
}

fn play(plan: &ScalingPlan, mode: Mode) -> u8 {
    match scaling::play(plan, mode) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// The checks of a dry run (the folder, the openings, the engine programs) and the
/// plan with each setting's estimated time. Nothing is started or written.
fn dry_run(plan: &ScalingPlan, mode: Mode) -> u8 {
    let checked = (|| -> Result<(), String> {
        match mode {
            Mode::New => scaling::folder::check_new(&plan.root).map_err(|e| e.to_string())?,
            Mode::Resume => {
                StoredPlan::read(&plan.root).map_err(|e| e.to_string())?;
            }
        }
        if let Some(first) = plan.points.first() {
            let p = &first.loaded.plan;
            crate::local_run::tournament::load_openings(p).map_err(|e| e.to_string())?;
            for (i, e) in p.engines.iter().enumerate() {
                crate::client::check_program(&e.spec)
                    .map_err(|why| format!("engine.{i}.command: {why}"))?;
            }
        }
        Ok(())
    })();
    if let Err(e) = checked {
        eprintln!("error: {e}");
        return exit::USAGE;
    }
    if let Some(first) = plan.points.first() {
        // The plan every point shares, shown at the first setting.
        super::run::print_plan(&first.loaded.plan, &first.loaded.hash, None);
    }
    for line in scaling::estimate_lines(plan) {
        crate::stdout::line(line);
    }
    exit::OK
}

/// `resume DIR` of a scaling folder: every point from `scaling-plan.json`.
#[must_use]
pub fn resume(args: &ResumeArgs) -> u8 {
    let stored = match StoredPlan::read(&args.dir) {
        Ok(stored) => stored,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let mut overrides = Vec::new();
    if let Some(p) = args.pairs {
        overrides.push(Override::flag(
            format!("--pairs {p}"),
            format!("tournament.pairs={p}"),
        ));
    }
    if let Some(c) = args.concurrency {
        overrides.push(Override::flag(
            format!("--concurrency {c}"),
            format!("tournament.concurrency={c}"),
        ));
    }
    let plan = match stored.restore(&args.dir, &overrides) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    if args.dry_run {
        return dry_run(&plan, Mode::Resume);
    }
    if let Err(e) = open_log(args.log.as_deref()) {
        eprintln!("error: {e}");
        return exit::USAGE;
    }
    play(&plan, Mode::Resume)
}

/// Starts writing the engine traffic to `--log FILE`.
fn open_log(log: Option<&Path>) -> Result<(), String> {
    match log {
        Some(path) => {
            crate::client::traffic::open(path).map_err(|e| format!("--log {}: {e}", path.display()))
        }
        None => Ok(()),
    }
}
