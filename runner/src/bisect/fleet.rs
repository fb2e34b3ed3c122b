//! A bisection's steps played on many machines (`bisect --db URL`): each step's config
//! is stored as a run, as `xq-runner submit` stores one (the builds and the opening file
//! travel with it unless `--no-upload`), and played by the workers; the bisector waits
//! for the run's end, reading it as `status` does (woken by the server's notice that a
//! run closed, else every second), writes the run as the step's folder as `report --db`
//! does, and reads the step from that folder like a local step.
//!
//! The step's run is named in `bisect.json` before it is stored and again with its id,
//! so that a resume waits for that run instead of storing the step twice (and, killed
//! between the store and the write, finds it by its config). A run that was cancelled
//! or aborted is stored again by the next resume.

use std::path::Path;
use std::time::{Duration, Instant};

use super::state::{Fleet, State, Submitted};
use super::BisectError;
use crate::config::Loaded;
use crate::exit;
use crate::fleet::submit::new_run;
use crate::fleet::uploads::UploadPolicy;
use crate::signals::StopSignals;
use crate::store::pg::runs::RunRow;
use crate::store::pg::{resolve, Db, DbError, Target};

/// How often the bisector looks at the run when no notice comes.
const POLL: Duration = Duration::from_secs(1);

/// The most often a progress line is printed while a step's run plays.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The longest pause between two tries at a database that went away.
const MAX_BACKOFF: Duration = Duration::from_secs(8);

fn failed(e: impl std::fmt::Display) -> BisectError {
    BisectError::Fleet(e.to_string())
}

/// The connection of a bisection to its database, for all its steps.
#[derive(Debug)]
pub struct Session {
    runtime: tokio::runtime::Runtime,
    target: Target,
    db: Option<Db>,
    stops: StopSignals,
    policy: UploadPolicy,
    batch_pairs: u32,
}

/// What a step's run came to.
#[derive(Debug)]
pub struct Played {
    /// The exit code as a local step's run ends with: 0 H1, 1 H0, 3 no verdict, 4
    /// aborted, cancelled or stopped waiting.
    pub code: u8,
    pub run: i64,
}

