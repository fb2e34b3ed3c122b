//! A series of builds from git: the commits from `--good` to `--bad` (ancestry path,
//! oldest first), each built when the search first needs it, in a worktree of its own
//! under the cache folder (`<cache>/<commit id>`), by `sh -c "<build command>"`; the
//! program is `<worktree>/<binary>`. A commit is built once: `<commit>.ok` or
//! `<commit>.failed` beside its worktree remember the outcome (and `<commit>.log` the
//! build's output), so a resume or another bisection with the same cache reuses it. Then
//! the worktree is removed from the user's repository (`git worktree list` shows none
//! left), the program kept at its path. A commit that does not build is skipped, as
//! `git bisect skip` skips it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::state::{short, Build, GitSeries};
use super::BisectError;

/// Runs git in `repo`, returning its stdout; `what` names the question in errors.
fn git(repo: &Path, args: &[&str], what: &str) -> Result<String, BisectError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| BisectError::Input(format!("{what}: cannot run git: {e}")))?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        let why = why
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("failed");
        return Err(BisectError::Input(format!("{what}: {}", why.trim())));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The full id of a commit.
fn commit_id(repo: &Path, rev: &str, flag: &str) -> Result<String, BisectError> {
    let spec = format!("{rev}^{{commit}}");
    git(
        repo,
        &["rev-parse", "--verify", "--quiet", &spec],
        &format!("{flag} {rev}"),
    )
    .map_err(|_| BisectError::Input(format!("{flag} {rev}: not a commit of {}", repo.display())))
    .map(|s| s.trim().to_owned())
}

/// The builds from `good` to `bad` (both included), oldest first, each with its
/// commit and subject; the programs are where the builds will leave them.
///
/// # Errors
/// [`BisectError::Input`]: not a repository, an unknown revision, or a bad range
/// (`good` is `bad`, or not its ancestor).
pub fn series(series: &GitSeries, good: &str, bad: &str) -> Result<Vec<Build>, BisectError> {
    let repo = &series.repo;
    git(
        repo,
        &["rev-parse", "--git-dir"],
        &format!("--repo {}", repo.display()),
    )?;
    let good_id = commit_id(repo, good, "--good")?;
    let bad_id = commit_id(repo, bad, "--bad")?;
    if good_id == bad_id {
        return Err(BisectError::Input(format!(
            "bad git range {good}..{bad}: both are commit {}",
            short(&good_id)
        )));
    }
    let ancestor = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["merge-base", "--is-ancestor", &good_id, &bad_id])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| BisectError::Input(format!("--repo: cannot run git: {e}")))?;
    if !ancestor.success() {
        return Err(BisectError::Input(format!(
            "bad git range {good}..{bad}: {good} is not an ancestor of {bad}"
        )));
    }
    let range = format!("{good_id}..{bad_id}");
    let log = git(
        repo,
        &[
            "log",
            "--reverse",
            "--topo-order",
            "--ancestry-path",
            "--format=%H%x09%s",
            &range,
        ],
        "git log",
    )?;
    let first = git(
        repo,
        &["log", "-1", "--format=%H%x09%s", &good_id],
        "git log",
    )?;
    let builds: Vec<Build> = first
        .lines()
        .chain(log.lines())
        .filter_map(|line| {
            let (commit, subject) = line.split_once('\t')?;
            Some(Build {
                program: series.cache.join(commit).join(&series.binary),
                commit: Some(commit.to_owned()),
                subject: Some(subject.to_owned()),
            })
        })
        .collect();
    if builds.len() < 2 {
        return Err(BisectError::Input(format!(
            "bad git range {good}..{bad}: no commits between them"
        )));
    }
    Ok(builds)
}

/// The outcome of building one commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Built {
    Ok,
    /// It did not build: the reason and the log's path.
    Failed {
        why: String,
        log: PathBuf,
    },
}

