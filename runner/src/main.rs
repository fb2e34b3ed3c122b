use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use xq_runner::cli::{dispatch, fastchess, Cli};

fn main() -> ExitCode {
    // Logs go to stderr, `warn` unless RUST_LOG says otherwise: warn = what needs a
    // look (a stale answer ignored, an over-long line, leftovers killed); info = engine
    // processes started and ended, signals; debug = engine stderr and `id name`; trace =
    // every line to and from every engine. Colour only on a terminal.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .init();
    xq_runner::signals::survive_file_size_limit();
    // fastchess's form (`xq-runner -engine cmd=... -rounds 500 ...`) has no subcommand.
    let words: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if fastchess::is_fastchess_form(&words) {
        return ExitCode::from(fastchess::run(&words));
    }
    ExitCode::from(dispatch(Cli::parse()))
}
