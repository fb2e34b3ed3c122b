//! `xq-texel`: fits the term weights of xq-engine's evaluation (levels 2..6) to the
//! results of games in the runner's journals, Texel's method with a log loss, and writes
//! them in the form the engine's build reads (`engine/data/term-weights.txt`).
//!
//! With `--tables` it fits the full evaluation's piece-square tables and the term weights
//! together (`--out` writes `engine/data/tables.txt`, `--weights-out` the weights; see
//! `tables.rs`).
//!
//! usage: xq-texel [--tables [--lambda X] [--weights-out FILE]] [--min-ply N]
//!        [--min PERCENT] [--max PERCENT] [--out FILE] JOURNAL...

mod fit;
mod samples;
mod tables;

use std::path::PathBuf;
use std::process::ExitCode;

use samples::{Filter, Read, FEATURES};
use xq_engine::eval::{tuned, TermWeights, TERM_TUNABLES};

const USAGE: &str = "usage: xq-texel [--tables [--lambda X] [--weights-out FILE]] \
                     [--min-ply N] [--min PERCENT] [--max PERCENT] [--out FILE] JOURNAL...";

/// What the command line asks for.
#[derive(Debug)]
struct Args {
    journals: Vec<PathBuf>,
    filter: Filter,
    min_percent: i32,
    max_percent: i32,
    out: Option<PathBuf>,
    /// Fit the level-6 tables, not the term weights.
    tables: bool,
    /// The tables' ridge; `None` tries several and keeps the best on held-out games.
    lambda: Option<f64>,
    /// Where `--tables` writes the term weights it fits with them.
    weights_out: Option<PathBuf>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args {
        journals: Vec::new(),
        filter: Filter { min_ply: 0 },
        // The knowledge of each term is kept: a weight may shrink, not vanish.
        min_percent: 25,
        max_percent: 400,
        out: None,
        tables: false,
        lambda: None,
        weights_out: None,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = |name: &str| {
            rest.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |name: &str, text: String| {
            text.parse::<i32>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| format!("{name} needs a whole number, not `{text}`"))
        };
        match arg.as_str() {
            "--min-ply" => {
                let n = number("--min-ply", value("--min-ply")?)?;
                parsed.filter.min_ply = usize::try_from(n).unwrap_or(0);
            }
            "--min" => parsed.min_percent = number("--min", value("--min")?)?,
            "--max" => parsed.max_percent = number("--max", value("--max")?)?,
            "--out" => parsed.out = Some(PathBuf::from(value("--out")?)),
            "--tables" => parsed.tables = true,
            "--weights-out" => parsed.weights_out = Some(PathBuf::from(value("--weights-out")?)),
            "--lambda" => {
                let text = value("--lambda")?;
                let lambda = text
                    .parse::<f64>()
                    .ok()
                    .filter(|l| l.is_finite() && *l >= 0.0)
                    .ok_or_else(|| format!("--lambda needs a number >= 0, not `{text}`"))?;
                parsed.lambda = Some(lambda);
            }
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            path => parsed.journals.push(PathBuf::from(path)),
        }
    }
    if parsed.journals.is_empty() {
        return Err("no journal given".to_owned());
    }
    if parsed.min_percent > parsed.max_percent || parsed.max_percent > 400 {
        return Err(format!(
            "the bounds {}..{} are not inside 0..400",
            parsed.min_percent, parsed.max_percent
        ));
    }
    Ok(parsed)
}

/// The samples of every journal, `minimum` of them at least to fit `what`; says how
/// many were read.
fn read_all<S>(
    args: &Args,
    make: samples::MakeSample<S>,
    minimum: usize,
    what: &str,
) -> Result<Read<S>, String> {
    let mut read = Read::default();
    for path in &args.journals {
        samples::read_journal(path, args.filter, make, &mut read).map_err(|e| e.to_string())?;
    }
    let (train, check) = (read.samples.len(), read.check.len());
    if train < minimum {
        return Err(format!(
            "{train} positions from {} games are too few to fit {what}",
            read.games
        ));
    }
    println!(
        "{} games ({} skipped), {} quiet positions: {train} to fit, {check} to check",
        read.games,
        read.skipped_games,
        train + check,
    );
    Ok(read)
}

