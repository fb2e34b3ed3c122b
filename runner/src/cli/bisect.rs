//! `xq-runner bisect --config F (--builds B0 .. BN | --builds-file F | --repo DIR --good
//! REV --bad REV --build CMD --binary PATH) --out DIR [--elo X --alpha A --beta B]`:
//! finds the first build of a series that is worse than the first, by SPRTs; with `--db
//! URL` each step is a run of that database, played by its workers. `xq-runner resume
//! DIR` continues it. Exit 0 found, 1 the bad end is not worse, 2 bad input, 4 aborted.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::bisect::state::{Design, Fleet, GitSeries, State, Status, STATE_FILE, VERSION};
use crate::bisect::{self, BisectError, Player};
use crate::config::Loaded;
use crate::local_run::{Part, Start};

/// Arguments of `bisect`.
#[derive(Debug, Args)]
pub struct BisectArgs {
    /// The run config of every step (a match; its two engines' programs are replaced
    /// by the builds).
    #[arg(long)]
    pub config: PathBuf,
    /// The builds, oldest first: the first is good, the last bad.
    #[arg(long, num_args = 1.., value_name = "PROGRAM")]
    pub builds: Vec<PathBuf>,
    /// A file of builds, one program a line, oldest first.
    #[arg(long, value_name = "FILE")]
    pub builds_file: Option<PathBuf>,
    /// Builds from git: the repository.
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// The good commit (git).
    #[arg(long, value_name = "REV")]
    pub good: Option<String>,
    /// The bad commit (git).
    #[arg(long, value_name = "REV")]
    pub bad: Option<String>,
    /// The build command, run by `sh -c` in each commit's worktree (git).
    #[arg(long, value_name = "CMD")]
    pub build: Option<String>,
    /// The program the build leaves, relative to the worktree (git).
    #[arg(long, value_name = "PATH")]
    pub binary: Option<PathBuf>,
    /// The folder of the commits' worktrees, reused by commit id (default: OUT/builds).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// The output folder: bisect.json, bisect.md and a run folder per step.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The regression each step tests for: SPRT bounds nElo [-X, 0].
    #[arg(
        long,
        value_name = "X",
        default_value_t = 5.0,
        allow_negative_numbers = true
    )]
    pub elo: f64,
    /// Each step's chance of passing a build worse by X.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub alpha: f64,
    /// Each step's chance of failing a build that is not worse.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    pub beta: f64,
    /// The most pairs a step plays (default: the config's).
    #[arg(long, value_name = "N")]
    pub pairs: Option<u64>,
    /// Games played at once.
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Play each step as a run of this database, by its workers (postgres:// URL or
    /// key=value words; the password in ~/.pgpass or PGPASSWORD, never here).
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
    /// With --db: pairs per batch handed to a worker.
    #[arg(long, value_name = "N", default_value_t = crate::fleet::submit::DEFAULT_BATCH_PAIRS)]
    pub batch_pairs: u32,
    /// With --db: store no file with the runs; every worker has the builds and the
    /// opening file at the paths the steps name.
    #[arg(long)]
    pub no_upload: bool,
    /// With --db: the largest file a run may carry (bytes, or with KB, MB, GB).
    #[arg(long, value_name = "SIZE", default_value = "256MB", value_parser = crate::fleet::uploads::parse_size)]
    pub max_artifact: u64,
}

/// The steps played as `run` and `resume` play runs.
struct CliPlayer {
    concurrency: Option<usize>,
}

impl Player for CliPlayer {
    fn play(&mut self, loaded: &Loaded) -> u8 {
        let start = Start {
            part: Part::Of,
            ..Start::new_run()
        };
        super::run::play(loaded, start, false, None)
    }

    fn resume(&mut self, dir: &Path) -> u8 {
        super::resume::resume(
            &super::resume::ResumeArgs {
                dir: dir.to_path_buf(),
                pairs: None,
                concurrency: self.concurrency,
                dry_run: false,
                log: None,
            },
            Part::Of,
        )
    }
}

/// The SPRT design of the flags, checked.
fn design(args: &BisectArgs) -> Result<Design, BisectError> {
    if !(args.elo.is_finite() && args.elo > 0.0) {
        return Err(BisectError::Input(format!(
            "--elo {}: expected a positive nElo (the SPRT bounds are [-X, 0])",
            args.elo
        )));
    }
    crate::stats::Sprt::new(
        -args.elo,
        0.0,
        args.alpha,
        args.beta,
        crate::stats::EloModel::Normalized,
    )
    .map_err(|e| BisectError::Input(format!("--alpha/--beta: {e}")))?;
    Ok(Design {
        elo: args.elo,
        alpha: args.alpha,
        beta: args.beta,
    })
}

