//! `xq-runner stats`: Elo, nElo, LOS and the SPRT state from result counts.
//!
//! ```text
//! xq-runner stats --penta LL,LD,DD+WL,WD,WW | --wdl L,D,W
//!                 [--elo0 A --elo1 B --alpha a --beta b --model logistic|normalized] [--json]
//! ```
//! Prints fastchess's result block, or with `--json` one JSON object
//! ([`StatsReport`]); an undefined number (every estimate without games, a ratio of
//! 0/0) prints as `n/a` and is `null` in the JSON (docs/statistics.md). Exits 0 when the numbers were computed (whatever the
//! verdict: this command reports, it does not gate), 2 with one `error: ...`
//! line on stderr for bad counts or a bad SPRT design.

use clap::{ArgGroup, Args};

use crate::exit;
use crate::stats::{EloModel, Penta, Sprt, StatsReport, Wdl};

/// Arguments of `xq-runner stats`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("counts").required(true).multiple(true).args(["penta", "wdl"])))]
pub struct StatsArgs {
    /// Pair counts LL,LD,DD+WL,WD,WW (worst first); the statistics use these when given.
    #[arg(long, value_name = "LL,LD,DD+WL,WD,WW", allow_hyphen_values = true)]
    pub penta: Option<String>,
    /// Game counts L,D,W; alone for unpaired games, or beside --penta to fill in wins, losses, draws.
    #[arg(long, value_name = "L,D,W", allow_hyphen_values = true)]
    pub wdl: Option<String>,
    /// Elo under H0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo under H1.
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// False positive rate, in (0, 0.5).
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub alpha: f64,
    /// False negative rate, in (0, 0.5).
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub beta: f64,
    /// Elo model of the bounds: logistic or normalized.
    #[arg(long, default_value_t = EloModel::Normalized)]
    pub model: EloModel,
    /// Print one JSON object instead of the text block.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command: prints the report and returns the exit code.
#[must_use]
pub fn run(args: &StatsArgs) -> u8 {
    match report(args) {
        Ok(text) => {
            crate::stdout::line(text.trim_end_matches('\n'));
            exit::OK
        }
        Err(err) => {
            eprintln!("error: {err}");
            exit::USAGE
        }
    }
}

/// The output text (JSON or the block), or the reason for exit 2.
///
/// # Errors
/// Bad counts, a bad design, counts that disagree, or an LLR without a fit.
pub fn report(args: &StatsArgs) -> Result<String, String> {
    let penta = args
        .penta
        .as_deref()
        .map(str::parse::<Penta>)
        .transpose()
        .map_err(|e| format!("--penta: {e}"))?;
    let wdl = args
        .wdl
        .as_deref()
        .map(str::parse::<Wdl>)
        .transpose()
        .map_err(|e| format!("--wdl: {e}"))?;
    let sprt = Sprt::new(args.elo0, args.elo1, args.alpha, args.beta, args.model)
        .map_err(|e| e.to_string())?;
    let report = StatsReport::new(penta, wdl, &sprt).map_err(|e| e.to_string())?;
    if let Some(why) = &report.mismatch {
        eprintln!("warning: {why}; wins, losses and draws are shown as given");
    }
    if args.json {
        let mut text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        text.push('\n');
        Ok(text)
    } else {
        Ok(report.to_text())
    }
}
