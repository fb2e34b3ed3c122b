//! The worker: claims a batch of an open run, plays it on its own engines with the same
//! game code as a local run, renews the lease while it plays, and submits the games;
//! then the next batch. The server checks and counts the games, and the submit that
//! reaches a verdict (or a fault limit, or the last pair) closes the run there.
//!
//! The server may go away: every call is retried with backoff on a new connection, and a
//! played batch is kept until it is committed or its lease is known lost (another worker
//! has it; the claim's token then refuses the late result). A signal drops the batch in
//! play, kills every engine and gives the batch back (exit 4); between batches it ends
//! the worker quietly (exit 0: nothing was dropped).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::cache::{fetch_run, Cache, Ready};
use super::prepare::{prepare, ReadyRun};
use crate::exit;
use crate::play::engines::Engines;
use crate::play::pool;
use crate::play::RunState;
use crate::store::pg::batches::Claim;
use crate::store::pg::runs::RunRow;
use crate::store::pg::{Db, DbError, Target};

/// How a worker works.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    pub target: Target,
    pub name: String,
    /// Games played at once (one per slot).
    pub concurrency: usize,
    /// Only this run.
    pub run: Option<i64>,
    /// The lease of a batch; renewed every third of it.
    pub lease: Duration,
    /// Keep polling for new runs until a signal.
    pub wait: bool,
    /// Pairs asked for per batch (the run's own size when `None`).
    pub batch_pairs: Option<u64>,
    /// Pause between looks for work when there is none.
    pub poll: Duration,
    /// Where the files runs carry are kept (`None`: play from the config's paths, as
    /// the machine that submitted the run can).
    pub cache: Option<Cache>,
}

/// The longest pause between two tries at a database that went away.
const MAX_BACKOFF: Duration = Duration::from_secs(8);

/// Why the worker stopped.
#[derive(Debug)]
pub(super) enum WorkerStop {
    /// A signal.
    Signal,
    /// An answer that will not change (a bad run id, a schema of another version).
    Fatal(DbError),
}

/// The worker's connection, opened again whenever it breaks.
pub(super) struct WorkerConnection {
    pub(super) db: Db,
    pub(super) stop: watch::Receiver<bool>,
}

/// Runs a database call until it succeeds or fails for good, reconnecting with backoff
/// while the server is away: `retry!(link, "what", |db| db.call(...))`.
macro_rules! retry {
    ($link:expr, $what:expr, |$db:ident| $call:expr) => {{
        let mut pause = std::time::Duration::from_millis(250);
        loop {
            if *$link.stop.borrow() {
                break Err(WorkerStop::Signal);
            }
            let result = {
                let $db = &mut $link.db;
                $call.await
            };
            match result {
                Ok(value) => break Ok(value),
                Err(e) => {
                    if let Err(stop) = $link.recover($what, e, &mut pause).await {
                        break Err(stop);
                    }
                }
            }
        }
    }};
}
pub(super) use retry;

impl WorkerConnection {
    /// After a failed call: for a server that went away, waits and reconnects (the
    /// caller tries again); any other error ends the worker.
    pub(super) async fn recover(
        &mut self,
        what: &str,
        e: DbError,
        pause: &mut Duration,
    ) -> Result<(), WorkerStop> {
        if !(e.is_transient() || self.db.is_closed()) {
            return Err(WorkerStop::Fatal(e));
        }
        tracing::warn!("{what}: {e}; trying again in {:.1} s", pause.as_secs_f64());
        self.sleep(*pause).await?;
        *pause = (*pause * 2).min(MAX_BACKOFF);
        self.reconnect().await;
        Ok(())
    }

    /// A new connection, listening for the news of runs; the old one stays when the
    /// server is still away.
    pub(super) async fn reconnect(&mut self) {
        if let Ok(db) = self.db.reopen().await {
            if db.listen().await.is_ok() {
                self.db = db;
            }
        }
    }

    /// Sleeps, unless a signal comes first.
    async fn sleep(&mut self, pause: Duration) -> Result<(), WorkerStop> {
        tokio::select! {
            () = tokio::time::sleep(pause) => Ok(()),
            _ = self.stop.wait_for(|s| *s) => Err(WorkerStop::Signal),
        }
    }

    /// Waits for work: until a run is submitted, a batch given back or a run closed
    /// (the server says so), or `pause` at most (a lease that runs out says nothing).
    async fn wait_for_work(&mut self, pause: Duration) -> Result<(), WorkerStop> {
        tokio::select! {
            () = tokio::time::sleep(pause) => Ok(()),
            () = self.db.runs_changed() => Ok(()),
            _ = self.stop.wait_for(|s| *s) => Err(WorkerStop::Signal),
        }
    }
}