/// Builds the commit of `build` (once: a cached outcome is reused).
///
/// # Errors
/// [`BisectError::Build`] when the worktree cannot be made (not the build failing).
pub fn build(series: &GitSeries, build: &Build) -> Result<Built, BisectError> {
    let Some(commit) = build.commit.as_deref() else {
        return Ok(Built::Ok);
    };
    let cache = &series.cache;
    let ok = cache.join(format!("{commit}.ok"));
    let failed = cache.join(format!("{commit}.failed"));
    let log = cache.join(format!("{commit}.log"));
    let trouble = |why: String| BisectError::Build {
        commit: short(commit).to_owned(),
        why,
    };
    let tree = cache.join(commit);
    if ok.exists() && build.program.is_file() {
        // A cache of an earlier version kept the worktree registered: unregister it now.
        release_worktree(series, &tree, &build.program).map_err(trouble)?;
        return Ok(Built::Ok);
    }
    if let Ok(why) = std::fs::read_to_string(&failed) {
        release_worktree(series, &tree, &build.program).map_err(trouble)?;
        return Ok(Built::Failed {
            why: why.trim().to_owned(),
            log,
        });
    }
    std::fs::create_dir_all(cache)
        .map_err(|e| trouble(format!("cannot create {}: {e}", cache.display())))?;
    if !tree.join(".git").exists() {
        if tree.exists() {
            std::fs::remove_dir_all(&tree)
                .map_err(|e| trouble(format!("cannot clear {}: {e}", tree.display())))?;
        }
        let tree_arg = tree.display().to_string();
        git(
            &series.repo,
            &["worktree", "add", "--force", "--detach", &tree_arg, commit],
            &format!("worktree of {}", short(commit)),
        )
        .map_err(|e| trouble(e.to_string()))?;
    }
    let log_file = std::fs::File::create(&log)
        .map_err(|e| trouble(format!("cannot write {}: {e}", log.display())))?;
    let err_file = log_file
        .try_clone()
        .map_err(|e| trouble(format!("cannot write {}: {e}", log.display())))?;
    let status = Command::new("sh")
        .arg("-c")
        .arg(&series.build)
        .current_dir(&tree)
        .stdin(Stdio::null())
        .stdout(log_file)
        .stderr(err_file)
        .status()
        .map_err(|e| trouble(format!("cannot run sh: {e}")))?;
    let why = if !status.success() {
        Some(format!("`{}` failed ({status})", series.build))
    } else if let Err(why) = super::builds::executable(&build.program) {
        Some(format!("{} {why}", series.binary.display()))
    } else {
        None
    };
    let (marker, text) = match &why {
        Some(why) => (&failed, why.as_str()),
        None => (&ok, ""),
    };
    // The outcome is cached: the worktree is not needed any more (a built program is
    // kept at its place), and must not stay registered in the user's repository.
    release_worktree(series, &tree, &build.program).map_err(trouble)?;
    std::fs::write(marker, text)
        .map_err(|e| trouble(format!("cannot write {}: {e}", marker.display())))?;
    Ok(match why {
        Some(why) => Built::Failed { why, log },
        None => Built::Ok,
    })
}

/// Removes the worktree `tree` from the user's repository (`git worktree remove
/// --force`, then `git worktree prune` for what a removal by hand left), keeping the
/// program built in it, if any, at its path: the bisection runs it from there, and a
/// later one with the same cache reuses it. Nothing to do for a tree already released.
fn release_worktree(series: &GitSeries, tree: &Path, program: &Path) -> Result<(), String> {
    if !tree.join(".git").exists() {
        return Ok(());
    }
    // The program waits beside the tree while it goes.
    let kept = tree.with_extension("program");
    let built = program.is_file();
    if built {
        std::fs::rename(program, &kept)
            .map_err(|e| format!("cannot move {} aside: {e}", program.display()))?;
    }
    let tree_arg = tree.display().to_string();
    let removed = git(
        &series.repo,
        &["worktree", "remove", "--force", &tree_arg],
        "git worktree remove",
    );
    if removed.is_err() && tree.exists() {
        std::fs::remove_dir_all(tree)
            .map_err(|e| format!("cannot remove the worktree {}: {e}", tree.display()))?;
    }
    git(&series.repo, &["worktree", "prune"], "git worktree prune").map_err(|e| e.to_string())?;
    if built {
        if let Some(folder) = program.parent() {
            std::fs::create_dir_all(folder)
                .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        }
        std::fs::rename(&kept, program)
            .map_err(|e| format!("cannot put back {}: {e}", program.display()))?;
    }
    Ok(())
}