/// The builds and, for git, how they are made.
fn series(
    args: &BisectArgs,
) -> Result<(Vec<bisect::state::Build>, Option<GitSeries>), BisectError> {
    let given = [
        !args.builds.is_empty(),
        args.builds_file.is_some(),
        args.repo.is_some(),
    ];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(BisectError::Input(
            "give the builds one way: --builds B0 .. BN, --builds-file FILE, or --repo DIR --good REV --bad REV --build CMD --binary PATH".to_owned(),
        ));
    }
    if let Some(file) = &args.builds_file {
        let programs = bisect::builds::read_list(file)?;
        let flag = format!("--builds-file {}", file.display());
        return Ok((bisect::builds::from_programs(&programs, &flag)?, None));
    }
    let Some(repo) = &args.repo else {
        return Ok((
            bisect::builds::from_programs(&args.builds, "--builds")?,
            None,
        ));
    };
    let (Some(good), Some(bad), Some(build), Some(binary)) =
        (&args.good, &args.bad, &args.build, &args.binary)
    else {
        return Err(BisectError::Input(
            "--repo needs --good REV, --bad REV, --build CMD and --binary PATH".to_owned(),
        ));
    };
    if binary.is_absolute() {
        return Err(BisectError::Input(format!(
            "--binary {}: expected a path relative to the commit's worktree",
            binary.display()
        )));
    }
    let repo = std::fs::canonicalize(repo)
        .map_err(|e| BisectError::Input(format!("--repo {}: {e}", repo.display())))?;
    let cache = args
        .cache
        .clone()
        .unwrap_or_else(|| args.out.join("builds"));
    let cache = absolute(&cache)
        .map_err(|e| BisectError::Input(format!("--cache {}: {e}", cache.display())))?;
    let git = GitSeries {
        repo,
        build: build.clone(),
        binary: binary.clone(),
        cache,
    };
    let builds = bisect::git::series(&git, good, bad)?;
    Ok((builds, Some(git)))
}

/// A path made absolute against the working directory (it need not exist).
fn absolute(path: &Path) -> std::io::Result<PathBuf> {
    if path.is_absolute() {
        Ok(path.to_path_buf())
    } else {
        Ok(std::env::current_dir()?.join(path))
    }
}

/// Checks everything and writes the bisection's folder: the state to start from.
fn start(args: &BisectArgs) -> Result<State, BisectError> {
    let design = design(args)?;
    if args.out.join(STATE_FILE).exists() {
        return Err(BisectError::Input(format!(
            "--out {}: already holds a bisection: continue it with `xq-runner resume {}`, or give another --out",
            args.out.display(),
            args.out.display()
        )));
    }
    // The default cache (OUT/builds) may be there from a bisection that stopped at a
    // bad end that did not build.
    let holds_more = |d: std::fs::ReadDir| d.flatten().any(|e| e.file_name() != "builds");
    if std::fs::read_dir(&args.out).is_ok_and(holds_more) {
        return Err(BisectError::Input(format!(
            "--out {}: is not empty and holds no bisection: give another --out",
            args.out.display()
        )));
    }
    let file = args.config.display().to_string();
    let text = std::fs::read_to_string(&args.config)
        .map_err(|e| BisectError::Input(format!("--config {file}: cannot read: {e}")))?;
    let mut template = bisect::config::template(&file, &text, &design, args.pairs)?;
    if let Some(c) = args.concurrency {
        template = bisect::config::with_concurrency(&template, c)?;
    }
    let (builds, git) = series(args)?;
    let fleet = fleet(args)?;
    let state = State {
        version: VERSION,
        status: Status::Running,
        config_file: file.clone(),
        config: template,
        design,
        builds,
        git,
        steps: Vec::new(),
        skipped: std::collections::BTreeSet::new(),
        outcome: None,
        fleet,
        submitted: None,
    };
    // The search stands on its ends: a git series whose ends do not build is refused.
    bisect::ends_built(&state)?;
    // The config as the first step plays it, checked before anything is written.
    let last = state.builds.len() - 1;
    let tested = bisect::config::Side {
        name: format!("build-{last}"),
        program: &state.builds[0].program,
    };
    let good = bisect::config::Side {
        name: "build-0".to_owned(),
        program: &state.builds[0].program,
    };
    let first = bisect::config::step(
        &file,
        &state.config,
        &tested,
        &good,
        &args.out.join("step-00"),
    )?;
    if let Some(f) = &state.fleet {
        check_fleet(f, &first, &state)?;
    }
    std::fs::create_dir_all(&args.out).map_err(|e| BisectError::Write {
        path: args.out.clone(),
        why: e.to_string(),
    })?;
    state.write(&args.out)?;
    Ok(state)
}

