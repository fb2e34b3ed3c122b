//! A local run: checks, preflight, workers, the journal, the counts after every game,
//! SPRT and fault stops, signals, and the files at the end.
//!
//! Shutdown follows mini-redis: one `watch` channel carries the run state to every
//! worker. An SPRT verdict, a fault limit or a signal sets [`RunState::Stopping`]: the
//! games in progress are dropped (not recorded, their engines killed), so the counts are
//! exactly those the verdict was reached on, and the journal stays resumable. A second
//! signal exits at once.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use thiserror::Error;
use tokio::sync::watch;

use super::ending;
use super::errors::OpeningsError;
use super::preflight::{preflight, unknown_options_line};
use crate::config::book_use;
use crate::config::{Loaded, Plan, TournamentKind};
use crate::exit;
use crate::openings::{OpeningBook, OpeningSequence};
use crate::output::files::{today, FilesError, RunFiles};
use crate::output::over_clock;
use crate::output::progress::Progress;
use crate::output::summary::{over_clock_lines, ratings, RunnerCost};
use crate::output::text::{finished_line, rating_table, result_block};
use crate::play::engines::RunContext;
use crate::play::pool::{close_all, Order, PairEnd, Pool, Report};
use crate::play::{stop_on_signal, RunState};
use crate::stats::{Estimate, StatsReport};
use crate::store::belongs::{Openings, RunGames};
use crate::store::ending::Ending;
use crate::store::folder::{FolderError, FolderUse, RunFolder, Workload};
use crate::store::journal::{Journal, JournalError, JOURNAL_FILE};
use crate::store::layout::{Jobs, Pending};
use crate::store::meta::{InputFile, RunMeta, Shard};
use crate::store::tracker::Tracker;

/// Why a run could not start or continue.
#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    #[error("engine `{name}` cannot be used: {why}")]
    EngineStart { name: String, why: String },
    #[error(transparent)]
    OutputDir(#[from] FolderError),
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The run has played, but its outputs could not be written (a full disk): the
    /// journal holds every game and the previous outputs are as they were.
    #[error("{source} (every game is in the journal and the previous outputs are unchanged: `xq-runner resume {}` writes them once the disk has room)", .dir.display())]
    Outputs {
        dir: PathBuf,
        #[source]
        source: FilesError,
    },
}

impl RunError {
    /// The exit code of a run that ends in this error: 4 (aborted) when the run played
    /// and its outputs could not be written, 2 (nothing started) otherwise.
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            RunError::Outputs { .. } => exit::ABORTED,
            _ => exit::USAGE,
        }
    }
}

/// How a run starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub folder: FolderUse,
    /// The part of the run this folder plays (`--shard I/N`), if not all of it.
    pub shard: Option<Shard>,
    /// Whether the run stands alone or is a part of a larger workload.
    pub part: Part,
}

/// Whether a run is a workload of its own, or a part of one (a bisection's step, a
/// scaling point) whose own command is what a user resumes: a part's folder is not the
/// one to name in a hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A run of its own: `Resuming ...` when it resumes, `Resume with: xq-runner resume
    /// <its folder>` when it stops early.
    Alone,
    /// A part of a workload, which prints its own resume hint; `Resuming ...` when it
    /// resumes from an earlier session.
    Of,
    /// A part its workload extends in the same session (an interleaved scaling point's
    /// next round): no resume in the user's sense, so neither line.
    Extended,
}

impl Start {
    /// A new run of every pair.
    #[must_use]
    pub fn new_run() -> Start {
        Start {
            folder: FolderUse::New,
            shard: None,
            part: Part::Alone,
        }
    }
}

/// Loads the openings, checking every line (a run's first step, and all a dry run
/// does with them).
///
/// # Errors
/// [`RunError::Openings`] for a file that cannot be read or a bad line.
pub fn load_openings(plan: &Plan) -> Result<Option<(OpeningBook, OpeningSequence)>, RunError> {
    let Some(openings) = &plan.openings else {
        return Ok(None);
    };
    let (book, schedule) = OpeningBook::load_used(&openings.path, &book_use(plan, openings))
        .map_err(OpeningsError::from)?;
    Ok(Some((book, schedule)))
}

