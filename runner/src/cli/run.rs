//! `xq-runner run [config.toml] [--resume] [--set key=value ...]`: plays a run. Without a
//! config it plays the embedded `configs/quick.toml`.

use std::path::PathBuf;

use clap::Args;

use super::exit;
use crate::config::{load, Loaded, Override, Plan};

/// Arguments of `run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The run configuration (TOML); the embedded configs/quick.toml when left out.
    pub config: Option<PathBuf>,
    /// Continue an interrupted run from the journal in its output folder.
    #[arg(long)]
    pub resume: bool,
    /// Change a key of the config, e.g. --set tournament.pairs=50 --set time.tc=10+0.1.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Shorthand for --set tournament.pairs=N.
    // Text, not a number: the config checks it and names this flag (clap would suggest
    // `-- -1` for a negative number, which means nothing here).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub pairs: Option<String>,
    /// Shorthand for --set tournament.concurrency=N.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub concurrency: Option<String>,
    /// Shorthand for --set output.dir=DIR.
    #[arg(long)]
    pub out: Option<String>,
    /// Validate the config, print the plan and exit without playing.
    #[arg(long)]
    pub dry_run: bool,
}

impl RunArgs {
    /// The overrides, each labelled with its flag so that an error names it.
    fn overrides(&self) -> Vec<Override> {
        let mut all: Vec<Override> = self.set.iter().map(|s| Override::set(s)).collect();
        if let Some(p) = &self.pairs {
            all.push(Override::flag(
                format!("--pairs {p}"),
                format!("tournament.pairs={}", p.trim()),
            ));
        }
        if let Some(c) = &self.concurrency {
            all.push(Override::flag(
                format!("--concurrency {c}"),
                format!("tournament.concurrency={}", c.trim()),
            ));
        }
        if let Some(o) = &self.out {
            all.push(Override::flag(
                format!("--out {o}"),
                format!(
                    "output.dir=\"{}\"",
                    o.replace('\\', "\\\\").replace('"', "\\\"")
                ),
            ));
        }
        all
    }
}

/// Prints the validated plan (`--dry-run`).
fn print_plan(plan: &Plan, hash: &str) {
    println!(
        "kind: {:?}, pairs per pairing: {}, concurrency: {}, seed: {}",
        plan.kind, plan.pairs, plan.concurrency, plan.seed
    );
    for e in &plan.engines {
        println!(
            "engine {}: {} ({}; {})",
            e.spec.name,
            e.spec.command.join(" "),
            e.spec.protocol,
            e.time_control
        );
    }
    for &(a, b) in &plan.pairings {
        println!(
            "pairing: {} vs {}",
            plan.engines[a].spec.name, plan.engines[b].spec.name
        );
    }
    match &plan.openings {
        Some(o) => println!(
            "openings: {} ({}, seed {}, from #{})",
            o.path.display(),
            o.order,
            o.seed,
            o.start + 1
        ),
        None => println!("openings: none (start position)"),
    }
    let rules = plan.settings.rules;
    println!(
        "rules: {} ruleset, move limit {} plies ({} counting), banmoves {}",
        rules.ruleset,
        rules.move_limit,
        rules.limit_counting.name(),
        plan.settings.banmoves
    );
    match &plan.sprt {
        Some(s) => println!(
            "sprt: [{}, {}] {} alpha {} beta {}",
            s.elo0, s.elo1, s.model, s.alpha, s.beta
        ),
        None => println!("sprt: none"),
    }
    println!("output: {} (config hash {hash})", plan.output.dir.display());
}

/// Runs `run`.
#[must_use]
pub fn run(args: &RunArgs) -> u8 {
    let loaded = match load(args.config.as_deref(), &args.overrides()) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    play(&loaded, args.resume, args.dry_run)
}

/// Plays a loaded config (or with `dry_run` checks it and prints the plan): the one run
/// path of a TOML file and of fastchess's command line.
#[must_use]
pub fn play(loaded: &Loaded, resume: bool, dry_run: bool) -> u8 {
    if dry_run {
        // The opening file is read whole too: a bad line fails here, not at the first game.
        if let Err(e) = crate::schedule::tournament::load_openings(&loaded.plan) {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
        print_plan(&loaded.plan, &loaded.hash);
        return exit::OK;
    }
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    let output = &loaded.plan.output;
    let pgnout_base = output
        .pgnout
        .as_ref()
        .map(|p| super::pgnout::base(p, &output.dir, resume));
    match runtime.block_on(crate::schedule::run(loaded, resume)) {
        Ok(outcome) => {
            if let (Some(p), Some(base)) = (&output.pgnout, pgnout_base) {
                if let Err(e) = super::pgnout::deliver(p, &output.dir, base) {
                    eprintln!("error: {e}");
                }
            }
            outcome.exit_code
        }
        Err(e) => {
            eprintln!("error: {e}");
            exit::USAGE
        }
    }
}
