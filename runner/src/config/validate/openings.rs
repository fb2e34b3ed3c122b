//! `[openings]`: the file, its format, order, seed, first opening and plies.

use std::path::PathBuf;

use super::choice::choice;
use super::{defaults, problem, Files};
use crate::config::plan::{OpeningsPlan, Problem};
use crate::config::raw::RawOpenings;
use crate::openings::{BookFormat, Order};

/// The openings of a run with an `[openings]` section; `seed` is the tournament's, the
/// default of the random order's.
pub(super) fn openings(
    raw: Option<&RawOpenings>,
    seed: u64,
    files: Files,
) -> Result<Option<OpeningsPlan>, Problem> {
    let Some(o) = raw else {
        return Ok(None);
    };
    let file = o
        .file
        .as_ref()
        .ok_or_else(|| problem("openings.file", "missing: the opening file"))?;
    let path = PathBuf::from(file);
    if files == Files::OnDisk && !path.is_file() {
        let why = if path.exists() {
            "is not a regular file"
        } else {
            "not found"
        };
        return Err(problem(
            "openings.file",
            format!("opening file `{file}` {why}"),
        ));
    }
    let format = match o.format.as_deref() {
        None => BookFormat::of_path(&path),
        Some(name) => {
            let format = BookFormat::from_name(name).ok_or_else(|| {
                problem("openings.format", format!("`{name}`: expected epd or pgn"))
            })?;
            // A format given by hand that the file contradicts at its first line is a
            // slip of the key, not a thousand bad openings: blame the key.
            match BookFormat::sniff(&path) {
                Some(found) if found != format => {
                    let what = match found {
                        BookFormat::Epd => "a FEN",
                        BookFormat::Pgn => "a PGN tag",
                    };
                    return Err(problem(
                        "openings.format",
                        format!(
                            "`{name}`, but `{file}` is {found}: its first line is {what} (set {found}, or leave the key out)"
                        ),
                    ));
                }
                _ => format,
            }
        }
    };
    let order = choice(
        "openings.order",
        o.order.as_deref(),
        defaults::OPENINGS_ORDER,
        &[("sequential", Order::Sequential), ("random", Order::Random)],
        "sequential or random",
    )?;
    let start = match o.start {
        Some(0) => return Err(problem("openings.start", "openings are counted from 1")),
        Some(s) => s - 1,
        None => defaults::OPENINGS_START - 1,
    };
    Ok(Some(OpeningsPlan {
        path,
        format,
        plies: o.plies,
        order,
        seed: o.seed.unwrap_or(seed),
        start,
    }))
}
