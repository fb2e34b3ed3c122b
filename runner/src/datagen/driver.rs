//! The datagen loop, a policy over the slot pool (`crate::play`): games handed out by
//! index to the free slots, each finished game's record appended to the ledger the
//! moment it arrives, until the games hold the positions asked for.
//!
//! Each queued order is one game: a pair of which only game 0 is to be played. Both
//! games of a pair would start from the same position, and at fixed nodes one engine
//! against itself plays the same game twice; so every game is its own round instead,
//! with its own opening (the book's order by round) and its own random plies (seeded by
//! the round), and the round is the game's index in the ledger.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::watch;

use super::config::DatagenPlan;
use super::engine_build::EngineBuild;
use super::folder::{self, DatagenMeta};
use super::game_line::ledger_line;
use super::ledger::Ledger;
use crate::exit;
use crate::play::engines::RunContext;
use crate::play::pool::{close_all, Order, PairEnd, Pool, Report};
use crate::play::random_plies::RandomPlies;
use crate::play::{stop_on_signal, RunState};
use crate::store::folder::{RunFolder, DATAGEN_LEDGER};
use crate::store::layout::PairJob;
use crate::tune::driver::FaultCounter;

/// How a datagen ended.
#[derive(Debug)]
pub struct DatagenOutcome {
    pub exit_code: u8,
    /// It can be continued with `xq-runner resume DIR`.
    pub resumable: bool,
}

/// The game indices not in the ledger, in order, without end.
struct GameIndices {
    next: u64,
    done: HashSet<u64>,
}

impl Iterator for GameIndices {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        while self.done.contains(&self.next) {
            self.next += 1;
        }
        let game = self.next;
        self.next += 1;
        Some(game)
    }
}

/// Plays (or, with `resume`, continues) a datagen until its positions are written.
///
/// # Errors
/// One line when it cannot start (nothing is played then): bad openings, a folder that
/// is taken or holds another datagen, a ledger that cannot be read.
pub async fn datagen(
    dg: &DatagenPlan,
    meta: &DatagenMeta,
    resume: bool,
) -> Result<DatagenOutcome, String> {
    let plan = &dg.plan;
    let dir = plan.output.dir.clone();
    let openings = crate::local_run::tournament::load_openings(plan).map_err(|e| e.to_string())?;
    // Held while the datagen plays: one runner at a time in its folder.
    let run_folder = if resume {
        RunFolder::open(&dir).map_err(|e| e.to_string())?
    } else {
        folder::create(&dir, meta)?
    };
    let mut ledger = Ledger::open(&dir.join(DATAGEN_LEDGER)).map_err(|e| e.to_string())?;
    let target = dg.settings.positions;
    if resume {
        crate::stdout::line(format_args!(
            "Resuming {}: {} of {target} positions from {} games",
            dir.display(),
            ledger.positions,
            ledger.done.len()
        ));
    }
    // Every line written in this session names the build that played it.
    let (build, notes) = EngineBuild::of(&plan.engines[0].spec).await;
    for note in notes {
        crate::stdout::line(format_args!("{note}"));
    }
    let mut games = GameIndices {
        next: 0,
        done: ledger.done.clone(),
    };

    let (state_tx, state_rx) = watch::channel(RunState::Running);
    let interrupted = Arc::new(AtomicBool::new(false));
    // The games in progress are dropped: they are played again on resume.
    let signals = tokio::spawn(stop_on_signal(
        "stopping the games in progress, keeping the positions written",
        state_tx.clone(),
        Arc::clone(&interrupted),
    ));
    let run = Arc::new(RunContext {
        plan: plan.clone(),
        openings,
        random_plies: Some(RandomPlies {
            count: dg.settings.random_plies,
            seed: dg.settings.seed,
        }),
    });
    let slots = if ledger.positions >= target {
        0
    } else {
        plan.concurrency
    };
    let mut pool = Pool::start(&run, Vec::new(), slots);
    let mut in_flight = 0usize;
    let mut stop: Option<String> = None;
    let mut faults = FaultCounter::default();
    let began = Instant::now();
    let written_before = ledger.positions;
    let mut next_report = report_step(target, ledger.positions);
    loop {
        while stop.is_none()
            && *state_rx.borrow() == RunState::Running
            && ledger.positions < target
            && in_flight < slots
        {
            let Some(game) = games.next() else { break };
            pool.add([Order {
                tag: game,
                pair: PairJob {
                    pair: game,
                    todo: [true, false],
                },
                options: None,
                state: state_rx.clone(),
            }]);
            in_flight += 1;
        }
        if in_flight == 0 {
            pool.finish();
        }
        let entry = match pool.next().await {
            None => break,
            Some(Report::Pair(_, end)) => {
                in_flight = in_flight.saturating_sub(1);
                if let PairEnd::Failed(why) = end {
                    crate::stdout::line(format_args!("error: {why}; stopping"));
                    stop.get_or_insert(why);
                    let _ = state_tx.send(RunState::Stopping);
                }
                continue;
            }
            Some(Report::Game(_, entry)) => entry,
        };
        if stop.is_some() || ledger.positions >= target {
            // Played past the end (a slot finished as the target was reached): not kept,
            // so that a datagen that reached its target has no game beyond it.
            continue;
        }
        // One synced line: a kill before it is whole loses this game alone.
        if let Err(e) = ledger.append(&ledger_line(&entry, &build)) {
            let e = e.to_string();
            crate::stdout::line(format_args!("error: {e}; stopping"));
            stop.get_or_insert(e);
            let _ = state_tx.send(RunState::Stopping);
            continue;
        }
        if ledger.positions >= target {
            // Done: the games in progress are not needed.
            let _ = state_tx.send(RunState::Stopping);
        }
        if ledger.positions >= next_report || ledger.positions >= target {
            next_report = report_step(target, ledger.positions);
            progress(
                ledger.positions,
                target,
                ledger.done.len(),
                ledger.positions - written_before,
                began,
            );
        }
        if let Some(why) = faults.add(entry.reason, plan.faults) {
            if stop.is_none() {
                crate::stdout::line(format_args!("Aborting: {why}"));
                stop = Some(why);
                let _ = state_tx.send(RunState::Stopping);
            }
        }
    }
    close_all(pool.close().await).await;
    signals.abort();
    drop(run_folder);
    let finished = ledger.positions >= target;
    let status = if finished {
        "finished".to_owned()
    } else if interrupted.load(Ordering::SeqCst) {
        "interrupted".to_owned()
    } else {
        format!("aborted: {}", stop.as_deref().unwrap_or("stopped"))
    };
    crate::stdout::line(format_args!(
        "Datagen {status}: {} of {target} positions from {} games in {}",
        ledger.positions,
        ledger.done.len(),
        dir.join(DATAGEN_LEDGER).display()
    ));
    Ok(DatagenOutcome {
        exit_code: if finished { exit::OK } else { exit::ABORTED },
        resumable: !finished,
    })
}

/// The count at which the next progress line is printed: every tenth of the target.
fn report_step(target: u64, written: u64) -> u64 {
    let step = (target / 10).max(1);
    (written / step + 1) * step
}

fn progress(written: u64, target: u64, games: usize, this_session: u64, began: Instant) {
    let secs = began.elapsed().as_secs_f64();
    let rate = if secs > 0.0 {
        this_session as f64 / secs
    } else {
        0.0
    };
    crate::stdout::line(format_args!(
        "{written} of {target} positions, {games} games, {rate:.1} positions/s"
    ));
}
