use std::process::ExitCode;

use clap::Parser;
use xq_runner::cli::{dispatch, Cli};

fn main() -> ExitCode {
    ExitCode::from(dispatch(Cli::parse()))
}
