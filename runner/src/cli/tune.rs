//! `xq-runner tune <config.toml> [--params FILE] [--resume] [--dry-run] [--set key=value
//! ...]`: SPSA over the engine's options (see `docs/tuning.md`).

use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::tune::spsa::Gains;
use crate::tune::TunePlan;

/// Arguments of `tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The tune configuration (TOML) with a [tune] section and one [[engine]].
    pub config: PathBuf,
    /// More parameters in fishtest's format: `name, start, min, max, c_end, r_end` a line.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Continue an interrupted tune from the journal in its output folder.
    #[arg(long)]
    pub resume: bool,
    /// Change a key of the config, e.g. --set tune.pairs=500 --set time.tc=2+0.02.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Shorthand for --set tune.pairs=N.
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Shorthand for --set tournament.concurrency=N.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Shorthand for --set output.dir=DIR.
    #[arg(long)]
    pub out: Option<String>,
    /// Check the config and the engine's options, print the parameters, the gains at the
    /// first and last iteration and the number of games, and exit without playing.
    #[arg(long)]
    pub dry_run: bool,
}

impl TuneArgs {
    fn overrides(&self) -> Vec<String> {
        let mut all = self.set.clone();
        if let Some(p) = self.pairs {
            all.push(format!("tune.pairs={p}"));
        }
        if let Some(c) = self.concurrency {
            all.push(format!("tournament.concurrency={c}"));
        }
        if let Some(o) = &self.out {
            all.push(format!(
                "output.dir=\"{}\"",
                o.replace('\\', "\\\\").replace('"', "\\\"")
            ));
        }
        all
    }
}

/// Prints what a tune would do (`--dry-run`).
fn print_dry_run(tune: &TunePlan) {
    let s = &tune.schedule;
    let plan = &tune.plan;
    let engine = &plan.engines[0];
    crate::stdout::line(format_args!(
        "tune: {} iterations of one pair = {} games, concurrency {}, seed {}",
        s.iterations,
        s.iterations * 2,
        plan.concurrency,
        plan.seed
    ));
    crate::stdout::line(format_args!(
        "spsa: alpha {}, gamma {}, A {} (fishtest's classic SPSA)",
        s.alpha, s.gamma, s.big_a
    ));
    crate::stdout::line(format_args!(
        "engine {}: {} ({}; {})",
        engine.spec.name.trim_end_matches('+'),
        engine.spec.command.join(" "),
        engine.spec.protocol,
        engine.time_control
    ));
    match &plan.openings {
        Some(o) => {
            crate::stdout::line(format_args!("openings: {} ({})", o.path.display(), o.order))
        }
        None => crate::stdout::line(format_args!("openings: none (start position)")),
    }
    crate::stdout::line(format_args!(
        "{:<24} {:>8} {:>8} {:>8} {:>7} {:>8} {:>9} {:>9} {:>9} {:>9}",
        "parameter", "start", "min", "max", "c_end", "r_end", "c_1", "R_1", "c_N", "R_N"
    ));
    for p in &tune.params {
        let g = Gains::new(s, p.min, p.max, p.c_end, p.r_end);
        crate::stdout::line(format_args!(
            "{:<24} {:>8} {:>8} {:>8} {:>7} {:>8} {:>9.4} {:>9.6} {:>9.4} {:>9.6}",
            p.name,
            p.start,
            p.min,
            p.max,
            p.c_end,
            p.r_end,
            g.c_k(s, 1),
            g.r_k(s, 1),
            g.c_k(s, s.iterations),
            g.r_k(s, s.iterations)
        ));
    }
    crate::stdout::line(format_args!("output: {}", plan.output.dir.display()));
}

/// Runs `tune`.
#[must_use]
pub fn run(args: &TuneArgs) -> u8 {
    let mut tune = match crate::tune::load(&args.config, &args.overrides(), args.params.as_deref())
    {
        Ok(tune) => tune,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    if args.dry_run {
        let plan = &tune.plan;
        let checked = runtime.block_on(async {
            crate::local_run::tournament::load_openings(plan).map_err(|e| e.to_string())?;
            let options = crate::tune::options::announced(&plan.engines[0], plan.timeouts).await?;
            crate::tune::options::fit(&mut tune.params, &options).map_err(|e| e.to_string())
        });
        return match checked {
            Ok(warnings) => {
                for w in warnings {
                    eprintln!("{w}");
                }
                print_dry_run(&tune);
                exit::OK
            }
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        };
    }
    match runtime.block_on(crate::tune::tune(&mut tune, args.resume)) {
        Ok(outcome) => {
            if outcome.resumable {
                let mut again = format!("xq-runner tune {}", args.config.display());
                if let Some(p) = &args.params {
                    again.push_str(&format!(" --params {}", p.display()));
                }
                for s in args.overrides() {
                    again.push_str(&format!(" --set '{s}'"));
                }
                crate::stdout::line(format_args!("Resume with: {again} --resume"));
            }
            outcome.exit_code
        }
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                crate::tune::TuneFailure::Input(_) => exit::USAGE,
                crate::tune::TuneFailure::Outputs(_) => exit::ABORTED,
            }
        }
    }
}