/// What the worker keeps per run.
pub(super) struct WorkerRun {
    pub(super) prepared: ReadyRun,
    pub(super) slots: Vec<Engines>,
    /// The run's own batch size.
    pub(super) run_batch: u64,
    /// Pairs to ask for in the next batch (see [`next_batch_pairs`]).
    pub(super) pairs: u64,
    /// The engine faults of the games this worker handed in for the run.
    pub(super) faults: FaultTally,
}

/// A worker's engine faults in the games it handed in for one run, since it started:
/// more than fishtest tolerates of a task (`fit::too_many_faults`) and the worker
/// leaves the run, saying why, rather than hand in more games its machine cannot play
/// (a missing library, an overloaded CPU losing on time) until the run's own fault
/// limits abort the run for every worker. Counted from this start only, so that a
/// worker restarted on a mended machine plays the run again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct FaultTally {
    games: u64,
    crashes_and_stalls: u64,
    time_losses: u64,
}

impl FaultTally {
    /// The faults of a batch's games.
    pub(super) fn of(games: &[crate::store::journal::JournalEntry]) -> FaultTally {
        use crate::game::EndReason;
        let count = |reasons: &[EndReason]| {
            games.iter().filter(|g| reasons.contains(&g.reason)).count() as u64
        };
        FaultTally {
            games: games.len() as u64,
            crashes_and_stalls: count(&[EndReason::Crash, EndReason::Stall]),
            time_losses: count(&[EndReason::TimeForfeit]),
        }
    }

    pub(super) fn add(&mut self, other: FaultTally) {
        self.games += other.games;
        self.crashes_and_stalls += other.crashes_and_stalls;
        self.time_losses += other.time_losses;
    }

    /// Why the worker leaves the run, once it must.
    pub(super) fn too_many(&self) -> Option<String> {
        super::fit::too_many_faults(self.games, self.crashes_and_stalls, self.time_losses)
            .map(|why| format!("its engines failed on this worker: {why}"))
    }
}

/// How long a batch should last at least: its fixed cost (a claim, a submit, the slots
/// idle while its last games end) is then a small part of it, even with instant
/// engines. At a real clock a pair lasts longer and the run's batch size rules.
const BATCH_AT_LEAST: Duration = Duration::from_secs(4);

/// The pairs of the next batch, from the pace of the last one: enough for every slot,
/// at least the run's batch size, enough to last [`BATCH_AT_LEAST`], and at most four
/// times the last (the pace may change). The server hands out less near the run's end.
pub(super) fn next_batch_pairs(run_batch: u64, slots: usize, last: &Claim, busy: Duration) -> u64 {
    let floor = run_batch.max(slots as u64).max(1);
    let per_pair = busy.as_secs_f64() / last.pairs.max(1) as f64;
    let for_duration = if per_pair > 0.0 {
        (BATCH_AT_LEAST.as_secs_f64() / per_pair).ceil() as u64
    } else {
        floor
    };
    for_duration.clamp(floor, (last.pairs * 4).max(floor))
}