/// The fingerprint of the run's opening file, if it has one.
///
/// # Errors
/// [`RunError::Openings`] when the file cannot be read.
pub fn openings_input(loaded: &Loaded) -> Result<Option<InputFile>, RunError> {
    let Some(openings) = &loaded.plan.openings else {
        return Ok(None);
    };
    InputFile::of(&openings.path).map(Some).map_err(|source| {
        RunError::Openings(OpeningsError::Fingerprint {
            path: openings.path.clone(),
            source,
        })
    })
}

/// The cheap checks of a run's folder, nothing written: a new run's is free, a resumed
/// one holds this run with the same opening file. Returns the resumed run's `run.json`
/// and the opening file's fingerprint.
///
/// # Errors
/// [`RunError::OutputDir`] or [`RunError::Openings`].
pub fn check_folder(
    loaded: &Loaded,
    start: Start,
) -> Result<(Option<RunMeta>, Option<InputFile>), RunError> {
    let dir = &loaded.plan.output.dir;
    let input = openings_input(loaded)?;
    if start.folder == FolderUse::New {
        RunFolder::check_new(dir, Workload::Run)?;
        return Ok((None, input));
    }
    let meta = RunFolder::check_resume(dir, loaded, start.shard)?;
    if let (Some(was), Some(now)) = (&meta.openings, &input) {
        if was.fingerprint != now.fingerprint {
            return Err(RunError::Openings(OpeningsError::Changed {
                path: now.path.clone(),
                was: was.fingerprint.clone(),
                now: now.fingerprint.clone(),
            }));
        }
    }
    Ok((Some(meta), input))
}

/// The pairs a run (or its shard) still has to play.
fn pending(plan: &Plan, tracker: &Tracker, shard: Option<Shard>) -> Pending {
    let all = Pending::new(
        &Jobs::new(plan.pairings.clone(), plan.pairs),
        tracker.finished().clone(),
    );
    match shard {
        Some(s) => all.shard(s.index - 1, s.count),
        None => all,
    }
}

/// Every pair plays the same two games when nothing varies between pairs: no opening
/// file, and engines that search to a fixed depth or node count.
fn identical_games_warning(plan: &Plan) -> Option<&'static str> {
    let fixed = plan
        .engines
        .iter()
        .all(|e| e.time_control.is_deterministic());
    (plan.openings.is_none() && fixed && plan.pairs > 1).then_some(
        "warning: no opening file and every engine searches to a fixed depth or node count: every pair will replay the same two games; add an [openings] file",
    )
}

/// The counts of the games in the run's journal, and the length of its complete lines.
/// Every line must be one of the run's games (this folder's `shard`, the opening
/// `openings` gives each round): the first that is not refuses the resume, naming it,
/// before anything is played or written (exit 2); `resume --dry-run` checks the same.
/// Refusing, rather than skipping the line, keeps a damaged folder as it is for the
/// user to mend: a skipped line would be played again and then sit in the journal
/// beside its replacement.
///
/// # Errors
/// [`RunError::Journal`]: the journal cannot be read, or a line is not the run's.
pub fn played_so_far(
    plan: &Plan,
    shard: Option<Shard>,
    openings: Openings<'_>,
) -> Result<(Tracker, u64), RunError> {
    let path = plan.output.dir.join(JOURNAL_FILE);
    let names: Vec<String> = plan.engines.iter().map(|e| e.spec.name.clone()).collect();
    let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
    let run = RunGames {
        jobs: &jobs,
        names: &names,
        shard,
        openings,
    };
    let mut tracker = Tracker::new(run.names.to_vec(), plan.pairings.len());
    let mut line = 0;
    let mut foreign = None;
    // The games already played, streamed from the journal into the counts.
    let good_len = Journal::scan(&path, |_, entry| {
        // Every complete line before the last is an entry (else the scan fails), so the
        // entries counted are the lines.
        line += 1;
        if foreign.is_some() {
            return;
        }
        match run.check(&entry, tracker.finished()) {
            Ok(job) => {
                let (a, b) = plan.pairings[job.pairing];
                tracker.record(&entry, job.pairing, a, b);
            }
            Err(why) => foreign = Some((line, Box::new(why))),
        }
    })?;
    if let Some((line, why)) = foreign {
        return Err(RunError::Journal(JournalError::Foreign { path, line, why }));
    }
    Ok((tracker, good_len))
}

