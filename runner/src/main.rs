use std::process::ExitCode;

use clap::Parser;
use xq_runner::cli::{dispatch, fastchess, Cli};

fn main() -> ExitCode {
    // Logs go to stderr; RUST_LOG=debug shows engine traffic (trace: every line).
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    // fastchess's form (`xq-runner -engine cmd=... -rounds 500 ...`) has no subcommand.
    let words: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if fastchess::is_fastchess_form(&words) {
        return ExitCode::from(fastchess::run(&words));
    }
    ExitCode::from(dispatch(Cli::parse()))
}
