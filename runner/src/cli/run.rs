//! `xq-runner run [config.toml] [--resume] [--set key=value ...]`: plays a run. Without a
//! config it plays the embedded `configs/quick.toml`.

use std::path::PathBuf;

use clap::Args;

use crate::config::{load, Override, Plan};
use crate::exit;
use crate::local_run::preflight::{preflight, unknown_options_line};
use crate::local_run::{Part, Start};
use crate::store::folder::FolderUse;
use crate::store::meta::Shard;

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
    /// Play only shard I of N (1-based): the pairs whose number is I-1 modulo N, into
    /// the folder `<output.dir>/shard-I-of-N` (unless --out says otherwise); combine the
    /// shard folders with `xq-runner merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Play the run through this database: submit it, work on it here (workers started
    /// elsewhere join in), wait for its end and write the outputs as a local run does.
    #[arg(long)]
    pub db: Option<String>,
    /// Write every line to and from every engine, with the time and the engine, to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

impl RunArgs {
    /// The overrides, each labelled with its flag so that an error names it.
    pub(super) fn overrides(&self) -> Vec<Override> {
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
pub(super) fn print_plan(plan: &Plan, hash: &str, shard: Option<Shard>) {
    let pairs = plan.pairs * plan.pairings.len() as u64;
    crate::stdout::line(format_args!(
        "kind: {}, {} pairing(s) x {} pairs = {} games at most, concurrency {}, seed {}",
        plan.kind.name(),
        plan.pairings.len(),
        plan.pairs,
        pairs * 2,
        plan.concurrency,
        plan.seed
    ));
    if let Some(s) = shard {
        crate::stdout::line(format_args!(
            "shard {s}: the pairs whose number is {} modulo {}",
            s.index - 1,
            s.count
        ));
    }
    for e in &plan.engines {
        let options: Vec<String> = e
            .spec
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        crate::stdout::line(format_args!(
            "engine {}: {} ({}; {}; options: {})",
            e.spec.name,
            e.spec.command.join(" "),
            e.spec.protocol,
            e.time_control,
            if options.is_empty() {
                "none".to_owned()
            } else {
                options.join(" ")
            }
        ));
    }
    for &(a, b) in &plan.pairings {
        crate::stdout::line(format_args!(
            "pairing: {} vs {}",
            plan.engines[a].spec.name, plan.engines[b].spec.name
        ));
    }
    match &plan.openings {
        Some(o) => crate::stdout::line(format_args!(
            "openings: {} ({}, seed {}, from #{})",
            o.path.display(),
            o.order,
            o.seed,
            o.start + 1
        )),
        None => crate::stdout::line(format_args!("openings: none (start position)")),
    }
    let settings = &plan.settings;
    let rules = settings.rules;
    crate::stdout::line(format_args!(
        "rules: {} ruleset, move limit {} plies ({} counting), banmoves {}",
        rules.ruleset,
        rules.move_limit,
        rules.limit_counting.name(),
        settings.banmoves
    ));
    let draw = settings.draw.map_or_else(
        || "off".to_owned(),
        |d| {
            format!(
                "from move {}, {} moves within {}",
                d.move_number, d.move_count, d.score
            )
        },
    );
    let resign = settings.resign.map_or_else(
        || "off".to_owned(),
        |r| {
            format!(
                "{} moves at -{}{}",
                r.move_count,
                r.score,
                if r.two_sided {
                    ", both engines agreeing"
                } else {
                    ""
                }
            )
        },
    );
    let max_plies = settings
        .max_plies
        .map_or_else(|| "none".to_owned(), |p| p.to_string());
    crate::stdout::line(format_args!(
        "adjudication: draw {draw}; resign {resign}; max plies {max_plies}"
    ));
    match &plan.sprt {
        Some(s) => crate::stdout::line(format_args!(
            "sprt: [{}, {}] {} alpha {} beta {}",
            s.elo0, s.elo1, s.model, s.alpha, s.beta
        )),
        None => crate::stdout::line(format_args!("sprt: none")),
    }
    crate::stdout::line(format_args!(
        "output: {} (config hash {hash})",
        plan.output.dir.display()
    ));
}

/// The shard of `--shard I/N`.
fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("--shard {text}: expected I/N with 1 <= I <= N, e.g. --shard 2/8");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (index, count): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    Shard::new(index, count).ok_or_else(bad)
}

/// The checks of a dry run beyond the config: the opening file, the output folder, and
/// that every engine program is an executable file. Nothing is started yet.
fn dry_run_checks(loaded: &crate::config::Loaded, start: Start) -> Result<(), String> {
    let plan = &loaded.plan;
    crate::local_run::own_files::check_pgnout(plan, None).map_err(|e| e.to_string())?;
    let openings = crate::local_run::tournament::load_openings(plan).map_err(|e| e.to_string())?;
    let (resumed, _) =
        crate::local_run::tournament::check_folder(loaded, start).map_err(|e| e.to_string())?;
    if resumed.is_some() {
        let schedule = openings.as_ref().map(|(_, schedule)| schedule);
        crate::local_run::tournament::played_so_far(plan, start.shard, schedule.into())
            .map_err(|e| e.to_string())?;
    }
    for (i, e) in plan.engines.iter().enumerate() {
        crate::client::check_program(&e.spec)
            .map_err(|why| format!("engine.{i}.command: {why}"))?;
    }
    Ok(())
}

/// A dry run's last check, after the plan is printed: each engine started once, as a
/// run starts it, and the options it did not announce said.
fn dry_run_engines(plan: &Plan) -> u8 {
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    match runtime.block_on(preflight(plan)) {
        Ok(unknown) => {
            crate::stdout::line(format_args!(
                "engines: each started once; {}",
                if unknown.is_empty() {
                    "every option set was announced"
                } else {
                    "options not announced below"
                }
            ));
            for (engine, options) in &unknown {
                crate::stdout::line(format_args!(
                    "warning: {}",
                    unknown_options_line(engine, options)
                ));
            }
            exit::OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            exit::USAGE
        }
    }
}

/// Plays a loaded run (or only checks it with `dry_run`), with the engine traffic in
/// `log` when given.
#[must_use]
pub fn play(
    loaded: &crate::config::Loaded,
    start: Start,
    dry_run: bool,
    log: Option<&std::path::Path>,
) -> u8 {
    if dry_run {
        if let Err(e) = dry_run_checks(loaded, start) {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
        print_plan(&loaded.plan, &loaded.hash, start.shard);
        return dry_run_engines(&loaded.plan);
    }
    if let Err(e) = open_log(log) {
        eprintln!("error: {e}");
        return exit::USAGE;
    }
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    let output = &loaded.plan.output;
    let pgnout_base = output
        .pgnout
        .as_ref()
        .map(|p| crate::output::pgnout::base(p, &output.dir, start.folder == FolderUse::Resume));
    match runtime.block_on(crate::local_run::run(loaded, start)) {
        Ok(code) => {
            if let (Some(p), Some(base)) = (&output.pgnout, pgnout_base) {
                if let Err(e) = crate::output::pgnout::deliver(p, &output.dir, base) {
                    eprintln!("error: {e}");
                    return exit::ABORTED;
                }
            }
            code
        }
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// Runs `run`.
#[must_use]
pub fn run(args: &RunArgs) -> u8 {
    let shard = match args.shard.as_deref().map(parse_shard).transpose() {
        Ok(shard) => shard,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    if let Some(message) = args.config.as_deref().and_then(|path| {
        crate::tune::config::sent_to_tune(path)
            .or_else(|| crate::datagen::config::sent_to_datagen(path))
    }) {
        eprintln!("error: {message}");
        return exit::USAGE;
    }
    if let Some(code) = args
        .config
        .as_deref()
        .and_then(|path| super::scaling::run_if_scaling(args, path))
    {
        return code;
    }
    let mut loaded = match load(args.config.as_deref(), &args.overrides()) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    if let (Some(s), None) = (shard, &args.out) {
        // Each shard plays into its own folder inside the run's: merge reads them all.
        let dir = &mut loaded.plan.output.dir;
        *dir = dir.join(format!("shard-{}-of-{}", s.index, s.count));
    }
    if let Err(e) = crate::local_run::own_files::check_pgnout(&loaded.plan, args.config.as_deref())
    {
        eprintln!("error: {e}");
        return exit::USAGE;
    }
    if let Some(db) = &args.db {
        if args.resume || shard.is_some() || args.dry_run {
            eprintln!("error: --db plays a run through the database: it takes no --resume, --shard or --dry-run (see `xq-runner status` and `worker`)");
            return exit::USAGE;
        }
        if let Err(e) = open_log(args.log.as_deref()) {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
        return super::fleet_run::run(&loaded, db);
    }
    let start = Start {
        folder: if args.resume {
            FolderUse::Resume
        } else {
            FolderUse::New
        },
        shard,
        part: Part::Alone,
    };
    play(&loaded, start, args.dry_run, args.log.as_deref())
}

/// Starts writing the engine traffic to `--log FILE`.
fn open_log(log: Option<&std::path::Path>) -> Result<(), String> {
    match log {
        Some(path) => {
            crate::client::traffic::open(path).map_err(|e| format!("--log {}: {e}", path.display()))
        }
        None => Ok(()),
    }
}