/// Plays (or resumes, or extends) a local run, and returns the exit code of its ending
/// (what it ended with is printed and stored in `run.json`).
///
/// # Errors
/// [`RunError`] when the run cannot start: bad openings, an output folder that holds
/// another run or cannot be written, an engine that does not start. Nothing has been
/// started or written then.
pub async fn run(loaded: &Loaded, start: Start) -> Result<u8, RunError> {
    let plan = &loaded.plan;
    let dir = plan.output.dir.clone();
    let journal_path = dir.join(JOURNAL_FILE);
    // The cheap checks first, the engines last: a refused run has started nothing.
    super::own_files::check_pgnout(plan, None)?;
    let openings = load_openings(plan)?;
    let (resumed, openings_input) = check_folder(loaded, start)?;
    // Held until the run's files are written: no other runner reads or writes the
    // journal meanwhile. A new run takes it when it creates the folder.
    let mut folder = resumed
        .as_ref()
        .map(|_| RunFolder::open(&dir))
        .transpose()?;
    let schedule = openings.as_ref().map(|(_, schedule)| schedule);
    let (tracker, good_len) = played_so_far(plan, start.shard, schedule.into())?;
    let unknown_options = preflight(plan).await?;
    for (engine, options) in &unknown_options {
        eprintln!("warning: {}", unknown_options_line(engine, options));
    }
    let mut meta = match resumed {
        Some(meta) => {
            Journal::cut_to(&journal_path, good_len)?;
            meta
        }
        None => {
            let meta = RunMeta {
                version: env!("CARGO_PKG_VERSION").to_owned(),
                config_hash: loaded.hash.clone(),
                config: loaded.text.clone(),
                openings: openings_input,
                shard: start.shard,
                db_run: None,
                played_s: 0.0,
            };
            folder = Some(RunFolder::create(&dir, Workload::Run, |dir| {
                Ok(meta.write(dir)?)
            })?);
            meta
        }
    };
    // A resume may extend the run: keep the config it now plays.
    meta.config.clone_from(&loaded.text);
    meta.write(&dir).map_err(FolderError::from)?;

    let session = Session::play(loaded, start, openings, tracker).await?;
    meta.played_s += session.elapsed_s;
    if let Err(e) = meta.write(&dir) {
        eprintln!("warning: {e}");
    }
    RunFiles {
        plan,
        hash: &loaded.hash,
        tracker: &session.tracker,
        ending: &session.ending,
        played_s: meta.played_s,
        cost: RunnerCost::measure(session.moves),
        book: session.run.openings.as_ref().map(|(book, _)| book),
        date: today(),
    }
    .write_noting(&dir, &unknown_options)
    .map_err(|source| RunError::Outputs {
        dir: dir.clone(),
        source,
    })?;
    drop(folder);
    let tracker = &session.tracker;
    if session.block_due {
        crate::stdout::line(report_text(plan, tracker).trim_end());
    }
    let mut last =
        crate::output::text::finished_text(&session.ending, tracker.games(), meta.played_s, &dir);
    if tracker.unpaired() > 0 {
        last.push_str(&unpaired_note(tracker.unpaired(), &session.ending));
    }
    crate::stdout::line(last);
    if session.ending.is_aborted() && start.part == Part::Alone {
        crate::stdout::line(format_args!(
            "Resume with: xq-runner resume {}",
            dir.display()
        ));
    }
    Ok(session.ending.exit_code())
}

