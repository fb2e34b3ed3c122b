//! Plays a scaling run: each point a local run through `local_run::run`, as `run` plays
//! one (its own folder, journal, SPRT, result block). In turn, each point to its end;
//! interleaved, in rounds of `concurrency` pairs per point, each round extending every
//! point not yet done (an extension is a resume with more pairs, so the games of a point
//! are those of its match alone). The results are written after every session.

use std::path::Path;

use super::config::{Point, ScalingPlan};
use super::estimate;
use super::folder::{self, ScalingError, StoredPlan};
use super::report::{page, REPORT_HTML};
use super::results::{collect, has_verdict, table, RESULTS_FILE};
use crate::exit;
use crate::local_run::{Part, Start};
use crate::store::folder::FolderUse;

/// How the scaling folder is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    New,
    Resume,
}

/// The estimate lines printed before anything plays (and by `--dry-run`).
#[must_use]
pub fn estimate_lines(plan: &ScalingPlan) -> Vec<String> {
    let mut lines = vec![format!(
        "scaling: {} settings of {}, {}; folder {}",
        plan.points.len(),
        plan.kind.key(),
        if plan.interleave {
            "interleaved"
        } else {
            "in turn"
        },
        plan.root.display()
    )];
    let mut total = Some(0.0);
    for p in &plan.points {
        let games = p.loaded.plan.pairs * p.loaded.plan.pairings.len() as u64 * 2;
        let time = estimate::point_seconds(&p.loaded.plan);
        total = total.zip(time).map(|(a, b)| a + b);
        lines.push(format!(
            "  {:<16} {games} games at most, {} -> {}",
            p.label,
            time.map_or_else(
                || "time not estimated (no clock)".to_owned(),
                |t| format!("about {}", estimate::words(t))
            ),
            p.loaded.plan.output.dir.display()
        ));
    }
    lines.push(match total {
        Some(t) => format!(
            "  total: about {} at most (a clock used in full, {} plies a game, concurrency {})",
            estimate::words(t),
            estimate::PLIES,
            plan.points.first().map_or(1, |p| p.loaded.plan.concurrency)
        ),
        None => "  total: not estimated (fixed depth or nodes: no clock to go by)".to_owned(),
    });
    lines
}

/// Writes `scaling.json` and `report.html` from the points' folders.
pub(crate) fn write_results(plan: &ScalingPlan) -> Result<super::results::Results, ScalingError> {
    let results = collect(plan);
    let root = &plan.root;
    let failed = |e: std::io::Error| ScalingError::Folder {
        dir: root.clone(),
        why: format!("cannot write the results: {e}"),
    };
    let json = serde_json::to_string_pretty(&results).map_err(|e| ScalingError::Folder {
        dir: root.clone(),
        why: e.to_string(),
    })?;
    crate::atomic_file::write(&root.join(RESULTS_FILE), json.as_bytes()).map_err(failed)?;
    crate::atomic_file::write(&root.join(REPORT_HTML), page(&results).as_bytes())
        .map_err(failed)?;
    Ok(results)
}

/// One session of a point with at most `pairs` pairs: its exit code. `earlier` says
/// whether the point's games so far are an earlier session's (a resume of the scaling
/// run), rather than this session's last round (an extension, not a resume).
fn session(
    runtime: &tokio::runtime::Runtime,
    point: &Point,
    pairs: u64,
    number: (usize, usize),
    earlier: bool,
) -> Result<u8, ScalingError> {
    let dir = &point.loaded.plan.output.dir;
    folder::clear_unstarted(dir)?;
    let mut loaded = point.loaded.clone();
    let (_, bound) = folder::progress(dir)?;
    // Never fewer pairs than the journal holds: its games are the run's.
    loaded.plan.pairs = pairs.max(bound);
    crate::stdout::line(format_args!(
        "Scaling point {} of {}: {} ({} pairs of {})",
        number.0, number.1, point.label, loaded.plan.pairs, point.loaded.plan.pairs
    ));
    let start = Start {
        folder: if folder::started(dir) {
            FolderUse::Resume
        } else {
            FolderUse::New
        },
        shard: None,
        // The scaling run says how to resume it: a point's own folder is not the one.
        part: if earlier { Part::Of } else { Part::Extended },
    };
    Ok(runtime.block_on(crate::local_run::run(&loaded, start))?)
}

