//! `xq-runner report <output-dir>`: writes `report.html` and `summary.md` into the output
//! folder of a run (finished, interrupted or still going) from its files alone.

use std::path::PathBuf;

use clap::Args;

use super::exit;
use crate::output::report::write_report;

/// Arguments of `report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The output folder of a run (the one holding run.json and games.jsonl).
    pub dir: PathBuf,
}

/// Runs `report`: 0 when both files are written, 2 when the folder holds no readable run.
#[must_use]
pub fn run(args: &ReportArgs) -> u8 {
    match write_report(&args.dir) {
        Ok(files) => {
            println!("{}", files.html.display());
            println!("{}", files.markdown.display());
            exit::OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            exit::USAGE
        }
    }
}