/// What the last line says of the games whose pair is unfinished: a resume plays their
/// partners only when the run stopped early; after a verdict (or any other ending) a
/// resume plays nothing, and they stay out of the counts.
fn unpaired_note(games: usize, ending: &Ending) -> String {
    let (count, partners) = if games == 1 {
        ("1 game".to_owned(), "its partner was")
    } else {
        (format!("{games} games"), "their partners were")
    };
    if ending.is_aborted() {
        format!(" ({count} of unfinished pairs not counted: a resume plays their partners)")
    } else {
        format!(" ({count} of unfinished pairs not counted: the run ended ({ending}) before {partners} played)")
    }
}

/// One session of play: from the start (or resume) until every pair is played or the
/// run stops.
struct Session {
    tracker: Tracker,
    ending: Ending,
    elapsed_s: f64,
    moves: u64,
    /// The result block was not printed at the last game: print it at the end.
    block_due: bool,
    /// The plan and the openings the games were played from (the PGN names them).
    run: Arc<RunContext>,
}

impl Session {
    async fn play(
        loaded: &Loaded,
        start: Start,
        openings: Option<(OpeningBook, OpeningSequence)>,
        mut tracker: Tracker,
    ) -> Result<Session, RunError> {
        let plan = &loaded.plan;
        let began = Instant::now();
        let journal_path = plan.output.dir.join(JOURNAL_FILE);
        let mut journal = Journal::open(&journal_path)?;
        let queue = pending(plan, &tracker, start.shard);
        let total = tracker.games_recorded() + queue.remaining_games();
        let progress = Progress::new(total, tracker.games_recorded());
        if start.folder == FolderUse::Resume && start.part != Part::Extended {
            progress.println(&format!(
                "Resuming {}: {} games already played",
                plan.output.dir.display(),
                tracker.games_recorded()
            ));
        } else if let Some(warning) = identical_games_warning(plan) {
            progress.println(warning);
        }
        progress.println(&crate::output::settings::pairing_header(plan));
        // A shard plays all its pairs: its run's verdict comes at `merge`, from them all.
        let sequential = start.shard.is_none();
        let verdict = |tracker: &Tracker| {
            if sequential {
                ending::verdict(plan, tracker)
            } else {
                None
            }
        };
        let mut ending: Option<Ending> = verdict(&tracker);
        let workers = if ending.is_some() {
            0
        } else {
            usize::try_from(queue.remaining())
                .map_or(plan.concurrency, |left| plan.concurrency.min(left))
        };
        let (state_tx, state_rx) = watch::channel(RunState::Running);
        let run = Arc::new(RunContext {
            plan: plan.clone(),
            openings,
            random_plies: None,
        });
        let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
        let mut pool = Pool::start(&run, Vec::new(), workers);
        let mut queue = Queuer {
            pending: queue,
            state: state_rx,
        };
        // Two pairs a slot ahead: a slot that ends a pair finds the next one queued.
        queue.top_up(&pool, 2 * workers);
        let interrupted = Arc::new(AtomicBool::new(false));
        let signals = tokio::spawn(stop_on_signal(
            "stopping games, killing engines, saving the results",
            state_tx.clone(),
            Arc::clone(&interrupted),
        ));

        let interval = plan.output.report_interval;
        let mut moves = 0;
        let mut verdict_reached = false;
        while let Some(report) = pool.next().await {
            let entry = match report {
                Report::Game((), entry) => entry,
                Report::Pair((), PairEnd::Failed(why)) => {
                    progress.println(&format!("error: {why}; stopping"));
                    ending.get_or_insert_with(|| Ending::aborted(&why));
                    // Fails only when no slot listens any more: then none is playing.
                    let _ = state_tx.send(RunState::Stopping);
                    pool.finish();
                    continue;
                }
                Report::Pair((), _) => {
                    queue.top_up(&pool, 1);
                    continue;
                }
            };
            if verdict_reached {
                // A game that ended after the verdict is dropped like the games still in
                // progress: the counts stay those the verdict was reached on. (Games that
                // end after a signal or an abort are kept: the run will be resumed.)
                continue;
            }
            if let Err(e) = journal.append(&entry) {
                progress.println(&format!("error: {e}; stopping"));
                ending.get_or_insert_with(|| Ending::aborted(&e.to_string()));
                // Fails only when no slot listens any more: then none is playing.
                let _ = state_tx.send(RunState::Stopping);
                continue;
            }
            let job = jobs.job(entry.pair, entry.game);
            let (a, b) = plan.pairings[job.pairing];
            let pairs_before = tracker.pairs();
            tracker.record(&entry, job.pairing, a, b);
            moves += entry.plies as u64;
            progress.println(&finished_line(
                job.pair * 2 + u64::from(job.game) + 1,
                &entry,
            ));
            progress.game_done(
                estimate_message(plan, &tracker),
                crate::output::progress::SprtPace::of(&tracker.tally(0), plan.sprt.as_ref()),
            );
            if tracker.pairs() != pairs_before && tracker.pairs().is_multiple_of(interval) {
                progress.println(&report_text(plan, &tracker));
            }
            if ending.is_some() {
                continue;
            }
            if let Some(reason) = ending::fault_limit(plan, &tracker) {
                progress.println(&format!("Aborting: {reason}"));
                ending = Some(Ending::aborted(&reason));
            } else if let Some(reached) = verdict(&tracker) {
                ending = Some(reached);
                verdict_reached = true;
            }
            if ending.is_some() {
                // Fails only when no slot listens any more: then none is playing.
                let _ = state_tx.send(RunState::Stopping);
                pool.finish();
            }
        }
        close_all(pool.close().await).await;
        signals.abort();
        progress.finish();
        let ending = if interrupted.load(Ordering::SeqCst) {
            Ending::interrupted()
        } else {
            ending.unwrap_or_else(|| match start.shard {
                Some(shard) => Ending::shard_done(shard),
                None => ending::when_complete(plan, &tracker),
            })
        };
        Ok(Session {
            block_due: !tracker.pairs().is_multiple_of(interval) || tracker.pairs() == 0,
            tracker,
            ending,
            elapsed_s: began.elapsed().as_secs_f64(),
            moves,
            run,
        })
    }
}

