//! The command line of `xq-runner`: one module per subcommand.
//!
//! Every subcommand returns an [`ExitCode`](std::process::ExitCode)-like
//! number following the contract in README: 0 finished, 1 H0 / regression,
//! 2 bad input, 3 no verdict, 4 aborted.

use clap::{Parser, Subcommand};

use crate::exit;

pub(crate) mod bisect;
pub(crate) mod cancel;
pub(crate) mod datagen;
mod datagen_pack;
pub(crate) mod db;
pub mod fastchess;
mod fleet_run;
pub(crate) mod judge;
pub(crate) mod merge;
pub(crate) mod openings;
pub(crate) mod openings_generate;
pub(crate) mod purge;
pub(crate) mod report;
pub(crate) mod resume;
pub(crate) mod run;
mod scaling;
pub(crate) mod serve;
pub(crate) mod stats;
pub(crate) mod status;
pub(crate) mod submit;
mod submit_tune;
pub(crate) mod tune;
pub(crate) mod verify;
pub(crate) mod worker;

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
    /// Continue (or, with more --pairs, extend) the run in an output folder, from the
    /// folder alone.
    Resume(resume::ResumeArgs),
    /// Elo, nElo, LOS and the SPRT state from pentanomial or trinomial counts.
    Stats(stats::StatsArgs),
    /// Judge a game with the rules judge: result, reason and ply.
    Judge(judge::JudgeArgs),
    /// Opening suites: `openings check <file>` finds every bad, finished or duplicate line;
    /// `openings generate` makes a balanced suite with an engine.
    Openings(openings::OpeningsArgs),
    /// Write report.html and summary.md (CI job summary) for the run in an output folder;
    /// with --db ID --out DIR, write a stored run as a run folder.
    Report(report::ReportArgs),
    /// Store a run in the database for workers on many machines; prints its id.
    Submit(submit::SubmitArgs),
    /// Play batches of the runs in the database until none is left (--wait: until a signal).
    Worker(worker::WorkerArgs),
    /// The runs in the database, or one run's state (--json for tools).
    Status(status::StatusArgs),
    /// Cancel a run in the database.
    Cancel(cancel::CancelArgs),
    /// Replay every stored game of a run with the rules judge: the games whose recorded
    /// ending does not follow from their moves, by worker.
    Verify(verify::VerifyArgs),
    /// Remove a worker's games from a run and hand their pairs out again (the owner's;
    /// --auto: the workers whose results do not fit the rest, as fishtest purges).
    Purge(purge::PurgeArgs),
    /// The database schema: `db init [--worker-role ROLE] [--reader-role ROLE]`.
    Db(db::DbArgs),
    /// The runs in the database as live web pages, read-only (as a `--reader-role`).
    Serve(serve::ServeArgs),
    /// Combine the folders of a run's shards (`run --shard I/N`) into one run folder.
    Merge(merge::MergeArgs),
    /// Tune engine options with SPSA (fishtest's): a config with a [tune] section.
    Tune(tune::TuneArgs),
    /// Find the first build of a series that plays worse than the first, by SPRTs
    /// (`resume DIR` continues it).
    Bisect(bisect::BisectArgs),
    /// Self-play training data: games with each move's score and the result, in the
    /// folder's ledger (a config with a [datagen] table; docs/nnue.md); `datagen pack`
    /// adds them to a data folder as a compressed chunk.
    Datagen(datagen::DatagenArgs),
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

/// The database a command names (`--db`, else `XQ_DB` or libpq's variables) and a
/// runtime to talk to it; on failure the error is printed and the exit code returned.
fn database(db: Option<&str>) -> Result<(crate::store::pg::Target, tokio::runtime::Runtime), u8> {
    let target = crate::store::pg::resolve(db).map_err(|e| {
        eprintln!("error: {e}");
        exit::USAGE
    })?;
    let runtime = async_runtime().ok_or(exit::ABORTED)?;
    Ok((target, runtime))
}

/// Runs the parsed command and returns the process exit code.
pub fn dispatch(cli: Cli) -> u8 {
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Resume(args) => resume::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Judge(args) => judge::run(&args),
        Command::Openings(args) => openings::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Submit(args) => submit::run(&args),
        Command::Worker(args) => worker::run(&args),
        Command::Status(args) => status::run(&args),
        Command::Cancel(args) => cancel::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Purge(args) => purge::run(&args),
        Command::Db(args) => db::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Bisect(args) => bisect::run(&args),
        Command::Datagen(args) => datagen::run(&args),
    }
}