fn run(args: &Args) -> Result<(), String> {
    if args.tables {
        return run_tables(args);
    }
    let read = read_all(args, samples::sample, 1000, &format!("{FEATURES} weights"))?;
    let (train, check) = (&read.samples, &read.check);
    let seeds = [1.0; FEATURES];
    let (seed_loss, seed_k) = fit::loss_at(train, &seeds);
    let fitted = fit::fit(
        train,
        f64::from(args.min_percent) / 100.0,
        f64::from(args.max_percent) / 100.0,
    );
    println!(
        "log loss, fitted games: seeds' weights {seed_loss:.6} (k {seed_k:.6}), fitted {:.6} (k {:.6})",
        fitted.loss, fitted.k
    );
    let held_out = (
        fit::loss_at(check, &seeds).0,
        fit::loss_at(check, &fitted.weights).0,
    );
    println!(
        "log loss, held-out games: seeds' weights {:.6}, fitted {:.6}",
        held_out.0, held_out.1
    );
    let mut weights = TermWeights::neutral();
    println!("{:<20} {:>7} {:>9}", "option", "percent", "std.err");
    for ((t, w), e) in TERM_TUNABLES
        .iter()
        .zip(&fitted.weights)
        .zip(&fitted.std_error)
    {
        let percent = (w * 100.0).round() as i32;
        weights.set(t.term, percent);
        println!("{:<20} {percent:>7} {:>9.1}", t.option.name, e * 100.0);
    }
    if let Some(out) = &args.out {
        let sources: Vec<String> = args
            .journals
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let header = format!(
            "Fitted by xq-texel from {} games ({} positions; {}), log loss {:.6} -> {:.6} on held-out games.",
            read.games,
            train.len() + check.len(),
            sources.join(", "),
            held_out.0,
            held_out.1
        );
        std::fs::write(out, tuned::format(&weights, &header))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

/// The `--tables` fit: level 6's piece-square tables.
fn run_tables(args: &Args) -> Result<(), String> {
    let read = read_all(args, tables::table_sample, 10_000, "the tables")?;
    let (train, check) = (&read.samples, &read.check);
    let compiled = tables::compiled();
    let k = tables::fit_k(train, &compiled);
    println!(
        "log loss at the compiled tables and weights: fitted games {:.6}, held-out {:.6} (k {k:.6})",
        tables::mean_loss(train, &compiled, k),
        tables::mean_loss(check, &compiled, k)
    );
    let (min, max) = (
        f64::from(args.min_percent) / 100.0,
        f64::from(args.max_percent) / 100.0,
    );
    let lambdas = match args.lambda {
        Some(l) => vec![l],
        None => vec![1e-8, 1e-9, 1e-10],
    };
    let mut best: Option<(f64, f64, tables::TableFit)> = None;
    for lambda in lambdas {
        let fit = tables::fit(train, lambda, min, max);
        let held_out = tables::mean_loss(check, &fit.theta, fit.k);
        println!(
            "lambda {lambda:e}: fitted games {:.6}, held-out {held_out:.6} (k {:.6})",
            tables::mean_loss(train, &fit.theta, fit.k),
            fit.k
        );
        if best.as_ref().is_none_or(|b| held_out < b.1) {
            best = Some((lambda, held_out, fit));
        }
    }
    let Some((lambda, held_out, fit)) = best else {
        return Err("no fit".to_owned());
    };
    let fitted = tables::placement_tables(&fit.theta);
    let seeds = tables::placement_tables(&tables::centre());
    println!("kept lambda {lambda:e} (held-out {held_out:.6}); tables, fitted minus seed 000's, Red's view:");
    for kind in xq_engine::board::PieceKind::ALL {
        println!("{kind:?}");
        for rank in (0..10).rev() {
            let row: Vec<String> = (0..9)
                .map(|f| {
                    let (i, r) = (kind.index(), rank);
                    format!("{:>5}", fitted[i][r][f] - seeds[i][r][f])
                })
                .collect();
            println!("  {rank}: {}", row.join(""));
        }
    }
    let weights = tables::term_weights(&fit.theta);
    println!("{:<20} {:>8} {:>7}", "option", "compiled", "fitted");
    for (t, &term) in tables::TERMS.iter().enumerate() {
        let name = TERM_TUNABLES
            .iter()
            .find(|tunable| tunable.term == term)
            .map_or("?", |tunable| tunable.option.name);
        let bound = if fit.held[tables::CLASSES + t] {
            " (bound)"
        } else {
            ""
        };
        println!(
            "{name:<20} {:>8} {:>7}{bound}",
            TermWeights::default().get(term),
            weights.get(term)
        );
    }
    let sources: Vec<String> = args
        .journals
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let header = format!(
        "Fitted by xq-texel --tables from {} games ({} positions; {}), lambda {lambda:e}, held-out log loss {held_out:.6}.",
        read.games,
        train.len() + check.len(),
        sources.join(", "),
    );
    if let Some(out) = &args.out {
        std::fs::write(out, xq_engine::eval::tables::format(&fitted, &header))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    if let Some(out) = &args.weights_out {
        std::fs::write(out, tuned::format(&weights, &header))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = parse_args(&args).and_then(|parsed| run(&parsed));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) if message.is_empty() => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