/// The worst of the points' ends: 4 aborted, else 1 (H0 or a failed gate), else 3 (no
/// verdict), else 0.
fn combined(codes: &[u8]) -> u8 {
    for code in [exit::ABORTED, exit::H0, exit::NO_VERDICT] {
        if codes.contains(&code) {
            return code;
        }
    }
    exit::OK
}

/// Plays (or resumes) a scaling run and returns its exit code.
///
/// # Errors
/// [`ScalingError`] when the run cannot start or a point cannot (nothing of that point
/// has been played then).
pub fn play(plan: &ScalingPlan, mode: Mode) -> Result<u8, ScalingError> {
    let root = &plan.root;
    let stored = StoredPlan::of(plan);
    match mode {
        Mode::New => folder::check_new(root)?,
        Mode::Resume => {
            let was = StoredPlan::read(root)?;
            let differs = was.differences(&stored);
            if !differs.is_empty() {
                return Err(ScalingError::Folder {
                    dir: root.clone(),
                    why: format!(
                        "the config differs from the one the scaling run started with in {}: resume with `xq-runner resume {}`",
                        differs.join(", "),
                        root.display()
                    ),
                });
            }
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ScalingError::Runtime)?;
    let _lock = folder::lock(root)?;
    if mode == Mode::New {
        stored.write(root)?;
    }
    for line in estimate_lines(plan) {
        crate::stdout::line(line);
    }
    let n = plan.points.len();
    let mut codes = vec![exit::OK; n];
    let chunk = if plan.interleave {
        plan.points
            .first()
            .map_or(1, |p| p.loaded.plan.concurrency.max(1) as u64)
    } else {
        u64::MAX
    };
    let mut done = vec![false; n];
    // The points played in this session: their next round extends them.
    let mut played_here = vec![false; n];
    let mut round: u64 = 1;
    while done.iter().any(|d| !d) {
        for (i, point) in plan.points.iter().enumerate() {
            if done[i] {
                continue;
            }
            let full = point.loaded.plan.pairs;
            let target = round.saturating_mul(chunk).min(full);
            let dir = &point.loaded.plan.output.dir;
            let (complete, _) = folder::progress(dir)?;
            if complete >= target && target < full && !has_verdict(dir) {
                // Played this far in an earlier session: on to the next point.
                continue;
            }
            let code = session(&runtime, point, target, (i + 1, n), !played_here[i])?;
            played_here[i] = true;
            codes[i] = code;
            if code == exit::ABORTED {
                write_results(plan)?;
                crate::stdout::line(format_args!(
                    "Scaling run stopped at {}. Resume with: xq-runner resume {}",
                    point.label,
                    root.display()
                ));
                return Ok(code);
            }
            done[i] = target >= full || has_verdict(dir);
            write_results(plan)?;
        }
        round += 1;
    }
    let results = write_results(plan)?;
    crate::stdout::line(format_args!(
        "Scaling over {} ({}):",
        plan.kind.key(),
        root.display()
    ));
    crate::stdout::line(table(&results).trim_end());
    crate::stdout::line(format_args!(
        "Results: {}, {}",
        root.join(RESULTS_FILE).display(),
        root.join(REPORT_HTML).display()
    ));
    Ok(combined(&codes))
}

/// `xq-runner report DIR` of a scaling folder: each started point's `report.html` and
/// `summary.md` written again from its folder, then `scaling.json` and the scaling
/// `report.html`; the files written, the scaling page first.
///
/// # Errors
/// [`ScalingError`]: a damaged plan, a point's report or a file that cannot be written.
pub fn rewrite(root: &Path) -> Result<Vec<std::path::PathBuf>, ScalingError> {
    let plan = StoredPlan::read(root)?.restore(root, &[])?;
    let mut points = Vec::new();
    for point in &plan.points {
        let dir = &point.loaded.plan.output.dir;
        if folder::started(dir) {
            // A point's journal that its resume would refuse is not reported on.
            crate::local_run::folder_check::journal_fits(dir)?;
            let files =
                crate::output::report::write_report(dir).map_err(|e| ScalingError::Folder {
                    dir: dir.clone(),
                    why: e.to_string(),
                })?;
            points.push(files.html);
        }
    }
    write_results(&plan)?;
    let mut written = vec![root.join(REPORT_HTML), root.join(RESULTS_FILE)];
    written.extend(points);
    Ok(written)
}

/// Whether a folder holds a scaling run (for `resume`).
#[must_use]
pub fn is_scaling_folder(dir: &Path) -> bool {
    StoredPlan::is_in(dir)
}