impl Session {
    /// Connects to the bisection's database.
    ///
    /// # Errors
    /// [`BisectError::Fleet`]: a bad target, a server that cannot be reached.
    pub fn open(fleet: &Fleet) -> Result<Session, BisectError> {
        let target = resolve(Some(&fleet.db)).map_err(failed)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| failed(format!("cannot start the async runtime: {e}")))?;
        let stops = runtime.block_on(async { StopSignals::listen() });
        let mut session = Session {
            runtime,
            target,
            db: None,
            stops,
            policy: UploadPolicy {
                enabled: fleet.upload,
                max_size: fleet.max_artifact,
            },
            batch_pairs: fleet.batch_pairs,
        };
        session.connect().map_err(failed)?;
        Ok(session)
    }

    fn connect(&mut self) -> Result<(), DbError> {
        let target = self.target.clone();
        let db = self.runtime.block_on(async move {
            let db = Db::open(&target).await?;
            db.listen().await?;
            Ok::<_, DbError>(db)
        })?;
        self.db = Some(db);
        Ok(())
    }

    /// Makes sure the connection is open: opened again, with backoff, when it broke.
    fn ensure(&mut self) -> Result<(), BisectError> {
        let mut pause = Duration::from_millis(250);
        while self.db.as_ref().is_none_or(Db::is_closed) {
            self.db = None;
            match self.connect() {
                Ok(()) => {}
                Err(e) if e.is_transient() => {
                    crate::stdout::line(format_args!(
                        "bisect: the database: {e}; trying again in {:.1} s",
                        pause.as_secs_f64()
                    ));
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(MAX_BACKOFF);
                }
                Err(e) => return Err(failed(e)),
            }
        }
        Ok(())
    }

    /// Runs a query on the open connection, again on a new one when the connection broke.
    fn query<T, F>(&mut self, mut each: F) -> Result<Result<T, DbError>, BisectError>
    where
        F: for<'d> FnMut(
            &'d Db,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<T, DbError>> + 'd>,
        >,
    {
        loop {
            self.ensure()?;
            let Some(db) = self.db.as_ref() else {
                continue;
            };
            match self.runtime.block_on(each(db)) {
                Err(e) if e.is_transient() => self.db = None,
                other => return Ok(other),
            }
        }
    }

    /// Reads run `id`.
    fn run(&mut self, id: i64) -> Result<Result<RunRow, DbError>, BisectError> {
        self.query(|db| Box::pin(db.run(id)))
    }

    /// Plays step `number` (build `build` against build 0, its config `loaded`) as a
    /// run of the database, or waits for the run `state` names for it.
    ///
    /// # Errors
    /// [`BisectError`]: the database refuses, `bisect.json` cannot be written.
    pub fn step(
        &mut self,
        dir: &Path,
        state: &mut State,
        (number, build): (usize, usize),
        loaded: &Loaded,
        step_dir: &Path,
    ) -> Result<Played, BisectError> {
        let id = match self.known_run(state, number, build, loaded)? {
            Some(id) => {
                crate::stdout::line(format_args!(
                    "bisect step {number}: waiting for run {id}, stored before"
                ));
                id
            }
            None => self.submit(dir, state, number, build, loaded)?,
        };
        let row = match self.wait(number, id)? {
            Some(row) => row,
            None => {
                crate::stdout::line(format_args!(
                    "bisect step {number}: stopped waiting; run {id} goes on with the workers; continue with: xq-runner resume {}",
                    dir.display()
                ));
                return Ok(Played {
                    code: exit::ABORTED,
                    run: id,
                });
            }
        };
        if row.state != "finished" {
            crate::stdout::line(format_args!(
                "bisect step {number}: run {id} ended {} ({}); `xq-runner resume {}` stores the step again",
                row.state,
                crate::output::printable::printable(&row.status),
                dir.display()
            ));
            return Ok(Played {
                code: exit::ABORTED,
                run: id,
            });
        }
        self.ensure()?;
        let db = self.db.as_ref().ok_or_else(|| failed("no connection"))?;
        self.runtime
            .block_on(crate::fleet::report::write(db, id, step_dir))
            .map_err(|e| failed(format!("run {id} as {}: {e}", step_dir.display())))?;
        Ok(Played {
            code: row.exit_code.unwrap_or(exit::NO_VERDICT),
            run: id,
        })
    }

    /// The run stored for this step before (by a bisector that stopped or was killed),
    /// if it can still give the step's verdict.
    fn known_run(
        &mut self,
        state: &State,
        number: usize,
        build: usize,
        loaded: &Loaded,
    ) -> Result<Option<i64>, BisectError> {
        let Some(s) = state
            .submitted
            .as_ref()
            .filter(|s| s.step == number && s.build == build)
        else {
            return Ok(None);
        };
        let usable = |row: &RunRow| row.state == "open" || row.state == "finished";
        if let Some(id) = s.run {
            return match self.run(id)? {
                Ok(row) => Ok(usable(&row).then_some(id)),
                // Gone from the database meanwhile: stored again.
                Err(DbError::NoRun(_)) => Ok(None),
                Err(e) => Err(failed(e)),
            };
        }
        // Killed between the store and the write of its id: the run of this config.
        let hash = s.config_hash.clone();
        let runs = self.query(|db| Box::pin(db.runs(false)))?.map_err(failed)?;
        Ok(runs
            .iter()
            .rev()
            .find(|r| r.config_hash == hash && r.config == loaded.text && usable(r))
            .map(|r| r.id))
    }

    /// Stores the step's run, its id written into `bisect.json` before and after.
    fn submit(
        &mut self,
        dir: &Path,
        state: &mut State,
        number: usize,
        build: usize,
        loaded: &Loaded,
    ) -> Result<i64, BisectError> {
        let mut new = new_run(loaded, self.batch_pairs, self.policy)
            .map_err(|e| failed(format!("step {number}: {e}")))?;
        // The step's engines are the tested build and build 0, in that order: their
        // commits go with the run, shown beside their builds.
        for (engine, index) in [(0, build), (1, 0)] {
            if let Some(commit) = state.builds.get(index).and_then(|b| b.commit.clone()) {
                new.commits.insert(engine, commit);
            }
        }
        state.submitted = Some(Submitted {
            step: number,
            build,
            config_hash: loaded.hash.clone(),
            run: None,
        });
        state.write(dir)?;
        // `submit` takes a connection of its own (a transaction).
        let target = self.target.clone();
        let id = self
            .runtime
            .block_on(async {
                let mut db = Db::open(&target).await?;
                db.submit(&new).await
            })
            .map_err(failed)?;
        if let Some(s) = state.submitted.as_mut() {
            s.run = Some(id);
        }
        state.write(dir)?;
        let bytes: u64 = new.uploads.iter().map(|u| u.file.identity.size).sum();
        crate::stdout::line(format_args!(
            "bisect step {number}: stored as run {id} ({}, {} pairs at most, {} files carried, {}); the workers play it",
            new.title,
            new.total_pairs,
            new.uploads.len(),
            crate::fleet::uploads::size_text(bytes)
        ));
        Ok(id)
    }

    /// Waits for run `id` to close; `None` when a signal stopped the wait.
    fn wait(&mut self, number: usize, id: i64) -> Result<Option<RunRow>, BisectError> {
        let mut shown = (0u64, None::<Instant>);
        loop {
            let row = self.run(id)?.map_err(failed)?;
            if !row.is_open() {
                return Ok(Some(row));
            }
            let due = shown.1.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
            if row.games_done != shown.0 && due {
                shown = (row.games_done, Some(Instant::now()));
                if let Some(line) = self.progress(number, &row) {
                    crate::stdout::line(line);
                }
            }
            self.ensure()?;
            let Some(db) = self.db.as_ref() else {
                continue;
            };
            let stops = &mut self.stops;
            let stopped = self.runtime.block_on(async {
                tokio::select! {
                    () = db.runs_changed() => false,
                    () = tokio::time::sleep(POLL) => false,
                    stop = stops.next() => stop.is_some(),
                }
            });
            if stopped {
                return Ok(None);
            }
        }
    }

    /// A progress line: the run's games and LLR so far.
    fn progress(&mut self, number: usize, row: &RunRow) -> Option<String> {
        let id = row.id;
        let facts = self.query(|db| Box::pin(db.game_facts(id))).ok()?.ok()?;
        let (plan, tracker) = crate::fleet::status::tracker_of(row, &facts).ok()?;
        let sprt = plan.sprt.as_ref()?;
        let report = crate::stats::StatsReport::from_tally(&tracker.tally(0), sprt).ok()?;
        Some(format!(
            "bisect step {number}: run {}: {} games, LLR {:.2} ({:.2}, {:.2})",
            row.id,
            tracker.games(),
            report.llr,
            report.llr_lower,
            report.llr_upper
        ))
    }
}
