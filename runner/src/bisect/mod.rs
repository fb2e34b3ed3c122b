//! `xq-runner bisect`: which build of a series lost strength. Each step is an SPRT of
//! a build against the good one (nElo `[-X, 0]`), played as an ordinary run in a
//! folder of its own; the search halves the range at each step.
//!
//! | file | what |
//! |---|---|
//! | `search.rs` | the search: the next build to test, from the verdicts so far |
//! | `state.rs` | `bisect.json`: the builds, the settings, the steps, the result |
//! | `builds.rs` | a series given as programs (`--builds`, `--builds-file`) |
//! | `git.rs` | a series from git: commits built once each in worktrees under a cache |
//! | `config.rs` | the steps' run configs, made from the user's |
//! | `output.rs` | progress lines and `bisect.md` |
//! | `fleet.rs` | `--db`: each step a run of the database, played by its workers |
//!
//! The steps are played by a [`Player`] the command line gives: the same code as
//! `xq-runner run` for a new step and `xq-runner resume` for a step in progress, so a
//! step is a run like any other (its folder resumable, its report written). With
//! `--db` each step is stored as a run, as `submit` stores one, and its folder written
//! from the database when the workers are done, as `report --db` writes one.

pub mod builds;
pub mod config;
pub mod fleet;
pub mod git;
pub mod output;
pub mod search;
pub mod state;

use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

use crate::config::{ConfigError, Loaded};
use crate::exit;
use search::Next;
use state::{State, Status, Step, Verdict};

/// Why a bisection cannot start or go on.
#[derive(Debug, Error)]
pub enum BisectError {
    /// Bad flags, builds, range or config: nothing was played.
    #[error("{0}")]
    Input(String),
    #[error(transparent)]
    Config(ConfigError),
    #[error("{}: {why}", .path.display())]
    State { path: PathBuf, why: String },
    #[error("cannot write {}: {why}", .path.display())]
    Write { path: PathBuf, why: String },
    #[error("cannot build commit {commit}: {why}")]
    Build { commit: String, why: String },
    /// The database of a bisection with `--db`.
    #[error("the database: {0}")]
    Fleet(String),
    #[error("step {step}: cannot read its result {}: {why}", .path.display())]
    Summary {
        step: usize,
        path: PathBuf,
        why: String,
    },
}

impl BisectError {
    /// 2 for bad input (nothing played), 4 otherwise.
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            BisectError::Input(_) | BisectError::Config(_) | BisectError::State { .. } => {
                exit::USAGE
            }
            _ => exit::ABORTED,
        }
    }
}

/// Plays the runs of the steps.
pub trait Player {
    /// Plays a new run (as `xq-runner run` does); its exit code.
    fn play(&mut self, loaded: &Loaded) -> u8;
    /// Continues the run in a folder (as `xq-runner resume` does); its exit code.
    fn resume(&mut self, dir: &Path) -> u8;
}

/// The part of a step's `summary.json` the bisection reads.
#[derive(Debug, Deserialize)]
struct StepSummary {
    games: u64,
    elo: Option<f64>,
    elo_ci95: Option<f64>,
    nelo: Option<f64>,
    nelo_ci95: Option<f64>,
    llr: Option<f64>,
    llr_lower: Option<f64>,
    llr_upper: Option<f64>,
    verdict: Option<crate::stats::Verdict>,
}

