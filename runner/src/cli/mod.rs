//! The command line of `xq-runner`: one module per subcommand.
//!
//! Every subcommand returns an [`ExitCode`](std::process::ExitCode)-like
//! number following the contract in README: 0 finished, 1 H0 / regression,
//! 2 bad input, 3 no verdict, 4 aborted.

use clap::{Parser, Subcommand};

pub mod fastchess;
pub mod judge;
pub mod openings;
pub mod openings_generate;
mod pgnout;
pub mod report;
pub mod run;
pub mod stats;

/// Command-line interface of `xq-runner`.
#[derive(Debug, Parser)]
#[command(
    name = "xq-runner",
    version,
    about = "Tournament and regression harness for Xiangqi engines",
    after_help = "fastchess's command line works too, with its meanings and defaults:\n  \
        xq-runner -engine cmd=./new -engine cmd=./base -each tc=10+0.1 -rounds 500 -repeat ...\n  \
        (`xq-runner -help` lists its flags; --print-config prints the TOML it amounts to;\n  \
        docs/fastchess-flags.md has the table of flags and config keys)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a run: a match, gauntlet or round robin from a TOML config (default: the
    /// embedded configs/quick.toml).
    Run(run::RunArgs),
    /// Elo, nElo, LOS and the SPRT state from pentanomial or trinomial counts.
    Stats(stats::StatsArgs),
    /// Judge a game with the rules judge: result, reason and ply.
    Judge(judge::JudgeArgs),
    /// Opening suites: `openings check <file>` finds every bad, finished or duplicate line;
    /// `openings generate` makes a balanced suite with an engine.
    Openings(openings::OpeningsArgs),
    /// Write report.html and summary.md (CI job summary) for the run in an output folder.
    Report(report::ReportArgs),
}

/// Exit codes shared by every subcommand (see README, "Exit codes").
pub mod exit {
    /// Finished; for SPRT: H1 accepted.
    pub const OK: u8 = 0;
    /// SPRT H0 accepted, or the regression gate failed.
    pub const H0: u8 = 1;
    /// Bad config or usage; nothing was started.
    pub const USAGE: u8 = 2;
    /// Finished without a verdict.
    pub const NO_VERDICT: u8 = 3;
    /// Aborted: too many engine faults, or interrupted.
    pub const ABORTED: u8 = 4;
}

/// The multi-threaded tokio runtime of the commands that drive engines; `None` (after a
/// one-line error) when the system cannot start it.
fn async_runtime() -> Option<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| eprintln!("error: cannot start the async runtime: {e}"))
        .ok()
}

/// Runs the parsed command and returns the process exit code.
pub fn dispatch(cli: Cli) -> u8 {
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Judge(args) => judge::run(&args),
        Command::Openings(args) => openings::run(&args),
        Command::Report(args) => report::run(&args),
    }
}
