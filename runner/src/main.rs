use std::process::ExitCode;

use clap::Parser;
use xq_runner::cli::{dispatch, Cli};

fn main() -> ExitCode {
    // Logs go to stderr; RUST_LOG=debug shows engine traffic (trace: every line).
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    ExitCode::from(dispatch(Cli::parse()))
}
