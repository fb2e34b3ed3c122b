//! `xq-nnue`: trains evaluation level 7's network from self-play game records.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xq_engine::eval::nnue::{Activation, MAX_BUCKETS};
use xq_nnue::dataset::Dataset;
use xq_nnue::model::Model;
use xq_nnue::sources::{read_sources, ReadOptions, ReadReport, Source};
use xq_nnue::train::{train, TrainConfig};

/// The data folder read when no `--data` or `--data-dir` is given (the repository's).
const DEFAULT_DATA_DIR: &str = "engine/data/selfplay";

const USAGE: &str = "usage: xq-nnue train --out <net> [--data-dir <dir>...] [--data <file>...]
           (default: --data-dir engine/data/selfplay; files: chunks or XQNNDATA files)
           [--score-limit N] [--dedup]  (the reader's filters; docs/nnue.md)
           [--hidden N] [--buckets B] [--activation crelu|screlu]
           [--epochs E] [--batch B] [--lr X] [--lr-decay X]
           [--lambda X] [--scale S] [--valid X] [--seed S] [--threads T]
           [--mirror]  (also train on each position mirrored left to right)
       xq-nnue random --out <net> [--hidden N] [--buckets B] [--activation A]
                   [--seed S] [--scale S]
                   (an untrained network, for speed measurements)";

/// Why a command failed: its command line (the usage follows the line), or what it
/// read or wrote (the line alone).
enum Failure {
    Usage(String),
    Data(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Usage(message)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("train") => run_train(&args[1..]),
        Some("random") => run_random(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(Failure::Usage(format!("unknown command `{other}`"))),
        None => Err(Failure::Usage("a command is needed".to_owned())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Data(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// The options of a command line: `--name value` pairs.
struct Options {
    sources: Vec<Source>,
    read: ReadOptions,
    out: Option<PathBuf>,
    config: TrainConfig,
}

fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{name} `{text}` is not a valid number"))
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        sources: Vec::new(),
        read: ReadOptions::default(),
        out: None,
        config: TrainConfig::default(),
    };
    let c = &mut options.config;
    let mut rest = args.iter();
    while let Some(name) = rest.next() {
        if name == "--mirror" {
            c.mirror = true;
            continue;
        }
        if name == "--dedup" {
            options.read.dedup = true;
            continue;
        }
        let value = rest.next().ok_or_else(|| format!("{name} needs a value"))?;
        match name.as_str() {
            "--data" => options.sources.push(Source::File(PathBuf::from(value))),
            "--data-dir" => options.sources.push(Source::Dir(PathBuf::from(value))),
            "--score-limit" => options.read.filters.score_limit = number(name, value)?,
            "--out" => options.out = Some(PathBuf::from(value)),
            "--hidden" => c.hidden = number(name, value)?,
            "--buckets" => c.buckets = number(name, value)?,
            "--activation" => {
                c.activation = Activation::from_name(value)
                    .ok_or_else(|| format!("--activation `{value}` is not crelu or screlu"))?;
            }
            "--epochs" => c.epochs = number(name, value)?,
            "--batch" => c.batch = number(name, value)?,
            "--lr" => c.lr = number(name, value)?,
            "--lr-decay" => c.lr_decay = number(name, value)?,
            "--lambda" => c.lambda = number(name, value)?,
            "--scale" => c.scale = number(name, value)?,
            "--valid" => c.valid_fraction = number(name, value)?,
            "--seed" => c.seed = number(name, value)?,
            "--threads" => c.threads = number(name, value)?,
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let c = &options.config;
    if c.hidden == 0 || !c.hidden.is_multiple_of(16) || c.hidden > 2048 {
        return Err(format!(
            "--hidden {} must be a multiple of 16 up to 2048",
            c.hidden
        ));
    }
    if !(1..=MAX_BUCKETS).contains(&c.buckets) {
        return Err(format!(
            "--buckets {} must be in 1..={MAX_BUCKETS}",
            c.buckets
        ));
    }
    if options.read.filters.score_limit <= 0 {
        return Err("--score-limit must be at least 1".to_owned());
    }
    if c.batch == 0 || c.threads == 0 {
        return Err("--batch and --threads must be at least 1".to_owned());
    }
    if !(0.0..=1.0).contains(&c.lambda) || !(0.0..1.0).contains(&c.valid_fraction) {
        return Err("--lambda must be in 0..=1 and --valid in 0..1".to_owned());
    }
    // Written as ranges so that a NaN fails them too.
    if !(1.0..=100_000.0).contains(&c.scale) || !(f32::MIN_POSITIVE..=10.0).contains(&c.lr) {
        return Err("--scale must be in 1..=100000 and --lr in (0, 10]".to_owned());
    }
    Ok(options)
}

fn write_net(model: &Model, scale: f32, out: &Path) -> Result<(), String> {
    let net = model
        .quantise(scale.round() as i32)
        .map_err(|e| format!("cannot quantise: {e}"))?;
    std::fs::write(out, net.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "wrote {}: hidden {}, {} buckets, {}, scale {}, hash {:016x}",
        out.display(),
        net.hidden(),
        net.buckets(),
        net.activation(),
        net.scale(),
        net.hash()
    );
    Ok(())
}

fn run_train(args: &[String]) -> Result<(), Failure> {
    let mut options = parse(args)?;
    let out = options.out.ok_or("--out is needed".to_owned())?;
    if options.sources.is_empty() {
        options
            .sources
            .push(Source::Dir(PathBuf::from(DEFAULT_DATA_DIR)));
    }
    let (data, report) = read_sources(&options.sources, &options.read, &mut |note| {
        eprintln!("note: {note}")
    })
    .map_err(|e| Failure::Data(e.to_string()))?;
    print_report(&report, &options.read);
    let cfg = options.config;
    println!(
        "{} positions, hidden {}, {} buckets, {}, {} epochs of batches of {}, lambda {}, scale {}, seed {}",
        data.len(),
        cfg.hidden,
        cfg.buckets,
        cfg.activation,
        cfg.epochs,
        cfg.batch,
        cfg.lambda,
        cfg.scale,
        cfg.seed
    );
    if cfg.buckets > 1 {
        print_buckets(&data, cfg.buckets);
    }
    let model = train(&data, &cfg, &mut |r| {
        if r.epoch == 0 {
            println!("epoch 0: held-out loss {:.6}", r.valid_loss);
        } else {
            println!(
                "epoch {}: train loss {:.6}, held-out loss {:.6} ({:.1} s, {:.0} positions/s)",
                r.epoch,
                r.train_loss,
                r.valid_loss,
                r.seconds,
                r.positions as f64 / r.seconds.max(1e-9)
            );
        }
    });
    write_net(&model, cfg.scale, &out).map_err(Failure::Data)
}

/// What was read: the filters' counts (the notes were printed as they came).
fn print_report(report: &ReadReport, read: &ReadOptions) {
    let c = &report.counts;
    if report.chunks > 0 {
        println!(
            "{} chunks, {} games, {} positions: kept {}; left out: {} unscored (opening, random plies), {} in check, {} mate scores, {} beyond {} units, {} captures, {} of games ended by a fault",
            report.chunks,
            report.games,
            c.positions,
            c.kept,
            c.unscored,
            c.in_check,
            c.mate,
            c.beyond_limit,
            read.filters.score_limit,
            c.capture,
            c.fault_games
        );
    }
    if report.position_files > 0 {
        println!("{} positions from XQNNDATA files", report.position_files);
    }
    if read.dedup {
        println!("{} repeated positions left out (--dedup)", report.repeats);
    }
}

/// How many positions each output bucket holds (a bucket with few learns little).
fn print_buckets(data: &Dataset, buckets: usize) {
    let mut counts = vec![0usize; buckets];
    for index in 0..data.len() {
        counts[xq_engine::eval::nnue::output_bucket(data.active(index).count, buckets)] += 1;
    }
    let shares: Vec<String> = counts
        .iter()
        .map(|&n| format!("{:.1}%", 100.0 * n as f64 / data.len().max(1) as f64))
        .collect();
    println!(
        "positions per bucket, fewest pieces first: {}",
        shares.join(" ")
    );
}

fn run_random(args: &[String]) -> Result<(), Failure> {
    let options = parse(args)?;
    let out = options.out.ok_or("--out is needed".to_owned())?;
    let cfg = options.config;
    let model = Model::with(cfg.hidden, cfg.activation, cfg.buckets, cfg.seed);
    write_net(&model, cfg.scale, &out).map_err(Failure::Data)
}
