//! `xq-runner openings ...`: tools for opening suites.
//!
//! ```text
//! xq-runner openings check <file>
//! xq-runner openings generate --count N --engine <cmd> -o <file> [options]
//! ```
//! `check` streams the file (EPD, or PGN by its `.pgn` extension or `--format pgn`) and
//! prints one line per problem, `file:line: what`, then `N openings, M problems`. Exit 0 when there is no problem, 2 when there
//! is one or the file cannot be read.
//!
//! `generate` makes a balanced suite with an engine (see
//! [`super::openings_generate`]).

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::exit;
use crate::openings::{check_book, BookFormat};

/// Arguments of `xq-runner openings`.
#[derive(Debug, Args)]
pub struct OpeningsArgs {
    #[command(subcommand)]
    pub command: OpeningsCommand,
}

/// The `openings` tools.
#[derive(Debug, Subcommand)]
pub enum OpeningsCommand {
    /// Check a suite: every line parses, every move is legal, no game is already
    /// over, no duplicates (mirror images included). Exit 2 on any problem.
    Check(CheckArgs),
    /// Generate a balanced suite with an engine: sampled lines whose final position
    /// the engine scores within ±max-score, no duplicates or mirror images.
    Generate(super::openings_generate::GenerateArgs),
}

/// Arguments of `xq-runner openings check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The opening file (`.epd`: FEN [moves ...] [; key "value" ...] per line; `.pgn`:
    /// games in ICCS or WXF moves).
    pub file: PathBuf,
    /// `epd` or `pgn`; default: by the file's extension.
    #[arg(long)]
    pub format: Option<String>,
}

/// Runs an `openings` tool and returns the exit code.
#[must_use]
pub fn run(args: &OpeningsArgs) -> u8 {
    match &args.command {
        OpeningsCommand::Check(check) => run_check(check),
        OpeningsCommand::Generate(generate) => super::openings_generate::run(generate),
    }
}

fn run_check(args: &CheckArgs) -> u8 {
    let name = args.file.display();
    let format = match args.format.as_deref() {
        None => BookFormat::of_path(&args.file),
        Some(f) => match BookFormat::from_name(f) {
            Some(format) => format,
            None => {
                eprintln!("error: --format {f}: expected epd or pgn");
                return exit::USAGE;
            }
        },
    };
    let file = match File::open(&args.file) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            return exit::USAGE;
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = check_book(BufReader::new(file), format, |problem| {
        // A closed stdout must not stop the check; the exit code still tells.
        let _ = writeln!(out, "{name}:{}: {}", problem.line, problem.kind);
    });
    match result {
        Ok(summary) => {
            let _ = writeln!(
                out,
                "{} openings, {} problems",
                summary.openings, summary.problems
            );
            let _ = out.flush();
            if summary.problems == 0 {
                exit::OK
            } else {
                exit::USAGE
            }
        }
        Err(e) => {
            let _ = out.flush();
            eprintln!("error: cannot read {name}: {e}");
            exit::USAGE
        }
    }
}
