//! The folders under a served folder that are more than one run: a bisection (its
//! `bisect.json` and a run folder per step), a scaling run (its `scaling-plan.json` and
//! a run folder per setting) and a datagen folder (its `datagen-run.json` and ledger).
//! Each is one entry of the runs page, not its steps or points one by one; a bisection
//! and a scaling run have a page of their own (`/groups/{path}`), whose links lead into
//! the steps and points (still served at `/runs/{path}`).

use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;

use crate::bisect::state::STATE_FILE;
use crate::plain_file;
use crate::scaling::folder::PLAN_FILE;
use crate::store::folder::{DATAGEN_LEDGER, DATAGEN_RUN};

/// How deep groups are looked for, as run folders are.
const DEPTH: usize = 3;

/// What kind of group a folder is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    Bisection,
    Scaling,
    Datagen,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Bisection => "bisection",
            Kind::Scaling => "scaling",
            Kind::Datagen => "datagen",
        }
    }
}

/// The kind of group `dir` is, by its record (a plain file: a link to a record
/// elsewhere does not count); `None` for any other folder.
pub(crate) fn kind_of(dir: &Path) -> Option<Kind> {
    if plain_file::is_plain(&dir.join(STATE_FILE)) {
        Some(Kind::Bisection)
    } else if plain_file::is_plain(&dir.join(PLAN_FILE)) {
        Some(Kind::Scaling)
    } else if plain_file::is_plain(&dir.join(DATAGEN_RUN)) {
        Some(Kind::Datagen)
    } else {
        None
    }
}

/// The groups under `root`: their paths (`/`-separated) and kinds, by path. A group's
/// own folders are not looked into (its steps are its).
pub(crate) fn groups(root: &Path) -> Vec<(String, Kind)> {
    let mut out = Vec::new();
    find(root, "", DEPTH, &mut out);
    out
}

/// The folders in `dir` a listing looks into, by name: visible ones (not `.git` and the
/// like) whose names are text, sorted; none when `dir` cannot be read.
pub(crate) fn sub_folders(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

fn find(dir: &Path, prefix: &str, depth: usize, out: &mut Vec<(String, Kind)>) {
    for name in sub_folders(dir) {
        let id = format!("{prefix}{name}");
        let path = dir.join(&name);
        match kind_of(&path) {
            Some(kind) => out.push((id, kind)),
            None if depth > 1 => find(&path, &format!("{id}/"), depth - 1, out),
            None => {}
        }
    }
}

/// What the runs page says of a datagen folder: the positions written of those asked
/// for, its games, and the rate over its life (its first file to its ledger's last
/// line).
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct DatagenSummary {
    pub positions: u64,
    pub target: u64,
    pub games: u64,
    pub positions_per_s: Option<f64>,
}

/// The summary of datagen folder `dir`; `Err` with why it does not read.
pub(crate) fn datagen_summary(dir: &Path) -> Result<DatagenSummary, String> {
    let meta = crate::datagen::folder::read(dir)?;
    let ledger = dir.join(DATAGEN_LEDGER);
    let lines = match crate::datagen::ledger::read_lines(&ledger) {
        Ok(lines) => lines,
        Err(_) if !ledger.exists() => Vec::new(),
        Err(e) => return Err(e.to_string()),
    };
    let positions: u64 = lines.iter().map(|l| l.positions).sum();
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let span = match (modified(&dir.join(DATAGEN_RUN)), modified(&ledger)) {
        (Some(first), Some(last)) => last.duration_since(first).ok(),
        _ => None,
    };
    Ok(DatagenSummary {
        positions,
        target: meta.positions,
        games: lines.len() as u64,
        positions_per_s: span
            .map(|d| d.as_secs_f64())
            .filter(|s| *s > 0.0)
            .map(|s| positions as f64 / s),
    })
}

/// Seconds since `path` was written; NaN when unknown.
pub(crate) fn age_of(path: &Path) -> f64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .map_or(f64::NAN, |d| d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_found_by_their_record_and_not_looked_into() {
        let root = tempfile::tempdir().expect("temp dir");
        let at = |p: &str, file: &str| {
            let dir = root.path().join(p);
            std::fs::create_dir_all(&dir).expect("mkdir");
            std::fs::write(dir.join(file), "{}").expect("write");
        };
        at("b", STATE_FILE);
        at("b/step-1", STATE_FILE);
        at("deep/s", PLAN_FILE);
        at("d", DATAGEN_RUN);
        at("plain", "run.json");
        assert_eq!(
            groups(root.path()),
            [
                ("b".to_owned(), Kind::Bisection),
                ("d".to_owned(), Kind::Datagen),
                ("deep/s".to_owned(), Kind::Scaling),
            ]
        );
    }
}