/// Works until there is nothing left to do (or, with `wait`, until a signal). Returns
/// the exit code: 0 done, or stopped by a signal while it held no batch (a clean stop:
/// nothing was dropped), 2 bad input (an unknown or cancelled run, a database that
/// cannot be used), 4 stopped by a signal with a batch in play (given back) or an
/// aborted run.
pub async fn work(options: WorkerOptions) -> u8 {
    let (stop_tx, stop) = watch::channel(false);
    // Whether a batch is in play: a signal then drops it, and says so; an idle worker
    // stops quietly.
    let playing = Arc::new(AtomicBool::new(false));
    let in_play = Arc::clone(&playing);
    tokio::spawn(crate::signals::stop_then_exit_saying(
        move || {
            in_play
                .load(Ordering::SeqCst)
                .then(|| "dropping the batch in play, killing engines".to_owned())
        },
        exit::ABORTED,
        move || {
            let _ = stop_tx.send(true);
        },
    ));
    let db = match Db::open(&options.target).await {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    if let Err(e) = db.listen().await {
        eprintln!("error: {e}");
        return exit::USAGE;
    }
    let mut link = WorkerConnection { db, stop };
    let mut assignments: HashMap<i64, WorkerRun> = HashMap::new();
    let code = match work_loop(&options, &mut link, &mut assignments, &playing).await {
        Ok(code) => code,
        // Between batches: nothing was dropped.
        Err(WorkerStop::Signal) => exit::OK,
        Err(WorkerStop::Fatal(e)) => {
            eprintln!(
                "error: {}",
                super::roles::explain(
                    &e,
                    &options.target,
                    "play batches",
                    super::roles::Role::Worker
                )
            );
            exit::USAGE
        }
    };
    for (_, a) in assignments.drain() {
        pool::close_all(a.slots).await;
    }
    code
}

async fn work_loop(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    assignments: &mut HashMap<i64, WorkerRun>,
    playing: &AtomicBool,
) -> Result<u8, WorkerStop> {
    let mut refused: HashSet<i64> = HashSet::new();
    let machine = crate::store::pg::machine::Machine::here();
    let mut machine_told = false;
    loop {
        let concurrency = options.concurrency;
        retry!(link, "heartbeat", |db| db.heartbeat(
            &options.name,
            None,
            concurrency
        ))?;
        // Once, after the heartbeat bound the name: the workers page shows the machine.
        // A server that refuses it (an odd host name) costs the page a column, no work.
        if !machine_told {
            if let Err(e) = link.db.report_machine(&options.name, &machine).await {
                tracing::warn!("reporting the machine: {e}");
            }
            machine_told = true;
        }
        let runs: Vec<RunRow> = match options.run {
            Some(id) => {
                let run = retry!(link, "reading the run", |db| db.run(id))?;
                if !run.is_open() {
                    return Ok(closed_run_code(&run));
                }
                vec![run]
            }
            None => retry!(link, "reading the runs", |db| db.runs(true))?,
        };
        let mut claimed = None;
        let mut waiting_for_leases = false;
        for run in &runs {
            if refused.contains(&run.id) {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = assignments.entry(run.id) {
                let ready = match &options.cache {
                    Some(cache) => retry!(link, "fetching the run's files", |db| fetch_run(
                        db, cache, run
                    ))?,
                    None => Ok(Ready::default()),
                };
                // The run's files fetched, then its engines checked: one refusal for both.
                let prepared = match ready {
                    Ok(ready) => {
                        for (name, bytes) in &ready.fetched {
                            crate::stdout::line(format_args!(
                                "run {}: fetched {name} ({})",
                                run.id,
                                super::uploads::size_text(*bytes)
                            ));
                        }
                        prepare(run, options.concurrency, &ready.overrides).await
                    }
                    Err(why) => Err(why),
                };
                match prepared {
                    Ok(prepared) => {
                        if !prepared.bench_nps.is_empty() {
                            retry!(link, "reporting the bench", |db| db.report_bench(
                                run.id,
                                &options.name,
                                &prepared.bench_nps
                            ))?;
                        }
                        // What the engines call themselves is for the page alone: a
                        // name the server refuses (too long) costs the page that name.
                        if !prepared.announced.is_empty() {
                            if let Err(e) = link
                                .db
                                .report_announced(run.id, &options.name, &prepared.announced)
                                .await
                            {
                                tracing::warn!("reporting the engines' names: {e}");
                            }
                        }
                        slot.insert(WorkerRun {
                            prepared,
                            slots: Vec::new(),
                            run_batch: u64::from(run.batch_pairs),
                            pairs: u64::from(run.batch_pairs).max(options.concurrency as u64),
                            faults: FaultTally::default(),
                        });
                    }
                    Err(why) => {
                        eprintln!("refusing run {}: {why}", run.id);
                        retry!(link, "refusing a run", |db| db.refuse(
                            run.id,
                            &options.name,
                            &why
                        ))?;
                        refused.insert(run.id);
                        continue;
                    }
                }
            }
            let pairs = match (options.batch_pairs, assignments.get(&run.id)) {
                (Some(fixed), _) => fixed.max(1),
                (None, Some(a)) => a.pairs,
                (None, None) => u64::from(run.batch_pairs).max(1),
            };
            let claim = retry!(link, "claiming a batch", |db| db.claim(
                run.id,
                &options.name,
                pairs,
                options.lease
            ))?;
            match claim {
                Some(claim) => {
                    claimed = Some(claim);
                    break;
                }
                None => waiting_for_leases |= run.next_pair >= run.total_pairs && run.is_open(),
            }
        }
        let Some(claim) = claimed else {
            if options.run.is_some() && refused.contains(&options.run.unwrap_or_default()) {
                return Ok(exit::USAGE);
            }
            if waiting_for_leases || options.wait {
                // Pairs under other workers' leases: if those workers die, this one
                // takes the pairs over, so none is left unplayed.
                link.wait_for_work(options.poll).await?;
                continue;
            }
            return Ok(exit::OK);
        };
        let Some(assignment) = assignments.get_mut(&claim.run) else {
            continue;
        };
        playing.store(true, Ordering::SeqCst);
        let played = play_and_submit(options, link, assignment, &claim).await;
        playing.store(false, Ordering::SeqCst);
        match played {
            Ok(AfterBatch::LeaveRun) => {
                refused.insert(claim.run);
            }
            Ok(AfterBatch::KeepPlaying) => {}
            // Stopped with a batch in play: it was dropped and given back.
            Err(WorkerStop::Signal) => return Ok(exit::ABORTED),
            Err(e) => return Err(e),
        }
    }
}

/// The exit code of `worker --run ID` for a run that is not open.
fn closed_run_code(run: &RunRow) -> u8 {
    match run.state.as_str() {
        "cancelled" => {
            eprintln!("error: run {} was cancelled", run.id);
            exit::USAGE
        }
        "aborted" => {
            eprintln!("error: run {} was aborted: {}", run.id, run.status);
            exit::ABORTED
        }
        _ => exit::OK,
    }
}

/// Whether the worker goes on with a run after a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AfterBatch {
    KeepPlaying,
    /// Its engines cannot play the run here: the run is refused, for good.
    LeaveRun,
}

/// One renewal tick of a batch being played: the heartbeat (which only shows the worker
/// in `status`) and the lease (which is what counts).
pub(super) async fn keep_lease(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    claim: &Claim,
    batch_tx: &watch::Sender<RunState>,
) {
    heartbeat(options, link, claim.run).await;
    renew(options, link, claim, batch_tx).await;
}

/// Says the worker is alive and on `run`; a failure only shows in `status`.
pub(super) async fn heartbeat(options: &WorkerOptions, link: &mut WorkerConnection, run: i64) {
    if let Err(e) = link
        .db
        .heartbeat(&options.name, Some(run), options.concurrency)
        .await
    {
        tracing::warn!("heartbeat: {e}");
    }
}

/// Renews a batch's lease. A lease known lost stops the batch; a failed renewal keeps it
/// playing, as the lease may still hold when the server is back.
pub(super) async fn renew(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    claim: &Claim,
    batch_tx: &watch::Sender<RunState>,
) {
    match link.db.renew(claim, options.lease).await {
        Ok(true) => {}
        Ok(false) => {
            // The batch's games see it when they next look; nobody else listens.
            let _ = batch_tx.send(RunState::Stopping);
            lost_batch(link, claim).await;
        }
        Err(e) => {
            tracing::warn!("renewing batch {}: {e}", claim.batch);
            if link.db.is_closed() {
                link.reconnect().await;
            }
        }
    }
}

/// Says why a batch whose lease could not be renewed is dropped: its run was cancelled
/// or ended (a user reading the worker's output wants the run's news, not a lease's), or
/// the lease ran out and another worker has the batch.
async fn lost_batch(link: &mut WorkerConnection, claim: &Claim) {
    let batch = claim.batch;
    match link.db.run(claim.run).await {
        Ok(run) if run.state == "cancelled" => crate::stdout::line(format_args!(
            "run {} was cancelled: dropping batch {batch}",
            run.id
        )),
        Ok(run) if !run.is_open() => crate::stdout::line(format_args!(
            "run {} ended ({}): dropping batch {batch}",
            run.id,
            crate::output::printable::printable(&run.status)
        )),
        _ => tracing::warn!(
            "batch {batch} is lost (its lease ran out and another worker has it): dropping it"
        ),
    }
}

/// Plays a claimed batch and the run's batches after it (a match), or the one batch (a
/// tune), renewing the leases, and submits them.
async fn play_and_submit(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    assignment: &mut WorkerRun,
    claim: &Claim,
) -> Result<AfterBatch, WorkerStop> {
    if let Some(tune) = assignment.prepared.tune.clone() {
        let context = Arc::clone(&assignment.prepared.context);
        return super::tune_batch::play_and_submit(options, link, &tune, &context, claim).await;
    }
    super::match_batches::play_run(options, link, assignment, claim.clone()).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(pairs: u64) -> Claim {
        Claim {
            run: 1,
            batch: 1,
            token: String::new(),
            first_pair: 0,
            pairs,
        }
    }

    #[test]
    fn batches_grow_while_they_are_short_and_never_starve_a_slot() {
        // 4 pairs in 40 ms: 4 s would take 400 pairs, but growth is at most 4x.
        assert_eq!(
            next_batch_pairs(4, 2, &claim(4), Duration::from_millis(40)),
            16
        );
        assert_eq!(
            next_batch_pairs(4, 2, &claim(16), Duration::from_millis(160)),
            64
        );
        // 256 pairs in 2.56 s: 400 pairs are within 4x 256.
        assert_eq!(
            next_batch_pairs(4, 2, &claim(256), Duration::from_millis(2560)),
            400
        );
        // At a real clock the run's size rules, but every slot gets a pair.
        assert_eq!(
            next_batch_pairs(4, 2, &claim(4), Duration::from_secs(300)),
            4
        );
        assert_eq!(
            next_batch_pairs(4, 16, &claim(16), Duration::from_secs(300)),
            16
        );
        assert_eq!(next_batch_pairs(4, 1, &claim(4), Duration::ZERO), 4);
    }
}
