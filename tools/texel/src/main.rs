//! `xq-texel`: fits the term weights of xq-engine's evaluation (levels 2..6) to the
//! results of games in the runner's journals, Texel's method with a log loss, and writes
//! them in the form the engine's build reads (`engine/data/term-weights.txt`).
//!
//! usage: xq-texel [--min-ply N] [--min PERCENT] [--max PERCENT] [--out FILE] JOURNAL...

mod fit;
mod samples;

use std::path::PathBuf;
use std::process::ExitCode;

use samples::{Filter, Read, FEATURES};
use xq_engine::eval::{tuned, TermWeights, TERM_TUNABLES};

const USAGE: &str =
    "usage: xq-texel [--min-ply N] [--min PERCENT] [--max PERCENT] [--out FILE] JOURNAL...";

/// What the command line asks for.
#[derive(Debug)]
struct Args {
    journals: Vec<PathBuf>,
    filter: Filter,
    min_percent: i32,
    max_percent: i32,
    out: Option<PathBuf>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args {
        journals: Vec::new(),
        filter: Filter { min_ply: 0 },
        // The knowledge of each term is kept: a weight may shrink, not vanish.
        min_percent: 25,
        max_percent: 400,
        out: None,
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

fn run(args: &Args) -> Result<(), String> {
    let mut read = Read::default();
    for path in &args.journals {
        samples::read_journal(path, args.filter, &mut read).map_err(|e| e.to_string())?;
    }
    let (train, check) = (&read.samples, &read.check);
    if train.len() < 1000 {
        return Err(format!(
            "{} positions from {} games are too few to fit {FEATURES} weights",
            train.len(),
            read.games
        ));
    }
    println!(
        "{} games ({} skipped), {} quiet positions: {} to fit, {} to check",
        read.games,
        read.skipped_games,
        train.len() + check.len(),
        train.len(),
        check.len()
    );
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
