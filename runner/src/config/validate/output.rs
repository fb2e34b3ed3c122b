//! `[output]`: the folder, the result block's interval, the PGN's format, extras and
//! second file.

use std::path::PathBuf;

use super::choice::choice;
use super::{defaults, problem};
use crate::config::plan::{OutputPlan, PgnOut, Problem};
use crate::config::raw::RawOutput;
use crate::config::MoveFormat;
use crate::config::PgnExtras;

/// The outputs; `default_dir` when the config names no folder.
pub(super) fn output(raw: &RawOutput, default_dir: &str) -> Result<OutputPlan, Problem> {
    let pgn_format = choice(
        "output.pgn_format",
        raw.pgn_format.as_deref(),
        defaults::PGN_FORMAT,
        &[("iccs", MoveFormat::Iccs), ("wxf", MoveFormat::Wxf)],
        "iccs or wxf",
    )?;
    let dir = raw.dir.clone().unwrap_or_else(|| default_dir.to_owned());
    if dir.trim().is_empty() {
        return Err(problem(
            "output.dir",
            "empty: name the folder for the results",
        ));
    }
    let pgnout = match raw.pgnout.as_deref() {
        None => None,
        Some(p) if p.trim().is_empty() => {
            return Err(problem(
                "output.pgnout",
                "empty: name the file, or leave the key out",
            ))
        }
        Some(p) => {
            let path = PathBuf::from(p);
            if path.is_dir() {
                return Err(problem(
                    "output.pgnout",
                    format!("`{p}` is a folder, not a file"),
                ));
            }
            Some(PgnOut {
                path,
                append: raw.pgnout_append.unwrap_or(defaults::PGNOUT_APPEND),
            })
        }
    };
    Ok(OutputPlan {
        dir: PathBuf::from(dir),
        report_interval: match raw.report_interval.unwrap_or(defaults::REPORT_INTERVAL) {
            0 => u64::MAX,
            n => n,
        },
        pgn_format,
        pgn_extras: PgnExtras {
            nodes: raw.pgn_nodes.unwrap_or(defaults::PGN_EXTRAS),
            seldepth: raw.pgn_seldepth.unwrap_or(defaults::PGN_EXTRAS),
            nps: raw.pgn_nps.unwrap_or(defaults::PGN_EXTRAS),
        },
        pgnout,
    })
}