/// The result of the step played into `dir`.
fn read_step(number: usize, build: usize, dir: &Path, name: &str) -> Result<Step, BisectError> {
    let path = dir.join("summary.json");
    let bad = |why: String| BisectError::Summary {
        step: number,
        path: path.clone(),
        why,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let s: StepSummary = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let llr = s.llr.ok_or_else(|| bad("no LLR (no SPRT?)".to_owned()))?;
    let (verdict, truncated) = match s.verdict {
        Some(crate::stats::Verdict::H1) => (Verdict::AsGood, false),
        Some(crate::stats::Verdict::H0) => (Verdict::Worse, false),
        _ if llr >= 0.0 => (Verdict::AsGood, true),
        _ => (Verdict::Worse, true),
    };
    let nan = f64::NAN;
    Ok(Step {
        step: number,
        build,
        dir: name.to_owned(),
        games: s.games,
        elo: s.elo.unwrap_or(nan),
        elo_ci95: s.elo_ci95.unwrap_or(nan),
        nelo: s.nelo.unwrap_or(nan),
        nelo_ci95: s.nelo_ci95.unwrap_or(nan),
        llr,
        llr_lower: s.llr_lower.unwrap_or(nan),
        llr_upper: s.llr_upper.unwrap_or(nan),
        verdict,
        truncated,
        wall_s: 0.0,
        between_s: None,
        run: None,
    })
}

/// The folder of step `n`, relative to the bisection's.
#[must_use]
pub fn step_folder(n: usize) -> String {
    format!("step-{n:02}")
}

/// Makes sure a build of a git series is built; `Ok(false)` when it does not build.
fn built(state: &State, index: usize) -> Result<bool, BisectError> {
    let Some(series) = &state.git else {
        return Ok(true);
    };
    let build = &state.builds[index];
    match git::build(series, build)? {
        git::Built::Ok => Ok(true),
        git::Built::Failed { why, log } => {
            crate::stdout::line(format_args!(
                "bisect: build {} does not build: {why} (log: {}); skipped",
                build.label(index),
                log.display()
            ));
            Ok(false)
        }
    }
}

/// The ends of a git series must build: the search stands on them.
///
/// # Errors
/// [`BisectError::Input`] naming the end that does not build; [`BisectError::Build`].
pub fn ends_built(state: &State) -> Result<(), BisectError> {
    let last = state.builds.len() - 1;
    for (index, end) in [(0, "good"), (last, "bad")] {
        let Some(series) = &state.git else {
            return Ok(());
        };
        let build = &state.builds[index];
        if let git::Built::Failed { why, log } = git::build(series, build)? {
            return Err(BisectError::Input(format!(
                "the {end} end {} does not build: {why} (log: {})",
                build.label(index),
                log.display()
            )));
        }
    }
    Ok(())
}

/// Plays the bisection in `dir` from where `state` stands to its end; the exit code:
/// 0 found, 1 the bad end is not worse, or the code of a step that did not end (2, 4).
///
/// # Errors
/// [`BisectError`] when a build, a step's config or the folder's files fail.
pub fn drive(dir: &Path, state: &mut State, player: &mut dyn Player) -> Result<u8, BisectError> {
    let last = state.builds.len() - 1;
    ends_built(state)?;
    let file = state.config_file.clone();
    // When the last step's run returned: the time until the next one starts (its
    // result read, bisect.json and bisect.md written, the next build chosen, built or
    // found built, its config read) is the bisector's own, kept in each step.
    let mut returned: Option<std::time::Instant> = None;
    let mut session = match &state.fleet {
        Some(f) => Some(fleet::Session::open(f)?),
        None => None,
    };
    loop {
        let next = search::next(last, &state.findings(), &state.skipped);
        let build = match next {
            Next::Test(b) => b,
            Next::NotWorse | Next::Found { .. } => {
                let (status, code, first_bad, untested) = match &next {
                    Next::Found {
                        first_bad,
                        untested,
                    } => (Status::Found, exit::OK, Some(*first_bad), untested.clone()),
                    _ => (Status::NotWorse, exit::H0, None, Vec::new()),
                };
                state.status = status;
                state.outcome = Some(state::Outcome {
                    first_bad,
                    untested,
                    chain_error: output::chain_error(state),
                });
                state.write(dir)?;
                output::write_markdown(dir, state, &next)?;
                crate::stdout::line(output::result_line(state, &next));
                return Ok(code);
            }
        };
        if !built(state, build)? {
            state.skipped.insert(build);
            state.write(dir)?;
            continue;
        }
        let number = state.steps.len();
        let name = step_folder(number);
        let step_dir = dir.join(&name);
        crate::stdout::line(output::before(state, build));
        let (template, tested, good) = (
            state.config.clone(),
            state.builds[build].program.clone(),
            state.builds[0].program.clone(),
        );
        let loaded = || {
            config::step(
                &file,
                &template,
                &config::Side {
                    name: format!("build-{build}"),
                    program: &tested,
                },
                &config::Side {
                    name: "build-0".to_owned(),
                    program: &good,
                },
                &step_dir,
            )
        };
        let mut run = None;
        let started = std::time::Instant::now();
        let between = returned.map(|t| started.duration_since(t).as_secs_f64());
        let code = if let Some(session) = session.as_mut() {
            let loaded = loaded()?;
            let played = session.step(dir, state, (number, build), &loaded, &step_dir)?;
            run = Some(played.run);
            if played.code == exit::ABORTED {
                return Ok(played.code);
            }
            played.code
        } else if step_dir.join(crate::store::meta::RUN_FILE).exists() {
            player.resume(&step_dir)
        } else {
            player.play(&loaded()?)
        };
        let ended = std::time::Instant::now();
        if code == exit::USAGE || code == exit::ABORTED {
            crate::stdout::line(format_args!(
                "bisect: step {number} did not finish; continue with: xq-runner resume {}",
                dir.display()
            ));
            return Ok(code);
        }
        let mut step = read_step(number, build, &step_dir, &name)?;
        step.run = run;
        step.wall_s = ended.duration_since(started).as_secs_f64();
        step.between_s = between;
        state.steps.push(step);
        state.submitted = None;
        state.write(dir)?;
        let next = search::next(last, &state.findings(), &state.skipped);
        output::write_markdown(dir, state, &next)?;
        if let Some(step) = state.steps.last() {
            crate::stdout::line(output::after(state, step));
        }
        returned = Some(ended);
    }
}