/// The settings of `--db`, checked (none without it).
fn fleet(args: &BisectArgs) -> Result<Option<Fleet>, BisectError> {
    let Some(db) = &args.db else {
        if args.no_upload {
            return Err(BisectError::Input(
                "--no-upload: only with --db (the runs' files)".to_owned(),
            ));
        }
        return Ok(None);
    };
    if args.concurrency.is_some() {
        return Err(BisectError::Input(
            "--concurrency: with --db the steps are played by the workers, each at its own --concurrency".to_owned(),
        ));
    }
    Ok(Some(Fleet {
        db: db.clone(),
        batch_pairs: args.batch_pairs.max(1),
        upload: !args.no_upload,
        max_artifact: args.max_artifact,
    }))
}

/// Before anything is written: the database answers (its schema made at first use,
/// as `submit` makes it), and the files of the steps' runs can be stored (each build,
/// checked as the first step's, and the opening file).
fn check_fleet(fleet: &Fleet, first: &Loaded, state: &State) -> Result<(), BisectError> {
    let policy = crate::fleet::uploads::UploadPolicy {
        enabled: fleet.upload,
        max_size: fleet.max_artifact,
    };
    crate::fleet::submit::new_run(first, fleet.batch_pairs, policy)
        .map_err(|e| BisectError::Input(format!("--db: the steps' runs: {e}")))?;
    if fleet.upload {
        // Every build travels with its step: each program must be storable (the
        // files beside it are checked when its step's config is read); of a git
        // series, the ends (the rest are built when their step comes).
        let last = state.builds.len() - 1;
        let builds = state.builds.iter().enumerate();
        for (_, build) in builds.filter(|(i, _)| state.git.is_none() || *i == 0 || *i == last) {
            let mut plan = first.plan.engines[0].clone();
            plan.program.clone_from(&build.program);
            plan.files.clear();
            crate::fleet::uploads::uploads([(0, &plan)], None, policy)
                .map_err(|e| BisectError::Input(format!("--db: the steps' runs: {e}")))?;
        }
    }
    let target = crate::store::pg::resolve(Some(&fleet.db))
        .map_err(|e| BisectError::Input(format!("--db: {e}")))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| BisectError::Fleet(format!("cannot start the async runtime: {e}")))?;
    runtime
        .block_on(async {
            let mut db = crate::store::pg::Db::connect(&target)
                .await
                .map_err(|e| e.to_string())?;
            super::submit::init(&mut db).await
        })
        .map_err(|e| BisectError::Input(format!("--db: {e}")))
}

/// Prints a bisection's error and returns its exit code.
fn fail(e: &BisectError) -> u8 {
    eprintln!("error: {e}");
    e.exit_code()
}

/// Runs `bisect`.
#[must_use]
pub fn run(args: &BisectArgs) -> u8 {
    let mut state = match start(args) {
        Ok(state) => state,
        Err(e) => return fail(&e),
    };
    let mut player = CliPlayer {
        concurrency: args.concurrency,
    };
    bisect::drive(&args.out, &mut state, &mut player).unwrap_or_else(|e| fail(&e))
}

/// `xq-runner resume DIR` of a bisection's folder: goes on at the step it was in.
#[must_use]
pub fn resume(dir: &Path, concurrency: Option<usize>) -> u8 {
    let mut state = match State::read(dir) {
        Ok(state) => state,
        Err(e) => return fail(&e),
    };
    if let (Some(_), Some(_)) = (concurrency, &state.fleet) {
        return fail(&BisectError::Input(format!(
            "{}: a bisection on a database: its steps are played by the workers, each at its own --concurrency",
            dir.display()
        )));
    }
    if let Some(c) = concurrency {
        match bisect::config::with_concurrency(&state.config, c) {
            Ok(template) => state.config = template,
            Err(e) => return fail(&e),
        }
    }
    let mut player = CliPlayer { concurrency };
    bisect::drive(dir, &mut state, &mut player).unwrap_or_else(|e| fail(&e))
}
