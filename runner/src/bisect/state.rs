//! `bisect.json`: everything a bisection needs to go on from its folder alone (the
//! builds, the match settings as the steps play them, the SPRT design) and everything
//! it found (the steps, the builds that failed to build, the result). Written whole
//! after every step, so that `xq-runner resume DIR` continues at the step it was in.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::search::Finding;
use super::BisectError;

/// The file of a bisection's folder.
pub const STATE_FILE: &str = "bisect.json";

/// The version of `bisect.json` this runner writes and reads.
pub const VERSION: u32 = 1;

/// One build of the series, oldest first.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Build {
    /// The program as the steps run it (absolute); in a git series, where the build
    /// command leaves it in the commit's worktree.
    pub program: PathBuf,
    /// The commit, in a git series.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The commit's subject line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

impl Build {
    /// The build as a table cell and a progress line name it: `3`, or `3 (abc1234 Subject)`.
    #[must_use]
    pub fn label(&self, index: usize) -> String {
        match (&self.commit, &self.subject) {
            (Some(c), Some(s)) => format!("{index} ({} {s})", short(c)),
            (Some(c), None) => format!("{index} ({})", short(c)),
            _ => index.to_string(),
        }
    }
}

/// The first 10 characters of a commit id.
#[must_use]
pub fn short(commit: &str) -> &str {
    commit.get(..10).unwrap_or(commit)
}

/// How the builds of a git series are made.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GitSeries {
    pub repo: PathBuf,
    /// The build command, run by `sh -c` in the commit's worktree.
    pub build: String,
    /// The program, relative to the worktree.
    pub binary: PathBuf,
    /// The folder of the worktrees, one per commit id.
    pub cache: PathBuf,
}

/// The SPRT every step plays: nElo `[-elo, 0]`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Design {
    pub elo: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// One step's result, as its run folder's `summary.json` has it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    /// The step's number: 0 is the confirmation that the bad end is worse.
    pub step: usize,
    /// The build tested against build 0.
    pub build: usize,
    /// The step's run folder, relative to the bisection's.
    pub dir: String,
    pub games: u64,
    pub elo: f64,
    pub elo_ci95: f64,
    pub nelo: f64,
    pub nelo_ci95: f64,
    pub llr: f64,
    pub llr_lower: f64,
    pub llr_upper: f64,
    /// `as good` (H1) or `worse` (H0).
    pub verdict: Verdict,
    /// The run ran out of pairs before the SPRT decided: the verdict is the sign of
    /// the LLR, and its error rate is not known.
    #[serde(default)]
    pub truncated: bool,
    /// Wall time of the step's run as the bisector waited for it, seconds.
    #[serde(default)]
    pub wall_s: f64,
    /// The bisector's own time between the previous step's run returning (its last
    /// game played and its outputs written) and this step's run being started: the
    /// search, the build check, the config (none for the first step of a session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub between_s: Option<f64>,
    /// The id of the step's run in the database (a bisection with `--db`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<i64>,
}

impl Step {
    /// The chance that this verdict is wrong, at the SPRT's bounds: alpha for "as
    /// good" (a build worse by `elo` passed), beta for "worse"; none for a truncated
    /// step.
    #[must_use]
    pub fn error_rate(&self, design: &Design) -> Option<f64> {
        if self.truncated {
            return None;
        }
        Some(match self.verdict {
            Verdict::AsGood => design.alpha,
            Verdict::Worse => design.beta,
        })
    }
}

/// Steps played as runs in a database, by its workers (`--db`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Fleet {
    /// The database as `--db` named it.
    pub db: String,
    /// Pairs per batch handed to a worker.
    pub batch_pairs: u32,
    /// Whether the builds (and the opening file) travel with each run, as `submit`
    /// stores them; else every worker has them at the paths the steps name.
    pub upload: bool,
    /// The largest file a run may carry, bytes.
    pub max_artifact: u64,
}

/// The run of the step in progress, in a bisection with `--db`: written before the
/// run is stored (`run` none) and again with its id, so that a resume waits for that
/// run instead of submitting the step twice.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Submitted {
    pub step: usize,
    pub build: usize,
    /// The hash of the step's config: a resume that finds no id (killed between the
    /// store and the write of this file) takes the run of this config stored then.
    pub config_hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<i64>,
}

/// A step's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    #[serde(rename = "as good")]
    AsGood,
    #[serde(rename = "worse")]
    Worse,
}

impl Verdict {
    #[must_use]
    pub fn finding(self) -> Finding {
        match self {
            Verdict::AsGood => Finding::AsGood,
            Verdict::Worse => Finding::Worse,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::AsGood => "as good",
            Verdict::Worse => "worse",
        }
    }
}

/// Where a bisection stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Running,
    Found,
    NotWorse,
}

/// The result of a finished bisection.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The first bad build (none when the bad end is not worse).
    pub first_bad: Option<usize>,
    /// Builds that failed to build and may be the first bad one instead.
    pub untested: Vec<usize>,
    /// The chance that some step's verdict, and so the answer, is wrong:
    /// `1 - prod(1 - e_i)` over the steps' error rates (none if a step was truncated).
    pub chain_error: Option<f64>,
}

/// The whole of `bisect.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    pub version: u32,
    pub status: Status,
    /// The config file the match settings came from (for the reader).
    pub config_file: String,
    /// The config as every step plays it, but for the two engines' programs and
    /// names and the output folder, which each step sets.
    pub config: String,
    pub design: Design,
    pub builds: Vec<Build>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<GitSeries>,
    pub steps: Vec<Step>,
    /// Builds that failed to build (git series), skipped.
    pub skipped: BTreeSet<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Where the steps are played when not here (`--db`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleet: Option<Fleet>,
    /// The run of the step in progress (`--db`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted: Option<Submitted>,
}

impl State {
    /// The steps as the search reads them.
    #[must_use]
    pub fn findings(&self) -> Vec<(usize, Finding)> {
        self.steps
            .iter()
            .map(|s| (s.build, s.verdict.finding()))
            .collect()
    }

    /// Reads `bisect.json` from a folder.
    ///
    /// # Errors
    /// [`BisectError::State`] when it cannot be read or is not a bisection of this
    /// version.
    pub fn read(dir: &Path) -> Result<State, BisectError> {
        let path = dir.join(STATE_FILE);
        let bad = |why: String| BisectError::State {
            path: path.clone(),
            why,
        };
        let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
        let state: State = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if state.version != VERSION {
            return Err(bad(format!(
                "version {}, this runner reads version {VERSION}",
                state.version
            )));
        }
        if state.builds.len() < 2 {
            return Err(bad("fewer than two builds".to_owned()));
        }
        let count = state.builds.len();
        let named = state
            .steps
            .iter()
            .map(|s| s.build)
            .chain(state.skipped.iter().copied());
        if let Some(b) = named.into_iter().find(|&b| b >= count) {
            return Err(bad(format!(
                "build {b} named, but there are {count} builds"
            )));
        }
        Ok(state)
    }

    /// Writes `bisect.json` whole (or not at all).
    ///
    /// # Errors
    /// [`BisectError::Write`].
    pub fn write(&self, dir: &Path) -> Result<(), BisectError> {
        let path = dir.join(STATE_FILE);
        let mut text = serde_json::to_string_pretty(self).map_err(|e| BisectError::Write {
            path: path.clone(),
            why: e.to_string(),
        })?;
        text.push('\n');
        crate::atomic_file::write(&path, text.as_bytes()).map_err(|e| BisectError::Write {
            path,
            why: e.to_string(),
        })
    }
}
