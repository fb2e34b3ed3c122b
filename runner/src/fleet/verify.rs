//! `verify`: every stored game of a run replayed with the rules judge, by the owner, to
//! find the games whose recorded ending does not follow from their moves, and the
//! workers that sent them. The server checked each game's shape, its place in the
//! schedule, its start and whether the config can end it so when it was submitted;
//! those are checked again here (a game stored by an older version was not), and the
//! moves are checked here, where the rules are.

use std::collections::BTreeMap;

use serde::Serialize;

use super::status::plan_of;
use crate::output::printable::printable;
use crate::store::journal::JournalEntry;
use crate::store::layout::Jobs;
use crate::store::pg::game_rules::Start;
use crate::store::pg::Db;
use crate::store::verify::{config_problem, problem};

/// A game whose ending does not follow from its moves.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub pair: Option<u64>,
    pub game: Option<u8>,
    pub worker: String,
    pub why: String,
}

/// The games of one worker.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct WorkerGames {
    pub games: u64,
    pub wrong: u64,
}

/// What `verify` found.
#[derive(Clone, Debug, Serialize)]
pub struct Verified {
    pub run: i64,
    pub games: u64,
    pub findings: Vec<Finding>,
    pub workers: BTreeMap<String, WorkerGames>,
    /// What could not be checked, and why.
    pub notes: Vec<String>,
}

/// Replays every stored game of run `id`.
///
/// # Errors
/// One line: no such run, a tune (whose games are not stored), a config that no longer
/// reads here, the database.
pub async fn verify(db: &Db, id: i64) -> Result<Verified, String> {
    let run = db.run(id).await.map_err(|e| e.to_string())?;
    if run.is_tune() {
        return Err(format!(
            "run {id} is a tune: its games are not stored, only their results"
        ));
    }
    let plan = plan_of(&run)?;
    let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
    let names: Vec<&str> = plan.engines.iter().map(|e| e.spec.name.as_str()).collect();
    let clocked: Vec<bool> = plan
        .engines
        .iter()
        .map(|e| e.time_control.is_clock())
        .collect();
    let starts = db.run_starts(id).await.map_err(|e| e.to_string())?;
    let mut verified = Verified {
        run: id,
        games: 0,
        findings: Vec::new(),
        workers: BTreeMap::new(),
        notes: Vec::new(),
    };
    if starts.is_none() {
        verified.notes.push(format!(
            "run {id} has no openings on record (stored by an older version, its opening file found nowhere when the database was upgraded): where its games start is not checked"
        ));
    }
    let pairings = plan.pairings.len();
    db.games_by_worker(id, |line, worker| {
        verified.games += 1;
        let (pair, game, why) = match serde_json::from_str::<JournalEntry>(line) {
            Ok(entry) => {
                let job = jobs.job(entry.pair, entry.game);
                let scheduled = (names.get(job.red), names.get(job.black));
                let why = if scheduled != (Some(&entry.red.as_str()), Some(&entry.black.as_str())) {
                    Some(format!(
                        "Red {} and Black {} are not the engines of this game",
                        entry.red, entry.black
                    ))
                } else {
                    let on_clock = |i: usize| clocked.get(i).copied().unwrap_or(false);
                    starts
                        .as_ref()
                        .and_then(|s| start_problem(&entry, s.of_pair(entry.pair, pairings)))
                        .or_else(|| {
                            config_problem(
                                &entry,
                                &plan.settings,
                                [on_clock(job.red), on_clock(job.black)],
                            )
                        })
                        .or_else(|| problem(&entry, &plan.settings))
                };
                (Some(entry.pair), Some(entry.game), why)
            }
            Err(e) => (None, None, Some(format!("not a journal entry: {e}"))),
        };
        let of_worker = verified.workers.entry(worker.to_owned()).or_default();
        of_worker.games += 1;
        if let Some(why) = why {
            of_worker.wrong += 1;
            verified.findings.push(Finding {
                pair,
                game,
                worker: worker.to_owned(),
                why,
            });
        }
    })
    .await
    .map_err(|e| e.to_string())?;
    Ok(verified)
}

/// Why `entry` does not start where its pair's games start (`want`, `None` for a pair
/// the run's openings do not reach), or `None`.
fn start_problem(entry: &JournalEntry, want: Option<&Start>) -> Option<String> {
    let index = |o: Option<usize>| o.map_or_else(|| "null".to_owned(), |o| o.to_string());
    match want {
        Some(w)
            if w.opening == entry.opening
                && w.fen == entry.start_fen
                && w.moves == entry.opening_moves =>
        {
            None
        }
        Some(w) => Some(format!(
            "starts from `{}` after `{}` (opening {}), not from its pair's opening {}: `{}` after `{}`",
            entry.start_fen,
            entry.opening_moves,
            index(entry.opening),
            index(w.opening),
            w.fen,
            w.moves
        )),
        None => Some("its pair has no opening on record".to_owned()),
    }
}

impl Verified {
    /// The findings, the workers and a last line, as text (what workers wrote escaped).
    #[must_use]
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for note in &self.notes {
            let _ = writeln!(out, "note: {note}");
        }
        for f in &self.findings {
            let place = match (f.pair, f.game) {
                (Some(pair), Some(game)) => format!("pair {pair} game {game}"),
                _ => "a stored game".to_owned(),
            };
            let _ = writeln!(
                out,
                "{place} (worker {}): {}",
                printable(&f.worker),
                printable(&f.why)
            );
        }
        if !self.workers.is_empty() {
            out.push_str("Workers:\n");
        }
        for (name, w) in &self.workers {
            let verdict = match w.wrong {
                0 => "all follow from their moves".to_owned(),
                1 => "1 does not follow from its moves".to_owned(),
                n => format!("{n} do not follow from their moves"),
            };
            let games = if w.games == 1 { "game" } else { "games" };
            let _ = writeln!(out, "  {}: {} {games}, {verdict}", printable(name), w.games);
        }
        let wrong = self.findings.len();
        let _ = writeln!(
            out,
            "Verified {} of run {}: {}",
            match self.games {
                1 => "1 game".to_owned(),
                n => format!("{n} games"),
            },
            self.run,
            match wrong {
                0 => "every ending follows from its moves".to_owned(),
                1 => "1 does not follow from its moves".to_owned(),
                n => format!("{n} do not follow from their moves"),
            }
        );
        out
    }
}