/// What a run queues next: its pending pairs in order, all under the run's one state.
struct Queuer {
    pending: Pending,
    state: watch::Receiver<RunState>,
}

impl Queuer {
    /// Queues up to `n` more pairs; once none is left, lets the slots end.
    fn top_up(&mut self, pool: &Pool<()>, n: usize) {
        if *self.state.borrow() == RunState::Stopping {
            pool.finish();
            return;
        }
        let state = &self.state;
        let added = pool.add(self.pending.by_ref().take(n).map(|pair| Order {
            tag: (),
            pair,
            options: None,
            state: state.clone(),
        }));
        if added < n as u64 {
            pool.finish();
        }
    }
}

/// Elo and LLR for the progress bar.
fn estimate_message(plan: &Plan, tracker: &Tracker) -> String {
    let tally = tracker.tally(0);
    let e = Estimate::reported(&tally.penta);
    let mut message = if e.is_undefined() {
        "Elo n/a (no complete pair yet)".to_owned()
    } else {
        format!("Elo {:.1} +/- {:.1}", e.elo, e.elo_ci95)
    };
    if let Some(report) = plan
        .sprt
        .as_ref()
        .and_then(|s| StatsReport::from_tally(&tally, s).ok())
    {
        message.push_str(&format!(
            ", LLR {:.2} ({:.2}, {:.2})",
            report.llr, report.llr_lower, report.llr_upper
        ));
    }
    message
}

/// The result block (match) or the rating table (more engines), then the engines'
/// moves over their clocks, if any went over.
#[must_use]
pub fn report_text(plan: &Plan, tracker: &Tracker) -> String {
    let block = match plan.kind {
        TournamentKind::Match => {
            let names = (
                plan.engines[0].spec.name.as_str(),
                plan.engines[1].spec.name.as_str(),
            );
            result_block(names, &tracker.tally(0), plan.sprt.as_ref())
        }
        TournamentKind::Gauntlet | TournamentKind::RoundRobin | TournamentKind::Ladder => {
            rating_table(&ratings(tracker))
        }
    };
    block + &over_clock::text(&over_clock_lines(plan, tracker))
}
