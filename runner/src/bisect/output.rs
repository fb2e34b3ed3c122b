//! What a bisection shows: a progress line before and after each step, and
//! `bisect.md` (the steps as a table, the first bad build, the error rate), written
//! beside `bisect.json` after every step.

use std::fmt::Write as _;
use std::path::Path;

use super::search::{self, Next};
use super::state::{State, Status, Step};
use super::BisectError;

/// The markdown file of a bisection's folder.
pub const MARKDOWN_FILE: &str = "bisect.md";

/// `a..=b` as the builds that may still be the first bad one.
fn range_text(good: usize, bad: usize) -> String {
    if bad == good + 1 {
        format!("build {bad}")
    } else {
        format!("builds {}..{bad} ({} left)", good + 1, bad - good)
    }
}

/// The line printed before a step.
#[must_use]
pub fn before(state: &State, build: usize) -> String {
    let step = state.steps.len();
    let last = state.builds.len() - 1;
    let label = state.builds[build].label(build);
    if step == 0 {
        return format!(
            "bisect step 0: build {label} against build 0, to confirm that the bad end is worse (nElo [-{}, 0], about {} SPRTs in all)",
            state.design.elo,
            search::planned_steps(last)
        );
    }
    let (good, bad) = search::range(last, &state.findings());
    format!(
        "bisect step {step}: build {label} against build 0; the first bad one is among {}",
        range_text(good, bad)
    )
}

/// The line printed after a step.
#[must_use]
pub fn after(state: &State, step: &Step) -> String {
    let last = state.builds.len() - 1;
    let rest = if step.step == 0 {
        if step.verdict == super::state::Verdict::AsGood {
            "the bad end is not worse".to_owned()
        } else {
            format!("the first bad one is among {}", range_text(0, last))
        }
    } else {
        let (good, bad) = search::range(last, &state.findings());
        format!("the first bad one is among {}", range_text(good, bad))
    };
    format!(
        "bisect step {}: build {} is {}{} after {} games: nElo {:.1} +/- {:.1}, LLR {:.2} ({:.2}, {:.2}); {rest}",
        step.step,
        step.build,
        step.verdict.name(),
        if step.truncated { " (no SPRT verdict: the sign of the LLR)" } else { "" },
        step.games,
        step.nelo,
        step.nelo_ci95,
        step.llr,
        step.llr_lower,
        step.llr_upper,
    )
}

/// The chance that the chain of verdicts is wrong: `1 - prod(1 - e_i)`, none when a
/// step has no known error rate.
#[must_use]
pub fn chain_error(state: &State) -> Option<f64> {
    state
        .steps
        .iter()
        .map(|s| s.error_rate(&state.design))
        .try_fold(1.0, |right, e| e.map(|e| right * (1.0 - e)))
        .map(|right| 1.0 - right)
}

/// The closing line of a finished bisection.
#[must_use]
pub fn result_line(state: &State, next: &Next) -> String {
    let games: u64 = state.steps.iter().map(|s| s.games).sum();
    let sprts = state.steps.len();
    let error = chain_error(state).map_or_else(
        || "unknown (a step ended without an SPRT verdict)".to_owned(),
        |p| format!("at most {:.1}%", 100.0 * p),
    );
    match next {
        Next::Found {
            first_bad,
            untested,
        } => {
            let mut line = format!(
                "bisect: the first bad build is {} ({sprts} SPRTs, {games} games; the chance that a verdict of the chain is wrong: {error})",
                state.builds[*first_bad].label(*first_bad)
            );
            if !untested.is_empty() {
                let list: Vec<String> = untested.iter().map(ToString::to_string).collect();
                let _ = write!(
                    line,
                    "; builds {} did not build and may be the first bad one instead",
                    list.join(", ")
                );
            }
            line
        }
        Next::NotWorse => format!(
            "bisect: the bad end (build {}) is not worse than build 0 (nElo [-{}, 0]): nothing to bisect",
            state.builds.len() - 1,
            state.design.elo
        ),
        Next::Test(_) => "bisect: not finished".to_owned(),
    }
}

/// `bisect.md`: the settings, the steps, the result and its error rate.
#[must_use]
pub fn markdown(state: &State, next: &Next) -> String {
    let d = &state.design;
    let mut md = String::new();
    let _ = writeln!(md, "# Bisection\n");
    let _ = writeln!(
        md,
        "{} builds, oldest first; config `{}`; each step an SPRT of the tested build against build 0, nElo [-{}, 0], alpha {}, beta {}.\n",
        state.builds.len(),
        state.config_file,
        d.elo,
        d.alpha,
        d.beta
    );
    let _ = writeln!(
        md,
        "| step | build | commit | games | Elo | nElo | LLR | verdict | error rate | folder |"
    );
    let _ = writeln!(md, "|---:|---|---|---:|---:|---:|---:|---|---:|---|");
    for s in &state.steps {
        let build = &state.builds[s.build];
        let commit = match (&build.commit, &build.subject) {
            (Some(c), Some(subject)) => {
                format!(
                    "`{}` {}",
                    super::state::short(c),
                    subject.replace('|', "\\|")
                )
            }
            _ => String::new(),
        };
        let error = s
            .error_rate(d)
            .map_or_else(|| "n/a".to_owned(), |e| format!("{e}"));
        let run = s.run.map(|id| format!(" (run {id})")).unwrap_or_default();
        let _ = writeln!(
            md,
            "| {} | {} | {commit} | {} | {:.1} ± {:.1} | {:.1} ± {:.1} | {:.2} ({:.2}, {:.2}) | {}{} | {error} | [{}]({}/report.html){run} |",
            s.step,
            s.build,
            s.games,
            s.elo,
            s.elo_ci95,
            s.nelo,
            s.nelo_ci95,
            s.llr,
            s.llr_lower,
            s.llr_upper,
            s.verdict.name(),
            if s.truncated { " (truncated)" } else { "" },
            s.dir,
            s.dir
        );
    }
    if !state.skipped.is_empty() {
        let list: Vec<String> = state.skipped.iter().map(ToString::to_string).collect();
        let _ = writeln!(md, "\nSkipped (did not build): builds {}.", list.join(", "));
    }
    let _ = writeln!(md);
    match state.status {
        Status::Running => {
            let _ = writeln!(
                md,
                "Not finished: `xq-runner resume` of this folder goes on."
            );
        }
        Status::Found | Status::NotWorse => {
            let _ = writeln!(
                md,
                "**{}**",
                result_line(state, next).trim_start_matches("bisect: ")
            );
        }
    }
    let _ = writeln!(
        md,
        "\nError rate: a step that says \"as good\" is wrong with chance alpha when the build is worse by {} nElo or more, a step that says \"worse\" with chance beta when the build is not worse; the chain is right only when every step is, so it is wrong with chance at most 1 - prod(1 - e_i) over its steps (about the sum for small rates).",
        d.elo
    );
    md
}

/// Writes `bisect.md` whole.
///
/// # Errors
/// [`BisectError::Write`].
pub fn write_markdown(dir: &Path, state: &State, next: &Next) -> Result<(), BisectError> {
    let path = dir.join(MARKDOWN_FILE);
    crate::atomic_file::write(&path, markdown(state, next).as_bytes()).map_err(|e| {
        BisectError::Write {
            path,
            why: e.to_string(),
        }
    })
}
